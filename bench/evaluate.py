"""The held-out evaluation (issue 26 item 5; the goals of issues 26 and 28): packs wrapped fresh, judged
on tools nobody tuned on.

    python3 bench/evaluate.py [--half tuning|held_out|both] [--tools a,b] [--regimes usage|no-usage|both]
                              [--tldr DIR] [--jobs N] [--json OUT] [--no-tasks] [--no-check]
                              [--no-try]

Every tool of ``bench/data/tools.json`` that is installed is wrapped fresh (``wrapgen wrap BIN -o
DIR``, no recipe, an empty discovery cache: a cold wrap) and judged four ways:

* **expert picks** (``bench/data/expert_picks.json``): the 5-12 commands an expert picks first, each
  with its reason, written from the tool's documentation before any wrapgen output of it was looked
  at; present when some verb of the pack can express it; forbidden picks must be absent;
* **tldr examples expressible**: the tool's examples in tldr-pages (read at run time from ``--tldr``,
  by default the pinned copy in the ``shared`` folder beside the checkout; CC BY 4.0, nothing of
  them is stored here), each turned into a
  matcher (subcommand path, flags, operands) and resolved against the pack's verbs;
* **tried tasks equal**: read tasks with a fixture (``bench/data/pack_tasks.json`` and
  ``bench/data/eval_tasks.json``), the human command against the pack's call through ``wrapgen exec``,
  both in the same bubblewrap sandbox (``bench/pack_tasks.py`` runs them); where the pack's verb
  selects JSON and the human command printed text, the pack's answer is compared with the human
  command given that selection (counted apart: "in JSON form");
* **issue 28's goals**: read verbs that wrote into the fixture (seen by the bench around each call),
  what ``wrapgen check --try --probe`` reports, tasks of linters, test runners and search tools whose
  findings (a non-zero exit) reached the envelope, and tasks that failed on a ``--``.

Two regimes on the held-out half (issue 26 item 5): ``usage``, wrapgen as shipped, with its usage
table; and ``no-usage``, the held-out tools left out of the usage table (what an internal tool gets):
the bench sets ``WRAPGEN_USAGE_EXCLUDE`` to the held-out tools' names, comma-separated, for the wrap.
Both halves are reported; figures on the tuning half are on tools the rules were tuned on.
``--half tuning --regimes no-usage`` runs the tuning tools help-only too (the table then hides
them as well): the help-only rules are tuned there, never on the held-out half.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import itertools
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import corpus  # noqa: F401  (registers the corpus fixture with pack_tasks)
import pack_tasks as pt

DATA = Path(__file__).resolve().parent / "data"
REPO = Path(__file__).resolve().parent.parent
# the pinned tldr-pages copy in the "shared" folder beside the checkout (or beside a worktree's parent)
TLDR_PLACES = [REPO.parent / "shared" / "tldr-pages", REPO.parent.parent / "shared" / "tldr-pages"]
DEFAULT_TLDR = next((place for place in TLDR_PLACES if place.is_dir()), TLDR_PLACES[0])
EXCLUDE_ENV = "WRAPGEN_USAGE_EXCLUDE"
WRAP_TIMEOUT_S = 600
LARGEST = {"aws": "s3 ls", "gcloud": "config list", "bq": "query"}  # issue 26: cold wrap <= 30 s
COLD_WRAP_GOAL_S = 30


# ---------------------------------------------------------------------------------------------
# the matcher language of the picks and tasks data
#
#     "log --oneline --max-count|-n=2 @HEAD -- @src/app.py"
#
# Bare words before any operand are the subcommand path; "-f" is a switch, "-f=VALUE" a flag with a value
# ("a|b" lists spellings); "@X" an operand with sample value X; what follows a literal "--" goes after
# it (paths). Quote with shell rules: '--format=%h %s'.


def parse_match(text: str) -> dict:
    match: dict = {"path": [], "opts": {}, "operands": [], "paths": []}
    after_ddash, in_path = False, True
    for token in shlex.split(text):
        if token == "--":
            after_ddash, in_path = True, False
        elif token.startswith("@"):
            match["paths" if after_ddash else "operands"].append(token[1:])
            in_path = False
        elif token.startswith("-"):
            flag, equals, value = token.partition("=")
            match["opts"][flag] = value if equals else True
        elif in_path:  # a word after a global flag is still the path: ip -j address show
            match["path"].append(token)
        else:
            raise ValueError(
                f"{text!r}: a bare word {token!r} after a flag or operand (write @{token})"
            )
    return match


def load_picks() -> dict:
    """{tool: {"picks": [{"name", "match", "why"}], "forbidden": [...]}}, old and new schema alike."""
    tables = {}
    for tool, table in json.loads((DATA / "expert_picks.json").read_text())["tools"].items():
        tables[tool] = {
            kind: [
                {
                    "name": pick.get("name") or pick["cmd"],
                    "match": pick["match"] if "match" in pick else parse_match(pick["cmd"]),
                    "why": pick.get("why", ""),
                }
                for pick in table.get(kind) or []
            ]
            for kind in ("picks", "forbidden")
        }
    return tables


def load_tasks(tools: dict) -> dict:
    """{tool: tool dict in pack_tasks' shape (bin, fixture, tasks with argv and matcher dicts)}."""
    found = {tool["tool"]: tool for tool in json.loads(pt.TASKS_FILE.read_text())["tools"]}
    for name, entry in json.loads((DATA / "eval_tasks.json").read_text())["tools"].items():
        tasks = []
        for task in entry["tasks"]:
            tasks.append(
                {
                    "id": f"{name}.{task['id']}",
                    "source": task.get("source", ""),
                    "human": shlex.split(task["human"]),
                    "match": parse_match(task["match"]),
                    **{
                        key: task[key]
                        for key in ("expect_exit", "normalise", "known_defect", "not_tried")
                        if key in task
                    },
                }
            )
        found[name] = {
            "tool": name,
            "bin": tools[name]["bin"],
            "fixture": entry.get("fixture", "corpus"),
            "tasks": tasks,
            **({"not_tried": entry["not_tried"]} if entry.get("not_tried") else {}),
        }
    return found


# ---------------------------------------------------------------------------------------------
# tldr examples


PLACEHOLDER = re.compile(r"\{\{(.*?)\}\}(?!\})")
CUT_AT = {"|", ">", ">>", "2>", "&&", ";", "||", "&", "<", "2>&1"}


def tldr_pages(root: Path, tool: str, subcommands: bool = False) -> list[Path]:
    """The tool's own page (common, then linux); with subcommands, its subcommands' pages too."""
    pages = []
    for platform in ("common", "linux"):
        folder = root / "pages" / platform
        pages += [folder / f"{tool}.md"] if (folder / f"{tool}.md").is_file() else []
        pages += sorted(folder.glob(f"{tool}-*.md")) if subcommands else []
    return pages


def tldr_examples(root: Path, tool: str, subcommands: bool = False) -> list[str]:
    """The command lines of the tool's page that start with the tool's name: its common uses, as
    tldr-pages' authors chose them (a page holds at most about eight). With subcommands, the pages of
    its subcommands too (git's 764 examples: more than any pack of 5-12 commands can hold, so the
    headline figure is the tool's own page). Alias pages ('an alias of') are left out."""
    examples = []
    for page in tldr_pages(root, tool, subcommands):
        text = page.read_text(errors="replace")
        if "an alias of" in text:
            continue
        for line in text.splitlines():
            if line.startswith("`") and line.endswith("`"):
                command = line[1:-1].strip()
                if command.startswith("sudo "):
                    command = command[5:]
                if command.split(" ", 1)[0] == tool and command not in examples:
                    examples.append(command)
    return examples


# tldr's ``{{[ls|list]}}``: spellings of one subcommand (``{{[ps|container ls]}}``: one of several
# words); ``{{start|stop|status}}`` where a subcommand stands: one of several subcommands
_WORD_CHOICES = re.compile(r"\{\{\[([^\]{}]*\|[^\]{}]*)\]\}\}")
_PLAIN_CHOICES = re.compile(r"\{\{([a-z][a-z0-9-]*(?:\|[a-z][a-z0-9-]*)+)\}\}")
_MAX_VARIANTS = 32


def example_variants(command: str) -> list[str]:
    """The command lines an example stands for, the written one first: each ``{{[a|b]}}`` whose
    spellings are words (not flags) becomes each of them, and each ``{{a|b}}`` of plain words
    becomes each word as well as the placeholder it is. An example is expressible when one of its
    variants is (``gh issue {{[ls|list]}}`` by a verb ``issue list``); at most 32 variants."""
    variants = [command]
    for pattern, keep_placeholder in ((_WORD_CHOICES, False), (_PLAIN_CHOICES, True)):
        grown = []
        for variant in variants:
            grown.extend(_expand(variant, pattern, keep_placeholder))
        variants = list(dict.fromkeys(grown))[:_MAX_VARIANTS]
    return variants


def _expand(command: str, pattern: re.Pattern, keep_placeholder: bool) -> list[str]:
    pieces: list[list[str]] = []  # literal text, then the choices of each match, in turn
    last = 0
    for found in pattern.finditer(command):
        if found.group(1).lstrip().startswith("-"):
            continue
        choices = [choice.strip() for choice in found.group(1).split("|") if choice.strip()]
        pieces += [[command[last : found.start()]], [found.group(0)] * keep_placeholder + choices]
        last = found.end()
    pieces.append([command[last:]])
    return ["".join(parts) for parts in itertools.islice(itertools.product(*pieces), _MAX_VARIANTS)]


def example_tokens(command: str) -> list[tuple[str, str]]:
    """(kind, text) tokens after the tool's name: word, flag (text: spellings joined by '|'), value
    (a placeholder), cut (a pipe or redirection: the rest is not the tool's)."""
    holders: list[str] = []

    def hold(found: re.Match) -> str:
        holders.append(found.group(1))
        return f"\x00{len(holders) - 1}\x00"

    text = PLACEHOLDER.sub(hold, command)
    try:
        raw = shlex.split(text, posix=True)
    except ValueError:
        raw = text.split()
    tokens: list[tuple[str, str]] = []
    for token in raw[1:]:
        if token in CUT_AT or token.startswith((">", "<")) or token.startswith("2>"):
            tokens.append(("cut", token))
            break
        if "=" in token and token.startswith("-"):
            head, _, tail = token.partition("=")
            tokens.append(("flag", _spellings(head, holders)))
            tokens.append(("value", tail))
            continue
        whole = re.fullmatch(r"\x00(\d+)\x00", token)
        if whole:
            inner = holders[int(whole.group(1))]
            alternatives = re.fullmatch(r"\[(-[^\]]*)\]", inner)
            if alternatives:
                tokens.extend(_flag_alternatives(alternatives.group(1)))
            else:
                tokens.append(("value", inner))
            continue
        if token.startswith("-") and token != "-":
            tokens.append(("flag", _spellings(token, holders)))
        elif "\x00" in token:
            tokens.append(
                ("value", re.sub(r"\x00(\d+)\x00", lambda m: holders[int(m.group(1))], token))
            )
        else:
            tokens.append(("word", token))
    return tokens


def _flag_alternatives(text: str) -> list[tuple[str, str]]:
    """The tokens of ``{{[-s|--long]}}``: one flag with its spellings; where one spelling is several
    words (``-sh|--summarize --human-readable``, ``-5|--lines 5``), the flags (and values) that
    spelling writes, each its own token: a bundle of letters names them no other way."""
    spellings = [part.strip() for part in text.split("|") if part.strip()]
    wordy = max(spellings, key=lambda part: len(part.split()), default="")
    if len(wordy.split()) < 2:
        return [("flag", "|".join(spellings))]
    return [("flag" if w.startswith("-") else "value", w) for w in wordy.split()]


def _after_leading_flags(tokens: list[tuple[str, str]], path: list[str]) -> list[tuple[str, str]]:
    """``tool -r REPO snapshots``: options written before the subcommand are the subcommand's when
    the tool takes them there (a global option), so the tokens are read as ``tool snapshots -r
    REPO``; unchanged where the example does not start with a flag or never names ``path``."""
    if not path or not tokens or tokens[0][0] != "flag":
        return tokens
    for start in range(1, len(tokens) - len(path) + 1):
        window = tokens[start : start + len(path)]
        if [text for _kind, text in window] == path and all(k == "word" for k, _ in window):
            leading = tokens[:start]
            if any(kind not in ("flag", "value", "word") for kind, _ in leading):
                return tokens
            return window + leading + tokens[start + len(path) :]
    return tokens


def _spellings(token: str, holders: list[str]) -> str:
    found = re.fullmatch(r"\x00(\d+)\x00", token)
    if found:
        inner = holders[int(found.group(1))]
        return inner.strip("[]")
    return re.sub(r"\x00(\d+)\x00", lambda m: holders[int(m.group(1))].strip("[]"), token)


def flag_groups(pack_root: Path, pack_id: str) -> dict[str, list[set]]:
    """{command path: [set of spellings of one flag]} from the pack's source.json (the discovered
    model's flags with their aliases), so '-n' and '--max-count' are one flag."""
    groups: dict[str, list[set]] = {}
    try:
        source = json.loads((pack_root / pack_id / "source.json").read_text())
    except (OSError, ValueError):
        return groups
    for path, command in (source.get("commands") or {}).items():
        groups[path] = [set(entry.split()) for entry in command.get("flags") or []]
    return groups


def with_aliases(match: dict, groups: dict[str, list[set]]) -> dict:
    """The matcher with each flag's other spellings from the pack's model added ('-n' finds a verb
    that spells it '--lines'): the expert and the task name the flag, not its spelling."""
    known = groups.get(" ".join(match.get("path") or []), []) + groups.get("", [])
    opts = {}
    for spec, value in (match.get("opts") or {}).items():
        spellings = spec.split("|")
        extra = sorted(_aliases(spellings, known) - set(spellings))
        opts["|".join(spellings + extra)] = value
    return dict(match, opts=opts)


def groups_of(pack: dict) -> dict[str, list[set]]:
    return flag_groups(Path(pack["root"]), pack["pack_id"])


def _aliases(spellings: list[str], groups: list[set]) -> set:
    found = set(spellings)
    for group in groups:
        if found & group:
            found |= group
    return found


def expresses(tokens: list[tuple[str, str]], parsed: dict, groups: list[set]) -> bool:
    """Whether one verb (pack_tasks.parse_verb's reading of it) can express an example."""
    return not why_not(tokens, parsed, groups)


def why_not(tokens: list[tuple[str, str]], parsed: dict, groups: list[set]) -> str:
    """Why one verb cannot express an example, as a class of MISS_CLASSES ("" where it can)."""
    words = []
    rest = _after_leading_flags(list(tokens), parsed["path"])
    while rest and rest[0][0] == "word":
        words.append(rest.pop(0)[1])
    if words[: len(parsed["path"])] != parsed["path"]:
        return "no main verb" if not words else "no verb at its subcommand path"
    operands = words[len(parsed["path"]) :]  # words past the verb's path are literal operands
    literals, slots, props = parsed["literals"], parsed["slots"], parsed["props"]
    index = 0
    while index < len(rest):
        kind, text = rest[index]
        nxt = rest[index + 1] if index + 1 < len(rest) else None
        index += 1
        if kind == "cut":
            break
        if kind != "flag":
            operands.append(text)
            continue
        spellings = _aliases([part for part in text.split("|") if part], groups)
        slot = next((slots[s] for s in spellings if s in slots), None)
        literal = next((s for s in spellings if s in literals), None)
        takes_value = nxt is not None and nxt[0] in ("value", "word")
        if slot is not None and (props.get(slot) or {}).get("type") != "boolean":
            if takes_value:
                index += 1
            continue
        if literal is not None and takes_value and literals[literal] == nxt[1]:
            index += 1
            continue
        if literal is None and slot is None:
            return "a flag not offered"
        # a switch the verb has: a value after it is an operand
    slots_left = [name for name, _after in parsed["operands"]]
    arrays = [name for name in slots_left if (props.get(name) or {}).get("type") == "array"]
    if len(operands) > len(slots_left) and not arrays:
        return "an operand not offered"
    return ""


def tldr_score(examples: list[str], binding: dict, groups: dict) -> dict:
    parsed = [pt.parse_verb(binding.get("bin", ""), verb) for verb in binding["verbs"].values()]
    done, missed, missed_why = [], [], []
    for example in examples:
        reasons = [
            why_not(
                example_tokens(variant),
                verb,
                groups.get(" ".join(verb["path"]), []) + groups.get("", []),
            )
            for variant in example_variants(example)
            for verb in parsed
        ]
        if "" in reasons:
            done.append(example)
            continue
        missed.append(example)
        # the nearest verb's reason: one at the example's path lacks a flag or an operand
        near = [r for r in reasons if not r.startswith("no ")]
        missed_why.append(min(near or reasons or ["no main verb"]))
    return {"expressible": done, "not_expressible": missed, "missed_why": missed_why}


def example_operands(tokens: list[tuple[str, str]], path: list[str]) -> int:
    """How many operands an example gives past a verb's path: words and placeholders that follow no
    flag (a placeholder after a flag may be its value, so it is not counted)."""
    count, after_flag, words = 0, False, 0
    for kind, text in tokens:
        if kind == "cut":
            break
        if kind == "word" and words < len(path) and text == path[words]:
            words += 1
            continue
        if kind in ("word", "value") and not after_flag:
            count += 1
        after_flag = kind == "flag"
    return count


def operand_missing(examples: list[str], binding: dict) -> list[str]:
    """Verbs with no operand slot whose uses (the examples under their subcommand path) all give one:
    issue 26's 'no verb without an operand its uses need'."""
    found = []
    for key, verb in sorted((binding.get("verbs") or {}).items()):
        parsed = pt.parse_verb(binding.get("bin", ""), verb)
        if parsed["operands"]:
            continue
        uses = []
        for example in examples:
            for variant in example_variants(example):
                tokens = example_tokens(variant)
                words = [text for kind, text in tokens if kind == "word"][: len(parsed["path"])]
                if words == parsed["path"]:
                    uses.append(example_operands(tokens, parsed["path"]))
                    break
        if uses and all(uses) and parsed["path"]:
            found.append(key)
    return found


def common_uses(examples: list[str]) -> int:
    """How many different uses the examples show: distinct (subcommand words, set of flags, number
    of operands) forms, so 'sqlite3 DB' and 'sqlite3 DB SQL' are two uses, '-n 5' and '-n 10' one."""
    forms = set()
    for example in examples:
        tokens = example_tokens(example)
        words = tuple(text for kind, text in tokens[:2] if kind == "word")
        flags = frozenset(text for kind, text in tokens if kind == "flag")
        forms.add((words, flags, example_operands(tokens, list(words))))
    return len(forms)


# ---------------------------------------------------------------------------------------------
# wrapping


def wrap(
    tools: list[dict],
    regime: str,
    scratch: Path,
    jobs: int,
    exclude: list[str],
    *,
    trials: bool = True,
) -> dict:
    """Each tool wrapped cold (its own empty discovery cache): {tool: info, with "pack" when one
    came}. ``trials=False``: ``wrap --no-try``, the proposal as it is before any trial."""
    env = dict(os.environ)
    if regime == "no-usage":
        env[EXCLUDE_ENV] = ",".join(sorted(exclude))
    else:
        env.pop(EXCLUDE_ENV, None)

    def one(tool: dict):
        out = scratch / regime / tool["tool"]
        cache = scratch / f"cache-{regime}" / tool["tool"]
        out.mkdir(parents=True)
        cache.mkdir(parents=True)
        started = time.monotonic()
        try:
            done = subprocess.run(
                [sys.executable, "-m", "wrapgen", "wrap", tool["bin"], "-o", str(out)]
                + ([] if trials else ["--no-try"]),
                capture_output=True,
                env=dict(env, WRAPGEN_CACHE_DIR=str(cache)),
                timeout=WRAP_TIMEOUT_S,
                cwd=scratch,
                stdin=subprocess.DEVNULL,
            )
            code, stderr = done.returncode, done.stderr.decode(errors="replace")
        except subprocess.TimeoutExpired:
            code, stderr = None, f"wrap timed out after {WRAP_TIMEOUT_S} s"
        info = {"seconds": round(time.monotonic() - started, 1), "exit": code}
        dirs = [d for d in out.iterdir() if (d / "binding.json").is_file()]
        if not dirs:
            # wrapgen's own "Error:" line when it printed one (it may be longer than the tail kept)
            said = [line for line in stderr.splitlines() if line.startswith("Error: ")]
            info["error"] = said[-1][len("Error: ") :][:300] if said else stderr.strip()[-300:]
            return tool["tool"], info
        binding = pt.load_binding(dirs[0])
        info["pack"] = {"root": out, "pack_id": dirs[0].name, "binding": binding}
        info["verbs"] = sorted(binding.get("verbs") or {})
        return tool["tool"], info

    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        return dict(pool.map(one, tools))


def check_pack(pack: dict) -> dict:
    """What `wrapgen check --try --probe` says of a pack: {code: count} and the messages of W06x."""
    try:
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "wrapgen",
                "check",
                "--try",
                "--probe",
                "--format",
                "json",
                str(Path(pack["root"]) / pack["pack_id"]),
            ],
            capture_output=True,
            timeout=WRAP_TIMEOUT_S,
            stdin=subprocess.DEVNULL,
        )
        report = json.loads(done.stdout.decode() or "{}")
    except (subprocess.TimeoutExpired, ValueError) as error:
        return {"error": str(error)[:200]}
    codes: dict[str, int] = {}
    notes = []
    for finding in _findings(report):
        code = finding.get("code", "?")
        codes[code] = codes.get(code, 0) + 1
        if code.startswith("W06") or code in ("W070", "W071"):
            notes.append(f"{code} {finding.get('message', '')[:160]}")
    return {"codes": codes, "notes": notes}


