"""Judge packs by running them: real read tasks, the human command against the pack's call.

    python3 bench/pack_tasks.py [--tools a,b] [--json OUT] [--sets shipped,fresh] [--jobs N]

For each tool of ``bench/data/pack_tasks.json`` the bench builds a fixture (a fresh temporary
directory with generated content: a git repository, text files, archives, a JSON file, a hugo site,
a restic repository, a Makefile, a loopback HTTP server for curl and httpie), then runs every task
twice or three times in it: the human command (an argv list), and the call an expert would make
with each pack set:

* ``shipped``: the recipe-tuned packs in ``adapters/``; each task names the verb and args (``shipped``);
* ``fresh``: packs wrapped here with no recipe (``wrapgen wrap TOOL -o TMP``, discovery cached in a
  temporary directory); each task gives a *matcher* (``match``: subcommand path, options, operands)
  that the bench resolves against the fresh pack's verbs by reading their ``cli[]``.

The pack call always goes through wrapgen's own runtime (``wrapgen exec --envelope -``), inside the
same sandbox as the human command: bubblewrap with the whole file system read-only, a private
``/tmp``, the tool's work directory (fixture and HOME) writable, its own PID namespace, a new
session, dying with its parent, and no network except for the tools whose fixture is the loopback
HTTP server. Where bwrap cannot run, both run unsandboxed and the report says so.

Outcomes per task: ``equal``, ``different``, ``not expressible`` (the pack has no verb or arg for it),
``error`` (the pack answered ``ok: false``; a declared answer, docs/contract.md §8, whose exit is the one
the task expects is judged on the output it keeps instead), ``not tried`` (needs a network, a daemon or a login),
``task broken`` (the human command itself did not do what the task data says: a bench defect).

The expert-picks table (``bench/data/expert_picks.json``) is scored on the fresh packs with the same
matcher: a pick is present when some verb can express it, a forbidden pick when some verb can. A tool
the table names and the task data does not (the other ecosystems' frameworks: npm, yarn, composer,
poetry, pm2, amtool) is wrapped fresh and scored on its picks alone (its row shows no tasks).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import gzip
import http.server
import io
import json
import lzma
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
from pathlib import Path

from wrapgen.probe.install import program_paths
from wrapgen.probe.sandbox import SYSTEM_DIRS

REPO = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
TASKS_FILE = DATA / "pack_tasks.json"
PICKS_FILE = DATA / "expert_picks.json"
ADAPTERS = REPO / "adapters"

GOALS = {
    "shipped_equal": "every task of every shipped pack gives the human command's output",
    "fresh_picks": ">= 90 % of expert first picks, no forbidden pick (fresh packs)",
    "expressible": ">= 85 % of tasks expressible",
}
HUMAN_TIMEOUT_S = 60
FIXED_MTIME = 1767225600  # 2026-01-01 00:00:00 UTC: every generated file carries it
PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_-]*)\s*\}\}")


# ---------------------------------------------------------------------------------------------
# fixtures


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def _fix_times(root: Path) -> None:
    for path in sorted(root.rglob("*"), reverse=True):
        if ".git" in path.parts:
            continue
        os.utime(path, (FIXED_MTIME, FIXED_MTIME), follow_symlinks=False)
    os.utime(root, (FIXED_MTIME, FIXED_MTIME))


TEXT_FILES = {
    "notes.txt": "alpha line one\nfoo bar baz\nTODO: write the docs\nerror: disk almost full\n"
    "second foo here\nBeta line six\nerror: retry later\nlast line\n",
    "words.txt": "pear\napple\nfig\napple\nbanana\ncherry\nfig\ndate\n",
    "data.csv": "name,qty,city\nwidget,12,Oslo\ngadget,3,Lima\ngizmo,40,Kyiv\ndoohickey,7,Oslo\n",
    "log.txt": "2026-01-01 INFO start\n2026-01-01 WARN slow disk\n2026-01-02 ERROR failed to open db\n"
    "2026-01-02 INFO retry\n2026-01-03 ERROR timeout talking to db\n2026-01-03 INFO done\n",
    "passwd.txt": "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n"
    "alice:x:1000:1000:Alice:/home/alice:/bin/bash\n",
    "README.md": "# Sample project\n\nA fixture for the pack benchmark.\n\nTODO: badges\n",
    "src/main.py": "import sys\n\nfrom util import helper\n\n\ndef main():\n    # TODO: parse args\n"
    "    print(helper(sys.argv))\n",
    "src/util.py": "def helper(args):\n    return len(args)\n\n\ndef unused():\n    return None\n",
    "docs/guide.md": "# Guide\n\nRun main.py. error handling is described here.\n",
    "docs/api/index.md": "# API\n\nhelper(args) returns a count.\n",
    ".env": "SECRET=not-really\n",
}


def fixture_text(root: Path, _tool: dict) -> dict:
    _write(root, TEXT_FILES)
    _fix_times(root)
    return {}


def _git(
    root: Path,
    *args: str,
    when: str = "2026-01-01T10:00:00+00:00",
    who=("Alice", "alice@example.com"),
) -> None:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(root.parent / "home"),
        "GIT_AUTHOR_NAME": who[0],
        "GIT_AUTHOR_EMAIL": who[1],
        "GIT_COMMITTER_NAME": who[0],
        "GIT_COMMITTER_EMAIL": who[1],
        "GIT_AUTHOR_DATE": when,
        "GIT_COMMITTER_DATE": when,
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": "/dev/null",
    }
    subprocess.run(["git", *args], cwd=root, env=env, check=True, capture_output=True)


def fixture_git(root: Path, _tool: dict) -> dict:
    _git(root, "init", "-q", "-b", "main")
    _write(
        root, {"README.md": "# demo\n", "src/app.py": "def parse(text):\n    return text.split()\n"}
    )
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "Initial commit")
    _write(
        root,
        {
            "src/app.py": "def parse(text):\n    return text.split()\n\n\ndef count(text):\n    return len(parse(text))\n"
        },
    )
    _git(root, "commit", "-q", "-am", "Add count helper", when="2026-01-02T11:00:00+00:00")
    _git(root, "tag", "-a", "v1.0", "-m", "Release 1.0", when="2026-01-02T11:30:00+00:00")
    _git(root, "branch", "feature")
    _write(
        root,
        {"README.md": "# demo\n\nUsage: call parse().\n", "docs/notes.md": "TODO: explain count\n"},
    )
    _git(root, "add", "-A")
    _git(
        root,
        "commit",
        "-q",
        "-m",
        "Document usage",
        when="2026-01-03T12:00:00+00:00",
        who=("Bob", "bob@example.com"),
    )
    # a working-tree change and an untracked file, for status and diff
    _write(
        root,
        {
            "src/app.py": "def parse(text):\n    return text.split()\n\n\ndef count(text):\n    return len(parse(text))  # words\n",
            "scratch.txt": "untracked\n",
        },
    )
    return {}


def _tar_bytes(members: dict[str, str]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.GNU_FORMAT) as archive:
        for name, text in members.items():
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size, info.mtime, info.mode = len(data), FIXED_MTIME, 0o644
            info.uid = info.gid = 1000
            info.uname = info.gname = "bench"
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def fixture_archive(root: Path, _tool: dict) -> dict:
    members = {
        name: TEXT_FILES[name] for name in ("notes.txt", "words.txt", "data.csv", "src/main.py")
    }
    _write(root, members)
    (root / "data.tar").write_bytes(_tar_bytes(members))
    (root / "data.tar.xz").write_bytes(lzma.compress(_tar_bytes(members)))
    (root / "notes.txt.xz").write_bytes(lzma.compress(TEXT_FILES["notes.txt"].encode()))
    with gzip.GzipFile(root / "notes.txt.gz", "wb", mtime=FIXED_MTIME) as out:
        out.write(TEXT_FILES["notes.txt"].encode())
    with gzip.GzipFile(root / "log.txt.gz", "wb", mtime=FIXED_MTIME) as out:
        out.write(TEXT_FILES["log.txt"].encode())
    # one file differs from its archived copy, for tar --diff
    (root / "words.txt").write_text(TEXT_FILES["words.txt"] + "kiwi\n")
    _fix_times(root)
    return {}


DATA_JSON = {
    "name": "wrapgen",
    "version": "1.2.0",
    "license": "MIT",
    "items": [
        {"id": 1, "name": "alpha", "tags": ["a", "first"], "price": 9.5},
        {"id": 2, "name": "beta", "tags": [], "price": 20},
        {"id": 3, "name": "gamma", "tags": ["c"], "price": 3.25},
    ],
}


def fixture_json(root: Path, _tool: dict) -> dict:
    _write(
        root,
        {
            "data.json": json.dumps(DATA_JSON, indent=2) + "\n",
            "a.json": '{"n": 1}\n',
            "b.json": '{"n": 2}\n',
            "events.jsonl": '{"level":"info","msg":"up"}\n{"level":"error","msg":"db down"}\n{"level":"info","msg":"ok"}\n',
        },
    )
    _fix_times(root)
    return {}


def fixture_hugo(root: Path, _tool: dict) -> dict:
    _write(
        root,
        {
            "hugo.toml": 'baseURL = "https://example.org/"\nlanguageCode = "en-us"\ntitle = "Bench site"\n',
            "content/posts/first.md": '+++\ntitle = "First post"\ndate = 2026-01-01T00:00:00Z\ndraft = false\n+++\nHello.\n',
            "content/posts/second.md": '+++\ntitle = "Second post"\ndate = 2026-01-02T00:00:00Z\ndraft = true\n+++\nWork in progress.\n',
            "content/about.md": '+++\ntitle = "About"\ndate = 2026-01-01T00:00:00Z\n+++\nAbout us.\n',
            "content/posts/later.md": '+++\ntitle = "Scheduled post"\ndate = 2099-01-01T00:00:00Z\n+++\nNot yet.\n',
            "layouts/_default/single.html": "{{ .Content }}\n",
            "layouts/_default/list.html": "{{ range .Pages }}{{ .Title }}{{ end }}\n",
        },
    )
    _fix_times(root)
    return {}


def fixture_restic(root: Path, _tool: dict) -> dict:
    _write(
        root,
        {
            "pw.txt": "bench-password\n",
            "docs/guide.md": TEXT_FILES["docs/guide.md"],
            "docs/notes.txt": TEXT_FILES["notes.txt"],
        },
    )
    _fix_times(root)
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(root.parent / "home"),
        "RESTIC_CACHE_DIR": str(root.parent / "home" / "cache"),
    }
    base = ["restic", "--repo", "repo", "--password-file", "pw.txt", "--quiet"]
    subprocess.run([*base, "init"], cwd=root, env=env, check=True, capture_output=True)
    subprocess.run(
        [*base, "backup", "--host", "bench", "--time", "2026-01-02 10:00:00", "docs"],
        cwd=root,
        env=env,
        check=True,
        capture_output=True,
    )
    return {}


def fixture_python(root: Path, _tool: dict) -> dict:
    _write(
        root,
        {
            "bad.py": "import os, sys\ndef f(x) :\n  return x+1\n",
            "good.py": "def f(x):\n    return x + 1\n",
            "pyproject.toml": '[project]\nname = "benchdemo"\nversion = "0.3.0"\nrequires-python = ">=3.9"\ndependencies = []\n',
        },
    )
    _fix_times(root)
    return {"python": sys.executable}


def fixture_make(root: Path, _tool: dict) -> dict:
    _write(
        root,
        {
            "Makefile": "CC ?= cc\n\nall: build\n\nbuild: main.o\n\t$(CC) -o app main.o\n\nmain.o: main.c\n\t$(CC) -c main.c\n\n"
            "test: build\n\t./app --selftest\n\nclean:\n\trm -f app main.o\n\n.PHONY: all build test clean\n",
            "main.c": "int main(void) { return 0; }\n",
            "sub/Makefile": "docs:\n\t@echo building docs\n\n.PHONY: docs\n",
        },
    )
    _fix_times(root)
    return {}


class _FixedHandler(http.server.SimpleHTTPRequestHandler):
    server_version = "BenchHTTP/1.0"
    sys_version = ""

    def date_time_string(self, timestamp=None):  # a fixed Date header, so two requests answer alike
        return "Thu, 01 Jan 2026 00:00:00 GMT"

    def log_message(self, *args):
        pass

    def do_GET(self):
        if self.path == "/redirect":
            self.send_response(302)
            self.send_header("Location", "/data.json")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        super().do_GET()


def fixture_http(root: Path, _tool: dict) -> dict:
    fixture_json(root, _tool)
    (root / "index.html").write_text("<html><body>bench</body></html>\n")
    _fix_times(root)

    def handler(*a, **k):
        return _FixedHandler(*a, directory=str(root), **k)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return {"port": str(server.server_address[1]), "_server": server}


COMPOSER_JSON = {
    "name": "bench/demo",
    "description": "A fixture for the pack benchmark.",
    "type": "project",
    "license": "MIT",
    "require": {"psr/log": "^3.0"},
}
# what `composer install` leaves in vendor/ for psr/log (the packages composer show, licenses and
# depends read), written by hand: the sandbox has no network to install it
COMPOSER_INSTALLED = {
    "packages": [
        {
            "name": "psr/log",
            "version": "3.0.2",
            "version_normalized": "3.0.2.0",
            "type": "library",
            "license": ["MIT"],
            "description": "Common interface for logging libraries",
            "install-path": "../psr/log",
        }
    ],
    "dev": True,
    "dev-package-names": [],
}


def fixture_composer(root: Path, _tool: dict) -> dict:
    _write(
        root,
        {
            "composer.json": json.dumps(COMPOSER_JSON, indent=4) + "\n",
            "vendor/composer/installed.json": json.dumps(COMPOSER_INSTALLED, indent=4) + "\n",
            "vendor/psr/log/README.md": "psr/log\n",
        },
    )
    _fix_times(root)
    return {}


ALERTMANAGER_YML = """\
route:
  receiver: team-default
  group_by: [alertname]
  routes:
    - receiver: team-db-pager
      matchers: [service="database"]
    - receiver: team-web
      matchers: [service="web"]
