"""Flags as the parsers read them from entries and pages: a mention in a description is a companion
flag each time the table is read; kingpin's page defaults are each page's own; Symfony's JSON
negations land on the flag they negate, in order."""

from __future__ import annotations

import json

from conftest import FIXTURES
from wrapgen.parse import parse_help
from wrapgen.parse.options import parse_options
from wrapgen.parse.styles.symfony import parse_symfony_json


def test_parse_options_companions_come_from_every_reading_of_the_entry():
    lines = ["  --hidden    Show hidden files; can be disabled with --no-hidden."]
    for _ in range(2):
        companions = []
        flags = parse_options(lines, companions=companions)
        assert [f.long for f in flags] == ["--hidden"]
        assert [f.long for f in companions] == ["--no-hidden"]


def test_kingpin_page_defaults_are_each_pages_own():
    page = "usage: tool [<flags>]\n\nFlags:\n  -h, --help  Show help.\n      --timeout={}  Timeout for the command\n"
    first = parse_help(page.format("30s"), prog=("tool",), style="kingpin")
    second = parse_help(page.format("5"), prog=("tool",), style="kingpin")
    by_long = {f.long: f for f in first.flags}, {f.long: f for f in second.flags}
    assert by_long[0]["--timeout"].default == "30s" and by_long[0]["--timeout"].type == "string"
    assert by_long[1]["--timeout"].default == "5" and by_long[1]["--timeout"].type == "integer"


def _option(name, description, shortcut=""):
    return {
        "name": name,
        "shortcut": shortcut,
        "accept_value": False,
        "is_value_required": False,
        "is_multiple": False,
        "description": description,
        "default": False,
    }


def test_symfony_json_negations_join_the_flag_they_negate_in_order():
    options_ = {
        "ansi": _option("--ansi", "Force ANSI output"),
        "no-ansi": _option("--no-ansi", 'Negate the "--ansi" option'),
        "color": _option("--color", "Colours"),
        "no-color": _option("--no-color", 'Negate the "--color" option'),
        "nocolor": _option("--nocolor", 'Negate the "--color" option'),
        "quiet": _option("--quiet", "Quiet", "q"),
    }
    document = {
        "commands": [
            {
                "name": "list",
                "definition": {"options": options_, "arguments": {}},
                "usage": ["list"],
            },
            {
                "name": "about",
                "definition": {"options": dict(options_), "arguments": {}},
                "usage": ["about"],
            },
        ]
    }
    root = parse_symfony_json(json.dumps(document), prog=("tool",))
    flags = {f.long: f for f in root.flags}
    assert set(flags) == {"--ansi", "--color", "--quiet"}
    assert flags["--ansi"].aliases == ("--no-ansi",)
    assert flags["--color"].aliases == ("--no-color", "--nocolor")
    assert flags["--quiet"].short == "-q"
    assert sorted(s.name for s in root.subcommands) == ["about", "list"]
    assert all(not s.flags for s in root.subcommands)  # every option is the application's


def test_symfony_json_options_of_one_name_in_other_forms_are_each_read_as_they_are():
    """The memo takes an option only where it equals the one remembered: `--dry-run` described
    differently on each of six commands (more forms than the memo keeps) keeps each description."""
    commands = [
        {
            "name": f"cmd{i}",
            "usage": [f"cmd{i}"],
            "definition": {
                "arguments": {},
                "options": {
                    "quiet": _option("--quiet", "Quiet", "q"),
                    "dry-run": _option("--dry-run", f"Pretend, form {i}"),
                },
            },
        }
        for i in range(6)
    ]
    commands.append(
        {
            "name": "valued",
            "usage": ["valued"],
            "definition": {
                "arguments": {},
                "options": {
                    "quiet": _option("--quiet", "Quiet", "q"),
                    "dry-run": {
                        **_option("--dry-run", "Pretend, form 0"),
                        "accept_value": True,
                        "default": "no",
                    },
                },
            },
        }
    )
    commands.append(
        {
            "name": "plain",
            "usage": ["plain"],
            "definition": {"arguments": {}, "options": {"quiet": _option("--quiet", "Quiet", "q")}},
        }
    )  # (so --dry-run is no application option)
    root = parse_symfony_json(json.dumps({"commands": commands}), prog=("tool",))
    by_name = {s.name: {f.long: f for f in s.flags} for s in root.subcommands}
    assert [by_name[f"cmd{i}"]["--dry-run"].description for i in range(6)] == [
        f"Pretend, form {i}" for i in range(6)
    ]
    assert (
        by_name["valued"]["--dry-run"].takes_value
        and by_name["valued"]["--dry-run"].default == "no"
    )
    assert not by_name["cmd0"]["--dry-run"].takes_value
    assert [f.long for f in root.flags] == ["--quiet"]


