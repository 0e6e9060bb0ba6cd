"""Check rules about what a caller or a pack can slip past the runtime's guards (issue 12).

Codes (all registered here; the README's check-code table lists them too):

- ``W050`` error: a schema ``default`` or ``const`` on ``confirm`` or ``apply``. The gate must read
  only the caller's own args (docs/contract.md §9); a default would open it with nobody asking.
- ``W051`` error: a relative ``bin`` (``./tool``, ``bin/tool``, ``~/bin/tool``): what runs would
  depend on the working directory of whoever calls the pack. A bare name (found on PATH) or an
  absolute path is fine.
- ``W052`` error: a schema ``pattern`` that can backtrack catastrophically (nested quantifiers such
  as ``(a+)+`` or ``(.*)*``, or a quantified alternation whose branches overlap such as ``(a|a)*``),
  or one Python's ``re`` cannot compile. Python's regex engine holds the GIL while it matches: one
  such argument freezes ``wrapgen serve`` for every client.
- ``W053`` error: a string schema with a ``pattern`` that holds an unbounded quantifier (``*``,
  ``+``, ``{n,}``) but no ``maxLength``. Why an error and not a warning: W052 catches the
  exponential cases, but a polynomial one (``\\s*\\S+\\s*x`` is quadratic) still takes hours on the
  1 MiB an MCP call may carry; ``maxLength`` bounds it. A pattern without an unbounded quantifier
  (``^[^@]``) is matched in time linear in the input (and constant when anchored), so it needs no
  ``maxLength`` and gets no finding.

``pattern_danger`` is public: ``wrapgen serve`` refuses a pack whose patterns it flags.
"""

from __future__ import annotations

import re
from typing import Iterator, Mapping

from wrapgen.check.registry import PackContext, rule

try:  # Python 3.11+
    import re._constants as _c
    import re._parser as _parser
except ImportError:  # pragma: no cover - older Pythons
    import sre_constants as _c  # type: ignore[no-redef]
    import sre_parse as _parser  # type: ignore[no-redef]

__all__ = ["GATE_ARGS", "pattern_danger", "pattern_unbounded", "schema_patterns"]

GATE_ARGS = ("confirm", "apply")
# A bounded repeat with more iterations than this counts as unbounded: (a+){1,1000} is as bad as (a+)+.
_LARGE_REPEAT = 16
# The characters first-sets are computed over: enough to tell [a-z] from '-' and \w from \s.
_UNIVERSE = frozenset(range(256)) | frozenset(map(ord, "é\u00a0ж中\u2028😀"))
_REPEATS = (_c.MAX_REPEAT, _c.MIN_REPEAT)
_SINGLE = (_c.LITERAL, _c.NOT_LITERAL, _c.ANY, _c.IN)


def _category_set(name) -> frozenset[int]:
    probe = {
        "CATEGORY_DIGIT": r"\d",
        "CATEGORY_NOT_DIGIT": r"\D",
        "CATEGORY_SPACE": r"\s",
        "CATEGORY_NOT_SPACE": r"\S",
        "CATEGORY_WORD": r"\w",
        "CATEGORY_NOT_WORD": r"\W",
    }.get(str(name))
    if probe is None:
        return _UNIVERSE
    compiled = re.compile(probe)
    return frozenset(c for c in _UNIVERSE if compiled.match(chr(c)))


def _in_set(items) -> frozenset[int]:
    chars: set[int] = set()
    negate = False
    for op, av in items:
        if op is _c.NEGATE:
            negate = True
        elif op is _c.LITERAL:
            chars.add(av)
        elif op is _c.RANGE:
            low, high = av
            chars.update(c for c in _UNIVERSE if low <= c <= high)
            chars.update((low, high))
        elif op is _c.CATEGORY:
            chars |= _category_set(av)
        else:  # anything unexpected: assume it may match anything
            return _UNIVERSE
    return frozenset(_UNIVERSE - chars) if negate else frozenset(chars)


def _first(seq) -> tuple[frozenset[int], bool]:
    """(the characters a match of ``seq`` may start with, whether it may match the empty string)."""
    out: set[int] = set()
    for op, av in seq:
        chars, nullable = _first_item(op, av)
        out |= chars
        if not nullable:
            return frozenset(out), False
    return frozenset(out), True


