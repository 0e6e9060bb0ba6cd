"""Hand-over launchers: scripts that never read their arguments but to pass all of them on."""

from __future__ import annotations

import pytest

from wrapgen.parse.script import hands_over, is_launcher, launched_paths

PREAMBLE = """\
#!/bin/sh
_which() {
  command -v "$1" 2>/dev/null
}
order() {
  for candidate in "$@"; do
    _which "$candidate" >/dev/null && { echo "$candidate"; return; }
  done
}
PY=$(order python3 python)
case ":$SITE:" in
  ::) ARGS=-S ;;
esac
"""


@pytest.mark.parametrize(
    "ending",
    [
        'exec "$PY" $ARGS "$ROOT/lib/app.py" "$@"\n',
        '"$PY" $ARGS /opt/kit/app.py "$@"\n',
        '"$PY" /opt/kit/app.py "$@"\nexit $?\n',
    ],
)
def test_a_set_up_that_never_reads_the_arguments_hands_them_over(ending):
    """Functions, loops and a case over a variable, then the program run with "$@": a launcher."""
    assert hands_over(PREAMBLE + ending)
    assert is_launcher(PREAMBLE + ending)


@pytest.mark.parametrize(
    "middle",
    [
        'case "$1" in\n  up) echo up; exit ;;\nesac\n',  # a dispatch of its own
        "shift\n",  # drops an argument
        'first="${1:-}"\n',  # reads one
        "set -- --verbose\n",  # replaces them
        'order "$@"\n',  # hands them to a function of its own
        'if [ "$#" -eq 0 ]; then echo none; fi\n',  # counts them
    ],
)
def test_a_script_that_reads_its_arguments_is_no_hand_over(middle):
    """Any word naming the arguments outside a function body, before the hand-over, disqualifies."""
    assert not hands_over(PREAMBLE + middle + '"$PY" /opt/kit/app.py "$@"\n')


@pytest.mark.parametrize(
    "ending",
    [
        'exec "$@"\n',  # the arguments are the program
        'if true; then\n  "$PY" /opt/kit/app.py "$@"\nfi\n',  # inside a construct
        '"$PY" /opt/kit/app.py "$@" | tee log\n',  # piped on: the last statement is tee
        '"$PY" /opt/kit/app.py\n',  # no "$@"
    ],
)
def test_the_hand_over_is_the_last_statement_and_runs_a_program(ending):
    """The program run with every argument must be the script's last statement, and no argument."""
    assert not hands_over(PREAMBLE + ending)


def test_the_launched_paths_of_a_hand_over_are_its_absolute_words():
    """The sandbox binds back what the last statement names by absolute path."""
    script = PREAMBLE + '"/usr/bin/python3" /opt/kit/app.py "$@"\n'
    assert launched_paths(script) == ("/usr/bin/python3", "/opt/kit/app.py")
