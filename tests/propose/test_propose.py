"""The proposal's pure parts: conjugation, policy, dangerous flags, JSON selection, args, titles, picks."""

from __future__ import annotations

import pytest

from wrapgen.knowledge.dangerous_flags import dangerous_reason, token_danger
from wrapgen.model.tool import Command, Flag, Positional, Tool
from wrapgen.propose import propose
from wrapgen.propose.args import plan_args
from wrapgen.propose.jsonsel import fields_from_text, pick_fields, select_json
from wrapgen.propose.policy import classify
from wrapgen.propose.titles import propose_title
from wrapgen.propose.verbs import ing, past


@pytest.mark.parametrize(
    "verb,live,done",
    [
        ("get", "getting", "got"),
        ("find", "finding", "found"),
        ("run", "running", "ran"),
        ("list", "listing", "listed"),
        ("show", "showing", "showed"),
        ("create", "creating", "created"),
        ("apply", "applying", "applied"),
        ("stop", "stopping", "stopped"),
        ("commit", "committing", "committed"),
        ("format", "formatting", "formatted"),
        ("search", "searching", "searched"),
        ("output", "outputting", "output"),
        ("edit", "editing", "edited"),
    ],
)
def test_conjugation(verb, live, done):
    """Verbs conjugate properly, irregular ones included (Getting/Got, Running/Ran)."""
    assert (ing(verb), past(verb)) == (live, done)


def _cmd(path, summary="", **kw):
    return Command(path=tuple(path.split()), summary=summary, **kw)


def test_policy_takes_the_strongest_word_and_says_which():
    """'List, create, or delete branches' is destructive, and the reason names the word 'delete'."""
    guess = classify(_cmd("branch", "List, create, or delete branches"))
    assert guess.effect == "destructive"
    assert "delete" in guess.reason


def test_policy_read_from_name_and_help():
    """gh pr list is a read, decided by the name 'list' and the help word 'List'."""
    guess = classify(_cmd("pr list", "List pull requests in a repository"))
    assert guess.effect == "read"
    assert "name 'list'" in guess.reason and "help 'List'" in guess.reason


def test_policy_unknown_words_default_to_write():
    """A command no word speaks for is treated as a write, to be safe."""
    assert classify(_cmd("frobnicate", "Frobnicate the widgets")).effect == "write"


def test_policy_summary_noun_is_not_a_verb():
    """'Show commit logs' is a read: 'commit' there is a noun, not the write verb."""
    assert classify(_cmd("log", "Show commit logs")).effect == "read"


@pytest.mark.parametrize(
    "flag,tool",
    [
        (
            Flag(
                long="--output",
                takes_value=True,
                value_name="file",
                description="Output to a specific file",
            ),
            "git",
        ),
        (Flag(long="--pre", takes_value=True, description="search outputs of COMMAND FILE"), "rg"),
        (
            Flag(
                long="--exec",
                short="-x",
                takes_value=True,
                description="Execute a command for each result",
            ),
            "fdfind",
        ),
        (
            Flag(
                long="--compress-program",
                takes_value=True,
                description="compress temporaries with PROG",
            ),
            "sort",
        ),
        (
            Flag(
                long="--upload-file",
                short="-T",
                takes_value=True,
                description="Transfer local FILE",
            ),
            "curl",
        ),
        (
            Flag(long="--hook", takes_value=True, description="Run a hook script before each step"),
            "anytool",
        ),
    ],
)
def test_dangerous_flags_are_recognised(flag, tool):
    """Flags that write files or run programs are caught, by catalogue or by their help words."""
    assert dangerous_reason(flag, tool=tool)


def test_output_format_flag_is_not_dangerous():
    """kubectl's -o/--output selects a format, not a file: it is not dangerous."""
    flag = Flag(
        long="--output",
        short="-o",
        takes_value=True,
        description="Output format. One of: (json, yaml)",
    )
    assert dangerous_reason(flag, tool="kubectl") is None


