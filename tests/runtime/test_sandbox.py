"""The per-call sandbox (runtime/sandbox.py, docs/contract.md §8): every call runs in bubblewrap, from the
verb's policy and the pack's ``sandbox:`` section. Each behaviour is performed for real: a tool that
looks at its own process, writes, reads HOME, reaches for the network."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from packs_runtime.packtools import binding_dict, verb
from support.bounds import wait_until

from wrapgen.runtime import contain, execute
from wrapgen.runtime import sandbox as sandbox_module
from wrapgen.runtime.sandbox import plan

PY = sys.executable

pytestmark = pytest.mark.skipif(
    sandbox_module.find_bwrap() is None, reason="bubblewrap is not installed"
)


def _binding(code: str, *, effect: str = "read", section: dict | None = None, key: str = "v"):
    binding = binding_dict(
        "sb", PY, {key: verb([PY, "-c", code], json_sel=[], effect=effect, confirm=False)}
    )
    if section is not None:
        binding["sandbox"] = section
    return binding


def _run(code: str, cwd: Path, **options) -> dict:
    return execute(_binding(code, **options), "v", {}, cwd=cwd)


def _status(field: str) -> str:
    return (
        "print([l.split(':', 1)[1].strip() for l in open('/proc/self/status')"
        f" if l.startswith('{field}:')][0])"
    )


def test_a_call_has_no_capability_and_no_new_privileges(tmp_path):
    """CapEff is 0 and NoNewPrivs is 1 inside, even for a root caller."""
    assert _run(_status("CapEff"), tmp_path)["result"].strip() == "0000000000000000"
    assert _run(_status("NoNewPrivs"), tmp_path)["result"].strip() == "1"


def test_a_call_is_alone_in_its_pid_namespace(tmp_path):
    """The tool sees only its namespace's processes: its init and itself (and what it starts)."""
    code = "import os; print(sorted(int(p) for p in os.listdir('/proc') if p.isdigit()))"
    assert json.loads(_run(code, tmp_path)["result"]) == [1, 2]


def test_a_read_cannot_write_its_working_directory_or_anywhere(tmp_path):
    """A read sees its cwd and the file system read-only; TMPDIR is an empty scratch it may write;
    /tmp stays readable (a file left there is an argument like any other) but its sockets do not."""
    code = (
        "import os\n"
        "for path in ('here', '/var/wrapgen-planted', os.environ['TMPDIR'] + '/x'):\n"
        "    try:\n"
        "        open(path, 'w').write('x'); print(path, 'written')\n"
        "    except OSError as e:\n"
        "        print(path, e.errno)\n"
        "print(os.listdir(os.environ['TMPDIR']))\n"
    )
    out = _run(code, tmp_path)["result"].splitlines()
    assert out[0] == "here 30" and out[1] == "/var/wrapgen-planted 30"  # EROFS
    assert out[2] == "/var/tmp/x written" and out[3] == "['x']"
    assert not (tmp_path / "here").exists()


def test_tmp_is_readable_and_its_sockets_are_hidden(tmp_path):
    """A file under /tmp that anyone may read reads; a socket at /tmp's top cannot be reached."""
    import socket

    tmp_path = Path(tempfile.mkdtemp(dir="/tmp"))  # (pytest's own is root-only for a root caller)
    tmp_path.chmod(0o755)
    (tmp_path / "data").write_text("left here\n")
    (tmp_path / "data").chmod(0o644)
    path = f"/tmp/.s.wrapgen-test-{os.getpid()}"
    server = socket.socket(socket.AF_UNIX)
    server.bind(path)
    server.listen(1)
    try:
        code = (
            "import socket, sys\n"
            f"print(open({str(tmp_path / 'data')!r}).read().strip())\n"
            "try:\n"
            f"    socket.socket(socket.AF_UNIX).connect({path!r}); print('connected')\n"
            "except OSError as e:\n"
            "    print('refused', e.errno)\n"
        )
        out = _run(code, Path("/")).get("result", "").splitlines()
        assert out[0] == "left here" and out[1].startswith("refused")
    finally:
        server.close()
        os.unlink(path)
        shutil.rmtree(tmp_path)


