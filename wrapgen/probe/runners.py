"""Task runners: ask make, just or go-task for their database of a repository (never running a target).

``discover_runner("make", "/repo")`` finds the runner's file in the repository
(``wrapgen.knowledge.runners.runner_files``), asks the runner for what it knows, and returns a
``Tool`` whose root's subcommands are the targets (``wrapgen.parse.runners`` says how they are
modelled) and whose root ``probe`` is the argv that runs the runner in the repository from
anywhere (``-C /repo`` for make): every verb's ``cli[]`` starts with it.

- make: ``make -C DIR -pRrq --no-print-directory :`` prints make's database and runs no recipe
  (``-q``: question mode; the target ``:`` does not exist, which make says last, after printing
  the database). A makefile make cannot read is a ``RunnerFileError`` in make's own words.
- just: ``just --justfile FILE --working-directory DIR --dump --dump-format json``.
- go-task: ``task --dir DIR --list-all --json``; where go-task is not installed the Taskfile is
  read as YAML, and the tool's warnings say so.
- npm: ``package.json`` is read as a file; npm is only asked its ``--version``.

Each runs as a help probe does: in the discovery sandbox (``wrapgen.probe.sandbox``) where it
works, with the repository readable and nothing writable but scratch directories (a makefile's
``$(shell ...)`` runs while make reads it), and with the probe's environment (no MAKEFLAGS, no
variables of the caller's that would override a makefile's ``?=``).
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from typing import Callable

from wrapgen.errors import RunnerFileError, ToolNotFoundError, UsageError
from wrapgen.knowledge.runners import invocation, names_other_files, runner_files, runner_kind
from wrapgen.model.tool import Command, Tool
from wrapgen.parse.runners import leading_comment, parser_name
from wrapgen.probe.prober import resolve_tool

__all__ = [
    "Repository",
    "find_repository",
    "discover_runner",
    "runner_discovery",
    "repository_identity",
]

_TIMEOUT_S = 30.0
_OUTPUT_CAP = 8 << 20


@dataclass(frozen=True)
class Repository:
    """A repository a runner reads: the runner's kind, the directory (absolute) and its file in it."""

    kind: str
    directory: str
    file: str

    @property
    def name(self) -> str:
        return os.path.basename(self.directory.rstrip(os.sep)) or "repository"


def find_repository(
    tool: str, directory: str | os.PathLike, *, file: str | None = None
) -> Repository | None:
    """The repository at ``directory`` as runner ``tool`` sees it, or None when its file is not there.

    ``file`` names the runner's file when it is not one the runner finds by itself.
    """
    kind = runner_kind(tool)
    if kind is None:
        return None
    root = os.path.abspath(os.fspath(directory))
    for name in (file,) if file else runner_files(kind):
        path = os.path.join(root, name)
        if os.path.isfile(path):
            return Repository(kind, root, path)
    return None


def repository_identity(
    tool: str, directory: str | os.PathLike, *, file: str | None = None
) -> list:
    """What a conversion of the repository depends on (for batch's memo): each runner file's sha256."""
    repo = find_repository(tool, directory, file=file)
    if repo is None:
        return []
    out = [repo.kind, repo.directory]
    for name in sorted(os.listdir(repo.directory)):
        path = os.path.join(repo.directory, name)
        if os.path.isfile(path) and (
            path == repo.file
            or name.endswith((".mk", ".just", ".yml", ".yaml"))
            or name == "package.json"
        ):
            with open(path, "rb") as handle:
                out.append([name, hashlib.sha256(handle.read()).hexdigest()])
    return out


def _run(path: str, args: list[str], repo: Repository, *, timeout_s: float, sandbox: bool | None):
    """``path ARGS`` as a help probe runs: sandboxed where possible, scratch HOME and cwd."""
    from wrapgen.probe.isolated import run_isolated

    isolated = run_isolated(
        [path, *args],
        timeout_s=timeout_s,
        output_cap=_OUTPUT_CAP,
        sandbox=sandbox,
        readable=(repo.directory,),
        prefix="wrapgen-runner-",
    )
    result = isolated.result
    note = (
        (
            f"{os.path.basename(path)} read the repository without a sandbox ({isolated.note}): "
            "only a scratch HOME and working directory kept it from writing elsewhere"
        )
        if isolated.note
        else ""
    )
    if result.not_found:
        raise ToolNotFoundError(
            f"{path} could not be run: {result.not_found}", hint="check the installation"
        )
    if result.timed_out:
        raise RunnerFileError(
            f"`{os.path.basename(path)} {' '.join(args)}` did not finish in {timeout_s:g} s",
            hint="pass --timeout to wait longer",
        )
    stdout = result.stdout.decode("utf-8", "replace")
    stderr = result.stderr.decode("utf-8", "replace")
    return result.exit_code, stdout, stderr, note


