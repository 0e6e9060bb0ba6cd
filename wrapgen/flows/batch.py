"""Batch conversion: many recipes -> many packs, in parallel, with ``--check`` for drift.

Each recipe goes through exactly the code path of ``wrapgen wrap --recipe`` (``wrapgen.flows.wrap``),
so ``wrapgen batch recipes/ -o adapters/`` and ``wrapgen wrap --recipe`` produce the same bytes.
Nothing here prints: ``run_batch`` returns a ``BatchResult`` and the command module renders it.

Decisions:
- a directory argument is searched recursively for ``*.yaml`` / ``*.yml``, skipping hidden
  directories and any subdirectory named ``examples`` (example tools are not on PATH and are not
  shipped packs); name ``recipes/examples`` itself to convert those;
- recipes run in worker *processes* (``--jobs``), forked after the conversion's modules and the
  pack schema validator are loaded, so a worker starts warm. Proposing, dumping and validating is
  CPU-bound Python that threads serialise on the GIL; ``bench/batch_speed.py`` measures both
  (``WRAPGEN_BATCH_EXECUTOR=thread`` selects threads);
- two recipes with the same pack id are both reported and neither is written;
- a broken recipe is reported and the rest of the batch goes on; the exit status is 1.
"""

from __future__ import annotations

import difflib
import os
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Iterable, Mapping, Sequence

from wrapgen.errors import ExitStatus, RecipeError, UsageError, WrapgenError
from wrapgen.fingerprint import source_fingerprint
from wrapgen.pack.recipe import Recipe

__all__ = [
    "Outcome",
    "BatchResult",
    "find_recipes",
    "convert_recipe",
    "run_batch",
    "override_warnings",
    "summary_table",
]


@dataclass(frozen=True)
class Outcome:
    """What one recipe produced: the pack files, or the error that stopped it."""

    source: str
    pack_id: str = ""
    files: Mapping[str, str] = field(default_factory=dict)  # relpath -> text, pack.yaml included
    verbs: int = 0
    warnings: tuple[str, ...] = ()  # about the recipe and the proposal: printed
    discovery_warnings: int = (
        0  # what discovery could not read: counted (`wrapgen discover` shows them)
    )
    error: str = ""
    hint: str = ""
    seconds: float = 0.0
    diffs: tuple[str, ...] = ()  # filled by run_batch: what a write changes / --check found
    cacheable: bool = (
        False  # discovery read everything (no probe timed out): the result may be memoized
    )
    memoized: bool = False  # taken from the conversion memo, not converted again
    drift: str = (
        ""  # the pack on disk against the tool discovered now, in one line (check/drift.py)
    )

    @property
    def ok(self) -> bool:
        return not self.error


@dataclass(frozen=True)
class BatchResult:
    outcomes: tuple[Outcome, ...]
    out_dir: str
    check: bool
    orphans: tuple[str, ...] = ()  # pack dirs under out_dir that no recipe produces
    seconds: float = 0.0

    @property
    def failed(self) -> tuple[Outcome, ...]:
        return tuple(o for o in self.outcomes if not o.ok)

    @property
    def drifted(self) -> tuple[Outcome, ...]:
        return tuple(o for o in self.outcomes if o.ok and o.diffs)

    @property
    def exit_status(self) -> int:
        return ExitStatus.FAILED if self.failed or (self.check and self.drifted) else ExitStatus.OK


# -- finding recipes -----------------------------------------------------------------------------

_SKIP_DIRS = {"examples"}


def _runner_files() -> frozenset[str]:
    """A task runner's own YAML (Taskfile.yml) in a repository a recipe points at is no recipe."""
    from wrapgen.knowledge.runners import KINDS, runner_files

    return frozenset(name for kind in KINDS for name in runner_files(kind))


