"""wrapgen wrap: discover -> propose -> write -> build -> check, with a summary of what and why."""

from __future__ import annotations

import stat
import textwrap
from pathlib import Path

import pytest

_NOTES = textwrap.dedent('''\
    #!/usr/bin/env python3
    """notes: keep short notes."""
    import argparse, json, sys
    p = argparse.ArgumentParser(prog="notes", description="Keep short notes in a local file.")
    sub = p.add_subparsers(dest="cmd", title="commands")
    s = sub.add_parser("list", help="List notes, newest first")
    s.add_argument("--limit", type=int, default=20, help="Maximum number of notes")
    s.add_argument("--tag", action="append", help="Only notes with this tag (repeatable)")
    s.add_argument("--json", action="store_true", help="Print JSON")
    s = sub.add_parser("show", help="Show one note")
    s.add_argument("id", help="The note id")
    s.add_argument("--json", action="store_true", help="Print JSON")
    s = sub.add_parser("search", help="Search notes for words")
    s.add_argument("query", help="Words to search for")
    s.add_argument("--json", action="store_true", help="Print JSON")
    s = sub.add_parser("add", help="Add a note")
    s.add_argument("text", help="The note text")
    s.add_argument("--tag", action="append", help="A tag")
    s = sub.add_parser("delete", help="Delete a note")
    s.add_argument("id", help="The note id")
    sub.add_parser("edit", help="Edit a note in $EDITOR")
    sub.add_parser("completion", help="Print a shell completion script")
    a = p.parse_args()
    if a.cmd == "list":
        print(json.dumps([{"id": 1, "text": "hello"}][: a.limit]))
    elif a.cmd == "show":
        print(json.dumps({"id": a.id, "text": "hello"}))
    else:
        sys.exit(0)
''')


