"""Usage and example lines: split with bashlex, read into operands, flags and literal words."""

from __future__ import annotations

from wrapgen.parse.usage import (
    split_example,
    split_usage,
    usage_flags,
    usage_literals,
    usage_positionals,
)


def test_split_usage_keeps_placeholders():
    """<placeholders>, | and ( ) are words of a usage line, not shell syntax."""
    assert split_usage("gh <command> <subcommand> [flags]") == [
        "gh",
        "<command>",
        "<subcommand>",
        "[flags]",
    ]
    assert split_usage("jq [options] <jq filter> [file...]") == [
        "jq",
        "[options]",
        "<jq filter>",
        "[file...]",
    ]
    assert split_usage("x (a|b) [-v | -q]") == ["x", "(a|b)", "[-v", "|", "-q]"]
    assert split_usage('x --sep "a b" [<y>]') == ["x", "--sep", "a b", "[<y>]"]  # quotes honoured


def test_split_example_is_shell():
    """Example lines are parsed as shell: quotes removed, the tool's command found in a pipeline."""
    assert split_example('$ gh pr list --label "priority 1"', prog="gh") == [
        "gh",
        "pr",
        "list",
        "--label",
        "priority 1",
    ]
    assert split_example("echo '{\"a\": 1}' | jq .", prog="jq") == ["jq", "."]
    assert split_example("# just a comment", prog="jq") is None
    assert split_example("echo hi", prog="jq") is None


def test_operands_required_optional_variadic():
    """<x> is required, [x] optional, x... variadic; options placeholders and COMMAND are skipped."""
    got = usage_positionals(["ls [OPTION]... [FILE]..."], prog=("ls",))
    assert [(p.name, p.required, p.variadic) for p in got] == [("FILE", False, True)]
    got = usage_positionals(["curl [options...] <url>"], prog=("curl",))
    assert [(p.name, p.required) for p in got] == [("url", True)]
    assert usage_positionals(["flask [OPTIONS] COMMAND [ARGS]..."], prog=("flask",)) == ()


def test_flag_values_are_not_operands():
    """Words inside a bracket group with a flag, or right after a flag, are that flag's value."""
    lines = ["git commit [-F <file> | -m <msg>] [(-c | -C) <commit>] [--] [<pathspec>...]"]
    got = usage_positionals(lines, prog=("git", "commit"))
    assert [(p.name, p.required, p.variadic) for p in got] == [("pathspec", False, True)]
    got = usage_positionals(["rg [OPTIONS] -e PATTERN ... [PATH ...]"], prog=("rg",))
    assert [(p.name, p.variadic) for p in got] == [("PATH", True)]
    got = usage_positionals(["jq --args <jq filter>"], prog=("jq",), switches=frozenset({"--args"}))
    assert [p.name for p in got] == ["jq filter"]


def test_alternatives_and_brace_groups():
    """'[<number> | <url>]' is one optional operand; '{<a> | <b>}' one required; '-- <gitflags>' kept."""
    got = usage_positionals(
        ["gh pr view [<number> | <url> | <branch>] [flags]"], prog=("gh", "pr", "view")
    )
    assert [(p.name, p.required) for p in got] == [("number|url|branch", False)]
    got = usage_positionals(
        ["gh issue view {<number> | <url>} [flags]"], prog=("gh", "issue", "view")
    )
    assert [(p.name, p.required) for p in got] == [("number|url", True)]
    got = usage_positionals(
        ["gh repo clone <repository> [<directory>] [-- <gitflags>...]"],
        prog=("gh", "repo", "clone"),
    )
    assert [(p.name, p.required, p.variadic) for p in got] == [
        ("repository", True, False),
        ("directory", False, False),
        ("gitflags", False, True),
    ]


def test_alternatives_on_a_later_line_do_not_swallow_earlier_operands():
    """git fetch's third form `[(<repository> | <group>)...]` keeps repository, refspec, group apart."""
    lines = [
        "git fetch [<options>] [<repository> [<refspec>...]]",
        "git fetch [<options>] <group>",
        "git fetch --multiple [<options>] [(<repository> | <group>)...]",
    ]
    names = [p.name for p in usage_positionals(lines, prog=("git", "fetch"))]
    assert names == ["repository", "refspec", "group"]


def test_required_only_when_every_form_requires_it():
    """An operand missing from one usage form is optional; another command's usage line is ignored."""
    got = usage_positionals(
        ["rg [OPTIONS] PATTERN [PATH ...]", "rg [OPTIONS] --files [PATH ...]"], prog=("rg",)
    )
    assert [(p.name, p.required) for p in got] == [("PATTERN", False), ("PATH", False)]
    got = usage_positionals(
        ["git log [<options>] [<revision-range>]", "git show [<options>] <object>..."],
        prog=("git", "log"),
    )
    assert [p.name for p in got] == ["revision-range"]


