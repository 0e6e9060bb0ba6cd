"""Targeted facts about help the parsers were not written against: older cobra (rclone, restic, hugo),
find's primaries, digit and repeated options, and man-page details (``\\e``, italic values, .BI tags)."""

from __future__ import annotations

from pathlib import Path

from wrapgen.parse import parse_help
from wrapgen.parse.styles.man import roff_to_text

HELP = Path(__file__).resolve().parent.parent / "fixtures" / "help"


def parse_fixture(name: str, *, style: str | None = None):
    path = HELP / f"{name}.txt"
    return parse_help(
        path.read_text(encoding="utf-8"), prog=tuple(path.stem.split("_")), style=style
    )


def spellings(command) -> set[str]:
    return {s for f in (*command.flags, *command.global_flags) for s in f.spellings}


def flag(command, spelling: str):
    found = [f for f in (*command.flags, *command.global_flags) if spelling in f.spellings]
    assert found, f"{spelling} not found among {sorted(spellings(command))}"
    return found[0]


# -- cobra, older and unseen --------------------------------------------------------------------


def test_restic_listing_reads_the_longest_name_padded_by_one_space():
    """restic: "rebuild-index Build a new index" (one space: cobra pads to the longest name) is a command."""
    command = parse_fixture("cobra/restic")
    names = [s.name for s in command.subcommands]
    assert "rebuild-index" in names and len(names) == 27
    assert command.find(("rebuild-index",)).summary == "Build a new index"


def test_hugo_gen_and_rclone_listings_keep_their_longest_entry():
    """hugo gen's "chromastyles" and rclone's "genautocomplete", each the longest of its listing, are read."""
    assert [s.name for s in parse_fixture("cobra/hugo_gen").subcommands] == [
        "chromastyles",
        "doc",
        "man",
    ]
    rclone = parse_fixture("cobra/rclone")
    assert "genautocomplete" in {s.name for s in rclone.subcommands}
    assert rclone.find(("genautocomplete",)).summary.startswith("Output completion script")


def test_tight_listing_line_is_not_read_off_its_column():
    """A one-space "name Word" line is a command only where its summary starts in the listing's column."""
    text = (
        "Usage:\n  tool [command]\n\nAvailable Commands:\n  build     Build it\n  run       Run it\n"
        "  see the manual for more\n"
    )
    names = [s.name for s in parse_help(text, prog=("tool",), style="cobra").subcommands]
    assert names == ["build", "run"]


def test_restic_backup_flags_and_globals_apart():
    """restic backup: own flags with values and repeatables, the 20 global flags kept apart."""
    command = parse_fixture("cobra/restic_backup")
    assert (flag(command, "--exclude").value_name, flag(command, "--exclude").repeatable) == (
        "pattern",
        True,
    )
    assert flag(command, "-H").long == "--host"
    assert len(command.global_flags) == 20 and "--repo" in {
        s for f in command.global_flags for s in f.spellings
    }
    assert not {"--repo", "-r"} & {s for f in command.flags for s in f.spellings}
    [operand] = command.positionals
    assert (operand.name, operand.required, operand.variadic) == ("FILE/DIR", False, True)


def test_rclone_copy_operands_with_colons():
    """rclone copy: "source:path dest:path" are two required operands (no subcommand word has a colon)."""
    command = parse_fixture("cobra/rclone_copy")
    assert [(p.name, p.required) for p in command.positionals] == [
        ("source:path", True),
        ("dest:path", True),
    ]
    assert spellings(command) == {"--create-empty-src-dirs", "-h", "--help"}


# -- GNU getopt ----------------------------------------------------------------------------------


def test_find_primaries_one_flag_each_with_values():
    """find --help: each primary of a run ("-amin N -anewer FILE") is its own flag with its value."""
    command = parse_fixture("gnu/find")
    assert flag(command, "-name").value_name == "PATTERN"
    assert flag(command, "-maxdepth").value_name == "LEVELS"
    assert flag(command, "-fprintf").value_name == "FILE FORMAT"
    assert (
        flag(command, "-type").value_name == "[bcdpflsD]"
        and not flag(command, "-type").value_optional
    )
    assert not flag(command, "-empty").takes_value and flag(command, "-empty").spellings == (
        "-empty",
    )
    assert flag(command, "-exec").value_name == "COMMAND"
    assert {"-print", "-print0", "-prune", "-delete", "-xdev"} <= spellings(command)


