"""Which flags a verb offers: the floor a flag must reach is on its own points, never on where the
help lists it (the help's order only breaks ties); a flag that reads from a file what a required
operand gives is not offered beside that operand."""

from __future__ import annotations

from wrapgen.model.tool import Command, Flag, Positional
from wrapgen.propose.args import plan_args


def _filler(i: int) -> Flag:
    # long-only flags with names nobody reaches for first: no points of their own
    return Flag(long=f"--tune-{i}", takes_value=True, type="string", description=f"Tune knob {i}")


def test_a_short_and_long_flag_listed_late_is_offered():
    late = Flag(
        long="--parallel",
        short="-j",
        takes_value=True,
        type="integer",
        description="Run the tests in parallel using the given number of jobs",
    )
    command = Command(flags=(*(_filler(i) for i in range(20)), late))
    offered = plan_args(command, tool="wgtest", effect="read").properties
    assert "parallel" in offered
    # the fillers stay below the floor: the flag is offered on its points, not to fill room
    assert not any(name.startswith("tune") for name in offered)


def test_a_flag_reading_the_operand_from_a_file_is_left_out_beside_that_operand():
    from_file = Flag(
        long="--from-file",
        short="-f",
        takes_value=True,
        type="string",
        description="Read filter from the file rather than from a command line",
    )
    with_operand = Command(flags=(from_file,), positionals=(Positional("FILTER", required=True),))
    planned = plan_args(with_operand, tool="wgtest", effect="read")
    assert "from_file" not in planned.properties and "filter" in planned.properties
    assert dict(planned.left_out)["--from-file"].startswith("reads from a file what")
    # without a required operand there is nothing it would change: offered
    alone = Command(flags=(from_file,), positionals=(Positional("FILE", required=False),))
    assert "from_file" in plan_args(alone, tool="wgtest", effect="read").properties


def test_a_flag_that_runs_a_wizard_is_noise():
    """A wizard asks a person questions: never an arg of a verb an agent calls."""
    from wrapgen.propose.args import flag_noise

    wizard = Flag(long="--init", description="Run config initialization wizard - default: false")
    assert flag_noise(wizard) == "interactive or presentation only"
    assert flag_noise(Flag(long="--cache", description="Only check changed files")) is None


def test_a_flag_that_launches_a_web_interface_is_noise():
    """A web interface serves a person until stopped: never an arg of a verb an agent calls."""
    from wrapgen.propose.args import flag_noise

    ui = Flag(long="-ui", description="launches a web interface using the ui extension")
    assert flag_noise(ui) == "interactive or presentation only"
    listing = Flag(long="--interfaces", description="list the web interfaces it serves")
    assert flag_noise(listing) is None


def test_a_flag_that_sets_the_prompt_is_noise_and_one_naming_an_rc_file_is_dangerous():
    """An interactive shell's prompt format is for a person; an rc file is loaded and run."""
    from wrapgen.knowledge.dangerous_flags import dangerous_reason
    from wrapgen.propose.args import flag_noise

    prompt = Flag(long="--prompt", takes_value=True, description='Prompt format (Default: "> ")')
    assert flag_noise(prompt) == "interactive or presentation only"
    rc = Flag(
        long="--wgstorerc",
        takes_value=True,
        value_name="FILE",
        description="Location of wgstorerc file.",
    )
    assert dangerous_reason(rc, tool="wgstore") is not None
    source = Flag(long="--src", takes_value=True, description="the src file to read")
    assert dangerous_reason(source, tool="wgstore") is None


def test_a_flag_that_loads_custom_rules_is_dangerous_and_one_reading_stdin_is_noise():
    """A linter's custom rule files are code it runs; a call's stdin is always empty."""
    from wrapgen.knowledge.dangerous_flags import dangerous_reason
    from wrapgen.propose.args import flag_noise

    rules = Flag(long="--rules", takes_value=True, description="include custom rule files")
    assert dangerous_reason(rules, tool="wglint") is not None
    dot = Flag(long="--dot", description="include files/folders with a dot")
    assert dangerous_reason(dot, tool="wglint") is None
    stdin = Flag(long="--stdin", description="read from STDIN (does not work with files)")
    assert flag_noise(stdin) == "interactive or presentation only"


def test_a_switch_that_names_and_writes_an_output_file_is_dangerous():
    """A renderer's switch that writes its output beside the input under a name of its own."""
    from wrapgen.knowledge.dangerous_flags import dangerous_reason

    auto = Flag(
        short="-O", description="Automatically generate an output filename based on the input"
    )
    assert dangerous_reason(auto, tool="wgdraw") is not None
    fmt = Flag(short="-T", takes_value=True, value_name="v", description="Set output format to 'v'")
    assert dangerous_reason(fmt, tool="wgdraw") is None


def test_the_tools_copyright_and_licence_flags_are_noise():
    from wrapgen.propose.args import flag_noise

    for spelling in ("--copyright", "--license"):
        assert flag_noise(Flag(long=spelling, description="Print the copyright notice")) is not None


def _optional_value_flag() -> Flag:
    # diff's -u, -U NUM, --unified[=NUM]: the switch is how people use it
    return Flag(
        long="--unified",
        short="-u",
        aliases=("-U",),
        takes_value=True,
        value_optional=True,
        value_name="NUM",
        type="integer",
        default="3",
        description="output NUM (default 3) lines of unified context",
    )


def _use(*flags: str, valued: tuple[str, ...] = ()):
    from wrapgen.model.usage import Use

    return Use(path=(), flags=flags, valued=valued)


def test_an_optional_value_flag_its_uses_pass_bare_is_a_switch():
    """`diff -u a b`: an integer arg could not ask for the unified form without a count it does
    not need; the uses pass it bare, so the verb offers the switch, with no default value."""
    command = Command(flags=(_optional_value_flag(),), positionals=(Positional("FILES"),))
    planned = plan_args(command, tool="wgtest", effect="read", uses=(_use("--unified"),))
    assert planned.properties["unified"]["type"] == "boolean"
    assert "default" not in planned.properties["unified"]
    assert "--unified" in planned.cli_tail and "--unified={{unified}}" not in planned.cli_tail


def test_an_optional_value_flag_stays_a_value_without_bare_uses():
    """No use, or a use that gives it a value (`--pretty=format:%h`): the value is what matters."""
    command = Command(flags=(_optional_value_flag(),), positionals=(Positional("FILES"),))
    for uses in ((), (_use("--unified", valued=("--unified",)),)):
        planned = plan_args(command, tool="wgtest", effect="read", uses=uses)
        assert planned.properties["unified"]["type"] == "integer", uses


def test_a_noise_letter_is_noise_only_where_its_help_agrees():
    """-h, -q by convention help and quiet: a lister's -h prints sizes in human units and its -q
    shows '?' for control characters, work a person asks for; a -h that prints a summary of the
    options, a -v that shows the version, and a letter with no help stay noise."""
    from wrapgen.propose.args import flag_noise

    human = Flag(short="-h", description="Print the size in a more human readable way.")
    marks = Flag(short="-q", description="Print non-printable characters as '?'.")
    assert flag_noise(human) is None and flag_noise(marks) is None
    for noise in (
        Flag(short="-h", description="print this summary."),
        Flag(short="-v", description='show version: "tool 2022-01-14".'),
        Flag(short="-q"),
        Flag(long="--quiet", short="-q", description="Print non-printable characters as '?'."),
    ):
        assert flag_noise(noise), noise
