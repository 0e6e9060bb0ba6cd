"""What a tool's exit statuses mean, as its help or man page says: text -> ``((code, meaning), ...)``.

Pure, and never raises. Reads rendered text (``man -P cat``, ``roff_to_text``, ``--help``):

- a section about them (man's ``EXIT STATUS``, ``EXIT CODES``, ``RETURN VALUE``, ``DIAGNOSTICS``;
  help's ``Exit status:``), as a tagged list (xz(1), tar(1): ``0`` then "All is good.";
  ls's `` 0  if OK,``) or as sentences (rg(1): "If no match could be found, then the exit status
  is 1.");
- else sentences anywhere that name the exit status (diff's and grep's help: "Exit status is 0 if
  inputs are the same, 1 if different, 2 if trouble.").

A meaning is the tool's own words, shortened: one clause, without parentheses, at most 80
characters. "1 otherwise" after "0 if X" means "not X". The first statement about a code wins.
Which codes are answers rather than errors is not decided here (``wrapgen.propose.exitcodes``).
"""

from __future__ import annotations

import re

__all__ = ["exit_statuses"]

MAX_MEANING = 80

# A heading of a section about exit statuses: man's at column 0 in capitals, help's ending in ':'
# or underlined (restic's "EXIT STATUS\n===========").
_HEADING = re.compile(
    r"""
    ^(?:
        (?:EXIT[ ](?:STATUS|STATUSES|CODES?|VALUES?)|RETURN[ ](?:VALUES?|CODES?|STATUS)|DIAGNOSTICS)\s*:?
      | (?:Exit|Return)[ ](?:status(?:es)?|codes?|values?)\s*:
    )\s*$
    """,
    re.VERBOSE | re.IGNORECASE,
)
# A line that opens the next section: a man heading (capitals at column 0) or a help heading ("Usage:").
_NEXT = re.compile(r"^(?:[A-Z][A-Z0-9 ,/&()-]{2,}|[A-Za-z][\w ()-]{0,40}:)\s*$")
_CODE = r"(?P<code>25[0-5]|2[0-4]\d|1\d\d|[1-9]\d|\d)"
# A tagged item: "0" alone on its line (the text follows, indented deeper), or "0  text" / " 0  if OK,".
_TAG_ALONE = re.compile(rf"^(?P<indent>\s*){_CODE}\s*$")
_TAG_TEXT = re.compile(rf"^\s*{_CODE}(?:\s*[:=-]\s+|\s{{2,}}|\s+(?=(?:if|when)\b))(?P<text>\S.*)$")
# The end of a condition: a comma (before the next "N if" or "N otherwise"), or the end of a clause.
_END = r"(?=[,;]|\.(?:\s|$)|$)"
# "exit status is 0 if A, 1 if B, and 2 if C" / "exits with status 0 if A": where a list begins.
_OPENER = re.compile(
    r"""
    \b(?:exit[ ](?:status|code|value)(?:[ ]of[ ][\w ]{1,30}?)?[ ](?:is|will[ ]be|=)
        | exits?[ ]with(?:[ ](?:a[ ])?(?:status|code)(?:[ ]of)?)?
        | returns?)
    \s+(?:always\s+)?(?=\d)
    """,
    re.VERBOSE | re.IGNORECASE,
)
_ITEM = re.compile(
    rf"(?:,?\s*(?:and\s+|or\s+)?(?:with\s+)?){_CODE}\s+(?:(?P<when>if|when)\s+(?P<cond>[^,;]+?){_END}|(?P<otherwise>otherwise)\b)",
    re.IGNORECASE,
)
# "If A, then the exit status is 1" / "When A, the exit code is always 2"
_IF_THEN = re.compile(
    rf"""
    \b(?:if|when)\s+(?P<cond>[^.;,]+?),\s*(?:then\s+)?(?:the\s+)?
    (?:exit\s+(?:status|code|value)|return\s+(?:value|code))(?:\s+of\s+[\w ]{{1,30}}?)?\s+
    (?:is|will\s+be)\s+(?:always\s+)?{_CODE}\b
    """,
    re.VERBOSE | re.IGNORECASE,
)
# "1 exit status occurs only when A" (rg(1)'s summary list)
_OCCURS = re.compile(
    rf"\b{_CODE}\s+exit\s+(?:status|code)\s+(?:occurs|means|is\s+returned)\s+(?:only\s+)?(?:when|if)\s+(?P<cond>.+?){_END}",
    re.IGNORECASE,
)
# "Return code 1 means some files would be reformatted" (a flag's own help, black --check)
_MEANS = re.compile(
    rf"""\b(?:exit|return)\s+(?:status|code|value)\s+["']?{_CODE}["']?\s+
    (?:means|indicates|signals|signifies)\s+(?:that\s+)?(?P<cond>[^.;]+?){_END}""",
    re.VERBOSE | re.IGNORECASE,
)
# 'exit with status code "1" upon detecting diagnostics', "exit 0 if there are no diffs" (ruff)
_EXITS_WITH = re.compile(
    rf"""\bexits?\s+(?:with\s+)?(?:(?:a|the)\s+)?(?:(?:exit\s+|status\s+)?(?:status|code)\s+(?:of\s+)?)?
    ["']?{_CODE}["']?\s+(?:if|when|whenever|upon|on)\s+(?P<cond>[^.;,]+?){_END}""",
    re.VERBOSE | re.IGNORECASE,
)
# Inside a section only: any "N if A" ("... or with 255 if an error occurred"), not "greater than 0 if".
_BARE = re.compile(
    rf"(?<!than )(?<!least )(?<!most )(?<!over )(?<!above )(?<!below )\b{_CODE}\s+(?:if|when)\s+(?P<cond>[^.;,]+?){_END}",
    re.IGNORECASE,
)


