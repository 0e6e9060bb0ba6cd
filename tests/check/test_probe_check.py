"""wrapgen check --probe, the pure parts: sample args for every property, the flags an argv renders.

Probing packs against the real tools' help (rg, git's man page, kubectl options) is in
tests/live/test_check_probe_live.py."""

from __future__ import annotations

from wrapgen.check.probe import rendered_flags, sample_args


def test_sample_args_cover_every_property():
    """Sample args give each property a value of its type, so every flag renders."""
    schema = {
        "properties": {
            "q": {"type": "string"},
            "n": {"type": "integer", "minimum": 3},
            "f": {"type": "boolean"},
            "s": {"type": "string", "enum": ["open", "closed"]},
            "l": {"type": "array", "items": {"type": "string"}},
            "d": {"type": "integer", "default": 30},
        }
    }
    assert sample_args(schema) == {
        "q": "sample",
        "n": 3,
        "f": True,
        "s": "open",
        "l": ["sample"],
        "d": 30,
    }


def test_rendered_flags_stop_at_double_dash():
    """Flags are read up to '--'; inline values are cut off."""
    assert rendered_flags(["git", "log", "--author=a", "-n", "5", "--", "-weird-path"]) == [
        "--author",
        "-n",
    ]
