"""Option tables: the lines under ``Options:`` (or anywhere) turned into ``Flag``s.

Shared by every style, because the table grammar is nearly universal: an entry
starts with a dash, its spellings and value come first (``-o, --output FILE``,
``--color[=WHEN]``, ``--limit int``, ``-w, --watch=false:``), its description
follows after a gap or on the next, deeper-indented lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from wrapgen.model.tool import Flag
from wrapgen.parse.facts import (
    _COMPANION,
    guess_type,
    read_description,
    split_choices,
    strip_quotes,
)

__all__ = [
    "OptionEntry",
    "parse_options",
    "option_entries",
    "entry_to_flag",
    "merge_flag",
    "merge_flags",
    "tidy_flags",
]

# The most entries read from one help text: far above any real tool (curl has ~250).
MAX_ENTRIES = 3_000

_ENTRY_START = re.compile(
    r"""
    ^(?: --?\[no-\]\w                  # git: --[no-]status
       | --?[A-Za-z0-9?#@:]            # -a, --all, -1, -#, -?, curl's -:
       | -\.,                          # rg's "-., --hidden"
       | -<[\w-]+>,\s+-                # kill's "-<signal>, -s, --signal <signal>"
    )
    """,
    re.VERBOSE,
)

_SPELLING = re.compile(
    r"""
    (?P<spell>
        --?\[no-\][A-Za-z0-9][\w.-]*          # git: --[no-]status
      | -[:#?@.]                                # curl's "-:, --next", "-#"; rg's "-."
      | --?[A-Za-z0-9?#@](?:[\w.?#@+-]*[\w?#@])? # -a, --all, -all, --dry-run (no trailing dash)
    )
    (?P<attached>                               # a value glued to the spelling
        (?: \[=?<[^>]*>\]                        #   -S[<keyid>], --gpg-sign[=<key-id>]
          | \[=?[^\]\[\s]*(?:\[(?:[^\]\[\s]|\[[^\]\[\s]*\])*\][^\]\[\s]*)*\]  #   --color[=WHEN], --inspect[=[host:]port],
                                                #   git: --stat[=<width>[,<name-width>[,<count>]]]
        )+                                      #   perl: -d[t][:MOD]
      | =<[^>]*>\S*                             #   --author=<author>
      | =\S+                                    #   --block-size=SIZE, --all-namespaces=false:
      | =(?=\s|$)                               #   systemctl: "--preset-mode=": a value, unnamed
      | <[^>]*>                                 #   -u<mode>
    )?
    (?P<dots>\.\.\.)?                           # clap: -v, --verbose...
    (?=[\s,/|]|$)                               # the spelling ends here
    """,
    re.VERBOSE,
)

_VALUE = re.compile(
    r"""
    (?: <[^<>]*>                   # <NUM>, <file name>, <provider1[:provider2]>
      | \[[^\[\]]*(?:\[[^\[\]]*\][^\[\]]*)*\]  # [<SPEC>], [HOST/], [json|yaml] (one nesting level)
      | \{[^{}]*\}                 # argparse choices {a,b,c}
      | \([^()]*\)                 # (a|b)
      | [^\s,]+                    # FILE, string, KEY=VALUE
    )+
    (?:\.\.\.)?                    # repeated value
    ,?
    """,
    re.VERBOSE,
)
# FILE, KEY=VALUE, MAJOR.MINOR, httpie's USER[:PASS]
_CAPS_VALUE = re.compile(r"^[A-Z][A-Z0-9_.:=/+-]*(?:\[[A-Z0-9_.:=/+-]+\])?(?:\.\.\.)?,?$")
_REPEAT_TAIL = re.compile(
    r"""
    ^\[[^\]\s]+\ \.\.\.\]$   # argparse: the "[X ...]" of "X [X ...]"
  | ^\.\.\.$                # a lone "..." after the value
    """,
    re.VERBOSE,
)

# cobra prints a flag's Go type as its value name; these take several values.
_COBRA_LIST_TYPES = re.compile(
    r"^(?:strings|stringArray|stringSlice|ints|int32Slice|int64Slice|uints|"
    r"floats|float64Slice|durationSlice|boolSlice|list|filter|ipSlice|"
    r"stringToString|stringToInt\w*)$"
)


@dataclass
class OptionEntry:
    """One option-table entry before it becomes a ``Flag``: spec and description text."""

    indent: int
    spec: str
    desc: list[str] = field(default_factory=list)
    desc_col: int = 10_000  # the column descriptions start at; deeper dash lines belong to them
    gap: bool = False  # the first line had a gap of 2+ spaces after the spec


_LONE_SHORT = re.compile(r"-[A-Za-z0-9?#@](?:\[[^\]\s]*\])?(?:\s|$)")  # "-d[file]" too
# The gap between an entry's spec and its description; python3's "-c cmd : program" has a colon in it.
_FIRST_GAP = re.compile(r"\s{2,}(?::\s+)?|\s+:\s+(?=\S)")
# "--xpath expr: evaluate ...": one spelling and at most one value name, the colon right
# after them, then the description (only where no wider gap splits the line)
_TIGHT_COLON = re.compile(r"^(-{1,2}[A-Za-z0-9][\w-]*(?:[ =]<?[A-Za-z][\w.-]*>?)?):\s+(?=\S)")
_LONG_OR_SHORT = re.compile(r"--?[A-Za-z]")


def option_entries(lines, *, max_first_indent: int = 16) -> list[OptionEntry]:
    """Group lines into entries: a dash line starts one, deeper lines continue it."""
    entries: list[OptionEntry] = []
    cur: OptionEntry | None = None
    base: int | None = None
    for line in lines:
        text = line.strip()
        if not text:
            if cur is not None:
                cur.desc.append("")
            continue
        ind = len(line) - len(line.lstrip(" "))  # (indent_of, inline: this loop reads every line)
        # (every entry start is a dash first: the pattern is tried on those lines only)
        starts = (
            text[0] == "-"
            and bool(_ENTRY_START.match(text))
            and not text.startswith("-- ")
            and text != "--"
        )
        if (
            starts
            and cur is not None
            and not cur.desc
            and cur.spec.endswith(",")
            and ind == cur.indent
        ):
            # grep: "--color[=WHEN]," then "--colour[=WHEN]  use markers...": one entry, two lines
            spec, desc = _split_first_line(text)
            cur.spec += " " + spec
            if desc:
                cur.desc, cur.gap = [desc], True
                cur.desc_col = ind + text.index(desc) if desc in text else ind + len(spec) + 2
            continue
        if starts:
            limit = max_first_indent if base is None else base + 6
            if ind <= limit and (cur is None or ind < cur.desc_col):
                if len(entries) >= MAX_ENTRIES:
                    break
                spec, desc = _split_first_line(text)
                cur = OptionEntry(ind, spec, [desc] if desc else [], gap=bool(desc))
                if desc:
                    cur.desc_col = ind + text.index(desc) if desc in text else ind + len(spec) + 2
                entries.append(cur)
                base = ind if base is None else min(base, ind)
                continue
        if cur is not None and ind > cur.indent:
            if cur.desc_col == 10_000:
                cur.desc_col = ind
            cur.desc.append(text)
            continue
        cur = None  # prose at the entry's own depth ends the entry
    return entries


def _split_first_line(text: str) -> tuple[str, str]:
    """(spec, description) of an entry's first line: the gap of two spaces separates them.

    A gap right after "-V," (wget) or a lone "-c" (stat's "-c  --format=FORMAT") still
    belongs to the spec when another spelling follows it.
    """
    # python3: "-c cmd : program passed in", "-b     : issue warnings": the colon is part of the gap
    for match in _FIRST_GAP.finditer(text):
        spec, rest = text[: match.start()], text[match.end() :]
        if rest.startswith("...."):
            continue  # less: "-e  -E  ....  --quit-at-eof"
        if rest.startswith("-") and (
            spec.endswith((",", "|", "...."))
            or len(spec.split()) <= 2
            and _LONE_SHORT.match(spec)
            and _LONG_OR_SHORT.match(rest)
        ):
            continue  # patch: "-p NUM  --strip=NUM  Strip ..."
        return spec, rest.strip()
    tight = _TIGHT_COLON.match(text)
    if tight:
        return tight.group(1), text[tight.end() :].strip()
    return text, ""


def _scan_spec(spec: str, gap_after: bool):
    """Spellings and values of a spec; what is left over is description (curl's single space)."""
    spellings: list[re.Match] = []
    values: list[str] = []
    owner: list[int] = []  # for each value, how many spellings preceded it
    pos, n = 0, len(spec)
    current_has_value = False
    while pos < n:
        while pos < n and (
            spec[pos] in " ," or (spec[pos] in "|/" and spec.startswith("-", pos + 1))
        ):
            pos += 1  # separators: "-a, --all", dpkg's "-i|--install", rich-click's "--x/--no-x"
        if pos >= n:
            break
        if (
            spec[pos] in "./|"
        ):  # (what the three cases below start with; spellings and values seldom do)
            if spec.startswith("....", pos):
                pos += 4  # less: "-e  -E  ....  --quit-at-eof"
                continue
            if spec.startswith("| ", pos) and values and not spec.startswith("-", pos + 2):
                # httpie: "--auth USER[:PASS] | TOKEN, -a ...": the value has two forms
                match = _VALUE.match(spec, pos + 2)
                if match:
                    values[-1] = f"{values[-1].rstrip(',')} | {match.group(0)}"
                    pos = match.end()
                    continue
            if spec.startswith("/ ", pos) or spec.startswith(
                "| ", pos
            ):  # click: --debug / --no-debug
                pos += 2
                continue
        match = _SPELLING.match(spec, pos)
        if match and (pos == 0 or spec[pos - 1] in " ,/|"):
            spellings.append(match)
            current_has_value = bool(match["attached"])
            pos = match.end()
            continue
        if not spellings:
            break
        match = _VALUE.match(spec, pos)
        if not match:
            break
        token = match.group(0)
        rest = spec[match.end() :].strip()
        explicit = (
            token[0] in "<[{("
            or bool(_CAPS_VALUE.match(token))
            # a value name in quotes: a man page's '--xpath "XPath_expression"', "--path 'paths'"
            or (len(token) > 2 and token[0] in "\"'" and token.rstrip(",:")[-1] == token[0])
        )
        if current_has_value:
            if values and (
                _REPEAT_TAIL.match(token.rstrip(","))
                or (token.startswith("<") and values[-1].endswith(">"))
            ):
                values[-1] += " " + token.rstrip(
                    ","
                )  # "X [X ...]"; zipfile's "-e <zipfile> <output_dir>"
                pos = match.end()
                continue
            break
        # A bare word (cobra's "string", jq's "a v") counts only when a gap follows the spec:
        # otherwise it is the first word of a description set off by one space (curl).
        # sed: "-e script, --expression=script": a word and a comma before the next spelling.
        listed = token.endswith(",") and rest.startswith("-")
        # "-f progfile   --file=progfile": the next spelling names the same value
        echoed = bool(re.match(r"-{1,2}[A-Za-z0-9][\w-]*\[?=" + re.escape(token) + r"(?!\w)", rest))
        if (
            explicit
            or listed
            or echoed
            or (gap_after and not rest.startswith("-"))
            or (not rest and not gap_after and token.islower() and len(token) < 20)
        ):
            if (
                values
                and owner
                and owner[-1] == len(spellings)
                and not explicit
                and not values[-1].endswith(",")
            ):
                values[-1] += " " + token  # jq: "--arg a v" takes two values
            else:
                values.append(token)
                owner.append(len(spellings))
            current_has_value = not (gap_after and not explicit)
            pos = match.end()
            continue
        break
    return spellings, values, spec[pos:].strip()


_KILL_SIGNAL = re.compile(r"^-<[^>]*>,\s*")
_GLUED_NUMBER = re.compile(r"-[A-Za-z]#")  # zstd's "-T#"
_INTEGER = re.compile(r"-?\d+")
_DECIMAL = re.compile(r"-?\d+\.\d+")
_OPTIONAL_BRACKETS = re.compile(r"^\[=?|\]$")  # "[=WHEN]" -> "WHEN"
_BRACED_CHOICES = re.compile(r"=\{([^{}]*)\}")  # argparse's "={no,stdout}"
_ANGLED = re.compile(r"<([^<>]*)>")


def entry_to_flag(entry: OptionEntry) -> Flag | None:
    """The ``Flag`` an entry describes, or None when its spec holds no spelling."""
    return _entry_flag(entry.spec, entry.gap, tuple(entry.desc))


# A value in a column of its own after the flag: the whole line is the placeholder (with "..."),
# then nothing, another form ("| -a|--pending"), or the help after two spaces
_VALUE_COLUMN = re.compile(
    r"^\s*(?P<value>\[?<[^<>]+>(?:\.\.\.)?\]?(?:\.\.\.)?)(?:\s+\|\s.*|\s{2,}(?P<help>\S.*))?$"
)
# A separator some helps put before each description ("= Choose ...", ": Show ...", "- Print ...")
_SEPARATOR = re.compile(r"^\s*(?:[=:]|-(?=\s))\s+(?=\S)")


# "-Tv", "-ofile", "-Klayout": one letter, then the name of its value in lower case
_GLUED_NAME = re.compile(r"^-[A-Za-z](?P<value>[a-z]{1,12})$")


def _glued_value(spell: str, help_text: str) -> str:
    """The value name glued to a one-letter option, where its help names it: quoted (``'v'``,
    ``<file>``), or, three letters or more, as a word or a word's start ("-Tlang: sets the output
    language"). "" otherwise: ``-name``, ``-print`` are options of their own."""
    match = _GLUED_NAME.match(spell)
    if not match:
        return ""
    value = match["value"]
    quoted = re.search(rf"['\"`<]{value}['\"`>]", help_text)
    worded = len(value) >= 3 and re.search(rf"\b{value}", help_text, re.IGNORECASE)
    return value if quoted or worded else ""


def _entry_flag(spec: str, gap_after: bool, desc: tuple[str, ...]) -> Flag | None:
    kubectl = spec.endswith(":") and "=" in spec
    spec = spec[:-1] if kubectl else spec
    if spec.startswith("-<"):
        spec = _KILL_SIGNAL.sub("", spec)  # kill: "-<signal>, -s, --signal <signal>"
    spellings, values, leftover = _scan_spec(spec, gap_after)
    if not spellings:
        return None
    desc_lines = ([leftover] if leftover else []) + list(desc)
    column = _VALUE_COLUMN.match(desc_lines[0]) if desc_lines and not values else None
    if column:
        # "-r|--remove        <package>... | -a|--pending": the value in a column of its own,
        # then another way to call it or the help
        values = [column["value"]]
        desc_lines[0] = column["help"] or ""
    if desc_lines and _SEPARATOR.match(desc_lines[0]):
        # "-C <cfg>  = Choose configuration": a column of separators between flag and help
        desc_lines[0] = _SEPARATOR.sub("", desc_lines[0])
    full = " ".join(filter(None, desc_lines))
    if "" in desc_lines:  # (a blank line may end the first paragraph)
        first_para: list[str] = []
        for line in desc_lines:
            if not line:
                if first_para:
                    break
                continue
            first_para.append(line)
        description = " ".join(first_para)[:400]
    else:
        description = full[:400]

    longs: list[str] = []
    shorts: list[str] = []
    others: list[str] = []
    takes_value = optional = repeatable = False
    value_name: str | None = None
    choices: tuple[str, ...] = ()
    default: str | None = None
    type_hint: str | None = None
    for match in spellings:
        spell, attached, dots = match.group("spell", "attached", "dots")
        attached = attached or ""
        if dots:
            repeatable = True
        if spell.endswith("#") and _GLUED_NUMBER.fullmatch(spell):
            # zstd: "-T#  Spawn # compression threads": the option glued to its number
            spell, attached, type_hint = spell[:2], attached or "<#>", "integer"
        glued = (
            _glued_value(spell, full) if len(spellings) == 1 and not (attached or values) else ""
        )
        if glued:
            # "-Tv  Set output format to 'v'", "-ofile  Write output to 'file'": a letter glued to
            # the name of its value, which the help names
            spell, attached = spell[:2], f"<{glued}>"
        if spell.startswith(("--[no-]", "-[no-]")):
            stem = spell.split("]", 1)[1]
            longs.extend(["--" + stem, "--no-" + stem])
        elif spell.startswith("--"):
            longs.append(spell)
        elif len(spell) == 2:
            shorts.append(spell)
        else:
            others.append(spell)
        if attached and kubectl:
            raw = strip_quotes(attached[1:])
            if raw in ("true", "false"):
                default = raw if raw == "true" else None
            else:
                takes_value = True
                if raw == "[]":
                    repeatable = True
                elif raw:
                    default = raw
                    if _INTEGER.fullmatch(raw):
                        type_hint = "integer"
                    elif _DECIMAL.fullmatch(raw):
                        type_hint = "number"
        elif attached:
            takes_value = True
            if attached.startswith("["):
                optional = True
                value_name = (
                    value_name or _OPTIONAL_BRACKETS.sub("", attached).replace("][", "") or None
                )
            else:
                value_name = value_name or attached.lstrip("=").rstrip(",") or None
                braces = _BRACED_CHOICES.fullmatch(attached)
                if braces:
                    choices = split_choices(braces[1])  # argparse: --show-capture={no,stdout}
    for token in values:
        token = token.rstrip(",")
        takes_value = True
        if token.endswith("...") or " [" in token:
            repeatable = True
            token = token.split(" [")[0].removesuffix("...")
        if token.startswith("{") and token.endswith("}"):
            choices = split_choices(token[1:-1])
        elif token.startswith("[") and token.endswith("]") and "|" in token and "<" not in token:
            choices = split_choices(token[1:-1])  # click: [json|yaml]
        elif token.startswith("(") and token.endswith(")"):
            choices = split_choices(token[1:-1])
        elif token.startswith("[") and token.endswith("]"):
            optional = True
        if _COBRA_LIST_TYPES.match(token):
            repeatable = True
        value_name = value_name or token
    if value_name:
        value_name = value_name.strip()
        if value_name.startswith("[") and value_name.endswith("]") and "|" not in value_name:
            value_name = value_name[1:-1]
        if value_name.startswith("<") and value_name.endswith(">"):
            value_name = _ANGLED.sub(r"\1", value_name)  # "<zipfile> <output_dir>" too
        if (
            len(value_name) > 2
            and value_name[0] in "\"'"
            and value_name.rstrip(":")[-1] == value_name[0]
        ):
            value_name = value_name.rstrip(":")[1:-1]  # '"XPath_expression"', "'paths':"
        value_name = value_name.lstrip("=") or None
    if optional and (value_name or "").lower() in ("true", "false"):
        # an older pflag listing shows a switch with its default as an optional value
        # ("--prefix[=false]", "-h, --help[=false]"): a switch, not a flag that takes a word
        takes_value, optional, value_name = False, False, None

    facts = read_description(full, desc_lines, takes_value=takes_value)
    takes_value = facts.takes_value
    type_hint = facts.type_hint or type_hint
    repeatable = repeatable or facts.repeatable
    choices = choices or facts.choices
    if default is None and takes_value:
        default = facts.default
    others.extend(facts.aliases)
    required, deprecated, hidden = facts.required, facts.deprecated, facts.hidden

    if takes_value:
        kind = type_hint or guess_type(value_name, choices)
    else:
        kind = "boolean"
        choices = ()
    # git: "--no-decorate, --decorate[=short|full|auto|no]": the positive spelling leads.
    if len(longs) > 1:
        present = set(longs)  # (a list being sorted looks empty to its own key function)
        longs.sort(
            key=lambda spelling: spelling.startswith("--no-") and "--" + spelling[5:] in present
        )
    # .NET: "--ucr, --use-current-runtime": a clipped first spelling is the alias.
    if len(longs) > 1 and len(longs[0]) <= 5 and len(longs[1]) > len(longs[0]) + 3:
        longs.insert(0, longs.pop(1))
    long = longs[0] if longs else None
    short = shorts[0] if shorts else None
    if len(longs) > 1 or len(shorts) > 1 or others:
        own = {long, short}
        aliases = tuple(a for a in dict.fromkeys(longs[1:] + shorts[1:] + others) if a not in own)
    else:
        aliases = ()  # (one spelling of each kind, the common case)
    return Flag(
        long=long,
        short=short,
        aliases=aliases,
        takes_value=takes_value,
        value_optional=optional and takes_value,
        value_name=value_name if takes_value else None,
        type=kind,
        choices=choices,
        default=default,
        repeatable=repeatable,
        required=required,
        deprecated=deprecated,
        hidden=hidden,
        description=description,
    )


# xz's "-0 ... -9", gzip's "-1 .. -9": one switch per digit, written as a range.
_DIGIT_RANGE = re.compile(r"^-(?P<low>\d)\s*(?:\.{2,3}|\u2026|-|to)\s*-(?P<high>\d)$")
# gzip(1)'s "-# --fast --best" (with "the specified digit #"): -# is each of -1 .. -9.
_DIGIT_HASH = re.compile(r"\bdigit\b", re.IGNORECASE)
# grep's "-NUM  same as --context=NUM", pr's "-COLUMN, --columns=COLUMN": a number written as the
# option itself. No spelling names it, so it is left out (the long form it abbreviates stays); so
# is a number written out (ps(1)'s "-123", curl(1)'s nested "-500 specifies the last 500 bytes").
_PLACEHOLDER = re.compile(r"^-(?:[A-Z]{3,}|\d{2,})$")
# "-vv", "-qq", "-uuu": a switch given again, not an option of its own.
_REPEATED = re.compile(r"^-([A-Za-z])\1+$")


def _digit_flags(entry: OptionEntry) -> list[Flag] | None:
    """The switches a digit range stands for (``-0 ... -9``), or None when the entry is no range."""
    if "-#" not in entry.spec and not entry.spec.lstrip()[1:2].isdigit():
        return (
            None  # (a range starts "-<digit>", gzip's "-#" is spelled so: most entries are neither)
        )
    match = _DIGIT_RANGE.match(entry.spec.strip())
    low, high = (int(match["low"]), int(match["high"])) if match else (1, 9)
    if match is None:
        spellings = entry.spec.replace(",", " ").split()
        if "-#" not in spellings or not _DIGIT_HASH.search(" ".join(entry.desc[:3])):
            return None
        entry = OptionEntry(
            entry.indent,
            " ".join(s for s in spellings if s != "-#"),
            entry.desc,
            entry.desc_col,
            entry.gap,
        )
    description = " ".join(line for line in entry.desc[:2] if line)[:400]
    out = [Flag(short=f"-{digit}", description=description) for digit in range(low, high + 1)]
    if match is None and entry.spec:
        rest = entry_to_flag(entry)  # gzip's --fast and --best, named beside -#
        out += [Flag(long=s, description=description) for s in (rest.spellings if rest else ())]
    return out


def _counts(spelling: str, flag: Flag) -> bool:
    """cut's "-M  from first to M'th (included) byte": a number in a range syntax, named by its letter."""
    return bool(re.fullmatch(r"-[A-Z]", spelling)) and bool(
        re.search(r"\b" + spelling[1] + r"['’]?th\b", flag.description)
    )


def tidy_flags(flags, *, beside=()) -> list[Flag]:
    """Placeholder spellings (``-NUM``) dropped; ``-vv`` made the repeatable ``-v`` it is.

    Not where the help spells other options with one dash and several letters: there (openssl's
    ``-www``, ``-CRL``, ``-vv``) every spelling is an option name of its own. Called on a whole
    help's flags, by the styles whose tools bundle single-letter switches (gnu, man); a spelling
    the ``beside`` flags have already is not made again."""
    flags = list(flags)
    single_dash_long = re.compile(r"^-[A-Za-z][\w-]+$")
    if any(
        single_dash_long.match(s) and not (_PLACEHOLDER.match(s) or _REPEATED.match(s))
        for f in (*flags, *beside)
        for s in f.spellings
    ):
        return flags  # ``beside``: the help's other flags (its global ones), which say so too
    shorts = {f.short: i for i, f in enumerate(flags) if f.short}
    out: list[Flag | None] = list(flags)
    for i, flag in enumerate(flags):
        odd = [
            s
            for s in flag.spellings
            if _PLACEHOLDER.match(s) or _REPEATED.match(s) or _counts(s, flag)
        ]
        if not odd:
            continue
        kept = [s for s in flag.spellings if s not in odd]
        repeated = next((s[:2] for s in odd if _REPEATED.match(s)), None)
        taken = {s for f in beside for s in f.spellings}
        if repeated and repeated in taken:
            repeated = None  # "-vv" beside a global -v: leave it to that flag
        if repeated and repeated in shorts and shorts[repeated] != i:
            target = shorts[repeated]
            out[target] = replace(out[target], repeatable=True)
        elif repeated and not kept:
            kept = [repeated]  # "-qq" with no "-q" entry: -q it is, given twice
            out[i] = replace(flag, short=repeated, aliases=(), repeatable=True)
            continue
        if not kept:
            out[i] = None
            continue
        out[i] = replace(
            flag,
            long=next((s for s in kept if s.startswith("--")), None),
            short=next((s for s in kept if len(s) == 2), None),
            aliases=tuple(s for s in kept if not s.startswith("--") and len(s) != 2),
        )
    return [f for f in out if f is not None]


def parse_options(
    lines, *, max_first_indent: int = 16, companions: list[Flag] | None = None
) -> list[Flag]:
    """Every flag described in these lines, in order, first spelling wins on duplicates.

    Switches that exist only as a mention in another flag's description ("can be disabled
    with --no-hidden") go to ``companions`` when given: they count only if no entry lists them.
    """
    flags: list[Flag] = []
    for entry in option_entries(lines, max_first_indent=max_first_indent):
        digits = _digit_flags(entry)
        if digits is not None:
            flags.extend(digits)
            continue
        flag = entry_to_flag(entry)
        if flag is None:
            continue
        flags.append(flag)
        if companions is not None:
            text = " ".join(line for line in entry.desc if line)
            for match in _COMPANION.finditer(text) if "--" in text else ():
                other = match["spell"] or match["use"] or match["use_to"] or match["will"]
                if other and other not in flag.spellings:
                    companions.append(
                        Flag(long=other, description=f"Turns {flag.long or flag.name} off again.")
                    )
                elif match["mention"] and match["mention"] not in flag.spellings:
                    companions.append(
                        Flag(
                            long=match["mention"],
                            description=f"Named in the help of {flag.long or flag.name}.",
                        )
                    )
                elif match["alias"] and match["alias"] not in flag.spellings:
                    target = text[match.end() :].split()[:1]
                    companions.append(
                        Flag(
                            long=match["alias"],
                            description=f"An alias for {' '.join(target).rstrip('.')}.",
                        )
                    )
    return merge_flags(flags)


def merge_flags(flags, *, seen: set[str] | None = None) -> list[Flag]:
    """Drop flags whose spellings were already listed (help often repeats ``-h, --help``)."""
    seen = set() if seen is None else seen
    out: list[Flag] = []
    for flag in flags:
        merged = merge_flag(flag, seen)
        if merged is not None:
            out.append(merged)
    return out


def merge_flag(flag: Flag, seen: set[str]) -> Flag | None:
    """``merge_flags([flag], seen=seen)``'s one flag (None for none)."""
    listed = flag.spellings
    if seen.isdisjoint(listed):  # (the common case: a flag not listed before)
        seen.update(listed)
        return flag
    rest = [s for s in listed if s not in seen]
    if not rest:
        return None
    # ls: "-p, --indicator-style=slash": -p is its own switch meaning one preset value.
    flag = Flag(
        long=next((s for s in rest if s.startswith("--")), None),
        short=next((s for s in rest if len(s) == 2), None),
        aliases=tuple(s for s in rest if not s.startswith("--") and len(s) != 2),
        description=flag.description,
    )
    seen |= set(flag.spellings)
    return flag
