"""Targeted facts about real help texts, and parsers checked against argparse's and click's own view."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from wrapgen.errors import UsageError, WrapgenError
from wrapgen.parse import detect_style, parse_help, style_names

HELP = Path(__file__).resolve().parent.parent / "fixtures" / "help"


def parse_fixture(name: str, *, style: str | None = None):
    path = HELP / f"{name}.txt"
    return parse_help(
        path.read_text(encoding="utf-8"), prog=tuple(path.stem.split("_")), style=style
    )


def flag(command, spelling: str):
    found = [f for f in command.flags + command.global_flags if spelling in f.spellings]
    assert found, f"{spelling} not found among {[f.spellings for f in command.flags]}"
    return found[0]


def test_gh_pr_list_state_and_limit():
    """gh pr list: --state has its four choices and default, --limit is an integer defaulting to 30."""
    command = parse_fixture("cobra/gh_pr_list")
    state = flag(command, "--state")
    assert state.choices == ("open", "closed", "merged", "all")
    assert (state.type, state.default, state.short) == ("enum", "open", "-s")
    limit = flag(command, "--limit")
    assert (limit.type, limit.default, limit.takes_value) == ("integer", "30", True)
    assert flag(command, "--label").repeatable  # cobra "strings"
    assert not flag(command, "--web").takes_value


def test_gh_inherited_flags_kept_apart():
    """gh's INHERITED FLAGS land in global_flags, never among the command's own."""
    command = parse_fixture("cobra/gh_pr_list")
    assert [f.long for f in command.global_flags] == ["--help", "--repo"]
    assert "--repo" not in {f.long for f in command.flags}
    assert command.path == ("pr", "list")
    assert 'gh pr list --author "@me"' in command.examples


def test_gh_grouped_subcommands():
    """gh's CORE COMMANDS-style headings become each stub's group; help topics are not commands."""
    command = parse_fixture("cobra/gh")
    by_name = {s.name: s for s in command.subcommands}
    assert by_name["pr"].group == "CORE COMMANDS" and by_name["pr"].stub
    assert by_name["run"].group == "GITHUB ACTIONS COMMANDS"
    assert "environment" not in by_name and "reference" not in by_name
    assert by_name["pr"].summary == "Manage pull requests"


def test_kubectl_globals_and_groups():
    """kubectl options are global flags; kubectl's root groups its commands; get's --x=default: table reads."""
    options = parse_fixture("cobra/kubectl_options")
    assert not options.flags and len(options.global_flags) >= 20
    assert flag(options, "--namespace").short == "-n"
    root = parse_fixture("cobra/kubectl")
    get = next(s for s in root.subcommands if s.name == "get")
    assert get.group == "Basic Commands (Intermediate)"
    assert root.subcommands[-1].name == "options"  # named only in 'Use "kubectl options" for ...'
    command = parse_fixture("cobra/kubectl_get")
    watch = flag(command, "--watch")
    assert (watch.short, watch.takes_value) == ("-w", False)
    chunk = flag(command, "--chunk-size")
    assert (chunk.type, chunk.default) == ("integer", "500")
    assert flag(command, "--filename").repeatable  # "=[]"
    output = flag(command, "--output")
    assert "json" in output.choices and "wide" in output.choices


def test_prose_mentions_give_way_to_the_option_table():
    """Flags shown in a help's prose are read from its option table when it has one (descriptions kept)."""
    command = parse_fixture("cobra/kubectl_config_set-credentials")
    cert = flag(command, "--client-certificate")
    assert cert.aliases == () and cert.description.startswith("Path to client-certificate file")
    assert flag(command, "--client-key").long == "--client-key"
    assert all(f.description for f in command.flags)


def test_docker_global_options_and_choices():
    """docker's Global Options are global; a quoted list in the description gives choices."""
    command = parse_fixture("cobra/docker")
    assert not command.flags
    level = flag(command, "--log-level")
    assert level.choices == ("debug", "info", "warn", "error", "fatal") and level.default == "info"
    assert flag(command, "--host").repeatable  # docker's "list" type


def test_docker_aliases_are_siblings_only():
    """docker's Aliases: lines name whole commands: only siblings of this command are its aliases."""
    assert parse_fixture("cobra/docker_ps").aliases == ()
    assert parse_fixture("cobra/docker_container_ls").aliases == ("list", "ps")


def test_rg_type_repeatable_and_deprecated():
    """rg (old clap): --type is repeatable, --auto-hybrid-regex deprecated, -A takes an integer."""
    command = parse_fixture("clap/rg")
    assert flag(command, "--type").repeatable
    assert flag(command, "--auto-hybrid-regex").deprecated
    after = flag(command, "-A")
    assert (after.long, after.type, after.value_name) == ("--after-context", "integer", "NUM")
    assert [p.name for p in command.positionals] == ["PATTERN", "PATH"]
    assert command.positionals[1].variadic