def _findings(report) -> list[dict]:
    if isinstance(report, list):
        return [item for item in report if isinstance(item, dict)]
    if isinstance(report, dict):
        for key in ("findings", "diagnostics", "results"):
            if isinstance(report.get(key), list):
                return _findings(report[key])
        found = []
        for value in report.values():
            if isinstance(value, (list, dict)):
                found += _findings(value)
        return found
    return []


# ---------------------------------------------------------------------------------------------
# judging one tool in one regime


# Why a pick is missing, as a class (what part of the proposal would have to change): the bench
# reports how many misses each class holds, a figure that may be read on the held-out half, where
# the tools' own rows may not be (bench/split_tools.py).
MISS_CLASSES = (
    ("no main verb", lambda match, why: not match.get("path") and why.startswith("no verb for")),
    ("no verb at its subcommand path", lambda match, why: why.startswith("no verb for")),
    ("a flag not offered", lambda match, why: why.startswith("no arg for")),
    ("an operand not offered", lambda match, why: why.startswith("no operand slot")),
    ("a value its type refuses", lambda match, why: why.startswith("a value does not fit")),
)


def miss_class(match: dict, why: str) -> str:
    """The class of one missed pick, from resolve_in_pack's reason."""
    return next((name for name, test in MISS_CLASSES if test(match, why)), "other")


