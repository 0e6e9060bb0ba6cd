"""Descriptions a person and a model can read, made from help text.

Help lines are often not sentences: a choice list in usage notation (``{open|closed|all}``), a
synopsis (``Where OBJECT := { address | link }``), a copyright or a version line, or an operand's
bare name. ``readable`` rewrites what can be said in words (a choice list becomes "one of: open,
closed, all") and returns "" for what cannot, so the caller falls back to words of its own;
``operand_description`` and ``flag_description`` are those words for an arg whose help says
nothing beyond its name. What counts as unreadable is ``wrapgen.knowledge.text`` (the same test
``wrapgen check`` applies, W080-W082).
"""

from __future__ import annotations

import re

from wrapgen.knowledge.text import names_only, unreadable_reason
from wrapgen.model.tool import Flag, Positional

__all__ = ["readable", "operand_description", "flag_description"]

_CHOICES = re.compile(r"[{<\[]\s*([\w.-]+(?:\s*\|\s*[\w.-]+)+)\s*[}>\]]")


def readable(text: str) -> str:
    """``text`` as a readable sentence fragment, or "" when it is usage syntax, a table, a copyright
    or a version line; a choice list in braces or angle brackets is written out in words."""
    text = re.sub(r"\s+", " ", text or "").strip()
    text = _CHOICES.sub(
        lambda m: "one of: " + ", ".join(p.strip() for p in m.group(1).split("|")), text
    )
    return "" if unreadable_reason(text) else text


def _naming_sentence(text: str, shown: str) -> str:
    """The first sentence of the command's own help that names the operand as its usage does
    ("With no FILE, or when FILE is -, read standard input."), short enough for a description."""
    if not shown or not text:
        return ""
    spelled = re.escape(shown)
    pattern = re.compile(rf"(?<![\w-])(?:<{spelled}>|{spelled.upper()}S?)(?![\w-])")
    for sentence in re.split(r"(?<=[.!?])\s+", re.sub(r"\s+", " ", text).strip()):
        if re.search(r"\$|\bexample\b", sentence, re.IGNORECASE):
            continue  # an example command line, not what the operand is
        if pattern.search(sentence) and len(sentence) <= 160 and readable(sentence):
            return readable(sentence).rstrip(".")
    return ""


def operand_description(pos: Positional, name: str, context: str = "") -> str:
    """What an operand is, in its own tool's words: its help, else the sentence of the command's help
    (``context``) that names it, else its name as the usage line spells it; never another tool's
    glossary (an ``OBJECT`` of one tool is no revision of another)."""
    own = (pos.description or "").strip()
    cleaned = readable(own)
    if cleaned and not names_only(cleaned, name) and not names_only(cleaned, pos.name):
        return cleaned
    shown = pos.name.split("|")[0].strip("<>[]. ")
    said = _naming_sentence(context, shown)
    if said:
        return f"{said[0].upper()}{said[1:]} ({shown} in the usage line)"
    label = re.sub(r"[_-]+", " ", shown).lower()
    what = f"the {label}{'' if label.endswith('s') else 's'}" if pos.variadic else f"the {label}"
    return f"{what[0].upper()}{what[1:]} the command works on ({shown} in the usage line)"


def flag_description(flag: Flag, cleaned: str) -> str:
    """``cleaned`` (the flag's help, already shortened), or words of its own where the help is
    unreadable or only repeats the flag's name (vcs's ``-n, --dry-run  dry run``)."""
    text = readable(cleaned)
    spelling = flag.spelling
    if text and not names_only(text, spelling.lstrip("-")):
        return text
    said = f" (its help: '{cleaned.strip()}')" if cleaned.strip() and text else ""
    if flag.takes_value:
        value = (flag.value_name or "value").strip("<>[]").lower()
        return f"The {value} passed as {spelling}{said}"
    return f"Whether to pass {spelling}{said}"