def test_fd_and_cargo_clap_values():
    """fd / cargo (new clap): listed possible values, [possible values: ...], optional values, aliases."""
    fd = parse_fixture("clap/fdfind")
    color = flag(fd, "--color")
    assert color.choices == ("auto", "always", "never") and color.default == "auto"
    assert flag(fd, "--unrestricted").repeatable
    cargo = parse_fixture("clap/cargo_build")
    assert flag(cargo, "--message-format").choices[:3] == ("human", "short", "json")
    package = flag(cargo, "--package")
    assert package.value_optional and package.value_name == "SPEC"
    assert flag(cargo, "--all").deprecated
    root = parse_fixture("clap/cargo")
    build = next(s for s in root.subcommands if s.name == "build")
    assert build.aliases == ("b",)


def test_ls_color_value_optional():
    """ls: --color[=WHEN] takes an optional value; -p stays a switch of its own."""
    command = parse_fixture("gnu/ls")
    color = flag(command, "--color")
    assert color.takes_value and color.value_optional and color.value_name == "WHEN"
    assert flag(command, "--tabsize").type == "integer"
    assert not flag(command, "-p").takes_value
    assert command.positionals[0].name == "FILE" and command.positionals[0].variadic


def test_tar_aliases_and_examples():
    """tar: extra long spellings are aliases; example lines lose their trailing comments."""
    command = parse_fixture("gnu/tar")
    catenate = flag(command, "-A")
    assert (catenate.long, catenate.aliases) == ("--catenate", ("--concatenate",))
    assert "tar -cf archive.tar foo bar" in command.examples
    assert flag(command, "--occurrence").value_optional


def test_curl_single_space_descriptions():
    """curl: a description one space after '<value>' is not part of the value."""
    command = parse_fixture("gnu/curl")
    ciphers = flag(command, "--ciphers")
    assert ciphers.value_name == "list of ciphers"
    assert ciphers.description.startswith("SSL ciphers")
    assert flag(command, "--connect-timeout").type == "number"
    assert flag(command, "-:").long == "--next"
    assert len(command.flags) >= 240


def test_pip_general_options_and_repeatable():
    """pip: root's General Options are its own; -v is additive; install's are global there."""
    root = parse_fixture("gnu/pip")
    assert flag(root, "-v").repeatable and not root.global_flags
    install = parse_fixture("gnu/pip_install")
    assert flag(install, "--requirement").repeatable
    assert "--isolated" in {f.long for f in install.global_flags}


def test_git_styles():
    """git: help -a lists commands (not guides); commit -h reads --[no-]x and optional values."""
    root = parse_fixture("git/git")
    names = {s.name for s in root.subcommands}
    assert {"commit", "log", "rev-parse", "cat-file"} <= names
    assert "attributes" not in names and "format-bundle" not in names
    commit = parse_fixture("git/git_commit")
    untracked = flag(commit, "-u")
    assert untracked.value_optional and untracked.default == "all"
    assert flag(commit, "-m").value_name == "message"
    log = parse_fixture("git/git_log")
    assert [p.name for p in log.positionals] == ["revision-range", "path"]


def test_man_roff_and_rendered():
    """man: roff source and rendered text give the same flags as the tool's own --help."""
    roff = parse_fixture("man/ls")
    text = parse_fixture("gnu/ls")
    assert {f.long for f in roff.flags} == {f.long for f in text.flags}
    assert roff.summary == "list directory contents"
    rendered = parse_fixture("man/rg")
    clap = parse_fixture("clap/rg")
    missing = {f.long for f in clap.flags} - {f.long for f in rendered.flags}
    assert missing == {"--help", "--version"}  # rg's man page does not list them
    tar = parse_fixture("man/tar")
    assert flag(tar, "--listed-incremental").type == "path"
    assert any(u.startswith("tar -c [-f ARCHIVE]") for u in tar.usage)


def test_man_page_lists_commands_as_pages():
    """git(1) lists every command as `git-NAME(1)` under its heading; SEE ALSO and the guides do not count."""
    git = parse_fixture("man/git")
    by_name = {c.name: c for c in git.subcommands}
    assert len(by_name) > 140 and all(c.stub for c in by_name.values())
    assert by_name["upload-pack"].group == "Syncing repositories"
    assert by_name["upload-pack"].summary == "Send objects packed back to git-fetch-pack"
    assert by_name["add"].group == "Main porcelain commands"
    assert not {"attributes", "gitattributes", "revisions", "k"} & set(by_name)
    # a command's own page names others only in prose: no subcommands are invented from it
    assert not parse_fixture("man/git_log").subcommands