receivers:
  - name: team-default
  - name: team-db-pager
  - name: team-web
"""


def fixture_amtool(root: Path, _tool: dict) -> dict:
    _write(root, {"alertmanager.yml": ALERTMANAGER_YML})
    _fix_times(root)
    return {}


def fixture_npm(root: Path, _tool: dict) -> dict:
    """A project with one local dependency, installed by npm itself (offline, no scripts), so its
    lockfile and node_modules are what npm writes."""
    _write(
        root,
        {
            "package.json": json.dumps(
                {"name": "app", "version": "1.0.0", "license": "MIT"}, indent=2
            )
            + "\n",
            "dep/package.json": json.dumps(
                {"name": "dep", "version": "2.1.0", "license": "ISC"}, indent=2
            )
            + "\n",
        },
    )
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(root.parent / "home"), "NO_COLOR": "1"}
    subprocess.run(
        ["npm", "install", "./dep", "--offline", "--ignore-scripts", "--no-audit", "--no-fund"],
        cwd=root,
        env=env,
        check=True,
        capture_output=True,
        timeout=120,
    )
    _fix_times(root)
    return {}


PYPROJECT_TOML = """\
[project]
name = "benchdemo"
version = "0.3.0"
description = "A fixture for the pack benchmark."
authors = [{name = "Bench", email = "bench@example.org"}]
readme = "README.md"
requires-python = ">=3.9"
dependencies = []
"""


def fixture_poetry(root: Path, _tool: dict) -> dict:
    """A project and the lock file poetry writes for it (no dependencies: resolved offline)."""
    _write(root, {"pyproject.toml": PYPROJECT_TOML, "README.md": "# benchdemo\n"})
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(root.parent / "home"), "NO_COLOR": "1"}
    subprocess.run(
        ["poetry", "lock", "--no-interaction"],
        cwd=root,
        env=env,
        check=True,
        capture_output=True,
        timeout=120,
    )
    _fix_times(root)
    return {}


def fixture_none(root: Path, _tool: dict) -> dict:
    return {}


FIXTURES = {
    "text": fixture_text,
    "git": fixture_git,
    "archive": fixture_archive,
    "json": fixture_json,
    "hugo": fixture_hugo,
    "restic": fixture_restic,
    "python": fixture_python,
    "make": fixture_make,
    "http": fixture_http,
    "composer": fixture_composer,
    "amtool": fixture_amtool,
    "npm": fixture_npm,
    "poetry": fixture_poetry,
    "none": fixture_none,
}


# ---------------------------------------------------------------------------------------------
# the sandbox


def bwrap_works() -> str | None:
    """None when bwrap can run a command here, else why not."""
    if not shutil.which("bwrap"):
        return "bwrap is not installed"
    try:
        done = subprocess.run(
            [
                "bwrap",
                "--ro-bind",
                "/",
                "/",
                "--dev",
                "/dev",
                "--proc",
                "/proc",
                "--unshare-pid",
                "--unshare-net",
                "--die-with-parent",
                "--new-session",
                "true",
            ],
            capture_output=True,
            timeout=20,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"bwrap failed to start: {error}"
    if done.returncode != 0:
        return "bwrap failed to start: " + done.stderr.decode(errors="replace").strip()[:200]
    return None


class Sandbox:
    def __init__(
        self, work: Path, fix: Path, home: Path, *, network: bool, use_bwrap: bool, ro_binds=()
    ):
        self.work, self.fix, self.home, self.network, self.use_bwrap = (
            work,
            fix,
            home,
            network,
            use_bwrap,
        )
        venv_bin = str(Path(sys.executable).parent)
        path = os.environ.get("PATH", "/usr/bin:/bin")
        if venv_bin not in path.split(os.pathsep):
            path = venv_bin + os.pathsep + path
        # the interpreter that runs wrapgen, and PATH's programs, where /tmp's tmpfs would hide them
        # (a virtual environment under /tmp): what the probe sandbox binds back too
        shown = program_paths([sys.executable], search_path=path, system=SYSTEM_DIRS)
        self.ro_binds = [str(p) for p in ro_binds] + [p for p in shown if p.startswith("/tmp/")]
        # the runtime's own baseline (docs/contract.md §8), given to the human command too
        self.env = {
            "PATH": path,
            "HOME": str(home),
            "LANG": "C.UTF-8",
            "LC_ALL": "C.UTF-8",
            "TZ": "UTC",
            "USER": os.environ.get("USER", "root"),
            "TMPDIR": "/tmp",
            "NO_COLOR": "1",
            "PAGER": "cat",
            "GIT_PAGER": "cat",
            "TERM": "dumb",
        }
        for name in ("PYENV_ROOT", "PYENV_VERSION"):
            if name in os.environ:
                self.env[name] = os.environ[name]
        if use_bwrap:
            # this bench's bwrap is the pack calls' sandbox: the runtime's own cannot start inside it
            # (a user namespace's procfs over another sandbox's), so it runs with the supervisor alone
            self.env["WRAPGEN_SANDBOX"] = "fallback"

    def wrap(
        self, argv: list[str], extra_env: dict | None = None
    ) -> tuple[list[str], dict, str | None]:
        env = dict(self.env, **(extra_env or {}))
        if not self.use_bwrap:
            return argv, env, str(self.fix)
        cmd = [
            "bwrap",
            "--ro-bind",
            "/",
            "/",
            "--dev",
            "/dev",
            "--proc",
            "/proc",
            "--tmpfs",
            "/tmp",
            "--bind",
            str(self.work),
            str(self.work),
        ]
        for path in self.ro_binds:
            cmd += ["--ro-bind", path, path]
        cmd += ["--unshare-pid", "--die-with-parent", "--new-session", "--clearenv"]
        if not self.network:
            cmd.append("--unshare-net")
        for key, value in env.items():
            cmd += ["--setenv", key, value]
        cmd += ["--chdir", str(self.fix), "--", *argv]
        return cmd, env, None

    def run(
        self, argv: list[str], *, extra_env: dict | None = None, timeout: float = HUMAN_TIMEOUT_S
    ):
        """Run argv in the sandbox with stdin /dev/null (as the runtime gives the tool)."""
        cmd, env, cwd = self.wrap(argv, extra_env)
        try:
            done = subprocess.run(
                cmd,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                env=env,
                cwd=cwd,
                timeout=timeout,
            )
        except subprocess.TimeoutExpired:
            return None, b"", b"timed out"
        return done.returncode, done.stdout, done.stderr


# ---------------------------------------------------------------------------------------------
# resolving a matcher against a pack's verbs (read from each verb's cli[] in binding.json)


def _is_flag(token: str) -> bool:
    return token.startswith("-") and token not in ("-", "--") and not PLACEHOLDER.search(token)


def _owns(flag: str, name: str, props: dict) -> bool:
    """Whether ``FLAG {{name}}`` is the flag's own slot: a boolean (the flag rendered when true), or a
    value named after the flag (``--glob {{glob}}``). ``--raw-output {{jq_filter}}`` is a flag and an operand."""
    if (props.get(name) or {}).get("type") == "boolean":
        return True
    # (an arg's name spells the flag's '-' and '.' as '_': --config.file {{config_file}})
    return (
        re.sub(r"[-.]", "_", flag.lstrip("-")).lower() == name.replace("-", "_").lower()
        or len(flag.lstrip("-")) == 1
    )


def parse_verb(bin_name: str, verb: dict) -> dict:
    """What a verb's cli[] offers: its subcommand path, literal flags, flag slots and operand slots."""
    argv = list(verb.get("argv") or verb.get("cli") or [])
    props = ((verb.get("args") or {}).get("properties")) or {}
    tokens = argv[1:]
    path, i = [], 0
    while (
        i < len(tokens)
        and not _is_flag(tokens[i])
        and tokens[i] != "--"
        and not PLACEHOLDER.search(tokens[i])
    ):
        path.append(tokens[i])
        i += 1
    literals: dict[str, str | bool] = {}  # flag -> True, or the literal value written after it
    slots: dict[str, str] = {}  # flag -> arg name
    operands: list[tuple[str, bool]] = []  # (arg name, after a literal "--")
    after_ddash = False
    rest = tokens[i:]
    j = 0
    while j < len(rest):
        token = rest[j]
        nxt = rest[j + 1] if j + 1 < len(rest) else None
        if token == "--":
            after_ddash = True
        elif _is_flag(token):
            if (
                nxt is not None
                and PLACEHOLDER.fullmatch(nxt)
                and _owns(token, PLACEHOLDER.fullmatch(nxt).group(1), props)
            ):
                slots[token] = PLACEHOLDER.fullmatch(nxt).group(1)
                j += 1
            elif (
                nxt is not None
                and not _is_flag(nxt)
                and nxt != "--"
                and not PLACEHOLDER.search(nxt)
            ):
                literals[token] = nxt
                j += 1
            else:
                literals[token] = True
        elif PLACEHOLDER.search(token) and not PLACEHOLDER.fullmatch(token):
            match = re.match(r"^(-[^={]+?)=?\{\{\s*([A-Za-z_][A-Za-z0-9_-]*)\s*\}\}$", token)
            if match:
                slots[match.group(1)] = match.group(2)
        elif PLACEHOLDER.fullmatch(token):
            operands.append((PLACEHOLDER.fullmatch(token).group(1), after_ddash))
        elif not operands and not after_ddash:
            path.append(token)  # a subcommand after global flags: celery -A {{app}} worker
        j += 1
    selection = verb.get("json")  # true: the tool prints JSON with no flag (docs/contract.md)
    selection = list(selection) if isinstance(selection, list) else []
    for k, flag in enumerate(selection):  # the JSON selection is literal too: ["--format", "json"]
        if _is_flag(flag):
            value = (
                selection[k + 1]
                if k + 1 < len(selection) and not _is_flag(selection[k + 1])
                else True
            )
            if "=" in flag and value is True:
                flag, value = flag.split("=", 1)
            literals.setdefault(flag, value)
    return {
        "path": path,
        "literals": literals,
        "slots": slots,
        "operands": operands,
        "props": props,
        "required": list((verb.get("args") or {}).get("required") or []),
        "effect": (verb.get("policy") or {}).get("effect", "read"),
    }


