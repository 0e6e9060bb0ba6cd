"""A probe that times out is run once more before its command becomes a stub (issue 28 item 9),
with a second bound scaled by how long the tool's answered probes took: discovery reads the same
tree on a busy machine, where any probe may miss its first bound, as on a quiet one.

"Slow" is simulated by a fake tool, never measured: its subcommand's first `--help` sleeps far past
any bound (so it times out on every machine) and the next one answers at once."""

from __future__ import annotations

import os
import sys
import textwrap
from pathlib import Path

from wrapgen.parse import parse_help
from wrapgen.probe.crawl import crawl
from wrapgen.probe.prober import RETRY_FACTOR, RETRY_UNKNOWN, Prober

# A cobra-like tool: the root lists `fast`, `slow` and `stuck`. `slow --help` sleeps on its first
# run (a machine too busy to answer within the bound) and answers on the next; `stuck --help`
# always sleeps; `--help` of the root sleeps WG_ROOT_SLEEP seconds first. Each run is logged.
TOOL = textwrap.dedent("""\
    #!{python}
    import os, sys, time
    args = sys.argv[1:]
    log = os.environ["WG_LOG"]
    with open(log, "a") as handle:
        handle.write(" ".join(args) + "\\n")
    runs = open(log).read().splitlines().count(" ".join(args))
    def page(name, usage, commands=""):
        listing = f"\\nAvailable Commands:\\n{{commands}}" if commands else ""
        print(f"{{name}}\\n\\nUsage:\\n  {{usage}}\\n{{listing}}\\nFlags:\\n  -h, --help   help\\n"
              f"  -v, --verbose   say more\\n")
    if args == ["--help"]:
        time.sleep(float(os.environ.get("WG_ROOT_SLEEP", "0")))
        page("A tool.", "tool [command]",
             "  fast        Fast one\\n  slow        Slow one\\n  stuck       Stuck one\\n")
    elif args == ["slow", "--help"] and runs == 1 or args[:1] == ["stuck"]:
        time.sleep(600)
    elif args[-1:] == ["--help"]:
        page(f"The {{args[0]}} command.", f"tool {{args[0]}} [flags]")
    else:
        sys.exit(2)
    """)


def _tool(tmp_path: Path) -> Path:
    path = tmp_path / "tool"
    path.write_text(TOOL.format(python=sys.executable))
    path.chmod(0o755)
    return path


def _prober(tool: Path, log: Path, **env) -> Prober:
    # (the log lives outside the probe's scratch directories: no sandbox for this fake tool)
    environment = dict(os.environ, WG_LOG=str(log), **env)
    return Prober(
        str(tool), name="tool", timeout_s=5, env=environment, use_man=False, sandbox=False
    )


def test_a_probe_that_times_out_is_run_again_and_its_command_read(tmp_path):
    """`slow --help` missed its bound once and answered when run again: `slow` is read, not a stub,
    and no warning says otherwise; `stuck`, which never answers, is a stub whose warning says it
    was run twice."""
    log = tmp_path / "log"
    with _prober(_tool(tmp_path), log) as prober:
        result = crawl(prober, parse_help, depth=1)
    children = {c.name: c for c in result.root.subcommands}
    assert not children["slow"].stub and children["slow"].description == "The slow command."
    assert not children["fast"].stub
    assert children["stuck"].stub
    runs = log.read_text().splitlines()
    assert runs.count("slow --help") == 2 and runs.count("stuck --help") == 2
    assert runs.count("fast --help") == 1  # an answered probe is never run again
    assert not any("tool slow" in w for w in result.warnings), result.warnings
    (stuck,) = [w for w in result.warnings if "tool stuck" in w]
    assert "did not finish within 5 s, nor within" in stuck and "when run again" in stuck
    assert "kept it as a stub" in stuck


def test_the_second_bound_grows_with_what_the_answered_probes_took(tmp_path):
    """Before any probe answered, a timed-out one gets RETRY_UNKNOWN times its first bound; once
    the root's help took a second and more, at least RETRY_FACTOR seconds (lower bounds only: a
    busy machine can only make the answered probes slower)."""
    log = tmp_path / "log"
    with _prober(_tool(tmp_path), log, WG_ROOT_SLEEP="1") as prober:
        assert prober.retry_timeout_s == RETRY_UNKNOWN * prober.timeout_s
        assert prober.run(("--help",)).usable
        assert prober.retry_timeout_s >= max(prober.timeout_s, RETRY_FACTOR * 1.0)


def test_a_root_help_that_misses_its_bound_before_anything_answered_is_read(tmp_path):
    """The root's `--help` takes longer than the bound on its first run, and nothing has answered
    yet: the retry's longer bound (RETRY_UNKNOWN times the first) lets it be read, not lost."""
    log = tmp_path / "log"
    environment = dict(os.environ, WG_LOG=str(log), WG_ROOT_SLEEP="1.5")
    with Prober(
        str(_tool(tmp_path)),
        name="tool",
        timeout_s=1,
        env=environment,
        use_man=False,
        sandbox=False,
    ) as prober:
        result = crawl(prober, parse_help, depth=0, version="")  # (no --version run beside it)
    assert result.root is not None and result.root.description == "A tool."
    assert log.read_text().splitlines().count("--help") == 2


def test_an_answer_from_before_the_crawl_scales_its_retries(tmp_path):
    """A Prober told what a probe of the tool took before it (a launcher's --version, run for the
    cache key by another Prober) scales its retries by that from the start."""
    log = tmp_path / "log"
    environment = dict(os.environ, WG_LOG=str(log))
    with Prober(
        str(_tool(tmp_path)), name="tool", timeout_s=5, env=environment, answered_s=3.0
    ) as prober:
        assert prober.retry_timeout_s == RETRY_FACTOR * 3.0
