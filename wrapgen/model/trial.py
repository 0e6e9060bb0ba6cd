"""What one trial of a verb showed: the value ``wrapgen.probe.trial`` returns and ``wrapgen.check.trial_evidence`` reads.

A trial runs a read verb of a proposed (or existing) pack for real, with sample args, in the probe
sandbox (``wrapgen/probe/sandbox.py``). ``TrialOutcome`` holds only what the process did, with the
scratch directories already taken out of every path (``new_paths`` are relative: ``work/x``,
``home/.config/y``), so classifying it is a pure function and its words are the same every run.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

__all__ = ["TrialOutcome", "is_json_text"]


def is_json_text(text: str) -> bool:
    """Whether ``text`` is one JSON document, or JSON lines (one document per non-empty line)."""
    text = text.strip()
    if not text:
        return False
    try:
        json.loads(text)
        return True
    except ValueError:
        pass
    try:
        for line in text.splitlines():
            if line.strip():
                json.loads(line)
        return True
    except ValueError:
        return False


@dataclass(frozen=True)
class TrialOutcome:
    verb: str
    argv: tuple[str, ...]  # what ran, after the bin's path: ("git", "log", "--max-count=5")
    exit_code: int | None = None
    signal: int | None = None
    timed_out: bool = False
    output_capped: bool = False
    stdout: str = ""  # the start of what it printed
    stderr: str = ""
    new_paths: tuple[str, ...] = ()  # what appeared in the scratch cwd or HOME ("work/out.txt")
    changed_paths: tuple[str, ...] = ()  # files there before whose size or mtime changed
    removed_paths: tuple[str, ...] = ()  # what was there before and is gone ("work/sample.txt")
    inputs: tuple[str, ...] = ()  # the kinds of sample file made for it ("json", "cwd:git")
    binary_output: bool = False  # stdout was binary (NUL bytes, mostly control characters)
    json_selected: bool = False  # the verb's JSON selection was rendered into argv
    stdout_json: bool | None = (
        None  # whether all of stdout (up to the cap) parsed as JSON; None: not judged
    )
    tried_in: bool = False  # the cwd was a copy of the user's --try-in directory
    not_run: str = (
        ""  # why it was not run (a write verb, no sandbox, sample args do not render, no fixture)
    )
    sandbox_failed: str = ""  # bubblewrap itself failed to start: its first line
    # at its timeout, its processes held no socket or file watch and had mostly slept, after trying to
    # reach the network the sandbox does not give: waiting to try again, not serving, watching or working
    retrying_network: bool = False
    # at its timeout, its processes had tried to reach the network, whatever else they were doing
    tried_network: bool = False
