"""yarn v1 prints the application's options on every command's page under the same `Options:` heading
as the command's own (captured `yarn --help` and `yarn cache --help`, yarn 1.22): the crawl moves the
root's options into each command's global flags, so what a command adds is told apart (issue 13's
"globals apart"; knowledge/data/tools.json styles_pages_repeat_root_options)."""

from __future__ import annotations

from pathlib import Path

from tests.support.tools import python_tool
from wrapgen.parse import parse_help
from wrapgen.probe.crawl import crawl
from wrapgen.probe.prober import Prober

HELP = Path(__file__).resolve().parent.parent / "fixtures" / "help" / "yarn"


def _tool(tmp_path: Path, pages: dict) -> str:
    path = tmp_path / "yarn"
    return python_tool(
        path,
        (
            f"import sys\nargs = ' '.join(sys.argv[1:])\npages = {pages!r}\n"
            "print(pages.get(args, '1.22.22')); sys.exit(0 if args in pages or args == '--version' else 1)\n"
        ),
    )


def _crawl(tool: str, style: str):
    with Prober(tool, name="yarn", timeout_s=10, use_man=False, sandbox=False) as prober:
        return crawl(prober, parse_help, depth=2, style=style)


def _spellings(flags) -> set[str]:
    return {s for f in flags for s in f.spellings}


def test_the_root_options_are_globals_of_every_command(tmp_path):
    root_page = (HELP / "yarn.txt").read_text(encoding="utf-8")
    cache_page = (HELP / "yarn_cache.txt").read_text(encoding="utf-8")
    result = _crawl(_tool(tmp_path, {"--help": root_page, "cache --help": cache_page}), "yarn")
    root = result.root
    cache = root.find(("cache",))
    root_spellings = _spellings(root.flags)
    assert {"--offline", "--json", "--cwd"} <= root_spellings
    assert "--pattern" in _spellings(cache.flags)  # its own
    assert not _spellings(cache.flags) & root_spellings
    assert {"--offline", "--json"} <= _spellings(cache.global_flags)
    listed = cache.find(("cache", "list"))  # read from cache's page: the same split
    assert "--pattern" in _spellings(listed.flags) and "--offline" in _spellings(
        listed.global_flags
    )
