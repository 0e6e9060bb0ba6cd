"""Which commands of a tool to propose: candidates, what rules them out, and how they rank.

Every subcommand is a candidate (a tool without subcommands gets its modes from ``modes.py``).
A candidate is left out, with the reason in words, when it is help, completion, version, a plugin
manager, alpha/experimental, deprecated, hidden, interactive (editors, prompts, TUIs, login flows),
long-running (proxies, servers), or a mega-command (docs/contract.md §13). The rest rank by: read
before write, the commands the tool's own short help lists (``common``: `vcs --help` beside `vcs
help -a`) before the rest, the help's core/common groups before other groups, shallow before deep;
the help's own order only breaks ties (as a weight it weighed a command by how many others the tool
has installed). The pick keeps families balanced (at most 3 from ``pr``) and caps writes, so a pack
of 5 to 12 reads the way a person who knows the tool would have chosen.
"""

from __future__ import annotations

import math
import re
from dataclasses import replace
from typing import Sequence

from wrapgen.knowledge.commands import (
    MEGA_REASON,
    about_its_work,
    common_weight,
    forwards_command_line,
    is_family_listing,
    is_mega_command,
    is_setup_family,
    never_reason,
    runs_what_its_grammar_names,
    speaks_of_running,
)
from wrapgen.knowledge.phrases import (
    about_the_tool,
    bare_job_patterns,
    description_out,
    dry_run_words,
    group_weights,
    preview_words,
    summary_out,
    summary_weights,
)
from wrapgen.knowledge.table import load
from wrapgen.model.proposal import Candidate
from wrapgen.model.tool import Command, Flag
from wrapgen.names import proposed_verb_name
from wrapgen.propose.jsonsel import select_json
from wrapgen.propose.policy import NAME_EFFECTS, SUMMARY_EFFECTS, escape_guards, summary_verb
from wrapgen.propose.rules import rule

__all__ = [
    "Candidate",
    "exclusion_reason",
    "rank_score",
    "rank_reason",
    "pick",
    "MAX_VERBS",
    "MAX_READS",
    "MAX_WRITES",
    "COMMON_BONUS",
    "listing_mode",
    "preview_modes",
    "bare_job",
    "evidence_points",
    "family_listing_points",
]

MAX_VERBS = 12
MAX_READS = 9
# half a full pack: the commands people use most are often writes (build, test, pull, up), and each
# write is confirm-gated; at 4, a tool's fifth and sixth most used writes gave way to little-used reads
MAX_WRITES = 6
MAX_DESTRUCTIVE = 1
FAMILY_CAP = 3
FAMILY_WRITE_CAP = 1
MIN_VERBS = 5
# The ranking weights and the reason of each: wrapgen/knowledge/data/weights.json ("rank").
_WEIGHTS = load("weights")["rank"].values()
COMMON_BONUS = _WEIGHTS["common"]
MIN_QUALITY = _WEIGHTS["min_quality"]  # before the effect's points; below it a candidate only fills
# ... or, for a read within its family's cap, a pack with fewer reads than this: a read costs its user
# nothing, and a tool with few commands (alertctl's config show and config routes show, setup-family
# reads) should not be left with three of them and room for nine
FEW_READS = 6

# Which words keep a command out, and which forward a command line: wrapgen/knowledge/commands.py
# (one definition for propose, check and promote).
# Summary phrases that keep a command out, and the weights of the help's group headings ("core",
# "plumbing"): regular expressions with their reasons in wrapgen/knowledge/data/phrases.json.
_SUMMARY_OUT = summary_out()
_DESCRIPTION_OUT = description_out()
_GROUP_WEIGHTS = group_weights()
_SUMMARY_WEIGHTS = summary_weights()
# The commands people use most (a rank bonus) and the setup families (a penalty) are data:
# wrapgen/knowledge/data/commands.json.


def other_work(summary: str) -> str:
    """The verb a summary opens with where the effect tables know it and the summary speaks of
    running nothing (an archiver's ``x`` "eXtract files with full paths" -> ``extract``; "(default)
    Apply the expression to each document" -> ``apply``), else "": a command named like a
    mega-command with such a summary does that work, whatever its name says elsewhere."""
    text = re.sub(r"^\s*[(\[][^)\]]*[)\]]\s*", "", summary or "")
    first = re.match(r"\s*([A-Za-z]+)", text)
    if not first or not summary_verb(first.group(1)) or speaks_of_running(text):
        return ""
    return first.group(1).lower()