class _AnyWord:
    """``re.compile("|".join(words), re.IGNORECASE)`` for ``search``'s yes or no, cheaper: an ASCII text
    folds case as ASCII does, so its lower-cased copy holds one of the words exactly when the pattern
    matches, and substring tests on it cost a fifteenth of the case-blind regex's scan. Other text
    (where re's Unicode folding, "İ" or "ſ", may differ from ``str.lower``) is searched."""

    def __init__(self, *words: str):
        self.words = words
        self.pattern = re.compile("|".join(words), re.IGNORECASE)

    def search(self, text: str) -> bool:
        if text.isascii():
            low = text.lower()
            return any(word in low for word in self.words)
        return self.pattern.search(text) is not None


_EXIT_WORD = _AnyWord("exit", "return")
# Every _HEADING match holds one of these (the same case folding): a page without any has no section
# and no sentence to read, and is not split into lines at all (most subcommand pages).
_ANY_WORD = _AnyWord("exit", "return", "diagnostics")


def _meaning(text: str) -> str:
    """One clause of the tool's words: no parentheses, no trailing punctuation, at most 80 characters."""
    text = re.sub(r"\s*\([^()]*\)", "", text or "")
    text = " ".join(text.split())
    text = re.split(r"(?<=[a-z0-9)])[.;:](?:\s|$)", text)[0]
    text = re.sub(r"^(?:if|when)\s+", "", text, flags=re.IGNORECASE).strip(" ,.;:")
    # "1 if there were differences and 0 means no differences": the next code's clause is not this one's
    text = re.split(r"\s+(?:and|or)\s+\d{1,3}\s+(?:means|if|when|otherwise)\b", text)[0]
    if len(text) > MAX_MEANING:
        text = text[: MAX_MEANING - 1].rsplit(" ", 1)[0].rstrip(" ,") + "…"
    return text


def _sections(lines: list[str]) -> list[list[str]]:
    """The bodies of the sections about exit statuses, each up to the next heading."""
    out: list[list[str]] = []
    index = 0
    while index < len(lines):
        if not _HEADING.match(lines[index]):
            index += 1
            continue
        help_style = lines[index].rstrip().endswith(":")
        body: list[str] = []
        index += 1
        while index < len(lines):
            line = lines[index]
            if set(line.strip()) <= {"=", "-"} and line.strip() and not body:
                index += 1  # an underline
                continue
            if line[:1].strip() and _NEXT.match(line) and not _TAG_TEXT.match(line):
                break
            if help_style and not line.strip() and any(b.strip() for b in body):
                break  # ls's "Exit status:" block ends at its blank line
            body.append(line)
            index += 1
        out.append(body)
    return out


def _tagged(body: list[str]) -> dict[int, str]:
    """Codes as a tagged list: a code alone on its line with its text below it, or code and text on one line."""
    found: dict[int, str] = {}
    index = 0
    while index < len(body):
        line = body[index]
        alone = _TAG_ALONE.match(line)
        if alone:
            depth = len(alone["indent"].expandtabs())
            text: list[str] = []
            index += 1
            while index < len(body) and not body[index].strip():
                index += 1
            while (
                index < len(body)
                and body[index].strip()
                and len(body[index]) - len(body[index].lstrip()) > depth
            ):
                text.append(body[index])
                index += 1
            if text:
                found.setdefault(int(alone["code"]), _meaning(" ".join(text)))
            continue
        inline = _TAG_TEXT.match(line)
        if inline:
            found.setdefault(int(inline["code"]), _meaning(inline["text"]))
        index += 1
    return {code: meaning for code, meaning in found.items() if meaning}