def judge_tool(name: str, info: dict, picks: dict, tldr_root: Path | None) -> dict:
    row: dict = {"wrap_seconds": info["seconds"]}
    pack = info.get("pack")
    if pack is None:
        row["error"] = info.get("error", "no pack")
        return row
    binding = pack["binding"]
    row["verbs"] = len(binding.get("verbs") or {})
    if name in LARGEST:
        verb, _args, _why = pt.resolve_in_pack(parse_match(LARGEST[name]), binding)
        row["offers"] = {LARGEST[name]: verb}
    groups = flag_groups(Path(pack["root"]), pack["pack_id"])
    table = picks.get(name)
    if table:
        present, missing, forbidden, missed_why = [], [], [], []
        for pick in table["picks"]:
            verb, _args, why = pt.resolve_in_pack(with_aliases(pick["match"], groups), binding)
            (present if verb else missing).append(pick["name"])
            if not verb:
                missed_why.append(miss_class(pick["match"], why))
        for pick in table["forbidden"]:
            verb, _args, _why = pt.resolve_in_pack(with_aliases(pick["match"], groups), binding)
            if verb:
                forbidden.append(f"{pick['name']} ({verb})")
        row["picks"] = {
            "present": present,
            "missing": missing,
            "forbidden": forbidden,
            "missed_why": missed_why,
        }
    if tldr_root is not None:
        examples = tldr_examples(tldr_root, name)
        if examples:
            row["tldr"] = tldr_score(examples, binding, groups)
            row["uses"] = common_uses(examples)
        every = tldr_examples(tldr_root, name, subcommands=True)
        row["operand_missing"] = operand_missing(every, binding)
        if len(every) > len(examples):
            score = tldr_score(every, binding, groups)
            row["tldr_all_pages"] = f"{len(score['expressible'])}/{len(every)}"
    return row


