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


def test_a_switch_whose_help_says_it_prints_json_selects_json():
    """-J "Prints out an JSON representation of the tree": the selection, though not spelled --json;
    a switch that colours JSON, reads it or prints something that is not JSON is none."""

    def switch(short: str, help_text: str) -> Flag:
        return Flag(short=short, description=help_text)

    tree = Command(flags=(switch("-J", "Prints out an JSON representation of the tree."),))
    assert select_json(tree).selection == ("-J",)
    notation = Command(flags=(switch("-j", "Output results in JavaScript Object Notation (JSON)"),))
    assert select_json(notation).selection == ("-j",)
    processor = Command(
        flags=(
            switch("-r", "output raw strings, not JSON texts;"),
            switch("-C", "colorize JSON;"),
            switch("-R", "read raw strings, not JSON texts;"),
            switch("-M", "monochrome (don't colorize JSON);"),
        )
    )
    assert select_json(processor).selection is False


def test_a_value_flag_named_for_the_output_format_that_offers_json_selects_it():
    """-print_format FORMAT "(available formats are: default, compact, csv, json, xml)": with json;
    a log's or a date's format that mentions json is not what the command prints."""
    printing = Flag(
        long="-print_format",
        aliases=("-of",),
        takes_value=True,
        type="string",
        description="set the output printing format (available formats are: default, csv, json)",
    )
    assert select_json(Command(flags=(printing,))).selection == ("-print_format", "json")
    logs = Flag(long="--log-format", takes_value=True, description="log format: text or json")
    assert select_json(Command(flags=(logs,))).selection is False
