"""The shared splitter: cleaning terminal junk and cutting help text into titled sections."""

from __future__ import annotations

from pathlib import Path

from wrapgen.parse.sections import MAX_CHARS, clean_text, split_sections

HELP = Path(__file__).resolve().parent.parent / "fixtures" / "help"


def titles(text: str) -> list[str]:
    return [s.title for s in split_sections(clean_text(text))]


def test_ansi_overstrike_and_controls_removed():
    """ANSI colours, OSC hyperlinks, overstrike, CR and NUL bytes are gone; tabs become spaces."""
    raw = (
        "\x1b[1mUsage\x1b[0m: x\r\n\x1b]8;;http://a\x07link\x1b]8;;\x07\n"
        + "B\bBo\bol\bld\bd\n\x00a\tb"
    )
    assert clean_text(raw) == "Usage: x\nlink\nBold\na       b"


def test_bytes_decode_with_replacement():
    """Undecodable bytes become replacement characters rather than an error."""
    assert clean_text(b"ok \xff\xfe") == "ok \ufffd\ufffd"


def test_size_is_capped():
    """Megabytes of output are cut to MAX_CHARS, and long lines are cut too."""
    cleaned = clean_text("x" * (MAX_CHARS * 3))
    assert len(cleaned) <= MAX_CHARS
    assert split_sections(clean_text(("word " * 50 + "\n") * 100_000))  # (it returns at all)


def test_heading_kinds():
    """Colon headings, inline usage, ALL-CAPS headings and git's bare titles are all found."""
    text = (
        "Usage: tool [OPTIONS]\n\nDoes things.\n\nOptions:\n  -a  all\n\n"
        " Main operation mode:\n  -c  create\n\nCORE COMMANDS\n  pr:  prs\n\n"
        "Commit message options\n    -m, --message <msg>  the message\n"
    )
    sections = split_sections(clean_text(text))
    assert [s.title for s in sections] == [
        "Usage",
        "Options",
        "Main operation mode",
        "CORE COMMANDS",
        "Commit message options",
    ]
    assert sections[0].inline == "tool [OPTIONS]"
    assert sections[3].key == "core commands"


def test_prose_is_not_a_heading():
    """A sentence, an indented line ending in a colon, or a title followed by a blank line is not a heading."""
    text = "A sentence that ends here.\n    For example, use this:\n        rg -e foo\n\nJust words\n\nmore\n"
    assert titles(text) == [""]


def test_real_fixture_sections():
    """gh pr list's sections come out in order, with its inherited flags apart."""
    text = (HELP / "cobra" / "gh_pr_list.txt").read_text()
    assert titles(text) == ["", "USAGE", "FLAGS", "INHERITED FLAGS", "EXAMPLES", "LEARN MORE"]


def test_a_heading_underlined_by_a_row_of_marks_heads_its_columns():
    """Python's cmd module: "Documented commands (type help <topic>):" over "=====", then names in
    columns flush left; the underline is neither a heading nor a line of the body."""
    from wrapgen.parse import parse_help

    text = (
        "\nDocumented commands (type help <topic>):\n"
        "========================================\n"
        "avail  help  quit  start  status\n"
        "stop   tail\n"
    )
    sections = split_sections(text)
    assert [s.title for s in sections] == ["Documented commands (type help <topic>)"]
    assert not any("===" in line for line in sections[0].lines)
    names = [c.name for c in parse_help(text, prog=("shell",)).subcommands]
    assert names == ["avail", "help", "quit", "start", "status", "stop", "tail"]
