"""Local usage: a tool's invocations read out of a repository's files (``--usage-from PATH...``).

For internal tools no public corpus knows. Readers are pure, text in, command lines out, one per
kind of file: shell scripts, Makefiles, justfiles, package.json scripts, CI workflows (``run:``
of GitHub Actions, ``script:`` of GitLab CI), Dockerfile ``RUN`` lines, Markdown code blocks
(sh/bash/console fences, ``$`` prompts) and shell history (bash, zsh's extended format). Command
lines are parsed with bashlex: pipelines, ``&&``, ``;``, ``$(...)``, ``sudo``/``env``/``time``
prefixes and line continuations; a ``$VARIABLE`` is an operand named by the variable.

Values are never kept. A literal argument becomes an operand of the kind its look says (a path, a
URL, a number) with no name; a flag's value likewise. The subcommand path of a local use is kept
only as far as the tool's discovered commands confirm it (``wrapgen.usage.evidence_for``), since
any leading word of a script (``tool login hunter2``) could be a value; and a single-dash flag
spelled with upper case and digits (``-pS3cret``, a value glued to a flag) is dropped.

``read_paths(tool, paths)`` walks what it is given (skipping ``.git``, ``node_modules``, vendor
folders, large and binary files) and returns the command lines with the files it skipped, each
with one line saying why; the rest is used.
"""

from __future__ import annotations

import json
import os
import re
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

import bashlex
import yaml

from wrapgen.model.usage import UsedOperand
from wrapgen.usage.cmdline import strip_prefix, tool_word
from wrapgen.usage.kinds import value_operand, variable_operand
from wrapgen.usage.shape import PATH_WORD, Line, Word

__all__ = [
    "LocalUsageSkip",
    "Snippet",
    "READERS",
    "reader_for",
    "read_lines",
    "read_paths",
    "lines_of",
    "identity",
]

SKIP_DIRS = frozenset(
    {".git", ".hg", ".svn", "node_modules", "vendor", "third_party", ".venv", "venv", "__pycache__",
     ".tox", ".mypy_cache", ".cache", "dist", "build", "target"}
)  # fmt: skip
MAX_BYTES = 1_000_000
_VARIABLE = re.compile(r"^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$")
# a flag spelling safe to keep: --long-name, -x, or a lower-case single-dash word (-name, -o2)
_SAFE_FLAG = re.compile(r"^(--[a-z0-9][a-z0-9_.-]*|-[A-Za-z0-9?#@]|-[a-z][a-z0-9_-]{1,30})$")


@dataclass(frozen=True)
class LocalUsageSkip:
    """A file (or a part of one) that could not be read, and why."""

    path: str
    reason: str

    @property
    def message(self) -> str:
        return f"skipped {self.path}: {self.reason}"


@dataclass(frozen=True)
class Snippet:
    """Shell text found in a file, with the line it starts on."""

    line: int
    text: str


class _Unreadable(ValueError):
    """A whole file is not of the kind its name says (bad JSON, bad YAML)."""


# -- readers: text -> shell snippets ---------------------------------------------------------------


def _logical_lines(lines: list[tuple[int, str]]) -> list[Snippet]:
    """Lines joined where one ends in a backslash."""
    out: list[Snippet] = []
    pending: list[str] = []
    start = 0
    for number, line in lines:
        if not pending:
            start = number
        if line.endswith("\\"):
            pending.append(line[:-1])
            continue
        pending.append(line)
        out.append(Snippet(start, " ".join(pending)))
        pending = []
    if pending:
        out.append(Snippet(start, " ".join(pending)))
    return out


def read_shell(text: str) -> list[Snippet]:
    """A shell script: all of it."""
    return [Snippet(1, text)]


_MAKE_VAR = re.compile(r"\$[({]([A-Za-z_][A-Za-z0-9_]*)[)}]")


def _recipe(snippets: list[Snippet], prefix: str) -> list[Snippet]:
    """Recipe lines with their echo/ignore markers (``@``, ``-``, ``+``) dropped from the front."""
    return [Snippet(s.line, s.text.strip().lstrip(prefix).strip()) for s in snippets]


def read_makefile(text: str) -> list[Snippet]:
    """A Makefile's recipe lines (tab-indented), ``$(VAR)`` read as a variable, ``@-+`` dropped."""
    lines = []
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("\t"):
            body = _MAKE_VAR.sub(r"$\1", line[1:].strip()).replace("$$", "$")
            lines.append((number, body))
    return _recipe(_logical_lines(lines), "@-+")


