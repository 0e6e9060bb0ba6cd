"""Golden models from real help text: one collected test per tests/fixtures/help/<style>/<name>.txt.

The fixture name gives the command line: ``gh_pr_list`` is ``gh pr list``; the directory
gives the style the text must be detected as. ``tests/fixtures/help/capture.sh``
re-captures the text from the real tools.
"""

from __future__ import annotations

import difflib
import json
from pathlib import Path

import pytest

from wrapgen.parse import detect_style, parse_help

HELP = Path(__file__).resolve().parent.parent / "fixtures" / "help"
CASES = sorted(HELP.glob("*/*.txt"))
REGENERATE = "regenerate with `python -m pytest tests/parse/test_parsers.py --update-goldens`"


def prog_of(path: Path) -> tuple[str, ...]:
    """``gh_pr_list.txt`` -> ("gh", "pr", "list")."""
    return tuple(path.stem.split("_"))


def model_json(path: Path) -> str:
    command = parse_help(
        path.read_text(encoding="utf-8", errors="replace"),
        prog=prog_of(path),
        style=path.parent.name,
    )
    return json.dumps(command.to_dict(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


@pytest.mark.parametrize("path", CASES, ids=[f"{p.parent.name}/{p.stem}" for p in CASES])
def test_golden_model(path: Path, update_goldens: bool):
    """Parsing the captured help gives exactly the reviewed golden model."""
    golden = path.with_suffix(".json")
    got = model_json(path)
    if update_goldens:
        golden.write_text(got, encoding="utf-8")
    assert golden.exists(), f"no golden for {path}; {REGENERATE}"
    want = golden.read_text(encoding="utf-8")
    if got != want:
        diff = "".join(
            difflib.unified_diff(
                want.splitlines(True), got.splitlines(True), str(golden), "parsed", n=2
            )
        )
        pytest.fail(
            f"model of {path} differs from its golden:\n{diff[:6000]}\n{REGENERATE}", pytrace=False
        )


@pytest.mark.parametrize("path", CASES, ids=[f"{p.parent.name}/{p.stem}" for p in CASES])
def test_style_detected(path: Path):
    """Each fixture is recognised as the style of the directory it sits in."""
    assert detect_style(path.read_text(encoding="utf-8", errors="replace")) == path.parent.name


def test_every_style_has_a_fixture():
    """Every registered style is pinned by at least one real capture."""
    from wrapgen.parse import style_names

    assert {p.parent.name for p in CASES} == set(style_names())
    assert len({p.stem.split("_")[0] for p in CASES}) >= 15


@pytest.mark.parametrize("path", CASES, ids=[f"{p.parent.name}/{p.stem}" for p in CASES])
def test_model_invariants(path: Path):
    """Every flag read is well-formed: a spelling, values only when it takes one, enums with choices."""
    command = parse_help(path.read_text(encoding="utf-8", errors="replace"), prog=prog_of(path))
    for flag in command.flags + command.global_flags:
        assert flag.spellings and all(s.startswith(("-", "+")) for s in flag.spellings), flag
        if flag.takes_value:
            assert flag.value_name is None or len(set(flag.value_name.split())) == len(
                flag.value_name.split()
            ), flag
            assert flag.value_name is None or not flag.value_name.endswith((",", "=")), flag
        else:
            assert flag.value_name is None and flag.type == "boolean" and not flag.choices, flag
        assert (flag.type == "enum") == bool(flag.choices), flag
    assert len({s for f in command.flags + command.global_flags for s in f.spellings}) == sum(
        len(f.spellings) for f in command.flags + command.global_flags
    ), "a spelling is listed twice"
    assert all(sub.stub and sub.path[:-1] == command.path for sub in command.subcommands)
