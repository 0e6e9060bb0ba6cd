"""The discovered tool: frozen, versioned dataclasses.

``wrapgen discover --format json`` prints ``Tool.to_dict()``. The parsers
return a ``Command`` whose ``subcommands`` are *stubs* (name, summary, group
only, ``stub=True``); the crawl replaces each stub with the command it
discovers by probing that subcommand.

Bump ``MODEL_VERSION`` on any change to the shape of ``to_dict()``.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields, replace
from typing import Any

__all__ = [
    "MODEL_VERSION",
    "VALUE_TYPES",
    "Flag",
    "Positional",
    "Command",
    "Tool",
]

MODEL_VERSION = 1

# The type guesses a flag value or positional may carry.
VALUE_TYPES = ("string", "integer", "number", "boolean", "path", "enum")


def _drop_defaults(obj: Any) -> dict:
    """to_dict() of a dataclass, leaving out fields at their default (stable, compact JSON)."""
    out: dict[str, Any] = {}
    for f in fields(obj):
        value = getattr(obj, f.name)
        default = f.default_factory() if f.default_factory is not MISSING else f.default
        if value == default and f.name not in _ALWAYS:
            continue
        if isinstance(value, tuple):
            value = [v.to_dict() if hasattr(v, "to_dict") else v for v in value]
        out[f.name] = value
    return out


_ALWAYS = {"path", "name"}


@dataclass(frozen=True)
class Flag:
    """An option: ``-a, --all``, ``--color[=WHEN]``, ``-o FILE``."""

    long: str | None = None  # "--all" (with dashes); None when the flag has only a short form
    short: str | None = None  # "-a"
    aliases: tuple[str, ...] = ()  # other spellings: "--colour", "-all" (single-dash long)
    takes_value: bool = False
    value_optional: bool = False  # "--color[=WHEN]": the value may be omitted
    value_name: str | None = None  # "WHEN", "FILE"
    type: str = "boolean"  # one of VALUE_TYPES; "boolean" when takes_value is False
    choices: tuple[str, ...] = ()
    default: str | None = None  # as the help text says it, e.g. "auto"
    repeatable: bool = False
    required: bool = False
    deprecated: bool = False
    hidden: bool = False
    description: str = ""
    # Listed under a heading that names what the tool does, not how ("Main operation mode:" of tar,
    # "Operation mode:" of xz, gpg's "Commands:"): the option selects an operation.
    operation: bool = False

    @property
    def spelling(self) -> str:
        """The canonical spelling with its dashes: the long one, else the short one, else the first
        other (``-ps``: a single-dash word is neither long nor short)."""
        return self.long or self.short or (self.aliases[0] if self.aliases else "")

    @property
    def name(self) -> str:
        """The canonical spelling without dashes: ``all`` for ``--all``, ``a`` for ``-a`` alone."""
        return self.spelling.lstrip("-")

    @property
    def spellings(self) -> tuple[str, ...]:
        """Every spelling, the long one first: ``("--all", "-a", "--every")``."""
        long, short = self.long, self.short
        if not self.aliases:  # (the common case, asked for every flag of every page: no generator)
            return (
                (long, short) if long and short else (long,) if long else (short,) if short else ()
            )
        return tuple(s for s in (long, short, *self.aliases) if s)

    def to_dict(self) -> dict:
        out = _drop_defaults(self)
        out["name"] = self.name
        return out

    @classmethod
    def from_dict(cls, data: dict) -> "Flag":
        data = {k: v for k, v in data.items() if k != "name"}
        for key in ("aliases", "choices"):
            if key in data:
                data[key] = tuple(data[key])
        return cls(**data)


@dataclass(frozen=True)
class Positional:
    """An operand: ``<path>``, ``[FILE]...``."""

    name: str
    required: bool = True
    variadic: bool = False
    type: str = "string"
    choices: tuple[str, ...] = ()
    description: str = ""

    def to_dict(self) -> dict:
        return _drop_defaults(self)

    @classmethod
    def from_dict(cls, data: dict) -> "Positional":
        data = dict(data)
        if "choices" in data:
            data["choices"] = tuple(data["choices"])
        return cls(**data)


@dataclass(frozen=True)
class Command:
    """One node of the tool's command tree; the root has ``path == ()``."""

    path: tuple[str, ...] = ()
    summary: str = ""  # one line, from the parent's listing or the help's first line
    description: str = ""  # longer text, when the help has it
    usage: tuple[str, ...] = ()  # usage lines as printed (without the "Usage:" label)
    flags: tuple[Flag, ...] = ()  # the command's own flags
    global_flags: tuple[Flag, ...] = ()  # inherited / global flags, kept apart
    positionals: tuple[Positional, ...] = ()
    subcommands: tuple["Command", ...] = ()
    aliases: tuple[str, ...] = ()  # other names of this subcommand ("ls" for "list")
    group: str = ""  # the heading the parent listed it under: "Core commands", "Common Commands"
    examples: tuple[str, ...] = ()  # example command lines from the help
    deprecated: bool = False
    hidden: bool = False
    stub: bool = False  # True: known only from the parent's listing, not probed yet
    probe: tuple[
        str, ...
    ] = ()  # argv (after the bin) that produced this help: ("pr", "list", "--help")
    parser: str = ""  # the parser that read it: "gnu", "argparse", "click", "cobra", "clap", "git", "man", "docopt", "symfony", "kingpin", "urfave"
    # The root's short help lists it where a fuller listing (`git help -a`, `cargo --list`) has more:
    # the tool's own pick of its common commands.
    common: bool = False
    # What its exit statuses mean, as its help or man page says ("EXIT STATUS"): ((1, "no lines were
    # selected"), ...), sorted by code; read by wrapgen.parse.exit_status. Serialised as {"1": ...}.
    exit_status: tuple[tuple[int, str], ...] = ()
    # Whether the command reads a literal "--" as the end of its options: True where its grammar says
    # so (a usage line shows "[--]" or " -- ", the help lists "--", its parser family always takes it)
    # or a trial showed it; False where the grammar shows "--" would reach it as an operand (a shell
    # script's dispatch with no "--)" arm); None where nothing says (hand-rolled parsers: a trial
    # decides). Read by wrapgen.parse.double_dash; the proposal writes "--" into cli[] only where the
    # command takes it, and without it a dashed operand value stays refused (docs/contract.md §5).
    double_dash: bool | None = None

    @property
    def name(self) -> str:
        return self.path[-1] if self.path else ""

    def walk(self):
        """This command and every descendant, depth first, in order."""
        yield self
        for sub in self.subcommands:
            yield from sub.walk()

    def find(self, path: tuple[str, ...] | list[str]) -> "Command | None":
        """The command at ``path``: down the tree word by word (a word may be an alias), or else the
        one whose path it is wherever the help listed it (an oclif topic's help lists its commands,
        ``accounts:add``, whose path does not extend the topic's)."""
        target = tuple(path)
        node: Command | None = self
        if target[: len(self.path)] == self.path:
            for part in target[len(self.path) :]:
                node = next(
                    (s for s in node.subcommands if s.name == part or part in s.aliases), None
                )
                if node is None:
                    break
            else:
                return node
        return next((n for n in self.walk() if n.path == target), None)

    def with_changes(self, **changes) -> "Command":
        return replace(self, **changes)

    def to_dict(self) -> dict:
        out = _drop_defaults(self)
        out["path"] = list(self.path)
        if self.exit_status:
            out["exit_status"] = {str(code): meaning for code, meaning in self.exit_status}
        return out

    @classmethod
    def from_dict(cls, data: dict) -> "Command":
        data = dict(data)
        data["path"] = tuple(data.get("path", ()))
        for key in ("usage", "aliases", "examples", "probe"):
            if key in data:
                data[key] = tuple(data[key])
        data["flags"] = tuple(Flag.from_dict(f) for f in data.get("flags", ()))
        data["global_flags"] = tuple(Flag.from_dict(f) for f in data.get("global_flags", ()))
        data["positionals"] = tuple(Positional.from_dict(p) for p in data.get("positionals", ()))
        data["subcommands"] = tuple(Command.from_dict(c) for c in data.get("subcommands", ()))
        if "exit_status" in data:
            data["exit_status"] = tuple(
                sorted((int(code), str(meaning)) for code, meaning in data["exit_status"].items())
            )
        return cls(**data)


@dataclass(frozen=True)
class Tool:
    """A discovered tool: its root command plus where it came from."""

    name: str  # as invoked: "git", "rg", "./scripts/deploy.sh"
    root: Command = field(default_factory=Command)
    path: str = ""  # the resolved executable
    version: str = ""  # first line of --version, when it gave one
    warnings: tuple[str, ...] = ()  # what discovery could not read, in words a person can act on
    model_version: int = MODEL_VERSION

    def to_dict(self) -> dict:
        return {
            "model_version": self.model_version,
            "name": self.name,
            "path": self.path,
            "version": self.version,
            "warnings": list(self.warnings),
            "root": self.root.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: dict) -> "Tool":
        version = data.get("model_version")
        if version != MODEL_VERSION:
            raise ValueError(f"model_version {version!r} is not {MODEL_VERSION}")
        return cls(
            name=data["name"],
            root=Command.from_dict(data.get("root", {})),
            path=data.get("path", ""),
            version=data.get("version", ""),
            warnings=tuple(data.get("warnings", ())),
        )