@pytest.fixture
def notes(tmp_path) -> Path:
    tool = tmp_path / "bin" / "notes"
    tool.parent.mkdir()
    tool.write_text(_NOTES)
    tool.chmod(tool.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return tool


def test_wrap_unseen_tool_end_to_end(cli, notes, tmp_path):
    """An argparse tool never seen before: reads first, writes gated, noise left out, check clean, runs."""
    out = tmp_path / "packs"
    result = cli("wrap", str(notes), "-o", str(out))
    assert result.exit_code == 0, result.stderr + result.stdout
    text = result.stdout
    assert "pack notes: 5 commands" in text
    assert "left out" in text and "completion" in text and "edit" in text
    assert "0 errors" in text
    pack = (out / "notes" / "pack.yaml").read_text()
    assert "list:" in pack and "--limit={{limit}}" in pack and "json: [--json]" in pack
    shown = cli("exec", str(out / "notes"), "show", "--json", "--", "id=7")
    assert shown.exit_code == 0 and '"id": "7"' in shown.stdout
    gated = cli("exec", str(out / "notes"), "delete", "--json", "--", "id=7")
    assert gated.exit_code == 1 and "confirm" in gated.stdout


def test_wrap_is_deterministic_and_check_mode_writes_nothing(cli, notes, tmp_path):
    """A second wrap changes no byte; --check reports up to date, then a hand edit as a diff (exit 1)."""
    out = tmp_path / "packs"
    assert cli("wrap", str(notes), "-o", str(out)).exit_code == 0
    before = {p.name: p.read_bytes() for p in (out / "notes").iterdir()}
    again = cli("wrap", str(notes), "-o", str(out), "--check")
    assert again.exit_code == 0 and "check: up to date" in again.stdout
    assert {p.name: p.read_bytes() for p in (out / "notes").iterdir()} == before
    (out / "notes" / "pack.yaml").write_text("pack_id: notes\n")
    drift = cli("wrap", str(notes), "-o", str(out), "--check")
    assert drift.exit_code == 1 and "would change" in drift.stdout
    assert (out / "notes" / "pack.yaml").read_text() == "pack_id: notes\n"


def test_a_tool_given_by_a_relative_path_is_named_by_its_absolute_one(cli, notes, tmp_path):
    """`wrap ./notes`: pack.yaml's bin is the program's absolute path (a relative bin would run
    whatever sits there in the caller's directory: W051), and the pack checks clean."""
    import yaml

    result = cli("wrap", f"./{notes.name}", "-o", "packs", cwd=notes.parent)
    assert result.exit_code == 0, result.stdout + result.stderr
    manifest = yaml.safe_load((notes.parent / "packs" / "notes" / "pack.yaml").read_text())
    assert manifest["bin"] == str(notes.resolve())
    assert "W051" not in result.stdout


def test_pick_takes_exactly_the_paths_given(cli, notes, tmp_path):
    """--pick list --pick delete gives those two commands, and the rest say 'not listed'."""
    out = tmp_path / "packs"
    result = cli("wrap", str(notes), "-o", str(out), "--pick", "list", "--pick", "delete")
    assert result.exit_code == 0, result.stderr
    import yaml

    verbs = yaml.safe_load((out / "notes" / "pack.yaml").read_text())["verbs"]
    assert list(verbs) == ["list", "delete"]
    assert verbs["delete"]["policy"] == {"effect": "destructive", "confirm": True}
    assert "not picked" in result.stdout


def test_recipe_overrides_apply(cli, notes, tmp_path):
    """A recipe renames a verb, narrows its args and sets its title; the pack says so."""
    recipe = tmp_path / "notes.yaml"
    recipe.write_text(
        textwrap.dedent(f"""\
        tool: {notes}
        pack_id: notes
        overrides:
          list:
            name: notes.recent
            args: {{include: [limit]}}
            title: {{live: [Listing recent notes], done: [Listed recent notes]}}
        """)
    )
    out = tmp_path / "packs"
    result = cli("wrap", "--recipe", str(recipe), "-o", str(out))
    assert result.exit_code == 0, result.stderr
    import yaml

    verb = yaml.safe_load((out / "notes" / "pack.yaml").read_text())["verbs"]["notes.recent"]
    assert list(verb["args"]["properties"]) == ["limit"]
    assert verb["title"] == {"live": ["Listing recent notes"], "done": ["Listed recent notes"]}


def test_missing_tool_is_a_clear_error(cli, tmp_path):
    """A tool that does not exist: Error: ... plus a hint, exit 1, no traceback."""
    result = cli("wrap", "no-such-tool-wrapgen", "-o", str(tmp_path))
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: ") and "Traceback" not in result.stderr


def test_unreadable_help_says_what_was_tried(cli, tmp_path):
    """A tool that prints nothing for help: a message naming the tool, and a hint."""
    tool = tmp_path / "silent"
    tool.write_text("#!/usr/bin/env python3\n")
    tool.chmod(0o755)
    result = cli("wrap", str(tool), "-o", str(tmp_path / "out"))
    assert result.exit_code == 1
    assert "silent" in result.stderr and "hint:" in result.stderr
    assert not (tmp_path / "out").exists()


def test_wrap_needs_a_tool_or_recipe(cli):
    """No TOOL and no --recipe is a usage error (exit 2)."""
    result = cli("wrap")
    assert result.exit_code == 2 and "TOOL" in result.stderr


def test_wrap_passes_discovery_options_over_the_recipes(tmp_path):
    """wrap's --depth/--timeout/--style reach discovery, over the recipe's own discover options."""
    from wrapgen.errors import HelpUnreadableError
    from wrapgen.flows.wrap import wrap
    from wrapgen.model.tool import Tool

    seen: dict = {}

    def fake_discover(name, **options):
        seen.update(options)
        return Tool(name=name)  # nothing readable: wrap stops with a clear error after discovery

    with pytest.raises(HelpUnreadableError):
        wrap(
            "git",
            out_dir=tmp_path,
            discover=fake_discover,
            discover_options={"depth": 1, "timeout_s": 2.5, "style": None},
        )
    assert seen == {"depth": 1, "timeout_s": 2.5}


def test_wrap_timeout_option_is_what_the_hint_names(cli, tmp_path):
    """A tool that hangs on --help: `wrap --timeout` bounds each probe, and the message says how long it waited."""
    hang = Path(__file__).parent.parent / "fixtures" / "tools" / "wg-hang"
    result = cli("wrap", str(hang), "--timeout", "0.5", "--no-cache", "-o", str(tmp_path))
    assert result.exit_code == 1
    assert "within 0.5 s" in result.stderr and "Traceback" not in result.stderr
    assert not any(tmp_path.iterdir())
