"""A help whose only prose is a banner (the version and copyright lines a PDF converter prints) says
nothing of what the tool is for: the man page's NAME line stands in for it, and the pack's
description never takes the banner."""

from __future__ import annotations

import pytest

from wrapgen.model.tool import Command
from wrapgen.probe.crawl import _summary_or_man
from wrapgen.propose.core import tool_purpose

BANNER = (
    "pdftotext version 22.12.0 Copyright 2005-2022 The Poppler Developers - "
    "http://poppler.freedesktop.org Copyright 1996-2011, 2022 Glyph & Cog, LLC"
)
NAME_LINE = "Portable Document Format (PDF) to text converter"


@pytest.mark.parametrize(
    "banner",
    [
        BANNER,
        "tool version 2.4.1",
        "(C) 2019 Example Inc. All rights reserved.",
        "© 2021 Example",
        "/usr/bin/soxi: SoX v14.4.2.",
    ],
)
def test_a_version_or_copyright_banner_gives_way_to_the_man_page(banner):
    assert _summary_or_man(banner, NAME_LINE) == NAME_LINE
    assert tool_purpose(Command(path=(), summary=banner), "tool") == ""


@pytest.mark.parametrize(
    "summary",
    ["Add copyright headers to source files", "Convert files between version 2 and 3 formats"],
)
def test_a_summary_that_speaks_of_copyright_or_versions_stays(summary):
    assert _summary_or_man(summary, NAME_LINE) == summary
    assert tool_purpose(Command(path=(), summary=summary), "tool") == summary