def test_click_flask():
    """click: --x / --no-x pairs, types as value names, the listing of commands."""
    run = parse_fixture("click/flask_run")
    debug = flag(run, "--debug")
    assert debug.aliases == ("--no-debug",) and not debug.takes_value
    assert flag(run, "--port").type == "integer"
    assert flag(run, "--cert").type == "path"
    root = parse_fixture("click/flask")
    assert [s.name for s in root.subcommands] == ["routes", "run", "shell"]


def test_docopt_naval_fate():
    """docopt: defaults from [default: x], literal words of usage lines as subcommands."""
    command = parse_fixture("docopt/naval-fate")
    assert flag(command, "--speed").default == "10"
    assert [s.name for s in command.subcommands] == ["ship", "mine"]
    assert flag(command, "-h").long == "--help"


def test_argparse_against_its_own_parser():
    """A real argparse parser: every option it knows is found, with values, choices and subparsers."""
    parser = argparse.ArgumentParser(prog="tool", description="Do things.")
    parser.add_argument("-v", "--verbose", action="count", help="more output")
    parser.add_argument("--level", type=int, default=3, help="how deep (default: %(default)s)")
    parser.add_argument("--mode", choices=["fast", "slow"], help="speed")
    parser.add_argument("-o", "--output", metavar="FILE", help="where to write")
    parser.add_argument("--tag", action="append", metavar="TAG", help="a tag; may be repeated")
    parser.add_argument("--name", required=True, help="who")
    sub = parser.add_subparsers(dest="cmd")
    sub.add_parser("serve", help="serve the thing")
    sub.add_parser("build", help="build the thing")
    text = parser.format_help()
    assert detect_style(text) == "argparse"
    command = parse_help(text, prog=("tool",))
    want = {s for a in parser._actions for s in a.option_strings}
    got = {s for f in command.flags for s in f.spellings}
    assert got == want
    assert flag(command, "--mode").choices == ("fast", "slow")
    assert flag(command, "--level").default == "3"
    assert flag(command, "--tag").repeatable
    assert flag(command, "-o").type == "path"
    assert flag(command, "--name").required and not flag(command, "--mode").required
    assert [(s.name, s.summary) for s in command.subcommands] == [
        ("serve", "serve the thing"),
        ("build", "build the thing"),
    ]


def test_click_against_its_own_command():
    """A real click group: options, [required], [default: x], Choice and subcommands as click prints them."""
    click = pytest.importorskip("click")
    from click.testing import CliRunner

    @click.group(help="Manage widgets.")
    @click.option("--name", required=True, help="Widget name.")
    @click.option("--count", type=int, default=2, show_default=True, help="How many.")
    @click.option("--format", "fmt", type=click.Choice(["json", "yaml"]), help="Output format.")
    @click.option("--dry-run/--no-dry-run", default=False, help="Only show.")
    def cli(name, count, fmt, dry_run):
        """Manage widgets."""

    @cli.command(help="Make one.")
    def make():
        pass

    text = CliRunner().invoke(cli, ["--help"], prog_name="widget").output
    command = parse_help(text, prog=("widget",))
    assert command.parser == "click"
    want = {s for p in cli.params for s in p.opts + p.secondary_opts} | {"--help"}
    assert {s for f in command.flags for s in f.spellings} == want
    assert flag(command, "--name").required
    count = flag(command, "--count")
    assert (count.type, count.default) == ("integer", "2")
    assert flag(command, "--format").choices == ("json", "yaml")
    assert [s.name for s in command.subcommands] == ["make"]


def test_unknown_style_lists_valid_ones():
    """An unknown style name is a WrapgenError whose hint lists every registered style."""
    with pytest.raises(UsageError) as caught:
        parse_help("Usage: x", prog=("x",), style="nope")
    assert isinstance(caught.value, WrapgenError)
    for name in style_names():
        assert name in caught.value.hint


def test_registered_styles():
    """All eight styles of the contract are registered, and the other ecosystems' frameworks
    (issue 13: PHP/Go ones here; tests/parse/test_node_styles.py pins the Node ones too)."""
    assert set(style_names()) == {
        "absl",
        "gnu",
        "argparse",
        "click",
        "cobra",
        "clap",
        "git",
        "man",
        "docopt",
        "symfony",
        "kingpin",
        "urfave",
        "commander",
        "yarn",
        "yargs",
        "oclif",
        "npm",
    }


