"""What the crawl does with the root's read, made cheaper without changing its answer:

- the root page's checks (git's ``help -a``, cargo's ``--list``, aws's ``CMD help``, the global-options
  hint) are tried only where their literal start occurs: the same answer as a search of the whole
  page, on every captured page and on pages built to trip a literal-only scan;
- the root's man page is merged in only when no framework listing replaces the root read: never
  read at all for Symfony's ``list --format=json`` (the application's registry of its commands, to
  which the page's list of pages can add none), still merged when the listing cannot be read and for
  a tool without a framework;
- the prober reads the root's man page once (the crawl asks for it twice).
"""

from __future__ import annotations

import os
import re
import textwrap
from pathlib import Path

from conftest import FIXTURES
from tests.support.tools import python_tool
from wrapgen.parse import parse_help
from wrapgen.probe import crawl as crawl_module
from wrapgen.probe.crawl import crawl
from wrapgen.probe.prober import Prober

HELP = FIXTURES / "help"

MAN_PAGE = textwrap.dedent("""\
    .TH COMPOSER 1
    .SH NAME
    composer \\- a tool
    .SH OPTIONS
    .TP
    \\fB\\-\\-man\\-only\\fR
    A flag only the page has.
    """)


def _checks(name: str):
    """(pattern, literal starts, folded) of each root check, as the crawl makes them."""
    sub_help = re.compile(r"\b" + re.escape(name) + crawl_module._SUB_HELP)
    return (
        (crawl_module._HELP_ALL, ("help",), False),
        (sub_help, (name,), False),
        (crawl_module._LIST_ALL, ("all", "--list"), True),
        (crawl_module._GLOBAL_LISTING, ("global",), True),
    )


def test_root_checks_answer_as_a_whole_page_search_on_every_fixture():
    pages = [
        p
        for p in sorted(FIXTURES.rglob("*"))
        if p.suffix in (".txt", ".json", ".1") and p.is_file()
    ]
    assert len(pages) > 50
    hits = set()
    for page in pages:
        text = page.read_text(errors="replace")
        for name in ("git", "aws", "cargo", page.stem.split("_")[0]):
            for index, (pattern, starts, folded) in enumerate(_checks(name)):
                expected = bool(pattern.search(text))
                assert crawl_module._found(pattern, text, starts, folded=folded) is expected, (
                    page,
                    pattern.pattern,
                )
                if expected:
                    hits.add(index)
    assert {0, 3} <= hits  # git's `help -a`, kubectl's "global options": the positive side is tried


def test_root_checks_on_pages_that_trip_a_literal_scan():
    cases = [
        ("see 'git help -a' and", 0, True),
        ("githelp -a", 0, False),  # \b before the literal: the character before it counts
        ("xhelp -a", 0, False),
        ("help -ab", 0, False),
        ("Use aws <command> help for", 1, True),
        ("Use xaws command help", 1, False),
        ("See ALL Commands with --list", 2, True),  # re.I: found in the lower-cased page
        ("--LIST  List installed commands", 2, True),
        ("Überblick: see all commands with --list", 2, True),  # non-ASCII: the whole-page search
        ("small commands with --list", 2, True),  # "all" inside a word: no \b in that pattern
        ("GLOBAL   backend FLAGS", 3, True),
        ("global\tflags", 3, True),
        ("globalflags", 3, False),
        ("", 0, False),
    ]
    for text, index, expected in cases:
        pattern, starts, folded = _checks("aws")[index]
        assert bool(pattern.search(text)) is expected, text
        assert crawl_module._found(pattern, text, starts, folded=folded) is expected, text


def _tool(tmp_path: Path, name: str, pages: dict) -> str:
    """A fake tool printing ``pages[" ".join(args)]`` (a file's text or a string); exit 1 otherwise."""
    table = {
        key: (str(value) if isinstance(value, Path) else value) for key, value in pages.items()
    }
    path = tmp_path / name
    return python_tool(
        path,
        textwrap.dedent(f"""\
        import os, sys
        page = {table!r}.get(" ".join(sys.argv[1:]))
        if page is None:
            sys.exit(1)
        sys.stdout.write(open(page).read() if os.path.exists(page) else page)
    """),
    )


def _crawl_with_man(tool: str, *, depth: int):
    """The crawl with a man page for the root only; (result, styles parsed, man_source calls)."""
    styles: list[str | None] = []
    asked: list[tuple] = []

    def parse(text, *, prog, style=None):
        styles.append(style)
        return parse_help(text, prog=prog, style=style)

    with Prober(tool, name=os.path.basename(tool), timeout_s=20, sandbox=False) as prober:

        def man_source(path):
            asked.append(tuple(path))
            return (MAN_PAGE, "composer") if not path else ("", "")

        prober.man_source = man_source
        result = crawl(prober, parse, depth=depth)
    return result, styles, asked