def test_value_guard_constrains_values_that_read_local_files():
    """curl -H is offered, but its schema refuses a value starting with @ (curl would send that file)."""
    from wrapgen.runtime import validate_args

    header = Flag(
        long="--header",
        short="-H",
        takes_value=True,
        type="string",
        repeatable=True,
        value_name="header/@file",
        description="Extra header to include in information sent",
    )
    command = Command(path=(), flags=(header,), positionals=(Positional(name="url"),))
    plan = plan_args(command, tool="curl", effect="read", include=["header", "url"])
    schema = {"type": "object", "properties": plan.properties, "additionalProperties": False}
    assert schema["properties"]["header"]["items"]["pattern"] == "^[^@]"
    assert "refused" in schema["properties"]["header"]["description"]
    assert validate_args(schema, {"url": "http://x", "header": ["@/etc/passwd"]})
    assert validate_args(schema, {"url": "http://x", "header": ["Accept: text/plain"]}) == []
    # the same flag in another tool carries no guard
    other = plan_args(command, tool="httpie", effect="read", include=["header", "url"])
    assert "pattern" not in other.properties["header"].get("items", {})


def test_token_danger_sees_inline_values():
    """A literal `--output=x` token counts as --output for git."""
    assert token_danger("--output=/tmp/x", tool="git")
    assert token_danger("--oneline", tool="git") is None


def test_dangerous_flag_never_reaches_a_read_verb_even_when_asked():
    """A recipe asking for git log --output on a read verb gets it left out, with the reason."""
    log = _cmd(
        "log",
        "Show commit logs",
        flags=(
            Flag(
                long="--output",
                takes_value=True,
                value_name="file",
                description="Output to a specific file",
            ),
            Flag(long="--author", takes_value=True, description="Limit to an author"),
        ),
    )
    plan = plan_args(log, tool="git", effect="read", include=["output", "author"])
    assert list(plan.properties) == ["author"]
    assert any(name == "--output" and "dangerous" in why for name, why in plan.left_out)


@pytest.mark.parametrize(
    "flags,expected",
    [
        ((Flag(long="--json"),), ("--json",)),
        (
            (
                Flag(
                    long="--output",
                    short="-o",
                    takes_value=True,
                    description="Output format. One of: json|yaml",
                ),
            ),
            ("-o", "json"),
        ),
        (
            (Flag(long="--format", takes_value=True, description="'json': Print in JSON format"),),
            ("--format", "json"),
        ),
        ((Flag(long="--verbose"),), False),
    ],
)
def test_json_selection(flags, expected):
    """--json, -o json, --format json are found; a tool without one gets json: false."""
    assert select_json(Command(flags=flags)).selection == expected


def test_json_fields_are_picked_from_the_list():
    """gh's --json FIELDS: a few sensible fields are named, in a fixed preference order."""
    text = "Specify one or more comma-separated fields for `--json`:\n  additions\n  author\n  id\n  number\n  title\n  url\n"
    fields = fields_from_text(text)
    assert fields == ("additions", "author", "id", "number", "title", "url")
    assert pick_fields(fields) == ("number", "title", "author", "url")
    flag = Flag(long="--json", takes_value=True, value_name="fields")
    assert select_json(Command(flags=(flag,)), fields=fields).selection == (
        "--json",
        "number,title,author,url",
    )


def test_args_schema_types_enums_defaults_arrays():
    """Flags become typed properties: integer (its default said), enum from choices, array for repeatable."""
    cmd = _cmd(
        "pr list",
        "List pull requests",
        flags=(
            Flag(
                long="--limit",
                short="-L",
                takes_value=True,
                type="integer",
                default="30",
                description="Maximum number",
            ),
            Flag(
                long="--state",
                short="-s",
                takes_value=True,
                type="enum",
                choices=("open", "closed"),
                default="open",
                description="Filter by state",
            ),
            Flag(
                long="--label",
                short="-l",
                takes_value=True,
                repeatable=True,
                description="Filter by label",
            ),
            Flag(long="--web", short="-w", description="List pull requests in the web browser"),
            Flag(long="--color", takes_value=True, description="Use color"),
        ),
    )
    plan = plan_args(cmd, tool="gh", effect="read", style="cobra")
    props = plan.properties
    assert props["limit"] == {"type": "integer", "description": "Maximum number (default: 30)"}
    assert props["state"]["enum"] == ["open", "closed"] and "default" not in props["state"]
    assert props["state"]["description"] == "Filter by state (default: open)"
    assert props["label"]["type"] == "array"
    assert "web" not in props and "color" not in props
    assert "--limit={{limit}}" in plan.cli_tail
    assert plan.cli_tail.index("--label") + 1 == plan.cli_tail.index("{{label}}")


