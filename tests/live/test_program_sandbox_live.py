"""Run as its user would, on real tools: a tool whose program runs under its own sandbox switch
(gawk's --sandbox) gets its main mode as a read that answers what the human command answers, and a
program that tries to start a command or write a file is refused by the tool itself; a graph
filter's operand gets a graph of its language in its trial (a Graphviz sample), so its main mode is
tried, found to read, and answers."""

from __future__ import annotations

import json
import subprocess

import pytest
import yaml

from tests.conftest import require_tool

pytestmark = pytest.mark.live


def _wrap(tool: str, tmp_path, cli, monkeypatch) -> dict:
    monkeypatch.setenv("WRAPGEN_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "packs"
    result = cli("wrap", tool, "-o", str(out))
    assert result.exit_code == 0, result.stdout + result.stderr
    return yaml.safe_load((out / tool / "pack.yaml").read_text()) | {"_dir": str(out / tool)}


def _exec(cli, pack: dict, verb: str, cwd, monkeypatch, **args) -> dict:
    monkeypatch.chdir(cwd)
    # a list is its key repeated (wrapgen exec's k=v form)
    pairs = [f"{k}={item}" for k, v in args.items() for item in (v if isinstance(v, list) else [v])]
    result = cli("exec", pack["_dir"], verb, "--json", "--", *pairs)
    return json.loads(result.stdout)


def test_an_awk_program_runs_as_a_read_under_the_tools_sandbox(tmp_path, cli, monkeypatch):
    gawk = require_tool("gawk")
    pack = _wrap("gawk", tmp_path, cli, monkeypatch)
    (name, verb), *_ = pack["verbs"].items()
    assert verb["cli"][:2] == ["gawk", "--sandbox"]
    assert verb["policy"] == {"effect": "read", "confirm": False}, verb["x-why"]
    work = tmp_path / "work"
    work.mkdir()
    (work / "data.csv").write_text("alpha,1\nbeta,2\n")
    program, files = (
        next(a for a in verb["args"]["required"] if "prog" in a),
        next(a for a in verb["args"]["required"] if "file" in a),
    )
    envelope = _exec(
        cli,
        pack,
        name,
        work,
        monkeypatch,
        **{program: "{print $1}", files: ["data.csv"], "field_separator": ","},
    )
    human = subprocess.run(
        [gawk, "-F,", "{print $1}", "data.csv"], cwd=work, capture_output=True, text=True
    )
    assert envelope == {"ok": True, "result": human.stdout}
    # a program that reaches outside its input is stopped by the switch every call passes
    escape = 'BEGIN { system("touch escaped"); print "x" > "written" }'
    envelope = _exec(cli, pack, name, work, monkeypatch, **{program: escape, files: ["data.csv"]})
    assert envelope["ok"] is False and "sandbox" in envelope["error"], envelope
    assert not (work / "escaped").exists() and not (work / "written").exists()


def test_a_graph_filter_is_tried_on_a_graph_and_answers_as_a_read(tmp_path, cli, monkeypatch):
    dot = require_tool("dot")
    pack = _wrap("dot", tmp_path, cli, monkeypatch)
    reads = {n: v for n, v in pack["verbs"].items() if v["policy"]["effect"] == "read"}
    assert reads, {n: v["x-why"] for n, v in pack["verbs"].items()}
    name, verb = next(iter(reads.items()))
    assert "ran and exited 0" in verb["x-why"], verb["x-why"]
    work = tmp_path / "work"
    work.mkdir()
    (work / "graph.gv").write_text("digraph g { a -> b; }\n")
    operand = next(a for a in verb["args"]["properties"] if "file" in a)
    fmt = next(
        a
        for a, p in verb["args"]["properties"].items()
        if p.get("type") == "string" and a != operand and "format" in p.get("description", "")
    )
    envelope = _exec(cli, pack, name, work, monkeypatch, **{operand: ["graph.gv"], fmt: "plain"})
    human = subprocess.run([dot, "-Tplain", "graph.gv"], cwd=work, capture_output=True, text=True)
    assert envelope == {"ok": True, "result": human.stdout}