def _typed(prop: dict, value):
    kind = prop.get("type")
    if kind == "array":
        values = value if isinstance(value, list) else [value]
        item = (prop.get("items") or {}).get("type")
        return [int(v) if item == "integer" else v for v in values]
    if isinstance(value, list):
        value = ",".join(value)
    if kind == "integer":
        return int(value)
    if kind == "number":
        return float(value)
    if kind == "boolean":
        return value is True or value == "true"
    return value


def _fill_operands(slots: list[str], values: list[str], props: dict, args: dict) -> list[str]:
    """Assign values to operand slots in order; an array slot takes what the later scalar slots leave.
    Returns the values no slot took."""
    values = list(values)
    for index, name in enumerate(slots):
        if not values:
            break
        prop = props.get(name) or {}
        if prop.get("type") == "array":
            later = sum(
                1 for other in slots[index + 1 :] if (props.get(other) or {}).get("type") != "array"
            )
            take = max(1, len(values) - later)
            args[name] = _typed(prop, values[:take])
            values = values[take:]
        else:
            args[name] = _typed(prop, values.pop(0))
    return values


def _unbundled(opts: dict, parsed: dict) -> dict:
    """``opts`` with getopt's bundled switches (``-ef``: -e -f) spelled one by one where the verb
    has no flag of the whole spelling and every letter is a switch of it (a literal or a boolean)."""

    def switch(flag: str) -> bool:
        if parsed["literals"].get(flag) is True:
            return True
        name = parsed["slots"].get(flag)
        return name is not None and (parsed["props"].get(name) or {}).get("type") == "boolean"

    out: dict = {}
    for spec, wanted in opts.items():
        spellings = spec.split("|")
        bundle = spellings[0]
        if (
            wanted is True
            and re.fullmatch(r"-[A-Za-z]{2,}", bundle)
            and not any(s in parsed["literals"] or s in parsed["slots"] for s in spellings)
            and all(switch(f"-{letter}") for letter in bundle[1:])
        ):
            out.update({f"-{letter}": True for letter in bundle[1:]})
        else:
            out[spec] = wanted
    return out