_JUST_INTERPOLATION = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_-]*)\s*\}\}")


def read_justfile(text: str) -> list[Snippet]:
    """A justfile's recipe bodies (indented lines under ``name:``), ``{{var}}`` read as a variable."""
    lines = []
    for number, line in enumerate(text.splitlines(), 1):
        if line[:1] in (" ", "\t") and line.strip() and not line.strip().startswith("#"):
            body = _JUST_INTERPOLATION.sub(lambda m: "$" + m[1].replace("-", "_"), line.strip())
            lines.append((number, body))
    return _recipe(_logical_lines(lines), "@-")


def read_package_json(text: str) -> list[Snippet]:
    """package.json's ``scripts`` values."""
    try:
        data = json.loads(text)
    except ValueError as error:
        raise _Unreadable(f"not JSON ({error})") from None
    scripts = data.get("scripts") if isinstance(data, dict) else None
    if not isinstance(scripts, dict):
        return []
    out = []
    for name, command in scripts.items():
        if isinstance(command, str):
            line = next((n for n, raw in enumerate(text.splitlines(), 1) if f'"{name}"' in raw), 1)
            out.append(Snippet(line, command))
    return out


_CI_KEYS = frozenset({"run", "script", "before_script", "after_script", "command", "commands"})


def read_ci(text: str) -> list[Snippet]:
    """A CI workflow's shell: GitHub Actions ``run:``, GitLab CI ``script:`` and its kin."""
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as error:
        raise _Unreadable(f"not YAML ({str(error).splitlines()[0]})") from None
    out: list[Snippet] = []

    def scalars(node) -> Iterable[yaml.ScalarNode]:
        if isinstance(node, yaml.ScalarNode):
            yield node
        elif isinstance(node, yaml.SequenceNode):
            for item in node.value:
                yield from scalars(item)

    def walk(node) -> None:
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                if isinstance(key, yaml.ScalarNode) and key.value in _CI_KEYS:
                    walk(value)  # CircleCI's `run: {command: ...}`
                    for scalar in scalars(value):
                        # a block scalar's text starts on the line after its indicator
                        offset = 1 if scalar.style in ("|", ">") else 0
                        out.append(Snippet(scalar.start_mark.line + 1 + offset, scalar.value))
                else:
                    walk(value)
        elif isinstance(node, yaml.SequenceNode):
            for item in node.value:
                walk(item)

    walk(root)
    return out


def read_dockerfile(text: str) -> list[Snippet]:
    """A Dockerfile's ``RUN`` instructions (continuations joined; the exec form as words)."""
    out = []
    for snippet in _logical_lines(list(enumerate(text.splitlines(), 1))):
        match = re.match(r"^\s*RUN\s+(.*)$", snippet.text, re.I)
        if not match:
            continue
        body = match.group(1).strip()
        body = re.sub(r"^(--[a-z]+=\S+\s+)+", "", body)  # RUN --mount=... --network=...
        if body.startswith("["):
            try:
                words = json.loads(body)
                body = shlex.join(str(w) for w in words)
            except ValueError:
                pass
        out.append(Snippet(snippet.line, body))
    return out


_FENCE = re.compile(r"^\s*(```+|~~~+)\s*([A-Za-z0-9_-]*)")
_SHELL_FENCES = frozenset(
    {"sh", "bash", "shell", "zsh", "console", "shell-session", "shellsession"}
)


def read_markdown(text: str) -> list[Snippet]:
    """Markdown code blocks: sh/bash fences whole, console blocks and ``$ `` prompts by prompt."""
    out: list[tuple[int, str]] = []
    fence = ""
    language = ""
    for number, line in enumerate(text.splitlines(), 1):
        match = _FENCE.match(line)
        if not fence and match:
            fence, language = match.group(1), match.group(2).lower()
            continue
        if fence and line.strip().startswith(fence[:3]) and not line.strip()[3:].strip("`~"):
            fence = ""
            continue
        if not fence:
            continue
        stripped = line.strip()
        if stripped.startswith("$ "):
            out.append((number, stripped[2:]))
        elif language in _SHELL_FENCES and language not in ("console", "shell-session"):
            if stripped and not stripped.startswith("#"):
                out.append((number, stripped))
    return _logical_lines(out)