def test_a_write_may_change_its_working_directory_only(tmp_path):
    """A write verb's cwd is writable; the file system beside it is not."""
    work = tmp_path / "work"
    work.mkdir()
    code = (
        "open('made', 'w').write('x')\n"
        "try:\n"
        "    open('../beside', 'w').write('x')\n"
        "except OSError as e:\n"
        "    print(e.errno)\n"
    )
    envelope = _run(code, work, effect="write")
    assert envelope["ok"], envelope
    assert (work / "made").read_text() == "x" and not (tmp_path / "beside").exists()


def test_home_is_a_scratch_with_only_the_declared_files(tmp_path, monkeypatch):
    """HOME holds only what sandbox.home names (read-only); the rest of the real HOME is not there,
    even when HOME lies inside the working directory."""
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_ed25519").write_text("secret\n")
    (home / ".tool").mkdir()
    (home / ".tool" / "config").write_text("setting\n")
    monkeypatch.setenv("HOME", str(home))
    code = (
        "import os\n"
        "home = os.environ['HOME']\n"
        "print(sorted(os.listdir(home)))\n"
        "print(open(home + '/.tool/config').read().strip())\n"
        "try:\n"
        "    open(home + '/.tool/config', 'w')\n"
        "except OSError as e:\n"
        "    print(e.errno)\n"
    )
    out = _run(code, tmp_path, section={"home": [".tool/config"]})["result"].splitlines()
    assert out == ["['.tool']", "setting", "30"]


def test_the_network_is_withheld_unless_declared(tmp_path):
    """Without sandbox.network the tool has only a loopback of its own; a verb named in it has the host's."""
    code = "import socket; print(sorted(n for _, n in socket.if_nameindex()))"
    assert json.loads(_run(code, tmp_path)["result"].replace("'", '"')) == ["lo"]
    hosts = sorted(name for _, name in __import__("socket").if_nameindex())
    shown = _run(code, tmp_path, section={"network": ["v"]})["result"]
    assert json.loads(shown.replace("'", '"')) == hosts


def test_a_call_that_needed_the_network_says_which_key_allows_it(tmp_path):
    """Best effort: a network error with the network off names sandbox.network in the envelope."""
    code = "import sys; sys.exit('curl: (6) Could not resolve host: example.com')"
    envelope = _run(code, tmp_path)
    assert envelope["ok"] is False and envelope["allow"].startswith("sandbox.network")
    assert "withheld the network" in envelope["error"]


def test_a_call_that_wanted_a_file_of_home_says_which_key_allows_it(tmp_path, monkeypatch):
    """A tool that fails on a config file under HOME the pack did not declare names sandbox.home."""
    home = tmp_path / "home"
    (home / ".tool").mkdir(parents=True)
    (home / ".tool" / "config").write_text("setting\n")
    monkeypatch.setenv("HOME", str(home))
    code = "import os; open(os.environ['HOME'] + '/.tool/config')"
    envelope = _run(code, tmp_path)
    assert envelope["ok"] is False and envelope["allow"].startswith("sandbox.home"), envelope
    assert _run(code, tmp_path, section={"home": [".tool/config"]})["ok"] is True


def test_a_scratch_home_that_is_a_masked_directory_is_writable(tmp_path, monkeypatch):
    """HOME=/root (a root caller's): the scratch HOME there takes the tool's writes, as any HOME."""
    monkeypatch.setenv("HOME", "/root")
    code = "import os; open('/root/.state', 'w').write('x'); print(os.listdir('/root'))"
    envelope = _run(code, tmp_path)  # (the tools' installs in HOME on PATH are bound back beside)
    assert envelope["ok"] is True and ".state" in envelope["result"], envelope
    assert not os.path.exists("/root/.state") or os.path.getsize("/root/.state") != 1