def _composer_variants():
    """composer's `list --format=json`, and variants that each break one thing the application
    shortcut relies on: its options in another order, one of them changed, a negation across an own
    option and an application one (both ways), an own option spelled as an application flag."""
    base = json.loads((FIXTURES / "listings" / "composer_list.json").read_text())
    yield "as captured", base

    def variant(change):
        document = json.loads(json.dumps(base))
        change(document["commands"])
        return document

    def reorder(commands):
        options = commands[3]["definition"]["options"]
        commands[3]["definition"]["options"] = dict(reversed(list(options.items())))

    def change_one(commands):
        commands[5]["definition"]["options"]["ansi"]["description"] = "Colour, this command's way"

    def own_negates_application(commands):
        commands[6]["definition"]["options"]["no-quiet"] = _option(
            "--no-quiet", 'Negate the "--quiet" option'
        )

    def application_negates_own(commands):
        for command in commands:
            command["definition"]["options"]["no-frob"] = _option(
                "--no-frob", 'Negate the "--frob" option'
            )
        commands[7]["definition"]["options"]["frob"] = _option("--frob", "Frobnicate")

    def own_spelled_as_application(commands):
        commands[8]["definition"]["options"]["quiet-too"] = _option("--quiet", "Quiet, again")

    for change in (
        reorder,
        change_one,
        own_negates_application,
        application_negates_own,
        own_spelled_as_application,
    ):
        yield change.__name__, variant(change)


def test_symfony_json_application_shortcut_reads_as_every_command_read_whole(monkeypatch):
    """Reading only a command's own options where its definition repeats the application's gives
    the tree reading each command whole gives, on composer's list and on each variant."""
    from wrapgen.parse.styles import symfony

    for name, document in _composer_variants():
        text = json.dumps(document)
        shortcut = parse_symfony_json(text, prog=("composer",))
        with monkeypatch.context() as patch:
            patch.setattr(symfony, "_flags_with_application", lambda *args: None)
            whole = parse_symfony_json(text, prog=("composer",))
        assert shortcut == whole, name
        assert len(list(shortcut.walk())) > 30, name


def test_a_colon_right_after_the_value_name_ends_the_spec():
    """``--xpath expr: evaluate ...`` (xmllint's style, no gap before the colon): the flag takes a
    value named ``expr``; ``--valid : ...`` and ``-c cmd : ...`` keep their reading, and a colon
    inside a description stays there."""
    lines = [
        "\t--xpath expr: evaluate the XPath expression, imply --noout",
        "\t--valid : validate the document",
        "  -c cmd : program passed in as string",
        "  --color  Note: colours the output",
    ]
    flags = {f.long or f.short: f for f in parse_options(lines)}
    assert (flags["--xpath"].takes_value, flags["--xpath"].value_name) == (True, "expr")
    assert flags["--xpath"].description.startswith("evaluate the XPath")
    assert not flags["--valid"].takes_value
    assert flags["-c"].takes_value and flags["-c"].description == "program passed in as string"
    assert flags["--color"].description == "Note: colours the output"


def test_a_short_and_its_long_spelling_in_two_columns_share_the_value():
    """``-f progfile    --file=progfile`` (the long spelling names the same value, no description)
    is one flag taking ``progfile``; ``-d[file]    --dump-variables[=file]`` one whose value is
    optional; a short switch beside its long one stays a switch."""
    lines = [
        "\t-f progfile\t\t--file=progfile",
        "\t-e 'program-text'\t--source='program-text'",
        "\t-d[file]\t\t--dump-variables[=file]",
        "\t-b\t\t\t--characters-as-bytes",
    ]
    flags = {f.short: f for f in parse_options([line.expandtabs() for line in lines])}
    assert (flags["-f"].long, flags["-f"].value_name) == ("--file", "progfile")
    assert flags["-e"].long == "--source" and flags["-e"].takes_value
    assert flags["-d"].long == "--dump-variables" and flags["-d"].value_optional
    assert flags["-b"].long == "--characters-as-bytes" and not flags["-b"].takes_value


def test_long_options_only_the_synopsis_names_are_flags_too():
    """A checker's table lists its switches and its synopsis the options with values
    (``[--standard=<standard>]``): those are flags taking a value. A subcommand's usage line
    (``tool remote add [--mirror=<how>] ...``) gives its parent none."""
    page = (
        "Usage: wgcheck [-nq] [--colors] [--standard=<standard>] [--report=<report>]\n"
        "  [--report-<report>=<reportFile>] <file> - ...\n"
        "   or: wgcheck add [--mirror=<how>] <name>\n"
        "\n"
        " -n    Do not print warnings\n"
        " -q    Quiet mode\n"
        "\n"
        " --colors              Use colors in output\n"
    )
    command = parse_help(page, prog=("wgcheck",))
    valued = {f.long: f.value_name for f in command.flags if f.takes_value}
    assert valued == {"--standard": "standard", "--report": "report"}