def find_recipes(paths: Sequence[str | os.PathLike]) -> list[Path]:
    """Recipe files in the order given, directories expanded (sorted, recursive); no duplicates."""
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            for dirpath, dirnames, filenames in os.walk(path):
                dirnames[:] = sorted(
                    d for d in dirnames if not d.startswith(".") and d not in _SKIP_DIRS
                )
                found += [
                    Path(dirpath) / f
                    for f in sorted(filenames)
                    if f.endswith((".yaml", ".yml")) and f not in _runner_files()
                ]
        elif path.exists():
            found.append(path)
        else:
            raise UsageError(
                f"{raw} does not exist",
                hint="pass recipe files or directories holding *.yaml recipes",
            )
    unique: list[Path] = []
    seen: set[Path] = set()
    for path in found:
        key = path.resolve()
        if key not in seen:
            seen.add(key)
            unique.append(path)
    return unique


# -- override warnings -----------------------------------------------------------------------------


def _closest(word: str, options: Iterable[str]) -> str:
    close = difflib.get_close_matches(word, list(options), n=1, cutoff=0.5)
    return f" (closest: {close[0]})" if close else ""


def override_warnings(
    recipe: Recipe, tool, manifest: Mapping, *, decisions: Sequence = ()
) -> list[str]:
    """What a recipe names that the tool (or the proposal) no longer has, with the closest existing name.

    ``decisions`` are the proposal's (path text and final name of each chosen command): an override
    is keyed by the name before its own ``name:`` renamed it.
    """
    from wrapgen.propose.args import arg_name, positional_arg_name
    from wrapgen.propose.operands import operands as propose_operands

    warnings: list[str] = []
    if tool is None:
        return warnings
    root = tool.root
    path_texts = [" ".join(c.path) for c in root.walk() if c.path]

    def check_path(path: tuple[str, ...], where: str) -> bool:
        if path and root.find(path) is None:
            warnings.append(
                f"{where} `{' '.join(path)}` is not a subcommand of {recipe.tool} any more"
                f"{_closest(' '.join(path), path_texts)}"
            )
            return False
        return True

    def check_args(spec, command, where: str, produced=()) -> None:
        if command is None:
            return
        # the operands the proposal offers (a usage line's repeat marks read, words that are no operand out)
        operands = propose_operands(command)
        flags = tuple(command.flags) + tuple(command.global_flags)
        names = (
            {arg_name(f) for f in flags}
            | {positional_arg_name(p) for p in operands}
            | set(produced)
        )
        norm = lambda s: s.lower().replace("-", "_").lstrip("_")  # noqa: E731 - as propose.args matches
        known = {norm(n) for n in names} | {norm(s) for f in flags for s in f.spellings}
        known |= {norm(p.name) for p in operands}
        for key, values in (
            ("args.include", spec.include_args),
            ("args.exclude", spec.exclude_args),
            ("positional_order", spec.positional_order),
        ):
            for value in values or ():
                if norm(value) not in known:
                    warnings.append(
                        f"{where} {key} names `{value}`, which `{' '.join(command.path) or recipe.tool}` "
                        f"does not have (any more){_closest(value, sorted(names))}"
                    )

    for i, spec in enumerate(recipe.commands or ()):
        if check_path(spec.path, f"commands[{i}]"):
            check_args(spec, root.find(spec.path), f"commands[{i}] `{spec.path_text}`:")
    for path in recipe.exclude:
        check_path(path, "exclude:")
    verbs = set(manifest.get("verbs") or {})
    path_of = {d.name: d.path for d in decisions if getattr(d, "chosen", False)}
    for name, spec in recipe.overrides.items():
        final = spec.name or name
        if final not in verbs:
            warnings.append(
                f"override `{name}` names no proposed command{_closest(name, sorted(verbs))}; "
                f"it was not applied"
            )
            continue
        words = tuple(w for w in path_of.get(final, "").split() if not w.startswith("-"))
        produced = ((manifest["verbs"][final].get("args") or {}).get("properties")) or {}
        check_args(spec, root.find(words) if words else root, f"override `{name}`:", produced)
    return warnings


# -- converting ------------------------------------------------------------------------------------


def _root_lacks(tool, path: tuple[str, ...]) -> bool:
    return tool is not None and bool(path) and tool.root.find(path) is None