_ZSH_EXTENDED = re.compile(r"^: \d+:\d+;(.*)$")


def read_history(text: str) -> list[Snippet]:
    """Shell history: bash (``#<time>`` lines skipped) and zsh's extended ``: <time>:0;cmd``."""
    lines = []
    for number, line in enumerate(text.splitlines(), 1):
        match = _ZSH_EXTENDED.match(line)
        if match:
            line = match.group(1)
        elif re.match(r"^#\d+$", line):
            continue
        lines.append((number, line))
    return _logical_lines(lines)


READERS: dict[str, Callable[[str], list[Snippet]]] = {
    "shell": read_shell,
    "makefile": read_makefile,
    "justfile": read_justfile,
    "package.json": read_package_json,
    "ci": read_ci,
    "dockerfile": read_dockerfile,
    "markdown": read_markdown,
    "history": read_history,
}


# where CI systems keep their workflow files, and the names they give them
_CI_FOLDERS = frozenset(
    {".github", ".gitlab", ".circleci", ".buildkite", ".woodpecker", ".forgejo"}
)
_CI_FILES = frozenset(
    {"", "azure-pipelines", "bitbucket-pipelines", "cloudbuild", "buildspec", "ci", "pipeline"}
)  # ("" is a dot file: .travis.yml, .drone.yml, .gitlab-ci.yml)


def reader_for(path: str, head: str = "") -> str | None:
    """The kind of a file by its name (and its first line, for a script without an extension)."""
    name = os.path.basename(path)
    lower = name.lower()
    parts = Path(path).parts
    if lower in ("makefile", "gnumakefile") or lower.endswith(".mk"):
        return "makefile"
    if lower in ("justfile", ".justfile") or lower.endswith(".just"):
        return "justfile"
    if lower == "package.json":
        return "package.json"
    if lower in ("dockerfile", "containerfile") or lower.startswith("dockerfile."):
        return "dockerfile"
    if lower.endswith(".dockerfile"):
        return "dockerfile"
    if lower.endswith((".yml", ".yaml")) and (
        any(part in _CI_FOLDERS for part in parts[:-1])
        or lower.split(".")[0] in _CI_FILES
        or "gitlab-ci" in lower
    ):
        return "ci"
    if lower.endswith((".md", ".markdown")):
        return "markdown"
    if "history" in lower or lower in (".histfile",):
        return "history"
    if lower.endswith((".sh", ".bash", ".zsh", ".ksh")):
        return "shell"
    if head.startswith("#!") and re.search(r"\b(ba|z|k|da)?sh\b", head):
        return "shell"
    return None


# -- command lines -> Lines ------------------------------------------------------------------------


class _Commands(bashlex.ast.nodevisitor):
    def __init__(self) -> None:
        self.found: list[tuple[int, list[str]]] = []

    def visitcommand(self, node, parts):
        words = [p.word for p in parts if p.kind in ("word", "assignment")]
        self.found.append((node.pos[0], words))


def _commands(text: str) -> list[tuple[int, list[str]]]:
    """(offset, words) of every simple command in shell text; raises on text bashlex cannot parse."""
    visitor = _Commands()
    for tree in bashlex.parse(text):
        visitor.visit(tree)
    return visitor.found


def _operand(word: str) -> UsedOperand:
    variable = _VARIABLE.match(word)
    if variable:
        return variable_operand(variable.group(1))
    return value_operand(word)


def _line(words: list[str], *, where: str) -> Line:
    """A command's words (the program first) as a ``Line``; nothing of a value is kept."""
    bare: list[str] = []
    for word in words[1:]:
        if word.startswith("-") or not PATH_WORD.match(word):
            break
        bare.append(word)
    items: list[Word] = []
    ended = False
    for word in words[1 + len(bare) :]:
        if not ended and word == "--":
            ended = True
            items.append(Word("end"))
        elif not ended and word.startswith("-") and word != "-":
            head, eq, value = word.partition("=")
            if _SAFE_FLAG.match(head):
                items.append(Word("flag", head, _operand(value) if eq else None))
        else:
            items.append(Word("operand", operand=_operand(word)))
    # the leading words are kept as a candidate path: evidence_for keeps only what discovery knows
    return Line(tuple(bare), tuple(items), where)


