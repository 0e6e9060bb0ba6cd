"""A flag that runs a program, executes a file or rewrites its inputs never reaches a read verb,
whatever usage evidence brings it (issue 28 item 7, as a class).

Decided from the flag's own help: its value name (``{decompression command}``, ``script-file``;
``program_values``), a flag named as a program that takes a file (``--script FILE``), and its words
("pipe each input through the given command", "additions of noqa directives to failing lines",
"modify the files in place"; ``phrases.json`` danger_words). Propose drops such a flag from a read
built from a use, or makes the verb that always passes it a write; check's W030 reads the same help
off a pack's arg. Negatives: ``--script`` as an output style for scripts and ``--command NAME`` that
names a command to describe stay on reads.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from wrapgen.check.rules import check_pack
from wrapgen.knowledge.dangerous_flags import dangerous_reason, help_danger
from wrapgen.model.tool import Command, Flag, Positional, Tool
from wrapgen.model.usage import UsageEvidence, Use, UsedOperand
from wrapgen.parse import parse_help
from wrapgen.propose import propose

FILE = UsedOperand("file", "file")
HELP = Path(__file__).resolve().parent.parent / "fixtures" / "help"

PREPIPE = Flag(
    long="--prepipe",
    takes_value=True,
    value_name="{decompression command}",
    description="Run each input file through it before reading, e.g. 'gunzip'.",
)
PIPED = Flag(
    long="--through",
    takes_value=True,
    value_name="ARG",
    description="Pipe each input file through the given command before reading it.",
)
SCRIPT_FILE = Flag(
    long="--script",
    takes_value=True,
    value_name="FILE",
    description="Take the processing steps from this file.",
)
SCRIPT_STYLE = Flag(long="--script", description="Produce output suitable for scripts to parse.")
COMMAND_NAME = Flag(
    long="--command",
    takes_value=True,
    value_name="COMMAND",
    description="Show only the processes of the named command.",
)
ADD_NOQA = Flag(
    long="--add-noqa",
    description="Enable automatic additions of suppression directives to failing lines.",
)
IN_PLACE = Flag(long="--rewrite", description="Modify the files in place instead of printing them.")
CSV = Flag(long="--icsv", description="Use CSV format for input data.")
BOOTSTRAP = Flag(
    long="--bootstrap",
    takes_value=True,
    value_name="bootstrap",
    description="A comma separated list of files to run before processing begins",
)
REPORT_FILE = Flag(
    long="--report-file",
    takes_value=True,
    description="Write the report to the specified file path",
)
REPORT = Flag(long="--report", takes_value=True, description="Print either the full or csv report")
# its metavar says a name, yet its arg takes the flag's name ({{shell}}), which check's W030 reads
# as a program: propose leaves it off a read, so a wrap's read never fails its own check
SHELL_NAMED = Flag(
    long="--shell",
    takes_value=True,
    value_name="SHELLNAME",
    description="Specify the dialect to read the input as.",
)

DANGEROUS = (PREPIPE, PIPED, SCRIPT_FILE, ADD_NOQA, IN_PLACE, BOOTSTRAP, REPORT_FILE, SHELL_NAMED)
HARMLESS = (SCRIPT_STYLE, COMMAND_NAME, CSV, REPORT)


def test_the_class_is_read_from_the_flags_own_help():
    for flag in DANGEROUS:
        assert dangerous_reason(flag, tool="wgtab"), flag.long
    for flag in HARMLESS:
        assert dangerous_reason(flag, tool="wgtab") is None, flag.long
    # a command named to run is a program; one named to describe is not
    assert help_danger("The command to run on each file", "CMD")
    assert help_danger("Print usage for the given command", "CMD") is None
    assert help_danger("Filter by command name", "COMMAND_NAME") is None
    # a flag naming what or where a command runs against is its target, not a program
    assert help_danger("(required) app to run command against", "value") is None
    assert help_danger("directory to run the command in") is None
    assert help_danger("a hook to run commands on each file")
    assert help_danger("runs the command after each commit")
    assert help_danger("script to run before the build")


def _single(*flags: Flag) -> Tool:
    root = Command(
        path=(),
        summary="Print tabular data files.",
        usage=("wgtab [OPTIONS] [FILE]...",),
        flags=(CSV, *flags),
        positionals=(Positional("FILE", required=False, variadic=True),),
    )
    return Tool(name="wgtab", root=root)


def _uses(tool: str, *uses: Use) -> tuple[UsageEvidence, ...]:
    return (UsageEvidence(tool=tool, source="tldr-pages", uses=uses),)


def _reads(manifest) -> dict:
    return {n: v for n, v in manifest["verbs"].items() if v["policy"]["effect"] == "read"}


def _spellings(verb) -> set[str]:
    return {str(t).split("=", 1)[0] for t in verb["cli"]}


def test_a_used_program_flag_is_dropped_from_the_read_it_was_used_on():
    uses = _uses(
        "wgtab",
        Use(path=(), flags=("--icsv",), operands=(FILE,), count=3),
        Use(path=(), flags=("--prepipe",), valued=("--prepipe",), operands=(FILE,), count=2),
        Use(path=(), flags=("--through",), valued=("--through",), operands=(FILE,), count=2),
        Use(path=(), flags=("--script",), valued=("--script",), operands=(FILE,), count=2),
        Use(path=(), flags=("--rewrite",), operands=(FILE,), count=2),
        Use(path=(), flags=("--shell",), valued=("--shell",), operands=(FILE,), count=2),
    )
    manifest = propose(_single(PREPIPE, PIPED, SCRIPT_FILE, IN_PLACE, SHELL_NAMED), usage=uses)
    reads = _reads(manifest.manifest)
    manifest = manifest.manifest
    assert reads
    dropped = {"--prepipe", "--through", "--script", "--rewrite", "--shell"}
    for name, verb in reads.items():
        assert not _spellings(verb) & dropped, name
    assert not [d for d in _check(manifest) if d.code == "W030"]


def test_harmless_look_alikes_stay_on_the_read():
    uses = _uses(
        "wgtab",
        Use(path=(), flags=("--icsv", "--script"), operands=(FILE,), count=3),
        Use(path=(), flags=("--command",), valued=("--command",), operands=(FILE,), count=1),
    )
    manifest = propose(_single(SCRIPT_STYLE, COMMAND_NAME), usage=uses).manifest
    main = next(iter(_reads(manifest).values()))
    assert {"--script", "--command"} <= _spellings(main)


def test_a_program_flag_every_use_passes_is_no_mode_of_a_read():
    """Every plain use passes a value flag: each becomes a mode of its own with the value required
    (a field cutter's --fields), but never a flag that runs a program."""
    fields = Flag(long="--fields", takes_value=True, value_name="LIST", description="select")
    uses = _uses(
        "wgtab",
        Use(path=(), flags=("--prepipe",), valued=("--prepipe",), operands=(FILE,), count=3),
        Use(path=(), flags=("--fields",), valued=("--fields",), operands=(FILE,), count=3),
    )
    manifest = propose(_single(PREPIPE, fields), usage=uses).manifest
    assert _reads(manifest)
    # no verb of its own either (not even a confirmed write): it is no selector of the data
    for name, verb in manifest["verbs"].items():
        assert "--prepipe" not in _spellings(verb), name


def test_a_mode_a_use_fixes_on_a_rewriting_switch_is_a_confirmed_write():
    """A switch used alone, without the operand the other uses pass, is a mode; one whose help adds
    directives to the files it checks makes that mode a confirmed write, never a read (its name,
    ``--pragma``, says nothing either way)."""
    uses = _uses(
        "wgtab",
        Use(path=(), operands=(FILE,), count=4),
        Use(path=(), flags=("--pragma",), count=3),
    )
    rewrites = Flag(
        long="--pragma",
        description="Automatic additions of suppression directives to failing lines.",
    )
    verbs = propose(_single(rewrites), usage=uses).manifest["verbs"]
    fixed = [v for v in verbs.values() if "--pragma" in v["cli"]]
    assert fixed
    for verb in fixed:
        assert verb["policy"] == {"effect": "write", "confirm": True}
        assert "always passes --pragma" in verb["x-why"]
    # without the rewrite in its help, the same switch is a read mode
    harmless = Flag(long="--pragma", description="Show the failing lines with a mark.")
    verbs = propose(_single(harmless), usage=uses).manifest["verbs"]
    assert any("--pragma" in v["cli"] and v["policy"]["effect"] == "read" for v in verbs.values())


def _linter() -> Tool:
    """ruff's captured `check` help under a tool with subcommands."""
    text = (HELP / "clap" / "ruff_check.txt").read_text(encoding="utf-8")
    check = parse_help(text, prog=("wglint", "check")).with_changes(
        path=("check",), summary="Report the lint problems of the given files"
    )
    root = Command(path=(), summary="A linter.", subcommands=(check,))
    return Tool(name="wglint", root=root)


def test_a_captured_linters_add_noqa_used_by_examples_is_off_its_read():
    """ruff's check help: --add-noqa[=REASON] "Enable automatic additions of `noqa` directives to
    failing lines" rewrites the files it checks; uses that pass it never put it on a read."""
    tool = _linter()
    flag = next(f for f in tool.root.subcommands[0].flags if f.long == "--add-noqa")
    assert dangerous_reason(flag, tool="wglint")
    uses = _uses(
        "wglint",
        Use(path=("check",), operands=(FILE,), count=4),
        Use(path=("check",), flags=("--add-noqa",), operands=(FILE,), count=3),
    )
    manifest = propose(tool, usage=uses).manifest
    check = manifest["verbs"]["check"]
    assert check["policy"]["effect"] == "read"
    assert "--add-noqa" not in _spellings(check)


# -- check's W030 on a pack's read ---------------------------------------------------------------


def _check(manifest) -> list:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "pack.yaml").write_text(yaml.safe_dump(manifest, sort_keys=False))
        return check_pack(Path(tmp))