_PARENTHESES = re.compile(r"\([^()]*\)")


def _without_asides(text: str) -> str:
    """``re.sub(r"\\s*\\([^()]*\\)", "", text)``: each innermost parenthesis with the whitespace
    before it removed. Found by its "(" (a pattern that opens with ``\\s*`` is tried at every
    position of the text: 1.4 ms for rg's 58 KB of --help); the whitespace before it is stripped up
    to the last removal's end, as far as the pattern's scan would have begun."""
    out: list[str] = []
    end = 0
    for match in _PARENTHESES.finditer(text):
        out.append(text[end : match.start()].rstrip())
        end = match.end()
    out.append(text[end:])
    return "".join(out)


# In lower-cased ASCII text: what every match of _OPENER holds ("exit status is", "exits with", "returns 1"),
# and what every match of _IF_THEN does ("the exit status is", "return code").
_OPENER_WORDS = re.compile(r"exits?[ ]|returns?\s")
_STATUS_WORDS = re.compile(r"exit\s+(?:status|code|value)|return\s+(?:value|code)")
# What every match of _OCCURS holds, four characters at most after its start in normalised text.
_OCCURS_WORDS = re.compile(r"exit\s+(?:status|code)")


def _folded(text: str) -> str | None:
    """``text`` lower-cased where that moves no character (ASCII): there the searches below may be
    limited to where their words are; None elsewhere (every pattern then searches the whole text)."""
    return text.lower() if text.isascii() else None


def _stretches(low: str, words: re.Pattern, stops: str) -> list[tuple[int, int]]:
    """(start, end) of each stretch of ``low`` that holds a match of ``words``: from just after the
    stop character before it to the stop character after it, that one included (or the text's ends).
    A pattern whose every match holds one of ``words`` and none of ``stops`` matches the text only
    inside these: searched there with ``pos``/``endpos`` it finds what a search of the whole text
    finds (``\\b`` and lookbehinds at a stretch's start see the text before it, and at its end the
    stop character is there for a lookahead or ``\\b`` to see)."""
    out: list[tuple[int, int]] = []
    for hit in _words_in(low, words):
        if out and hit.start() < out[-1][1]:
            continue  # (in the stretch already kept)
        start = max(low.rfind(stop, 0, hit.start()) for stop in stops) + 1
        after = [at for at in (low.find(stop, hit.end()) for stop in stops) if at >= 0]
        out.append((start, min(after) + 1 if after else len(low)))
    return out


def _words_in(low: str, words: re.Pattern):
    """``words.finditer(low)`` for the word patterns here, each of whose matches starts with "exit" or
    "return": those are found by ``str.find`` and the pattern tried there (a scan of the alternation
    tries every position of a long page)."""
    starts = sorted(at for lead in ("exit", "return") for at in _found(low, lead))
    end = 0
    for at in starts:
        if at >= end:
            match = words.match(low, at)
            if match is not None:
                yield match
                end = match.end()


def _found(text: str, word: str):
    at = text.find(word)
    while at >= 0:
        yield at
        at = text.find(word, at + 1)


def _within(pattern: re.Pattern, text: str, stretches: list[tuple[int, int]] | None):
    """``pattern.finditer(text)``, searching only ``stretches`` (None: the whole text)."""
    if stretches is None:
        yield from pattern.finditer(text)
        return
    for start, end in stretches:
        yield from pattern.finditer(text, start, end)


def _starting_in(pattern: re.Pattern, text: str, stretches: list[tuple[int, int]] | None):
    """``pattern.finditer(text)``, keeping only the matches that start in ``stretches`` (None: all).
    Unlike ``_within`` a match may end past its stretch, as its end clause (``_END``) reads the text
    after a stop character: each stretch is searched from its start to the text's end."""
    if stretches is None:
        yield from pattern.finditer(text)
        return
    end_of_last = 0
    for start, end in stretches:
        for match in pattern.finditer(text, max(start, end_of_last)):
            if match.start() >= end:
                break
            end_of_last = match.end()
            yield match


