"""wrapgen/usage/local.py and evidence_for: a tool's invocations read out of a repository's files, values never kept."""

from __future__ import annotations

import json

from wrapgen.model.usage import UsedOperand
from wrapgen.usage import evidence_for
from wrapgen.usage.local import lines_of, read_paths, reader_for
from wrapgen.usage.shape import count_uses

TOOL = "acmectl"
COMMANDS = [("deploy",), ("status",), ("logs",), ("db", "migrate"), ("db",)]


def _uses(text: str, kind: str):
    lines, problems = lines_of(TOOL, text, kind=kind, where="f")
    return count_uses(lines), problems


def _shapes(uses):
    return sorted((u.path, u.flags, u.count) for u in uses)


def test_a_shell_script_gives_every_call_pipelines_lists_prefixes_and_continuations():
    """sudo/env/time prefixes, pipes, &&, $(...), if blocks and a continued line all count."""
    script = (
        "#!/bin/sh\nset -e\n"
        "sudo -u deploy acmectl status -v | grep ok && acmectl logs --since 10m \\\n"
        "    --follow\n"
        'if [ -n "$X" ]; then env A=1 time /usr/local/bin/acmectl status -v; fi\n'
        "out=$(acmectl db migrate --dry-run)\n"
        "echo acmectl is not called here\n"
    )
    uses, problems = _uses(script, "shell")
    assert problems == []
    assert _shapes(uses) == [
        (("db", "migrate"), ("--dry-run",), 1),
        (("logs",), ("--follow", "--since"), 1),
        (("status",), ("-v",), 2),
    ]
    logs = next(u for u in uses if u.path == ("logs",))
    assert logs.where == ("f:3",)


def test_a_makefile_reads_recipe_lines_and_make_variables():
    """Recipe lines (tab, @, -) count; $(ENV) is a variable operand named env; other lines do not."""
    makefile = (
        "ENV ?= staging\nacmectl: ## not a recipe line\n\n"
        "deploy: build\n\t@acmectl deploy --env $(ENV) \\\n\t  --wait\n"
        "check:\n\t-acmectl status\n"
    )
    uses, _ = _uses(makefile, "makefile")
    deploy = next(u for u in uses if u.path == ("deploy",))
    assert deploy.flags == ("--env", "--wait")
    assert deploy.values == (UsedOperand("text", "env"),)
    assert _shapes(uses)[1] == (("status",), (), 1)


def test_a_justfile_reads_recipe_bodies_and_interpolations():
    """Indented recipe lines count; {{target}} reads as a variable."""
    justfile = (
        'target := "prod"\n\nrelease:\n    acmectl deploy --env {{target}}\n    @acmectl status\n'
    )
    uses, _ = _uses(justfile, "justfile")
    assert _shapes(uses) == [(("deploy",), ("--env",), 1), (("status",), (), 1)]


def test_package_json_scripts_count():
    """Each "scripts" value is a command line; its line is the script's."""
    text = json.dumps(
        {"name": "app", "scripts": {"deploy": "acmectl deploy --env prod", "lint": "eslint ."}},
        indent=2,
    )
    uses, _ = _uses(text, "package.json")
    (use,) = uses
    assert use.path == ("deploy",) and use.where == ("f:4",)


def test_ci_workflows_read_run_blocks_and_gitlab_scripts():
    """GitHub Actions run: (a block scalar too) and GitLab CI script: lists count, with their lines."""
    github = (
        "on: push\njobs:\n  ship:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - uses: actions/checkout@v4\n"
        "      - run: acmectl status --json\n"
        "      - name: deploy\n        run: |\n          echo start\n"
        "          acmectl deploy --env prod\n"
    )
    uses, _ = _uses(github, "ci")
    assert _shapes(uses) == [(("deploy",), ("--env",), 1), (("status",), ("--json",), 1)]
    assert next(u for u in uses if u.path == ("deploy",)).where == ("f:11",)
    gitlab = "deploy:\n  stage: deploy\n  script:\n    - acmectl logs --since 1h\n"
    uses, _ = _uses(gitlab, "ci")
    assert _shapes(uses) == [(("logs",), ("--since",), 1)]


def test_other_ci_systems_are_read_too():
    """CircleCI's `run: {command: ...}` and Travis's `script:` count; their files are known by name."""
    circle = (
        "version: 2.1\njobs:\n  build:\n    steps:\n      - checkout\n"
        "      - run:\n          name: ship\n          command: acmectl deploy --env prod\n"
    )
    assert _shapes(_uses(circle, "ci")[0]) == [(("deploy",), ("--env",), 1)]
    travis = "language: python\nscript:\n  - acmectl status --json\n"
    assert _shapes(_uses(travis, "ci")[0]) == [(("status",), ("--json",), 1)]
    assert reader_for(".circleci/config.yml") == reader_for(".travis.yml") == "ci"
    assert reader_for("azure-pipelines.yml") == "ci"