def test_symfony_json_root_never_parses_the_man_page_it_would_discard(tmp_path):
    tool = _tool(
        tmp_path,
        "composer",
        {
            "--help": HELP / "symfony" / "composer_list.txt",
            "list --format=json": FIXTURES / "listings" / "composer_list.json",
        },
    )
    result, styles, asked = _crawl_with_man(tool, depth=2)
    assert "man" not in styles, styles
    assert asked == [], asked
    assert "--man-only" not in {f.long for f in result.root.flags}
    with Prober(tool, name="composer", timeout_s=20, use_man=False, sandbox=False) as prober:
        without_man = crawl(prober, parse_help, depth=2)
    assert result.root == without_man.root  # the page never reached the tree before either


def test_symfony_root_kept_when_no_listing_reads_keeps_its_man_page(tmp_path):
    tool = _tool(
        tmp_path,
        "composer",
        {
            "--help": HELP / "symfony" / "composer_list.txt",
            "list --format=json": "not json\n",
            "list": "no listing here\n",
        },
    )
    result, styles, _ = _crawl_with_man(tool, depth=1)
    assert any("could not read the command list" in w for w in result.warnings), result.warnings
    assert "man" in styles
    assert "--man-only" in {f.long for f in result.root.flags}


def test_a_tool_without_a_framework_still_merges_its_man_page(tmp_path):
    tool = _tool(
        tmp_path, "composer", {"--help": "Usage: composer [-q]\n\nOptions:\n  -q  quiet\n"}
    )
    for depth in (0, 2):
        result, styles, _ = _crawl_with_man(tool, depth=depth)
        assert "man" in styles
        assert {"-q", "--man-only"} <= {s for f in result.root.flags for s in f.spellings}, depth


def test_the_prober_reads_the_root_man_page_once(tmp_path, monkeypatch):
    tool = _tool(tmp_path, "composer", {"--help": "Usage: composer\n"})
    man1 = tmp_path / "man" / "man1"
    man1.mkdir(parents=True)
    (man1 / "composer.1").write_text(MAN_PAGE)
    reads: list[str] = []
    original = open

    def counting_open(file, *args, **kwargs):
        if str(file).endswith("composer.1"):
            reads.append(str(file))
        return original(file, *args, **kwargs)

    with Prober(tool, name="composer", sandbox=False) as prober:
        monkeypatch.setattr(prober, "_man_dirs", lambda: (str(tmp_path / "man"),))
        import builtins

        monkeypatch.setattr(builtins, "open", counting_open)
        first = prober.man_source(())
        second = prober.man_source(())
        sub = prober.man_source(("install",))
    assert first == second == (MAN_PAGE, "composer")
    assert sub == ("", "")
    assert len(reads) == 1, reads


def test_symfony_list_help_is_never_parsed_where_its_json_listing_reads(tmp_path, monkeypatch):
    """`list`'s help offering JSON is left unparsed until the listing is asked: it reads, so the page
    is never parsed (the same tree as a crawl that parses it first); where the listing does not read,
    the page is parsed and the listing is not asked twice."""
    page = (HELP / "symfony" / "composer_list.txt").read_text()
    pages = {
        "--help": HELP / "symfony" / "composer_list.txt",
        "list --format=json": FIXTURES / "listings" / "composer_list.json",
    }
    parsed: list[str] = []

    def parse(text, *, prog, style=None):
        parsed.append(text)
        return parse_help(text, prog=prog, style=style)

    def run(tool, depth):
        with Prober(tool, name="composer", timeout_s=20, use_man=False, sandbox=False) as prober:
            return crawl(prober, parse, depth=depth)

    shortcut = run(_tool(tmp_path, "composer", pages), 2)
    assert page not in parsed and shortcut.root.find(("install",)).flags
    with monkeypatch.context() as patch:
        patch.setattr(crawl_module, "root_may_wait", lambda text: False)
        parsed_first = run(_tool(tmp_path, "composer", pages), 2)
    assert page in parsed
    assert shortcut.root == parsed_first.root and shortcut.warnings == parsed_first.warnings

    log = tmp_path / "calls.log"
    broken = python_tool(
        tmp_path / "composer-broken",
        textwrap.dedent(f"""\
        import sys
        args = " ".join(sys.argv[1:])
        open({str(log)!r}, "a").write(args + "\\n")
        pages = {{"--help": {str(HELP / "symfony" / "composer_list.txt")!r},
                  "list": {str(HELP / "symfony" / "composer_list.txt")!r}}}
        if args == "list --format=json":
            sys.stdout.write('{{"commands": "oops"}}')
        elif args in pages:
            sys.stdout.write(open(pages[args]).read())
        else:
            sys.exit("no such command")
    """),
    )
    parsed.clear()
    fallback = run(broken, 1)
    assert page in parsed
    assert any("`composer list` instead" in w for w in fallback.warnings), fallback.warnings
    assert log.read_text().splitlines().count("list --format=json") == 1
