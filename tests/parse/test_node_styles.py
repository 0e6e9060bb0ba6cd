"""Node's frameworks (issue 13): commander.js, yarn v1, yargs, oclif and npm, on captured help."""

from __future__ import annotations

from pathlib import Path

from wrapgen.parse import detect_style, parse_help, style_names
from wrapgen.parse.registry import USAGE_LISTED

HELP = Path(__file__).resolve().parent.parent / "fixtures" / "help"


def _parse(name: str, *prog: str):
    text = (HELP / name).read_text(encoding="utf-8")
    return parse_help(text, prog=prog)


def _spellings(command):
    return {s for f in command.flags + command.global_flags for s in f.spellings}


def test_the_node_styles_are_registered():
    assert {"commander", "yarn", "yargs", "oclif", "npm"} <= set(style_names())


def test_commander_listing_reads_operands_and_aliases_as_one_command_each():
    """pm2: `start [options] [name|...]  summary`, `delete|del <name>`, `profile:mem [time]` (80 of them)."""
    pm2 = _parse("commander/pm2.txt", "pm2")
    names = [s.name for s in pm2.subcommands]
    assert len(names) == 80 and "*" not in names
    assert {"start", "delete", "profile:mem", "autoinstall"} <= set(names)
    assert pm2.find(("delete",)).aliases == ("del",)
    assert pm2.find(("start",)).summary == "start and daemonize an app"
    assert "[PM2]" not in pm2.summary  # the daemon's chatter before the help is no summary


def test_commander_subcommand_page_has_its_path_in_the_usage():
    start = _parse("commander/pm2_start.txt", "pm2", "start")
    assert start.usage[0].startswith("pm2 start ")
    assert [(p.name, p.required, p.variadic) for p in start.positionals] == [("name", False, True)]
    assert {"--watch", "--image-name"} <= _spellings(start)


def test_yarn_bullets_and_usage_listed_subcommands():
    yarn = _parse("yarn/yarn.txt", "yarn")
    assert len(yarn.subcommands) == 41
    assert yarn.find(("generate-lock-entry",)).aliases == ("generateLockEntry",)
    assert yarn.summary == ""  # "Displays help information." is the help command's
    cache = _parse("yarn/yarn_cache.txt", "yarn", "cache")
    assert [s.name for s in cache.subcommands] == ["ls", "list", "clean", "dir"]
    assert all(s.probe == USAGE_LISTED for s in cache.subcommands)
    # read at the subcommand's own path, the page has no further subcommands
    assert _parse("yarn/yarn_cache.txt", "yarn", "cache", "list").subcommands == ()


def test_yargs_annotations_say_what_an_option_takes():
    run = _parse("yargs/typeorm_migration:run.txt", "typeorm", "migration:run")
    flags = {f.long: f for f in run.flags}
    assert flags["--dataSource"].takes_value and flags["--dataSource"].required
    assert not flags["--fake"].takes_value and flags["--fake"].default is None
    assert flags["--transaction"].default == "default"
    assert "[required]" not in flags["--dataSource"].description
    root = _parse("yargs/typeorm.txt", "typeorm")
    assert (
        len(root.subcommands) == 14
        and root.find(("migration:run",)).summary == "Runs all pending migrations."
    )
    sync = _parse("yargs/typeorm_schema:sync.txt", "typeorm", "schema:sync")
    assert "-c" not in _spellings(sync)  # "... use\n-c option." is prose


def test_oclif_topics_and_two_word_entries():
    root = _parse("oclif/oclif.txt", "oclif")
    assert [s.name for s in root.subcommands][:3] == ["generate", "pack", "upload"]
    pack = _parse("oclif/oclif_pack.txt", "oclif", "pack")
    assert [s.path for s in pack.subcommands] == [
        ("pack", "deb"),
        ("pack", "macos"),
        ("pack", "tarballs"),
        ("pack", "win"),
    ]
    generate = _parse("oclif/oclif_generate.txt", "oclif", "generate")
    manager = next(f for f in generate.flags if f.long == "--package-manager")
    assert manager.choices == ("npm", "yarn", "pnpm") and "<options" not in manager.description


def test_npm_usage_line_subcommands_and_negation_companions():
    access = _parse("npm/npm_access.txt", "npm", "access")
    assert [s.name for s in access.subcommands] == ["list", "get", "set", "grant", "revoke"]
    listed = _parse("npm/npm_access.txt", "npm", "access", "list")
    assert [s.name for s in listed.subcommands] == ["packages", "collaborators"]
    install = _parse("npm/npm_install.txt", "npm", "install")
    spelled = _spellings(install)
    assert {
        "--no-audit",
        "--audit",
        "--no-package-lock",
        "--package-lock",
        "-S",
        "--save-dev",
    } <= spelled
    strategy = next(f for f in install.flags if f.long == "--install-strategy")
    assert strategy.choices == ("hoisted", "nested", "shallow", "linked")
    assert "i" in install.aliases
    org = _parse("npm/npm_org.txt", "npm", "org")
    assert [s.name for s in org.subcommands] == ["set", "rm", "ls"]
    audit = _parse("npm/npm_audit.txt", "npm", "audit")
    assert [s.name for s in audit.subcommands] == ["fix", "signatures"]


def test_old_styles_keep_their_detection():
    """The Node marks do not pull other tools' help: cobra, clap and argparse fixtures stay theirs."""
    for path in sorted(HELP.glob("*/*.txt")):
        if path.parent.name in ("cobra", "clap", "argparse", "click", "gnu", "git", "docopt"):
            assert (
                detect_style(path.read_text(encoding="utf-8", errors="replace")) == path.parent.name
            ), path
