"""A dry-run switch whose help says it only prints and leaves the files as they are is the read form
of its write command (oclif: every command writes, so without these a pack held 4 writes and
nothing else)."""

from __future__ import annotations

from conftest import FIXTURES
from wrapgen.model.tool import Command, Flag
from wrapgen.parse import parse_help
from wrapgen.propose.select import Candidate, preview_modes


def test_oclif_generate_dry_run_is_a_read_form():
    text = (FIXTURES / "help" / "oclif" / "oclif_generate.txt").read_text()
    command = parse_help(text, prog=("oclif", "generate"), style="oclif")
    modes = preview_modes(Candidate(path=("generate",), command=command), "write")
    assert [m.fixed for m in modes] == [("--dry-run",)], [m.fixed for m in modes]
    assert modes[0].name == "generate.dry-run"
    assert modes[0].summary.startswith("Print the files that would be created")


def test_prints_without_modifying_is_a_preview_and_other_switches_are_not():
    readme = Command(
        path=("readme",),
        summary="Adds commands to README.md in current directory.",
        flags=(
            Flag(
                long="--dry-run",
                description="Prints the generated README without modifying the file.",
            ),
            Flag(long="--multi", description="Create a different markdown page for each topic."),
            Flag(long="--force", description="Overwrite without asking."),
            Flag(long="--no-newline", description="Print the name without a trailing newline."),
        ),
    )
    modes = preview_modes(Candidate(path=("readme",), command=readme), "write")
    assert [m.fixed for m in modes] == [("--dry-run",)]
    kept = {f.long for f in modes[0].command.flags}
    assert {"--dry-run", "--no-newline"} <= kept, kept
