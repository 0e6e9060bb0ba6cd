"""discover() starts the spawn helper (``contain.prestart``) once it knows it will probe, before its first
probe, and only then: a cached rediscovery and a shell script read without running start none."""

from __future__ import annotations

import pytest

from wrapgen.probe import discover as discover_module
from wrapgen.probe import prober
from wrapgen.runtime import contain

pytestmark = pytest.mark.usefixtures("own_cache")

HELP = "usage: demo [-h] [--all]\\n\\noptions:\\n  -h, --help  show this help\\n  --all       everything\\n"


@pytest.fixture
def events(monkeypatch):
    log: list[str] = []
    monkeypatch.setattr(contain, "prestart", lambda: log.append("prestart"))
    real = prober.run_process

    def recorded(argv, **options):
        log.append("spawn")
        return real(argv, **options)

    monkeypatch.setattr(prober, "run_process", recorded)
    return log


def _python_tool(tmp_path):
    tool = tmp_path / "demo"
    tool.write_text(f"#!/usr/bin/env python3\nimport sys\nsys.stdout.write({HELP!r})\n")
    tool.chmod(0o755)
    return str(tool)


def test_the_helper_starts_before_the_first_probe_and_not_for_a_cached_rediscovery(
    tmp_path, events
):
    tool = _python_tool(tmp_path)
    found = discover_module.discover(tool, depth=0, sandbox=False, man=False)
    assert any(flag.long == "--all" for flag in found.root.flags)
    assert events[0] == "prestart" and events.count("prestart") == 1 and "spawn" in events
    events.clear()
    discover_module.discover(
        tool, depth=0, sandbox=False, man=False
    )  # (from the cache: nothing runs)
    assert events == []


def test_a_shell_script_read_without_running_starts_no_helper(tmp_path, events):
    script = tmp_path / "tool.sh"
    script.write_text(
        '#!/bin/sh\n# usage: tool.sh start|stop\ncase "$1" in\n  start) echo start;;\n  stop) echo stop;;\nesac\n'
    )
    script.chmod(0o755)
    discover_module.discover(str(script), depth=1, man=False, cache=False)
    assert events == []