# ---------------------------------------------------------------------------------------------
# the report


def _pct(a: int, b: int) -> str:
    return f"{100 * a / b:.0f} %" if b else "-"


def totals(rows: dict, names: list[str], tasks: dict | None) -> dict:
    t = {
        "tools": 0,
        "packs": 0,
        "picks": 0,
        "picks_of": 0,
        "forbidden": 0,
        "tldr": 0,
        "tldr_of": 0,
        "equal": 0,
        "equal_json": 0,  # of "equal": compared with the human command given the JSON selection
        "tried": 0,
        "tasks": 0,
        "one_command": [],
        "missed_why": {},
        "tldr_missed_why": {},
    }
    for name in names:
        row = rows.get(name)
        if row is None:
            continue
        t["tools"] += 1
        if "verbs" not in row:
            continue
        t["packs"] += 1
        if "picks" in row:
            t["picks"] += len(row["picks"]["present"])
            t["picks_of"] += len(row["picks"]["present"]) + len(row["picks"]["missing"])
            t["forbidden"] += len(row["picks"]["forbidden"])
            for why in row["picks"].get("missed_why", []):
                t["missed_why"][why] = t["missed_why"].get(why, 0) + 1
        if "tldr" in row:
            t["tldr"] += len(row["tldr"]["expressible"])
            t["tldr_of"] += len(row["tldr"]["expressible"]) + len(row["tldr"]["not_expressible"])
            for why in row["tldr"].get("missed_why", []):
                t["tldr_missed_why"][why] = t["tldr_missed_why"].get(why, 0) + 1
            if row["verbs"] == 1 and row.get("uses", 0) >= 2:
                t["one_command"].append(name)
        for task in (tasks or {}).get(name, []):
            t["tasks"] += 1
            outcome = task["outcome"]
            if outcome == "equal":
                t["equal"] += 1
                t["equal_json"] += "compared_with" in task
            if outcome not in ("not expressible", "not tried", "task broken"):
                t["tried"] += 1
    return t