class _Capture:
    """A ``discover`` for ``wrap()`` that keeps the Tool it returns (override warnings need it).

    With ``pin``, the pack on disk there: where the tool's help is the one the pack was made from
    and only its version line changed (the patch release of a library the line names), the Tool is
    given the recorded line, so that ``--check`` compares what wrapgen makes of the same help, not
    the machine's patch level; ``repinned`` keeps the line the tool prints now, and ``drift`` the
    drift of the tool as discovered against that pack (what the batch reports, computed once).
    """

    def __init__(self, tool=None, discover=None, pin: Path | None = None):
        self.tool = tool
        self.discover = discover  # None: discovery from the tool's help
        self.pin = pin
        self.repinned = ""
        self.drift = None

    def __call__(self, *args, **kwargs):
        if self.tool is None:
            discover = self.discover
            if discover is None:
                from wrapgen.probe.discover import discover
            self.tool = self._pinned(discover(*args, **kwargs))
        return self.tool

    def _pinned(self, tool):
        if self.pin is None:
            return tool
        from wrapgen.flows.drift import drift_against

        self.drift = drift_against(self.pin, tool)
        if self.drift is None or self.drift.level != "metadata":
            return tool
        self.repinned = tool.version
        return replace(tool, version=self.drift.old_version)


def convert_recipe(
    path: str | os.PathLike, *, out_dir: str | os.PathLike = "adapters", check: bool = False
) -> Outcome:
    """One recipe -> its pack files through ``wrapgen.flows.wrap.wrap`` (what ``wrap --recipe`` runs). Never raises.

    ``wrap`` runs with ``check=True`` so that the worker writes nothing: the batch decides what to
    write once every recipe is in (duplicate pack ids are written by neither). ``check`` (batch
    ``--check``): a tool whose help is the pack's but whose version line changed is compared as
    made from the recorded line, and the new line is a warning (``_Capture``).
    """
    start = time.perf_counter()
    source = str(path)
    pack_id = ""
    try:
        from wrapgen.flows.wrap import wrap
        from wrapgen.pack.recipe import load_recipe

        recipe = load_recipe(path)
        pack_id = recipe.resolved_pack_id
        from wrapgen.probe.runners import runner_discovery

        # a task runner's recipe (`runner: {dir:}`) reads the repository's targets instead of the help
        capture = _Capture(
            discover=runner_discovery(
                recipe.tool,
                recipe.runner_dir,
                file=recipe.runner_file,
                explicit=recipe.runner_dir is not None,
            ),
            pin=Path(out_dir) / pack_id if check else None,
        )
        result = wrap(recipe=recipe, out_dir=out_dir, check=True, discover=capture)
        manifest = result.proposal.manifest
        discovery = set(capture.tool.warnings) if capture.tool is not None else set()
        warnings = override_warnings(
            recipe, capture.tool, manifest, decisions=result.proposal.decisions
        )
        # propose() also notes a listed path it cannot find; the warning above says it with the closest name.
        said = {
            f"'{spec.path_text}'"
            for spec in recipe.commands or ()
            if _root_lacks(capture.tool, spec.path)
        }
        warnings += [
            w
            for w in result.proposal.warnings
            if w not in discovery
            and not (w.startswith("recipe names ") and any(s in w for s in said))
        ]
        warnings += [d.format() for d in result.findings if d.level == "warning"]
        if capture.repinned:
            warnings.append(
                f"{recipe.tool}: its version line is now {capture.repinned!r}, with the help the "
                "pack was made from: --check compared the pack as made from the recorded line; "
                f"`wrapgen batch` records the new one"
            )
        errors = [d.format() for d in result.findings if d.level == "error"]
        if errors:
            return Outcome(
                source=source,
                pack_id=result.pack_id,
                verbs=len(manifest["verbs"]),
                error="the pack fails wrapgen check:" + "".join(f"\n    {e}" for e in errors),
                hint="fix the recipe (overrides) so that the pack passes check",
                seconds=time.perf_counter() - start,
            )
        from wrapgen.flows.drift import drift_against

        if capture.pin == result.pack_dir:
            drift = capture.drift  # (the tool as discovered, before it was given the recorded line)
        else:
            drift = (
                drift_against(result.pack_dir, capture.tool) if capture.tool is not None else None
            )
        return Outcome(
            source=source,
            pack_id=result.pack_id,
            files=dict(result.files),
            drift=drift.summary() if drift is not None else "",
            verbs=len(manifest["verbs"]),
            warnings=tuple(dict.fromkeys(warnings)),
            discovery_warnings=len(discovery),
            seconds=time.perf_counter() - start,
            # A probe that timed out may answer next time: such a result is not worth keeping; nor
            # is one made from a recorded version line, which a later write must not take.
            cacheable=not any("did not finish" in w for w in discovery) and not capture.repinned,
        )
    except WrapgenError as error:
        details = [d.format() for d in error.diagnostics]
        message = error.message + "".join(f"\n    {d}" for d in details)
        return Outcome(
            source=source,
            pack_id=pack_id,
            error=message,
            hint=error.hint,
            seconds=time.perf_counter() - start,
        )
    except Exception as error:  # a bug in one recipe's conversion must not sink the batch
        return Outcome(
            source=source,
            pack_id=pack_id,
            error=f"internal error: {type(error).__name__}: {error}",
            hint="this is a bug in wrapgen; please report it with the recipe",
            seconds=time.perf_counter() - start,
        )


