"""Classes of defect bench/pack_tasks.py found in fresh packs (issue 11, items 3, 4 and 9), on captured
help of real tools (tests/fixtures/help): each test fails without its fix.

- a tool whose options follow its operands (find's ``[path...] [expression]``): operands first, no ``--``;
- the read-only forms of a write mode of a tool without subcommands: ``make --just-print``,
  ``gzip --stdout``, ``xz --decompress --stdout``, ``tar --extract --to-stdout`` (that one only for extract);
- a tool that rewrites its inputs only with a switch (``sed -i``): the main mode reads, the switch is a
  write command of its own and never stands on a read; sed scripts run in ``--sandbox``;
- "force compression" is no deletion (xz's operations are writes, not destructive);
- an integrity test switch (``gzip -t``) is a read mode; a main verb is not named after ``-print``.
"""

from __future__ import annotations

from support.propose import checked, tar_from_fixture

from conftest import FIXTURES
from wrapgen.model.tool import Command, Tool
from wrapgen.parse import parse_help
from wrapgen.propose import propose
from wrapgen.propose.policy import classify


def _tool(style: str, name: str) -> Tool:
    text = (FIXTURES / "help" / style / f"{name}.txt").read_text()
    return Tool(name=name, root=parse_help(text, prog=(name,), style=style))


def _verbs(proposal) -> dict:
    return proposal.manifest["verbs"]


def _effect(verb: dict) -> str:
    return verb["policy"]["effect"]


# -- options after operands (find) ---------------------------------------------------------------


def test_find_primaries_follow_the_starting_points_without_a_double_dash():
    """find -name x -- . is 'unknown predicate'; find . -name x is what find(1) reads."""
    proposal = propose(_tool("gnu", "find"))
    verbs = _verbs(proposal)
    # its main mode, and the primaries its uses always pass a value to (-name, -type) as modes
    assert "find" in verbs and {"name", "type"} <= set(verbs), list(verbs)
    for name, verb in verbs.items():
        cli = verb["cli"]
        assert "--" not in cli and "--end-of-options" not in cli
        paths = cli.index("{{paths}}")
        primaries = [
            i
            for i, token in enumerate(cli)
            if token.startswith("-") and token not in ("-H", "-L", "-P")
        ]
        assert primaries and min(primaries) > paths, cli
        assert name != "show" and not verb["description"].startswith(
            "Print"
        )  # not named after "-print"
    assert verbs["name"]["args"]["required"] == ["name", "paths"] or "name" in (
        verbs["name"]["args"].get("required") or []
    )
    assert checked(proposal.manifest) == []


def test_leading_options_the_usage_shows_stay_before_the_operands():
    from wrapgen.knowledge.commands import options_after_operands

    root = _tool(
        "man", "find"
    ).root  # find(1) lists -H, -L, -P as options; --help names them only in its usage
    leading = options_after_operands(root)
    assert leading is not None and {"-H", "-L", "-P"} <= leading and "-name" not in leading
    # an ordinary trailing operand is no expression: ls [FILE]... keeps its grammar
    assert options_after_operands(_tool("gnu", "ls").root) is None


# -- read-only forms of write modes ----------------------------------------------------------------


def test_make_dry_run_is_a_read_command_of_its_own():
    verbs = _verbs(propose(_tool("gnu", "make")))
    preview = [v for v in verbs.values() if "--just-print" in v["cli"] or "--dry-run" in v["cli"]]
    assert preview and all(_effect(v) == "read" for v in preview)
    assert any(
        _effect(v) != "read" and "--just-print" not in v["cli"] for v in verbs.values()
    )  # bare make builds


def test_gzip_stdout_and_test_are_reads_beside_the_compressing_main_mode():
    proposal = propose(_tool("gnu", "gzip"))
    verbs = _verbs(proposal)
    stdout = [v for v in verbs.values() if "--stdout" in v["cli"]]
    assert (
        stdout and _effect(stdout[0]) == "read" and "decompress" in stdout[0]["args"]["properties"]
    )
    assert "force" not in stdout[0]["args"]["properties"]  # "force overwrite of output file" writes
    tests = [v for v in verbs.values() if "--test" in v["cli"]]
    assert tests and _effect(tests[0]) == "read"
    assert checked(proposal.manifest) == []


def test_xz_operations_get_their_standard_output_forms_and_are_not_destructive():
    verbs = _verbs(
        propose(_tool("man", "xz"))
    )  # xz(1) lists the operations; the short --help does not
    assert _effect(verbs["decompress.stdout"]) == "read"
    assert verbs["decompress.stdout"]["cli"][1:3] == ["--decompress", "--stdout"]
    assert _effect(verbs["decompress"]) == "write" and _effect(verbs["compress"]) == "write"


def test_tar_to_stdout_is_a_form_of_extract_only():
    verbs = _verbs(propose(tar_from_fixture()))
    forms = sorted(name for name, v in verbs.items() if "--to-stdout" in v["cli"])
    assert forms == ["extract.to-stdout"]
    assert _effect(verbs["extract.to-stdout"]) == "read"


