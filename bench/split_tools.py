"""Split the benchmark's tools into a tuning half and a held-out half, by a fixed rule.

    python3 bench/split_tools.py           # check that bench/data/split.json follows the rule
    python3 bench/split_tools.py --write   # write it (after adding tools to bench/data/tools.json)

The rule (also written into split.json, with its reason):

1. The 22 tools of issue 26's "Where it stands" are held out: they are the test set no one tunes on.
2. The tools the project was already tuned on are in the tuning half (``seen`` in split.json: the
   tools of the benchmark before the split, and those with captured help in ``tests/fixtures/help``
   or measured by ``bench/discover_accuracy.py``).
3. Every other tool is held out when the first hex digit of the SHA-256 of its name (UTF-8) is
   0-9, and in the tuning half when it is a-f. A tool's half depends on its name alone, so adding a
   tool never moves another.

Nobody tunes wrapgen on the held-out half: no rule, knowledge entry or weight is changed because of
what a held-out tool's pack looks like; its figures are reported, never chased.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
TOOLS_FILE = DATA / "tools.json"
SPLIT_FILE = DATA / "split.json"

TEST_SET = (
    "terraform aws gcloud bq mvn sqlite3 ffprobe pandoc openssl gpg ip ss lsblk shellcheck "
    "pytest mypy yt-dlp sqlite-utils pnpm tsc mlr zstd"
).split()

# the benchmark's 35 tools at c6ab68f (bench/data/pack_tasks.json and expert_picks.json), then the
# tools with captured help in tests/fixtures/help or a row in bench/discover_accuracy.py
SEEN = (
    "git gh kubectl docker rclone hugo restic rg fd ruff uv http black pip ls du cut sort wc head "
    "tar xz gzip grep sed find jq curl make npm yarn composer poetry pm2 amtool "
    "cargo flask apt diff ssh systemctl ps runc typeorm just"
).split()

HELD_OUT_DIGITS = "0123456789"

RULE = (
    "1. the 22 tools of issue 26's 'Where it stands' are held out (the test set); 2. the tools "
    "listed in 'seen' (already tuned on: the benchmark's 35 tools at c6ab68f, and tools with "
    "captured help in tests/fixtures/help or measured by bench/discover_accuracy.py) are in the "
    "tuning half; 3. every other tool is held out when the first hex digit of sha256(name, UTF-8) "
    "is 0-9, tuning when a-f."
)
REASON = (
    "A figure on tools the rules were tuned on says little about a tool nobody looked at; the "
    "held-out half measures that, so nobody tunes wrapgen on it. The rule is mechanical so that no "
    "one chose which tools are easy; a hash of the name alone keeps every tool's half fixed when "
    "tools are added. 10 of 16 digits go to the held-out half because the tools already tuned on "
    "(45) outnumber the test set (22): the halves come out about equal."
)


def half_of(name: str) -> str:
    if name in TEST_SET:
        return "held_out"
    if name in SEEN:
        return "tuning"
    digit = hashlib.sha256(name.encode("utf-8")).hexdigest()[0]
    return "held_out" if digit in HELD_OUT_DIGITS else "tuning"


def split(tools: list[str]) -> dict:
    halves: dict[str, list[str]] = {"tuning": [], "held_out": []}
    for name in sorted(tools):
        halves[half_of(name)].append(name)
    return {
        "rule": RULE,
        "reason": REASON,
        "test_set": sorted(TEST_SET),
        "seen": sorted(SEEN),
        "tuning": halves["tuning"],
        "held_out": halves["held_out"],
    }


def render(data: dict) -> str:
    lines = ["{"]
    keys = list(data)
    for index, key in enumerate(keys):
        comma = "," if index < len(keys) - 1 else ""
        lines.append(f" {json.dumps(key)}: {json.dumps(data[key])}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="write bench/data/split.json")
    options = parser.parse_args(argv)
    tools = [tool["tool"] for tool in json.loads(TOOLS_FILE.read_text())["tools"]]
    missing = [name for name in TEST_SET if name not in tools]
    if missing:
        print(f"the test set's tools are missing from tools.json: {missing}", file=sys.stderr)
        return 1
    wanted = render(split(tools))
    if options.write:
        SPLIT_FILE.write_text(wanted)
    elif not SPLIT_FILE.is_file() or SPLIT_FILE.read_text() != wanted:
        print(f"{SPLIT_FILE} does not follow the rule: run with --write", file=sys.stderr)
        return 1
    data = json.loads(wanted)
    print(f"{len(tools)} tools: tuning {len(data['tuning'])}, held out {len(data['held_out'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