def _first_item(op, av) -> tuple[frozenset[int], bool]:
    if op is _c.LITERAL:
        return frozenset((av,)), False
    if op is _c.NOT_LITERAL:
        return _UNIVERSE - {av}, False
    if op is _c.ANY:
        return _UNIVERSE, False
    if op is _c.IN:
        return _in_set(av), False
    if op is _c.CATEGORY:
        return _category_set(av), False
    if op in _REPEATS or op is getattr(_c, "POSSESSIVE_REPEAT", None):
        low, _high, body = av
        chars, nullable = _first(body)
        return chars, nullable or low == 0
    if op is _c.SUBPATTERN:
        return _first(av[-1])
    if op is getattr(_c, "ATOMIC_GROUP", None):
        return _first(av)
    if op is _c.BRANCH:
        chars: set[int] = set()
        nullable = False
        for alternative in av[1]:
            alt_chars, alt_nullable = _first(alternative)
            chars |= alt_chars
            nullable = nullable or alt_nullable
        return frozenset(chars), nullable
    if op in (_c.AT, _c.ASSERT, _c.ASSERT_NOT):
        return frozenset(), True  # zero-width
    return _UNIVERSE, True  # back-references and the like: anything, maybe nothing


def _unbounded(high) -> bool:
    return high is _c.MAXREPEAT or high == _c.MAXREPEAT or high > _LARGE_REPEAT


def _walk(seq, follow: frozenset[int], depth: int) -> str | None:
    """Why ``seq`` can backtrack exponentially, or None.

    ``follow`` is what may come right after ``seq``; ``depth`` counts the unbounded repeats around it.
    """
    seq = list(seq)
    for index, (op, av) in enumerate(seq):
        rest_chars, rest_nullable = _first(seq[index + 1 :])
        after = rest_chars | follow if rest_nullable else rest_chars
        if op is getattr(_c, "POSSESSIVE_REPEAT", None) or op is getattr(_c, "ATOMIC_GROUP", None):
            continue  # no backtracking into it
        if op in _REPEATS:
            low, high, body = av
            body_first, body_nullable = _first(body)
            variable = high != low
            if depth and variable and (body_first & after or body_nullable):
                return "a quantifier inside a quantifier, with nothing telling where one repetition ends"
            inner_follow = (body_first | after) if high != 1 else after
            why = _walk(body, inner_follow, depth + (1 if _unbounded(high) else 0))
            if why:
                return why
        elif op is _c.SUBPATTERN:
            why = _walk(av[-1], after, depth)
            if why:
                return why
        elif op is _c.BRANCH:
            alternatives = []
            for alternative in av[1]:
                chars, nullable = _first(alternative)
                alternatives.append(chars | after if nullable else chars)
            if depth:
                for i in range(len(alternatives)):
                    for j in range(i + 1, len(alternatives)):
                        if alternatives[i] & alternatives[j]:
                            return "a quantified alternation whose branches can match the same text"
            for alternative in av[1]:
                why = _walk(alternative, after, depth)
                if why:
                    return why
        elif op in (_c.ASSERT, _c.ASSERT_NOT):
            why = _walk(av[1], frozenset(), depth)
            if why:
                return why
    return None


def pattern_danger(pattern) -> str | None:
    """Why matching ``pattern`` can take exponential time (or why it is no regex at all), or None."""
    if not isinstance(pattern, str):
        return "a pattern must be a string"
    try:
        parsed = _parser.parse(pattern)
    except (re.error, RecursionError, OverflowError, ValueError) as error:
        return f"Python's re cannot compile it ({error})"
    try:
        return _walk(parsed.data if hasattr(parsed, "data") else parsed, frozenset(), 0)
    except RecursionError:
        return "it is nested too deeply to analyse"


def pattern_unbounded(pattern: str) -> bool:
    """Whether the pattern holds an unbounded (or large) quantifier, so its match time can grow faster than its input."""
    try:
        parsed = _parser.parse(pattern)
    except (re.error, RecursionError, OverflowError, ValueError):
        return True

    def walk(seq) -> bool:
        for op, av in seq:
            if op in _REPEATS or op is getattr(_c, "POSSESSIVE_REPEAT", None):
                if _unbounded(av[1]) or walk(av[2]):
                    return True
            elif op is _c.SUBPATTERN and walk(av[-1]):
                return True
            elif op is getattr(_c, "ATOMIC_GROUP", None) and walk(av):
                return True
            elif op is _c.BRANCH and any(walk(alt) for alt in av[1]):
                return True
            elif op in (_c.ASSERT, _c.ASSERT_NOT) and walk(av[1]):
                return True
        return False

    return walk(parsed.data if hasattr(parsed, "data") else parsed)


