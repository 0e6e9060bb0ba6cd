"""A verb's JSON selection and the flags beside it: a ``--json`` about the data a command sends is
no output selection, and on a verb that selects JSON a flag that prints another format is left out
(with it the answer would not parse: issue 28's 'output is not JSON' on YAML-printing filters)."""

from __future__ import annotations

from wrapgen.model.tool import Command, Flag, Positional
from wrapgen.propose.args import plan_args
from wrapgen.propose.jsonsel import select_json


def test_a_json_flag_about_the_request_selects_no_output():
    sender = Command(
        flags=(
            Flag(
                long="--json",
                short="-j",
                description="(default) Data items from the command line are serialized as a "
                "JSON object.",
            ),
        )
    )
    assert select_json(sender).selection is False
    printer = Command(flags=(Flag(long="--json", description="Print the result as JSON"),))
    assert select_json(printer).selection == ("--json",)


def test_a_flag_printing_another_format_is_left_out_where_the_verb_selects_json():
    command = Command(
        flags=(
            Flag(long="--yaml-output", description="Transcode the JSON output back into YAML"),
            Flag(long="--csv", description="Output the results as CSV"),
            Flag(long="--sort-by", takes_value=True, description="Sort the items by a field"),
        ),
        positionals=(Positional("FILE", required=True),),
    )
    selected = plan_args(command, tool="wgq", effect="read", json_flag="--json", include=None)
    assert "sort_by" in selected.properties
    assert not {"yaml_output", "csv"} & set(selected.properties)
    reasons = dict(selected.left_out)
    assert reasons["--yaml-output"].startswith("another output format")
    # on a text verb the format is the answer's own: no such reason (the ranking decides)
    text = plan_args(command, tool="wgq", effect="read")
    assert not any(why.startswith("another output format") for _, why in text.left_out)


def test_a_single_dash_json_switch_selects_json():
    """A tool that spells its long options with one dash (`-json`: "set output mode to 'json'")."""
    dbshell = Command(
        flags=(
            Flag(aliases=("-csv",), description="set output mode to 'csv'"),
            Flag(aliases=("-json",), description="set output mode to 'json'"),
        )
    )
    choice = select_json(dbshell)
    assert choice.selection == ("-json",) and choice.flag == "-json"