def test_docopt_flags_and_literals():
    """docopt usage lines spell flags (with =<value>) and literal subcommand words."""
    lines = [
        "naval-fate ship <name> move <x> <y> [--speed=<kn>]",
        "naval-fate mine (set|remove) <x> <y>",
        "naval-fate (-h | --help)",
    ]
    flags = {f.long or f.short: f for f in usage_flags(lines, prog=("naval-fate",))}
    assert flags["--speed"].takes_value and flags["--speed"].value_name == "kn"
    assert (
        not flags["--help"].takes_value and flags["--help"].short == "-h"
    )  # "(-h | --help)" pairs them
    assert usage_literals(lines, prog=("naval-fate",)) == ["ship", "mine"]


def test_usage_flag_forms():
    """BSD clusters, '[-B value]', git's '(-m | --message) <msg>' and '--[no-]x' are read from usage lines."""
    flags = {
        f.long or f.short: f
        for f in usage_flags(
            [
                "ssh [-46A] [-B bind_interface] destination",
                "git stash [(-m | --message) <message>] [-k | --[no-]keep-index]",
            ],
            prog=("x",),
        )
    }
    assert {"-4", "-6", "-A"} <= set(flags)
    assert flags["-B"].value_name == "bind_interface"
    assert (flags["--message"].short, flags["--message"].value_name) == ("-m", "message")
    assert (
        flags["--keep-index"].aliases == ("--no-keep-index",)
        and flags["--keep-index"].short == "-k"
    )


def test_hostile_lines_do_not_raise():
    """Unbalanced quotes, brackets and very long lines fall back to plain splitting."""
    assert split_usage('x "unterminated [<a') == ["x", '"unterminated', "[<a"]
    from wrapgen.parse.usage import MAX_LINE

    assert len(split_usage("x " + "[a] " * 5000)) <= MAX_LINE
    assert split_example("x 'unterminated", prog="x") is None


def _fixture_usage(name: str) -> list[str]:
    """The usage lines of a captured help text under tests/fixtures/help/ (as the parser reads them)."""
    from pathlib import Path

    from wrapgen.parse import parse_help

    path = next((Path(__file__).parent.parent / "fixtures" / "help").glob(f"*/{name}.txt"))
    command = parse_help(
        path.read_text(encoding="utf-8"), prog=tuple(name.split("_")), style=path.parent.name
    )
    return list(command.usage)


def _read(name: str) -> list[tuple[str, bool, bool]]:
    got = usage_positionals(_fixture_usage(name), prog=tuple(name.split("_")))
    return [(p.name, p.required, p.variadic) for p in got]


def test_docker_suffix_groups_stay_with_their_operand():
    """docker's NAME[:TAG|@DIGEST] and [REPOSITORY[:TAG]] are one operand each, not name, tag, digest."""
    assert _fixture_usage("docker_pull") == ["docker pull [OPTIONS] NAME[:TAG|@DIGEST]"]
    assert _read("docker_pull") == [("NAME", True, False)]
    assert _read("docker_images") == [("REPOSITORY", False, False)]
    got = usage_positionals(
        ["docker tag SOURCE_IMAGE[:TAG] TARGET_IMAGE[:TAG]"], prog=("docker", "tag")
    )
    assert [(p.name, p.required) for p in got] == [("SOURCE_IMAGE", True), ("TARGET_IMAGE", True)]


def test_upper_case_alternatives_are_one_operand():
    """NAME|ID [NAME|ID...] is one required variadic operand; kubectl's (POD | TYPE/NAME) one required operand."""
    assert _read("docker_inspect") == [("NAME|ID", True, True)]
    assert _read("kubectl_logs") == [("POD|TYPE/NAME", True, False)]
    # the flag's value (-c CONTAINER) and [options] are still not operands
    assert _fixture_usage("kubectl_logs") == [
        "kubectl logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER] [options]"
    ]
    assert _read("gh_issue_view") == [("number|url", True, False)]


def test_docker_cp_forms_merge_position_wise():
    """docker cp's two forms name a source and a destination: two required operands, '-' is no name."""
    assert len(_fixture_usage("docker_cp")) == 2
    assert _read("docker_cp") == [
        ("CONTAINER:SRC_PATH|SRC_PATH", True, False),
        ("DEST_PATH|CONTAINER:DEST_PATH", True, False),
    ]


