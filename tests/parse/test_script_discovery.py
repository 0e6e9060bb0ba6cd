"""Shell-script tools: read their dispatch and usage text without running them."""

from __future__ import annotations

import textwrap

import pytest

from conftest import REPO
from wrapgen.errors import HelpUnreadableError
from wrapgen.parse.script import (
    discover_script,
    is_shell_script,
    read_shell_script,
    shebang_interpreter,
)
from wrapgen.probe.discover import discover

DEPLOYCTL = REPO / "recipes" / "examples" / "bin" / "deployctl"


def _sub(root, name):
    return next(c for c in root.subcommands if c.name == name)


def test_example_deployctl_tree():
    """The example script's seven arms become commands with aliases, summaries, flags and positionals."""
    tool = discover_script(DEPLOYCTL)
    root = tool.root
    assert [c.name for c in root.subcommands] == [
        "list",
        "status",
        "history",
        "logs",
        "deploy",
        "rollback",
        "destroy",
    ]
    assert _sub(root, "list").aliases == ("ls",) and _sub(root, "destroy").aliases == ("rm",)
    assert _sub(root, "deploy").summary == "Deploy a version of a service"
    deploy = _sub(root, "deploy")
    env = next(f for f in deploy.flags if f.long == "--env")
    assert env.short == "-e" and env.takes_value and env.value_name == "ENV"
    assert env.description.startswith("Environment to act on")
    dry = next(f for f in deploy.flags if f.long == "--dry-run")
    assert dry.short == "-n" and not dry.takes_value
    assert [(p.name, p.required) for p in deploy.positionals] == [
        ("service", True),
        ("version", True),
    ]
    assert [(p.name, p.required) for p in _sub(root, "list").positionals] == []
    logs = _sub(root, "logs")
    assert [f.long for f in logs.flags] == ["--lines"] and logs.flags[0].takes_value
    assert root.summary == "Deploy services to the team's environments."
    assert root.usage == ("deployctl COMMAND [OPTIONS] [ARGS]",)
    assert all(c.parser == "script" for c in root.walk())
    assert tool.warnings == ()


def test_discover_reads_a_shell_script_without_running_it(tmp_path):
    """discover() on a shell script never executes it (a marker file it would write stays absent)."""
    marker = tmp_path / "ran"
    script = tmp_path / "tool.sh"
    script.write_text(
        textwrap.dedent(f"""\
        #!/bin/bash
        touch {marker}
        case "$1" in
          start) echo start ;;
          stop) echo stop ;;
        esac
        """)
    )
    script.chmod(0o755)
    tool = discover(str(script), cache=False)
    assert [c.name for c in tool.root.subcommands] == ["start", "stop"]
    assert not marker.exists()


def test_a_script_read_to_nothing_points_at_probing_it(tmp_path):
    """A script with no dispatch, flags or usage (mvn's) is not run, and the warning names --style to probe it."""
    marker = tmp_path / "ran"
    script = tmp_path / "launch-java"
    script.write_text(
        f'#!/bin/sh\ntouch {marker}\nJAVA_OPTS="-Xmx1g"\njava $JAVA_OPTS -jar app.jar $*\n'
    )
    script.chmod(0o755)
    tool = discover(str(script), cache=False)
    assert not marker.exists()
    assert any("pass --style gnu" in w and "launch-java --help" in w for w in tool.warnings)


def test_variable_dispatch_getopts_and_echo_usage():
    """`cmd=$1; case $cmd`, getopts letters and echo-printed usage are all read."""
    text = textwrap.dedent("""\
        #!/bin/sh
        usage() {
          echo "usage: $0 COMMAND"
          echo "  backup DIR     Copy a directory to the vault"
          echo "  restore NAME   Bring a backup back"
        }
        do_backup() {
          while getopts "vo:" opt; do
            case $opt in
              v) verbose=1 ;;
              o) out=$OPTARG ;;
            esac
          done
        }
        cmd=$1
        case $cmd in
          backup) shift; do_backup "$@" ;;
          restore) shift; echo restoring "$1" ;;
          *) usage; exit 1 ;;
        esac
        """)
    root, warnings = read_shell_script(text, prog="vault")
    backup = _sub(root, "backup")
    assert backup.summary == "Copy a directory to the vault"
    assert {(f.short, f.takes_value) for f in backup.flags} == {("-v", False), ("-o", True)}
    assert [p.name for p in backup.positionals] == ["dir"]
    assert _sub(root, "restore").summary == "Bring a backup back"
    assert warnings == ()