def test_positionals_go_behind_double_dash_unless_usage_splits():
    """Operands follow '--'; git log's '[--]' keeps the revision before it and the paths after."""
    log = _cmd(
        "log",
        "Show commit logs",
        usage=("git log [<options>] [<revision-range>] [[--] <path>...]",),
        positionals=(
            Positional("revision-range", required=False),
            Positional("path", required=False, variadic=True),
        ),
    )
    plan = plan_args(log, tool="git", effect="read", style="git")
    # git takes --end-of-options (tools.json end_of_options): the revision slot is an operand whatever its value
    assert plan.cli_tail == ("--end-of-options", "{{revision_range}}", "--", "{{paths}}")
    assert plan.properties["paths"]["type"] == "array"


def test_titles_name_the_arg_and_fall_back_plainly():
    """Titles template the primary arg, then end with a plain fallback (M026)."""
    title = propose_title(
        name="pr.list",
        summary="List pull requests in a repository",
        display="gh pr list",
        primary="repo",
        args=["repo"],
    )
    assert title == {
        "live": ["Listing pull requests in {{repo}}", "Listing pull requests in a repository"],
        "done": ["Listed pull requests in {{repo}}", "Listed pull requests in a repository"],
    }
    plain = propose_title(name="mystery", summary="", display="tool mystery")
    assert plain == {"live": ["Running tool mystery"], "done": ["Ran tool mystery"]}


def _tool(subs):
    root = Command(path=(), summary="A tool", subcommands=tuple(subs))
    return Tool(name="tool", root=root)


def test_propose_excludes_noise_commands_with_reasons():
    """help, completion, version, editors, logins and mega-commands are never proposed, each with a reason."""
    subs = [
        _cmd("list", "List things"),
        _cmd("show", "Show a thing"),
        _cmd("status", "Show status"),
        _cmd("get", "Get a thing"),
        _cmd("search", "Search things"),
        _cmd("create", "Create a thing"),
        _cmd("help", "Help about any command"),
        _cmd("completion", "Generate completion script"),
        _cmd("version", "Print the version"),
        _cmd("edit", "Edit a thing"),
        _cmd("login", "Log in"),
        _cmd(
            "exec",
            "Execute a command in a container",
            positionals=(Positional("COMMAND"), Positional("ARG", variadic=True)),
        ),
        _cmd("old", "Deprecated: use new"),
    ]
    proposal = propose(_tool(subs))
    chosen = [d.name for d in proposal.chosen]
    assert set(chosen) == {"list", "show", "status", "get", "search", "create"}
    reasons = {d.path: d.reason for d in proposal.decisions if not d.chosen}
    assert "help" in reasons["help"] and "completion" in reasons["completion"]
    assert "editor" in reasons["edit"] and "login" in reasons["login"]
    assert "mega-command" in reasons["exec"] and "deprecated" in reasons["old"]


def test_propose_reads_before_writes_and_confirm_gates_writes():
    """Reads come first in the pack; every non-read verb is confirm-gated."""
    subs = [
        _cmd("delete", "Delete a thing"),
        _cmd("create", "Create a thing"),
        _cmd("list", "List things"),
        _cmd("view", "View a thing"),
        _cmd("status", "Show status"),
        _cmd("get", "Get a thing"),
    ]
    verbs = propose(_tool(subs)).manifest["verbs"]
    effects = [v["policy"]["effect"] for v in verbs.values()]
    assert effects == sorted(effects, key=["read", "write", "destructive"].index)
    assert all(v["policy"]["confirm"] == (v["policy"]["effect"] != "read") for v in verbs.values())


def test_propose_chooses_among_hundreds():
    """A tool with 300 commands gets at most 12, with at most 3 reads per family."""
    subs = [
        Command(
            path=(f"fam{i}",),
            summary=f"Family {i}",
            subcommands=tuple(
                _cmd(f"fam{i} {verb}", f"{verb.capitalize()} things of family {i}")
                for verb in ("list", "view", "get", "show", "create")
            ),
        )
        for i in range(60)
    ]
    proposal = propose(_tool(subs))
    assert 5 <= len(proposal.chosen) <= 12
    families = [d.path.split()[0] for d in proposal.chosen if d.effect == "read"]
    assert max(families.count(f) for f in set(families)) <= 3


