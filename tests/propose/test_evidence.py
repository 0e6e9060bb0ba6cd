"""Usage evidence as the first source of a proposal (issue 26): sources, rules, picks, args, x-why."""

from __future__ import annotations

from wrapgen.model.tool import Command, Flag, Positional, Tool
from wrapgen.model.usage import UsageEvidence, Use, UsedOperand
from wrapgen.propose import propose
from wrapgen.propose.rules import all_rules
from wrapgen.propose.sources import source_names

FILE = UsedOperand("file", "file")


def _sub(name: str, summary: str, *, flags=(), positionals=()) -> Command:
    return Command(
        path=(name,), summary=summary, flags=tuple(flags), positionals=tuple(positionals)
    )


def _tool(name: str = "wgtool") -> Tool:
    """A tool with more reads than a pack holds, so the pick has to choose."""
    subs = [
        _sub(
            "show",
            "Show an object",
            flags=[
                Flag(long="--format", takes_value=True, description="Output format"),
                Flag(long="--stat", short="-s", description="Show statistics"),
                Flag(long="--zzz-obscure", description="An obscure switch nobody names"),
            ],
            positionals=[Positional("<object>", required=False)],
        ),
        *(_sub(f"list{i}", f"List things number {i}") for i in range(14)),
        _sub("rarely", "Print a rare report"),
        _sub("deploy", "Deploy a service"),
    ]
    return Tool(
        name=name, root=Command(path=(), summary="Manage objects.", subcommands=tuple(subs))
    )


def _evidence(*uses: Use, source: str = "tldr-pages") -> tuple[UsageEvidence, ...]:
    return (UsageEvidence(tool="wgtool", source=source, uses=uses),)


def test_every_source_is_registered():
    """The help listing, the usage table, the tool's examples, local usage and runner targets are
    the registered sources."""
    assert set(source_names()) >= {"help", "tldr-pages", "examples", "local", "runner-targets"}


def test_rules_answer_one_question_each():
    """Each heuristic is a registered rule answering its own question, evidence rules included."""
    rules = all_rules()
    names = {r.name.rsplit(".", 1)[-1] for r in rules.values()}
    assert {"exclusion_reason", "classify", "rank_score", "operands_from_uses"} <= names
    # (the forms' rules too: a helper slipped in under a rule's decorator is registered instead)
    assert {"mode_switches", "use_forms", "help_forms"} <= names
    assert all(q.endswith("?") for q in rules)


def test_used_commands_are_picked_first_and_x_why_names_the_evidence():
    """A command evidence names is picked though the help ranks a dozen reads above it, and its
    x-why says how many examples use it."""
    uses = _evidence(
        Use(path=("rarely",), count=7, where=("tldr-pages",)),
        Use(path=("deploy",), operands=(FILE,), count=2, where=("tldr-pages",)),
    )
    manifest = propose(_tool(), usage=uses).manifest
    assert "rarely" in manifest["verbs"]
    assert "`wgtool rarely` in 7 tldr-pages examples" in manifest["verbs"]["rarely"]["x-why"]
    # evidence proposes, never bypasses the effects: deploy stays a confirm-gated write
    assert manifest["verbs"]["deploy"]["policy"] == {"effect": "write", "confirm": True}
    without = propose(_tool(), usage=()).manifest
    assert "rarely" not in without["verbs"]


def test_an_operand_every_use_passes_is_required_and_one_the_grammar_lacks_is_added():
    """`show <object>` is optional in the grammar but every use passes it: required. `deploy` has
    no operand in its help, its uses pass a file: the verb gets a required path."""
    uses = _evidence(
        Use(path=("show",), operands=(FILE,), count=3, where=("tldr-pages",)),
        Use(path=("show",), flags=("--stat",), operands=(FILE,), count=1, where=("tldr-pages",)),
        Use(path=("deploy",), operands=(FILE,), count=2, where=("tldr-pages",)),
    )
    verbs = propose(_tool(), usage=uses).manifest["verbs"]
    assert verbs["show"]["args"]["required"] == ["object"]
    assert verbs["deploy"]["args"]["properties"]["file"]["type"] == "string"
    assert verbs["deploy"]["args"]["required"] == ["file"]
    assert "{{file}}" in verbs["deploy"]["cli"]


def test_flags_the_uses_pass_are_offered_in_the_models_spelling():
    """A use writes `-s`; the verb offers --stat (the model's spelling), and the obscure switch
    the rules would rank low is offered once uses pass it."""
    uses = _evidence(
        Use(path=("show",), flags=("-s", "--zzz-obscure"), count=4, where=("tldr-pages",)),
    )
    props = propose(_tool(), usage=uses).manifest["verbs"]["show"]["args"]["properties"]
    assert {"stat", "zzz_obscure"} <= set(props)