def test_force_qualifies_the_word_after_it():
    assert classify(Command(path=("compress",), summary="force compression")).effect == "write"
    assert classify(Command(path=("x",), summary="Force delete a branch")).effect == "destructive"
    assert classify(Command(path=("x",), summary="Force")).effect == "destructive"


# -- a tool that rewrites its input only when asked (sed) -------------------------------------------


def test_sed_reads_by_default_and_edits_in_place_only_as_a_write_of_its_own():
    proposal = propose(_tool("gnu", "sed"))
    verbs = _verbs(proposal)
    reads = {name: v for name, v in verbs.items() if _effect(v) == "read"}
    writes = {name: v for name, v in verbs.items() if _effect(v) != "read"}
    assert reads and writes
    for verb in reads.values():
        assert not any(t.startswith("--in-place") or t == "-i" for t in verb["cli"]), verb["cli"]
        assert "in_place" not in verb["args"]["properties"]
    (write,) = writes.values()
    assert "--in-place" in write["cli"] and write["policy"]["confirm"] is True
    # a sed script can run programs (the e command) and write files (w): every call is sandboxed
    assert all("--sandbox" in v["cli"] for v in verbs.values())
    assert checked(proposal.manifest) == []


# -- summaries in the third person, listing formats, camelCase operands ------------------------------


def test_a_summary_verb_in_the_third_person_decides_like_its_base_form():
    """rclone size: "Prints the total size and number of objects" reads; it was a write 'to be safe'."""
    assert (
        classify(
            Command(path=("size",), summary="Prints the total size and number of objects")
        ).effect
        == "read"
    )
    assert (
        classify(Command(path=("checksum",), summary="Checks the files in the destination")).effect
        == "read"
    )
    assert (
        classify(Command(path=("x",), summary="Copies files from source to dest")).effect == "write"
    )
    assert (
        classify(Command(path=("x",), summary="Process the input")).effect == "write"
    )  # no verb: to be safe


def test_a_short_only_long_listing_switch_is_a_mode():
    """ls -l ('use a long listing format') has no long spelling; it is still the listing form people use."""
    verbs = _verbs(propose(_tool("gnu", "ls")))
    longs = [name for name, v in verbs.items() if v["cli"][1:2] == ["-l"]]
    assert longs == ["long"]
    assert "all" in verbs["long"]["args"]["properties"] and _effect(verbs["long"]) == "read"


def test_camel_case_operands_after_the_options_and_a_repeated_operand():
    """cobra's `restic diff [flags] snapshot-ID snapshot-ID` and `restic ls [flags] snapshotID [dir...]`."""
    from wrapgen.parse.usage import usage_positionals

    (diff,) = usage_positionals(
        ["restic diff [flags] snapshot-ID snapshot-ID"], prog=("restic", "diff")
    )
    assert diff.name == "snapshot-ID" and diff.required and diff.variadic
    ls = usage_positionals(["restic ls [flags] snapshotID [dir...]"], prog=("restic", "ls"))
    assert [p.name for p in ls] == ["snapshotID", "dir"] and ls[0].required and not ls[0].variadic
    # before the options a bare word is still a subcommand word, camelCase or not
    assert usage_positionals(["tool subCommand [flags]"], prog=("tool",)) == ()


# -- read slots left empty by a family cap, a version command about the project ----------------------


def test_read_slots_no_other_family_wants_go_to_a_capped_familys_next_reads():
    """hugo: four 'list' commands and two other reads; the family cap of 3 left a read slot empty."""
    from wrapgen.propose.select import Candidate, pick

    def cand(i, *path):
        return Candidate(
            path=path, command=Command(path=path, summary="List things."), index=i, depth=1
        )

    lists = [cand(i, "list", kind) for i, kind in enumerate(("all", "drafts", "expired", "future"))]
    others = [cand(4, "mod", "graph"), cand(5, "mod", "verify")]
    build = cand(6, "build")
    ranked = [(8.0 - i * 0.1, c, "read") for i, c in enumerate(lists + others)] + [
        (1.0, build, "write")
    ]
    chosen, why = pick(ranked)
    paths = [c.path for c, _ in chosen]
    assert ("list", "future") in paths and ("build",) in paths
    # with the read slots taken by other families the cap still holds
    many = [cand(10 + i, f"fam{i}", "ls") for i in range(6)]
    ranked = [(8.0 - i * 0.1, c, "read") for i, c in enumerate(lists + many)]
    chosen, why = pick(ranked)
    assert ("list", "future") not in [c.path for c, _ in chosen]
    assert "family rank higher" in why[3] or "read commands rank higher" in why[3]


def test_a_quiet_switch_that_changes_the_answer_is_offered():
    """sed -n ("suppress automatic printing of pattern space") makes `sed -n 2,4p` answer lines 2-4;
    gzip -q ("suppress all warnings") stays noise."""
    sed = _verbs(propose(_tool("gnu", "sed")))
    assert all("quiet" in v["args"]["properties"] for v in sed.values())
    gzip = _verbs(propose(_tool("gnu", "gzip")))
    assert not any("quiet" in v["args"]["properties"] for v in gzip.values())


