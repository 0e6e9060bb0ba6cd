"""Where a task runner's repository is, and when `wrap` reads targets instead of the runner's help (no processes)."""

from __future__ import annotations

import pytest

from wrapgen.errors import RunnerFileError, UsageError
from wrapgen.probe.runners import _make_errors, discover_runner, find_repository, runner_discovery


def test_the_runner_file_is_found_in_the_runners_own_order(tmp_path):
    (tmp_path / "Makefile").write_text("all:\n")
    assert find_repository("make", tmp_path).file == str(tmp_path / "Makefile")
    (tmp_path / "GNUmakefile").write_text("all:\n")
    assert find_repository("/usr/bin/gmake", tmp_path).file == str(tmp_path / "GNUmakefile")
    assert find_repository("just", tmp_path) is None
    assert find_repository("git", tmp_path) is None
    (tmp_path / "Taskfile.yaml").write_text("version: '3'\n")
    repo = find_repository("go-task", tmp_path)
    assert (repo.kind, repo.name) == ("task", tmp_path.name)


def test_wrap_reads_targets_only_where_the_runner_has_its_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert runner_discovery("make") is None  # no Makefile here: make is wrapped from its help
    assert runner_discovery("git") is None
    (tmp_path / "Makefile").write_text("all:\n")
    assert callable(runner_discovery("make"))
    assert callable(
        runner_discovery("npm", tmp_path, explicit=True)
    )  # asked for: its absence is an error later
    with pytest.raises(UsageError, match="not a task runner"):
        runner_discovery("git", tmp_path, explicit=True)


def test_a_missing_runner_file_is_a_clear_error(tmp_path):
    with pytest.raises(RunnerFileError) as caught:
        discover_runner("npm", tmp_path)
    assert caught.value.message == f"no package.json in {tmp_path}" and "--dir" in caught.value.hint


def test_only_makes_own_complaints_count():
    stderr = "make: *** No rule to make target ':'.  Stop.\n"
    assert _make_errors(stderr) == []
    assert _make_errors("Makefile:2: *** missing separator.  Stop.\n") == [
        "Makefile:2: *** missing separator.  Stop."
    ]