def test_lower_case_words_stay_literals_and_subcommands():
    """'a|b' of lower-case words is a choice of literals, a bare word before the options a subcommand word."""
    assert (
        usage_positionals(["naval-fate mine (set|remove) <x> <y>"], prog=("naval-fate",))[0].name
        == "x"
    )
    got = usage_positionals(
        ["naval-fate ship new <name>...", "naval-fate ship <name> move <x> <y>"],
        prog=("naval-fate",),
    )
    assert [p.name for p in got] == ["name", "x", "y"]
    # a later form that shares an operand with the first is not merged position-wise
    got = usage_positionals(
        ["cp [OPTION]... SOURCE DEST", "cp [OPTION]... SOURCE... DIRECTORY"], prog=("cp",)
    )
    assert [(p.name, p.required) for p in got] == [
        ("SOURCE", True),
        ("DEST", False),
        ("DIRECTORY", False),
    ]


def test_a_bare_word_that_repeats_is_an_operand_even_before_the_options():
    """No subcommand word is given more than once: ``url...`` right after the path (a storage
    client's man-style synopsis, no options between) is the operand it repeats, not a subcommand."""
    got = usage_positionals(["gsutil stat url..."], prog=("gsutil", "stat"))
    assert [(p.name, p.required, p.variadic) for p in got] == [("url", True, True)]
    got = usage_positionals(["tool get key ..."], prog=("tool", "get"))
    assert [(p.name, p.variadic) for p in got] == [("key", True)]
    # a bare word given once before the options stays a subcommand word
    assert usage_positionals(["tool remote add name url"], prog=("tool",)) == ()


def test_a_flag_claims_only_its_own_branch():
    """In kubectl's '(-f FILENAME | TYPE [NAME | -l label])' TYPE and NAME are operands, optional beside -f."""
    assert _read("kubectl_get") == [("TYPE", True, False), ("NAME", False, False)]
    got = usage_positionals(
        ["kubectl describe (-f FILENAME | TYPE [NAME_PREFIX | -l label] | TYPE/NAME) [options]"],
        prog=("kubectl", "describe"),
    )
    assert [(p.name, p.required) for p in got] == [("TYPE", False), ("NAME_PREFIX", False)]
    got = usage_positionals(
        ["kubectl delete ([-f FILENAME] | [-k DIRECTORY] | TYPE [(NAME | -l label | --all)])"],
        prog=("kubectl", "delete"),
    )
    assert [p.name for p in got] == ["TYPE", "NAME"]


def test_a_long_bracketed_phrase_ending_in_options_is_no_operand():
    """``[POSIX or GNU style options]`` stands for the options, like ``[options]``; a bracket of
    operand names that does not end in an options word stays operands."""
    gawk_like = ["tool [POSIX or GNU style options] -f progfile [--] file ..."]
    assert [p.name for p in usage_positionals(gawk_like, prog=("tool",))] == ["file"]
    pair = ["tool [SOURCE DEST]"]
    assert [p.name for p in usage_positionals(pair, prog=("tool",))] == ["SOURCE", "DEST"]


def test_a_later_forms_new_operand_goes_before_the_operand_it_precedes():
    """``-f progfile file ...`` then ``'program' file ...``: the program comes before the files
    (it was appended after them, so a verb passed the files first); required only where every
    form names it."""
    lines = [
        "tool [options] -f progfile [--] file ...",
        "tool [options] [--] 'program' file ...",
    ]
    found = usage_positionals(lines, prog=("tool",))
    assert [(p.name, p.required) for p in found] == [("program", False), ("file", True)]


def test_a_wrappers_help_gives_its_own_operands_once():
    """A wrapper prints its usage (a hand-written one, then argparse's remainder naming the same
    operands again), its "positional arguments", then the wrapped program's usage: its operands
    are the documented two, each once; the wrapped program's lines give none."""
    from wrapgen.parse import parse_help

    page = (
        "usage: wgq [options] <jq filter> [input file...]\n"
        "          [--in-place] [--version]\n"
        "          [jq_filter] [files ...]\n"
        "\n"
        "wgq: a filter for YAML documents\n"
        "\n"
        "positional arguments:\n"
        "  jq_filter\n"
        "  files\n"
        "\n"
        "options:\n"
        "  -h, --help   show this help message and exit\n"
        "  --in-place   edit files in place\n"
        "\n"
        "jq - commandline JSON processor\n"
        "\n"
        "Usage:\tjq [options] <jq filter> [file...]\n"
        "\tjq [options] --args <jq filter> [strings...]\n"
    )
    command = parse_help(page, prog=("wgq",))
    assert [(p.name, p.required, p.variadic) for p in command.positionals] == [
        ("jq filter", True, False),
        ("files", False, True),
    ]