def test_a_tool_run_by_an_interpreter_kept_in_home_runs(tmp_path, monkeypatch):
    """A script whose #! names a Python in HOME (a virtual environment there): both are bound back."""
    home = tmp_path / "home"
    venv_bin = home / ".venv" / "bin"
    venv_bin.mkdir(parents=True)
    (home / ".venv" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (venv_bin / "python").symlink_to(PY)
    tool = tmp_path / "project" / "tool"
    tool.parent.mkdir()
    tool.write_text(f"#!{venv_bin / 'python'}\nprint('ran')\n")
    tool.chmod(0o755)
    monkeypatch.setenv("HOME", str(home))
    binding = binding_dict("sb", str(tool), {"v": verb([str(tool)], json_sel=[])})
    assert execute(binding, "v", {}, cwd=Path("/")) == {"ok": True, "result": "ran\n"}


def test_a_grandchild_ends_with_the_tool(tmp_path):
    """A setsid() grandchild left behind is killed when the tool ends (the PID namespace's init ends)."""
    work = tmp_path / "w"
    work.mkdir()
    code = (
        "import os, time\n"
        "if os.fork() == 0:\n"
        "    os.setsid()\n"
        "    if os.fork() == 0:\n"
        "        time.sleep(5); open('survived', 'w').write('x')\n"
        "    os._exit(0)\n"
    )
    assert _run(code, work, effect="write")["ok"]
    assert not (work / "survived").exists()


def test_the_tool_in_a_masked_directory_is_bound_back(tmp_path, monkeypatch):
    """A tool kept in HOME (~/.local/bin, a virtual environment there) still runs: its install is
    bound back into the scratch HOME."""
    home = tmp_path / "home"
    tool = home / ".local" / "bin" / "tool"
    tool.parent.mkdir(parents=True)
    tool.write_text(f"#!{PY}\nprint('ran')\n")
    tool.chmod(0o755)
    monkeypatch.setenv("HOME", str(home))
    work = Path("/")
    binding = binding_dict("sb", str(tool), {"v": verb([str(tool)], json_sel=[])})
    assert execute(binding, "v", {}, cwd=work) == {"ok": True, "result": "ran\n"}


def test_a_working_tree_mark_widens_the_working_directory(tmp_path):
    """sandbox.root [.mark]: the directory above cwd holding .mark is the call's working tree."""
    (tmp_path / ".mark").write_text("meta\n")
    sub = tmp_path / "a" / "b"
    sub.mkdir(parents=True)
    code = "print(open('../../.mark').read().strip())"
    assert _run(code, sub, section={"root": [".mark"]}) == {"ok": True, "result": "meta\n"}
    if not str(tmp_path).startswith(sandbox_module.MASKED):  # (visible anyway elsewhere)
        return
    assert _run(code, sub)["ok"] is False


def test_file_size_is_bounded(tmp_path, monkeypatch):
    """A write past RLIMIT_FSIZE fails (EFBIG), it does not fill the disk."""
    monkeypatch.setattr(sandbox_module, "FILE_SIZE_BYTES", 1 << 20)
    code = (
        "import signal; signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
        "try:\n"
        "    open('big', 'wb').write(b'x' * (2 << 20))\n"
        "except OSError as e:\n"
        "    print(e.errno)\n"
    )
    assert _run(code, tmp_path, effect="write")["result"].strip() == "27"
    assert (tmp_path / "big").stat().st_size <= 1 << 20


def test_a_sandbox_that_cannot_start_is_one_message_and_nothing_runs(tmp_path, monkeypatch):
    """A bubblewrap that cannot set up (here: a stand-in saying so) refuses the call with one line."""
    fake = tmp_path / "fakebin" / "bwrap"
    fake.parent.mkdir()
    fake.write_text(
        "#!/bin/sh\necho 'bwrap: No permissions to creating new namespace' >&2\nexit 1\n"
    )
    fake.chmod(0o755)
    monkeypatch.setattr(sandbox_module, "find_bwrap", lambda environ=None: str(fake))
    monkeypatch.delenv("WRAPGEN_SANDBOX", raising=False)
    work = tmp_path / "w"
    work.mkdir()
    envelope = _run("open('ran', 'w')", work, effect="write")
    assert envelope["ok"] is False and "\n" not in envelope["error"]
    assert envelope["error"].startswith(
        "the per-call sandbox cannot run here: bwrap: No permissions"
    )
    assert "WRAPGEN_SANDBOX=fallback" in envelope["error"] and not (work / "ran").exists()


def test_fallback_runs_with_containment_and_says_so_once(tmp_path, monkeypatch):
    """WRAPGEN_SANDBOX=fallback where bubblewrap is missing: the call runs, and the notice comes once."""
    monkeypatch.setattr(sandbox_module, "find_bwrap", lambda environ=None: None)
    monkeypatch.setattr(sandbox_module, "_notice", [])
    monkeypatch.setenv("WRAPGEN_SANDBOX", "fallback")
    assert _run("print('ran')", tmp_path) == {"ok": True, "result": "ran\n"}
    assert _run("print('ran')", tmp_path)["ok"]
    notice = sandbox_module.take_notice()
    assert "without the per-call sandbox" in notice and "not installed" in notice
    assert sandbox_module.take_notice() is None


def test_an_unknown_setting_is_refused(tmp_path, monkeypatch):
    """WRAPGEN_SANDBOX=off is no setting: the call is refused, naming the valid ones."""
    monkeypatch.setenv("WRAPGEN_SANDBOX", "off")
    envelope = _run("print('ran')", tmp_path)
    assert envelope["ok"] is False and "require, fallback" in envelope["error"]


def test_plan_follows_the_policy(tmp_path):
    """The plan: a read binds its cwd read-only with no network; a write binds it writable; a verb
    named in sandbox.network keeps the host's network."""
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path / "h")}
    common = {"cwd": str(tmp_path), "env": env, "bwrap": "/usr/bin/bwrap"}
    read = plan([PY], sandbox={}, verb_key="v", effect="read", **common)
    assert ["--ro-bind", str(tmp_path), str(tmp_path)] == read.argv[
        read.argv.index(str(tmp_path)) - 1 : read.argv.index(str(tmp_path)) + 2
    ]
    assert "--unshare-net" in read.argv and read.env["TMPDIR"] == "/var/tmp"
    write = plan([PY], sandbox={"network": ["v"]}, verb_key="v", effect="write", **common)
    assert "--bind" in write.argv and "--unshare-net" not in write.argv
    for options in (read.argv, write.argv):
        assert options[:4] == ["/usr/bin/bwrap", "--unshare-user", "--cap-drop", "ALL"]
        assert "--die-with-parent" in options and "--unshare-pid" in options