def test_a_tool_no_evidence_names_says_so():
    """No evidence: the help alone proposes, and the proposal says it."""
    proposal = propose(_tool(), usage=())
    assert "no usage evidence names wgtool" in proposal.usage_note
    assert "from its help alone" in proposal.usage_note
    used = propose(_tool(), usage=_evidence(Use(path=("rarely",), count=2)))
    assert used.usage_note.startswith("usage evidence: 2 uses from tldr-pages")


def test_local_usage_is_named_by_its_file():
    """Local usage is a source of its own, and x-why names the script it came from."""
    uses = _evidence(
        Use(path=("rarely",), count=3, where=("scripts/deploy.sh:4", "scripts/deploy.sh:9")),
        source="local",
    )
    why = propose(_tool(), usage=uses).manifest["verbs"]["rarely"]["x-why"]
    assert "3 uses in scripts/deploy.sh" in why


def test_a_use_of_a_command_discovery_did_not_read_is_a_warning():
    """`wgtool nosuch list`: the tree has no such command, so no verb, and a warning says so."""
    tool = _tool()
    nested = Command(path=(), subcommands=(*tool.root.subcommands, _sub("grp", "A group")))
    nested = nested.with_changes(
        subcommands=tuple(
            s.with_changes(subcommands=(_sub("x", "X"),)) if s.name == "grp" else s
            for s in nested.subcommands
        )
    )
    proposal = propose(Tool(name="wgtool", root=nested), usage=_evidence(Use(path=("grp", "y"))))
    assert any("'wgtool grp y'" in w for w in proposal.warnings)


def _single() -> Tool:
    """A tool without subcommands: a main mode, a listing switch and an option."""
    root = Command(
        path=(),
        summary="wgscan scans files for problems.",
        usage=("wgscan [options] FILE...",),
        flags=(
            Flag(long="--list-checks", description="Print the names of every check"),
            Flag(long="--external", short="-x", description="Follow sourced files"),
            Flag(long="--severity", takes_value=True, value_name="LEVEL", description="Minimum"),
            Flag(long="--color", takes_value=True, description="Use color"),
        ),
        positionals=(Positional("FILE", variadic=True),),
    )
    return Tool(name="wgscan", root=root)


def test_a_tool_without_subcommands_gets_its_used_modes_as_verbs():
    """The uses' distinct mode switches are verbs: a listing that takes no operand where the other
    uses take one is a mode; a switch passed with a file is an option of the main mode."""
    uses = (
        UsageEvidence(
            tool="wgscan",
            source="tldr-pages",
            uses=(
                Use(path=(), operands=(FILE,), count=3),
                Use(path=(), flags=("-x",), operands=(FILE,), count=2),
                Use(path=(), flags=("--severity",), valued=("--severity",), operands=(FILE,)),
                Use(path=(), flags=("--list-checks",), count=2),
            ),
        ),
    )
    verbs = propose(_single(), usage=uses).manifest["verbs"]
    listing = next(v for v in verbs.values() if "--list-checks" in v["cli"])
    assert "used:" in listing["x-why"]
    main = next(v for v in verbs.values() if v["cli"][1:2] != ["--list-checks"])
    assert {"external", "severity"} <= set(main["args"]["properties"])
    assert "files" in main["args"].get("required", [])


def test_the_pack_description_says_what_the_tool_is_for():
    """A heading, a note on the help itself and a NAME line's "prog - " are skipped or cut; a help
    that never says what the tool is for says so instead of "Named commands of X"."""
    from wrapgen.propose.core import tool_purpose

    root = Command(
        summary="Try 'wgtool --help all' for additional help text.",
        description="Where: NAME is a name\n\nwgtool - counts the widgets in a file.",
    )
    assert tool_purpose(root, "wgtool") == "counts the widgets in a file."
    bare = propose(Tool(name="wgtool", root=Command(flags=(Flag(long="--all"),))), usage=())
    assert "Named commands" not in bare.manifest["description"]
    assert "does not say what it is for" in bare.manifest["description"]