def resolve(match: dict, parsed: dict) -> tuple[dict | None, str, int]:
    """(args, why not, rank) for one verb; args None when the verb cannot express it. The rank orders
    the verbs that can (lower is better); for those that cannot, it counts how far the match got."""
    if parsed["path"] != list(match.get("path") or []):
        return None, "no verb for subcommand " + (" ".join(match.get("path") or []) or "(none)"), 0
    args: dict = {}
    used_literals = set()
    for progress, (spec, wanted) in enumerate(_unbundled(match.get("opts") or {}, parsed).items()):
        spellings = spec.split("|")
        done = False
        for spelling in spellings:
            flag, value = spelling, wanted
            if (
                wanted is True
                and re.fullmatch(r"-[A-Za-z0-9][^=]+", spelling)
                and spelling not in parsed["literals"]
                and spelling not in parsed["slots"]
                and spelling[:2] in parsed["slots"]
            ):
                # getopt's joined short option ("-Tsvg" is -T with the value svg) where the verb
                # has no flag of that whole spelling but a value slot for its first letter
                flag, value = spelling[:2], spelling[2:]
            if "=" in spelling and wanted is True:  # "--format=long": the option with that value
                flag, value = spelling.split("=", 1)
                if spelling in parsed["literals"]:
                    used_literals.add(spelling)
                    done = True
                    break
            if flag in parsed["literals"] and (
                parsed["literals"][flag] is True
                and value is True
                or parsed["literals"][flag] == value
            ):
                used_literals.add(flag)
                done = True
                break
            if flag in parsed["slots"]:
                name = parsed["slots"][flag]
                prop = parsed["props"].get(name) or {}
                if (value is True) != (prop.get("type") == "boolean"):
                    continue
                args[name] = _typed(prop, value)
                done = True
                break
        if not done:
            return None, f"no arg for {spellings[0]}", progress
    pre = [name for name, after in parsed["operands"] if not after and name not in args]
    post = [name for name, after in parsed["operands"] if after and name not in args]
    operands, paths = list(match.get("operands") or []), list(match.get("paths") or [])
    if pre and post and paths:
        left = _fill_operands(pre, operands, parsed["props"], args) + _fill_operands(
            post, paths, parsed["props"], args
        )
    else:
        left = _fill_operands(pre + post, operands + paths, parsed["props"], args)
    if left:
        return None, f"no operand slot for {left[0]!r}", len(match.get("opts") or {})
    extra = len([flag for flag in parsed["literals"] if flag not in used_literals])
    unfilled = len([name for name in parsed["required"] if name not in args])
    # of the verbs that express a read task, a person picks a read one (a read form that opens the
    # store read-only) before a write that needs a confirmation, then the one with fewer fixed flags
    return args, "", (unfilled, parsed["effect"] != "read", extra)