def test_a_working_directory_in_home_is_seen_and_the_rest_of_home_is_not(tmp_path, monkeypatch):
    """cwd ~/project: the project is there (writable for a write), ~/.ssh beside it is not."""
    home = tmp_path / "home"
    project = home / "project"
    project.mkdir(parents=True)
    (home / ".ssh").mkdir()
    (home / ".ssh" / "id_ed25519").write_text("secret\n")
    (project / "file").write_text("mine\n")
    monkeypatch.setenv("HOME", str(home))
    code = (
        "import os\n"
        "print(open('file').read().strip(), sorted(os.listdir(os.environ['HOME'])))\n"
        "open('made', 'w').write('x')\n"
    )
    envelope = _run(code, project, effect="write")
    assert envelope == {"ok": True, "result": "mine ['project']\n"}
    assert (project / "made").exists()


def test_a_write_may_change_the_directory_a_passed_variable_names(tmp_path, monkeypatch):
    """sandbox.write [$STATE]: the state directory the pack passes is writable for a write, not a read."""
    state = tmp_path / "state"
    state.mkdir()
    monkeypatch.setenv("WG_STATE", str(state))
    code = "import os; open(os.environ['WG_STATE'] + '/log', 'a').write('x')"
    section = {"write": ["$WG_STATE"]}
    binding = _binding(code, effect="write", section=section)
    binding["env"] = {"pass": ["WG_STATE"], "set": {}}
    work = tmp_path / "w"
    work.mkdir()
    assert execute(binding, "v", {}, cwd=work)["ok"] is True and (state / "log").exists()
    read = _binding(code, section=section)
    read["env"] = {"pass": ["WG_STATE"], "set": {}}
    assert execute(read, "v", {}, cwd=work)["ok"] is False


