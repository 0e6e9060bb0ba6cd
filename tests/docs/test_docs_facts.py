"""Facts the README and docs/ state about the code: the two commands, the check codes and their severities."""

from __future__ import annotations

import re

from conftest import REPO

INSTALL_AND_WRAP = "python3 -m pip install -e . && wrapgen wrap git -o out"
INSTALL_AND_TEST = (
    "python3 -m pip install -e '.[test,mcp]' && python3 -m pytest -q -p no:cacheprovider -n auto"
)


def _first_commands() -> list[str]:
    """The command lines (not comments) of the README's first code block."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    block = re.search(r"^```sh\n(.*?)^```", text, re.M | re.S)
    assert block, "README must open with a code block of commands"
    return [
        line
        for line in block.group(1).splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]


def test_readme_opens_with_the_two_commands():
    """The README's first two commands set up and wrap git, and set up and run the tests."""
    assert _first_commands()[:2] == [INSTALL_AND_WRAP, INSTALL_AND_TEST]


def test_ci_runs_the_test_command_written_in_readme():
    """.ci/run runs exactly the test command the README gives (and installs the same extras), so they cannot drift."""
    readme_test = _first_commands()[1]
    install, _, run = readme_test.partition(" && ")
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    commands = [line.strip() for line in ci.splitlines() if not line.lstrip().startswith("#")]
    assert run in commands, f".ci/run must run `{run}`"
    extras = re.search(r"-e '(\.\[[^\]]*\])'", install).group(1)
    assert any(extras in line and "pip install" in line for line in commands)


def _check_codes() -> dict[str, str]:
    """code -> severity, from the table under docs/packs-and-check.md's "Check codes" heading."""
    text = (REPO / "docs" / "packs-and-check.md").read_text(encoding="utf-8")
    section = text[text.index("## Check codes") :]
    section = section[: section.index("\n## ", 1)]
    rows = re.findall(r"^\| `([A-Z]\d{3})` \| (\w+) \|", section, re.M)
    codes = dict(rows)
    assert len(codes) == len(rows), "a code is listed twice"
    return codes


def test_docs_document_every_code_with_its_severity():
    """Every rule registered with @rule has a row in docs/packs-and-check.md, with the registry's severity."""
    from wrapgen.check.rules import all_rules

    documented = _check_codes()
    for code, registered in all_rules().items():
        assert code in documented, f"{code} missing from docs/packs-and-check.md"
        assert documented[code] == registered.severity, code


def test_docs_document_the_probe_codes_with_their_levels():
    """The P codes `check --probe` reports are in the table with the level the probe gives them."""
    from wrapgen.check import probe

    source = (REPO / "wrapgen" / "check" / "probe.py").read_text(encoding="utf-8")
    documented = _check_codes()
    constants = {
        name: value
        for name, value in vars(probe).items()
        if name.startswith("PROBE") and name.endswith("CODE")
    }
    assert constants
    for name, code in constants.items():
        level = re.search(rf"diagnostic\(\s*{name},\s*\"(\w+)\"", source)
        assert level, name
        assert documented.get(code) == level.group(1), code


def test_every_documented_code_exists():
    """The table lists no code that nothing reports."""
    from wrapgen.check import probe
    from wrapgen.check.rules import all_rules

    known = set(all_rules()) | {
        v for k, v in vars(probe).items() if k.startswith("PROBE") and k.endswith("CODE")
    }
    assert set(_check_codes()) <= known, set(_check_codes()) - known
