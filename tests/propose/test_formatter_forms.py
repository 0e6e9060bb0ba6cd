"""Formatters' and compressors' switches, read from their help on tools no table names (captured
help of a Go and a Rust formatter and of two compressors, which no benchmark half holds): the switch
that writes the result back to the files is a write of its own and never on a read; the switches
that only show what a rewrite would change (a diff, the files that differ, a check by exit status)
or send it to standard output are read forms, never write forms beside them; a form whose switch
names a read reads; a bracketed aside in a short switch's help does not name it."""

from __future__ import annotations

import pytest

from conftest import FIXTURES
from wrapgen.knowledge.phrases import in_place_words, preview_words
from wrapgen.model.tool import Tool
from wrapgen.parse import parse_help
from wrapgen.propose.core import propose


def _proposal(name: str):
    text = (FIXTURES / "help" / "gnu" / f"{name}.txt").read_text()
    return propose(Tool(name=name, root=parse_help(text, prog=(name,))))


def _fixed(body: dict) -> set[str]:
    """The literal switches of a verb's cli[], not the ones an arg turns on or fills (``-d {{d}}``,
    ``--size={{size}}``)."""
    cli = body["cli"][1:]
    return {
        token
        for token, after in zip(cli, [*cli[1:], ""])
        if token.startswith("-") and token != "--" and "{{" not in token + after
    }


@pytest.mark.parametrize(
    ("words", "table"),
    [
        ("write result to (source) file instead of stdout", "in_place"),
        ("Write the output back to the input files", "in_place"),
        ("display diffs instead of rewriting files", "preview"),
        ("list files whose formatting differs from the tool's", "preview"),
        ("Prints the names of files that would be formatted when used with --check", "preview"),
        ("Run in 'check' mode. Exits with 0 if input is formatted correctly.", "preview"),
        ("Check if the given files are formatted", "preview"),
        ("write cpu profile to this file", None),
        ("Write output to file", None),  # an output file of its own (-o FILE), not a rewrite
        ("Write result to file", None),
        ("output nothing to stdout", None),  # a quiet switch, not a preview
        ("Output JSON to stdout", None),
        ("write counts for all files, not just directories", None),
        ("list files in the archive", None),
    ],
)
def test_which_help_says_a_switch_rewrites_or_only_previews(words, table):
    found = {
        "in_place": bool(in_place_words().search(words)),
        "preview": bool(preview_words().search(words)),
    }
    assert found == {"in_place": table == "in_place", "preview": table == "preview"}


def test_a_formatter_that_prints_keeps_its_rewrite_off_its_reads():
    """The Go formatter prints its result; -w writes it back: a write verb of its own, on no read;
    -d and -l are read forms; -w's verb is named from its help's verb, not "(source)"."""
    verbs = _proposal("gofmt").manifest["verbs"]
    effects = {name: body["policy"]["effect"] for name, body in verbs.items()}
    writes = [name for name, effect in effects.items() if effect != "read"]
    assert len(writes) == 1 and "-w" in verbs[writes[0]]["cli"], effects
    assert writes[0] != "source"
    for name, body in verbs.items():
        if effects[name] == "read":
            assert "-w" not in body["cli"], (name, body["cli"])
    read_switches = {s for n, b in verbs.items() if effects[n] == "read" for s in _fixed(b)}
    assert {"-d", "-l"} <= read_switches, read_switches


def test_a_formatter_that_rewrites_gets_its_check_as_a_read():
    """The Rust formatter rewrites the files it is given: its main mode is no read, and --check and
    --files-with-diff make read forms of it."""
    proposal = _proposal("rustfmt")
    verbs = proposal.manifest["verbs"]
    effects = {name: body["policy"]["effect"] for name, body in verbs.items()}
    main = [n for n, b in verbs.items() if not _fixed(b) and effects[n] == "read"]
    assert not main, (main, effects)
    reads = {s for n, b in verbs.items() if effects[n] == "read" for s in _fixed(b)}
    assert {"--check", "--files-with-diff"} <= reads, effects


def _effects(name: str) -> tuple[dict, dict]:
    verbs = _proposal(name).manifest["verbs"]
    return verbs, {n: b["policy"]["effect"] for n, b in verbs.items()}


def test_a_compressors_stdout_switch_is_one_read_and_no_write():
    """A compressor's -c ("output to standard out", "write to standard output, keep input files")
    is the read-only form of its write, and never a write form of its own beside it."""
    for name in ("bzip2", "lzip"):
        verbs, effects = _effects(name)
        with_stdout = {n for n, b in verbs.items() if "--stdout" in _fixed(b)}
        assert with_stdout and all(effects[n] == "read" for n in with_stdout), (name, effects)


def test_a_form_whose_switch_names_a_read_reads_whatever_the_main_mode_does():
    """The compressor's main mode writes; its --list ("print (un)compressed file sizes") is a read;
    its --keep, which names no read, does what the main mode does."""
    verbs, effects = _effects("lzip")
    listing = next(n for n, b in verbs.items() if _fixed(b) == {"--list"})
    assert effects[listing] == "read", effects
    keep = next(n for n, b in verbs.items() if _fixed(b) == {"--keep"})
    assert effects[keep] == "write", effects