def test_a_paragraph_on_an_operand_is_no_description_of_the_tool():
    """A root help whose only prose is the legend of its operand ("FILENAME is the name of a
    database. A new one is created if ..."): neither sentence says what the tool is for, nor is the
    first its main mode's description; a paragraph after it that does is taken."""
    from wrapgen.propose.core import tool_purpose

    legend = "FILENAME is the name of a widget store. A new store is created if it is missing."
    root = Command(
        summary=legend,
        description=legend,
        usage=("wgstore [OPTIONS] FILENAME [QUERY]",),
        flags=(Flag(long="--json", description="print JSON"),),
        positionals=(Positional("FILENAME"), Positional("QUERY", required=False)),
    )
    assert tool_purpose(root, "wgstore") == ""
    pack = propose(Tool(name="wgstore", root=root), usage=())
    assert "FILENAME is" not in pack.manifest["description"]
    assert "is created" not in pack.manifest["description"]
    for verb in pack.manifest["verbs"].values():
        assert not verb["description"].startswith("FILENAME is"), verb["description"]
    told = Command(
        summary=legend,
        description=legend + "\n\nQueries widget stores with a small language.",
        positionals=root.positionals,
    )
    assert tool_purpose(told, "wgstore") == "Queries widget stores with a small language."


def test_an_operand_is_described_in_its_own_tools_words():
    """No glossary of another tool's: the sentence of the command's help that names the operand."""
    from wrapgen.propose.text import operand_description

    said = operand_description(
        Positional("OBJECT"),
        "object",
        "Show an object. With no OBJECT, show every link of the device.",
    )
    assert said == "With no OBJECT, show every link of the device (OBJECT in the usage line)"
    assert "revision" not in operand_description(Positional("<object>"), "object").lower()


def _cutter() -> Tool:
    """A tool whose every use passes one of its value flags (a field cutter)."""
    root = Command(
        path=(),
        summary="Print selected parts of lines of each FILE to standard output.",
        usage=("wgcut OPTION... [FILE]...",),
        flags=(
            Flag(long="--characters", short="-c", takes_value=True, description="select chars"),
            Flag(long="--delimiter", short="-d", takes_value=True, description="use DELIM"),
            Flag(long="--fields", short="-f", takes_value=True, description="select fields"),
        ),
        positionals=(Positional("FILE", required=False, variadic=True),),
    )
    return Tool(name="wgcut", root=root)


def test_a_tool_its_uses_always_run_with_a_value_flag_gets_a_mode_per_flag():
    """Every use passes --characters or --fields (with --delimiter): each is a read verb with its
    value required; a value flag every use of a verb passes is required."""
    uses = (
        UsageEvidence(
            tool="wgcut",
            source="tldr-pages",
            uses=(
                Use(path=(), flags=("-c",), valued=("-c",), operands=(FILE,), count=2),
                Use(path=(), flags=("-d", "-f"), valued=("-d", "-f"), operands=(FILE,), count=3),
                Use(path=(), flags=("-f",), valued=("-f",), operands=(FILE,), count=1),
            ),
        ),
    )
    verbs = propose(_cutter(), usage=uses).manifest["verbs"]
    assert set(verbs["fields"]["args"]["required"]) == {"fields"}  # 3 of 4 uses pass a delimiter
    assert "characters" in verbs["characters"]["args"]["required"]
    assert verbs["fields"]["policy"]["effect"] == "read"
    assert "--characters={{characters}}" not in verbs["fields"]["cli"]


def test_a_value_a_use_wrote_never_reaches_the_pack():
    """A literal word of a use (a token a script passed) is counted, never named in the manifest."""
    secret = "hunter2tokenXYZ"
    uses = _evidence(
        Use(path=("deploy",), operands=(UsedOperand("literal", secret),), count=3),
        Use(path=("show",), operands=(UsedOperand("literal", secret), FILE), count=2),
        source="local",
    )
    manifest = propose(_tool(), usage=uses).manifest
    assert "deploy" in manifest["verbs"]
    assert secret not in repr(manifest)


def test_a_command_written_after_a_global_options_value_is_the_path():
    """'wgtool --repo DIR rarely': the table's reader left 'rarely' among the operands as a literal
    word; the tree has that command, so the use is its."""
    uses = _evidence(
        Use(
            path=(),
            flags=("--repo",),
            valued=("--repo",),
            operands=(UsedOperand("literal", "rarely"),),
            count=4,
        ),
    )
    verbs = propose(_tool(), usage=uses).manifest["verbs"]
    assert "used:" in verbs["rarely"]["x-why"]