def test_name_clash_is_resolved_deterministically():
    """Two modes that name themselves alike get -2, and the proposal says so."""
    root = Command(
        path=(),
        summary="ripgrep recursively searches for a pattern",
        flags=(
            Flag(short="-r", description="output raw strings, not JSON texts"),
            Flag(short="-R", description="output raw lines, not JSON texts"),
        ),
        positionals=(Positional("pattern"),),
    )
    proposal = propose(Tool(name="xq", root=root))
    names = list(proposal.manifest["verbs"])
    assert "raw-output" in names and "raw-output-2" in names
    assert any("raw-output-2" in w for w in proposal.warnings)


def test_propose_is_deterministic():
    """Proposing twice gives identical manifests and decisions."""
    subs = [
        _cmd("list", "List things"),
        _cmd("show", "Show a thing"),
        _cmd("create", "Create a thing"),
    ]
    assert propose(_tool(subs)) == propose(_tool(subs))


def test_tool_without_json_says_so():
    """A tool with no JSON output gets json: false and the note says results are text."""
    proposal = propose(_tool([_cmd("list", "List things")]))
    assert proposal.manifest["json"] is False
    assert "text" in proposal.json_note


def test_find_expression_is_never_exposed():
    """find's expression operand could carry -exec or -delete: it is left out as a command line."""
    root = Command(
        path=(),
        summary="Print files matching an expression",
        usage=("find [-H] [-L] [-P] [path...] [expression]",),
        positionals=(
            Positional("path", required=False, variadic=True),
            Positional("expression", required=False, variadic=True),
        ),
    )
    verbs = propose(Tool(name="find", root=root)).manifest["verbs"]
    (verb,) = verbs.values()
    assert "expression" not in verb["args"]["properties"]
    assert "{{expressions}}" not in verb["cli"] and "{{expression}}" not in verb["cli"]


def test_printing_to_standard_output_is_a_read():
    """'Write sorted concatenation of all FILE(s) to standard output' (sort) reads."""
    assert (
        classify(
            _cmd("sort", "Write sorted concatenation of all FILE(s) to standard output.")
        ).effect
        == "read"
    )


def test_hyphenated_names_take_their_strongest_part():
    """apt-get's dselect-upgrade is a write (from 'upgrade'), not a read from its 'Follow ...' help."""
    assert classify(_cmd("dselect-upgrade", "Follow dselect selections")).effect == "write"


def test_config_file_flags_are_dangerous():
    """man -C/--config-file loads a configuration: never on a read verb."""
    flag = Flag(
        long="--config-file",
        short="-C",
        takes_value=True,
        description="use this user configuration file",
    )
    assert dangerous_reason(flag, tool="man")


def test_open_in_a_browser_is_interactive():
    """'Open the documentation for the current toolchain' (rustup doc) is left out as interactive."""
    proposal = propose(
        _tool(
            [
                _cmd("doc", "Open the documentation for the current toolchain"),
                _cmd("list", "List toolchains"),
            ]
        )
    )
    reasons = {d.path: d.reason for d in proposal.decisions if not d.chosen}
    assert "interactive" in reasons["doc"]


def test_global_options_in_usage_are_not_operands():
    """'terraform [global options] plan [options]' gives plan no operands named global or plan."""
    plan = _cmd(
        "plan",
        "Show changes required by the current configuration",
        usage=("terraform [global options] plan [options]",),
        positionals=(Positional("global", required=False), Positional("plan")),
    )
    verb = propose(_tool([plan])).manifest["verbs"]["plan"]
    assert verb["cli"] == ["tool", "plan"] and verb["args"]["properties"] == {}


def test_a_summary_that_enumerates_items_reads():
    """ "Enumerate dependencies in a tabular format" names them one by one: a read, not a write by default."""
    guess = classify(
        Command(path=("dep", "show", "table"), summary="Enumerate dependencies in a tabular format")
    )
    assert guess.effect == "read"


def test_a_linter_that_autocorrects_only_when_asked_reads_by_default():
    """A main mode whose --autocorrect rewrites the files only when passed reads without it (as a
    linter's --fix); the switch is a write of its own and stays off the read."""
    from wrapgen.propose.policy import PolicyGuess, main_mode_effect

    root = Command(
        path=(),
        summary="",
        usage=("wg-lint [options] [file1, file2, ...]",),
        flags=(
            Flag(
                long="--autocorrect",
                short="-a",
                description="Autocorrect offenses (only when it's safe).",
            ),
            Flag(long="--lint", short="-l", description="Run only lint cops."),
        ),
    )
    fallback = PolicyGuess("write", (), "no read, write or delete word; treated as a write")
    assert main_mode_effect(root, fallback).effect == "read"