def test_operands_at_the_end_of_a_long_synopsis():
    """argparse joins every option into the synopsis and names the operands last: a line of over a
    thousand characters still gives them (a cut at 600 characters lost them)."""
    options = " ".join(f"[--option-{i} OPTION_{i}_VALUE]" for i in range(40))
    line = f"runbook [-h] {options} [-k | --key-file KEY_FILE] playbook [playbook ...]"
    assert len(line) > 1200
    assert [
        (p.name, p.required, p.variadic) for p in usage_positionals([line], prog=("runbook",))
    ] == [("playbook", True, True)]


def test_an_operand_written_with_a_leading_plus_is_an_operand():
    """`[+FORMAT]` and `+PAGE` are operands whose value starts with +; the name keeps the + so the
    operand's description shows how to write it."""
    got = usage_positionals(["clock [OPTION]... [+FORMAT]"], prog=("clock",))
    assert [(p.name, p.required) for p in got] == [("+FORMAT", False)]
    paged = usage_positionals(
        ["pager [OPTION]... [+FIRST_PAGE[:LAST_PAGE]] [FILE]..."], prog=("pager",)
    )
    assert [p.name for p in paged] == ["+FIRST_PAGE", "FILE"]
    assert usage_positionals(["calc a+b"], prog=("calc",)) == ()


def test_a_placeholder_marked_plural_is_variadic():
    """`<file(s)>` is one or more files; `<option(s)>` is the options placeholder, no operand."""
    got = usage_positionals(["dumper <option(s)> <file(s)>"], prog=("dumper",))
    assert [(p.name, p.required, p.variadic) for p in got] == [("file", True, True)]


def test_a_one_character_ellipsis_is_an_ellipsis():
    """GLib's tools write "LOCATION…" and "[OPTION…]" with U+2026: variadic operands as with "..."."""
    got = usage_positionals(
        ["fileops copy [OPTION…] SOURCE… DESTINATION"], prog=("fileops", "copy")
    )
    assert [(p.name, p.required, p.variadic) for p in got] == [
        ("SOURCE", True, True),
        ("DESTINATION", True, False),
    ]


def test_a_commands_usage_spelled_from_its_own_word_names_its_operands():
    """A dispatcher's command printing `Usage: port [options] [--] SERVICE PRIVATE_PORT` (docopt
    under a Python dispatcher) spells the usage without the program: its operands are read all the
    same; another command's line (`logs ...` on `port`'s page) still is not."""
    line = "port [options] [--] SERVICE PRIVATE_PORT"
    found = usage_positionals([line], prog=("wg-compose", "port"))
    assert [(p.name, p.required) for p in found] == [("SERVICE", True), ("PRIVATE_PORT", True)]
    assert usage_positionals(["logs [options] [SERVICE...]"], prog=("wg-compose", "port")) == ()


def test_a_sentence_of_the_prose_saying_the_command_is_deprecated_marks_it():
    """`scale`'s help says, below its example, "This command is deprecated. Use the up command
    ...": deprecated. An option saying it of itself, or a listed command's row, does not mark the page."""
    from wrapgen.parse import parse_help

    page = """Set number of containers to run for a service.

For example:

    $ wg-compose scale web=2

This command is deprecated. Use the up command with the `--scale` flag instead.

Usage: scale [options] [SERVICE=NUM...]

Options:
  -t, --timeout TIMEOUT      Specify a shutdown timeout in seconds.
"""
    assert parse_help(page, prog=("wg-compose", "scale")).deprecated
    kept = page.replace(
        "This command is deprecated. Use the up command with the `--scale` flag instead.", ""
    )
    kept = kept.replace(
        "Specify a shutdown timeout in seconds.", "This command is deprecated here."
    )
    assert not parse_help(kept, prog=("wg-compose", "scale")).deprecated


def test_numbered_operands_before_an_ellipsis_are_one_repeated_operand():
    """`[file1, file2, ...]` and `[FILE1 FILE2 ...]` show one operand given many times."""
    for line, name in (
        ("wg-lint [options] [file1, file2, ...]", "file"),
        ("wg-lint [FILE1 FILE2 ...]", "FILE"),
    ):
        (found,) = usage_positionals([line], prog=("wg-lint",))
        assert (found.name, found.required, found.variadic) == (name, False, True)