def test_a_pack_with_a_working_tree_works_there_from_anywhere(tmp_path):
    """sandbox.tree (a task runner's repository): a write changes it, the caller's cwd stays read-only."""
    tree = tmp_path / "repo"
    tree.mkdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    code = (
        f"open({str(tree / 'built')!r}, 'w').write('x')\n"
        "try:\n"
        "    open('here', 'w')\n"
        "except OSError as e:\n"
        "    print(e.errno)\n"
    )
    envelope = _run(code, elsewhere, effect="write", section={"tree": str(tree)})
    assert envelope == {"ok": True, "result": "30\n"} and (tree / "built").exists()
    assert not (elsewhere / "here").exists()


def test_a_mark_in_home_itself_never_widens_to_home(tmp_path, monkeypatch):
    """A dotfiles repository (HOME/.git): cwd HOME/project stays the working tree, HOME stays scratch."""
    home = tmp_path / "home"
    (home / ".git").mkdir(parents=True)
    (home / ".secret").write_text("key\n")
    project = home / "project"
    project.mkdir()
    monkeypatch.setenv("HOME", str(home))
    code = "import os; print(sorted(os.listdir(os.environ['HOME'])))"
    assert _run(code, project, section={"root": [".git"]}) == {
        "ok": True,
        "result": "['project']\n",
    }


def test_a_pack_that_lists_host_processes_sees_them_and_can_touch_none(tmp_path):
    """sandbox.host_processes: the host's /proc lists a process of the caller's, its cmdline reads,
    but it cannot be signalled nor its environ read, and what the call starts still ends with it."""
    import subprocess

    host = subprocess.Popen([PY, "-c", "import time; time.sleep(60)", "host-marker"])
    try:
        code = (
            "import os, signal, json, time\n"
            f"pid = {host.pid}\n"
            "out = {'cmdline': open(f'/proc/{pid}/cmdline').read().split('\\0')[-2]}\n"
            "for name in ('environ', 'maps'):\n"
            "    try: open(f'/proc/{pid}/{name}', 'rb').read(); out[name] = 'read'\n"
            "    except OSError as e: out[name] = e.errno\n"
            "try: os.kill(pid, signal.SIGKILL); out['kill'] = 'sent'\n"
            "except OSError as e: out['kill'] = e.errno\n"
            "r, w = os.pipe()\n"
            "if os.fork() == 0:\n"
            "    os.setsid()\n"
            "    if os.fork() == 0:\n"
            "        os.write(w, os.readlink('/proc/self').encode()); time.sleep(60)\n"
            "    os._exit(0)\n"
            "out['left'] = int(os.read(r, 32))\n"
            "print(json.dumps(out))\n"
        )
        envelope = _run(code, tmp_path, section={"host_processes": True})
        assert envelope["ok"], envelope
        seen = json.loads(envelope["result"])
        assert seen["cmdline"] == "host-marker"
        assert seen["environ"] == seen["maps"] == 13  # EACCES
        assert seen["kill"] == 3  # ESRCH: a host PID names nothing in the call's namespace
        assert host.poll() is None
        left = seen["left"]
        assert left != host.pid and not _alive(left)
    finally:
        host.kill()
        host.wait()