def schema_patterns(schema, field_path: str) -> Iterator[tuple[str, Mapping]]:
    """(field path, sub-schema) for every sub-schema holding a ``pattern``, depth first."""
    if not isinstance(schema, Mapping):
        return
    if "pattern" in schema:
        yield field_path, schema
    for name, sub in sorted((schema.get("properties") or {}).items()):
        yield from schema_patterns(sub, f"{field_path}.properties.{name}")
    if isinstance(schema.get("items"), Mapping):
        yield from schema_patterns(schema["items"], f"{field_path}.items")
    if isinstance(schema.get("additionalProperties"), Mapping):
        yield from schema_patterns(
            schema["additionalProperties"], f"{field_path}.additionalProperties"
        )


def _verb_args(ctx: PackContext, name: str) -> Mapping:
    args = ctx.manifest.data["verbs"][name].get("args")
    return args if isinstance(args, Mapping) else {}


@rule(
    "W050",
    severity="error",
    summary="a schema default or const on confirm or apply (it would open the confirm gate by itself)",
)
def gate_default(ctx: PackContext):
    for verb in ctx.verbs:
        for arg in GATE_ARGS:
            schema = verb.properties.get(arg)
            if not isinstance(schema, Mapping):
                continue
            for keyword in ("default", "const"):
                if keyword in schema:
                    yield ctx.diagnostic(
                        "W050",
                        f"{verb.field}.args.properties.{arg}.{keyword}",
                        f"{arg!r} has a {keyword}: the confirm gate must open only when the caller passes {arg}=true",
                        hint=f"remove {keyword!r} from {arg}; the caller (or the person, through serve) gives it",
                    )


@rule(
    "W051",
    severity="error",
    summary="a relative bin (./tool, bin/tool): what runs depends on the caller's working directory",
)
def relative_bin(ctx: PackContext):
    bin_name = str(ctx.manifest.data.get("bin", ""))
    if (
        "/" in bin_name
        and not bin_name.startswith("/")
        or bin_name.startswith("~")
        or bin_name in (".", "..")
    ):
        yield ctx.diagnostic(
            "W051",
            "bin",
            f"bin {bin_name!r} is a relative path: it runs whatever sits there in the caller's directory",
            hint="use the bare name found on PATH (git) or an absolute path (/usr/bin/git)",
        )


@rule(
    "W052",
    severity="error",
    summary="a schema pattern that can backtrack catastrophically ((a+)+, (a|a)*, (.*)*) or does not compile",
)
def catastrophic_pattern(ctx: PackContext):
    for verb in ctx.verbs:
        for where, schema in schema_patterns(_verb_args(ctx, verb.name), f"{verb.field}.args"):
            why = pattern_danger(schema["pattern"])
            if why:
                yield ctx.diagnostic(
                    "W052",
                    f"{where}.pattern",
                    f"pattern {schema['pattern']!r} can freeze whoever checks it: {why}",
                    hint="drop the inner quantifier or make the branches distinct, e.g. (a+)+ -> a+; or use an enum",
                )


@rule(
    "W053",
    severity="error",
    summary="a string schema whose pattern has an unbounded quantifier but no maxLength",
)
def pattern_without_max_length(ctx: PackContext):
    for verb in ctx.verbs:
        for where, schema in schema_patterns(_verb_args(ctx, verb.name), f"{verb.field}.args"):
            pattern = schema["pattern"]
            if "maxLength" in schema or not isinstance(pattern, str) or pattern_danger(pattern):
                continue  # W052 already refuses a dangerous one
            if pattern_unbounded(pattern):
                yield ctx.diagnostic(
                    "W053",
                    f"{where}.pattern",
                    f"pattern {pattern!r} has an unbounded quantifier but the schema sets no maxLength",
                    hint="add maxLength (e.g. 256) so matching time stays bounded",
                )