def _convert_group(
    paths: Sequence[Path], out_dir: str | os.PathLike, check: bool = False
) -> list[Outcome]:
    return [convert_recipe(path, out_dir=out_dir, check=check) for path in paths]


def _tool_identity(path: Path):
    """The ``ToolRef`` a recipe names (None when it cannot be read: its conversion will say why)."""
    import yaml

    from wrapgen.pack.recipe import resolve_tool

    try:
        data = yaml.safe_load(path.read_bytes())
        recipe = Recipe(
            tool=data["tool"],
            search_paths=tuple(
                str((path.resolve().parent / p).resolve()) for p in data.get("search_paths") or ()
            ),
            source_path=str(path),
        )
        return resolve_tool(recipe)
    except Exception:
        return None


def _duplicates(outcomes: Sequence[Outcome]) -> list[Outcome]:
    by_id: dict[str, list[int]] = {}
    for i, outcome in enumerate(outcomes):
        if outcome.ok:
            by_id.setdefault(outcome.pack_id, []).append(i)
    out = list(outcomes)
    for pack_id, indexes in by_id.items():
        if len(indexes) < 2:
            continue
        sources = [outcomes[i].source for i in indexes]
        for i in indexes:
            others = ", ".join(s for s in sources if s != outcomes[i].source)
            out[i] = Outcome(
                source=outcomes[i].source,
                pack_id=pack_id,
                seconds=outcomes[i].seconds,
                error=f"pack id {pack_id!r} is also produced by {others}; neither was written",
                hint="give each recipe its own `pack_id:`",
            )
    return out


def _orphans(out_dir: Path, produced: set[str]) -> tuple[str, ...]:
    if not out_dir.is_dir():
        return ()
    return tuple(
        sorted(
            d.name
            for d in out_dir.iterdir()
            if d.is_dir() and (d / "pack.yaml").is_file() and d.name not in produced
        )
    )


# -- the conversion memo -------------------------------------------------------------------------------
#
# Converting a recipe is a pure function of the recipe's bytes, the tool binary, wrapgen's own code
# and where the tool is found on PATH. The memo keys a finished conversion by exactly those, so an
# unchanged batch (``--check`` in CI, or a rerun) does not propose again. Any edit to the recipe,
# a reinstalled tool, or a change to any file of wrapgen gives a new key. ``--no-cache`` bypasses it.

_MEMO_FORMAT = 1


