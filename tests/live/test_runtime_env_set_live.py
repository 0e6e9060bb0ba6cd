"""env.set: a pack's declared variables reach the tool on every call, over the caller's environment."""

from __future__ import annotations

import json
import shutil
import textwrap

import pytest

from wrapgen.pack.build import build_pack
from wrapgen.pack.manifest import parse_manifest
from wrapgen.runtime import execute, load_binding


def _pack(tmp_path, env_block: str):
    printenv = shutil.which("printenv")
    if printenv is None:
        pytest.skip("printenv not installed")
    (tmp_path / "pack.yaml").write_text(
        textwrap.dedent(f"""\
        pack_id: envy
        description: Print one variable.
        bin: {printenv}
        json: false
        {env_block}
        verbs:
          show:
            description: Print WG_X.
            cli: [{printenv}, WG_X]
            policy: {{effect: read}}
        """)
    )
    build_pack(tmp_path)
    return tmp_path


def test_env_set_reaches_the_tool_and_beats_the_callers_value(tmp_path):
    """A variable in env.set is in the tool's environment even when the caller set it otherwise."""
    pack = _pack(tmp_path, "env: {set: {WG_X: from-pack}}")
    envelope = execute(str(pack), "show", {}, env={"PATH": "/usr/bin:/bin", "WG_X": "from-caller"})
    assert envelope == {"ok": True, "result": "from-pack\n"}
    assert load_binding(pack)["env"] == {"pass": [], "set": {"WG_X": "from-pack"}}


def test_a_pack_without_env_records_an_empty_env_and_passes_nothing(tmp_path):
    """No env block: binding.json records an empty env, and the caller's WG_X does not reach the tool."""
    pack = _pack(tmp_path, "")
    assert json.loads((pack / "binding.json").read_text())["env"] == {"pass": [], "set": {}}
    envelope = execute(str(pack), "show", {}, env={"PATH": "/usr/bin:/bin", "WG_X": "from-caller"})
    assert envelope["ok"] is False and "from-caller" not in str(envelope)


def test_env_set_values_must_be_strings_with_variable_names(tmp_path):
    """A non-string value or a bad variable name is a schema error, not a silent coercion."""
    for block in ("env: {set: {WG_X: 1}}", "env: {set: {'1BAD': x}}", "env: {pass: ['A B']}"):
        raw = textwrap.dedent(f"""\
            pack_id: envy
            description: Print one variable.
            bin: /usr/bin/printenv
            {block}
            verbs:
              show: {{description: Print., cli: [/usr/bin/printenv], policy: {{effect: read}}}}
            """).encode()
        _, diagnostics = parse_manifest(raw)
        assert any(d.level == "error" and "env" in d.message + str(d.field) for d in diagnostics), (
            block
        )
