"""curl's download verb overwrites a file: it is destructive and writes only inside the working directory."""

from __future__ import annotations

import json

import pytest

from conftest import REPO
from wrapgen.runtime import execute


def _binding():
    return json.loads((REPO / "adapters" / "curl" / "binding.json").read_text())


def test_download_is_destructive_and_gated():
    """--output overwrites the file it names: the verb is destructive and confirm-gated."""
    policy = _binding()["verbs"]["download"]["policy"]
    assert policy["effect"] == "destructive" and policy["confirm"] is True


@pytest.mark.parametrize(
    "output", ["/etc/cron.d/x", "~/.bashrc", "../outside", "a/../../outside", ".."]
)
def test_download_refuses_a_path_outside_the_working_directory(output):
    """An absolute path, a home path or a '..' segment is refused before anything runs (a confirmed call too)."""
    envelope = execute(
        str(REPO / "adapters" / "curl"),
        "download",
        {"url": "http://127.0.0.1:9/x", "output": output, "confirm": True},
    )
    assert envelope["ok"] is False and "output" in envelope["error"], envelope


def test_download_schema_accepts_a_relative_path_inside():
    """`out/page.html` and `a..b` (no '..' segment) pass the pattern; the schema bounds the length."""
    from wrapgen.runtime.schema import validate_args

    schema = _binding()["verbs"]["download"]["args"]
    assert schema["properties"]["output"]["maxLength"] == 4096
    for good in ("out/page.html", "a..b", "page.html"):
        assert validate_args(schema, {"url": "http://example.test/", "output": good}) == [], good
    assert validate_args(schema, {"url": "http://example.test/", "output": "../x"}) != []
