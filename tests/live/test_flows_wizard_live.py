"""The wrap wizard on real jq and rg, driven end to end in a pseudo-terminal with pexpect, and in-process."""

from __future__ import annotations

import os
import re
import signal
import sys

import pexpect
import pytest
import yaml
from support.bounds import HANG_S

from conftest import REPO, require_tool

REVIEW = r"\[Enter\] accept[^\n]*: "
WRITE = r"\[Y/n\]: "
TIMEOUT = HANG_S  # (a bound that only catches a hang: discovery on a busy machine takes minutes)


def _as_at_a_terminal() -> None:
    """The wizard starts as a person's shell starts it: Ctrl-C and Ctrl-\\ act. A suite launched in
    the background of a non-interactive shell (``cmd &``) hands its children SIGINT ignored, and a
    Python started so keeps it ignored: the Ctrl-C tests then hung at their bound."""
    for signum in (signal.SIGINT, signal.SIGQUIT):
        signal.signal(signum, signal.SIG_DFL)


def _spawn(tool: str, out) -> pexpect.spawn:
    env = {**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "200"}
    return pexpect.spawn(
        sys.executable,
        ["-m", "wrapgen", "wizard", tool, "-o", str(out)],
        env=env,
        encoding="utf-8",
        timeout=TIMEOUT,
        dimensions=(50, 200),
        preexec_fn=_as_at_a_terminal,
    )


def _answer(child: pexpect.spawn, answers=()) -> int:
    """Answer each prompt from ``answers`` in turn (Enter once they run out); the exit status."""
    answers = list(answers)
    while True:
        index = child.expect(
            [REVIEW, WRITE, r"new name \[[^\]]*\]: ", r"\(Enter for none\)?: ", pexpect.EOF]
        )
        if index == 4:
            child.close()
            return child.exitstatus
        child.sendline(answers.pop(0) if answers else "")


def _files(directory):
    return {
        p.relative_to(directory).as_posix(): p.read_bytes()
        for p in sorted(directory.rglob("*"))
        if p.is_file()
    }


def test_enter_throughout_gives_the_bytes_of_wrap(tmp_path, cli):
    """Pressing Enter at every prompt writes exactly what `wrapgen wrap jq` writes, trials included,
    then checks it (docs/flows.md)."""
    require_tool("jq")
    assert cli("wrap", "jq", "-o", str(tmp_path / "wrap")).exit_code == 0
    child = _spawn("jq", tmp_path / "wiz")
    assert _answer(child) == 0
    assert "wrapgen check: 0 error(s)" in child.before
    assert _files(tmp_path / "wiz") == _files(tmp_path / "wrap")


def test_rename_and_skip_take_effect(tmp_path, cli):
    """Renaming the first command and skipping the second changes exactly those two in the pack."""
    require_tool("rg")
    assert cli("wrap", "rg", "-o", str(tmp_path / "wrap")).exit_code == 0
    proposed = list(yaml.safe_load((tmp_path / "wrap" / "rg" / "pack.yaml").read_text())["verbs"])
    child = _spawn("rg", tmp_path / "wiz")
    assert _answer(child, ["r", "hunt", "", "s"]) == 0
    verbs = yaml.safe_load((tmp_path / "wiz" / "rg" / "pack.yaml").read_text())["verbs"]
    assert list(verbs) == ["hunt"] + proposed[2:]
    wrap_verbs = yaml.safe_load((tmp_path / "wrap" / "rg" / "pack.yaml").read_text())["verbs"]
    assert verbs["hunt"]["cli"] == wrap_verbs[proposed[0]]["cli"]
    envelope = cli("exec", str(tmp_path / "wiz" / "rg"), "hunt", "--json")
    assert envelope.exit_code in (0, 1) and envelope.stdout.startswith("{")
    # the provenance drift compares is written for the commands kept, as wrap writes it
    import json

    source = json.loads((tmp_path / "wiz" / "rg" / "source.json").read_text())
    assert sorted(source["verbs"]) == sorted(verbs)
    assert "source" in yaml.safe_load((tmp_path / "wiz" / "rg" / "pack.yaml").read_text())
    drift = cli("check", "--drift", str(tmp_path / "wiz" / "rg"))
    assert drift.exit_code == 0, drift.stdout + drift.stderr


@pytest.mark.parametrize("at", ["review", "write"])
def test_ctrl_c_leaves_nothing_written(tmp_path, at):
    """Ctrl-C at a review prompt or at the final write prompt leaves no file and no temp dir behind."""
    require_tool("jq")
    out = tmp_path / "wiz"
    child = _spawn("jq", out)
    child.expect(REVIEW)
    if at == "write":
        while True:
            child.sendline("")
            if child.expect([REVIEW, WRITE]) == 1:
                break
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert "Interrupted." in child.before
    assert not out.exists() or list(out.iterdir()) == []


