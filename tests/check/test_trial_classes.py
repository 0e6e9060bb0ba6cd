"""The classes a trial's outcome falls in beyond the first ones: files changed or deleted, the tool's own
state, crashes, binary output, declared answers, a failure's reason, and sample files by kind."""

from __future__ import annotations

import pytest

from wrapgen.check.trial_evidence import (
    classify,
    failure_reason,
    home_writes,
    is_state,
    sample_args,
    sample_inputs,
)
from wrapgen.knowledge.trials import sample_for
from wrapgen.model.trial import TrialOutcome


def _out(**fields) -> TrialOutcome:
    return TrialOutcome("show", ("tool", "show"), **{"exit_code": 0, **fields})


def test_a_changed_or_deleted_input_is_a_write():
    """A read that deletes or rewrites a file it was given writes (a task whose recipe deletes a file)."""
    deleted = classify(_out(removed_paths=("work/sample.txt",)))
    assert deleted.kind == "writes" and deleted.detail == "deleted work/sample.txt"
    changed = classify(_out(changed_paths=("work/sample.json",), new_paths=("work/out",)))
    assert changed.detail == "created work/out; changed work/sample.json"


def test_the_tools_own_state_in_home_is_no_write():
    """HOME paths learned as the tool's own state are not a write of the verb; other paths still are."""
    outcome = _out(new_paths=("home/.tooldir/", "home/.tooldir/signature"))
    assert classify(outcome).kind == "writes"
    assert classify(outcome, state=("home/.tooldir/",)).kind == "ok"
    both = _out(new_paths=("home/.tooldir/signature", "work/result.txt"))
    found = classify(both, state=("home/.tooldir/",))
    assert found.kind == "writes" and found.detail == "created work/result.txt"
    assert is_state("home/.tooldir/a/b", ["home/.tooldir/"]) and not is_state(
        "home/.tooldirx", ["home/.tooldir/"]
    )
    assert home_writes(both) == ("home/.tooldir/signature",)


@pytest.mark.parametrize(
    ("fields", "detail"),
    [
        ({"signal": 11, "exit_code": None}, "killed by signal 11"),
        (
            {
                "exit_code": 1,
                "stderr": "Traceback (most recent call last):\n  File x\nKeyError: 'a'",
            },
            "'KeyError: 'a''",
        ),
        (
            {
                "exit_code": 2,
                "stderr": "panic: runtime error: index out of range\n\ngoroutine 1 [running]:",
            },
            "'panic: runtime error: index out of range'",
        ),
    ],
)
def test_a_crash_is_left_out_with_its_reason(fields, detail):
    """An uncaught exception, a panic or a fault on the sample inputs: left out, saying so."""
    evidence = classify(_out(**fields))
    assert evidence.kind == "crashed" and evidence.action == "drop" and evidence.detail == detail


def test_binary_output_is_garbage_unless_json():
    """A text verb printing binary data is left out; the trial keeps no such bytes."""
    assert classify(_out(binary_output=True)).kind == "garbage"


def test_a_declared_answer_status_is_no_failure():
    """exit 1 that the verb declares ("no matches") is an answer, with its meaning."""
    outcome = _out(exit_code=1, stdout="")
    assert classify(outcome).kind == "failed"
    answered = classify(outcome, answers={"1": "no matches"})
    assert answered.kind == "answered" and answered.detail == "exit 1: no matches"
    assert "answered" in answered.words and answered.action == "keep"
    assert answered.answer is None  # declared already: nothing to learn


@pytest.mark.parametrize(
    ("stdout", "meaning"),
    [
        ("1c1\n< a\n---\n> b\n", "differences found"),
        ("src/a.py:3:1: F401 'os' imported but unused\n", "findings reported"),
        ("FAILED tests/test_a.py::test_one - assert 1 == 2\n1 failed, 2 passed\n", "tests failed"),
        ("would reformat sample.py\n", "changes needed"),
    ],
)
def test_an_answer_on_stdout_is_learned(stdout, meaning):
    """A non-zero exit whose stdout holds findings, failed tests or differences (and stderr no error)
    is an answer the verb then declares."""
    learned = classify(_out(exit_code=1, stdout=stdout))
    assert learned.kind == "answered" and learned.answer == (1, meaning)
    assert "declared in its exit_codes" in learned.words


def test_an_error_on_stderr_is_no_answer():
    """Findings-like output with an error of the tool's own on stderr stays a failure."""
    said = _out(exit_code=2, stdout="a.py:1:1: x\n", stderr="error: cannot read config\n")
    assert classify(said).kind == "failed"


def test_a_failure_gives_its_reason_in_a_few_words():
    """The status and the last line the tool said, shortened; never a bare exit code when it said something."""
    said = _out(exit_code=1, stderr="warming up\nError: no such table: items\n")
    assert classify(said).detail == "exit 1: 'Error: no such table: items'"
    long = "Error: " + "word " * 40
    assert len(failure_reason(_out(exit_code=3, stderr=long))) < 100
    assert failure_reason(_out(exit_code=4)) == "exit 4"