def resolve_in_pack(match: dict, binding: dict) -> tuple[str | None, dict | None, str]:
    """The best verb of a pack for a matcher: (verb key, args, why not). Where no verb has the
    matcher's whole subcommand path, a verb of a shorter one (never the tool's own) that takes the
    words left over as its leading operands expresses it (``run build``: the verb ``run`` with the
    task ``build``), as the tldr examples are scored (evaluate.expresses)."""
    verb, args, why = _resolve_in_pack(match, binding)
    path = list(match.get("path") or [])
    for cut in range(len(path) - 1, 0, -1):
        if verb is not None:
            break
        shorter = dict(
            match, path=path[:cut], operands=path[cut:] + list(match.get("operands") or [])
        )
        found = _resolve_in_pack(shorter, binding)
        if found[0] is not None:
            verb, args, why = found
    return verb, args, why


def _resolve_in_pack(match: dict, binding: dict) -> tuple[str | None, dict | None, str]:
    best, why, farthest = (
        None,
        "no verb for subcommand " + (" ".join(match.get("path") or []) or "(none)"),
        -1,
    )
    for key in sorted(binding.get("verbs") or {}):
        parsed = parse_verb(binding.get("bin", ""), binding["verbs"][key])
        try:
            args, reason, rank = resolve(match, parsed)
        except ValueError as error:
            # a value the verb types otherwise ("file" for an integer slot): it cannot express it
            args, reason, rank = None, f"a value does not fit the verb's types ({error})", 0
        if args is None:
            if parsed["path"] == list(match.get("path") or []) and rank > farthest:
                why, farthest = f"{reason} (nearest verb: {key})", rank
            continue
        if best is None or rank < best[0]:
            best = (rank, key, args)
    if best is None:
        return None, None, why
    return best[1], best[2], ""


# ---------------------------------------------------------------------------------------------
# comparing


def _json_value(text: str):
    """The human command's stdout read as the runtime reads a tool's (one document, or JSON lines as
    a list): the same parser, so "equal" compares like with like."""
    from wrapgen.runtime.execute import _parse_json

    return _parse_json(text)


DIFF_TIMES = re.compile(r"^((?:---|\+\+\+) \S+)\t.*$", re.MULTILINE)
DURATION = re.compile(r"\b\d+(?:\.\d+)?\s?(?:ms|s|sec|seconds)\b")


def normalise(text: str, how: list[str]) -> str:
    if "diff_header_times" in how:
        text = DIFF_TIMES.sub(r"\1", text)
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    if "durations" in how:  # "1 passed in 0.03s": a test runner's timings
        lines = [DURATION.sub("<t>", line) for line in lines]
    for rule in how:  # "drop:REGEX": lines that differ by nature (a file's access time)
        if rule.startswith("drop:"):
            lines = [line for line in lines if not re.search(rule[5:], line)]
    if "sort_lines" in how:
        lines.sort()
    return "\n".join(lines)


def first_difference(got: str, wanted: str, how: list[str]) -> dict:
    """Where the pack's text first differs from the human command's, after normalising."""
    a, b = normalise(got, how).splitlines(), normalise(wanted, how).splitlines()
    for line, (x, y) in enumerate(zip(a, b), start=1):
        if x != y:
            return {"line": line, "pack": x[:200], "human": y[:200]}
    line = min(len(a), len(b)) + 1
    return {
        "line": line,
        "pack": a[line - 1][:200] if len(a) >= line else "<end>",
        "human": b[line - 1][:200] if len(b) >= line else "<end>",
    }


