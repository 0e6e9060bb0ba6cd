"""A tool that runs a program its caller gives (an awk script) and has a switch that confines that
program to reading and printing (``--sandbox``: no system(), no redirection, no extensions): every
verb passes the switch, and the main mode that no word decides is a read under it, not a
confirm-gated write. Its flags that write files or load code stay off that read. The tool's first
help line being a heading, the man page's NAME line says what it is for.

Real captures: ``gawk --help`` and gawk(1) (tests/fixtures/help/capture.sh)."""

from __future__ import annotations

from conftest import FIXTURES
from wrapgen.check.rules import lint_manifest
from wrapgen.knowledge.dangerous_flags import help_danger
from wrapgen.model.tool import Command, Flag, Positional, Tool
from wrapgen.pack.manifest import dump_manifest, parse_manifest
from wrapgen.parse import parse_help
from wrapgen.probe.crawl import _merge_man_flags
from wrapgen.propose import propose
from wrapgen.propose.policy import UNSURE_WRITE, program_sandbox


def _w007(manifest: dict) -> list[str]:
    parsed, diagnostics = parse_manifest(dump_manifest(manifest).encode(), path="pack.yaml")
    return [
        d.format() for d in lint_manifest(parsed, diagnostics, derived=False) if d.code == "W007"
    ]


def _captured() -> Command:
    helped = parse_help(
        (FIXTURES / "help" / "gnu" / "gawk.txt").read_text(), prog=("gawk",), style="gnu"
    )
    man = parse_help(
        (FIXTURES / "help" / "man" / "gawk.txt").read_text(), prog=("gawk",), style="man"
    )
    return _merge_man_flags(helped, man)


def test_a_heading_for_a_first_line_gives_way_to_the_man_pages_name_line():
    helped = parse_help(
        (FIXTURES / "help" / "gnu" / "gawk.txt").read_text(), prog=("gawk",), style="gnu"
    )
    assert "options:" in helped.summary  # the help's first prose line is a heading
    merged = _captured()
    assert merged.summary == "pattern scanning and processing language"
    pack = propose(Tool(name="gawk", root=merged), usage=())
    assert pack.manifest["description"] == "Pattern scanning and processing language."
    main = pack.manifest["verbs"]["gawk"]
    assert "options:" not in main["description"], main["description"]


def test_a_help_summary_that_says_something_keeps_it_over_the_man_page():
    helped = Command(path=(), summary="Process widgets.", flags=(Flag(long="--all"),))
    man = Command(path=(), summary="widget processor", flags=(Flag(long="--all"),))
    assert _merge_man_flags(helped, man).summary == "Process widgets."
    # no summary at all stays none: the main mode's words come from its options, as before
    assert _merge_man_flags(Command(path=()), man).summary == ""


def test_every_verb_passes_the_sandbox_switch_and_the_main_mode_is_a_read():
    root = _captured()
    assert program_sandbox(root) == "--sandbox"
    pack = propose(Tool(name="gawk", root=root), usage=())
    verbs = pack.manifest["verbs"]
    assert verbs
    for body in verbs.values():
        assert body["cli"][1] == "--sandbox", body["cli"]
        assert "sandbox" not in body["args"].get("properties", {})
    main = verbs["gawk"]
    assert main["policy"] == {"effect": "read", "confirm": False}, main["policy"]
    assert "--sandbox" in main["x-why"]
    # what writes a file or loads code whatever the switch says stays off the read
    props = main["args"]["properties"]
    for kept_off in ("dump_variables", "load", "profile", "pretty_print"):
        assert kept_off not in props, (kept_off, list(props))
    # check knows the switch keeps the program from running other code: no shell in between
    assert _w007(pack.manifest) == []


def test_without_the_switch_the_program_runner_stays_a_write_and_check_refuses_it():
    root = _captured()
    unconfined = root.with_changes(flags=tuple(f for f in root.flags if f.long != "--sandbox"))
    assert program_sandbox(unconfined) == ""
    pack = propose(Tool(name="gawk", root=unconfined), usage=())
    main = pack.manifest["verbs"]["gawk"]
    assert "--sandbox" not in main["cli"]
    # the program decides what a call changes: a write no trial relabels (not the unsure write)
    assert main["policy"]["effect"] == "write" and UNSURE_WRITE not in main["x-why"]
    assert "runs the program" in main["x-why"], main["x-why"]
    assert _w007(pack.manifest)


def test_the_switch_is_found_by_its_words_on_any_tool():
    root = Command(
        path=(),
        summary="",
        usage=("wgscript [OPTIONS] PROGRAM [FILE...]",),
        flags=(
            Flag(long="--quiet", description="print less"),
            Flag(
                long="--confine",
                description="Operate in sandbox mode (disable the e, r and w commands).",
            ),
            Flag(long="--unsafe", takes_value=True, description="sandbox mode for the given file"),
        ),
        positionals=(Positional("PROGRAM"), Positional("FILE", required=False, variadic=True)),
    )
    assert program_sandbox(root) == "--confine"  # a switch, not the flag that takes a value
    other = root.with_changes(flags=root.flags[:1])
    assert program_sandbox(other) == ""


def test_help_that_prints_or_loads_into_a_file_or_code_is_dangerous_on_a_read():
    assert help_danger("Print a sorted list of global variables and their values to file")
    assert help_danger("Load a widget extension from the shared library lib")
    assert help_danger("print the messages to file descriptor 3") is None
    assert help_danger("Print the result to standard output") is None