@rule("why is a candidate command never proposed?")
def exclusion_reason(candidate: Candidate, tool_name: str = "") -> str | None:
    """Why this candidate is never proposed, or None; ``tool_name`` (the program's) finds a summary
    about the tool itself ("Shows a short information about Pkgtool")."""
    command = candidate.command
    if candidate.fixed or candidate.name:
        return None
    if any(word.startswith("-") for word in candidate.path):
        # "-" (stdin) or "-x" read as a subcommand: in cli[] it stands where a flag would (check's W014)
        return "not a subcommand: a word starting with '-' is a flag or an operand"
    for place, word in enumerate(candidate.path, 1):
        why = never_reason(word, family=place < len(candidate.path))
        if why and not (word == candidate.path[-1] and about_its_work(word, command.summary)):
            return why
    if command.hidden:
        return "hidden"
    if command.deprecated:
        return "deprecated"
    if (
        candidate.path
        and is_mega_command(candidate.path[-1])
        and not runs_what_its_grammar_names(candidate.path[-1], command)
        and not other_work(command.summary)
    ):
        return MEGA_REASON
    if forwards_command_line(command):
        return MEGA_REASON
    if (
        candidate.path
        and not command.stub
        and not command.subcommands
        and not command.positionals
        and command.usage
        and all(_REQUIRED_COMMAND_SLOT.search(line) for line in command.usage)
    ):
        # "inspect [OPTIONS] COMMAND": a required word where a subcommand goes that the
        # page lists none of (the usage parser reads COMMAND as the subcommand's place, never as
        # an operand), so the verb would always run without it and fail
        return "its usage needs a COMMAND word that its help lists no command for: run without one it fails"
    # the summary and the group heading each on its own, so a pattern may end with the summary
    texts = (command.summary, candidate.group) if candidate.group else (command.summary,)
    for pattern, why in _SUMMARY_OUT + about_the_tool(tool_name.rsplit("/", 1)[-1]):
        if any(pattern.search(text) for text in texts):
            return why
    for pattern, why in _DESCRIPTION_OUT:
        if pattern.search(command.description):
            return why
    return None


# A required subcommand place on a usage line: "COMMAND" or "<command>", not in brackets.
_REQUIRED_COMMAND_SLOT = re.compile(r"(?:^|\s)(?:COMMAND|<command>)(?=\s|$)")

_EFFECT_BASE = {effect: _WEIGHTS[effect] for effect in ("read", "write", "destructive")}


def evidence_points(count: int) -> float:
    """The points usage evidence gives a candidate that ``count`` uses name (0 for none)."""
    if count <= 0:
        return 0.0
    return _WEIGHTS["used"] + _WEIGHTS["per_doubling"] * math.log2(count)


def _group_weight(group: str) -> float:
    for pattern, weight in _GROUP_WEIGHTS:
        if pattern.search(group or ""):
            return weight
    return 0.0


def _summary_weight(candidate: Candidate) -> float:
    """The weight of what a command's own summary says of its standing ("[open beta]"); none for a
    mode or a fixed form, whose command is the tool's."""
    if candidate.fixed or candidate.name:
        return 0.0
    summary = candidate.command.summary or ""
    return next((w for pattern, w in _SUMMARY_WEIGHTS if pattern.search(summary)), 0.0)


@rule("how high does a candidate command rank?")
def rank_score(candidate: Candidate, effect: str, *, min_depth: int) -> float:
    """Higher is proposed first: the uses evidence counts for it first (``evidence_points``), then
    what the help says (its effect, the short help's common list, group headings, the names people
    use, depth). Equal scores keep the help's own order (the caller sorts by score, then index): a
    fraction of a point for it, scaled by the number of candidates, let an optional package that
    adds a few commands to a tool reorder two of its commands whose uses differ (two reads of 8
    and 5 uses swapped between two machines)."""
    name = (
        candidate.path[-1] if candidate.path else candidate.name
    ).lower()  # a mode: its chosen name
    family = candidate.path[0].lower() if len(candidate.path) > 1 else ""
    score = evidence_points(candidate.use_count)
    # a setup family's commands, or a write named like one (pkgtool config "Sets config options");
    # a read of that name alone shows what the tool works with (sitegen config "Print the site
    # configuration"), which is not setting the tool up
    if is_setup_family(family) or (is_setup_family(name) and (effect != "read" or family)):
        score += _WEIGHTS["setup"]
    score += _EFFECT_BASE[effect]
    # the short help's own headings ("grow, mark and tweak your common history") only sort its
    # common list, so they weigh nothing beside the bonus for being on it
    score += COMMON_BONUS if candidate.common else _group_weight(candidate.group)
    weight = common_weight(name, effect)
    if family and candidate.depth and candidate.depth < len(candidate.path):
        # a member of a family that does nothing bare is what people mean by the family (clusterctl top pod)
        weight = max(weight, common_weight(family, effect))
    score += weight
    score += _summary_weight(candidate)
    if candidate.dry_run:
        score += _WEIGHTS["dry_run_form"]
    score += _WEIGHTS["depth"] * max(0, (candidate.depth or len(candidate.path)) - min_depth)
    return score