def compare(result, human_stdout: str, how: list[str], json_selected: bool) -> bool:
    if not json_selected:
        if not isinstance(result, str):
            return False
        return normalise(result, how) == normalise(human_stdout, how)
    try:
        wanted = _json_value(human_stdout)
    except ValueError:
        return False
    return result == wanted


# ---------------------------------------------------------------------------------------------
# running


def substitute(value, context: dict):
    if isinstance(value, str):
        for key, text in context.items():
            if not key.startswith("_"):
                value = value.replace("{" + key + "}", text)
        return value
    if isinstance(value, list):
        return [substitute(item, context) for item in value]
    if isinstance(value, dict):
        return {key: substitute(item, context) for key, item in value.items()}
    return value


def tree_state(root: Path) -> dict:
    """Each file and directory under root: (size, mtime in ns), to see what a call wrote."""
    state = {}
    for path in root.rglob("*"):
        try:
            info = path.lstat()
        except OSError:
            continue
        state[str(path.relative_to(root))] = (info.st_size, info.st_mtime_ns)
    return state


def changed(before: dict, after: dict) -> list[str]:
    return sorted(name for name in set(before) | set(after) if before.get(name) != after.get(name))


def load_binding(pack_dir: Path) -> dict:
    return json.loads((pack_dir / "binding.json").read_text())


def pack_call(box: Sandbox, packs_root: Path, pack_id: str, verb: str, args: dict) -> dict:
    request = box.work / "envelope.json"  # outside the fixture, so no listing of it sees the file
    request.write_text(json.dumps({"pack_id": pack_id, "verb_key": verb, "args": args}))
    code, out, err = box.run(
        [sys.executable, "-m", "wrapgen", "exec", "--envelope", str(request)],
        extra_env={"WRAPGEN_PATH": str(packs_root), "PYTHONPATH": _WRAPGEN_ROOT},
        timeout=150,
    )
    request.unlink()
    try:
        return json.loads(out.decode())
    except ValueError:
        return {
            "ok": False,
            "error": f"wrapgen exec gave no envelope (exit {code}): {err.decode(errors='replace').strip()[-300:]}",
        }


# The directory the wrapgen package is imported from (a checkout may live under /tmp, which the box hides).
_WRAPGEN_ROOT = str(Path(__import__("wrapgen").__file__).resolve().parent.parent)


def run_tool(tool: dict, *, sets: dict, use_bwrap: bool, scratch: Path) -> dict:
    """Every task of one tool, for each pack set: {'tasks': [...]}."""
    work = Path(tempfile.mkdtemp(prefix=f"{tool['tool']}-", dir=scratch))
    fix, home = work / "fix", work / "home"
    fix.mkdir()
    home.mkdir()
    report = {"tool": tool["tool"], "tasks": []}
    context: dict = {}
    try:
        if not tool.get("not_tried"):
            context = FIXTURES[tool.get("fixture", "none")](fix, tool)
        roots = sorted(
            {str(packs[tool["tool"]]["root"]) for packs in sets.values() if tool["tool"] in packs}
            | {_WRAPGEN_ROOT}
        )  # `python -m wrapgen` inside the box: a checkout under /tmp stays visible
        box = Sandbox(
            work,
            fix,
            home,
            network=tool.get("fixture") == "http",
            use_bwrap=use_bwrap,
            ro_binds=roots,
        )
        for task in tool["tasks"]:
            row = {
                "id": task["id"],
                "source": task["source"],
                "human": substitute(task["human"], context),
            }
            human = None
            if not tool.get("not_tried") and not task.get("not_tried"):
                code, out, err = box.run(row["human"])
                human = {"exit": code, "stdout": out.decode("utf-8", errors="replace")}
                row["human_exit"] = code
                row["human_lines"] = len(human["stdout"].splitlines())
                if code != task.get("expect_exit", 0):
                    row["human_error"] = err.decode(errors="replace").strip()[-300:]
            for set_name, packs in sets.items():
                row[set_name] = judge(task, tool, set_name, packs, box, human, context)
            report["tasks"].append(row)
    finally:
        server = context.get("_server") if context else None
        if server is not None:
            server.shutdown()
            server.server_close()
        shutil.rmtree(work, ignore_errors=True)
    return report


def judge(
    task: dict, tool: dict, set_name: str, packs: dict, box: Sandbox, human, context: dict
) -> dict | None:
    pack = packs.get(tool["tool"])
    if pack is None:
        return None  # this set has no pack for the tool
    binding = pack["binding"]
    if set_name == "shipped":
        call = task.get("shipped") or {}
        verb, args = call.get("verb"), dict(call.get("args") or {})
        if not verb:
            return {
                "outcome": "not expressible",
                "why": call.get("why", "no verb named for this pack"),
            }
        verbs = binding.get("verbs") or {}
        if verb not in verbs:
            return {"outcome": "not expressible", "why": f"the pack has no verb {verb!r}"}
        props = ((verbs[verb].get("args") or {}).get("properties")) or {}
        missing = [name for name in args if name not in props]
        if missing:
            return {"outcome": "not expressible", "why": f"{verb} has no arg {missing[0]!r}"}
        args = {name: _typed(props[name], value) for name, value in args.items()}
    else:
        verb, args, why = resolve_in_pack(task["match"], binding)
        if verb is None:
            return {"outcome": "not expressible", "why": why}
    args = substitute(args, context)
    row = {"verb": verb, "args": args}
    defect = (task.get("known_defect") or {}).get(set_name)
    if defect:
        row["known_defect"] = defect
    if tool.get("not_tried") or task.get("not_tried"):
        row.update(outcome="not tried", why=tool.get("not_tried") or task["not_tried"])
        return row
    if human["exit"] != task.get("expect_exit", 0):
        row.update(outcome="task broken", why=f"the human command exited {human['exit']}")
        return row
    before = tree_state(box.fix)
    envelope = pack_call(box, pack["root"], pack["pack_id"], verb, args)
    if parse_verb(binding.get("bin", ""), binding["verbs"][verb])["effect"] == "read":
        wrote = changed(before, tree_state(box.fix))
        if wrote:
            row["wrote"] = wrote  # a read verb that changed the fixture (issue 28: none may)
    # a declared answer (docs/contract.md §8: tar --diff's "differences found (exit 1)") is ok: false by
    # contract and keeps what the tool printed as "output": where the task expects that very exit, the
    # kept output is the pack's answer and is compared like any result; so is any undeclared status's
    # (every non-zero exit carries exit_code). No output is a tool that printed nothing on stdout (a
    # linter that writes its findings on stderr): "", as stdout is what every task compares
    answered = (
        not envelope.get("ok")
        and task.get("expect_exit", 0) != 0
        and envelope.get("exit_code") == task.get("expect_exit")
    )
    if not envelope.get("ok") and not answered:
        row.update(outcome="error", error=str(envelope.get("error"))[:300])
        return row
    if answered:
        row["answer"] = str(envelope.get("error"))[:120]
    result = envelope.get("result")
    if answered:
        result = "" if envelope.get("output") is None else envelope["output"]
    selection = (binding["verbs"][verb]).get("json")
    json_selected = bool(selection)
    how = task.get("normalise") or []
    if compare(result, human["stdout"], how, json_selected):
        row["outcome"] = "equal"
    elif json_selected and _json_form_equal(result, task, selection, box, context, how):
        # the human asked for text, the pack answers in the JSON its verb selects: the same
        # command's answer when the human command given that selection prints it
        row["outcome"] = "equal"
        row["compared_with"] = "the human command with the pack's JSON selection"
    else:
        row["outcome"] = "different"
        got = result
        got = got if isinstance(got, str) else json.dumps(got)
        row["difference"] = first_difference(got, human["stdout"], task.get("normalise") or [])
    return row