def table_line(label: str, t: dict) -> str:
    return (
        f"| {label} | {t['packs']}/{t['tools']} | {t['picks']}/{t['picks_of']} = "
        f"{_pct(t['picks'], t['picks_of'])} | {t['forbidden']} | {t['tldr']}/{t['tldr_of']} = "
        f"{_pct(t['tldr'], t['tldr_of'])} | {t['equal']}/{t['tried']} = {_pct(t['equal'], t['tried'])} "
        f"(of {t['tasks']}; {t['equal_json']} in JSON form) |"
    )


def print_report(result: dict) -> None:
    print(f"sandbox: {result['sandbox']}")
    if result.get("trials") is False:
        print("wrapped with --no-try: the proposals before any trial, not the goals' figures")
    halves = result["halves"]
    print(
        "\n| half, regime | packs/tools | expert picks | forbidden | tldr examples expressible "
        "| tried tasks equal |"
    )
    print("|---|---|---|---|---|---|")
    for regime, rows in result["regimes"].items():
        tasks = result["tasks"].get(regime)
        for half in ("held_out", "tuning"):
            names = [n for n in halves[half] if n in rows]
            if names:
                label = f"{half.replace('_', '-')}, {regime}"
                print(table_line(label, totals(rows, names, tasks)))
        test = [n for n in result["test_set"] if n in rows]
        if test:
            print(table_line(f"the 22 of issue 26, {regime}", totals(rows, test, tasks)))
    print(
        "\n== why picks and tldr examples were missed (classes; counts only, so readable on the "
        "held-out half)"
    )
    for regime, rows in result["regimes"].items():
        for half in ("held_out", "tuning"):
            names = [n for n in halves[half] if n in rows]
            if names:
                t = totals(rows, names, None)
                for label, key in (("picks", "missed_why"), ("tldr", "tldr_missed_why")):
                    text = ", ".join(
                        f"{k} {v}" for k, v in sorted(t[key].items(), key=lambda kv: -kv[1])
                    )
                    print(f"  {half.replace('_', '-')}, {regime}, {label}: {text or 'none'}")
    for regime, rows in result["regimes"].items():
        print(f"\n== {regime}: per tool (half, wrap s, verbs, picks, forbidden, tldr, tasks)")
        tasks = result["tasks"].get(regime, {})
        for name in sorted(rows):
            row = rows[name]
            half = "H" if name in halves["held_out"] else "T"
            if "verbs" not in row:
                print(
                    f"  {half} {name:<16} {row['wrap_seconds']:>6} NO PACK: {row.get('error', '')[:120]}"
                )
                continue
            picks = row.get("picks")
            p = (
                f"{len(picks['present'])}/{len(picks['present']) + len(picks['missing'])}"
                if picks
                else "-"
            )
            f = ", ".join(picks["forbidden"]) if picks else ""
            tl = row.get("tldr")
            x = (
                f"{len(tl['expressible'])}/{len(tl['expressible']) + len(tl['not_expressible'])}"
                if tl
                else "-"
            )
            own = tasks.get(name, [])
            eq = f"{sum(1 for t in own if t['outcome'] == 'equal')}/{len(own)}" if own else "-"
            print(
                f"  {half} {name:<16} {row['wrap_seconds']:>6} {row['verbs']:>3} picks {p:<6} "
                f"tldr {x:<6} tasks {eq:<5} {f}"
            )
    issue = result.get("issue28") or {}
    if issue:
        print("\n== issues 26 and 28: the goals on the held-out half (the 22 are in it)")
        for regime, facts in issue.items():
            print(f"  [{regime}]")
            for key, value in facts.items():
                print(f"    {key}: {value}")
    largest = result.get("largest") or {}
    if largest:
        print(
            "\n== the largest CLIs, wrapped cold (goal <= 30 s, offering their examples' commands)"
        )
        for name, row in largest.items():
            print(f"  {name}: {row}")
    print(f"\nbench wall time {result['seconds']} s")


