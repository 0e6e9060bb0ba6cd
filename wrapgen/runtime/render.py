"""Rendering a verb's argv template with its args (docs/contract.md §5, §6, §7). Pure functions, stdlib only.

The safety property this module keeps: every option in the rendered argv was written in the
template. A value can become a token of its own, or part of a token, but never an option: a token
that starts with ``-`` although its template token did not is refused unless it stands after a
literal ``--``.
"""

from __future__ import annotations

import json
import os
import re

from wrapgen.errors import WrapgenError
from wrapgen.names import segment

__all__ = [
    "RenderError",
    "PLACEHOLDER_RE",
    "placeholders",
    "render_argv",
    "expand_argv_template",
    "find_nul",
]

# {{ name }} with an optional dotted path ({{result.a.b}} in titles)
PLACEHOLDER_RE = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)*)\s*\}\}")


class RenderError(WrapgenError):
    """Args that cannot become a safe argv; ``arg`` names the culprit. The runtime turns it into an envelope."""

    def __init__(self, message: str, *, hint: str = "", arg: str = ""):
        super().__init__(message, hint=hint)
        self.arg = arg


def placeholders(token: str) -> list[str]:
    """The names of the placeholders in one template token, in order."""
    return PLACEHOLDER_RE.findall(token)


def _unspawnable(text: str) -> bool:
    # an argv element can hold neither NUL nor a lone surrogate ("\ud800"): exec() would fail on both
    if "\0" in text:
        return True
    try:
        text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return True
    return False


def find_nul(value, path: str = "") -> str | None:
    """The path of the first string (key or value) inside ``value`` that no argv element can hold
    (a NUL byte, or a lone surrogate that has no bytes), else None."""
    if isinstance(value, str):
        return path if _unspawnable(value) else None
    if isinstance(value, dict):
        for key, item in value.items():
            where = f"{path}.{key}" if path else str(key)
            if _unspawnable(str(key)):
                return where
            found = find_nul(item, where)
            if found is not None:
                return found
    if isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            found = find_nul(item, f"{path}[{index}]")
            if found is not None:
                return found
    return None


def _is_flag(token: str) -> bool:
    # "-" alone (stdin), "--" and "--end-of-options" (end of options) are no flags that own the next slot
    return (
        token.startswith("-")
        and token not in ("-", "--", "--end-of-options")
        and not PLACEHOLDER_RE.search(token)
    )


def _is_empty(value) -> bool:
    return (
        value is None
        or value == ""
        or value is False
        or (isinstance(value, (list, tuple)) and not value)
    )