def with_selection(argv: list[str], selection) -> list[str] | None:
    """The human argv given a verb's JSON selection as the runtime places it (before a literal
    ``--``, else at the end); None where the selection adds nothing (the tool prints JSON bare)."""
    if selection is True or not selection:
        return None
    tokens = [str(t) for t in selection]
    if "--" in argv:
        at = argv.index("--")
        return argv[:at] + tokens + argv[at:]
    return argv + tokens


def _json_form_equal(result, task: dict, selection, box, context: dict, how: list[str]) -> bool:
    argv = with_selection(substitute(task["human"], context), selection)
    if argv is None:
        return False
    code, out, _err = box.run(argv)
    if code != task.get("expect_exit", 0):
        return False
    return compare(result, out.decode("utf-8", errors="replace"), how, True)


# ---------------------------------------------------------------------------------------------
# packs


def shipped_packs(tools: list[dict]) -> dict:
    packs = {}
    for tool in tools:
        name = tool.get("shipped_pack")
        if name and (ADAPTERS / name / "binding.json").is_file():
            packs[tool["tool"]] = {
                "root": ADAPTERS,
                "pack_id": name,
                "binding": load_binding(ADAPTERS / name),
            }
    return packs


def wrap_fresh(tools: list[dict], scratch: Path, jobs: int) -> tuple[dict, dict]:
    """``wrapgen wrap TOOL -o DIR`` for each tool, no recipe, discovery cached in a temporary directory."""
    cache = scratch / "discovery-cache"
    cache.mkdir(exist_ok=True)
    env = dict(os.environ, WRAPGEN_CACHE_DIR=str(cache))

    def one(tool: dict):
        out = scratch / "fresh" / tool["tool"]
        out.mkdir(parents=True, exist_ok=True)
        start = time.monotonic()
        done = subprocess.run(
            [sys.executable, "-m", "wrapgen", "wrap", tool["bin"], "-o", str(out)],
            capture_output=True,
            env=env,
            timeout=600,
            cwd=scratch,
        )
        seconds = time.monotonic() - start
        dirs = [d for d in out.iterdir() if (d / "binding.json").is_file()]
        info = {"seconds": round(seconds, 2), "exit": done.returncode}
        if not dirs:
            info["error"] = (
                done.stderr.decode(errors="replace").strip()
                or done.stdout.decode(errors="replace").strip()
            )[-300:]
            return tool["tool"], None, info
        binding = load_binding(dirs[0])
        info["verbs"] = len(binding.get("verbs") or {})
        return tool["tool"], {"root": out, "pack_id": dirs[0].name, "binding": binding}, info

    packs, wraps = {}, {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for name, pack, info in pool.map(one, tools):
            wraps[name] = info
            if pack is not None:
                packs[name] = pack
    return packs, wraps


def score_picks(picks: dict, packs: dict) -> dict:
    scores = {}
    for name, table in picks.items():
        pack = packs.get(name)
        if pack is None:
            continue
        present, missing, forbidden = [], [], []
        for pick in table["picks"]:
            verb, _args, _why = resolve_in_pack(pick["match"], pack["binding"])
            (present if verb else missing).append(pick["name"])
        for pick in table["forbidden"]:
            verb, _args, _why = resolve_in_pack(pick["match"], pack["binding"])
            if verb:
                forbidden.append(f"{pick['name']} ({verb})")
        scores[name] = {"present": present, "missing": missing, "forbidden": forbidden}
    return scores


# ---------------------------------------------------------------------------------------------
# the report


def summarise(reports: list[dict], set_name: str) -> dict:
    per_tool, totals = {}, {"equal": 0, "expressible": 0, "tasks": 0, "tried": 0, "by_outcome": {}}
    for report in reports:
        rows = [task[set_name] for task in report["tasks"] if task.get(set_name)]
        if not rows:
            continue
        counts: dict[str, int] = {}
        for row in rows:
            counts[row["outcome"]] = counts.get(row["outcome"], 0) + 1
        expressible = len(rows) - counts.get("not expressible", 0)
        per_tool[report["tool"]] = {
            "equal": counts.get("equal", 0),
            "expressible": expressible,
            "tasks": len(rows),
            "by_outcome": counts,
        }
        totals["equal"] += counts.get("equal", 0)
        totals["expressible"] += expressible
        totals["tasks"] += len(rows)
        totals["tried"] += expressible - counts.get("not tried", 0) - counts.get("task broken", 0)
        for key, value in counts.items():
            totals["by_outcome"][key] = totals["by_outcome"].get(key, 0) + value
    return {"per_tool": per_tool, "totals": totals}


def _pct(a: int, b: int) -> str:
    return f"{100 * a / b:.0f} %" if b else "-"


def print_report(result: dict) -> None:
    print(f"sandbox: {result['sandbox']}")
    for set_name in result["sets"]:
        summary = result["summary"][set_name]
        print(f"\n== {set_name} packs")
        print(f"{'tool':<10} {'equal/expr/total':>17}  {'outcomes':<52} {'picks':>6}  forbidden")
        scores = result.get("picks", {}) if set_name == "fresh" else {}
        for tool, row in summary["per_tool"].items():
            outcomes = ", ".join(f"{k} {v}" for k, v in sorted(row["by_outcome"].items()))
            score = scores.get(tool)
            picks = (
                _pct(len(score["present"]), len(score["present"]) + len(score["missing"]))
                if score
                else ""
            )
            bad = ", ".join(score["forbidden"]) if score else ""
            print(
                f"{tool:<10} {row['equal']:>5}/{row['expressible']:>3}/{row['tasks']:<5}    {outcomes:<52} {picks:>6}  {bad}"
            )
        for tool, score in scores.items():  # tools scored on their picks alone
            if tool not in summary["per_tool"]:
                picks = _pct(len(score["present"]), len(score["present"]) + len(score["missing"]))
                print(
                    f"{tool:<10} {'-':>17}    {'(expert picks only)':<52} {picks:>6}  {', '.join(score['forbidden'])}"
                )
        t = summary["totals"]
        print(
            f"{'TOTAL':<10} {t['equal']:>5}/{t['expressible']:>3}/{t['tasks']:<5}    "
            + ", ".join(f"{k} {v}" for k, v in sorted(t["by_outcome"].items()))
        )
        print(
            f"  expressible {_pct(t['expressible'], t['tasks'])} (goal: {GOALS['expressible']}); "
            f"equal of the expressible tasks tried {_pct(t['equal'], t['tried'])}"
            + (f" (goal: {GOALS['shipped_equal']})" if set_name == "shipped" else "")
        )
        if set_name == "fresh" and scores:
            present = sum(len(s["present"]) for s in scores.values())
            total = sum(len(s["present"]) + len(s["missing"]) for s in scores.values())
            forbidden = sum(len(s["forbidden"]) for s in scores.values())
            print(
                f"  expert picks present {present}/{total} = {_pct(present, total)}, forbidden picks present {forbidden} "
                f"(goal: {GOALS['fresh_picks']})"
            )
    if result.get("wraps"):
        times = ", ".join(
            f"{name} {info['seconds']} s"
            for name, info in result["wraps"].items()
            if name in ("gh", "kubectl", "git")
        )
        print(f"\nwrap time (no trials; baseline for the 'with trials' ratio): {times}")
        failed = {name: info for name, info in result["wraps"].items() if info.get("error")}
        for name, info in failed.items():
            print(f"  wrap {name} failed: {info['error']}")
    empty = [
        task["id"]
        for report in result["tools"]
        for task in report["tasks"]
        if task.get("human_lines") == 0
    ]
    if empty:
        print(
            f"tasks whose human command prints nothing (an 'equal' there says little): {', '.join(empty)}"
        )
    print(f"bench wall time {result['seconds']} s")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--tools", help="comma-separated tool names from the task data (default: all)"
    )
    parser.add_argument(
        "--sets", default="shipped,fresh", help="pack sets to judge: shipped, fresh or both"
    )
    parser.add_argument(
        "--json", metavar="OUT", help="also write every task's outcome as JSON to OUT"
    )
    parser.add_argument("--jobs", type=int, default=2, help="tools judged at once (default 2)")
    parser.add_argument("--verbose", action="store_true", help="print every task that is not equal")
    options = parser.parse_args(argv)
    started = time.monotonic()
    data = json.loads(TASKS_FILE.read_text())
    tools = data["tools"]
    picks = {  # the held-out evaluation's tables (their picks as commands) are bench/evaluate.py's
        name: table
        for name, table in json.loads(PICKS_FILE.read_text())["tools"].items()
        if all("match" in pick for pick in table["picks"])
    }
    # tools with expert picks and no tasks: wrapped fresh and scored on their picks alone
    picks_only = [
        {"tool": name, "bin": name, "tasks": []}
        for name in picks
        if name not in {t["tool"] for t in tools}
    ]
    if options.tools:
        wanted = [name.strip() for name in options.tools.split(",") if name.strip()]
        known = [t["tool"] for t in tools + picks_only]
        unknown = [name for name in wanted if name not in known]
        if unknown:
            parser.error(
                f"unknown tool(s) {', '.join(unknown)}; the task and picks data have: {', '.join(known)}"
            )
        tools = [tool for tool in tools if tool["tool"] in wanted]
        picks_only = [tool for tool in picks_only if tool["tool"] in wanted]
    set_names = [name.strip() for name in options.sets.split(",") if name.strip()]
    if not set_names or any(name not in ("shipped", "fresh") for name in set_names):
        parser.error("--sets takes shipped, fresh or shipped,fresh")
    missing = [tool["tool"] for tool in tools + picks_only if not shutil.which(tool["bin"])]
    if missing:
        print(f"not installed, left out: {', '.join(missing)}", file=sys.stderr)
        tools = [tool for tool in tools if tool["tool"] not in missing]
        picks_only = [tool for tool in picks_only if tool["tool"] not in missing]
    why_not = bwrap_works()
    sandbox = (
        "bwrap (read-only /, private /tmp, work dir writable, own PID namespace, no network but for the loopback server)"
        if why_not is None
        else f"NONE: {why_not}; tasks ran unsandboxed"
    )
    scratch = Path(tempfile.mkdtemp(prefix="wrapgen-pack-tasks-"))
    try:
        sets: dict[str, dict] = {}
        wraps: dict = {}
        if "shipped" in set_names:
            sets["shipped"] = shipped_packs(tools)
        if "fresh" in set_names:
            sets["fresh"], wraps = wrap_fresh(tools + picks_only, scratch, options.jobs)
        with concurrent.futures.ThreadPoolExecutor(max_workers=options.jobs) as pool:
            reports = list(
                pool.map(
                    lambda tool: run_tool(
                        tool, sets=sets, use_bwrap=why_not is None, scratch=scratch
                    ),
                    tools,
                )
            )
        scored = {t["tool"] for t in tools + picks_only}
        result = {
            "sandbox": sandbox,
            "sets": list(sets),
            "tools": reports,
            "summary": {name: summarise(reports, name) for name in sets},
            "picks": score_picks(
                {k: v for k, v in picks.items() if k in scored}, sets.get("fresh", {})
            ),
            "wraps": wraps,
            "fresh_verbs": {
                name: sorted(pack["binding"]["verbs"])
                for name, pack in sets.get("fresh", {}).items()
            },
            "seconds": round(time.monotonic() - started, 1),
        }
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print_report(result)
    if options.verbose:
        for report in result["tools"]:
            for task in report["tasks"]:
                for set_name in result["sets"]:
                    row = task.get(set_name)
                    if row and row["outcome"] != "equal":
                        print(
                            f"  [{set_name}] {task['id']}: {row['outcome']}: "
                            + json.dumps({k: v for k, v in row.items() if k != "outcome"})[:400]
                        )
    if options.json:
        Path(options.json).write_text(json.dumps(result, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