def _version(path: str, repo: Repository, *, timeout_s: float, sandbox: bool | None) -> str:
    try:
        code, out, err, _ = _run(
            path, ["--version"], repo, timeout_s=min(timeout_s, 10.0), sandbox=sandbox
        )
    except RunnerFileError:
        return ""
    text = (out.strip() or err.strip()) if code == 0 else ""
    return text.splitlines()[0].strip() if text else ""


def _make_errors(stderr: str) -> list[str]:
    """make's own complaints, less the one about the target ``:`` that the probe asks for on purpose."""
    return [
        line.strip()
        for line in stderr.splitlines()
        if "***" in line and "No rule to make target ':'" not in line
    ]


def _read_text(path: str) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read()
    except OSError as error:
        raise RunnerFileError(
            f"cannot read {path}: {error.strerror}", hint="check the file's permissions"
        ) from None


def _makefile_list(db: str, repo: Repository) -> dict[str, str]:
    """Each makefile the database names in MAKEFILE_LIST (relative to the repository) -> its text."""
    names: list[str] = []
    for line in db.splitlines():
        if line.startswith("MAKEFILE_LIST :="):
            names = line.split(":=", 1)[1].split()
    names = names or [os.path.basename(repo.file)]
    out = {}
    for name in names:
        path = name if os.path.isabs(name) else os.path.join(repo.directory, name)
        if os.path.isfile(path):
            out[name] = _read_text(path)
    return out


def _targets(kind: str, path: str, repo: Repository, *, timeout_s: float, sandbox: bool | None):
    """(targets, the file's own words about itself, warnings)."""
    show = os.path.relpath(
        repo.file, repo.directory
    )  # as make names it after `-C DIR` (ci/release.mk)
    if kind == "npm":
        from wrapgen.parse.runners.npm import parse_package_json

        targets, about = parse_package_json(_read_text(repo.file), source=repo.file)
        return targets, about, []
    if kind == "make":
        from wrapgen.parse.runners.make import parse_make_database

        args = ["-C", repo.directory, "-f", show, "-pRrq", "--no-print-directory", ":"]
        code, out, err, note = _run(path, args, repo, timeout_s=timeout_s, sandbox=sandbox)
        problems = _make_errors(err)
        if problems or "# Files" not in out:
            said = "; ".join(problems) or err.strip() or f"exit status {code}"
            raise RunnerFileError(
                f"make could not read {repo.file}: {said}",
                hint=f"run `make -C {repo.directory} -n` to see the same error, and fix the makefile",
            )
        texts = _makefile_list(out, repo)
        main = texts.get(show) or next(iter(texts.values()), "")
        return parse_make_database(out, texts), leading_comment(main), [note] if note else []
    if kind == "just":
        from wrapgen.parse.runners.just import parse_just_dump

        args = [
            "--justfile",
            repo.file,
            "--working-directory",
            repo.directory,
            "--dump",
            "--dump-format",
            "json",
        ]
        code, out, err, note = _run(path, args, repo, timeout_s=timeout_s, sandbox=sandbox)
        if code != 0:
            said = " ".join(err.split()) or f"exit status {code}"
            raise RunnerFileError(
                f"just could not read {repo.file}: {said}", hint="fix the justfile"
            )
        text = _read_text(repo.file)
        targets, warnings, doc = parse_just_dump(out, text)
        return targets, doc or leading_comment(text), [*warnings, *([note] if note else [])]
    if kind == "task":
        from wrapgen.parse.runners.taskfile import parse_task_list, parse_taskfile

        text = _read_text(repo.file)
        if path == "":
            targets, warnings = parse_taskfile(text, source=repo.file)
            return targets, leading_comment(text), list(warnings)
        args = ["--dir", repo.directory, "--taskfile", repo.file, "--list-all", "--json"]
        code, out, err, note = _run(path, args, repo, timeout_s=timeout_s, sandbox=sandbox)
        if code != 0:
            import re

            said = " ".join(re.sub(r"\x1b\[[0-9;]*m", "", err).split()) or f"exit status {code}"
            raise RunnerFileError(
                f"task could not read {repo.file}: {said}", hint="fix the Taskfile"
            )
        return (
            parse_task_list(out, text, source=repo.file),
            leading_comment(text),
            [note] if note else [],
        )
    raise UsageError(
        f"{kind} is not a task runner wrapgen reads"
    )  # the knowledge table and this disagree