def test_find_operators_are_no_options():
    """find: "-not EXPR", "EXPR1 -a EXPR2", "-or" join expressions; none of them is a flag."""
    assert not {"-not", "-a", "-and", "-o", "-or"} & spellings(parse_fixture("gnu/find"))
    assert not {"-not", "-a", "-and", "-o", "-or"} & spellings(parse_fixture("man/find"))


def test_primary_runs_need_two_long_primaries_and_no_prose():
    """A line is a run of primaries only with two single-dash words and no description words."""
    text = (
        "Usage: t [OPTION]...\n\n  -a -b        same as -ab\n  -depth -xdev  stay put and go deep\n"
    )
    command = parse_help(text, prog=("t",), style="gnu")
    assert [f.spellings for f in command.flags] == [("-a", "-b"), ("-depth", "-xdev")]


def test_xz_digit_range_is_ten_switches():
    """xz --help: "-0 ... -9" is ten switches, each with the preset's description."""
    command = parse_fixture("gnu/xz")
    digits = [f for f in command.flags if f.short and f.short[1:].isdigit()]
    assert [f.short for f in digits] == [f"-{d}" for d in range(10)]
    assert all(not f.takes_value and f.description.startswith("compression preset") for f in digits)


def test_gzip_man_hash_stands_for_each_digit():
    """gzip(1): "-# --fast --best" with "the specified digit #" is -1 .. -9 plus --fast and --best."""
    command = parse_fixture("man/gzip")
    assert {f"-{d}" for d in range(1, 10)} | {"--fast", "--best"} <= spellings(command)
    assert "-#" not in spellings(command)


def test_curl_progress_bar_keeps_its_hash():
    """curl's "-#, --progress-bar" is a real option, not a digit placeholder."""
    assert flag(parse_fixture("gnu/curl"), "-#").long == "--progress-bar"


def test_grep_num_placeholder_dropped_and_colour_joined():
    """grep: "-NUM" names no spelling and is left out; "--color[=WHEN]," + "--colour[=WHEN]" is one flag."""
    command = parse_fixture("gnu/grep")
    assert "-NUM" not in spellings(command)
    color = flag(command, "--color")
    assert color.aliases == ("--colour",) and color.value_optional and color.value_name == "WHEN"
    assert color.description.startswith("use markers")


def test_repeated_switch_is_the_single_one_repeatable():
    """ "-vv" and "-qq" are -v and -q given again: the single switch becomes repeatable, no "-vv" flag."""
    text = "Usage: t [options]\n\n  -v    verbose\n  -vv   more verbose\n  -qq   no output at all\n"
    command = parse_help(text, prog=("t",), style="gnu")
    assert [(f.spellings, f.repeatable) for f in command.flags] == [
        (("-v",), True),
        (("-q",), True),
    ]


def test_python_colon_gap():
    """python3-style "-c cmd : program ..." entries: the colon ends the spec, cmd is the value."""
    text = (
        "usage: py [option] ...\nOptions:\n-b     : issue warnings\n-c cmd : program passed in as string\n"
        "-OO    : do -O changes and discard docstrings\n-O     : optimise\n"
    )
    command = parse_help(text, prog=("py",), style="gnu")
    c = flag(command, "-c")
    assert (c.takes_value, c.value_name, c.description) == (
        True,
        "cmd",
        "program passed in as string",
    )
    assert flag(command, "-b").description == "issue warnings"
    assert flag(command, "-O").repeatable and "-OO" not in spellings(command)


def test_npm_comma_listing():
    """npm --help: the comma-separated "All commands:" list, wrapped over lines, is the subcommand listing."""
    names = [s.name for s in parse_fixture("npm/npm").subcommands]
    assert len(names) == 72 and names[:3] == ["access", "adduser", "approve-scripts"]
    assert names[-2:] == ["view", "whoami"]