def _alive(pid: int) -> bool:
    """Whether ``pid`` is a live (not zombie) process."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            return handle.read().rsplit(b")", 1)[-1].split()[0] not in (b"Z", b"X")
    except OSError:
        return False


def _write_binding(code: str, section: dict, variable: str, value: Path, *, effect="write"):
    binding = _binding(code, effect=effect, section=section)
    binding["env"] = {"pass": [variable], "set": {}}
    return binding


def test_a_write_may_create_a_declared_file_that_does_not_exist_and_nothing_beside_it(
    tmp_path, monkeypatch
):
    """sandbox.write [$STORE] where the store does not exist yet: the first write creates it; a file
    it makes beside it and a change to a file already there do not reach the host."""
    place = tmp_path / "place"
    place.mkdir()
    (place / "existing").write_text("kept\n")
    store = place / "store.json"
    monkeypatch.setenv("WG_STORE", str(store))
    code = (
        "import os\n"
        "store = os.environ['WG_STORE']\n"
        "print(os.path.exists(store))\n"
        "open(store, 'w').write('{}')\n"
        "here = os.path.dirname(store)\n"
        "for name in ('beside', 'existing'):\n"
        "    try: open(os.path.join(here, name), 'w').write('changed')\n"
        "    except OSError as e: print(e.errno)\n"
    )
    work = tmp_path / "w"
    work.mkdir()
    binding = _write_binding(code, {"write": ["$WG_STORE"]}, "WG_STORE", store)
    envelope = execute(binding, "v", {}, cwd=work)
    assert envelope["ok"] and envelope["result"].startswith("False\n"), envelope
    assert store.read_text() == "{}"
    assert sorted(os.listdir(place)) == ["existing", "store.json"]
    assert (place / "existing").read_text() == "kept\n"
    # once it exists, the file itself is bound: the next write changes it in place
    assert execute(binding, "v", {}, cwd=work) == {"ok": True, "result": "True\n30\n30\n"}
    assert sorted(os.listdir(place)) == ["existing", "store.json"]


def test_a_write_may_create_a_declared_directory_below_missing_ones(tmp_path, monkeypatch):
    """sandbox.write [$STATE] where neither the state directory nor its parent exists: the write
    makes the whole path (a directory with files), and only it appears on the host."""
    state = tmp_path / "var" / "lib" / "tool"
    (tmp_path / "var").mkdir()
    monkeypatch.setenv("WG_STATE", str(state))
    code = (
        "import os\n"
        "state = os.environ['WG_STATE']\n"
        "os.makedirs(os.path.join(state, 'prod'))\n"
        "open(os.path.join(state, 'prod', 'web'), 'w').write('v2')\n"
        "os.makedirs(os.path.join(os.path.dirname(state), 'other'))\n"
    )
    work = tmp_path / "w"
    work.mkdir()
    binding = _write_binding(code, {"write": ["$WG_STATE"]}, "WG_STATE", state)
    assert execute(binding, "v", {}, cwd=work)["ok"]
    assert (state / "prod" / "web").read_text() == "v2"
    assert os.listdir(tmp_path / "var") == ["lib"] and os.listdir(state.parent) == ["tool"]


def test_a_read_cannot_create_a_declared_write_path(tmp_path, monkeypatch):
    """sandbox.write is for writes: a read that tries to create the missing path fails, nothing is
    made, and no staging directory is left."""
    place = tmp_path / "place"
    place.mkdir()
    store = place / "store.json"
    monkeypatch.setenv("WG_STORE", str(store))
    code = "import os; open(os.environ['WG_STORE'], 'w').write('{}')"
    work = tmp_path / "w"
    work.mkdir()
    binding = _write_binding(code, {"write": ["$WG_STORE"]}, "WG_STORE", store, effect="read")
    assert execute(binding, "v", {}, cwd=work)["ok"] is False
    assert os.listdir(place) == []


def test_a_missing_write_path_never_hides_the_working_directory(tmp_path, monkeypatch):
    """A missing declared path whose nearest directory holds the working directory is left unbound
    (hiding that directory would hide the call's own files): the write there fails, nothing is made."""
    store = tmp_path / "store.json"
    monkeypatch.setenv("WG_STORE", str(store))
    (tmp_path / "w").mkdir()
    (tmp_path / "w" / "input").write_text("in\n")
    code = "import os; print(open('input').read().strip()); open(os.environ['WG_STORE'], 'w')"
    binding = _write_binding(code, {"write": ["$WG_STORE"]}, "WG_STORE", store)
    envelope = execute(binding, "v", {}, cwd=tmp_path / "w")
    assert envelope["ok"] is False and "read-only" in envelope["error"].lower(), envelope
    assert sorted(os.listdir(tmp_path)) == ["w"]


def _listening(path: str):
    import socket

    server = socket.socket(socket.AF_UNIX)
    server.bind(path)
    server.listen(4)
    return server


_CONNECT = (
    "import socket, sys\n"
    "try:\n"
    "    socket.socket(socket.AF_UNIX).connect(sys.argv[1]); print('connected')\n"
    "except OSError as e:\n"
    "    print('refused', e.errno)\n"
    "a, b = socket.socketpair(); a.send(b'own'); print(b.recv(3).decode())\n"
)


def _connect_binding(path: str, *, effect="read", section=None) -> dict:
    binding = binding_dict(
        "sb",
        PY,
        {"v": verb([PY, "-c", _CONNECT, path], json_sel=[], effect=effect, confirm=False)},
    )
    if section is not None:
        binding["sandbox"] = section
    return binding


def test_no_call_reaches_a_host_socket_its_pack_does_not_declare(tmp_path):
    """A daemon's socket deep in a directory the call can see (not /run, HOME or /tmp's top) cannot
    be connected to, by a read or a write, even with the network; a socketpair of its own works."""
    place = tmp_path / "var" / "lib" / "daemon"
    place.mkdir(parents=True)
    path = str(place / "control.sock")
    server = _listening(path)
    try:
        for effect, section in (("read", None), ("write", None), ("read", {"network": True})):
            envelope = execute(_connect_binding(path, effect=effect, section=section), "v", {})
            assert envelope == {"ok": True, "result": "refused 13\nown\n"}, (effect, envelope)
    finally:
        server.close()


def test_a_declared_socket_is_reached(tmp_path):
    """sandbox.sockets [path]: the pack's own daemon is reached."""
    path = str(tmp_path / "engine.sock")
    server = _listening(path)
    try:
        envelope = execute(_connect_binding(path, section={"sockets": [path]}), "v", {})
        assert envelope == {"ok": True, "result": "connected\nown\n"}
    finally:
        server.close()


def test_no_call_reaches_an_abstract_socket_of_the_host(tmp_path):
    """A call with the network shares the host's network namespace, where abstract Unix sockets
    (a desktop's bus, an X server's) live: none can be created to reach them."""
    import socket

    name = f"\0wrapgen-test-{os.getpid()}"
    server = socket.socket(socket.AF_UNIX)
    server.bind(name)
    server.listen(1)
    try:
        code = (
            "import socket\n"
            "try:\n"
            f"    socket.socket(socket.AF_UNIX).connect({name!r}); print('connected')\n"
            "except OSError as e:\n"
            "    print('refused', e.errno)\n"
        )
        envelope = _run(code, tmp_path, section={"network": True})
        assert envelope == {"ok": True, "result": "refused 13\n"}
    finally:
        server.close()


@pytest.mark.skipif(os.geteuid() != 0, reason="a root caller's case (others are refused by modes)")
def test_a_root_callers_read_cannot_read_what_only_root_may(tmp_path):
    """Root's files that others may not read, beside the working directory (a 0600 file, a 0700
    directory) and /etc/shadow, are hidden from a root caller's read; what anyone may read beside
    it, and the working directory's own files, still read."""
    (tmp_path / "private").mkdir(mode=0o700)
    (tmp_path / "private" / "secret").write_text("in a root-only directory\n")
    (tmp_path / "loose.key").write_text("root-only file\n")
    (tmp_path / "loose.key").chmod(0o600)
    (tmp_path / "open").mkdir(mode=0o755)
    (tmp_path / "open" / "notes").write_text("anyone's\n")
    (tmp_path / "open" / "notes").chmod(0o644)
    work = tmp_path / "w"
    work.mkdir()
    (work / "mine").write_text("the call's own\n")
    (work / "mine").chmod(0o600)
    paths = [
        "/etc/shadow",
        str(tmp_path / "private" / "secret"),
        str(tmp_path / "loose.key"),
        str(tmp_path / "open" / "notes"),
        str(work / "mine"),
    ]
    code = (
        "import json\n"
        "out = []\n"
        f"for path in {paths!r}:\n"
        "    try: out.append(open(path).read().strip() or 'empty')\n"
        "    except OSError as e: out.append(e.errno)\n"
        "print(json.dumps(out))\n"
    )
    envelope = _run(code, work)
    assert envelope["ok"], envelope
    shadow, secret, loose, notes, mine = json.loads(envelope["result"])
    hidden = ("empty", 2, 13)  # (/dev/null over a file, which cannot be opened on a nodev mount)
    assert shadow in hidden and secret in hidden and loose in hidden, (shadow, secret, loose)
    assert notes == "anyone's" and mine == "the call's own"


def test_processes_are_bounded_per_call_even_for_root(tmp_path, monkeypatch):
    """Where a cgroup can be made (root, or a delegated one), a call's processes are bounded by its
    own pids.max, which binds a root caller too (RLIMIT_NPROC does not): on a call its supervisor
    forks, and on calls the spawn helper runs, whose cgroups are made ahead of them once a call
    asked for a bound. Every call's cgroup ends with it; the one made ahead for the next call holds
    no bound, and ends with the helper."""
    bases = contain._group_bases()
    if not bases or not os.access(bases[0], os.W_OK):
        pytest.skip("no cgroup with the pids controller can be made here")
    monkeypatch.setattr(sandbox_module, "PROCESSES", 12)
    code = (
        "import os, time\n"
        "made = refused = 0\n"
        "for _ in range(40):\n"
        "    try: pid = os.fork()\n"
        "    except OSError: refused += 1; continue\n"
        "    if pid == 0: time.sleep(30); os._exit(0)\n"
        "    made += 1\n"
        "print(made, refused)\n"
    )
    for _call in range(3):  # (a cold spawn or the helper's; then the helper's, made ahead)
        envelope = _run(code, tmp_path)
        assert envelope["ok"], envelope
        made, refused = map(int, envelope["result"].split())
        assert made < 12 and refused == 40 - made
    mine = f"wrapgen-{os.getpid()}-"

    def left() -> list[str]:
        return [os.path.join(b, n) for b in bases for n in os.listdir(b) if n.startswith(mine)]

    if contain._helper:  # the helper's next spare has the next call's cgroup, made ahead
        wait_until(left, what="the next call's cgroup, made ahead")
    for path in left():  # only that one: unbounded until a call bounds it
        assert Path(path, "pids.max").read_text().strip() == "max", path
    contain._drop_helper(again=True)
    wait_until(lambda: not left(), what="the cgroups made for this process's calls to end")


def test_a_cgroup_whose_owner_is_gone_is_removed_by_the_next_process_that_bounds_one():
    """The cgroup a spare made ahead is left behind where the spawn helper was SIGKILLed: the next
    process whose call asks for a bound on processes removes such empty ones whose owner no longer
    runs, and leaves one whose owner runs."""
    bases = contain._group_bases()
    if not bases or not os.access(bases[0], os.W_OK):
        pytest.skip("no cgroup with the pids controller can be made here")
    gone_owner = subprocess.Popen(["true"])  # a pid that has ended
    gone_owner.wait()
    orphan = Path(bases[0], f"wrapgen-{gone_owner.pid}-0badc0de")
    alive = Path(bases[0], f"wrapgen-{os.getpid()}-0badcafe")
    orphan.mkdir()
    alive.mkdir()
    try:
        contain._end_orphan_groups(bases)
        assert not orphan.exists()
        assert alive.exists()
    finally:
        for path in (orphan, alive):
            if path.exists():
                path.rmdir()


@pytest.mark.skipif(os.geteuid() != 0, reason="a root caller's case (others are refused by modes)")
def test_a_script_the_verb_names_in_a_root_only_directory_runs(tmp_path):
    """A script the verb's own command line names (python SCRIPT) is the tool's, not a file to hide,
    even in a root-only directory beside the working directory."""
    (tmp_path / "tools").mkdir(mode=0o700)
    script = tmp_path / "tools" / "rows.py"
    script.write_text("print('ran')\n")
    work = tmp_path / "w"
    work.mkdir()
    binding = binding_dict("sb", PY, {"v": verb([PY, str(script)], json_sel=[])})
    assert execute(binding, "v", {}, cwd=work) == {"ok": True, "result": "ran\n"}