def _pack_with(tmp_path, token: str, arg: str, schema: dict) -> list:
    cli = ["wgtab", token] + ([f"{{{{{arg}}}}}"] if "{{" not in token else []) + ["--", "{{file}}"]
    pack = {
        "pack_id": "wgtab",
        "description": "A table printer.",
        "bin": "wgtab",
        "verbs": {
            "show": {
                "description": "Print a table.",
                "cli": cli,
                "args": {
                    "type": "object",
                    "properties": {
                        arg: schema,
                        "file": {"type": "string", "description": "The file to print."},
                    },
                    "required": ["file"],
                    "additionalProperties": False,
                },
                "policy": {"effect": "read"},
            }
        },
    }
    (tmp_path / "pack.yaml").write_text(yaml.safe_dump(pack, sort_keys=False))
    return [d for d in check_pack(tmp_path) if d.code == "W030"]


def test_w030_reads_the_help_an_arg_carries(tmp_path):
    piped = {"type": "string", "description": "Pipe each input file through the given command"}
    assert _pack_with(tmp_path, "--prepipe={{prepipe}}", "prepipe", piped)
    noqa = {"type": "boolean", "description": "Add suppression directives to failing lines"}
    assert _pack_with(tmp_path, "--add-noqa", "add_noqa", noqa)
    script_file = {"type": "string", "description": "Take the steps from this file"}
    assert _pack_with(tmp_path, "--script", "file_1", script_file)