def test_command_words_of_a_tool_the_help_gave_no_subcommands_are_verbs():
    """An archiver's uses lead with 'a', 'x' and 'l' in its usage's <command> slot: each is a verb
    with the word fixed and the operands its uses pass; one odd leading word would be an operand."""
    root = Command(
        path=(),
        summary="An archiver.",
        usage=("wgzip <command> [<switches>...] <archive_name> [<file_names>...]",),
        flags=(Flag(short="-so", description="write data to stdout"),),
    )
    archive = UsedOperand("file", "archive")
    uses = (
        UsageEvidence(
            tool="wgzip",
            source="tldr-pages",
            uses=(
                Use(path=("a",), operands=(archive, UsedOperand("path", "file_or_directory"))),
                Use(path=("x",), operands=(archive,), count=2),
                Use(path=("l",), operands=(archive,)),
            ),
        ),
    )
    verbs = propose(Tool(name="wgzip", root=root), usage=uses).manifest["verbs"]
    assert verbs["l"]["cli"][:2] == ["wgzip", "l"] and "{{archive}}" in verbs["l"]["cli"]
    assert verbs["a"]["args"]["required"] == ["archive", "file_or_directory"]


def test_a_short_only_mode_is_named_by_its_helps_verb_and_object():
    """'-l  Show fingerprint of specified public key file.' -> show-fingerprint; 'Requests changing
    the passphrase' -> change-passphrase; a filter's 'output raw strings' keeps its own naming."""
    from wrapgen.propose.modes import mode_name

    assert mode_name(Flag(short="-l", description="Show fingerprint of the key file.")) == (
        "show-fingerprint"
    )
    assert mode_name(Flag(short="-p", description="Requests changing the passphrase.")) == (
        "change-passphrase"
    )
    assert mode_name(Flag(short="-r", description="output raw strings, not JSON texts")) == (
        "raw-output"
    )


def test_an_output_format_its_uses_pass_is_kept_where_the_verb_selects_no_json():
    """A reindenting ``--format`` or a report ``--template`` that the uses pass shapes a text
    answer, so a verb with no JSON selection offers them; where the verb selects JSON the pack
    chooses the format and they stay out, as does ``--output`` (a file the tool may write)."""
    from wrapgen.propose.args import plan_args

    command = Command(
        path=(),
        flags=(
            Flag(long="--format", description="reformat and reindent the output"),
            Flag(long="--template", takes_value=True, description="the report's layout"),
            Flag(long="--output", takes_value=True, description="where to put the result"),
            Flag(long="--json", description="print the result as JSON"),
        ),
        positionals=(Positional("FILE", required=True),),
    )
    uses = (
        Use(path=(), flags=("--format",), operands=(FILE,), count=2, where=("tldr-pages",)),
        Use(
            path=(),
            flags=("--template", "--output"),
            operands=(FILE,),
            count=1,
            where=("tldr-pages",),
        ),
    )
    text = plan_args(command, tool="wgfmt", effect="read", uses=uses)
    assert {"format", "template"} <= set(text.properties)
    assert "output" not in text.properties
    selected = plan_args(command, tool="wgfmt", effect="read", uses=uses, json_flag="--json")
    assert not {"format", "template", "output"} & set(selected.properties)


def test_uses_of_a_duplicate_count_for_the_command_kept():
    """Evidence written for the long form (``grp ls``) of a command kept in its short form (``ps``:
    the same summary, shallower) makes the short one picked, its x-why naming the uses."""
    tool = _tool()
    group = Command(
        path=("grp",), summary="Manage things", subcommands=(_sub("ls", "List the containers"),)
    )
    group = group.with_changes(subcommands=(group.subcommands[0].with_changes(path=("grp", "ls")),))
    root = tool.root.with_changes(
        subcommands=(*tool.root.subcommands, _sub("ps", "List the containers"), group)
    )
    uses = _evidence(Use(path=("grp", "ls"), count=9, where=("tldr-pages",)))
    verbs = propose(Tool(name="wgtool", root=root), usage=uses).manifest["verbs"]
    assert "ps" in verbs and "grp.ls" not in verbs
    assert "9 tldr-pages examples" in verbs["ps"]["x-why"]


def test_a_familys_listing_counts_its_familys_uses():
    """The uses name ``job create`` (a write) and ``job view ID`` but never ``job list``: the
    listing, how a person finds the ID, is picked and says why; a family no use names gains
    nothing."""
    jobs = Command(
        path=("job",),
        summary="Work with jobs",
        subcommands=(
            _sub("list", "List jobs").with_changes(path=("job", "list")),
            _sub("view", "View a job", positionals=[Positional("<id>")]).with_changes(
                path=("job", "view")
            ),
            _sub("create", "Create a job").with_changes(path=("job", "create")),
        ),
    )
    quiet = Command(
        path=("lab",),
        summary="Work with labels",
        subcommands=(_sub("list", "List labels").with_changes(path=("lab", "list")),),
    )
    tool = _tool()
    root = tool.root.with_changes(subcommands=(*tool.root.subcommands, jobs, quiet))
    uses = _evidence(
        Use(path=("job", "create"), count=6, where=("tldr-pages",)),
        Use(path=("job", "view"), operands=(FILE,), count=3, where=("tldr-pages",)),
    )
    verbs = propose(Tool(name="wgtool", root=root), usage=uses).manifest["verbs"]
    assert "job.list" in verbs
    assert verbs["job.list"]["x-why"].startswith("lists the 'job' items")
    assert not verbs.get("lab.list", {}).get("x-why", "").startswith("lists the")