def discover_runner(
    tool: str,
    directory: str | os.PathLike,
    *,
    file: str | None = None,
    timeout_s: float | None = None,
    sandbox: bool | None = None,
) -> Tool:
    """The targets of the repository at ``directory`` as ``tool`` (make, npm, just, task) runs them.

    Raises ``RunnerFileError`` when the runner cannot read its file (in its words) or there is no
    such file, ``ToolNotFoundError`` when the runner is not installed (go-task excepted: its
    Taskfile is then read as YAML).
    """
    kind = runner_kind(tool)
    if kind is None:
        raise UsageError(
            f"{tool} is not a task runner wrapgen reads", hint="use make, npm, just or task"
        )
    repo = find_repository(tool, directory, file=file)
    if repo is None:
        looked = file or " / ".join(runner_files(kind))
        raise RunnerFileError(
            f"no {looked} in {os.path.abspath(os.fspath(directory))}",
            hint=f"run wrapgen in the repository, or pass --dir DIR (the directory holding its {looked})",
        )
    timeout = _TIMEOUT_S if timeout_s is None else float(timeout_s)
    try:
        path = resolve_tool(tool).path
    except ToolNotFoundError as error:
        if kind != "task":  # (go-task's Taskfile is read without it)
            raise ToolNotFoundError(
                error.message, hint=f"install {tool} to wrap the repository's targets"
            ) from None
        path = ""
    targets, about, warnings = _targets(kind, path, repo, timeout_s=timeout, sandbox=sandbox)
    if not targets:
        raise RunnerFileError(
            f"{repo.file} has no targets {tool} can run",
            hint="add a target, or wrap another runner of the repository",
        )
    prefix = invocation(kind, directory=repo.directory, file=repo.file)
    summary = about or f"The {kind} targets of the {repo.name} repository."
    root = Command(
        path=(),
        summary=summary,
        usage=(f"{tool} {' '.join(prefix)} TARGET",),
        subcommands=targets,
        probe=prefix,
        parser=parser_name(kind),
    )
    version = _version(path, repo, timeout_s=timeout, sandbox=sandbox) if path else ""
    return Tool(name=tool, root=root, path=path, version=version, warnings=tuple(warnings))


def runner_discovery(
    tool: str | None,
    directory: str | os.PathLike | None = None,
    *,
    file: str | None = None,
    explicit: bool = False,
) -> Callable[..., Tool] | None:
    """A ``discover``-shaped function for ``flows.wrap`` when ``tool`` is a runner and the repository
    holds its file; None otherwise (the runner is then wrapped as a program, from its help).

    ``explicit``: the directory was asked for (``--dir``, a recipe's ``runner:``), so a missing file is
    an error rather than a reason to wrap the program itself. ``file`` (``--runner-file``, a recipe's
    ``runner.file``) is the runner's file, relative to the directory, when it has a name the runner
    does not look for (``ci/release.mk``): the pack's invocation then names it (``make -f``).
    """
    explicit = explicit or file is not None
    if not tool or runner_kind(tool) is None:
        if explicit:
            raise UsageError(
                f"{tool} is not a task runner wrapgen reads",
                hint="--dir, --runner-file and a recipe's `runner:` go with make, npm, just or task",
            )
        return None
    where = os.getcwd() if directory is None else os.fspath(directory)
    if os.path.isfile(where):
        raise UsageError(
            f"--dir {where} is a file: --dir names the repository the targets run in",
            hint=f"pass --runner-file {where} (relative to --dir, by default the current directory)",
        )
    kind = runner_kind(tool)
    if file is not None:
        file = os.path.join(
            os.path.abspath(where), file
        )  # relative to the repository; an absolute one stays
        own = " / ".join(runner_files(kind))
        if not names_other_files(kind) and os.path.basename(file) not in runner_files(kind):
            raise UsageError(
                f"{tool} reads only {own}, not {os.path.basename(file)}",
                hint=f"pass --dir the directory holding its {own}, without --runner-file",
            )
        if not os.path.isfile(file):
            raise RunnerFileError(
                f"no runner file {file}",
                hint="--runner-file is relative to --dir (or the current directory)",
            )
    if find_repository(tool, where, file=file) is None and not explicit:
        return None

    def discover(name: str, **options) -> Tool:
        return discover_runner(
            name,
            where,
            file=file,
            timeout_s=options.get("timeout_s"),
            sandbox=options.get("sandbox"),
        )

    return discover