def _memo_key(path: Path, out_dir: str | os.PathLike) -> str | None:
    import hashlib
    import json

    import yaml

    tool = _tool_identity(path)
    try:
        raw = path.read_bytes()
        data = yaml.safe_load(raw)
        stat = os.stat(tool.path)
    except Exception:  # anything odd: no memo, the real conversion reports it properly
        return None
    identity = {
        "format": _MEMO_FORMAT,
        "code": source_fingerprint(),
        "recipe": str(path.resolve()),
        "bytes": hashlib.sha256(raw).hexdigest(),
        "tool": [tool.path, stat.st_size, stat.st_mtime_ns],
        "bin": tool.bin,  # (the name where PATH finds it: what pack.yaml names)
        "runner": _runner_identity(path, data),
        "usage": _usage_identity(path, data),
        "out": str(Path(out_dir).resolve()),
    }
    return hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()


def _runner_identity(path: Path, data) -> list:
    """A runner recipe's repository files (their sha256): an edited Makefile is a new conversion."""
    runner = data.get("runner") if isinstance(data, dict) else None
    if not isinstance(runner, dict) or not isinstance(runner.get("dir"), str):
        return []
    from wrapgen.probe.runners import repository_identity

    file = runner.get("file") if isinstance(runner.get("file"), str) else None
    return repository_identity(str(data["tool"]), path.resolve().parent / runner["dir"], file=file)


def _usage_identity(path: Path, data) -> list:
    """A recipe's ``usage_from:`` files (their sha256): an edited script is a new conversion."""
    paths = data.get("usage_from") if isinstance(data, dict) else None
    if not isinstance(paths, list) or not paths:
        return []
    from wrapgen.usage.local import identity

    return identity(path.resolve().parent / str(p) for p in paths)


def _memo_path(key: str) -> Path:
    from wrapgen.probe.cache import cache_dir

    return cache_dir() / "batch" / f"{key}.json"