def _occurrences(text: str, low: str | None):
    """``_OCCURS.finditer(text)`` for whitespace-normalised text. In ASCII text a match starts with its
    code and one space right before a "exit status"/"exit code" (at most four characters before it):
    only those starts are tried, in order, each past the last match as finditer goes (its condition
    may run over a later "exit status"). Other text is searched whole."""
    if low is None:
        yield from _OCCURS.finditer(text)
        return
    end = 0
    for hit in _words_in(low, _OCCURS_WORDS):
        for start in range(max(end, hit.start() - 4), hit.start()):
            match = _OCCURS.match(text, start)
            if match is not None:
                yield match
                end = match.end()
                break


def _sentences(text: str, *, bare: bool) -> dict[int, str]:
    """Codes stated in prose, in the order they appear; ``bare`` also reads any "N if A" (inside a section)."""
    text = " ".join(
        (_without_asides(text) if "(" in text else text).split()
    )  # asides ("(e.g. ...)") hold stray commas and dots
    # The three case-blind patterns scanned a long page whole (5 ms for rg's 58 KB of --help, a page
    # that states no status): in ASCII text, whose lower-cased copy holds a phrase exactly where the
    # case-blind pattern finds it, each is searched only where its words are (_stretches, _occurrences).
    low = _folded(text)
    hits: list[tuple[int, int, str]] = []  # (position, code, meaning)
    # (every _OPENER match holds "exit " or "return" and no punctuation)
    openers = _within(_OPENER, text, None if low is None else _stretches(low, _OPENER_WORDS, ".;,"))
    for opener in openers:
        at, first = opener.end(), None
        while True:
            item = _ITEM.match(text, at)
            if item is None:
                break
            code = int(item["code"])
            if item["otherwise"]:
                meaning = f"not {first}" if first else ""
            else:
                meaning = _meaning(item["cond"])
                first = first or meaning
            if meaning:
                hits.append((item.start(), code, meaning))
            at = item.end()
    # (every _IF_THEN match holds "exit status" or the like, one comma and no '.' or ';')
    if_then = _within(_IF_THEN, text, None if low is None else _stretches(low, _STATUS_WORDS, ".;"))
    hits += [(m.start(), int(m["code"]), _meaning(m["cond"])) for m in if_then]
    hits += [(m.start(), int(m["code"]), _meaning(m["cond"])) for m in _occurrences(text, low)]
    # (every _MEANS match holds the _STATUS_WORDS and no '.' or ';'; every _EXITS_WITH match starts
    # with "exit" and holds no '.', ';' or ',')
    means = _starting_in(
        _MEANS, text, None if low is None else _stretches(low, _STATUS_WORDS, ".;")
    )
    hits += [(m.start(), int(m["code"]), _meaning(m["cond"])) for m in means]
    exits = _starting_in(
        _EXITS_WITH, text, None if low is None else _stretches(low, _OPENER_WORDS, ".;,")
    )
    hits += [(m.start(), int(m["code"]), _meaning(m["cond"])) for m in exits]
    if bare:
        hits += [(m.start(), int(m["code"]), _meaning(m["cond"])) for m in _BARE.finditer(text)]
    found: dict[int, str] = {}
    for _, code, meaning in sorted(hits):
        if meaning:
            found.setdefault(code, meaning)
    return found


def _may_head(page: str) -> bool:
    """Whether a line of ``page`` may be a _HEADING: every one starts with "exit ", "return " or
    "diagnostics" in some case (a page that has these words only inside lines has no section, and
    its lines need not be tried). Lower-cased ASCII text is tested; other text is always read."""
    if not page.isascii():
        return True
    low = "\n" + page.lower()
    return "\nexit " in low or "\nreturn " in low or "\ndiagnostics" in low


def exit_statuses(text: str) -> tuple[tuple[int, str], ...]:
    """``((0, "a line is selected"), (1, "no lines were selected"), (2, "an error occurred"))`` for grep(1);
    ``()`` when the text states none. Sorted by code."""
    if not _ANY_WORD.search(text or ""):
        return ()
    try:
        page = (text or "").replace("\r\n", "\n").expandtabs()
        lines = page.split("\n")
        found: dict[int, str] = {}
        for body in _sections(lines) if _may_head(page) else ():
            tagged = _tagged(body)
            stated = (
                tagged if len(tagged) >= 2 else {**_sentences("\n".join(body), bare=True), **tagged}
            )
            for code, meaning in stated.items():
                found.setdefault(code, meaning)
        # outside a section every reading names an exit or a return ("exit status is", "returns 1"):
        # a page with neither word (most subcommand pages) is not searched
        if not found and _EXIT_WORD.search(text or ""):
            found = _sentences("\n".join(lines), bare=False)
        return tuple(sorted(found.items()))
    except (RecursionError, ValueError):  # never fail discovery over prose
        return ()
