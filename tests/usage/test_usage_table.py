"""scripts/usage_table.py and wrapgen/usage/tldr.py: tldr-pages distilled into facts, the same bytes every run.

Two fixtures: ``tldr`` (pages made for edge cases: a broken example, a linux page beside a common
one) and ``tldr-sample`` (twelve real pages at the shipped table's commit, CC BY 4.0, attributed in
its SOURCE.md), on which the shipped table is checked. The whole table against a full checkout:
``python3 scripts/usage_table.py --pages CHECKOUT --check``."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

from wrapgen.model.usage import UsedOperand
from wrapgen.usage import public_usage
from wrapgen.usage.shape import count_uses
from wrapgen.usage.tldr import read_line, read_page

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "tests" / "fixtures" / "usage" / "tldr"
SAMPLE = REPO / "tests" / "fixtures" / "usage" / "tldr-sample"
SHIPPED = REPO / "wrapgen" / "knowledge" / "data" / "usage.json"
# tools every page of which is in the sample (at its commit): their shipped rows are the sample's
WHOLE = ("find", "jq", "lsblk", "sed", "tar")


def _script():
    """scripts/usage_table.py, loaded from its file (a maintainer's script, not part of the package)."""
    spec = importlib.util.spec_from_file_location(
        "usage_table", REPO / "scripts" / "usage_table.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _table(root: Path) -> dict:
    script = _script()
    return script.distil(script.read_pages(root), source="test")


def _uses(command: str, tool: str, known=lambda path: False):
    return count_uses(read_line(command, tool=tool, known=known))


def test_a_subcommand_page_gives_its_path_and_long_flags():
    """`git commit {{[-m|--message]}} "{{message}}"` is path (commit,), --message valued with a text named message."""
    (use,) = _uses('git commit {{[-m|--message]}} "{{message}}"', "git", lambda p: p == ("commit",))
    assert use.path == ("commit",)
    # the usual fold first, the other spelling after it: a model that knows only -m still finds it
    assert use.flags == ("--message|-m",)
    assert use.valued == ("--message|-m",)
    assert use.values == (UsedOperand("text", "message"),)
    assert use.operands == ()


def test_bundled_key_letters_are_flags_not_a_path():
    """`tar xf ARCHIVE -C DIR` has no path: xf is the flags -x -f (tar's key letters are data)."""
    (use,) = _uses(
        "tar xf {{path/to/source.tar}} {{[-C|--directory]}} {{path/to/directory}}", "tar"
    )
    assert use.path == ()
    assert use.flags == ("--directory|-C", "-f", "-x")
    assert dict(zip(use.valued, use.values)) == {
        "--directory|-C": UsedOperand("directory", "directory"),
        "-f": UsedOperand("file", "source"),
    }


def test_a_leading_bare_word_is_a_subcommand():
    """`docker run {{image}}` is path (run,) with an operand of kind text named image."""
    (use,) = _uses("docker run {{image}}", "docker")
    assert use.path == ("run",)
    assert use.operands == (UsedOperand("text", "image"),)


def test_global_flags_before_a_known_subcommand_keep_the_path():
    """`git -C DIR status` is path (status,) with -C's value, where a page names git's status."""
    known = {("status",)}.__contains__
    (use,) = _uses("git {{[-C|--work-tree]}} {{path/to/directory}} status", "git", known)
    assert use.path == ("status",) and use.valued == ("--work-tree|-C",)
    (use,) = _uses("git --no-pager status", "git", known)
    assert use.path == ("status",) and use.flags == ("--no-pager",) and use.valued == ()
    (use,) = _uses("git --no-pager frobnicate", "git", known)  # no page: no path
    assert use.path == ()


def test_operand_kinds_come_from_placeholders():
    """path/to/file, path/to/directory, url, branch, package, pid, pattern and numbers are typed."""
    (use,) = _uses(
        "t x {{path/to/file}} {{path/to/directory}} {{https://example.com}} {{branch_name}} "
        "{{package}} {{pid}} {{search_pattern}} {{100}} {{something}}",
        "t",
    )
    assert [o.kind for o in use.operands] == [
        "file", "directory", "url", "branch", "package", "pid", "pattern", "number", "text",
    ]  # fmt: skip
    assert [o.name for o in use.operands] == [
        "file", "directory", "", "branch_name", "package", "pid", "search_pattern", "", "something",
    ]  # fmt: skip


def test_several_files_are_one_repeated_operand():
    """`{{path/to/file1 path/to/file2 ...}}` is one file operand marked repeated."""
    (use,) = _uses("cat {{path/to/file1 path/to/file2 ...}}", "cat")
    assert use.operands == (UsedOperand("file", "file", True),)


def test_a_quoted_literal_is_one_operand_and_a_folded_spelling_several_words():
    """An awk program in quotes (`'{s+=$1} END {print s}'`) is one operand, not five; a
    placeholder of alternatives folded into several words (`{{[-lt|--listening --tcp]}}`) is
    still each word."""
    (use,) = _uses("awk '{s+=$1} END {print s}' {{path/to/file}}", "awk")
    assert use.operands == (UsedOperand("text", ""), UsedOperand("file", "file"))
    (use,) = _uses("ss {{[-lt|--listening --tcp]}}", "ss")
    assert use.flags == ("--listening", "--tcp")


def test_only_the_tools_own_command_lines_count():
    """A pipeline counts the segment the tool runs; an alias page's `tldr ...` pointer counts nothing."""
    assert _uses("tldr docker container run", "docker") == ()
    (use,) = _uses("{{cat path/to/file.json}} | jq {{[-r|--raw-output]}} '.'", "jq")
    assert use.flags == ("--raw-output|-r",)
    (use,) = _uses("sudo -u {{user}} docker container run {{image}}", "docker")
    assert use.path == ("container", "run")


def test_a_flag_shown_bare_elsewhere_takes_no_value():
    """--patch followed by a path is a flag and an operand when another use shows --patch bare."""
    lines = read_line("git log --patch {{path/to/file}}", tool="git") + read_line(
        "git log --patch --stat", tool="git"
    )
    uses = count_uses(lines)
    first = next(u for u in uses if u.operands)
    assert first.valued == () and first.operands == (UsedOperand("file", "file"),)


def test_an_example_that_is_no_command_line_is_skipped_and_the_rest_used():
    """An unclosed quote skips that example with its line and reason; the page's other examples stay."""
    page = read_page((FIXTURE / "pages" / "common" / "jq.md").read_text())
    assert page.tool == "jq" and len(page.lines) == 2
    (skip,) = page.skipped
    assert skip.line == 15 and "closing quotation" in skip.reason


def test_the_table_holds_facts_never_sentences_or_example_values():
    """No sentence and no placeholder's example value of the fixture pages is in the table."""
    text = _script().render(_table(FIXTURE))
    assert "Fixture page" not in text and "Example" not in text
    for value in ("example.com", "repo.git", "source.tar", ".key", "target.tar"):
        assert value not in text


def test_the_linux_page_replaces_the_common_one():
    """A page in both pages/common and pages/linux is read from linux, as a Linux client shows it."""
    ss = _table(FIXTURE)["tools"]["ss"]
    assert all("--common-only" not in row[1] for row in ss)
    assert any(row[1] == ["--all|-a", "--unix"] for row in ss)


def test_two_runs_over_a_copy_give_the_same_bytes(tmp_path):
    """The same pages give the same bytes: the script run as two processes (two hash seeds), over
    two copies of the real sample, writes identical files."""
    outputs = []
    for n in (1, 2):
        copy = shutil.copytree(SAMPLE, tmp_path / f"copy{n}")
        out = tmp_path / f"usage{n}.json"
        done = subprocess.run(
            [sys.executable, str(REPO / "scripts" / "usage_table.py"), "--pages", str(copy)]
            + ["-o", str(out)],
            env={**os.environ, "PYTHONHASHSEED": str(n)},
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1]
    assert b"08e345f42639f67d99282813247ac670dc6e87cb" in outputs[0]  # the commit, from SOURCE.md
    assert outputs[0].endswith(b"}}\n") and b"\r" not in outputs[0]
    check = ["--pages", str(tmp_path / "copy1"), "-o", str(out), "--check"]
    assert _script().main(check) == 0


def test_the_pinned_sample_makes_the_shipped_rows_and_the_expected_facts(tmp_path):
    """The real sample, at the shipped table's commit: the rows of the tools it holds whole are
    the shipped table's, byte for byte; subcommand pages give git's and aws's paths."""
    out = tmp_path / "usage.json"
    assert _script().main(["--pages", str(SAMPLE), "-o", str(out)]) == 0
    table = json.loads(out.read_text(encoding="utf-8"))
    shipped = json.loads(SHIPPED.read_text(encoding="utf-8"))
    commit = re.search(r"commit ([0-9a-f]{40})", table["source"])[1]
    assert commit in shipped["source"], "the sample is not at the shipped table's commit"
    assert sorted(table["tools"]) == sorted(("aws", "git", *WHOLE))
    for tool in WHOLE:
        assert table["tools"][tool] == shipped["tools"][tool], (
            f"{tool}: usage.json is stale, or the sample is not what it was made from: run "
            "python3 scripts/usage_table.py --pages CHECKOUT"
        )
    git = public_usage("git", environ={}, table=table)
    assert git.path_counts()[("commit",)] == 9 and git.path_counts()[("log",)] == 8
    aws = public_usage("aws", environ={}, table=table)
    assert aws.path_counts()[("s3", "ls")] == 6 and aws.path_counts()[("s3", "sync")] == 3
    jq = public_usage("jq", environ={}, table=table)
    assert UsedOperand("literal", ".") in {o for u in jq.uses for o in u.operands}
    text = out.read_text(encoding="utf-8")
    for page in SAMPLE.glob("pages/*/*.md"):
        for line in page.read_text(encoding="utf-8").splitlines():
            if line.startswith("- "):  # an example's sentence
                assert line[2:].rstrip(":") not in text


def test_check_reports_a_stale_table(tmp_path, capsys):
    """--check writes nothing and exits 1 when the file differs from what the pages make."""
    out = tmp_path / "usage.json"
    out.write_text("{}\n")
    assert _script().main(["--pages", str(FIXTURE), "-o", str(out), "--check"]) == 1
    assert out.read_text() == "{}\n"
    assert "(regenerated)" in capsys.readouterr().out


def test_a_table_reads_into_evidence_and_the_exclusion_hides_a_tool():
    """public_usage reads a table's rows back into Uses (values and repeated operands too)."""
    table = _table(FIXTURE)
    git = public_usage("git", environ={}, table=table)
    assert git.source == "tldr-pages" and git.uses[0].where == ("tldr-pages",)
    assert git.path_counts()[("log",)] == 6 and git.path_counts()[("commit",)] == 2
    log = next(u for u in git.uses if u.valued == ("--author", "--max-count|-n"))
    assert log.values == (UsedOperand("text", "author"), UsedOperand("number", "n"))
    tar = public_usage("/usr/bin/tar", environ={}, table=table)
    assert UsedOperand("file", "file", True) in {o for u in tar.uses for o in u.operands}
    hidden = {"WRAPGEN_USAGE_EXCLUDE": "jq, git"}
    assert public_usage("git", environ=hidden, table=table) is None
    assert public_usage("nosuchtool", environ={}, table=table) is None
    assert (REPO / "wrapgen" / "knowledge" / "data" / "usage.LICENSE.md").is_file()


def test_written_spellings_and_subcommand_choices_are_kept_for_the_model_to_settle():
    """``{{[-a|-autoskip]}}`` keeps both spellings (the usual fold first); ``{{start|stop}}`` where
    the path goes on is a path word of two subcommands. ``settle_choices`` makes one use per
    subcommand the tool has there; where it has none (values, not commands) the word is an
    operand again; with no model, one use per word."""
    (flagged,) = _uses("xtool {{[-a|-autoskip]}} {{path/to/file}}", "xtool")
    assert flagged.flags == ("-autoskip|-a",)
    (chosen,) = _uses("svc {{start|stop}} {{unit}}", "svc")
    assert chosen.path == ("start|stop",) and chosen.operands == (UsedOperand("text", "unit"),)

    from wrapgen.usage import settle_choices

    started = settle_choices([chosen], {("start",), ("stop",), ("status",)})
    assert sorted(u.path for u in started) == [("start",), ("stop",)]
    assert all(u.operands == chosen.operands and u.count == 1 for u in started)
    values = settle_choices([chosen], {("status",)})
    assert [(u.path, u.operands) for u in values] == [
        ((), (UsedOperand("text", ""), UsedOperand("text", "unit")))
    ]
    assert sorted(u.path for u in settle_choices([chosen])) == [("start",), ("stop",)]
    # the same shape from two examples is one use counted twice
    (twice,) = settle_choices([chosen, replace(chosen, path=("start",))], {("start",)})
    assert twice.path == ("start",) and twice.count == 2


def test_a_flag_is_found_by_whichever_written_spelling_the_model_knows():
    """A use written ``-autoskip|-a`` runs the model's ``-a`` (its help lists no ``-autoskip``)."""
    from wrapgen.model.tool import Command, Flag
    from wrapgen.model.usage import Use
    from wrapgen.propose.evidence import fold

    root = Command(path=(), flags=(Flag(short="-a", description="toggle autoskip"),))
    folded = fold(Use(path=(), flags=("-autoskip|-a",)), root)
    assert folded.use.flags == ("-a",)
    unknown = fold(Use(path=(), flags=("--nosuch|-z",)), root)
    assert unknown.use.flags == ("--nosuch",)


TOP_POD_HELP = """Display resource (CPU/memory) usage of pods.

Aliases:
pod, pods, po

Examples:
  # Show metrics for all pods in the default namespace
  ktool top pod

Usage:
  ktool top pod [NAME | -l label] [options]
"""


def test_an_alternative_of_subcommand_aliases_settles_to_the_subcommands_not_an_operand():
    """A page's ``top {{pods|nodes}}`` names the plural aliases a flush-left ``Aliases:`` section
    lists: with the aliases read from the help, the uses settle on ``top pod`` and ``top node``;
    the family command itself gets no operand from them (it refuses one: unknown command)."""
    from wrapgen.model.tool import Command, Tool
    from wrapgen.parse import parse_help
    from wrapgen.propose.evidence import fold
    from wrapgen.usage import known_to

    pod = parse_help(TOP_POD_HELP, prog=("ktool", "top", "pod"))
    assert pod.aliases == ("pods", "po")
    pod = Command(path=("top", "pod"), summary=pod.summary, aliases=pod.aliases)
    node = Command(path=("top", "node"), summary="Usage of nodes", aliases=("nodes", "no"))
    top = Command(path=("top",), summary="Display usage", subcommands=(pod, node))
    tool = Tool(name="ktool", root=Command(path=(), subcommands=(top,)))
    commands, _ = known_to(tool)
    table = {"tools": {"ktool": [[["top", "pods|nodes"], [], [], [], 1]]}}
    uses = public_usage("ktool", environ={}, table=table, commands=commands).uses
    assert sorted(u.path for u in uses) == [("top", "nodes"), ("top", "pods")]
    assert all(not u.operands for u in uses)
    assert {fold(u, tool.root).command.path for u in uses} == {("top", "pod"), ("top", "node")}


def test_a_command_named_with_a_colon_joins_the_path_where_the_model_knows_it():
    """``orm migration:run`` (a colon is no path word's look) is kept in the table as a literal
    operand; where the tool's model has that command, the use is the command's, not the root's
    with a literal (the command was never proposed from its uses)."""
    from wrapgen.usage import settle_choices

    (use,) = _uses("orm migration:run", "orm")
    assert use.path == () and use.operands == (UsedOperand("literal", "migration:run"),)
    (settled,) = settle_choices([use], {("migration:run",), ("query",)})
    assert settled.path == ("migration:run",) and settled.operands == ()
    # a literal the model has no command for stays an operand (git add .)
    (kept,) = settle_choices([use], {("query",)})
    assert kept.path == () and kept.operands == use.operands
    # a topic's command under the topic's own path (an oclif CLI's ps:scale under ps)
    (scaled,) = _uses("paas ps:scale {{web=1}}", "paas")
    (settled,) = settle_choices([scaled], {("ps",), ("ps:scale",)})
    assert settled.path == ("ps:scale",) and len(settled.operands) == 1
