"""Symfony Console / cleo, kingpin and urfave/cli: the pieces their crawl relies on (pure functions)."""

from __future__ import annotations

from pathlib import Path

from wrapgen.model.tool import Command, Flag
from wrapgen.parse import parse_help
from wrapgen.parse.styles.kingpin import command_tree, default_paths, tree_children
from wrapgen.parse.styles.symfony import (
    is_list_help,
    listed_commands,
    nest,
    parse_symfony_json,
    split_inherited,
    value_choices,
)
from wrapgen.parse.styles.urfave import urfave_commands

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
HELP = FIXTURES / "help"


def _text(name: str) -> str:
    return (HELP / name).read_text(encoding="utf-8")


def test_symfony_json_gives_the_whole_tree_with_the_application_flags_apart():
    root = parse_symfony_json(
        (FIXTURES / "listings" / "composer_list.json").read_text(), prog=("composer",)
    )
    assert root is not None
    names = [s.name for s in root.subcommands]
    assert {"install", "require", "update", "list", "_complete"} <= set(names)
    assert len(names) == 34
    by_name = {s.name: s for s in root.subcommands}
    install = by_name["install"]
    own = {sp for f in install.flags for sp in f.spellings}
    shared = {sp for f in install.global_flags for sp in f.spellings}
    assert {"--prefer-dist", "--dry-run", "-o"} <= own and "--quiet" not in own
    assert {"--quiet", "-q", "--working-dir", "-d", "--verbose", "-vvv"} <= shared
    assert install.aliases == ("i",) and by_name["update"].aliases == ("u", "upgrade")
    assert install.positionals[0].name == "packages" and install.positionals[0].variadic
    verbose = next(f for f in root.flags if f.long == "--verbose")
    assert (verbose.short, verbose.aliases, verbose.takes_value) == ("-v", ("-vv", "-vvv"), False)
    ansi = next(f for f in root.flags if f.long == "--ansi")
    assert ansi.aliases == ("--no-ansi",) and not any(f.long == "--no-ansi" for f in root.flags)
    audit = next(f for f in install.flags if f.long == "--audit-format")
    assert audit.choices == ("table", "plain", "json", "summary") and audit.default == "summary"
    assert by_name["_complete"].hidden and not install.hidden
    assert not root.positionals and root.flags and not root.global_flags


def test_symfony_json_that_is_no_command_list_reads_as_none():
    for text in ("", "{broken", "[]", '{"commands": []}', '{"commands": [{"name": 3}]}', "null"):
        assert parse_symfony_json(text, prog=("composer",)) is None


def test_the_root_help_of_symfony_is_the_help_of_list():
    assert is_list_help(_text("symfony/composer_list.txt"))
    assert not is_list_help(_text("symfony/composer.txt")) and not is_list_help(
        _text("symfony/poetry_add.txt")
    )


def test_cleo_list_names_namespaced_commands_and_nests_them():
    listed = listed_commands(_text("symfony/poetry.txt"))
    words = [e.words for e in listed]
    assert (
        ("add",) in words and ("cache", "clear") in words and ("self", "show", "plugins") in words
    )
    assert next(e for e in listed if e.words == ("env", "info")).group == "env"
    tree = nest(listed)
    assert [s.name for s in tree[("cache",)]] == ["clear", "list"]
    assert [s.path for s in tree[("self", "show")]] == [("self", "show", "plugins")]
    root = parse_help(_text("symfony/poetry.txt"), prog=("poetry",))
    names = [s.name for s in root.subcommands]
    assert "cache" in names and "cache clear" not in names and len(names) == len(set(names))
    assert {f.long for f in root.flags} >= {"--quiet", "--project"} and "--format" not in {
        f.long for f in root.flags
    }


def test_symfony_listing_keeps_aliases_in_brackets():
    root = parse_help(_text("symfony/composer.txt"), prog=("composer",))
    by_name = {s.name: s for s in root.subcommands}
    assert by_name["clear-cache"].aliases == ("clearcache", "cc")
    assert by_name["clear-cache"].summary == "Clears composer's internal package cache"
    assert root.summary == "" and not root.positionals


def test_value_choices():
    assert value_choices("The output format (txt, xml, json, or md)") == (
        "txt",
        "xml",
        "json",
        "md",
    )
    assert value_choices(
        'Must be "table", "plain", "json", or "summary". [default: "summary"]'
    ) == ("table", "plain", "json", "summary")
    assert value_choices("Sets config options") == ()


def test_split_inherited_moves_only_the_application_flags():
    app = (Flag(long="--quiet", short="-q"), Flag(long="--verbose", short="-v"))
    page = Command(
        path=("add",), flags=(Flag(long="--dev", short="-D"), Flag(long="--quiet", short="-q"))
    )
    moved = split_inherited(page, app)
    assert [f.long for f in moved.flags] == ["--dev"] and [f.long for f in moved.global_flags] == [
        "--quiet"
    ]
    assert split_inherited(page, ()) == page