def read_lines(
    tool: str, snippets: Iterable[Snippet], *, where: str
) -> tuple[list[Line], list[str]]:
    """The tool's command lines in shell snippets, and a reason for each snippet that did not parse."""
    tool = os.path.basename(tool)
    lines: list[Line] = []
    problems: list[str] = []
    for snippet in snippets:
        if tool not in snippet.text:
            continue
        try:
            found = _commands(snippet.text)
        except Exception as error:  # bashlex raises its own errors and sometimes others
            problems.append(f"line {snippet.line}: {_reason(error)}")
            continue
        for offset, words in found:
            words = strip_prefix(words)
            if words and tool_word(words[0]) == tool:
                number = snippet.line + snippet.text.count("\n", 0, offset)
                lines.append(_line(words, where=f"{where}:{number}"))
    return lines, problems


def _reason(error: Exception) -> str:
    text = str(error).splitlines()[0] if str(error) else type(error).__name__
    return f"not shell bashlex reads ({text[:120]})"


def lines_of(tool: str, text: str, *, kind: str, where: str) -> tuple[list[Line], list[str]]:
    """The tool's command lines in one file's text of a kind (``READERS``); reasons for what was not read."""
    try:
        snippets = READERS[kind](text)
    except _Unreadable as error:
        return [], [str(error)]
    if kind == "shell":
        lines, problems = read_lines(tool, snippets, where=where)
        if problems:  # a script bashlex cannot read whole: its lines, one by one
            numbered = list(enumerate(text.splitlines(), 1))
            lines, _ = read_lines(tool, _logical_lines(numbered), where=where)
            problems = [problems[0].split(": ", 1)[1] + "; its lines read one by one"]
        return lines, problems
    return read_lines(tool, snippets, where=where)


# -- files and folders -----------------------------------------------------------------------------


def _files(root: Path) -> Iterable[Path]:
    if root.is_file():
        yield root
        return
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
        for name in sorted(files):
            yield Path(folder) / name


def _text(path: Path) -> str | None:
    """The file's text, or None when it is large or binary."""
    try:
        if path.stat().st_size > MAX_BYTES:
            return None
        data = path.read_bytes()
    except OSError:
        return None
    if b"\0" in data[:8192]:
        return None
    return data.decode("utf-8", errors="replace")


def read_paths(
    tool: str, paths: Iterable[str | os.PathLike]
) -> tuple[list[Line], list[LocalUsageSkip]]:
    """The tool's command lines in the files and folders given, and what was skipped.

    A file named explicitly is read even if its kind is not known by name (as a shell script); in a
    folder only files of a known kind are. ``where`` is the file as named from the folder given
    (``repo/scripts/deploy.sh:12``), never an absolute path."""
    lines: list[Line] = []
    skipped: list[LocalUsageSkip] = []
    for given in paths:
        root = Path(given)
        if not root.exists():
            skipped.append(LocalUsageSkip(str(given), "no such file or folder"))
            continue
        explicit = root.is_file()
        base = root.parent if explicit else root
        label = root.name if explicit else (root.resolve().name or "/")
        for path in _files(root):
            shown = path.name if explicit else f"{label}/{path.relative_to(base).as_posix()}"
            text = _text(path)
            if text is None:
                if explicit:
                    skipped.append(LocalUsageSkip(shown, "a binary file, or larger than 1 MB"))
                continue
            kind = reader_for(str(path), text.split("\n", 1)[0])
            if kind is None:
                if not explicit:
                    continue
                kind = "shell"
            found, problems = lines_of(tool, text, kind=kind, where=shown)
            lines.extend(found)
            skipped.extend(LocalUsageSkip(shown, problem) for problem in problems)
    return lines, skipped


def identity(paths: Iterable[str | os.PathLike]) -> list[list[str]]:
    """The files ``read_paths`` would read, each with its sha256: an edited script is new evidence
    (``wrapgen batch``'s memo keys a conversion by it)."""
    import hashlib

    out = []
    for given in paths:
        root = Path(given)
        if not root.exists():
            out.append([str(given), ""])
            continue
        for path in _files(root):
            text = _text(path)
            if text is None or (
                not root.is_file() and reader_for(str(path), text.split("\n", 1)[0]) is None
            ):
                continue
            out.append([str(path), hashlib.sha256(text.encode("utf-8")).hexdigest()])
    return out