@rule("does a family's listing count the uses of its family?")
def family_listing_points(
    ranked: list[tuple[float, Candidate, str]],
) -> tuple[list[tuple[float, Candidate, str]], frozenset[int]]:
    """Each read listing of a family (``pr list``) scored as if the uses named it as often as its
    family's most used command (``pr create``, ``pr view NUMBER``): a person finds the item the
    others take by listing them, though examples seldom show the listing itself. Returns the
    scores and the ids of the candidates raised."""
    most: dict[str, int] = {}
    for _, cand, _effect in ranked:
        if len(cand.path) > 1 and cand.use_count:
            most[cand.path[0]] = max(most.get(cand.path[0], 0), cand.use_count)
    out, raised = [], set()
    for score, cand, effect in ranked:
        family = cand.path[0] if len(cand.path) == 2 else ""
        if (
            effect == "read"
            and family in most
            and is_family_listing(cand.path[-1])
            and cand.use_count < most[family]
        ):
            score += evidence_points(most[family]) - evidence_points(cand.use_count)
            raised.add(id(cand))
        out.append((score, cand, effect))
    return out, frozenset(raised)


@rule("why does the help itself recommend a candidate?")
def rank_reason(candidate: Candidate) -> str:
    """Why the help itself recommends this candidate, in words ("" when it does not)."""
    if candidate.common:
        return "the tool's own --help lists it among its common commands"
    heading = candidate.group.split(" / ")[0] if candidate.group else ""
    if heading and _group_weight(heading) >= 2.0:
        return f"the help lists it under '{heading}'"
    return ""


_LISTS = re.compile(r"\blists?\b", re.I)
# A preview switch whose help opens with one of these words applies to every operation of the tool
# (packer -c "write to standard output": compress and decompress); any other word names the one it belongs to.
_GENERIC_LEADS = frozenset(
    {"write", "writes", "print", "prints", "output", "don", "do", "just", "only"}
)
_WORD = re.compile(r"[a-z]+")


def _writes(flag: Flag) -> bool:
    """Whether a flag's help starts with a verb that changes something ("delete fully merged branch",
    "unset the upstream"); only the leading verb counts, "print only tags that contain the commit" reads."""
    words = _WORD.findall(flag.description.lower())
    if not words:
        return False
    word = words[0]
    return any(
        SUMMARY_EFFECTS.get(key, NAME_EFFECTS.get(key, "read")) != "read"
        for key in (word, word[2:] if word.startswith("un") else word)
    )


@rule("what is the read-only listing form of a mixed command?")
def listing_mode(candidate: Candidate, effect: str) -> Candidate | None:
    """The read-only listing form of a mixed command, or None.

    "List, create, or delete branches" classifies as destructive, yet `vcs branch --list` only
    lists: when the summary names listing and the command has a ``--list`` switch, that switch is a
    read command of its own. It keeps only what its usage line for the switch shows (``[<pattern>...]``,
    the flags named there, or with ``[<options>]`` every flag whose help does not speak of changing).
    """
    command = candidate.command
    if effect == "read" or candidate.fixed or candidate.name or not candidate.path:
        return None
    if not _LISTS.search(command.summary):
        return None
    switch = next((f for f in command.flags if f.long == "--list" and not f.takes_value), None)
    if switch is None:
        return None
    spelled = "|".join(re.escape(s) for s in switch.spellings)
    lines = tuple(u for u in command.usage if re.search(rf"(?<![\w-])(?:{spelled})(?![\w-])", u))
    flags = tuple(f for f in command.flags if f is switch or not _writes(f))
    positionals = command.positionals
    if lines:
        text = " ".join(lines)
        if not re.search(r"\[<?options?>?\]", text, re.I):
            flags = tuple(
                f
                for f in flags
                if f is switch
                or any(re.search(rf"(?<![\w-]){re.escape(s)}(?![\w-])", text) for s in f.spellings)
            )
        operands = re.sub(
            r"-[\w-]+(?:\[?=|\s+)?\[?<[^>]*>", " ", text
        )  # a flag's value is no operand
        positionals = tuple(
            p
            for p in positionals
            if any(re.search(rf"<{re.escape(part)}>", operands) for part in p.name.split("|"))
        )
    listed = replace(command, usage=lines or command.usage, flags=flags, positionals=positionals)
    what = switch.description.strip().rstrip(".") or f"list {candidate.path[-1]}"
    return Candidate(
        path=candidate.path,
        command=listed,
        group=candidate.group,
        index=candidate.index,
        fixed=("--list",),
        name=proposed_verb_name(".".join((*candidate.path, "list"))),
        summary=what[0].upper() + what[1:] + ".",
        common=candidate.common,
        listing=True,
        depth=candidate.depth,
        note=f"the listing form of '{' '.join(candidate.path)}' (--list)",
    )


