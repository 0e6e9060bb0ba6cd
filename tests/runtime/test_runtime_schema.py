"""Arg checks with the stdlib JSON Schema subset (docs/contract.md §3), k=v coercion (docs/contract.md §10), and the import rule."""

from __future__ import annotations

import subprocess
import sys

import pytest

from wrapgen.errors import UsageError
from wrapgen.runtime import apply_defaults, coerce_kv, validate_args

SCHEMA = {
    "type": "object",
    "properties": {
        "q": {"type": "string", "minLength": 2, "maxLength": 5, "pattern": "^[a-z]+$"},
        "n": {"type": "integer", "minimum": 1, "maximum": 10, "default": 3},
        "ratio": {"type": "number"},
        "all": {"type": "boolean"},
        "state": {"enum": ["open", "closed"]},
        "kind": {"const": "pr"},
        "labels": {"type": "array", "items": {"type": "string", "maxLength": 3}},
        "ids": {"type": "array", "items": {"type": "integer"}},
    },
    "required": ["q"],
    "additionalProperties": False,
}


def test_valid_args_have_no_messages():
    """Args that fit every keyword give []."""
    args = {
        "q": "abc",
        "n": 10,
        "ratio": 0.5,
        "all": True,
        "state": "open",
        "kind": "pr",
        "labels": ["a"],
        "ids": [1],
    }
    assert validate_args(SCHEMA, args) == []


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ({}, "q: required but missing"),
        ({"q": 1}, "q: expected string, got integer 1"),
        ({"q": "a"}, "q: must be at least 2 characters long"),
        ({"q": "abcdef"}, "q: must be at most 5 characters long"),
        ({"q": "AB"}, 'q: "AB" does not match the pattern ^[a-z]+$'),
        ({"q": "ab", "n": 0}, "n: must be at least 1, got 0"),
        ({"q": "ab", "n": 11}, "n: must be at most 10, got 11"),
        ({"q": "ab", "n": True}, "n: expected integer, got boolean true"),
        ({"q": "ab", "n": 1.5}, "n: expected integer, got number 1.5"),
        ({"q": "ab", "ratio": "1"}, 'ratio: expected number, got string "1"'),
        ({"q": "ab", "all": 1}, "all: expected boolean, got integer 1"),
        ({"q": "ab", "state": "merged"}, 'state: must be one of "open", "closed", got "merged"'),
        ({"q": "ab", "kind": "issue"}, 'kind: must be "pr", got "issue"'),
        ({"q": "ab", "labels": ["abcd"]}, "labels[0]: must be at most 3 characters long"),
        ({"q": "ab", "labels": "a"}, 'labels: expected array, got string "a"'),
        (
            {"q": "ab", "zzz": 1},
            "zzz: unknown argument (valid: all, apply, confirm, ids, kind, labels, n, q, ratio, state)",
        ),
    ],
)
def test_each_keyword_reports(args, expected):
    """Each schema keyword of the subset gives its own message naming the arg."""
    assert expected in validate_args(SCHEMA, args)


def test_confirm_and_apply_always_accepted():
    """confirm/apply pass a closed schema that does not list them, as booleans only."""
    assert validate_args(SCHEMA, {"q": "ab", "confirm": True, "apply": False}) == []
    assert validate_args(SCHEMA, {"q": "ab", "confirm": "yes"}) == [
        'confirm: expected boolean, got string "yes"'
    ]


def test_integral_float_is_an_integer():
    """3.0 counts as an integer, as in JSON Schema."""
    assert validate_args(SCHEMA, {"q": "ab", "n": 3.0}) == []


def test_args_must_be_an_object():
    """Args that are not an object are one message."""
    assert validate_args(SCHEMA, ["q"]) == ["args: expected an object, got array"]


def test_defaults_applied_without_overriding():
    """Defaults fill missing args only."""
    assert apply_defaults(SCHEMA, {"q": "ab"}) == {"q": "ab", "n": 3}
    assert apply_defaults(SCHEMA, {"n": 5}) == {"n": 5}


def test_coerce_types():
    """k=v values are typed by the schema: integer, number, boolean words, arrays by repetition."""
    pairs = [
        "q=abc",
        "n=4",
        "ratio=2.5",
        "all=yes",
        "labels=a",
        "labels=b",
        "ids=1",
        "ids=2",
        "confirm=1",
    ]
    assert coerce_kv(pairs, SCHEMA) == {
        "q": "abc",
        "n": 4,
        "ratio": 2.5,
        "all": True,
        "labels": ["a", "b"],
        "ids": [1, 2],
        "confirm": True,
    }


