"""The README and docs/ stand on their own: every relative link resolves, nothing points outside the repository."""

from __future__ import annotations

import re
from urllib.parse import unquote

from conftest import REPO

PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]

# [text](target) and [text]: target, outside code spans and fenced code blocks
_INLINE = re.compile(r"\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_REFERENCE = re.compile(r"^\s{0,3}\[[^\]\n]+\]:\s*<?(\S+?)>?(?:\s|$)", re.M)
_FENCE = re.compile(r"^(```|~~~).*?^\1", re.M | re.S)
_CODE_SPAN = re.compile(r"`[^`\n]*`")

# the directories a clone has that are not the project's own files
_NOT_OURS = {
    ".git",
    "__pycache__",
    ".pytest_cache",
    ".hypothesis",
    "build",
    "dist",
    "out",
    ".venv",
    "venv",
}
OUTSIDE = ".." + "/shared"  # spelled in two parts so that this file does not name it


def _links(text: str) -> list[str]:
    prose = _CODE_SPAN.sub("", _FENCE.sub("", text))
    return _INLINE.findall(prose) + _REFERENCE.findall(prose)


def _relative(target: str) -> bool:
    return not re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I) and not target.startswith("#")


def _repo_files():
    for path in REPO.rglob("*"):
        parts = path.relative_to(REPO).parts
        if any(p in _NOT_OURS or p.endswith(".egg-info") for p in parts) or not path.is_file():
            continue
        yield path


def test_the_link_finder_finds_links():
    """The link pattern sees inline and reference links and skips code, so the next test checks something."""
    text = 'see [a](guide/a.md) and [b](b.md#x "t")\n\n[c]: ../c.md\n\n`[d](d.md)`\n```\n[e](e.md)\n```\n'
    assert _links(text) == ["guide/a.md", "b.md#x", "../c.md"]
    assert (
        not _relative("https://example.com/x") and not _relative("#anchor") and _relative("a.md#b")
    )


def test_the_docs_pages_exist():
    """README links into docs/, and the pages the issue promised are there."""
    names = {p.name for p in PAGES}
    assert {
        "contract.md",
        "discover.md",
        "propose.md",
        "packs-and-check.md",
        "runtime.md",
        "flows.md",
        "serving.md",
        "benchmarks.md",
        "architecture.md",
    } <= names


def test_every_relative_link_points_at_a_file_that_exists():
    """Each relative link in README.md and docs/*.md names a file (or directory) of the repository."""
    broken = []
    checked = 0
    for page in PAGES:
        for target in _links(page.read_text(encoding="utf-8")):
            if not _relative(target):
                continue
            checked += 1
            path = unquote(target.split("#", 1)[0])
            resolved = (page.parent / path).resolve() if path else page
            if not resolved.exists() or REPO.resolve() not in (resolved, *resolved.parents):
                broken.append(f"{page.relative_to(REPO)}: {target}")
    assert not broken, "links to files that do not exist in the repository:\n" + "\n".join(broken)
    assert checked >= 20, "the README and docs should link to each other"


def test_no_file_points_outside_the_repository():
    """No file of the repository names the contract's old home outside it."""
    offenders = []
    for path in _repo_files():
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        if OUTSIDE in text:
            offenders.append(str(path.relative_to(REPO)))
    assert not offenders, f"these files mention {OUTSIDE}: {offenders}"


def test_code_cites_the_contract_by_its_page():
    """Docstrings, hints and tests cite `docs/contract.md §N`, never a SPEC that no clone has."""
    cite = re.compile(r"\bSPEC(?: sections?)? \d")
    offenders = []
    for folder in ("wrapgen", "tests", "scripts", "bench"):
        for path in sorted((REPO / folder).rglob("*")):
            if path.suffix not in (".py", ".json", ".yaml", ".md") or "fixtures" in path.parts:
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if cite.search(line):
                    offenders.append(f"{path.relative_to(REPO)}:{number}: {line.strip()}")
    assert not offenders, "cite docs/contract.md §N instead:\n" + "\n".join(offenders)


def test_contract_sections_keep_their_numbers():
    """docs/contract.md has sections 1 to 14 in order, the numbers code and tests cite."""
    text = (REPO / "docs" / "contract.md").read_text(encoding="utf-8")
    numbers = [int(n) for n in re.findall(r"^## (\d+)\. ", text, re.M)]
    assert numbers == list(range(1, 15))
    cited = set()
    for folder in ("wrapgen", "tests"):
        for path in (REPO / folder).rglob("*.py"):
            cited |= {
                int(n) for n in re.findall(r"contract\.md §(\d+)", path.read_text(encoding="utf-8"))
            }
    assert cited and cited <= set(numbers), cited - set(numbers)


def test_every_docs_page_the_code_names_exists():
    """Hints and docstrings that send a reader to docs/PAGE.md name a page a clone has."""
    named = {}
    for folder in ("wrapgen", "tests", "scripts"):
        for path in (REPO / folder).rglob("*"):
            if path.suffix in (".py", ".json") and "fixtures" not in path.parts:
                for page in re.findall(
                    r"\bdocs/([a-z0-9-]+\.md)", path.read_text(encoding="utf-8")
                ):
                    named.setdefault(page, str(path.relative_to(REPO)))
    assert "contract.md" in named
    missing = {page: where for page, where in named.items() if not (REPO / "docs" / page).is_file()}
    assert not missing, missing
