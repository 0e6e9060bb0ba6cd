"""English verbs for titles and policy: conjugation and the words that name an action.

Titles read "Listing pull requests" while a command runs and "Listed pull requests" once it is
done, so every verb needs its -ing form and its past tense. The irregular and doubled forms are a
table (guessing them from spelling gets "Runing" and "Finded"); regular verbs follow the spelling
rules below.
"""

from __future__ import annotations

import re

__all__ = ["ing", "past", "is_verb", "KNOWN_VERBS"]

# verb -> (-ing form, past tense), for every verb the spelling rules get wrong.
_IRREGULAR: dict[str, tuple[str, str]] = {
    "get": ("getting", "got"),
    "find": ("finding", "found"),
    "run": ("running", "ran"),
    "rerun": ("rerunning", "reran"),
    "read": ("reading", "read"),
    "write": ("writing", "wrote"),
    "make": ("making", "made"),
    "build": ("building", "built"),
    "send": ("sending", "sent"),
    "set": ("setting", "set"),
    "unset": ("unsetting", "unset"),
    "put": ("putting", "put"),
    "reset": ("resetting", "reset"),
    "cut": ("cutting", "cut"),
    "split": ("splitting", "split"),
    "begin": ("beginning", "began"),
    "give": ("giving", "gave"),
    "take": ("taking", "took"),
    "keep": ("keeping", "kept"),
    "tell": ("telling", "told"),
    "see": ("seeing", "saw"),
    "do": ("doing", "did"),
    "go": ("going", "went"),
    "show": ("showing", "showed"),
    "stop": ("stopping", "stopped"),
    "drop": ("dropping", "dropped"),
    "tag": ("tagging", "tagged"),
    "diff": ("diffing", "diffed"),
    "grep": ("grepping", "grepped"),
    "commit": ("committing", "committed"),
    "submit": ("submitting", "submitted"),
    "ship": ("shipping", "shipped"),
    "plan": ("planning", "planned"),
    "scan": ("scanning", "scanned"),
    "log": ("logging", "logged"),
    "pin": ("pinning", "pinned"),
    "unpin": ("unpinning", "unpinned"),
    "map": ("mapping", "mapped"),
    "zip": ("zipping", "zipped"),
    "open": ("opening", "opened"),
    "edit": ("editing", "edited"),
    "visit": ("visiting", "visited"),
    "listen": ("listening", "listened"),
    "fetch": ("fetching", "fetched"),
    "bind": ("binding", "bound"),
    "hold": ("holding", "held"),
    "lead": ("leading", "led"),
    "leave": ("leaving", "left"),
    "lose": ("losing", "lost"),
    "mean": ("meaning", "meant"),
    "meet": ("meeting", "met"),
    "seek": ("seeking", "sought"),
    "sell": ("selling", "sold"),
    "spend": ("spending", "spent"),
    "stand": ("standing", "stood"),
    "teach": ("teaching", "taught"),
    "think": ("thinking", "thought"),
    "understand": ("understanding", "understood"),
    "undo": ("undoing", "undid"),
    "upset": ("upsetting", "upset"),
    "rebuild": ("rebuilding", "rebuilt"),
    "rewrite": ("rewriting", "rewrote"),
    "overwrite": ("overwriting", "overwrote"),
    "print": ("printing", "printed"),
    "output": ("outputting", "output"),
    "input": ("inputting", "input"),
    "forget": ("forgetting", "forgot"),
    "shut": ("shutting", "shut"),
    "hide": ("hiding", "hid"),
    "freeze": ("freezing", "froze"),
    "choose": ("choosing", "chose"),
    "draw": ("drawing", "drew"),
    "bring": ("bringing", "brought"),
    "buy": ("buying", "bought"),
    "catch": ("catching", "caught"),
    "deal": ("dealing", "dealt"),
}

# Verbs a command summary or name starts with; a word outside this set is not treated as a verb.
KNOWN_VERBS = frozenset(
    set(_IRREGULAR)
    | {
        "list", "view", "display", "search", "describe", "inspect", "count", "check", "verify",
        "query", "filter", "compare", "explain", "return", "browse", "watch", "follow", "trace",
        "create", "add", "remove", "delete", "update", "apply", "patch", "replace", "copy", "move",
        "rename", "install", "uninstall", "upgrade", "start", "restart", "kill", "close", "reopen",
        "lock", "unlock", "merge", "rebase", "push", "pull", "clone", "download", "upload", "record",
        "switch", "restore", "prune", "clean", "archive", "export", "import", "save", "load", "login",
        "logout", "sync", "enable", "disable", "approve", "comment", "review", "fork", "checkout",
        "mark", "attach", "detach", "expose", "scale", "drain", "cordon", "uncordon", "annotate",
        "label", "manage", "modify", "configure", "transfer", "process", "convert", "format",
        "validate", "test", "generate", "render", "extract", "summarize", "track", "join", "reapply",
        "use", "integrate", "analyze", "compile", "benchmark", "remove", "post", "publish", "release", "destroy", "purge", "wipe", "erase",
        "terminate", "revoke", "truncate", "change", "cancel", "retry", "pause", "unpause", "resume",
        "evaluate", "output", "report", "match", "locate", "resolve", "parse", "tail", "sort",
        "cherry-pick", "revert", "bisect", "stash", "initialize", "init", "reinitialize", "register",
        "connect", "disconnect", "mount", "unmount", "encrypt", "decrypt", "sign", "compute",
        "calculate", "measure", "benchmark", "ping", "request", "send", "fetch", "dump", "diagnose",
        "tag", "untag", "assign", "unassign", "block", "unblock", "deploy", "rollback", "roll",
    }
)

_VOWELS = set("aeiou")


def is_verb(word: str) -> bool:
    return word.lower() in KNOWN_VERBS


def _doubles(word: str) -> bool:
    """Short consonant-vowel-consonant words double their last letter: stop -> stopping."""
    return (
        len(word) <= 4
        and len(word) >= 3
        and word[-1] not in _VOWELS | set("wxy")
        and word[-2] in _VOWELS
        and word[-3] not in _VOWELS
        and not word.endswith(("en", "er", "it"))
    )


def ing(verb: str) -> str:
    """The -ing form: list -> listing, get -> getting, create -> creating, tie -> tying."""
    word = verb.lower()
    if word in _IRREGULAR:
        return _IRREGULAR[word][0]
    if "-" in word:
        head, _, tail = word.partition("-")
        return f"{ing(head)}-{tail}"
    if word.endswith("ie"):
        return word[:-2] + "ying"
    if word.endswith("e") and not word.endswith(("ee", "ye", "oe")):
        return word[:-1] + "ing"
    if _doubles(word):
        return word + word[-1] + "ing"
    return word + "ing"


def past(verb: str) -> str:
    """The past tense: list -> listed, get -> got, apply -> applied, stop -> stopped."""
    word = verb.lower()
    if word in _IRREGULAR:
        return _IRREGULAR[word][1]
    if "-" in word:
        head, _, tail = word.partition("-")
        return f"{past(head)}-{tail}"
    if word.endswith("e"):
        return word + "d"
    if re.search(r"[^aeiou]y$", word):
        return word[:-1] + "ied"
    if _doubles(word):
        return word + word[-1] + "ed"
    return word + "ed"
