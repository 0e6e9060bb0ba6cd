"""Modes of tools without subcommands: switch modes, value-flag modes (kinds, recent, post, download)."""

from __future__ import annotations

from support.propose import checked as _checked
from support.propose import tar_from_fixture as _tar_from_fixture

from wrapgen.knowledge.dangerous_flags import token_danger
from wrapgen.model.tool import Command, Flag, Positional, Tool
from wrapgen.pack.manifest import dump_manifest
from wrapgen.propose import propose
from wrapgen.propose.valuemodes import kind_choices, value_modes

_TYPE = Flag(
    long="--type",
    short="-t",
    takes_value=True,
    value_name="filetype",
    type="string",
    repeatable=True,
    description="Filter the search by type: 'f' or 'file':   regular files 'd' or 'directory':  directories "
    "'l' or 'symlink':  symbolic links 'p' or 'pipe':  named pipe (FIFO)",
)
_CHANGED = Flag(
    long="--changed-within",
    takes_value=True,
    value_name="date|dur",
    type="string",
    description="Filter results based on the file modification time. Files with modification times "
    "greater than the argument are returned.",
)
_DATA = Flag(
    long="--data",
    short="-d",
    takes_value=True,
    value_name="data",
    type="string",
    description="HTTP POST data",
)
_DATA_RAW = Flag(
    long="--data-raw",
    takes_value=True,
    value_name="data",
    type="string",
    repeatable=True,
    description="(HTTP) This posts data similarly to -d, --data but without the special "
    "interpretation of the @ character.",
)
_JSON = Flag(
    long="--json",
    takes_value=True,
    value_name="data",
    type="string",
    repeatable=True,
    description="(HTTP) Sends the specified JSON data in a POST request to the HTTP server.",
)
_OUTPUT = Flag(
    long="--output",
    short="-o",
    takes_value=True,
    value_name="file",
    type="path",
    description="Write to file instead of stdout",
)
_HEAD = Flag(long="--head", short="-I", description="(HTTP FTP FILE) Fetch the headers only!")


def _finder(*flags: Flag) -> Command:
    return Command(
        summary="A program to find entries in your filesystem",
        usage=("finder [OPTIONS] [pattern] [path]...",),
        positionals=(
            Positional("pattern", required=False),
            Positional("path", required=False, variadic=True, type="path"),
        ),
        flags=flags,
    )


def _fetcher(*flags: Flag) -> Command:
    return Command(
        usage=("fetcher [options...] <url>",), positionals=(Positional("url"),), flags=flags
    )


def test_kind_choices_are_read_from_the_help():
    """'f' or 'file': regular files ... gives (f, file, regular files), in the help's order."""
    assert kind_choices(_TYPE)[:2] == (
        ("f", "file", "regular files"),
        ("d", "directory", "directories"),
    )


def test_kind_filter_gives_files_and_dirs_with_the_kind_fixed():
    """A --type filter that lists kinds gives 'files' and 'dirs', the kind a literal in cli[] and not an arg."""
    proposal = propose(Tool(name="finder", root=_finder(_TYPE, _CHANGED)))
    verbs = proposal.manifest["verbs"]
    assert verbs["files"]["cli"][:3] == ["finder", "--type", "f"]
    assert verbs["dirs"]["cli"][:3] == ["finder", "--type", "d"]
    assert "type" not in verbs["files"]["args"]["properties"]
    assert verbs["files"]["policy"] == {"effect": "read", "confirm": False}
    assert _checked(proposal.manifest) == []


def test_recent_requires_the_time_and_other_commands_leave_it_out():
    """'recent' has --changed-within as a required arg; the main 'find' does not offer it."""
    verbs = propose(Tool(name="finder", root=_finder(_TYPE, _CHANGED))).manifest["verbs"]
    assert verbs["recent"]["args"]["required"] == ["changed_within"]
    assert "--changed-within={{changed_within}}" in verbs["recent"]["cli"]
    assert "changed_within" not in verbs["find"]["args"]["properties"]
    assert "Finding" in verbs["recent"]["title"]["live"][-1]


def test_a_type_flag_without_listed_kinds_gives_no_kind_modes():
    """rg's '--type TYPE: Only search files matching TYPE' lists no kinds: no files/dirs commands."""
    plain = Flag(
        long="--type",
        takes_value=True,
        value_name="TYPE",
        description="Only search files matching TYPE",
    )
    assert (
        value_modes(
            _finder(plain), bin="finder", main_name="find", main_verb="Find", fetches_url=False
        )
        == []
    )


def test_post_modes_are_confirm_gated_writes_with_the_reason_recorded():
    """--data/--json give post and post.json: write, confirm=true, x-why naming the deciding words;
    --output gives download, destructive (it overwrites the file it names)."""
    proposal = propose(Tool(name="fetcher", root=_fetcher(_HEAD, _DATA, _DATA_RAW, _JSON, _OUTPUT)))
    verbs = proposal.manifest["verbs"]
    for name in ("post", "post.json"):
        assert verbs[name]["policy"] == {"effect": "write", "confirm": True}, name
        assert "write:" in verbs[name]["x-why"], name
    assert verbs["download"]["policy"] == {"effect": "destructive", "confirm": True}
    assert (
        "destructive:" in verbs["download"]["x-why"] and "overwrite" in verbs["download"]["x-why"]
    )
    assert (
        verbs["post.json"]["args"]["properties"]["json"]["type"] == "string"
    )  # one document, not an array
    assert verbs["post.json"]["args"]["required"] == ["json", "url"]
    assert list(verbs)[-3:] == ["post", "post.json", "download"]  # reads first, then writes
    assert verbs["post"]["title"]["live"][0].endswith(" to {{url}}")
    assert _checked(proposal.manifest) == []