def test_dockerfile_run_lines_count_in_both_forms():
    """RUN's shell form (with continuations and --mount) and its exec form count; CMD does not."""
    dockerfile = (
        "FROM debian\nRUN --mount=type=cache,target=/c apt-get update && \\\n"
        "    acmectl db migrate --yes\n"
        'RUN ["acmectl", "status", "--json"]\nCMD ["acmectl", "logs"]\n'
    )
    uses, _ = _uses(dockerfile, "dockerfile")
    assert _shapes(uses) == [(("db", "migrate"), ("--yes",), 1), (("status",), ("--json",), 1)]


def test_markdown_reads_shell_fences_and_prompts_only():
    """sh fences whole, console blocks by their $ prompts; python fences and prose do not count."""
    markdown = (
        "Run acmectl deploy to ship.\n\n```sh\nacmectl deploy --env prod\n```\n\n"
        "```console\n$ acmectl status\nall good\nacmectl logs (output, not a command)\n```\n\n"
        "```python\nos.system('acmectl logs')\n```\n"
    )
    uses, _ = _uses(markdown, "markdown")
    assert _shapes(uses) == [(("deploy",), ("--env",), 1), (("status",), (), 1)]


def test_history_files_read_bash_and_zsh_extended_lines():
    """bash history (timestamps skipped) and zsh's ': time:0;cmd' lines count alike."""
    bash = "#1700000000\nacmectl status\nls\nacmectl status\n"
    zsh = ": 1700000000:0;acmectl logs --follow\n: 1700000001:0;cd /tmp\n"
    assert _shapes(_uses(bash, "history")[0]) == [(("status",), (), 2)]
    assert _shapes(_uses(zsh, "history")[0]) == [(("logs",), ("--follow",), 1)]


def test_kinds_come_from_a_files_name():
    """Files are read by what their name says; an unknown file in a folder is not read."""
    assert reader_for("Makefile") == "makefile"
    assert reader_for("repo/.github/workflows/ci.yml") == "ci"
    assert reader_for(".gitlab-ci.yml") == "ci"
    assert reader_for("Dockerfile.dev") == "dockerfile"
    assert reader_for("guide/usage.md") == "markdown"
    assert reader_for(".zsh_history") == "history"
    assert reader_for("bin/run", "#!/usr/bin/env bash") == "shell"
    assert reader_for("config.yml") is None
    assert reader_for("main.py", "import os") is None


def test_a_folder_is_walked_skipping_vendor_binary_and_unknown_files(tmp_path):
    """.git, node_modules and vendor folders, binary files and unknown kinds are not read."""
    repo = tmp_path / "repo"
    (repo / "scripts").mkdir(parents=True)
    (repo / "scripts" / "a.sh").write_text("acmectl status\n")
    for skipped in (".git", "node_modules", "vendor"):
        (repo / skipped).mkdir()
        (repo / skipped / "b.sh").write_text("acmectl logs\n")
    (repo / "scripts" / "blob.sh").write_bytes(b"acmectl logs\0\1\2")
    (repo / "notes.txt").write_text("acmectl logs\n")
    lines, skipped = read_paths(TOOL, [repo])
    assert [(ln.path, ln.where) for ln in lines] == [(("status",), "repo/scripts/a.sh:1")]
    assert skipped == []


def test_a_file_that_does_not_parse_is_skipped_with_one_line_and_the_rest_used(tmp_path):
    """Bad JSON, bad YAML and bad shell are each named with a reason; good files still count."""
    (tmp_path / "package.json").write_text('{"scripts": {"x": "acmectl status"')
    (tmp_path / ".gitlab-ci.yml").write_text("job:\n  script: [acmectl logs\n")
    (tmp_path / "bad.sh").write_text("acmectl logs --follow\nif then fi (\nacmectl status\n")
    (tmp_path / "good.sh").write_text("acmectl deploy\n")
    lines, skipped = read_paths(TOOL, [tmp_path, tmp_path / "missing"])
    messages = sorted(skip.message for skip in skipped)
    assert len(messages) == 4
    assert any(".gitlab-ci.yml: not YAML" in m for m in messages)
    assert any("package.json: not JSON" in m for m in messages)
    assert any("bad.sh: not shell bashlex reads" in m and "one by one" in m for m in messages)
    assert any("missing: no such file or folder" in m for m in messages)
    assert sorted(ln.path for ln in lines) == [("deploy",), ("logs",), ("status",)]


def test_evidence_for_keeps_only_paths_and_flags_the_tool_confirms(tmp_path):
    """A leading word the tool has no command for is an operand of no name; unknown flag spellings go."""
    script = tmp_path / "ops.sh"
    script.write_text("acmectl login hunter2\nacmectl deploy -pS3cret --env prod\n")
    skips = []
    (local, *rest) = evidence_for(TOOL, [script], commands=COMMANDS, on_skip=skips.append)
    assert local.source == "local" and skips == []
    shapes = {(u.path, u.flags) for u in local.uses}
    assert shapes == {((), ()), (("deploy",), ("--env",))}
    login = next(u for u in local.uses if u.path == ())
    assert login.operands == (UsedOperand("text"), UsedOperand("text"))
    (bare,) = {u.path for u in evidence_for(TOOL, [script])[0].uses if not u.flags}
    assert bare == ()  # no model: no path at all
    (known,) = evidence_for(TOOL, [script], commands=COMMANDS, flags={"--env", "--wait"})
    assert all(set(u.flags) <= {"--env", "--wait"} for u in known.uses)