@pytest.mark.parametrize(
    "word,value",
    [
        ("true", True),
        ("false", False),
        ("yes", True),
        ("no", False),
        ("1", True),
        ("0", False),
        ("FALSE", False),
    ],
)
def test_coerce_boolean_words(word, value):
    """true/false/yes/no/1/0 are booleans."""
    assert coerce_kv([f"all={word}"], SCHEMA) == {"all": value}


def test_coerce_keeps_equals_in_value():
    """Only the first = splits: q=a=b gives the value a=b."""
    assert coerce_kv(["q=a=b"], SCHEMA) == {"q": "a=b"}


@pytest.mark.parametrize(
    ("pair", "message"),
    [
        ("zzz=1", "unknown argument 'zzz'"),
        ("n=x", "n=x: not an integer"),
        ("ratio=abc", "ratio=abc: not a number"),
        ("all=maybe", "all=maybe: not a boolean"),
        ("noequals", "'noequals' is not k=v"),
    ],
)
def test_coerce_errors(pair, message):
    """A bad k=v is a UsageError naming it, with a hint."""
    with pytest.raises(UsageError) as caught:
        coerce_kv([pair], SCHEMA)
    assert caught.value.message == message and caught.value.hint


def test_coerce_unknown_key_lists_valid_keys():
    """The hint for an unknown key lists every valid key."""
    with pytest.raises(UsageError) as caught:
        coerce_kv(["qq=1"], SCHEMA)
    assert (
        caught.value.hint
        == "valid arguments: all, apply, confirm, ids, kind, labels, n, q, ratio, state"
    )


def test_coerce_scalar_given_twice():
    """Repeating a non-array key is an error."""
    with pytest.raises(UsageError, match="given twice"):
        coerce_kv(["q=a", "q=b"], SCHEMA)


def test_runtime_imports_only_the_standard_library():
    """Importing wrapgen.runtime and wrapgen.runtime.titles loads no yaml, jsonschema or other third-party module."""
    code = (
        "import sys, wrapgen.runtime, wrapgen.runtime.titles\n"
        "banned = ('yaml', 'jsonschema', 'bashlex', 'pexpect', 'mcp', 'wrapgen.pack', 'wrapgen.check', 'wrapgen.probe', 'wrapgen.parse', 'wrapgen.propose')\n"
        "loaded = [m for m in banned if m in sys.modules]\n"
        "assert not loaded, loaded\n"
        "mine = sorted(m for m in sys.modules if m.startswith('wrapgen'))\n"
        "allowed = {'wrapgen', 'wrapgen.errors', 'wrapgen.names', 'wrapgen.runtime.titles'}\n"
        "assert all(m in allowed or m.startswith('wrapgen.runtime') for m in mine), mine\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_runtime_sources_import_only_stdlib():
    """Every import statement in the runtime and titles names a stdlib module or wrapgen.errors/names/runtime."""
    import ast
    from pathlib import Path

    import wrapgen

    root = Path(wrapgen.__file__).parent
    files = sorted((root / "runtime").glob("*.py"))
    stdlib = set(sys.stdlib_module_names)
    for path in files:
        for node in ast.walk(ast.parse(path.read_text())):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module]
                if isinstance(node, ast.ImportFrom) and node.module
                else []
            )
            for name in names:
                top = name.split(".")[0]
                ok = (
                    top in stdlib
                    or top == "__future__"
                    or name in ("wrapgen.errors", "wrapgen.names")
                    or name.startswith("wrapgen.runtime")
                )
                assert ok, f"{path.name} imports {name}"


@pytest.mark.parametrize(
    "files, message",
    [
        (["a"], "files: must have at least 2 items, got 1"),
        (["a", "b", "c", "d"], "files: must have at most 3 items, got 4"),
    ],
)
def test_an_array_outside_its_item_counts_is_refused(files, message):
    """minItems and maxItems (a comparison of two files takes at least two)."""
    schema = {
        "type": "object",
        "properties": {
            "files": {"type": "array", "items": {"type": "string"}, "minItems": 2, "maxItems": 3}
        },
    }
    assert validate_args(schema, {"files": files}) == [message]
    assert validate_args(schema, {"files": ["a", "b"]}) == []