# -- "Run <the tool>" is no write (ruff check) ---------------------------------------------------


def test_a_summary_that_only_says_the_tool_runs_itself_leaves_the_effect_to_the_name():
    """ruff's root help: "check  Run Ruff on the given files or directories". The fresh pack made
    `check` a confirm-gated write ("help 'Run' outranks name 'check'"), so `ruff check good.py`
    needed confirm=true. Run followed by the tool's own name says nothing of what the command does."""
    root = _tool("clap", "ruff").root
    check = root.find(("check",))
    assert check is not None and check.summary.startswith("Run Ruff")
    assert classify(check, tool_name="ruff").effect == "read"
    assert classify(check, tool_name="/usr/bin/ruff").effect == "read"
    assert classify(check).effect == "write"  # without the tool's name, "Run" still speaks
    # a program the tool starts is still run: "Run the language server", "Run a command in a container"
    assert classify(root.find(("server",)), tool_name="ruff").effect == "write"
    assert (
        classify(
            Command(path=("exec",), summary="Run a command in a running container"),
            tool_name="docker",
        ).effect
        == "write"
    )
    # the formatter rewrites files: no word of "Run the Ruff formatter" decides, so it stays a write
    assert classify(root.find(("format",)), tool_name="ruff").effect == "write"
    verbs = _verbs(propose(_tool("clap", "ruff")))
    checks = [
        v for v in verbs.values() if v["cli"][:2] == ["ruff", "check"] and "--fix" not in v["cli"]
    ]
    assert checks and all(
        _effect(v) == "read" and not v["policy"].get("confirm") for v in checks
    ), checks


# -- rich commands (git log --author) -------------------------------------------------------------


def test_a_command_with_as_many_options_as_a_tool_gets_a_single_tools_args():
    """git log's man page lists 161 options; at 8 args the fresh pack's log kept --follow and
    --first-parent (its EXAMPLES use them) but had no --author, --grep or --until for the reads
    people ask for ("commits by Ann since Monday")."""
    from wrapgen.propose.args import MAX_ARGS, MAX_ARGS_SINGLE, RICH_COMMAND_FLAGS

    text = (FIXTURES / "help" / "man" / "git_log.txt").read_text()
    log = parse_help(text, prog=("git", "log"), style="man")
    assert len(log.flags) >= RICH_COMMAND_FLAGS
    small = Command(path=("status",), summary="Show the working tree status")
    root = Command(path=(), subcommands=(log.with_changes(path=("log",)), small))
    verbs = _verbs(propose(Tool(name="git", root=root)))
    log_verb = next(v for v in verbs.values() if v["cli"][:2] == ["git", "log"])
    props = log_verb["args"]["properties"]
    assert MAX_ARGS < len(props) <= MAX_ARGS_SINGLE
    assert {"author", "until", "grep"} <= set(props), sorted(props)


# -- "config" names what a command is about, the summary what it does ------------------------------


def test_config_is_read_where_its_help_says_it_prints_and_a_write_elsewhere():
    """The name 'config' made `hugo config` ("Print the site configuration") and `ruff config` ("List
    or describe the available configuration options") writes: a noun as often as a verb, so the
    summary's verb decides where it has one."""
    cases = {
        ("cobra", "hugo"): "read",
        ("clap", "ruff"): "read",
        ("cobra", "docker"): "write",
        ("cobra", "kubectl"): "write",
        ("cobra", "rclone"): "write",
    }
    for (style, name), effect in cases.items():
        config = _tool(style, name).root.find(("config",))
        assert config is not None, name
        assert classify(config, tool_name=name).effect == effect, (name, config.summary)
    # no summary verb: the name still speaks (rclone's "Enter an interactive configuration session.")
    assert "name 'config'" in classify(_tool("cobra", "rclone").root.find(("config",))).reason


def test_a_placeholder_for_options_of_a_kind_is_no_operand():
    """`git blame [<options>] [<rev-opts>] [<rev>] [--] <file>`: <rev-opts> ("documented in
    git-rev-list(1)") became a string arg described as a revision."""
    from wrapgen.knowledge.commands import is_not_operand
    from wrapgen.model.tool import Positional
    from wrapgen.propose.operands import operands, usage_split

    assert (
        is_not_operand("rev-opts")
        and is_not_operand("<common-diff-options>")
        and is_not_operand("options")
    )
    assert (
        not is_not_operand("rev")
        and not is_not_operand("file")
        and not is_not_operand("feature-flag")
    )
    blame = Command(
        path=("blame",),
        usage=("git blame [<options>] [<rev-opts>] [<rev>] [--] <file>",),
        positionals=(
            Positional(name="rev-opts"),
            Positional(name="rev"),
            Positional(name="file", required=True),
        ),
    )
    assert [p.name for p in operands(blame)] == ["rev", "file"]
    assert (
        usage_split(blame) == 1
    )  # one operand of those kept stands before "[--]": the file stays after it
