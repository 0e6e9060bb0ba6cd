"""A flag's help that names something only to say it does not happen, or happens only without the
flag, does not make the flag noise or danger: a title that spares a prompt, a dry run that executes
nothing, a requirements file one of whose formats is experimental. Help strings are real tools'."""

from __future__ import annotations

from pathlib import Path

import pytest

from wrapgen.knowledge.dangerous_flags import help_danger
from wrapgen.model.tool import Flag
from wrapgen.parse import parse_help
from wrapgen.propose.args import flag_noise, plan_args

HELP = Path(__file__).parent.parent / "fixtures" / "help"


def _value(description: str) -> Flag:
    return Flag(long="--x", takes_value=True, type="string", description=description)


@pytest.mark.parametrize(
    "description",
    [
        "Supply a title. Will prompt for one otherwise.",  # an issue tracker CLI's create --title
        "Supply a body. Will prompt for one otherwise.",
        "Do not prompt for title/body and just use commit info",  # its pr create --fill
        "Password to use; prompts for it if not given",
    ],
)
def test_a_flag_that_spares_a_prompt_is_no_noise(description):
    assert flag_noise(_value(description)) is None


@pytest.mark.parametrize(
    "description",
    ["Prompt for confirmation before each removal", "prompt for the passphrase"],
)
def test_a_flag_that_makes_the_tool_prompt_stays_noise(description):
    assert flag_noise(_value(description)) == "interactive or presentation only"


def test_pr_create_offers_its_title_body_and_fill():
    create = parse_help(
        (HELP / "cobra" / "gh_pr_create.txt").read_text(encoding="utf-8"),
        prog=("gh", "pr", "create"),
        style="cobra",
    )
    plan = plan_args(
        create, tool="gh", effect="write", style="cobra", include=["title", "body", "fill"]
    )
    assert {"title", "body", "fill"} <= set(plan.properties), plan.left_out


@pytest.mark.parametrize(
    "description",
    [
        # a package manager's update --dry-run
        "Output the operations but do not execute anything (implicitly enables --verbose).",
        "Don't execute hooks",
        "Resolve the graph without executing any script",
        # a hook runner's run --files: the files the hooks run on, which a call names
        "Specific filenames to run hooks on.",
    ],
)
def test_a_danger_word_under_a_negation_or_naming_a_target_is_no_danger(description):
    assert help_danger(description) is None


@pytest.mark.parametrize(
    "description",
    [
        "Execute the given command",
        "Do not write the plan, execute it instead",  # the negation is another clause's
        "Run the script in each package",
    ],
)
def test_a_danger_word_said_plainly_stays_a_danger(description):
    assert help_danger(description) is not None


def test_a_flag_one_of_whose_formats_is_experimental_is_no_noise():
    # a package installer's -r: only a format it reads is experimental, in its fourth sentence
    requirement = _value(
        "Install from the given requirements file. The file or URL can be in pip's "
        "requirements.txt format, or pylock.toml format. Extras may be selected from a "
        "pylock.toml file by appending [extras] to the file name. pylock.toml support is "
        "experimental. This option can be used multiple times."
    )
    assert flag_noise(requirement) is None


@pytest.mark.parametrize(
    "description",
    ["Enable experimental features", "Use the new resolver (experimental).", "Sort. [alpha]"],
)
def test_an_experimental_flag_stays_noise(description):
    assert flag_noise(_value(description)) == "experimental"
