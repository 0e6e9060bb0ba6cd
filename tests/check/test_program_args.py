"""W030 on a flag followed by an arg named as a program: a string arg carries one, a boolean does not.

A boolean arg renders its flag alone (``--executable {{executable}}`` is ``--executable`` or nothing),
so a switch named after what it prints (poetry's ``env info --executable``, "display the python
executable path") is no program on a read; the same flag given a string arg named ``executable`` is.
"""

from __future__ import annotations

import yaml

from wrapgen.check.rules import check_pack


def _w030(tmp_path, arg_type: str) -> list:
    pack = {
        "pack_id": "plain",
        "description": "A plain pack.",
        "bin": "sometool",
        "verbs": {
            "info": {
                "description": "Show the environment.",
                "cli": ["sometool", "info", "--executable", "{{executable}}"],
                "args": {
                    "type": "object",
                    "properties": {"executable": {"type": arg_type, "description": "Which one."}},
                    "additionalProperties": False,
                },
                "policy": {"effect": "read"},
            }
        },
    }
    (tmp_path / "pack.yaml").write_text(yaml.safe_dump(pack, sort_keys=False))
    return [d for d in check_pack(tmp_path) if d.code == "W030"]


def test_a_string_arg_named_as_a_program_after_a_flag_is_refused_on_a_read(tmp_path):
    found = _w030(tmp_path, "string")
    assert found and "program" in found[0].message


def test_a_boolean_arg_named_as_a_program_is_a_switch_not_a_program(tmp_path):
    assert _w030(tmp_path, "boolean") == []


def _lint_read(tmp_path, cli: list, properties: dict, required: list) -> list:
    """The W030 findings on a linter pack whose one read verb has ``cli`` and ``properties``."""
    args = {"type": "object", "properties": properties, "additionalProperties": False}
    if required:
        args["required"] = required
    pack = {
        "pack_id": "lint",
        "description": "A linter pack.",
        "bin": "somelinter",
        "verbs": {
            "check": {
                "description": "Report the problems of a file.",
                "cli": cli,
                "args": args,
                "policy": {"effect": "read"},
            }
        },
    }
    (tmp_path / "pack.yaml").write_text(yaml.safe_dump(pack, sort_keys=False))
    return [d for d in check_pack(tmp_path) if d.code == "W030"]


def _read_with(tmp_path, flag: str) -> list:
    properties = {
        "on": {"type": "boolean", "description": "Turn it on."},
        "file": {"type": "string", "description": "The file to check."},
    }
    cli = ["somelinter", "check", flag, "{{on}}", "--", "{{file}}"]
    return _lint_read(tmp_path, cli, properties, ["file"])


def test_a_switch_that_rewrites_what_it_reads_is_refused_on_a_read(tmp_path):
    """--fix, --write and --in-place rewrite the files a read is given: W030, by class, any tool."""
    for flag in ("--fix", "--write", "--in-place"):
        found = _read_with(tmp_path, flag)
        assert found and "rewrites the files it reads" in found[0].message, flag
    assert _read_with(tmp_path, "--fixed-strings") == []


def test_a_joined_flag_is_judged_by_its_own_value_not_the_next_token(tmp_path):
    """After ``--source-path={{source_path}}`` the next token is another flag: W030 names the flag
    whose own value is named as a program (``--shell={{shell}}``), not the one before it."""
    properties = {
        "source_path": {"type": "string", "description": "Where to look."},
        "shell": {"type": "string", "description": "Which one."},
    }
    cli = ["somelinter", "--source-path={{source_path}}", "--shell={{shell}}"]
    found = _lint_read(tmp_path, cli, properties, [])
    assert len(found) == 1 and "--shell given {{shell}}" in found[0].message, found