def test_a_separator_column_before_each_description_is_not_part_of_it():
    """A help that puts "= " (or ": ") between each flag and its help, on the flag's line or the
    next: the description starts at the words."""
    lines = [
        "  -C <cfg>, --build-config <cfg>",
        "                               = Choose configuration to test.",
        "  -F                           = Enable failover.",
        "  -q                           : Quiet output.",
        "  --ratio=N                    Keep a = sign inside: a = b.",
    ]
    flags = {f.long or f.short: f for f in parse_options(lines)}
    assert flags["--build-config"].description == "Choose configuration to test."
    assert flags["--build-config"].takes_value and flags["--build-config"].value_name == "cfg"
    assert flags["-F"].description == "Enable failover."
    assert flags["-q"].description == "Quiet output."
    assert flags["--ratio"].description == "Keep a = sign inside: a = b."


def test_a_value_in_a_column_of_its_own_is_the_flags_value():
    """`-r|--remove        <package>... | -a|--pending`: the placeholder after the gap is the value
    (another form of the call after a bar is no help); a line whose words follow the placeholder is
    still the help."""
    lines = [
        "  -r|--remove        <package>... | -a|--pending",
        "  --unpack           <.deb file name>...",
        "  -x                 <file> is read first",
    ]
    flags = {f.long or f.short: f for f in parse_options(lines)}
    remove = flags["--remove"]
    assert (remove.short, remove.takes_value, remove.value_name, remove.repeatable) == (
        "-r",
        True,
        "package",
        True,
    )
    assert remove.description == ""
    assert flags["--unpack"].value_name == ".deb file name"
    assert not flags["-x"].takes_value and flags["-x"].description == "<file> is read first"


def test_a_value_name_in_quotes_is_the_flags_value():
    """A man page's `--xpath "XPath_expression"` and a help's `--path 'paths': provide ...` take a
    value (named without its quotes); before, both were switches whose help began with the name."""
    from wrapgen.parse.options import parse_options

    man = ['       --xpath "XPath_expression"', "           Run an XPath expression and print it."]
    (xpath,) = parse_options(man)
    assert xpath.takes_value and xpath.value_name == "XPath_expression"
    assert xpath.description.startswith("Run an XPath")
    (path,) = parse_options(["  --path 'paths': provide a set of paths for resources"])
    assert path.takes_value and path.value_name == "paths"
    assert path.description == "provide a set of paths for resources"
    (switch,) = parse_options(["  --noout : don't output the result tree"])
    assert not switch.takes_value


def test_values_listed_one_a_line_under_a_flag_are_its_choices():
    """A linter's `--format FORMATTER` lists its formatters one a line, each with its shortcut in
    brackets (`[j]son`) and one marked `(default)`: those are the flag's choices and its default.
    Fewer than three such lines, or prose, give none."""
    from wrapgen.parse.options import parse_options

    lines = [
        "    -f, --format FORMATTER           Choose an output formatter. This option",
        "                                     can be given several times.",
        "                                       [c]lang",
        "                                       [j]son",
        "                                       [ju]nit",
        "                                       [p]rogress (default)",
        "                                       custom formatter class name",
        "    -o, --out FILE                   Write output to a file instead of STDOUT.",
    ]
    fmt = parse_options(lines)[0]
    assert fmt.choices == ("clang", "json", "junit", "progress") and fmt.default == "progress"
    prose = [
        "    -t, --type TYPE   The type.",
        "                      one",
        "                      two",
    ]
    assert parse_options(prose)[0].choices == ()


def test_an_older_pflag_switch_shows_its_default_as_an_optional_value():
    """``--prefix[=false]`` (a key-value store's get, captured) is a switch, as ``--keys-only``;
    ``--limit=0`` and ``--sort-by=""`` take a value. As a flag with an optional word it was no
    switch a verb offered (the get verb had no way to ask for keys with a prefix)."""
    text = (FIXTURES / "help" / "clap" / "etcdctl_get.txt").read_text()
    flags = {f.long: f for f in parse_help(text, prog=("etcdctl", "get")).flags}
    for switch in ("--prefix", "--keys-only", "--from-key", "--print-value-only"):
        assert not flags[switch].takes_value and flags[switch].type == "boolean", flags[switch]
    for valued in ("--limit", "--sort-by", "--consistency"):
        assert flags[valued].takes_value, flags[valued]
    # an optional value that is no boolean stays one: git's --decorate[=short|full|auto|no]
    [decorate] = parse_options(["  --decorate[=short|full|auto|no]  Print ref names"])
    assert decorate.takes_value and decorate.value_optional