@rule("which switches make a write command report without writing?")
def preview_modes(candidate: Candidate, effect: str) -> tuple[Candidate, ...]:
    """The read-only forms of a write command: its switches whose help says they write nothing back
    and only report (``black --check``: "Don't write the files back, just return the status";
    ``linter format --diff``). Each is a read command of its own, named after the switch, keeping the
    flags whose help does not speak of changing; the command itself still ranks as the write it is."""
    command = candidate.command
    if effect == "read" or candidate.listing or candidate.owns:
        return ()
    words = preview_words()
    # a switch that keeps the statements from reaching outside ("enable safe-mode") goes on every
    # read form beside its own switch
    guards = escape_guards(command)
    # (the JSON selection "set output mode to 'json'" opens with a verb that changes, and stays)
    json_flag = select_json(command).flag
    out = []
    for flag in command.flags:
        if (
            flag.takes_value
            or not flag.spellings
            or flag.hidden
            or flag.deprecated
            or not words.search(flag.description)
        ):
            continue
        if flag.operation or set(flag.spellings) & set(candidate.fixed):
            continue  # another of the tool's operations, or the mode's own switch
        lead = (_WORD.findall(flag.description.lower()) or [""])[0]
        if (
            candidate.fixed
            and lead not in _GENERIC_LEADS
            and not candidate.name.startswith(lead[:5])
        ):
            continue  # archiver -O "extract files to standard output" is a form of --extract only
        spelling = flag.long or flag.spellings[0]
        switch = spelling.lstrip("-")
        # an operation of a tool without subcommands (packer --decompress) names its forms: decompress.stdout
        base = (
            ".".join(candidate.path)
            if candidate.path
            else (candidate.name if candidate.fixed else "")
        )
        name = proposed_verb_name(f"{base}.{switch}" if base else switch)
        flags = tuple(
            f
            for f in command.flags
            if f is flag
            or (json_flag and json_flag in f.spellings)
            or not (_writes(f) or words.search(f.description))
        )
        what = re.split(r"(?<=[.;])\s", flag.description.strip())[0].rstrip(".;")
        # a dry run of a common write is no command the help recommends, and ranks after the plain
        # reads (rank_score): a package manager's five dry runs took the slots of its lock and env info
        dry_run = bool(dry_run_words().search(flag.description))
        out.append(
            Candidate(
                path=candidate.path,
                command=replace(command, flags=flags),
                group=candidate.group,
                index=candidate.index,
                fixed=(
                    *candidate.fixed,
                    *(g for g in guards if g not in candidate.fixed),
                    spelling,
                ),
                name=name,
                summary=f"{what[0].upper()}{what[1:]}.",
                common=candidate.common and not dry_run,
                listing=True,
                dry_run=dry_run,
                depth=candidate.depth,
                note=f"the read-only form of '{' '.join(candidate.path) or candidate.name}' ({spelling})",
            )
        )
    return tuple(out)


_COMMAND_SLOT = re.compile(r"<(?:sub)?command>|\[(?:sub)?command\]|\b(?:SUB)?COMMAND\b", re.I)
# A command slot in brackets: the command may be left out ("tc show [OPTIONS] [COMMAND]";
# clap writes "<COMMAND>" where one is required)
_OPTIONAL_COMMAND_SLOT = re.compile(r"\[<?(?:sub)?command>?\]", re.I)


def runs_without_a_command(usage: Sequence[str]) -> bool:
    """Whether a group's usage lines show it running with no subcommand: a line without a command
    slot, or one whose slot is in brackets."""
    return any(
        u.strip() and (not _COMMAND_SLOT.search(u) or _OPTIONAL_COMMAND_SLOT.search(u))
        for u in usage
    )


