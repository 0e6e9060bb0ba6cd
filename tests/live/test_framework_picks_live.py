"""What a person of each framework's tools picks first is in the fresh pack (issue 13's packs item,
bench/data/expert_picks.json): the command listing and the self-description are left out (composer's
and poetry's list and about), a validator and the licences are reads (composer validate, licenses;
amtool check-config), the everyday write is offered (composer require, npm install, poetry lock),
a tool with few reads keeps its low-ranked ones (amtool config show), npm's and yarn's packs run
no lifecycle script. Real tools, no trials (their own tests are in test_trials_*); skipped only
where the tool is absent (.ci/run installs them)."""

from __future__ import annotations

import pytest

from conftest import require_tool
from wrapgen.probe.discover import discover
from wrapgen.propose import propose


def _manifest(name: str) -> dict:
    """The help's rules alone (usage=()): what they pick where usage evidence is silent; with the
    usage table, the commands its examples use come first (tests/propose/test_evidence.py)."""
    require_tool(name)
    from dataclasses import replace

    tool = replace(discover(name, timeout_s=60), name=name)
    return propose(tool, usage=()).manifest


def _effect(verbs: dict, name: str) -> str:
    return verbs[name]["policy"]["effect"]


def test_composer_offers_validate_licenses_and_require_not_list_or_about():
    verbs = _manifest("composer")["verbs"]
    assert not {"list", "about"} & set(verbs), sorted(verbs)
    for read in ("show", "outdated", "validate", "licenses", "audit", "depends"):
        assert read in verbs and _effect(verbs, read) == "read", (read, sorted(verbs))
    assert _effect(verbs, "require") == "write" and verbs["require"]["policy"]["confirm"] is True


def test_poetry_leaves_out_list_and_about_and_offers_lock():
    verbs = _manifest("poetry")["verbs"]
    assert not {"list", "about"} & set(verbs), sorted(verbs)
    assert {"show", "check", "env.info", "add", "lock"} <= set(verbs), sorted(verbs)
    assert "init" not in verbs  # a project is set up once, by a person


def test_amtool_check_config_reads_and_its_config_reads_are_kept():
    verbs = _manifest("amtool")["verbs"]
    assert _effect(verbs, "check-config") == "read"  # 'Validate alertmanager config files'
    assert {"config.show", "config.routes.show"} <= set(verbs), sorted(verbs)


def test_npm_audit_is_a_read_and_install_runs_no_lifecycle_script():
    manifest = _manifest("npm")
    verbs = manifest["verbs"]
    assert _effect(verbs, "audit") == "read"  # 'Run a security audit': the command runs itself
    assert _effect(verbs, "install") == "write"
    assert manifest["env"]["set"]["NPM_CONFIG_IGNORE_SCRIPTS"] == "true"


@pytest.mark.parametrize(
    "name,variable", [("npm", "NPM_CONFIG_IGNORE_SCRIPTS"), ("yarn", "YARN_IGNORE_SCRIPTS")]
)
def test_an_install_through_the_pack_runs_no_dependency_script(cli, tmp_path, name, variable):
    """The hardening is the tool's own switch, checked on the real tool: a local dependency whose
    postinstall would create a file installs, through the pack, without creating it."""
    import json

    import yaml

    require_tool(name)
    packs = tmp_path / "packs"
    result = cli("wrap", name, "-o", str(packs), "--no-try")
    assert result.exit_code == 0, result.stderr
    manifest = yaml.safe_load((packs / name / "pack.yaml").read_text())
    assert manifest["env"]["set"][variable] == "true"
    marker = tmp_path / "postinstall-ran"
    dep = tmp_path / "dep"
    dep.mkdir()
    (dep / "package.json").write_text(
        json.dumps(
            {
                "name": "dep",
                "version": "1.0.0",
                "scripts": {
                    "postinstall": f"node -e \"require('fs').writeFileSync('{marker}', 'x')\""
                },
            }
        )
    )
    app = tmp_path / "app"
    app.mkdir()
    (app / "package.json").write_text(
        json.dumps({"name": "app", "version": "1.0.0", "license": "MIT"})
    )
    verb = "install" if name == "npm" else "add"
    field = next(n for n in manifest["verbs"][verb]["args"]["properties"] if "pack" in n)
    run = cli(
        "exec",
        str(packs / name),
        verb,
        "--json",
        "--",
        f"{field}=file:../dep",
        "confirm=true",
        cwd=app,
    )
    envelope = json.loads(run.stdout)
    assert envelope["ok"], envelope
    assert (app / "node_modules" / "dep" / "package.json").exists()
    assert not marker.exists(), "the dependency's postinstall ran"


PLUGIN_PHP = r"""<?php
namespace Acme;
use Composer\Composer;
use Composer\IO\IOInterface;
use Composer\Plugin\PluginInterface;
class Plug implements PluginInterface {
    public function activate(Composer $composer, IOInterface $io) { touch('MARKER'); }
    public function deactivate(Composer $composer, IOInterface $io) {}
    public function uninstall(Composer $composer, IOInterface $io) {}
}
"""


def test_a_composer_read_through_the_pack_loads_no_project_plugin(cli, tmp_path):
    """A project that installed and allowed a plugin runs its code on a plain `composer show`; the
    pack's show carries --no-plugins (hardening.json), so the same read runs none of it."""
    import json
    import os
    import subprocess

    import yaml

    require_tool("composer")
    plug = tmp_path / "plug"
    (plug / "src").mkdir(parents=True)
    (plug / "composer.json").write_text(
        json.dumps(
            {
                "name": "acme/plug",
                "version": "1.0.0",
                "type": "composer-plugin",
                "license": "MIT",
                "require": {"composer-plugin-api": "^2.0"},
                "autoload": {"psr-4": {"Acme\\": "src/"}},
                "extra": {"class": "Acme\\Plug"},
            }
        )
    )
    marker = tmp_path / "plugin-ran"  # written by the plugin's activate(), wherever it runs from
    (plug / "src" / "Plug.php").write_text(PLUGIN_PHP.replace("MARKER", str(marker)))
    app = tmp_path / "app"
    app.mkdir()
    (app / "composer.json").write_text(
        json.dumps(
            {
                "name": "acme/app",
                "license": "MIT",
                "repositories": [{"type": "path", "url": "../plug"}, {"packagist.org": False}],
                "config": {"allow-plugins": {"acme/plug": True}},
            }
        )
    )
    env = {
        **os.environ,
        "COMPOSER_HOME": str(tmp_path / "composer-home"),
        "COMPOSER_NO_INTERACTION": "1",
    }
    subprocess.run(
        ["composer", "require", "--no-plugins", "acme/plug:1.0.0"],
        cwd=app,
        env=env,
        check=True,
        capture_output=True,
        timeout=120,
    )
    subprocess.run(
        ["composer", "show"], cwd=app, env=env, check=True, capture_output=True, timeout=60
    )
    assert marker.exists(), (
        "the plugin did not run on a plain composer show: the test shows nothing"
    )
    marker.unlink()

    packs = tmp_path / "packs"
    result = cli("wrap", "composer", "-o", str(packs), "--no-try")
    assert result.exit_code == 0, result.stderr
    show = yaml.safe_load((packs / "composer" / "pack.yaml").read_text())["verbs"]["show"]
    assert {"--no-plugins", "--no-scripts"} <= set(show["cli"])
    run = cli("exec", str(packs / "composer"), "show", "--json", cwd=app)
    envelope = json.loads(run.stdout)
    assert envelope["ok"], envelope
    assert "acme/plug" in json.dumps(envelope["result"])
    assert not marker.exists(), "the project's plugin ran through the pack"