def test_java_usage_or_lines_and_notes():
    """java: "   or  java ..." starts a usage line; "(to execute a class)" is a note, not operands."""
    text = (
        "Usage: java [options] <mainclass> [args...]\n           (to execute a class)\n"
        "   or  java [options] -jar <jarfile> [args...]\n           (to execute a jar file)\n\n"
        ' where options include:\n    -zero\t  to select the "zero" VM\n'
    )
    command = parse_help(text, prog=("java",), style="gnu")
    assert command.usage == (
        "java [options] <mainclass> [args...]",
        "java [options] -jar <jarfile> [args...]",
    )
    assert not {"to", "execute", "a", "class"} & {p.name for p in command.positionals}


# -- man pages -----------------------------------------------------------------------------------


def test_roff_backslash_escape_is_read_once():
    r"""roff's \e is a backslash: "\en" reads "\n", "\e\e" two backslashes, never a newline or "n"."""
    text = roff_to_text(".TH T 1\n.SH DESCRIPTION\nprint `\\en' and `\\e\\e' and \\(em here\n")
    assert "print `\\n' and `\\\\' and -- here" in text


def test_find_man_primaries_from_expression_sections():
    """find(1): primaries under EXPRESSION's subsections are read, with their italic values."""
    command = parse_fixture("man/find")
    assert flag(command, "-maxdepth").value_name == "levels"
    assert flag(command, "-newer").value_name == "reference"
    assert flag(command, "-exec").takes_value
    assert {"-daystart", "-xdev", "-prune", "-quit"} <= spellings(command)
    # a nested list's "\fI\-n\fP" (a numeric argument) and "-perm -mode" make no flags
    assert not {"-n", "-mode"} & spellings(command)
    assert "interpreting `\\' escapes" in flag(command, "-printf").description


def test_find_man_examples_subsections_stay_examples():
    """find(1)'s EXAMPLES subsections ("Simple `find|xargs` approach:") hold no flags."""
    assert "-or" not in spellings(parse_fixture("man/find"))


def test_unusual_filenames_is_no_name_section():
    """A man section whose title merely contains NAME (find's UNUSUAL FILENAMES) is not NAME."""
    command = parse_fixture("man/find")
    assert flag(command, "-print0").spellings == (
        "-print0",
    )  # not "-print0, -fprint0" from UNUSUAL FILENAMES
    assert flag(command, "-print0").description.startswith("True; print the full file name")


def test_ps_man_options_under_unnamed_headings_and_bi_tags():
    """ps(1): options filed under "SIMPLE PROCESS SELECTION" etc. are read; ".BI \\-C \\ cmdlist" is -C <cmdlist>."""
    command = parse_fixture("man/ps")
    assert flag(command, "-C").value_name == "cmdlist"
    assert flag(command, "--format").value_name == "format"
    assert flag(command, "-O").value_name == "format"
    assert {"-A", "-e", "--deselect", "--forest", "--sort"} <= spellings(command)
    assert not any(s.endswith("rmat") and s != "--format" for s in spellings(command))


def test_tmux_style_command_section_still_dropped():
    """A man section whose tags are command names (tmux's COMMANDS) is no option table."""
    text = roff_to_text(
        ".TH T 1\n.SH NAME\nt \\- x\n.SH OPTIONS\n.TP\n.B \\-v\nverbose\n.SH COMMANDS\n"
        ".TP\n.B attach\nattach it, see\n.B \\-d\n.TP\n.B detach\ndetach\n.TP\n.B kill\nkill it\n"
    )
    command = parse_help(text, prog=("t",), style="man")
    assert spellings(command) == {"-v"}


def test_gzip_man_synopsis_one_line_per_program():
    """gzip(1): the synopsis lines .br breaks apart are three usage lines, not one with gunzip as an operand."""
    command = parse_fixture("man/gzip")
    assert [u.split()[0] for u in command.usage] == ["gzip", "gunzip", "zcat"]
    assert [p.name for p in command.positionals] == ["name"]


def test_xz_man_nested_presets_add_nothing_odd():
    """xz(1): "-0 ... -9" is ten switches; the nested "-0 ... -3" lists repeat them, no more."""
    command = parse_fixture("man/xz")
    digits = sorted(s for s in spellings(command) if s[1:].isdigit())
    assert digits == [f"-{d}" for d in range(10)]