@pytest.mark.parametrize(
    "said",
    [
        "error: missing widget NAME",
        "Error: Missing argument 'FILE'.",
        "no input files",
        "not enough arguments",
    ],
)
def test_missing_words_mean_an_operand_is_lacking(said):
    """A "missing" message names what the call did not give: the verb lacks an operand."""
    assert classify(_out(exit_code=2, stderr=said)).kind == "lacks-operand"


def test_missing_something_else_is_a_plain_failure():
    """'missing dependency libfoo' names no argument."""
    assert classify(_out(exit_code=1, stderr="missing dependency libfoo")).kind == "failed"


@pytest.mark.parametrize(
    ("name", "description", "context", "expected"),
    [
        ("file", "", "", "sample.txt"),
        ("db_path", "", "", "sample.db"),
        ("path", "Path to the SQLite database file", "", "sample.db"),
        ("path", "a directory to list", "", "."),
        ("files", "", "Command-line JSON processor.", "sample.json"),
        ("input", "CSV file to read", "", "sample.csv"),
        ("repository", "", "", "sample-repo"),
        ("archive", "", "", "sample.tar"),
        ("cert", "", "", "sample.crt"),
        ("query", "SQL query to run against the database file", "", "."),
        ("key", "a key to look up", "", "sample"),
        ("image", "the container image", "", "sample"),
        ("rev", "", "", "HEAD"),
        # a binary inspector's operands: an ELF program; a compressor's inputs: its own format
        ("binary", "The binary the command works on", "", "sample.elf"),
        ("elf_file", "", "", "sample.elf"),
        ("files", "", "Display information from object files.", "sample.elf"),
        ("file", "", "Compress or decompress .lz4 files.", "sample.txt.lz4"),
        ("file", "", "a block-sorting file compressor (bzip2)", "sample.txt.bz2"),
        # a numbered one of several files ("infile1 ..."), of a tool that reads sound
        ("infile1s", "", "display sound file metadata", "sample.wav"),
    ],
)
def test_a_file_operand_gets_a_sample_file_of_its_kind(name, description, context, expected):
    """The kind comes from the arg's name, its description, then the verb's and pack's words."""
    assert sample_for(name, description, context) == expected


def test_sample_args_name_their_inputs():
    """The sample files the args name are the inputs the trial makes, in order."""
    schema = {
        "type": "object",
        "properties": {
            "database": {"type": "string"},
            "files": {"type": "array", "items": {"type": "string"}},
            "table": {"type": "string"},
        },
        "required": ["database", "files", "table"],
    }
    args = sample_args(schema, context="Tools for CSV files")
    assert args == {"database": "sample.db", "files": ["sample.csv"], "table": "sample"}
    assert sample_inputs(args) == ("sqlite", "csv")


def test_a_usage_error_is_no_answer_though_its_status_is_one():
    """exit 1 declared "changes needed", but the tool printed its usage: it lacks an operand."""
    said = _out(
        exit_code=1, stderr="Usage: fmt [OPTIONS] SRC ...\n\nOne of 'SRC' or 'code' is required."
    )
    assert classify(said, answers={"1": "changes needed"}).kind == "lacks-operand"


def test_a_refused_sample_value_is_no_defect():
    """The tool refused the made-up 'sample' value: could not be tried, no W06x finding."""
    from wrapgen.check.trial_evidence import TRIAL_CODES

    said = classify(_out(exit_code=2, stderr="error: invalid value 'sample' for '[RULE]'"))
    assert said.kind == "sample-refused" and said.kind not in TRIAL_CODES


def test_a_json_list_with_a_non_zero_status_is_findings():
    """JSON selected, exit 1, a non-empty list and no error on stderr: what it found; an object is not."""
    found = _out(exit_code=1, stdout='[{"code": "F401"}]', json_selected=True, stdout_json=True)
    assert classify(found).answer == (1, "findings reported")
    error = _out(exit_code=1, stdout='{"error": "bad"}', json_selected=True, stdout_json=True)
    assert classify(error).kind == "failed"


@pytest.mark.parametrize(
    ("name", "description", "expected"),
    [
        ("srcs", "File or directory paths", "."),
        ("file", "file or directory to check", "sample.txt"),  # named a file: a file
        ("path", "a file to read", "sample.txt"),
    ],
)
def test_a_file_or_directory_arg_gets_the_working_directory(name, description, expected):
    """A path that may be a directory gets '.', which holds the sample text, Python and JSON files;
    an arg named a file stays a file."""
    assert sample_for(name, description) == expected


@pytest.mark.parametrize(
    ("name", "description", "expected"),
    [
        ("maxdepth", "Descend at most levels of directories below the starting-points", "1"),
        ("levels", "", "1"),
        ("limit", "how many to show", "1"),
    ],
)
def test_a_depth_level_or_limit_gets_a_number(name, description, expected):
    """A finder's -maxdepth LEVELS refuses a word ('Expected a positive decimal integer')."""
    assert sample_for(name, description) == expected