def test_kingpin_tree_is_absolute_on_every_page():
    tree = command_tree(_text("kingpin/amtool.txt"))
    paths = [e.words for e in tree]
    assert (
        ("config", "routes", "show") in paths
        and ("silence", "import") in paths
        and ("help",) in paths
    )
    assert ("alert", "query") in default_paths(tree)
    under = tree_children(command_tree(_text("kingpin/amtool_alert.txt")))
    assert [s.path for s in under[("alert",)]] == [("alert", "query"), ("alert", "add")]
    page = parse_help(_text("kingpin/amtool_alert.txt"), prog=("amtool", "alert"))
    assert [s.path for s in page.subcommands] == [
        ("alert", "query"),
        ("alert", "add"),
    ]  # never alert alert
    routes = parse_help(
        _text("kingpin/amtool_config_routes.txt"), prog=("amtool", "config", "routes")
    )
    assert [s.name for s in routes.subcommands] == ["show", "test"]


def test_kingpin_default_template_lists_full_paths_with_their_help():
    text = """usage: promtool [<flags>] <command> [<args> ...]

Tooling for the Prometheus monitoring system.

Flags:
  -h, --help     Show context-sensitive help (also try --help-long and --help-man).
      --version  Show application version.

Commands:
  help [<command>...]
    Show help.

  check config <config-files>...
    Check if the config files are valid or not.

  check rules <rule-files>...
    Check if the rule files are valid or not.
"""
    tree = command_tree(text)
    assert [e.words for e in tree] == [("help",), ("check", "config"), ("check", "rules")]
    assert tree[1].summary == "Check if the config files are valid or not."
    root = parse_help(text, prog=("promtool",))
    assert root.parser == "kingpin" and [s.name for s in root.subcommands] == ["help", "check"]


def test_kingpin_reads_no_flag_named_in_a_description_and_placeholders_as_defaults():
    page = parse_help(_text("kingpin/amtool_alert_query.txt"), prog=("amtool", "alert", "query"))
    spellings = {sp for f in page.flags for sp in f.spellings}
    assert (
        "--no-version-check" not in spellings and {"--inhibited", "-i", "--receiver"} <= spellings
    )
    output = next(f for f in page.flags if f.long == "--output")
    assert (
        output.default == "simple"
        and output.value_name is None
        and output.choices == ("simple", "extended", "json")
    )
    receiver = next(f for f in page.flags if f.long == "--receiver")
    assert receiver.value_name == "RECEIVER" and receiver.default is None
    date = next(f for f in page.flags if f.long == "--date.format")
    assert date.default == "2006-01-02 15:04:05 MST"


def test_urfave_commands_by_category_with_the_automatic_help():
    stubs = urfave_commands(_text("urfave/mender-artifact.txt"))
    by_name = {s.name: s for s in stubs}
    assert by_name["help"].aliases == ("h",)
    assert (
        by_name["write"].group == "Artifact creation and validation"
        and by_name["rm"].group == "Artifact modification"
    )
    assert "Artifact" not in by_name and len(stubs) == 11
    root = parse_help(_text("urfave/runc.txt"), prog=("runc",))
    assert root.summary == "Open Container Initiative runtime" and not root.flags
    assert {"--debug", "--root"} <= {f.long for f in root.global_flags}
    page = parse_help(_text("urfave/runc_checkpoint.txt"), prog=("runc", "checkpoint"))
    image = next(f for f in page.flags if f.long == "--image-path")
    assert image.takes_value and image.value_name == "value"
    assert [p.name for p in page.positionals] == ["container-id"]


def test_urfave_a_name_line_that_is_a_usage_gives_the_operands_and_no_summary():
    """mender-artifact's "cp - cp <src> <dst>" (prose under USAGE) and "cat - cat X:<filepath>"
    (USAGE only "[arguments...]"): the name line is the usage, read for operands; the summary is the
    description's first sentence, and the root's listing keeps no usage as a summary."""
    urfave = FIXTURES / "help" / "urfave"
    cp = parse_help((urfave / "mender-artifact_cp.txt").read_text(), prog=("mender-artifact", "cp"))
    assert [(p.name, p.required) for p in cp.positionals] == [("src", True), ("dst", True)]
    assert (
        cp.summary.startswith("Copies a file into or out of a mender artifact")
        and "<src>" not in cp.summary
    )
    cat = parse_help(
        (urfave / "mender-artifact_cat.txt").read_text(), prog=("mender-artifact", "cat")
    )
    assert [(p.name, p.required) for p in cat.positionals] == [("filepath", True)]
    install = parse_help(
        (urfave / "mender-artifact_install.txt").read_text(), prog=("mender-artifact", "install")
    )
    assert {p.name for p in install.positionals} == {"hostfile", "filepath", "directory"}
    assert not any(
        p.required for p in install.positionals
    )  # two forms: each operand in one of them
    root = parse_help((urfave / "mender-artifact.txt").read_text(), prog=("mender-artifact",))
    listed = {s.name: s.summary for s in root.subcommands}
    assert listed["cp"] == "" and listed["sign"] == "Signs existing artifact file."