def test_more_uses_rank_first_however_many_other_commands_the_tool_has():
    """Of two reads the help lists in the same group, the one more uses name comes first in the
    pack, whether the tool has 4 commands or 60 (an optional package adds some): the help's order
    only breaks ties. It was a fraction of a point scaled by the number of commands, which swapped
    two reads of 8 and 5 uses between two machines."""

    def tool(extra: int) -> Tool:
        subs = [
            _sub("grep", "Print lines matching a pattern"),
            _sub("status", "Show the working tree status"),
            _sub("deploy", "Deploy a service"),
            *(_sub(f"zz-extra{i:02d}", f"An extra command number {i}") for i in range(extra)),
        ]
        return Tool(
            name="wgtool", root=Command(path=(), summary="Manage.", subcommands=tuple(subs))
        )

    uses = _evidence(
        Use(path=("grep",), count=5, where=("tldr-pages",)),
        Use(path=("status",), count=8, where=("tldr-pages",)),
    )
    for extra in (1, 4, 60):
        verbs = list(propose(tool(extra), usage=uses).manifest["verbs"])
        assert verbs.index("status") < verbs.index("grep"), (extra, verbs)
    # equal uses: the help's own order decides
    same = _evidence(
        Use(path=("grep",), count=5, where=("tldr-pages",)),
        Use(path=("status",), count=5, where=("tldr-pages",)),
    )
    verbs = list(propose(tool(60), usage=same).manifest["verbs"])
    assert verbs.index("grep") < verbs.index("status"), verbs


def test_half_a_full_pack_may_be_the_writes_people_use_most():
    """Six reads and six writes the uses name, beside four reads none names: the pack holds the six
    writes, each confirm-gated, and the six used reads; at four writes, two unused reads took the
    place of two writes used eight times each."""
    used = [_sub(f"show{i}", f"Show the thing number {i}") for i in range(6)]
    unused = [_sub(f"list{i}", f"List the things of kind {i}") for i in range(4)]
    writes = [_sub(f"make{i}", f"Create the thing number {i}") for i in range(6)]
    tool = Tool(
        name="wgtool",
        root=Command(path=(), summary="Manage.", subcommands=(*used, *unused, *writes)),
    )
    uses = _evidence(
        *(Use(path=(c.name,), count=1, where=("tldr-pages",)) for c in used),
        *(Use(path=(c.name,), count=8, where=("tldr-pages",)) for c in writes),
    )
    verbs = propose(tool, usage=uses).manifest["verbs"]
    made = {n for n, v in verbs.items() if v["policy"]["effect"] != "read"}
    assert made == {c.name for c in writes}, sorted(verbs)
    assert all(verbs[n]["policy"].get("confirm") for n in made)
    assert set(verbs) == made | {c.name for c in used}


def test_uses_under_a_family_never_read_are_no_uses_of_the_family():
    """`tool things ls` where discovery listed `things` but never read it (a stub): `ls` is no
    operand of `things`, and the family does not rank on its members' uses (a family's verb with
    forty uses crowded out used reads); the uses are reported as naming a command discovery did
    not read."""
    family = Command(path=("things",), summary="Manage things", stub=True)
    tool = Tool(
        name="wgtool",
        root=Command(
            path=(),
            summary="Manage.",
            subcommands=(
                family,
                _sub("status", "Show the status"),
                _sub("list", "List the items"),
                _sub("show", "Show an item"),
                _sub("logs", "Print the logs"),
                _sub("build", "Build the project"),
            ),
        ),
    )
    uses = _evidence(
        Use(path=("things", "ls"), count=40, where=("tldr-pages",)),
        Use(path=("status",), count=2, where=("tldr-pages",)),
    )
    proposal = propose(tool, usage=uses)
    things = next(d for d in proposal.decisions if d.path == "things")
    assert "used" not in things.reason, things
    assert [d.path for d in proposal.decisions if "used" in d.reason] == ["status"]
    assert any("things ls" in w and "did not read" in w for w in proposal.warnings)