def test_evidence_for_puts_local_first_then_examples_then_the_table(tmp_path):
    """Sources come most specific first, and the example lines of the tool's help count too."""
    (tmp_path / "x.sh").write_text("git log --oneline\n")
    table = {"tools": {"git": [[["log"], ["--oneline"], [], [], 3]]}}
    found = evidence_for("git", [tmp_path], ["$ git log -n 3"], environ={}, table=table)
    assert [e.source for e in found] == ["local", "examples", "tldr-pages"]
    assert found[1].uses[0].flags == ("-n",)
    hidden = evidence_for("git", [tmp_path], environ={"WRAPGEN_USAGE_EXCLUDE": "git"}, table=table)
    assert [e.source for e in hidden] == ["local"]


def test_a_dot_is_syntax_for_the_grammar_to_type_not_a_directory(tmp_path):
    """``jq . f.json``: the ``.`` is kept as the literal word (a filter to one tool, a directory to
    another), as the usage table keeps it; a trailing slash or ``~`` still reads as a directory."""
    (tmp_path / "q.sh").write_text("curl -s x | jq . data.json\njq .. data.json\nls ~ out/\n")
    file = UsedOperand("file")
    (local,) = evidence_for("jq", [tmp_path], environ={}, table={})
    assert {u.operands for u in local.uses} == {
        (UsedOperand("literal", "."), file),
        (UsedOperand("literal", ".."), file),
    }
    (examples,) = evidence_for("jq", examples=["$ jq . data.json"], environ={}, table={})
    assert examples.uses[0].operands == (UsedOperand("literal", "."), file)
    (ls,) = evidence_for("ls", [tmp_path], environ={}, table={})[0].uses
    assert ls.operands == (UsedOperand("directory"), UsedOperand("directory"))


def test_no_value_of_a_script_reaches_the_evidence(tmp_path):
    """Tokens, passwords and host names in a script are counted by kind, never kept as text."""
    secrets = ("ghp_Zx9Q8w7E6r5T4y3U2i1O0pAsDfGhJkLz", "hunter2", "db01.prod.internal.example.net")
    (tmp_path / "deploy.sh").write_text(
        f"export TOKEN={secrets[0]}\n"
        f"acmectl deploy --token {secrets[0]} --password={secrets[1]} {secrets[2]}\n"
        f"PGPASSWORD={secrets[1]} acmectl db migrate {secrets[2]}\n"
        f"acmectl {secrets[1]} status\n"
    )
    for commands in (None, COMMANDS):
        (local, *_) = evidence_for(TOOL, [tmp_path], commands=commands, environ={})
        text = repr(local)
        assert all(secret not in text for secret in secrets)
        assert sum(u.count for u in local.uses) == 3


def test_a_discovered_model_gives_the_commands_and_flags_that_count(tmp_path):
    """evidence_for(model=Tool) keeps the paths (aliases too) and flag spellings the tool has."""
    from wrapgen.model.tool import Command, Flag, Tool

    deploy = Command(path=("deploy",), flags=(Flag(long="--env", short="-e", takes_value=True),))
    status = Command(path=("status",), aliases=("st",))
    tool = Tool(name=TOOL, root=Command(subcommands=(deploy, status)))
    (tmp_path / "a.sh").write_text("acmectl st --watch\nacmectl deploy -e prod --force\n")
    (local,) = evidence_for(TOOL, [tmp_path], model=tool, environ={})
    assert {(u.path, u.flags) for u in local.uses} == {(("st",), ()), (("deploy",), ("-e",))}


def test_odd_bytes_and_large_files(tmp_path):
    """Bytes that are not UTF-8 do not stop a history file; a file over 1 MB named explicitly is
    skipped with its reason, and in a folder it is passed over."""
    history = tmp_path / ".zsh_history"
    history.write_bytes(b": 1700000000:0;echo \xff\xfe caf\xe9\n: 1700000001:0;acmectl status\n")
    large = tmp_path / "big.sh"
    large.write_text("acmectl logs\n" + "# padding\n" * 120_000)
    lines, skipped = read_paths(TOOL, [history, large])
    assert [ln.path for ln in lines] == [("status",)]
    assert [skip.message for skip in skipped] == [
        "skipped big.sh: a binary file, or larger than 1 MB"
    ]
    lines, skipped = read_paths(TOOL, [tmp_path])
    assert [ln.where for ln in lines] == [f"{tmp_path.name}/.zsh_history:2"] and skipped == []