def test_w030_passes_the_harmless_look_alikes(tmp_path):
    style = {"type": "boolean", "description": "Produce output suitable for scripts to parse"}
    assert _pack_with(tmp_path, "--script", "script", style) == []
    named = {"type": "string", "description": "Show the help of the named command"}
    assert _pack_with(tmp_path, "--command", "command", named) == []
    # the same arg name whose help runs it is a program
    run = {"type": "string", "description": "The command to run on each file"}
    assert _pack_with(tmp_path, "--command", "command", run)


def test_a_flag_whose_help_corrects_the_files_is_dangerous_on_a_read():
    """A linter's `--fix-layout` ("Run only layout cops, with autocorrect on") rewrites the files it
    checks, as its `--autocorrect` does; a flag that only mentions corrected offenses does not."""
    assert help_danger("Run only layout cops, with autocorrect on.")
    assert help_danger("Autocorrect offenses (only when it's safe).")
    assert (
        help_danger("Minimum severity for exit. Normally, autocorrected offenses are ignored.")
        is None
    )


def test_a_flag_that_requires_a_file_of_code_is_dangerous():
    """`--require FILE` ("Require Ruby file.", a test runner's preloaded module) loads code first;
    `--require-hashes` is another flag."""
    ruby = Flag(
        long="--require",
        short="-r",
        takes_value=True,
        value_name="FILE",
        description="Require Ruby file.",
    )
    assert "loads code" in dangerous_reason(ruby, tool="wgtab")
    assert (
        dangerous_reason(Flag(long="--require-hashes", description="Require a hash"), tool="wgtab")
        is None
    )


def test_a_flag_naming_the_plugins_to_use_loads_code():
    """A linter's '--plugin [String]  Specify plugins': a plugin is code the tool loads, so the flag
    is dangerous on a read; listing or turning plugins off is not."""
    assert help_danger("Specify plugins")
    assert help_danger("Use the plugin NAME for this run")
    assert help_danger("List plugins") is None
    assert help_danger("Disable all plugins") is None
    plugin = Flag(
        long="--plugin", takes_value=True, value_name="String", description="Specify plugins"
    )
    assert dangerous_reason(plugin, tool="wgtab")