@rule("what job does a tool with subcommands do run bare?")
def bare_job(root: Command, *, bin: str) -> Candidate | None:
    """The job a tool with subcommands does when run bare, as a command of its own, or None.

    Only where the tool says so itself (its summary: "sitegen is the main command, used to build your
    Sitegen site"; knowledge/data/phrases.json ``bare_job``) and its usage shows it running without a
    command (``sitegen [flags]`` beside ``sitegen [command]``); the verb's args are the root's own flags."""
    if not root.subcommands or not any(
        u.strip() and not _COMMAND_SLOT.search(u) for u in root.usage
    ):
        return None
    own = [
        f
        for f in root.flags
        if not set(f.spellings) <= {"--help", "-h", "-help", "--version", "-v"}
    ]
    if not own:
        return None
    text = " ".join((root.summary, root.description.split("\n")[0] if root.description else ""))
    for pattern in bare_job_patterns():
        found = pattern.search(text)
        if found and found.groupdict().get("verb"):
            verb = found.group("verb").lower()
            if any(sub.name == verb for sub in root.subcommands):
                return None  # the job has a command of its own ("build"): that one is proposed
            sentence = re.split(r"(?<=[.!?])\s", text[found.start() :].strip())[0].rstrip(".")
            summary = f"{verb[0].upper()}{verb[1:]}: {bin} run without a command ({sentence})."
            return Candidate(
                path=(),
                command=replace(root, subcommands=()),
                name=proposed_verb_name(verb),
                summary=summary,
                common=True,
                depth=1,  # as shallow as the commands
                note=f"the tool's main command: its help says bare '{bin}' is used to {verb}",
            )
    return None


@rule("which ranked candidates fit in one pack?")
def pick(
    ranked: list[tuple[float, Candidate, str]],
) -> tuple[list[tuple[Candidate, str]], dict[int, str]]:
    """Choose from (score, candidate, effect) best first: caps on writes, families and total.

    Returns the chosen (candidate, effect) in pack order (reads first) and, for each index in
    ``ranked`` not chosen, why.
    """
    chosen: list[int] = []
    why: dict[int, str] = {}
    counts = {"read": 0, "write": 0, "destructive": 0}
    families: dict[tuple[str, bool], int] = {}  # (family, is_read) -> count

    def family(c: Candidate) -> str:
        return c.path[0] if len(c.path) > 1 else ""

    def allowed(i: int, *, relaxed: bool, spare: bool = False) -> str | None:
        score, c, effect = ranked[i]
        if len(chosen) >= MAX_VERBS:
            return f"the pack already has {MAX_VERBS} commands that rank higher"
        if (
            score - _EFFECT_BASE[effect] < MIN_QUALITY
            and not c.uses
            and not relaxed
            and not (effect == "read" and counts["read"] < FEW_READS and not spare)
        ):
            return "ranks low: plumbing, setup or rarely used, and the pack has enough commands"
        if effect == "read" and counts["read"] >= MAX_READS and not relaxed:
            return f"{MAX_READS} read commands rank higher"
        if effect != "read" and counts["write"] + counts["destructive"] >= MAX_WRITES:
            return f"{MAX_WRITES} write commands rank higher"
        if effect == "destructive" and counts["destructive"] >= MAX_DESTRUCTIVE:
            return "destructive; one destructive command is enough for a first pack"
        fam = family(c)
        cap = FAMILY_CAP if effect == "read" else FAMILY_WRITE_CAP
        if fam and families.get((fam, effect == "read"), 0) >= cap and not relaxed and not spare:
            kind = "read" if effect == "read" else "write"
            return f"{cap} {kind} commands of the '{fam}' family rank higher"
        return None

    # 1. the caps; 2. read slots no other family wants go to a capped family's next reads
    # (sitegen's four "list" commands beside two other reads); 3. filling a pack up to MIN_VERBS
    for relaxed, spare in ((False, False), (False, True), (True, False)):
        for i in range(len(ranked)):
            if i in chosen:
                continue
            if relaxed and len(chosen) >= MIN_VERBS:
                break
            if spare and ranked[i][2] != "read":
                continue
            reason = allowed(i, relaxed=relaxed, spare=spare)
            if reason:
                why.setdefault(i, reason)
                continue
            _, c, effect = ranked[i]
            chosen.append(i)
            why.pop(i, None)
            counts[effect] += 1
            fam = family(c)
            if fam:
                key = (fam, effect == "read")
                families[key] = families.get(key, 0) + 1
    order = {"read": 0, "write": 1, "destructive": 2}
    chosen.sort(key=lambda i: (order[ranked[i][2]], i))
    return [(ranked[i][1], ranked[i][2]) for i in chosen], why
