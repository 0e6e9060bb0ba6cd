"""The shells knowledge: programs recognised with versions and paths, code options, shell syntax."""

from __future__ import annotations

import pytest

from wrapgen.knowledge.shells import is_shell_operator, runner, takes_code


@pytest.mark.parametrize(
    "token, name",
    [
        ("python3.11", "python"),
        ("/usr/bin/python3", "python"),
        ("perl5.36", "perl"),
        ("lua5.4", "lua"),
        ("bash5", "bash"),
        ("BASH", "bash"),
        ("node-18", "node"),
        ("Rscript", "rscript"),
        ("gawk", "gawk"),
    ],
)
def test_programs_are_recognised_with_a_version_or_a_path(token, name):
    """A version suffix and a directory do not hide an interpreter."""
    assert runner(token) is not None and runner(token).name.lower() == name


@pytest.mark.parametrize(
    "token", ["git", "nodes", "python-config", "kubectl", "shell", "pythonista"]
)
def test_other_words_are_no_program(token):
    """Only the program's own name, possibly versioned, counts."""
    assert runner(token) is None


def test_code_options_are_per_program():
    """Short letters count bundled or with the code stuck on; long spellings with or without a value."""
    bash, perl, node, env = runner("bash"), runner("perl"), runner("node"), runner("env")
    assert takes_code("-lc", bash) and takes_code("-c", bash) and not takes_code("-l", bash)
    assert not takes_code("--norc", bash) and not takes_code("--", bash)
    assert takes_code("-E", perl) and takes_code("-ne", perl) and not takes_code("-w", perl)
    assert (
        takes_code("--eval=1", node)
        and takes_code("-p", node)
        and not takes_code("--inspect", node)
    )
    assert (
        takes_code("-S", env) and takes_code("--split-string=x", env) and not takes_code("-i", env)
    )


@pytest.mark.parametrize(
    "token",
    [
        "|",
        "||",
        "|&",
        ";",
        ";;",
        "&&",
        "&",
        ">",
        ">>",
        "2>",
        "2>&1",
        "&>",
        "<",
        "<<",
        "<<-",
        "<<<",
        "<>",
        "$(id)",
        "`id`",
    ],
)
def test_shell_syntax_tokens(token):
    """Pipes, lists, redirections, here-docs and substitutions are shell syntax as whole tokens."""
    assert is_shell_operator(token)


@pytest.mark.parametrize("token", ["--", "-", "a|b", "x;", "--output=>", "2", "$HOME", "name"])
def test_other_tokens_are_no_shell_syntax(token):
    """Only a whole token is syntax: 'a|b' is a value, '--' the end of options."""
    assert not is_shell_operator(token)
