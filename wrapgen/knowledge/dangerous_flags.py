"""The dangerous-flags catalogue: flags that write a file, run a program or load code.

Such a flag is never exposed on a read verb: a "read" command that can be told to write
``~/.bashrc`` (``git log --output``) or to run a program (``rg --pre``, ``find -exec``) is not a read.
Two layers decide: a catalogue of known spellings (per tool, and for every tool), and the words in
a flag's help that mark one (``execute``, ``write the output to FILE``, ``configuration file``).
``wrapgen check`` runs the same test over every token of a verb's ``cli[]`` (rule W030 in
``wrapgen/check/dangerous_flags.py``). docs/packs-and-check.md lists this catalogue.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from wrapgen.model.tool import Flag

__all__ = ["DangerEntry", "CATALOGUE", "DANGER_WORDS", "ValueGuard", "VALUE_GUARDS", "dangerous_reason",
           "token_danger", "value_guard"]


@dataclass(frozen=True)
class DangerEntry:
    tool: str  # "*" for every tool
    spellings: tuple[str, ...]
    why: str


CATALOGUE: tuple[DangerEntry, ...] = (
    # every tool
    DangerEntry("*", ("--exec", "-exec", "--execdir", "-execdir", "-ok", "-okdir", "--exec-batch"),
                "runs a program"),
    DangerEntry("*", ("--output-file", "--out-file", "--outfile", "--log-file", "--logfile"),
                "writes a file"),
    DangerEntry("*", ("--pre", "--preprocessor"), "runs a program on each input"),
    DangerEntry("*", ("--compress-program", "--use-compress-program", "--to-command", "--rsh-command",
                      "--rsh", "--rsync-path", "--info-script", "--new-volume-script",
                      "--checkpoint-action", "--unzip-command"), "runs a program"),
    DangerEntry("*", ("--kubeconfig",), "loads a kubeconfig, whose exec plugins run programs"),
    DangerEntry("*", ("-delete", "-fprint", "-fprint0", "-fprintf", "-fls"), "deletes or writes files (find)"),
    # git
    DangerEntry("git", ("--output", "-o"), "writes the output to a file"),
    DangerEntry("git", ("--ext-diff",), "runs an external diff program"),
    DangerEntry("git", ("--upload-pack", "--receive-pack", "-u"), "runs a program on the remote side"),
    DangerEntry("git", ("--open-files-in-pager", "-O"), "runs a pager program"),
    DangerEntry("git", ("-c", "--config-env", "--exec-path"), "sets configuration that can run programs"),
    DangerEntry("git", ("--textconv",), "runs textconv filter programs"),
    # ripgrep / fd
    DangerEntry("rg", ("--pre", "--pre-glob"), "runs a preprocessor program"),
    DangerEntry("rg", ("--search-zip", "-z"), "runs decompression programs"),
    DangerEntry("fd", ("-x", "-X", "--exec", "--exec-batch"), "runs a program per result"),
    DangerEntry("fdfind", ("-x", "-X", "--exec", "--exec-batch"), "runs a program per result"),
    # sort / tar
    DangerEntry("sort", ("--compress-program", "-o", "--output"), "runs a program / writes a file"),
    DangerEntry("tar", ("-I", "-F", "--to-command", "--use-compress-program"), "runs a program"),
    # curl
    DangerEntry("curl", ("-o", "--output", "-O", "--remote-name", "--remote-name-all", "-D",
                         "--dump-header", "-c", "--cookie-jar", "--trace", "--trace-ascii",
                         "--libcurl", "--stderr", "--etag-save", "--hsts", "--alt-svc",
                         "--output-dir", "--create-dirs"), "writes a file"),
    DangerEntry("curl", ("-K", "--config"), "loads a config file that can set any option"),
    DangerEntry("curl", ("-T", "--upload-file"), "uploads a local file"),
    DangerEntry("curl", ("-d", "--data", "--data-binary", "--data-raw", "--data-urlencode", "-F",
                         "--form", "--json"), "sends data (and @file reads a local file)"),
    DangerEntry("curl", ("-X", "--request"), "sets the HTTP method (PUT, DELETE)"),
    # docker / kubectl / gh
    DangerEntry("docker", ("--config",), "loads a config whose credential helpers run programs"),
    DangerEntry("docker", ("-H", "--host", "--context"), "points at another daemon"),
    DangerEntry("kubectl", ("--exec-command",), "runs a program"),
    # wget / ssh
    DangerEntry("wget", ("-O", "--output-document", "-o", "--output-file", "-e", "--execute"),
                "writes a file / runs a command"),
    DangerEntry("ssh", ("-o", "-F"), "sets options such as ProxyCommand that run programs"),
)

@dataclass(frozen=True)
class ValueGuard:
    """A flag that is fine to offer, but some of its values make the tool read a local file and
    send it away (``curl -H @/etc/passwd``). ``pattern`` (a JSON Schema pattern, searched) is what
    a safe value matches; the runtime refuses any other value before anything runs."""

    tool: str
    spellings: tuple[str, ...]
    pattern: str
    why: str


VALUE_GUARDS: tuple[ValueGuard, ...] = (
    ValueGuard("curl", ("-H", "--header", "--proxy-header"), "^[^@]",
               "a value starting with @ is refused: curl would send a local file's lines as headers"),
    ValueGuard("curl", ("-d", "--data", "--data-ascii", "--data-binary", "--json"), "^[^@]",
               "a value starting with @ is refused: curl would send a local file"),
    ValueGuard("curl", ("--data-urlencode",), "^[^@]*$",
               "a value with @ is refused: curl would send a local file"),
    ValueGuard("curl", ("-b", "--cookie"), "=",
               "a value without '=' is refused: curl would read it as a local cookie file"),
)


def value_guard(flag: Flag, *, tool: str) -> ValueGuard | None:
    """The guard on ``flag``'s values for ``tool``, or None when every value is harmless."""
    base = tool.rsplit("/", 1)[-1]
    for guard in VALUE_GUARDS:
        if guard.tool in ("*", base) and any(s in guard.spellings for s in flag.spellings):
            return guard
    return None