def test_session_with_scripted_answers_previews_and_refuses_to_run_writes(tmp_path):
    """In-process: preview shows argv and titles; a write command is not run; policy and titles edit."""
    from wrapgen.flows.wizard import run_wizard

    require_tool("rg")
    said: list[str] = []
    answers = iter(
        ["v", "pattern=foo", "p", "write", "", "x", "t", "Changing {{pattern}} | Changing", ""]
    )

    def ask(prompt: str) -> str:
        said.append(prompt)
        return "n" if prompt.startswith("Write ") else next(answers, "")

    result = run_wizard("rg", out_dir=tmp_path, ask=ask, say=said.append)
    text = "\n".join(said)
    assert result.pack_dir is None and "Nothing written." in text
    assert "argv:  rg -- foo" in text and "live:  Searching current directory for “foo”" in text
    assert "only read commands run from the wizard" in text
    assert "policy: write (confirm-gated)" in text
    assert "live: Changing {{pattern}} | Changing" in text
    assert list(tmp_path.iterdir()) == []


def test_add_and_drop_args_through_overrides(tmp_path):
    """`-` drops an arg and `+` adds one of the command's other flags; the written pack has exactly that."""
    import re

    from wrapgen.flows.wizard import run_wizard

    require_tool("rg")
    said: list[str] = []
    steps = iter(["-", "+"])
    chosen: dict[str, str] = {}

    def listed() -> list[str]:
        return re.findall(r"\d+\. (\S+)", said[-2])  # the numbered list printed before the prompt

    def ask(prompt: str) -> str:
        said.append(prompt)
        if prompt.strip().startswith("drop which"):
            chosen["dropped"] = listed()[-1]
            return chosen["dropped"]
        if prompt.strip().startswith("add which"):
            chosen["added"] = listed()[0]
            return "1"
        if "accept" in prompt:
            return next(steps, "")
        return ""

    result = run_wizard("rg", out_dir=tmp_path, ask=ask, say=said.append)
    assert result.pack_dir is not None and result.errors == 0
    first = next(
        iter(yaml.safe_load((result.pack_dir / "pack.yaml").read_text())["verbs"].values())
    )
    props = first["args"]["properties"]
    assert chosen["dropped"] not in props and chosen["added"] in props
    assert "--" + chosen["added"].replace("_", "-") in " ".join(first["cli"])


def test_the_wizard_shows_trials_edits_descriptions_and_writes_what_was_kept(tmp_path, monkeypatch):
    """On a tool whose help lies (tests/fixtures/tools/wg-liar): each screen shows its trial; `d` edits
    a command's description and, at the write prompt, the pack's; making a read a write keeps the
    same commands (none swapped in); what is written is exactly the commands kept."""
    import shutil

    from conftest import FIXTURES
    from wrapgen.flows.wizard import run_wizard

    require_tool("bwrap")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shutil.copy2(FIXTURES / "tools" / "wg-liar", bin_dir / "wg-liar")
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    said: list[str] = []
    actions = {1: ["d"], 2: ["p"], 4: ["s"]}  # per command, by its place; Enter otherwise

    def ask(prompt: str) -> str:
        said.append(prompt)
        if "accept" in prompt:
            at = int(re.findall(r"^\[(\d+)/\d+\]", "\n".join(said), re.M)[-1])
            todo = actions.get(at, [])
            return todo.pop(0) if todo else ""
        if prompt.strip().startswith("description ["):
            return "Show every widget of the store, one a line."
        if prompt.strip().startswith("effect"):
            return "write"
        if prompt.startswith("Write "):
            return "" if any("pack description [" in p for p in said) else "d"
        if prompt.strip().startswith("pack description ["):
            return "Look after the widgets of a widget store."
        return ""

    result = run_wizard("wg-liar", out_dir=tmp_path / "out", ask=ask, say=said.append)
    text = "\n".join(said)
    assert result.pack_dir is not None, text
    assert "trial:  tried: it ran and exited 0" in text
    assert "reads '--' as an operand" in text
    data = yaml.safe_load((result.pack_dir / "pack.yaml").read_text())
    verbs = data["verbs"]
    first, second, third = list(verbs)[:3]
    assert verbs[first]["description"] == "Show every widget of the store, one a line."
    assert verbs[second]["policy"]["effect"] == "write"
    assert data["description"] == "Look after the widgets of a widget store."
    shown = re.findall(r"^\[\d+/\d+\] ([\w.-]+):", text, re.M)
    kept = [name for name in dict.fromkeys(shown) if name != list(dict.fromkeys(shown))[3]]
    assert list(verbs) == kept  # the fourth was skipped; nothing else came or went