def test_heredoc_with_apostrophes_and_function_keyword():
    """Help text with quotes inside a heredoc does not confuse the tokenizer; `function f {` is a function."""
    text = textwrap.dedent("""\
        #!/usr/bin/env bash
        function usage {
          cat <<'EOF'
        Usage: tool COMMAND
        It's the team's tool; don't "panic".
          sync    Sync what's changed
        EOF
        }
        function do_sync {
          case "$1" in
            --dry-run) dry=1 ;;
          esac
        }
        case "${1:-}" in
          sync) shift; do_sync "$@" ;;
          help|-h) usage ;;
        esac
        """)
    root, _ = read_shell_script(text, prog="tool")
    assert [c.name for c in root.subcommands] == ["sync"]
    sync = root.subcommands[0]
    assert sync.summary == "Sync what's changed"
    assert [f.long for f in sync.flags] == ["--dry-run"]
    assert root.summary == "It's the team's tool; don't \"panic\"."


def test_script_without_dispatch_warns_and_keeps_flags():
    """A script with no `case "$1"` dispatch is a tool without subcommands, with a warning saying so."""
    text = '#!/bin/bash\nwhile [ $# -gt 0 ]; do\n  case "$1" in\n    -q|--quiet) q=1; shift ;;\n  esac\ndone\n'
    root, warnings = read_shell_script(text, prog="quiet")
    assert root.subcommands == ()
    assert [f.long for f in root.flags] == ["--quiet"]
    assert any("no `case" in w for w in warnings) and any("no usage text" in w for w in warnings)


def test_usage_held_in_a_variable_names_the_operands():
    """A script that keeps its help in a variable (`usage="Usage: ${0##*/} ..."`, printed with
    `echo "$usage"`) is read from it: the usage line with the program's name, and the operands of a
    tool without subcommands from that line."""
    text = textwrap.dedent(
        """\
        #!/bin/sh
        usage="Usage: ${0##*/} [OPTION]... [-e] PATTERN [FILE]...
        Look for PATTERN in FILEs.

          -i, --ignore-case   ignore case"
        while test $# -ne 0; do
          case $1 in
            -i|--ignore-case) icase=1;;
            --help) echo "$usage" || exit 2; exit;;
          esac
          shift
        done
        """
    )
    root, warnings = read_shell_script(text, prog="zsearch")
    assert root.usage == ("zsearch [OPTION]... [-e] PATTERN [FILE]...",)
    assert [(p.name, p.required, p.variadic) for p in root.positionals] == [
        ("PATTERN", True, False),
        ("FILE", False, True),
    ]
    assert not any("no usage text" in w for w in warnings)


def test_unreadable_script_is_a_clear_error():
    """An unterminated quote gives HelpUnreadableError with a next step, never a traceback."""
    with pytest.raises(HelpUnreadableError) as info:
        read_shell_script('#!/bin/bash\necho "unterminated\n', prog="broken")
    assert "bash -n" in info.value.hint


def test_shebang_detection(tmp_path):
    """sh/bash/env bash scripts count as shell scripts; python and binaries do not."""
    cases = {
        "a": "#!/bin/bash\n",
        "b": "#!/usr/bin/env bash\n",
        "c": "#!/bin/sh -e\n",
        "d": "#!/usr/bin/env python3\n",
        "e": "\x7fELF\x02",
    }
    for name, head in cases.items():
        (tmp_path / name).write_text(head)
    assert [is_shell_script(tmp_path / n) for n in "abcde"] == [True, True, True, False, False]
    assert shebang_interpreter(tmp_path / "d") == "python"
    assert not is_shell_script(REPO / "recipes" / "examples" / "bin" / "notes")