def test_a_style_module_imports_by_its_dotted_name():
    """``wrapgen.parse.styles`` is the subpackage, not a function of the same name, so the dotted
    import of a style module works in this process (wrapgen.parse imported) and in a fresh one."""
    import subprocess
    import sys
    import types

    import wrapgen.parse
    import wrapgen.parse.styles.urfave as urfave

    assert isinstance(wrapgen.parse.styles, types.ModuleType)
    assert urfave.parse_urfave.__module__ == "wrapgen.parse.styles.urfave"
    fresh = subprocess.run(
        [sys.executable, "-c", "import wrapgen.parse.styles.symfony as S; print(S.__name__)"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert fresh.stdout.strip() == "wrapgen.parse.styles.symfony", fresh.stderr


def test_empty_and_junk_input():
    """Empty, binary and ANSI-coloured help never raise and still give a Command for the path."""
    assert parse_help("", prog=("x", "y")).path == ("y",)
    junk = parse_help(b"\x00\xff\xfe\x1b[31m--bad\x1b[0m \x08\x08", prog=("x",))
    assert junk.path == ()
    coloured = parse_help(
        "Usage: x [OPTIONS]\n\nOptions:\n  \x1b[1m-a\x1b[0m, \x1b[1m--all\x1b[0m  everything\n",
        prog=("x",),
    )
    assert flag(coloured, "--all").short == "-a"
    bold = "".join(c + "\b" + c for c in "--all")
    overstruck = parse_help(f"Options:\n  {bold}  everything\n", prog=("x",))
    assert flag(overstruck, "--all")


def test_go_flag_package_style():
    """Go's flag package: single-dash long names, a type word as value, description on the next line."""
    text = (
        "Usage of server:\n"
        "  -addr string\n"
        '    \tlisten address (default ":8080")\n'
        "  -n int\n"
        "    \tworkers (default 4)\n"
        "  -v\tverbose logging\n"
    )
    command = parse_help(text, prog=("server",))
    addr = flag(command, "-addr")
    assert (addr.takes_value, addr.value_name, addr.default) == (True, "string", ":8080")
    assert flag(command, "-n").type == "integer"
    assert not flag(command, "-v").takes_value


def test_yargs_and_commander_styles():
    """Node CLIs: yargs type tags and prefixed command lines, commander's listings with operands."""
    yargs = (
        "tool <cmd> [args]\n\nCommands:\n  tool serve [port]  start the server\n  tool build         build it\n\n"
        "Options:\n  --version   Show version number                     [boolean]\n"
        "  -p, --port  port to bind on           [number] [default: 5000]\n"
        "  --tag       tags to add                               [array]\n"
        '  --mode      how                  [choices: "fast", "slow"]\n'
    )
    command = parse_help(yargs, prog=("tool",))
    assert [s.name for s in command.subcommands] == ["serve", "build"]
    port = flag(command, "--port")
    assert (port.takes_value, port.type, port.default) == (True, "number", "5000")
    assert flag(command, "--tag").repeatable and not flag(command, "--version").takes_value
    assert flag(command, "--mode").choices == ("fast", "slow")
    commander = (
        "Usage: app [options] [command]\n\nOptions:\n  -V, --version          output the version number\n"
        "  -h, --help             display help for command\n\nCommands:\n"
        "  serve [options] <dir>  start a server\n  help [command]         display help for command\n"
    )
    command = parse_help(commander, prog=("app",))
    assert [(s.name, s.summary) for s in command.subcommands] == [
        ("serve", "start a server"),
        ("help", "display help for command"),
    ]


def test_git_subcommands_from_usage_lines():
    """git stash -h / git remote -h: one 'or:' usage line per subcommand gives the stubs."""
    stash = parse_fixture("git/git_stash")
    assert [s.name for s in stash.subcommands][:3] == ["list", "show", "drop"]
    assert "push" in {s.name for s in stash.subcommands}  # "git stash [push [-p ...]]"
    remote = parse_fixture("git/git_remote")
    names = [s.name for s in remote.subcommands]
    assert names[:2] == ["add", "rename"] and "show" in names  # "git remote [-v] show <name>"
    assert all(s.path[:1] == ("remote",) for s in remote.subcommands)
    assert not remote.positionals  # the operands belong to the subcommands


def test_openssl_columns_and_zipfile_values():
    """openssl help lists command names in columns; zipfile's -e takes two <values>."""
    openssl = parse_fixture("gnu/openssl")
    names = [s.name for s in openssl.subcommands]
    assert names[:4] == ["asn1parse", "ca", "ciphers", "cmp"] and "x509" in names
    zipfile = parse_fixture("argparse/zipfile")
    extract = flag(zipfile, "--extract")
    assert (extract.short, extract.value_name) == ("-e", "zipfile output_dir")


def test_man_mdoc_and_docbook():
    """mdoc (ssh.1: .It Fl B Ar x, .It Fl D Xo ... .Xc) and docbook (.PP tag, .RS description) pages read."""
    ssh = parse_fixture("man/ssh")
    usage_flags = parse_fixture("gnu/ssh")
    assert {f.short for f in ssh.flags} == {
        f.short for f in usage_flags.flags
    }  # man == usage synopsis
    assert flag(ssh, "-D").value_name == "[bind_address:]port"
    assert ssh.summary == "OpenSSH remote login client"
    assert [p.name for p in ssh.positionals] == ["destination"]
    log = parse_fixture("man/git_log")
    decorate = flag(log, "--decorate")
    assert decorate.aliases == ("--no-decorate",) and decorate.value_optional
    assert flag(log, "--follow").description.startswith("Continue listing the history")
    assert flag(log, "-n").long == "--max-count"


def test_man_mdoc_synopsis_forms_and_default_argument():
    """mdoc's SYNOPSIS begins each form of the command with .Nm: each is a usage line of its own;
    an .Ar with no argument stands for "file ..."."""
    page = "\n".join(
        [
            ".Dd $Mdocdate$",
            ".Dt WGKEYS 1",
            ".Sh NAME",
            ".Nm wgkeys",
            ".Nd hands keys to an agent",
            ".Sh SYNOPSIS",
            ".Nm wgkeys",
            ".Op Fl lD",
            ".Op Fl t Ar life",
            ".Op Ar",
            ".Nm wgkeys",
            ".Fl s Ar provider",
            ".Nm wgkeys",
            ".Fl T",
            ".Ar pubkey ...",
            ".Sh DESCRIPTION",
            "Adds keys.",
            ".Bl -tag -width Ds",
            ".It Fl l",
            "Lists fingerprints of all keys the agent holds.",
            ".It Fl D",
            "Deletes all keys from the agent.",
            ".El",
        ]
    )
    command = parse_help(page, prog=("wgkeys",), style="man")
    assert command.usage == (
        "wgkeys [-lD] [-t life] [file ...]",
        "wgkeys -s provider",
        "wgkeys -T pubkey...",
    )
    assert [(p.name, p.variadic) for p in command.positionals] == [("file", True)]


def test_switches_one_of_which_must_be_given_are_operations():
    """A heading saying one of the switches under it must be given lists the tool's operations (as
    "Operation mode:" does); the optional ones after it are not."""
    text = (
        "Usage: dumper <option(s)> <file(s)>\n"
        " Display information from object <file(s)>.\n"
        " At least one of the following switches must be given:\n"
        "  -a, --archive-headers    Display archive header information\n"
        "  -f, --file-headers       Display the contents of the overall file header\n"
        "\n"
        " The following switches are optional:\n"
        "  -w, --wide               Format output for more than 80 columns\n"
    )
    command = parse_help(text, prog=("dumper",))
    assert flag(command, "--archive-headers").operation and flag(command, "-f").operation
    assert not flag(command, "--wide").operation


def test_urfave_picocli_dotnet_styles():
    """urfave/cli, picocli and System.CommandLine help read with the shared grammar."""
    urfave = (
        "NAME:\n   greet - fight the loneliness!\n\nUSAGE:\n   greet [global options] command [command options]\n\n"
        "COMMANDS:\n   help, h  Shows a list of commands\n\nGLOBAL OPTIONS:\n"
        '   --lang value, -l value  language for the greeting (default: "english")\n'
        "   --help, -h              show help (default: false)\n"
    )
    command = parse_help(urfave, prog=("greet",))
    assert command.summary == "fight the loneliness!"
    lang = flag(command, "--lang")
    assert (lang.short, lang.value_name, lang.default) == ("-l", "value", "english")
    assert flag(command, "--help").default is None  # a switch has no default value to pass
    assert [(s.name, s.aliases) for s in command.subcommands] == [("help", ("h",))]
    picocli = (
        "Usage: checksum [-hV] [-a=<algorithm>] <file>\nPrints the checksum of a file.\n"
        "      <file>      The file whose checksum to calculate.\n"
        "  -a, --algorithm=<algorithm>\n                  MD5, SHA-1, SHA-256, ...\n"
        "  -h, --help      Show this help message and exit.\n"
    )
    command = parse_help(picocli, prog=("checksum",))
    assert flag(command, "-a").value_name == "algorithm"
    assert [(p.name, p.required) for p in command.positionals] == [("file", True)]
    dotnet = (
        "Usage:\n  dotnet build [<PROJECT | SOLUTION>...] [options]\n\nOptions:\n"
        "  --ucr, --use-current-runtime  Use current runtime as the target runtime.\n"
        "  -?, -h, --help                Show command line help.\n"
    )
    command = parse_help(dotnet, prog=("dotnet", "build"))
    assert flag(command, "--ucr").long == "--use-current-runtime"
    assert flag(command, "-h").long == "--help"
    assert [(p.name, p.variadic) for p in command.positionals] == [("PROJECT | SOLUTION", True)]


def test_deprecated_commands():
    """A listing entry or a help that says it is deprecated marks the command deprecated."""
    listing = "Commands:\n  old    (deprecated) use new instead\n  new    the new way\n"
    command = parse_help(listing, prog=("tool",))
    assert [(s.name, s.deprecated) for s in command.subcommands] == [("old", True), ("new", False)]
    text = 'Command "old" is deprecated, use "new" instead\n\nUsage:\n  tool old [flags]\n'
    assert parse_help(text, prog=("tool", "old")).deprecated


def test_terraform_and_go_styles():
    """terraform (single-dash global options, '[global options]') and go help ('The commands are:')."""
    terraform = (
        "Usage: terraform [global options] <subcommand> [args]\n\nMain commands:\n"
        "  init          Prepare your working directory\n\n"
        "Global options (use these before the subcommand, if any):\n"
        "  -chdir=DIR    Switch to a different working directory\n  -help         Show this help output\n"
    )
    command = parse_help(terraform, prog=("terraform",))
    assert (
        command.positionals == ()
    )  # "[global options]" is a placeholder, "<subcommand>" the command
    chdir = flag(command, "-chdir")
    assert chdir in command.global_flags and chdir.value_name == "DIR"
    assert [(s.name, s.group) for s in command.subcommands] == [("init", "Main commands")]
    go = "Usage:\n\n\tgo <command> [arguments]\n\nThe commands are:\n\n\tbug         start a bug report\n"
    command = parse_help(go, prog=("go",))
    assert command.usage == ("go <command> [arguments]",)
    assert [(s.name, s.summary) for s in command.subcommands] == [("bug", "start a bug report")]


def test_man_ronn_bullet_options_jq():
    """jq's ronn man page: "\\[ci]" bullet tags ("--raw-output / -r:") are options, under a heading ronn left in the text."""
    command = parse_fixture("man/jq")
    raw = flag(command, "--raw-output")
    assert raw.short == "-r" and not raw.takes_value
    assert flag(command, "-s").long == "--slurp"  # "--slurp/-s:" without spaces
    assert (
        flag(command, "-C").long == "--color-output"
        and flag(command, "-M").long == "--monochrome-output"
    )
    assert (
        flag(command, "--from-file").short == "-f" and flag(command, "-f").value_name == "filename"
    )
    assert "-Ldirectory" not in {
        s for f in command.flags for s in f.spellings
    }  # "-Ldirectory / -L directory"
    assert flag(command, "--arg").value_name == "name value"
    assert flag(command, "--run-tests").value_optional
    # Every option jq's own --help lists is found in its man page too.
    help_text = parse_fixture("gnu/jq")
    assert {s for f in help_text.flags for s in f.spellings} - {"-h", "--help"} <= {
        s for f in command.flags for s in f.spellings
    }
    # ronn wrote the description into SYNOPSIS: only the usage line is usage.
    assert command.usage == ("jq [options...] filter [files...]",)
    assert [p.name for p in command.positionals] == ["filter", "files"]


def test_man_ronn_helpers_leave_prose_alone():
    """A bullet of prose stays prose, and "## " only splits a heading off when it ends the line."""
    from wrapgen.parse.styles.man import _ronn_tags, roff_to_text

    assert _ronn_tags("Numbers are added by normal arithmetic.") is None
    assert _ronn_tags("--indent n:") == ["--indent <n>"]
    text = roff_to_text(
        '.SH "X"\n.IP "\\[ci]" 4\n\\fBnull\\fR\n.P\nuse ## markers here\n.P\nsimpler: ## INVOKING JQ\n'
    )
    assert text.split("\n") == [
        "",
        "X",
        "",
        "",
        "       null",
        "",
        "       use ## markers here",
        "",
        "       simpler:",
        "",
        "INVOKING JQ",
        "",
        "",
    ]


def test_git_stat_nested_optional_value():
    """git's "--stat[=<width>[,<name-width>[,<count>]]]" (two nested optional parts) is read as --stat with an optional value."""
    from wrapgen.parse.options import parse_options
    from wrapgen.parse.styles.man import roff_to_text

    lines = roff_to_text((HELP / "man/git_log.txt").read_text(encoding="utf-8")).split("\n")
    start = next(i for i, line in enumerate(lines) if line.strip().startswith("--stat[="))
    flags = parse_options(lines[start : start + 2])
    assert [f.spellings for f in flags] == [("--stat",)]
    assert flags[0].takes_value and flags[0].value_optional
    assert flags[0].value_name == "<width>[,<name-width>[,<count>]]"


def test_a_help_of_forms_each_with_its_help_is_the_commands_usage():
    """A command's help that is only its forms, each with its help after a gap (Python's cmd module:
    "status <name>\\t\\tGet status ..."), with a run-on line: the forms are the usage lines, the
    first form's help the summary; prose that is not a form keeps the help as it was."""
    text = (
        "status <name>\t\tGet status for a single process\n"
        "status <name> <name>\tGet status for multiple named processes\n"
        "\t\t\tNames may repeat\n"
        "status\t\t\tGet all process status info\n"
    )
    command = parse_help(text, prog=("ctl", "status"))
    assert command.usage == ("ctl status <name>", "ctl status <name> <name>", "ctl status")
    assert command.summary == "Get status for a single process"
    assert [(p.name, p.required) for p in command.positionals] == [("name", False)]
    prose = parse_help(
        "Shows the status of things.\nstatus is the default.\n", prog=("ctl", "status")
    )
    assert prose.usage == ()


def test_a_usage_section_listing_a_form_per_command_gives_the_commands():
    """A usage section with one form per command, each with its help below it (a password store's
    script): each form is a command with its usage line, summary, operands and flags; the form of
    a default command in brackets ("[ls]") names it; a command that forwards a command line to
    another program is one too, and propose's rules leave it out."""
    from wrapgen.knowledge.commands import forwards_command_line

    text = (
        "Usage:\n"
        "    vault init [--path=subfolder,-p subfolder] gpg-id...\n"
        "        Initialize new storage and use gpg-id for encryption.\n"
        "    vault [ls] [subfolder]\n"
        "        List secrets.\n"
        "    vault find secret-names...\n"
        "    \tList secrets that match secret-names.\n"
        "    vault rm [--recursive,-r] secret-name\n"
        "        Remove an existing secret.\n"
        "    vault git git-command-args...\n"
        "        Run a git command in the store.\n"
    )
    command = parse_help(text, prog=("vault",))
    by_name = {c.name: c for c in command.subcommands}
    assert list(by_name) == ["init", "ls", "find", "rm", "git"]
    assert by_name["ls"].usage == ("vault ls [subfolder]",)
    assert by_name["ls"].summary == "List secrets."
    assert by_name["find"].summary == "List secrets that match secret-names."
    assert [(p.name, p.required) for p in by_name["rm"].positionals] == [("secret-name", True)]
    assert [f.long for f in by_name["rm"].flags] == ["--recursive"]
    assert forwards_command_line(by_name["git"]) and not forwards_command_line(by_name["find"])


def test_a_few_forms_of_one_tool_are_no_list_of_commands():
    """Two forms, or forms whose second word is the options placeholder, are ways to call the tool."""
    text = (
        "Usage:\n"
        "    runner [options] <mainclass> [args...]\n"
        "        (to execute a class)\n"
        "    runner [options] -jar <jarfile> [args...]\n"
        "        (to execute a jar file)\n"
    )
    assert parse_help(text, prog=("runner",)).subcommands == ()


def test_yargs_commands_under_headings_of_their_own_words():
    """yargs groups its command-line listing under headings of the tool's own ("ACCOUNT", "COMPUTE &
    AI"): rows of the program and a command word, then a summary, are a listing under any heading;
    a pictograph opening a summary is no part of it."""
    text = (
        "edgectl\n\n"
        "COMMANDS\n"
        "  edgectl docs [search..]        \U0001f4da Open the command documentation\n\n"
        "ACCOUNT\n"
        "  edgectl login                  \U0001f513 Login to the cloud\n"
        "  edgectl whoami                 \U0001f575\ufe0f Retrieve your user information\n\n"
        "COMPUTE & AI\n"
        "  edgectl deploy [script]        \U0001f199 Deploy a worker\n"
        "  edgectl tail [worker]          \U0001f9a0 Start a log tailing session\n\n"
        "GLOBAL FLAGS\n"
        "  -c, --config    Path to the configuration file  [string]\n"
        "  -h, --help      Show help  [boolean]\n"
    )
    command = parse_help(text, prog=("edgectl",), style="yargs")
    by_name = {c.name: c for c in command.subcommands}
    assert list(by_name) == ["docs", "login", "whoami", "deploy", "tail"]
    assert by_name["whoami"].summary == "Retrieve your user information"
    assert by_name["deploy"].group == "COMPUTE & AI"


def test_a_listing_that_gives_each_help_over_its_form():
    """A storage client lists "  Make bucket" over "      store mb s3://BUCKET": each form is a
    command, the line over it its summary, and a placeholder written inside its URL scheme
    ("s3://BUCKET/OBJECT") an operand."""
    text = (
        "Usage: store [options] COMMAND [parameters]\n\n"
        "Commands:\n"
        "  Make bucket\n"
        "      store mb s3://BUCKET\n"
        "  List objects or buckets\n"
        "      store ls [s3://BUCKET[/PREFIX]]\n"
        "  Get file from bucket\n"
        "      store get s3://BUCKET/OBJECT LOCAL_FILE\n"
        "  Delete file from bucket (alias for del)\n"
        "      store rm s3://BUCKET/OBJECT\n"
    )
    command = parse_help(text, prog=("store",))
    by_name = {c.name: c for c in command.subcommands}
    assert list(by_name) == ["mb", "ls", "get", "rm"]
    assert by_name["mb"].summary == "Make bucket"
    assert [(p.name, p.required) for p in by_name["get"].positionals] == [
        ("s3://BUCKET/OBJECT", True),
        ("LOCAL_FILE", True),
    ]
    assert [(p.name, p.required) for p in by_name["ls"].positionals] == [("s3://BUCKET", False)]


def test_a_listing_of_whole_forms_with_their_help_beside_them():
    """`  tool init [name]      Initialize a project`: the form is the usage line, the words after
    the gap the summary (never part of the form)."""
    text = (
        "Usage: tool <command>\n\nCommands:\n"
        "  tool init [name]      Initialize a project\n"
        "  tool build            Build it\n"
        "  tool deploy [env]     Deploy it\n"
    )
    by_name = {c.name: c for c in parse_help(text, prog=("tool",)).subcommands}
    assert by_name["init"].usage == ("tool init [name]",)
    assert by_name["init"].summary == "Initialize a project"
    assert [p.name for p in by_name["deploy"].positionals] == ["env"]


def test_headings_inside_a_listing_group_its_entries_and_are_no_commands():
    """An application framework's "Commands:" split by headings ("Learn:", "Create an App:", "And
    More:"), each over its more deeply indented entries: the headings are the entries' groups, not
    commands named "Learn" and "And", and every entry under them is read."""
    from wrapgen.parse.listing import parse_listing

    lines = [
        "  Learn:",
        "    docs",
        "",
        "  Create an App:",
        "    init            Initialize an application.",
        "",
        "  Develop your App:",
        "    build           Build your function code.",
        "    validate        Validate a template.",
        "",
        "  And More:",
        "    delete          Delete an application and the artifacts created",
        "                    by a deploy.",
    ]
    stubs = parse_listing(lines, parent=())
    assert [(s.name, s.group) for s in stubs] == [
        ("docs", "Learn"),
        ("init", "Create an App"),
        ("build", "Develop your App"),
        ("validate", "Develop your App"),
        ("delete", "And More"),
    ]
    assert stubs[-1].summary == "Delete an application and the artifacts created by a deploy."
    # a capitalised name with its summary on the next line at the same depth stays an entry
    flat = parse_listing(["  Build:", "  Builds the thing."], parent=())
    assert [s.name for s in flat] == ["Build"]


def test_a_listing_of_whole_paths_gives_each_family_once():
    """A key-value client lists "alarm disarm<TAB><TAB>Disarms all alarms": commands of the family
    "alarm", by their whole path. The family is the subcommand (its own page lists its members),
    once; single-word entries beside them stay as they are."""
    from wrapgen.parse import parse_help

    text = (
        "NAME:\n\tkvctl - A simple command line client.\n\nUSAGE:\n\tkvctl [flags]\n\n"
        "COMMANDS:\n"
        "\talarm disarm\t\tDisarms all alarms\n"
        "\talarm list\t\tLists all alarms\n"
        "\tcompaction\t\tCompacts the event history\n"
        "\tendpoint health\t\tChecks the healthiness of endpoints\n"
        "\tget\t\t\tGets the key or a range of keys\n"
    )
    command = parse_help(text, prog=("kvctl",))
    assert [s.name for s in command.subcommands] == [
        "alarm",
        "compaction",
        "endpoint",
        "get",
    ]