def _scalar_text(name: str, value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**63:
        return str(int(value))  # integral: --max-count=1, never --max-count=1.0
    if isinstance(value, (int, float)):
        return json.dumps(value)  # JSON form: 3, 1.5, 1e+20
    raise RenderError(
        f"arg {name!r}: a {type(value).__name__} value cannot be rendered as an argument",
        hint="pass a string, a number, a boolean or a list of those",
        arg=name,
    )


def _list_items(name: str, value) -> list[str]:
    items = []
    for item in value:
        if item is None or item == "":
            continue
        if isinstance(item, (list, tuple, dict)):
            raise RenderError(
                f"arg {name!r}: a list of lists or objects cannot be rendered as arguments",
                hint="pass a flat list of strings or numbers",
                arg=name,
            )
        items.append(_scalar_text(name, item))
    return items


def _refuse_option(name: str, token: str) -> RenderError:
    shown = token if len(token) <= 40 else token[:40] + "…"
    return RenderError(
        f"option injection refused: arg {name!r} renders as {shown!r}, which the tool would read as an option",
        hint=f"give {name} a value that does not start with '-' (a pack that needs such values "
        "puts the slot after a literal '--' or writes it as --flag={{" + name + "}})",
        arg=name,
    )


def _refuse_response_file(name: str, token: str) -> RenderError:
    shown = token if len(token) <= 40 else token[:40] + "…"
    return RenderError(
        f"response file refused: arg {name!r} renders as {shown!r}, and this tool reads '@FILE' as more "
        "arguments taken from FILE",
        hint=f"give {name} a value that does not start with '@' (this pack sets response_files: true)",
        arg=name,
    )


def _substitute_text(token: str, args: dict) -> str | None:
    """A token with placeholders among other text; None when any placeholder has no value."""
    pieces = []
    last = 0
    for match in PLACEHOLDER_RE.finditer(token):
        name = match.group(1)
        value = args.get(name)
        if value is None or value == "" or (isinstance(value, (list, tuple)) and not value):
            return None
        if isinstance(value, (list, tuple)):
            items = _list_items(name, value)
            if not items:
                return None
            text = ",".join(items)
        else:
            text = _scalar_text(name, value)
        pieces.append(token[last : match.start()])
        pieces.append(text)
        last = match.end()
    pieces.append(token[last:])
    return "".join(pieces)


def _has_run(tokens, run) -> bool:
    run = list(run)
    return any(list(tokens[i : i + len(run)]) == run for i in range(len(tokens) - len(run) + 1))


def render_argv(template, args, *, json_selection=(), response_files: bool = False) -> list[str]:
    """Render ``template`` (a ``cli[]`` list) with ``args`` into an argv list (docs/contract.md §5).

    Raises ``RenderError`` for option injection, a NUL byte, or a value that is not renderable.
    With ``response_files`` (a tool that expands ``@FILE`` into arguments: argparse's
    fromfile_prefix_chars, picocli, gcc) a value that becomes a whole token starting with ``@`` is
    refused too, after a literal ``--`` as well: such tools expand ``@FILE`` at every position.
    """
    template = list(template)
    args = dict(args or {})
    if not template:
        raise RenderError("the verb's argv template is empty", hint="run wrapgen build on the pack")
    culprit = find_nul(args)
    if culprit is not None:
        raise RenderError(
            f"arg {culprit!r}: value contains a NUL byte or a character with no UTF-8 form",
            hint=f"remove the NUL (or lone surrogate) character from {culprit}",
            arg=culprit.split(".")[0].split("[")[0],
        )
    out: list[str] = [template[0]]
    after_ddash = False
    # index in ``out`` of the literal flag written for the previous template token, if any
    flag_at: int | None = None
    for token in template[1:]:
        names = placeholders(token)
        if not names:
            out.append(token)
            flag_at = len(out) - 1 if _is_flag(token) else None
            after_ddash = after_ddash or token == "--"
            continue
        exact = PLACEHOLDER_RE.fullmatch(token) is not None
        preceding_flag, flag_at = flag_at, None
        if exact:
            name = names[0]
            value = args.get(name)
            if value is True:
                continue
            if _is_empty(value) or (
                isinstance(value, (list, tuple)) and not _list_items(name, value)
            ):
                if preceding_flag is not None:
                    del out[preceding_flag]
                continue
            if isinstance(value, (list, tuple)):
                rendered = _list_items(name, value)
                for index, item in enumerate(rendered):
                    if not after_ddash and item.startswith("-"):
                        raise _refuse_option(name, item)
                    if response_files and item.startswith("@"):
                        raise _refuse_response_file(name, item)
                    if index and preceding_flag is not None:
                        out.append(out[preceding_flag])
                    out.append(item)
                continue
            text = _scalar_text(name, value)
            if not after_ddash and text.startswith("-"):
                raise _refuse_option(name, text)
            if response_files and text.startswith("@"):
                raise _refuse_response_file(name, text)
            out.append(text)
            continue
        text = _substitute_text(token, args)
        if text is None:
            # docs/contract.md §5 rule 3: a self-contained token carries its own flag, so dropping it
            # takes nothing else along (`git tag --list --sort={{sort}}` keeps `--list`)
            continue
        if not after_ddash and text.startswith("-") and not token.startswith("-"):
            raise _refuse_option(names[0], text)
        if response_files and text.startswith("@") and not token.startswith("@"):
            raise _refuse_response_file(names[0], text)
        out.append(text)
    # (a selection of True: the tool prints JSON with nothing added, docs/contract.md §7)
    selection = [] if json_selection is True else [str(part) for part in (json_selection or ())]
    if selection and not _has_run([t for t in template if not placeholders(t)], selection):
        # before the end of the options: after "--end-of-options" or "--" the tool reads it as operands
        ends = [out.index(m) for m in ("--end-of-options", "--") if m in out and m in template]
        if ends:
            at = min(ends)
            out[at:at] = selection
        else:
            out.extend(selection)
    return out


def _tail(verb: str, bin: str) -> list[str]:
    parts = [part for part in verb.split(".") if part]
    if parts and parts[0] == segment(os.path.basename(bin)):
        parts = parts[1:]
    return parts


def expand_argv_template(template, *, verb: str, bin: str, properties) -> list[str]:
    """Expand ``{{verb}}`` and ``{{flags}}`` of a pack's ``wrap.argv_template`` (docs/contract.md §6).

    The result is a ``cli[]``-like template for ``render_argv``: ``{{verb}}`` becomes the command
    tail, ``{{flags}}`` becomes ``--name {{name}}`` for every property no other placeholder uses.
    """
    template = list(template)
    properties = dict(properties or {})
    consumed = {
        name
        for token in template
        if token not in ("{{verb}}", "{{flags}}")
        for name in placeholders(token)
    }
    out: list[str] = []
    for token in template:
        stripped = PLACEHOLDER_RE.fullmatch(token)
        key = stripped.group(1) if stripped else None
        if key == "verb":
            out.extend(_tail(verb, bin))
        elif key == "flags":
            for name in properties:
                if name in consumed:
                    continue
                out.extend(["--" + name.replace("_", "-"), "{{" + name + "}}"])
        else:
            out.append(token)
    return out
