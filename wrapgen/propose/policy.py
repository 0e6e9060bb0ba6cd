"""Classify a command as read, write or destructive from its name and its help words.

The effect is the strongest one any deciding word asks for, so "List, create, or delete branches"
is destructive; a command no word speaks for is treated as a write, to be safe. The result keeps
the words that decided it, because a person judging the proposal needs to see why.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from wrapgen.model.tool import Command

__all__ = ["PolicyGuess", "classify", "EFFECTS", "NAME_EFFECTS", "SUMMARY_EFFECTS"]

EFFECTS = ("read", "write", "destructive")

_READ_NAMES = """
list ls get show view status log logs diff describe inspect search find grep cat info top history
explain check verify count print display ps images blame query read browse watch tail head stat
stats whoami version events port ls-files ls-tree ls-remote shortlog whatchanged reflog rev-parse
cat-file checks files types type-list list-types tree api-resources api-versions cluster-info
outdated audit which where locate match validate lint dry-run preview env
""".split()
_WRITE_NAMES = """
create add set update edit write apply commit push merge rebase move mv rename install start stop
restart run exec send post upload publish init clone pull fetch patch replace scale label annotate
cordon uncordon approve close reopen lock unlock comment fork checkout switch build login logout
enable disable sync import save load copy cp expose rollout tag stash cherry-pick revert bisect
review ready transfer archive unarchive pin unpin transfer mark deploy attach detach pause unpause
resume cancel rerun retry config configure autoscale certificate taint cordon debug
upgrade downgrade reinstall dist-upgrade full-upgrade dselect-upgrade
""".split()
_DESTRUCTIVE_NAMES = """
delete rm remove destroy drop purge prune kill reset wipe erase uninstall clean terminate revoke
truncate rmi drain restore autoremove autopurge
""".split()

NAME_EFFECTS: dict[str, str] = {
    **{w: "read" for w in _READ_NAMES},
    **{w: "write" for w in _WRITE_NAMES},
    **{w: "destructive" for w in _DESTRUCTIVE_NAMES},
}

# Leading verbs of a summary ("List pull requests", "Fetch the logs of a container"). Kept apart
# from the name table: "fetch" as a summary verb reads (docker logs), as a command name it writes.
SUMMARY_EFFECTS: dict[str, str] = {
    **{w: "read" for w in """
        list show view display print get describe inspect search find grep return explain check
        verify count query read browse watch follow fetch compare output report look summarize
        locate match validate lint dump tail diff print evaluate test
    """.split()},
    **{w: "write" for w in """
        create add set update edit write apply record commit push merge rebase move rename install
        start stop restart run execute send post upload download publish initialize reinitialize
        clone pull patch replace scale label annotate mark approve close reopen lock unlock comment
        fork checkout switch build login logout enable disable sync import save load copy expose
        join reapply integrate tag stash revert change modify manage configure transfer cancel
        pause unpause resume retry rerun deploy attach detach generate make
    """.split()},
    **{w: "destructive" for w in """
        delete remove destroy drop purge prune kill reset wipe erase uninstall clean terminate revoke
        truncate overwrite discard restore drain evict force
    """.split()},
}

_RANK = {effect: i for i, effect in enumerate(EFFECTS)}

# The leading run of verbs: "List, create, or delete branches" -> list, create, delete.
_LEADING_VERBS = re.compile(
    r"""^\s*
    (?P<run>[A-Za-z-]+                     # the first word
      (?:\s*(?:,\s*(?:or\s+|and\s+)?       # ", " or ", or " / ", and "
            |\s+(?:or|and|and/or)\s+)      # " or " / " and "
         [A-Za-z-]+)*)                     # each further verb
    """,
    re.VERBOSE,
)


@dataclass(frozen=True)
class PolicyGuess:
    """The effect of a command and the words that decided it."""

    effect: str
    words: tuple[str, ...]  # e.g. ("name 'list'", "help 'List'")
    reason: str


def _summary_verbs(summary: str) -> list[str]:
    match = _LEADING_VERBS.match(summary or "")
    if not match:
        return []
    words = re.split(r"[\s,]+", match.group("run"))
    out = []
    for word in words:
        low = word.lower()
        if low in ("or", "and", "and/or", ""):
            continue
        if low not in SUMMARY_EFFECTS:
            break
        out.append(word)
    return out


def classify(command: Command, *, extra_words: tuple[str, ...] = ()) -> PolicyGuess:
    """The effect of ``command``: the strongest of its name's and its summary's leading verbs."""
    found: list[tuple[str, str]] = []  # (effect, evidence)
    name = command.name.lower()
    for word in (name, *command.aliases, *extra_words):
        effect = NAME_EFFECTS.get(word.lower())
        if effect:
            found.append((effect, f"name '{word}'"))
            break
    if not found and "-" in name:
        # "ls-files", "dselect-upgrade": the strongest part speaks for the whole
        effects = [NAME_EFFECTS[part] for part in name.split("-") if part in NAME_EFFECTS]
        if effects:
            found.append((max(effects, key=_RANK.__getitem__), f"name '{name}'"))
    if re.match(r"\s*(?:write|print|output)s?\b.*\bto (?:the )?standard output\b", command.summary or "", re.I):
        # "Write sorted concatenation of all FILE(s) to standard output" prints; it does not write
        found.append(("read", "help 'to standard output'"))
        return PolicyGuess("read", tuple(e for _, e in found), f"read: {', '.join(e for _, e in found)}")
    for verb in _summary_verbs(command.summary):
        found.append((SUMMARY_EFFECTS[verb.lower()], f"help '{verb}'"))
    if not found:
        return PolicyGuess(
            "write", (), "no read, write or delete word in its name or help; treated as a write to be safe"
        )
    effect = max((e for e, _ in found), key=_RANK.__getitem__)
    deciding = tuple(evidence for e, evidence in found if e == effect)
    others = tuple(evidence for e, evidence in found if e != effect)
    reason = f"{effect}: {', '.join(deciding)}"
    if others:
        reason += f" (outranks {', '.join(others)})"
    return PolicyGuess(effect, deciding, reason)
