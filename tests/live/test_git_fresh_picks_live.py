"""A fresh git pack (no recipe) proposes blame, which an expert picks first among git's reads
(bench/data/expert_picks.json): `git help -a` lists it under "Ancillary Commands / Interrogators",
and read as "ancillary" it ranked below range-diff and describe, so it was never proposed."""

from __future__ import annotations

from conftest import require_tool
from wrapgen.probe.discover import discover
from wrapgen.propose import propose


def test_fresh_git_pack_proposes_blame_as_a_read():
    require_tool("git")
    proposal = propose(discover("git", depth=1))
    chosen = {d.path: d for d in proposal.chosen}
    assert "blame" in chosen, sorted(chosen)
    assert chosen["blame"].effect == "read"
    assert "range-diff" not in chosen  # what it outranks now: a comparison of two patch series


def test_fresh_blame_with_a_revision_answers_as_git_blame_does(tmp_path):
    """git blame takes the word after `--end-of-options` for the place of `--` and reads the path as
    a revision (`git blame --end-of-options HEAD~1 -- f`: "fatal: bad revision 'f'"): the fresh
    pack's blame writes no --end-of-options, and its revision slot still refuses a dashed value."""
    import subprocess

    from wrapgen import runtime
    from wrapgen.flows.wrap import wrap

    git = require_tool("git")
    repo = tmp_path / "repo"
    repo.mkdir()

    def run(*argv):
        return subprocess.run([git, *argv], cwd=repo, check=True, capture_output=True, text=True)

    run("init", "-q")
    run("config", "user.email", "a@example.com")
    run("config", "user.name", "Ann")
    (repo / "notes.txt").write_text("one\n")
    run("add", "notes.txt")
    run("commit", "-q", "-m", "first")
    (repo / "notes.txt").write_text("one\ntwo\n")
    run("commit", "-q", "-am", "second")
    result = wrap("git", out_dir=tmp_path / "out", trials=False)
    blame = result.proposal.manifest["verbs"]["blame"]
    assert "--end-of-options" not in blame["cli"], blame["cli"]
    binding = str(result.pack_dir)
    answer = runtime.execute(
        binding, "blame", {"rev": "HEAD~1", "file": "notes.txt"}, cwd=str(repo)
    )
    assert answer["ok"], answer
    assert answer["result"] == run("blame", "HEAD~1", "--", "notes.txt").stdout
    refused = runtime.execute(
        binding, "blame", {"rev": "--contents=/etc/passwd", "file": "notes.txt"}, cwd=str(repo)
    )
    assert not refused["ok"] and "option injection refused" in refused["error"]