def _memo_load(key: str | None, source: str) -> Outcome | None:
    import json

    if key is None:
        return None
    try:
        data = json.loads(_memo_path(key).read_text(encoding="utf-8"))
        return Outcome(
            source=source,
            pack_id=data["pack_id"],
            files=data["files"],
            verbs=data["verbs"],
            warnings=tuple(data["warnings"]),
            discovery_warnings=data["discovery_warnings"],
            memoized=True,
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _memo_store(key: str | None, outcome: Outcome) -> None:
    import json
    import tempfile

    if key is None or not outcome.ok or not outcome.cacheable:
        return
    data = {
        "pack_id": outcome.pack_id,
        "files": dict(outcome.files),
        "verbs": outcome.verbs,
        "warnings": list(outcome.warnings),
        "discovery_warnings": outcome.discovery_warnings,
    }
    target = _memo_path(key)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(dir=target.parent, prefix=".memo-", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(data, handle)
        os.replace(temp, target)
    except OSError:
        pass  # a read-only cache only costs speed


def _preload() -> None:
    """Import the conversion's modules before forking, so worker processes start with them loaded."""
    import wrapgen.check.rules  # noqa: F401
    import wrapgen.flows.wrap  # noqa: F401
    import wrapgen.probe.discover  # noqa: F401
    from wrapgen.pack import manifest as pack

    # The schema validator is built once per process (an lru_cache); build it before the fork too.
    getattr(pack, "_validator", pack.pack_schema)()


Progress = Callable[[int, int, Outcome], None]


def run_batch(
    paths: Sequence[str | os.PathLike],
    *,
    out_dir: str | os.PathLike = "adapters",
    jobs: int | None = None,
    check: bool = False,
    progress: Progress | None = None,
    executor: str | None = None,
    memo: bool = True,
) -> BatchResult:
    """Convert every recipe; write (or, with ``check``, diff) the packs under ``out_dir``.

    ``executor`` is ``process`` (the default) or ``thread``; ``WRAPGEN_BATCH_EXECUTOR`` sets it too,
    so that ``bench/batch_speed.py`` can measure both.
    """
    from wrapgen.pack.emit import write_files

    executor = executor or os.environ.get("WRAPGEN_BATCH_EXECUTOR") or "process"
    if executor not in ("process", "thread"):
        raise UsageError(f"unknown batch executor {executor!r}", hint="use process or thread")

    start = time.perf_counter()
    recipes = find_recipes(paths)
    if not recipes:
        raise RecipeError(
            f"no recipes (*.yaml) found in {', '.join(str(p) for p in paths)}",
            hint="pass recipe files, or a directory that holds them",
        )
    results: dict[int, Outcome] = {}
    # Without ``memo`` every recipe converts again, and the fresh results still refresh the memo.
    keys = {i: _memo_key(path, out_dir) for i, path in enumerate(recipes)}
    for i, path in enumerate(recipes):
        hit = _memo_load(keys[i], str(path)) if memo else None
        if hit is not None:
            results[i] = hit
            if progress:
                progress(len(results), len(recipes), hit)
    todo = [i for i in range(len(recipes)) if i not in results]
    jobs = max(1, min(jobs or os.cpu_count() or 1, len(todo) or 1))
    if jobs == 1:
        for i in todo:
            results[i] = convert_recipe(recipes[i], out_dir=out_dir, check=check)
            if progress:
                progress(len(results), len(recipes), results[i])
    else:
        # Imported here: an unchanged batch (every recipe memoized) never starts a pool.
        from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor, as_completed

        pool_class = ProcessPoolExecutor if executor == "process" else ThreadPoolExecutor
        if executor == "process":
            _preload()
        # Recipes of one tool run one after another in the same task: the first fills the
        # discovery cache and the others read it, instead of two workers crawling the same tool.
        groups: dict[str, list[int]] = {}
        for i in todo:
            ref = _tool_identity(recipes[i])
            groups.setdefault(f"#{i}" if ref is None else ref.path, []).append(i)
        with pool_class(max_workers=jobs) as pool:
            futures = {
                pool.submit(_convert_group, [recipes[i] for i in group], out_dir, check): group
                for group in sorted(groups.values(), key=len, reverse=True)
            }
            for future in as_completed(futures):
                for i, outcome in zip(futures[future], future.result()):
                    results[i] = outcome
                    if progress:
                        progress(len(results), len(recipes), outcome)
    for i in todo:
        _memo_store(keys[i], results[i])
    outcomes = _duplicates([results[i] for i in range(len(recipes))])
    out = Path(out_dir)
    final: list[Outcome] = []
    for outcome in outcomes:
        if not outcome.ok:
            final.append(outcome)
            continue
        try:
            diffs = write_files(out / outcome.pack_id, outcome.files, check=check)
        except WrapgenError as error:
            final.append(
                Outcome(
                    source=outcome.source,
                    pack_id=outcome.pack_id,
                    error=error.message,
                    hint=error.hint,
                    seconds=outcome.seconds,
                )
            )
            continue
        final.append(Outcome(**{**outcome.__dict__, "diffs": tuple(diffs)}))
    produced = {o.pack_id for o in outcomes if o.pack_id}
    return BatchResult(
        outcomes=tuple(final),
        out_dir=str(out),
        check=check,
        orphans=_orphans(out, produced),
        seconds=time.perf_counter() - start,
    )


# -- rendering (pure: the command module prints) ----------------------------------------------------


def summary_table(result: BatchResult) -> str:
    """pack | verbs | warnings | time | status, one row per recipe, in recipe order."""
    rows = [("pack", "verbs", "warnings", "time", "status")]
    for o in result.outcomes:
        if not o.ok:
            status = "FAILED"
        elif result.check:
            status = "differs" if o.diffs else "up to date"
        else:
            status = "written" if o.diffs else "unchanged"
        rows.append(
            (
                o.pack_id or Path(o.source).stem,
                str(o.verbs) if o.ok else "-",
                str(len(o.warnings)),
                "cached" if o.memoized else f"{o.seconds:.1f}s",
                status,
            )
        )
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = [
        "  ".join(
            cell.ljust(w) if i in (0, 4) else cell.rjust(w)
            for i, (cell, w) in enumerate(zip(row, widths))
        ).rstrip()
        for row in rows
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)