def test_specify_twice_is_repeatable_but_last_one_wins_is_not():
    """xz: "specify twice to suppress errors too" makes -q repeatable; "if specified multiple times,
    the last one takes effect" (xz(1)'s --memlimit-compress) does not."""
    command = parse_fixture("gnu/xz")
    assert flag(command, "-q").repeatable and flag(command, "-v").repeatable
    assert not flag(command, "-k").repeatable
    assert not flag(parse_fixture("man/xz"), "--memlimit-compress").repeatable


def test_usage_or_between_operands_is_an_alternative():
    """gdb: "[executable-file [core-file or process-id]]" names two operands, "or" none."""
    text = "This is the GNU debugger.  Usage:\n\n    gdb [options] [executable-file [core-file or process-id]]\n"
    names = [p.name for p in parse_help(text, prog=("gdb",), style="gnu").positionals]
    assert names == ["executable-file", "core-file|process-id"]


def test_cobra_leaf_bare_words_are_operands():
    """A cobra command without subcommands: bare words after its path are operands ("remote:",
    "name type [key value]*"); a command with subcommands keeps them as subcommand words."""
    leaf = "Usage:\n  rclone config create name type [key value]* [flags]\n\nFlags:\n  -h, --help   help for create\n"
    command = parse_help(leaf, prog=("rclone", "config", "create"), style="cobra")
    assert [(p.name, p.required, p.variadic) for p in command.positionals] == [
        ("name", True, False),
        ("type", True, False),
        ("key", False, False),
        ("value", False, True),
    ]
    about = "Usage:\n  rclone about remote: [flags]\n\nFlags:\n  -h, --help   help for about\n"
    assert [
        p.name for p in parse_help(about, prog=("rclone", "about"), style="cobra").positionals
    ] == ["remote:"]
    group = (
        "Usage:\n  tool net add name [flags]\n\nAvailable Commands:\n  add         Add one\n\n"
        "Flags:\n  -h, --help   help for net\n"
    )
    assert parse_help(group, prog=("tool", "net"), style="cobra").positionals == ()


def test_openssl_single_dash_names_are_kept_whole():
    """openssl: where options are spelled "-help", "-www", a "-vv" or "-tt" is an option of its own,
    not -v given twice, even when the single-dash names sit in another section (global flags)."""
    text = (
        "Usage: engine [options] engine...\n\nGeneral options:\n -help      Display this summary\n"
        " -t         Check that specified engine is available\n\nOutput options:\n"
        " -v         List 'control commands'\n -vv        Also display each command's description\n"
        " -tt        Display error trace\n"
    )
    command = parse_help(text, prog=("openssl", "engine"), style="gnu")
    assert {"-v", "-vv", "-tt", "-t", "-help"} <= spellings(command)
    assert not flag(command, "-v").repeatable


def test_glued_hash_is_a_number_value():
    """zstd: "-T#  Spawn # compression threads" is -T taking an integer; a lone "-#" keeps its spelling."""
    text = "Usage: zstd [OPTIONS...] [INPUT...]\n\n  -T#     Spawn # compression threads.\n  -#      level\n"
    command = parse_help(text, prog=("zstd",), style="gnu")
    threads = flag(command, "-T")
    assert (threads.spellings, threads.takes_value, threads.value_name, threads.type) == (
        ("-T",),
        True,
        "#",
        "integer",
    )
    assert "-#" in spellings(command)


def test_numbers_written_as_options_are_no_flags():
    """A nested "-500 specifies the last 500 bytes" (curl(1)) or ps(1)'s "-123" names no option."""
    command = parse_help(
        ".TH T 1\n.SH OPTIONS\n.TP\n.B \\-r\nrange\n.TP\n.B \\-500\nthe last 500 bytes\n",
        prog=("t",),
        style="man",
    )
    assert spellings(command) == {"-r"}