def test_post_prefers_the_variant_that_never_reads_a_file():
    """With --data-raw ('without the special interpretation of the @'), post uses it, not --data (@file)."""
    verbs = propose(Tool(name="fetcher", root=_fetcher(_DATA, _DATA_RAW))).manifest["verbs"]
    assert any(t.startswith("--data-raw") for t in verbs["post"]["cli"])
    assert not any(t.split("=")[0] == "--data" for t in verbs["post"]["cli"])


def test_file_writing_flags_stay_off_read_verbs():
    """--output appears only on the write 'download'; no read verb holds a catalogue flag (W030)."""
    manifest = propose(Tool(name="curl", root=_fetcher(_HEAD, _DATA, _JSON, _OUTPUT))).manifest
    for name, verb in manifest["verbs"].items():
        if verb["policy"]["effect"] == "read":
            assert not [t for t in verb["cli"] if token_danger(t, tool="curl")], name
    assert "--output" in manifest["verbs"]["download"]["cli"]


def test_download_only_for_a_tool_whose_operand_is_a_url():
    """The same 'Write to file' flag on a tool that reads files (not URLs) gives no download command."""
    assert not [
        m
        for m in value_modes(
            _finder(_OUTPUT), bin="finder", main_name="find", main_verb="Find", fetches_url=False
        )
        if m.name == "download"
    ]


def test_value_modes_are_deterministic():
    """The same help gives the same manifest, byte for byte."""
    root = _fetcher(_HEAD, _DATA, _DATA_RAW, _JSON, _OUTPUT)
    assert dump_manifest(propose(Tool(name="fetcher", root=root)).manifest) == dump_manifest(
        propose(Tool(name="fetcher", root=root)).manifest
    )


def test_operations_listed_by_the_help_are_the_commands():
    """tar's 'Main operation mode:' gives create/extract/list commands, no bare 'tar', no operation as an arg."""
    tool = _tar_from_fixture()
    assert {f.long for f in tool.root.flags if f.operation} >= {
        "--create",
        "--extract",
        "--list",
        "--append",
    }
    verbs = propose(tool).manifest["verbs"]
    assert {"create", "extract", "list"} <= set(verbs)
    assert "tar" not in verbs
    assert verbs["list"]["policy"]["effect"] == "read"
    assert verbs["create"]["policy"] == {"effect": "write", "confirm": True}
    for name, verb in verbs.items():
        operations = [
            t
            for t in verb["cli"]
            if t in ("--create", "--extract", "--list", "--append", "--update")
        ]
        assert len(operations) <= 1, name  # one operation each; the others are not offered as args
        assert not {"create", "extract", "update"} & set(verb["args"]["properties"]), name
    assert "file" in verbs["create"]["args"]["properties"], (
        "the examples use -f: the archive is an arg"
    )
    assert _checked(propose(tool).manifest) == []


def test_the_main_mode_is_not_named_by_a_copyright_a_synopsis_or_a_noun():
    """A help that opens with its copyright line and a synopsis ("[zipfile list]"), then says "add ...
    entries from list": no line of those names the job, and "from list" is a noun. The name falls
    back to the tool's, and the summary is the help's first sentence on what it does."""
    from wrapgen.propose.modes import main_verb

    root = Command(
        summary="Copyright (c) 1990-2008 Packers Inc. - Type 'packer -L' for software license.",
        description=(
            "Copyright (c) 1990-2008 Packers Inc. - Type 'packer -L' for software license.\n"
            "Packer 3.0. Usage:\n"
            "packer [-options] [-b path] [zipfile list] [-xi list]\n"
            "The default action is to add or replace zipfile entries from list.\n"
            "If zipfile and list are omitted, packer compresses stdin to stdout."
        ),
    )
    name, summary = main_verb(root, bin="packer")
    assert name == "packer"
    assert summary == "The default action is to add or replace zipfile entries from list"
    # a verb where a sentence puts it still names the mode
    lister = Command(summary="List the entries of an archive")
    assert main_verb(lister, bin="packer")[0] == "list"
    # a noun the summary opens with ("a filter for drawing graphs") names no mode; a verb does
    drawer = Command(summary="filter for drawing directed graphs")
    assert main_verb(drawer, bin="wgdraw")[0] == "wgdraw"
    assert main_verb(Command(summary="Search for PATTERNS in each FILE."), bin="wg")[0] == "search"
    # a description that opens with the summary says it once, not twice
    parser = Command(
        summary="Parse the files and output the result of the parsing",
        description="Parse the files and output the result of the parsing",
    )
    assert (
        main_verb(parser, bin="wg-lint")[1]
        == "Parse the files and output the result of the parsing"
    )


def test_the_main_modes_json_form_does_what_the_main_mode_does():
    """A linter whose main mode reads (its --fix asks it to rewrite) has a --json switch: the JSON
    form of the main mode is the main mode too, a read, never a write "to be safe"; the operands
    of its usage line ([files|directories|globs...]) are both verbs' operands."""
    from support.propose import FIXTURES

    from wrapgen.parse import parse_help

    text = (FIXTURES / "help" / "commander" / "markdownlint.txt").read_text()
    root = parse_help(text, prog=("markdownlint",), style="commander")
    verbs = propose(Tool(name="markdownlint", root=root)).manifest["verbs"]
    main, as_json = verbs["markdownlint"], verbs["markdownlint.json"]
    assert main["policy"]["effect"] == as_json["policy"]["effect"] == "read", as_json["x-why"]
    assert "files" in main["args"]["properties"] and "files" in as_json["args"]["properties"]
    assert all("--fix" not in verb["cli"] for verb in (main, as_json))
