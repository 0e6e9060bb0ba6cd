"""A main mode no word labels, with a switch that asks it to rewrite what it reads (--fix, --write,
--in-place: effects.json opt_in_rewrite), reads without it; a preview switch alone keeps it a write."""

from __future__ import annotations

from wrapgen.knowledge.trials import phrase
from wrapgen.model.tool import Command, Flag
from wrapgen.propose.policy import UNSURE_WRITE, PolicyGuess, main_mode_effect

_UNSURE = PolicyGuess("write", (), UNSURE_WRITE)


def _root(*flags):
    return Command(flags=tuple(flags))


def test_a_fix_switch_makes_the_main_mode_a_read():
    """A linter's --fix (and its --fix-dry-run preview) says the mode without it only reports."""
    root = _root(
        Flag(long="--fix", description="Automatically fix problems"),
        Flag(
            long="--fix-dry-run",
            description="Fix problems without saving the changes to the file system",
        ),
        Flag(long="--format", takes_value=True, description="Use a specific output format"),
    )
    guess = main_mode_effect(root, _UNSURE)
    assert guess.effect == "read" and guess.words == ("switch '--fix'",)


def test_a_preview_switch_alone_keeps_the_write():
    """A formatter's --check ("don't write the files back") says its main mode writes."""
    root = _root(
        Flag(long="--check", description="Don't write the files back, just return the status"),
        Flag(long="--quiet", description="Print nothing"),
        Flag(long="--verbose", description="Print more"),
    )
    assert main_mode_effect(root, _UNSURE) == _UNSURE


def test_a_checker_missing_its_project_config_needs_context():
    """A checker run where its configuration file is not says so: context, not a defect."""
    assert phrase("context", "ESLint couldn't find an eslint.config.* file.")
    assert phrase("context", "No config file found")
    assert not phrase("context", "3 problems (3 errors, 0 warnings)")


def test_every_opt_in_rewrite_switch_stays_off_every_read():
    """The switch that makes a main mode a read without it is dangerous on a read itself: the two
    lists (effects.json opt_in_rewrite, the dangerous-flags catalogue) are kept in step."""
    from wrapgen.knowledge.dangerous_flags import dangerous_reason
    from wrapgen.knowledge.words import opt_in_rewrite

    for spelling in sorted(opt_in_rewrite()):
        flag = Flag(long=spelling, description="do it")
        assert dangerous_reason(flag, tool="wgtool") is not None, spelling


def test_a_short_switch_whose_help_edits_the_files_in_place_makes_the_main_mode_a_read():
    """A formatter's ``-i`` ("Inplace edit <file>s, if specified"), short only: its help, not its
    spelling, says the main mode rewrites only when asked; the proposal offers the switch as a
    write verb of its own and keeps it off the read."""
    from wrapgen.model.tool import Positional, Tool
    from wrapgen.propose import propose

    root = Command(
        path=(),
        summary="A tool to format widget sources.",
        usage=("wgfmt [options] <file> ...",),
        flags=(
            Flag(short="-i", description="Inplace edit <file>s, if specified."),
            Flag(long="--lines", takes_value=True, description="format a range of lines"),
        ),
        positionals=(Positional("file", variadic=True),),
    )
    guess = main_mode_effect(root, _UNSURE)
    assert guess.effect == "read" and guess.words == ("switch '-i'",)
    verbs = propose(Tool(name="wgfmt", root=root), usage=()).manifest["verbs"]
    reads = [v for v in verbs.values() if v["policy"]["effect"] == "read"]
    writes = [v for v in verbs.values() if "-i" in v["cli"]]
    assert reads and all("-i" not in v["cli"] for v in reads)
    assert len(writes) == 1 and writes[0]["policy"]["effect"] == "write", verbs


def test_a_switch_that_prints_something_and_exits_is_a_mode_of_its_own():
    """ "Dump configuration options to stdout and exit": a different answer, a verb of its own;
    the tool's version and help switches are no such modes."""
    from wrapgen.knowledge.phrases import mode_switch_words

    words = mode_switch_words()
    assert words.search("Dump configuration options to stdout and exit.")
    assert words.search("print the resolved settings and exit")
    assert not words.search("print version information and exit")
    assert not words.search("show this help message and exit")