def markdown(result: dict) -> str:
    """The summary table and the per-tool table of the 22, as docs/benchmarks.md shows them."""
    lines = [
        "| half, regime | packs/tools | expert picks | forbidden | tldr examples expressible "
        "| tried tasks equal |",
        "|---|---|---|---|---|---|",
    ]
    halves = result["halves"]
    for regime, rows in result["regimes"].items():
        tasks = result["tasks"].get(regime)
        for half in ("held_out", "tuning"):
            names = [n for n in halves[half] if n in rows]
            if names:
                lines.append(
                    table_line(f"{half.replace('_', '-')}, {regime}", totals(rows, names, tasks))
                )
        test = [n for n in result["test_set"] if n in rows]
        if test:
            lines.append(table_line(f"the 22 of issue 26, {regime}", totals(rows, test, tasks)))
    lines += [
        "",
        "| tool | regime | wrap s | verbs | picks | tldr | tasks equal | forbidden present |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name in result["test_set"]:
        for regime, rows in result["regimes"].items():
            row = rows.get(name)
            if row is None:
                continue
            if "verbs" not in row:
                lines.append(f"| {name} | {regime} | {row['wrap_seconds']} | no pack | | | | |")
                continue
            picks, tldr = row.get("picks"), row.get("tldr")
            own = result["tasks"].get(regime, {}).get(name, [])
            lines.append(
                f"| {name} | {regime} | {row['wrap_seconds']} | {row['verbs']} | "
                + (
                    f"{len(picks['present'])}/{len(picks['present']) + len(picks['missing'])}"
                    if picks
                    else "-"
                )
                + " | "
                + (
                    f"{len(tldr['expressible'])}/{len(tldr['expressible']) + len(tldr['not_expressible'])}"
                    if tldr
                    else "-"
                )
                + f" | {sum(1 for t in own if t['outcome'] == 'equal')}/{len(own)} | "
                + (", ".join(picks["forbidden"]) if picks else "")
                + " |"
            )
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------
# issue 28's goals, from the task rows and check's findings


def issue28(result: dict, tools: dict) -> dict:
    halves = result["halves"]
    scope = set(halves["held_out"]) | set(result["test_set"])
    out = {}
    for regime, task_rows in result["tasks"].items():
        wrote, findings_ok, findings_of, ddash = [], 0, 0, []
        for name, rows in task_rows.items():
            if name not in scope:
                continue
            kinds = set(tools[name]["kinds"])
            for row in rows:
                if row.get("wrote"):
                    wrote.append(f"{row['id']} ({row.get('verb')}: {', '.join(row['wrote'][:3])})")
                if kinds & {"linter", "test-runner", "search"} and row.get("expect_exit"):
                    if row["outcome"] not in ("not expressible", "not tried", "task broken"):
                        findings_of += 1
                        findings_ok += row["outcome"] == "equal"
                if row["outcome"] == "error" and "--" in str(row.get("error", "")):
                    if re.search(
                        r"unknown option|unrecognized|invalid option", str(row["error"]), re.I
                    ):
                        ddash.append(row["id"])
        calls: dict[str, list[str]] = {}  # verb -> outcomes of the tasks that called it
        for name, rows in task_rows.items():
            if name in scope:
                for row in rows:
                    if row.get("verb"):
                        calls.setdefault(f"{name} {row['verb']}", []).append(row["outcome"])
        failing = sorted(verb for verb, seen in calls.items() if set(seen) == {"error"})
        checks = result.get("checks", {}).get(regime, {})
        codes: dict[str, int] = {}
        for name, check in checks.items():
            if name in scope:
                for code, count in (check.get("codes") or {}).items():
                    codes[code] = codes.get(code, 0) + count
        out[regime] = {
            "read verbs that wrote into the fixture (bench)": wrote or "none",
            "findings of linters, test runners, search tools in the envelope": f"{findings_ok}/{findings_of}",
            "tasks failing on an option error (a '--' or a flag the tool rejects)": ddash or "none",
            "verbs that failed every task that called them": failing or "none",
            "check --try --probe codes": dict(sorted(codes.items())),
        }
        rows26 = result["regimes"].get(regime, {})
        out[regime]["one-verb packs of tools whose tldr page shows several uses"] = (
            sorted(
                name
                for name, row in rows26.items()
                if name in scope and row.get("verbs") == 1 and row.get("uses", 0) >= 2
            )
            or "none"
        )
        out[regime]["verbs lacking an operand every use of them gives"] = (
            sorted(
                f"{name} {verb}"
                for name, row in rows26.items()
                if name in scope
                for verb in row.get("operand_missing") or []
            )
            or "none"
        )
    return out


# ---------------------------------------------------------------------------------------------


REGIMES = ("usage", "no-usage")


def parse_regimes(text: str) -> list[str]:
    """``--regimes``: ``usage``, ``no-usage``, ``both`` or a comma list of them, in the order given
    (``both``: usage, then no-usage); [] where a word is none of them."""
    words = [word.strip() for word in text.split(",") if word.strip()]
    regimes = [r for word in words for r in (REGIMES if word == "both" else (word,))]
    if not regimes or any(r not in REGIMES for r in regimes):
        return []
    return list(dict.fromkeys(regimes))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--half", default="both", choices=["tuning", "held_out", "both"])
    parser.add_argument("--tools", help="comma-separated tool names (default: the half's tools)")
    parser.add_argument("--regimes", default="both", help="usage, no-usage or both (default: both)")
    parser.add_argument("--tldr", default=str(DEFAULT_TLDR), help="a tldr-pages checkout")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--json", metavar="OUT", help="also write every figure as JSON to OUT")
    parser.add_argument(
        "--markdown", metavar="OUT", help="also write the tables as Markdown to OUT"
    )
    parser.add_argument(
        "--merge",
        nargs="+",
        metavar="JSON",
        help="run nothing: report the union of earlier runs' --json files (a tool in several: the last)",
    )
    parser.add_argument("--no-tasks", action="store_true", help="skip the tried tasks")
    parser.add_argument("--no-check", action="store_true", help="skip wrapgen check --try --probe")
    parser.add_argument(
        "--no-try",
        action="store_true",
        help="wrap with --no-try: the proposals alone, before any trial (with --no-tasks "
        "--no-check, a ranking change judged on a half in minutes; not the goals' figures)",
    )
    options = parser.parse_args(argv)
    started = time.monotonic()
    tools = {tool["tool"]: tool for tool in json.loads((DATA / "tools.json").read_text())["tools"]}
    if options.merge:
        result = merge([json.loads(Path(name).read_text()) for name in options.merge], tools)
        return finish(result, options)
    split = json.loads((DATA / "split.json").read_text())
    halves = {"tuning": split["tuning"], "held_out": split["held_out"]}
    names = (
        halves["tuning"] + halves["held_out"] if options.half == "both" else halves[options.half]
    )
    if options.tools:
        wanted = [name.strip() for name in options.tools.split(",") if name.strip()]
        unknown = [name for name in wanted if name not in tools]
        if unknown:
            parser.error(f"not in bench/data/tools.json: {', '.join(unknown)}")
        names = [name for name in names if name in wanted] or wanted
    absent = [name for name in names if not shutil.which(tools[name]["bin"])]
    if absent:
        print(f"not installed, left out: {', '.join(absent)}", file=sys.stderr)
    names = [name for name in names if name not in absent]
    regimes = parse_regimes(options.regimes)
    if not regimes:
        parser.error("--regimes takes usage, no-usage or both (or usage,no-usage)")
    tldr_root = Path(options.tldr)
    if not (tldr_root / "pages").is_dir():
        print(f"no tldr-pages at {tldr_root}: tldr examples not scored", file=sys.stderr)
        tldr_root = None
    picks = load_picks()
    task_tools = load_tasks(tools)
    why_not = pt.bwrap_works()
    result: dict = {
        "sandbox": "bwrap" if why_not is None else f"NONE: {why_not}",
        "trials": not options.no_try,
        "halves": halves,
        "test_set": split["test_set"],
        "absent": absent,
        "regimes": {},
        "tasks": {},
        "checks": {},
        "wraps": {},
    }
    scratch = Path(tempfile.mkdtemp(prefix="wrapgen-evaluate-"))
    try:
        for regime in regimes:
            # no-usage: the held-out tools, and tuning tools named by --half tuning (the help-only
            # rules are tuned there: the table then knows none of the tools being wrapped)
            chosen = [
                n
                for n in names
                if regime == "usage" or n in halves["held_out"] or options.half == "tuning"
            ]
            hidden = sorted(set(halves["held_out"]) | set(chosen))
            infos = wrap(
                [tools[n] for n in chosen],
                regime,
                scratch,
                options.jobs,
                hidden,
                trials=not options.no_try,
            )
            result["wraps"][regime] = {
                n: {k: v for k, v in info.items() if k != "pack"} for n, info in infos.items()
            }
            rows = {n: judge_tool(n, infos[n], picks, tldr_root) for n in chosen}
            result["regimes"][regime] = rows
            packs = {n: info["pack"] for n, info in infos.items() if "pack" in info}
            if not options.no_check:
                with concurrent.futures.ThreadPoolExecutor(max_workers=options.jobs) as pool:
                    result["checks"][regime] = dict(
                        zip(packs, pool.map(check_pack, packs.values()))
                    )
            if not options.no_tasks:
                runnable = [
                    dict(
                        task_tools[n],
                        tasks=[
                            dict(task, match=with_aliases(task["match"], groups_of(packs[n])))
                            for task in task_tools[n]["tasks"]
                        ],
                    )
                    for n in chosen
                    if n in task_tools and n in packs
                ]
                with concurrent.futures.ThreadPoolExecutor(max_workers=options.jobs) as pool:
                    reports = list(
                        pool.map(
                            lambda tool, packs=packs, regime=regime: pt.run_tool(
                                tool,
                                sets={regime: packs},
                                use_bwrap=why_not is None,
                                scratch=scratch,
                            ),
                            runnable,
                        )
                    )
                result["tasks"][regime] = {
                    report["tool"]: [
                        dict(
                            task[regime],
                            id=task["id"],
                            expect_exit=next(
                                (
                                    t.get("expect_exit", 0)
                                    for t in task_tools[report["tool"]]["tasks"]
                                    if t["id"] == task["id"]
                                ),
                                0,
                            ),
                        )
                        for task in report["tasks"]
                        if task.get(regime)
                    ]
                    for report in reports
                }
        result["seconds"] = round(time.monotonic() - started, 1)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return finish(summarise(result, tools), options)


def summarise(result: dict, tools: dict) -> dict:
    """The figures computed from the rows: the largest CLIs and the goals of issues 26 and 28."""
    result["largest"] = {
        name: {
            "cold wrap s": result["wraps"]["usage"][name]["seconds"],
            "offers": (result["regimes"]["usage"][name].get("offers") or {LARGEST[name]: None}),
        }
        for name in LARGEST
        if name in result["wraps"].get("usage", {})
    }
    result["issue28"] = issue28(result, tools)
    return result


def merge(results: list[dict], tools: dict) -> dict:
    merged = dict(results[0], regimes={}, tasks={}, checks={}, wraps={}, absent=[])
    for result in results:
        for key in ("regimes", "tasks", "checks", "wraps"):
            for regime, rows in result.get(key, {}).items():
                merged[key].setdefault(regime, {}).update(rows)
    for key in ("regimes", "tasks", "checks", "wraps"):  # usage first, as a run prints them
        merged[key] = dict(sorted(merged[key].items(), key=lambda item: item[0] != "usage"))
    present = {name for rows in merged["regimes"].values() for name in rows}
    merged["absent"] = sorted({n for r in results for n in r.get("absent", [])} - present)
    merged["seconds"] = sum(result.get("seconds", 0) for result in results)
    return summarise(merged, tools)


def finish(result: dict, options) -> int:
    print_report(result)
    if options.markdown:
        Path(options.markdown).write_text(markdown(result))
    if options.json:
        Path(options.json).write_text(
            json.dumps(result, indent=1, sort_keys=True, default=str) + "\n"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