def test_available_columns_is_no_listing():
    """lsblk's "Available output columns:" lists columns, not subcommands to probe."""
    text = (
        "Usage:\n lsblk [options] [<device> ...]\n\nOptions:\n -a, --all   print all devices\n\n"
        "Available output columns:\n        NAME  device name\n       KNAME  internal kernel device name\n"
    )
    assert parse_help(text, prog=("lsblk",), style="gnu").subcommands == ()


def test_prose_under_a_usage_line_is_not_usage():
    """unzip: "  Default action is to extract files in list, ..." under the usage line is prose."""
    text = (
        "Usage: unzip [-Z] [-opts[modifiers]] file[.zip] [list] [-x xlist] [-d exdir]\n"
        "  Default action is to extract files in list, except those in xlist, to exdir;\n"
        "  file[.zip] may be a wildcard.\n\n  -p  extract files to pipe, no messages\n"
    )
    command = parse_help(text, prog=("unzip",), style="gnu")
    assert command.usage == (
        "unzip [-Z] [-opts[modifiers]] file[.zip] [list] [-x xlist] [-d exdir]",
    )
    assert [p.name for p in command.positionals] == ["file", "list"]


def test_a_sentence_under_a_usage_line_is_not_usage():
    """A tab-indented sentence with no grammar in it under the usage line ("Parse the XML files and
    output ...") is prose: its words are no operands, and "XMLfiles ..." is one variadic operand."""
    text = (
        "Usage : tool [options] XMLfiles ...\n"
        "\tParse the XML files and output the result of the parsing\n"
        "\t--version : display the version\n"
        "\t--noout : do not print the result\n"
    )
    command = parse_help(text, prog=("tool",), style="gnu")
    assert command.usage == ("tool [options] XMLfiles ...",)
    assert [(p.name, p.variadic) for p in command.positionals] == [("XMLfiles", True)]


def test_cut_range_syntax_is_no_option():
    """cut's "N-M" table: "-M  from first to M'th byte" is a range written with a dash, not a flag -M."""
    cut = parse_fixture("gnu/cut")
    spellings = {s for f in cut.flags for s in f.spellings}
    assert "-M" not in spellings
    assert {"-b", "-c", "-f", "--complement", "--output-delimiter"} <= spellings


def test_aws_help_pages_list_their_commands_as_bullets():
    """`aws help` (docutils man, overstruck): 426 services as bullets, its global options apart; `aws s3 help`: s3's commands."""
    aws = parse_fixture("man/aws")
    names = [c.name for c in aws.subcommands]
    assert len(names) > 400 and {"s3", "ec2", "iam", "sts"} <= set(names)
    assert all(c.stub and c.group == "Available Services" for c in aws.subcommands)
    assert "help" not in names
    assert {"--region", "--output", "--profile"} <= {
        s for f in aws.global_flags for s in f.spellings
    }
    assert aws.summary.startswith("The AWS Command Line Interface")
    s3 = parse_fixture("man/aws_s3")
    assert [c.path for c in s3.subcommands][:3] == [("s3", "cp"), ("s3", "ls"), ("s3", "mb")]


def test_a_letter_glued_to_the_name_of_its_value_takes_that_value():
    """A renderer's "-Tv  - Set output format to 'v'", "-ofile  - Write output to 'file'" and a man
    page's "-Klayout  override the default layout engine": the letter takes a value the help names;
    "-name" and "-print", whose help names no such value, keep their spelling; the "- " column
    before each help is no part of it."""
    text = (
        "Usage: gvr [-Vv?] [-(KTlo)<val>] <files>\n\n"
        " -V          - Print version and exit\n"
        " -Tv         - Set output format to 'v'\n"
        " -ofile      - Write output to 'file'\n"
        " -Klayout    - override the default layout engine\n"
        " -name       - Base of file name matches the pattern\n"
        " -print      - Print the full file name on the standard output\n"
    )
    command = parse_help(text, prog=("gvr",), style="gnu")
    for spelling, value in (("-T", "v"), ("-o", "file"), ("-K", "layout")):
        glued = flag(command, spelling)
        assert (glued.takes_value, glued.value_name) == (True, value), glued
    assert {"-name", "-print"} <= spellings(command)
    assert not flag(command, "-name").takes_value
    assert flag(command, "-V").description == "Print version and exit"