# Help words that mark a flag as dangerous in any tool.
DANGER_WORDS = re.compile(
    r"""
      \bexecut(?:e|es|ing)\b                          # "execute a command"
    | \brun(?:s)?\s+(?:a\s+|the\s+|an\s+)?(?:command|program|script|shell|hook)
    | \b(?:command|program|script)\s+to\s+(?:run|execute)\b
    | \bshell\s+command
    | \bpreprocessor\b
    | \bwrite(?:s)?\s+(?:the\s+)?(?:output|result|results)?\s*to\s+(?:a\s+)?(?:file|<?file>?|path)\b
    | \boutput\s+to\s+(?:a\s+)?(?:file|<?file>?)\b
    | \b(?:save|store|dump)s?\s+(?:\w+\s+){0,3}to\s+(?:a\s+)?(?:file|FILE)
    | \bload(?:s)?\s+(?:\w+\s+){0,2}(?:config(?:uration)?|plugin|module|code)\b
    | \bread\s+config(?:uration)?\s+from\b
    """,
    re.VERBOSE | re.IGNORECASE,
)

_FILE_VALUE = re.compile(r"^(?:file|path|filename|outfile|out|dest|dir|directory)$", re.IGNORECASE)


def _catalogue_hit(spelling: str, tool: str) -> str | None:
    base = tool.rsplit("/", 1)[-1]
    for entry in CATALOGUE:
        if entry.tool in ("*", base) and spelling in entry.spellings:
            return f"{spelling} {entry.why} (catalogue: {entry.tool})"
    return None


def dangerous_reason(flag: Flag, *, tool: str) -> str | None:
    """Why ``flag`` must stay off a read verb, or None when it is harmless."""
    for spelling in flag.spellings:
        hit = _catalogue_hit(spelling, tool)
        if hit:
            return hit
    if flag.takes_value and flag.name in ("output", "o", "out") and (
        _FILE_VALUE.match(flag.value_name or "") or re.search(r"\bfile\b", flag.description, re.I)
    ) and not re.search(r"\bformat\b", flag.description, re.I):
        return f"{flag.spellings[0]} writes the output to a file"
    if flag.takes_value and (
        flag.name in ("config-file", "configfile", "rcfile", "init-file", "init-script")
        or flag.name in ("config", "c") and re.search(r"config", flag.description, re.I)
    ):
        return f"{flag.spellings[0]} loads a configuration file"
    match = DANGER_WORDS.search(flag.description or "")
    if match:
        return f"{flag.spellings[0]}: help says '{match.group(0).strip()}'"
    return None


def token_danger(token: str, *, tool: str) -> str | None:
    """The catalogue reason for one literal ``cli[]`` token (``--output=x`` counts as ``--output``)."""
    if not token.startswith("-") or token == "--":
        return None
    spelling = token.split("=", 1)[0]
    return _catalogue_hit(spelling, tool)
