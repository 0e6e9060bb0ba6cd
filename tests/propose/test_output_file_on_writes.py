"""The file a write's uses name: an encoder whose every use passes ``-o FILE`` (an image, an
archive, a rendered page) gets that flag on its write verb. A read never takes it, and a write no
use or example passes it to does not get it either: the pack does not choose where a tool's output
goes unless the people who use the tool do. Writing the file is what the write verb declares; its
confirm gate asks first and its sandbox bounds where the file can go (tests/live: a path outside the
working directory is refused).
"""

from __future__ import annotations

import pytest

from conftest import require_tool
from wrapgen.knowledge.dangerous_flags import dangerous_reason, output_file_flag
from wrapgen.model.tool import Command, Flag, Positional, Tool
from wrapgen.model.usage import UsageEvidence, Use, UsedOperand
from wrapgen.propose import propose
from wrapgen.propose.args import plan_args

OUTPUT = Flag(
    long="--output",
    short="-o",
    takes_value=True,
    value_name="FILENAME",
    description="write the image to FILENAME.",
)
LEVEL = Flag(
    long="--level",
    short="-l",
    takes_value=True,
    value_name="LEVEL",
    choices=("L", "M", "Q", "H"),
    description="error correction level.",
)
# a catalogue entry holds its own reason (a VCS's log --output): never lifted by uses
CATALOGUED = Flag(
    long="--output", takes_value=True, value_name="FILE", description="Output to a file."
)
FORMAT = Flag(
    long="--output", short="-o", takes_value=True, description="Output format: json or text."
)
STRING = UsedOperand("string", "string")


def _encoder() -> Command:
    return Command(
        path=(),
        summary="Encode input data in a symbol and save it as an image.",
        usage=("wgenc [-o FILENAME] [OPTION]... [STRING]",),
        flags=(OUTPUT, LEVEL),
        positionals=(Positional("STRING", required=False),),
    )


EVERY_USE_WRITES = (
    Use(path=(), flags=("-o",), valued=("-o",), operands=(STRING,), count=3),
    Use(path=(), flags=("-o", "-l"), valued=("-o", "-l"), operands=(STRING,), count=1),
)


def _args(effect: str, uses=EVERY_USE_WRITES) -> set[str]:
    plan = plan_args(_encoder(), tool="wgenc", effect=effect, uses=uses, fill=True)
    return set(plan.properties)


def test_the_class_is_a_file_destination_no_catalogue_entry_holds():
    assert output_file_flag(OUTPUT, tool="wgenc")
    assert dangerous_reason(OUTPUT, tool="wgenc")  # still never on a read
    assert not output_file_flag(FORMAT, tool="wgenc")  # a format, no destination
    assert not output_file_flag(LEVEL, tool="wgenc")
    assert dangerous_reason(CATALOGUED, tool="git")
    assert not output_file_flag(CATALOGUED, tool="git")


def test_a_write_whose_uses_name_the_file_offers_the_flag():
    assert "output" in _args("write")
    assert "output" in _args("destructive")


def test_a_read_never_offers_it_whatever_the_uses():
    assert "output" not in _args("read")


def test_a_write_no_use_passes_it_to_does_not_offer_it():
    uses = (Use(path=(), flags=("-l",), valued=("-l",), operands=(STRING,), count=3),)
    assert "output" not in _args("write", uses)
    assert "output" not in _args("write", ())


def test_the_proposal_gives_the_encoders_write_its_file():
    """Through propose: the main mode, a write (no word says it reads), asks for the file."""
    usage = (UsageEvidence(tool="wgenc", source="tldr-pages", uses=EVERY_USE_WRITES),)
    manifest = propose(Tool(name="wgenc", root=_encoder()), usage=usage).manifest
    writes = {k: v for k, v in manifest["verbs"].items() if v["policy"]["effect"] != "read"}
    assert writes
    for verb in writes.values():
        assert any(str(t).startswith(("--output", "-o")) for t in verb["cli"]), verb["cli"]
    for verb in manifest["verbs"].values():
        if verb["policy"]["effect"] == "read":
            assert not any(str(t).startswith(("--output", "-o")) for t in verb["cli"])


@pytest.mark.live
def test_a_wrapped_encoder_writes_its_file_in_the_working_directory_only(tmp_path):
    """A real encoder (qrencode) wrapped with its tldr uses: its write verb writes the file it is
    given inside the working directory, and the sandbox refuses one outside it."""
    require_tool("qrencode")
    import json
    import subprocess
    import sys

    out = tmp_path / "packs"
    done = subprocess.run(
        [sys.executable, "-m", "wrapgen", "wrap", "qrencode", "-o", str(out), "--no-try"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    work = tmp_path / "work"
    work.mkdir()

    def call(output: str) -> dict:
        ran = subprocess.run(
            [sys.executable, "-m", "wrapgen", "exec", str(out / "qrencode"), "qrencode", "--json"]
            + ["--", "string=hello", f"output={output}", "confirm=true"],
            capture_output=True,
            text=True,
            timeout=300,
            cwd=work,
        )
        return json.loads(ran.stdout)

    assert call("code.png")["ok"] is True
    assert (work / "code.png").read_bytes().startswith(b"\x89PNG")
    outside = tmp_path / "outside.png"
    refused = call(str(outside))
    assert refused["ok"] is False and not outside.exists()
