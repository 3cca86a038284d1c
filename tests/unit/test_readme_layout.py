"""The README's shape: a newcomer's order of sections, one map of them, prose that fits.

The README grew by small additions; the framework tools ended up after 1,500 lines of
provider and failure detail, the state store's rules were split over two sections, and
paragraphs had lines of up to 160 characters. These checks hold the order a newcomer reads
in, the quick start's list of sections to the headings, and the prose width.
"""

import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"
WIDTH = 95
"""The widest prose line the project's style allows."""


def _headings() -> list[str]:
    """The ``##`` headings, in order (code blocks hold no such line)."""
    return re.findall(r"^## (.+)$", README.read_text(encoding="utf-8"), re.M)


def _anchor(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as dashes."""
    return re.sub(r"[^a-z0-9 -]", "", heading.lower()).replace(" ", "-")


def test_the_framework_tools_come_before_the_reference() -> None:
    """Failed before: 'LangChain and LlamaIndex' was the eighth section, after Providers."""
    headings = _headings()
    assert headings[0] == "Quick start"
    tools = headings.index("LangChain and LlamaIndex")
    assert tools == 1, headings
    for later in ("Providers", "Configuration", "When providers fail or run out", "Command line"):
        assert headings.index(later) > headings.index("Python") > tools, headings
    assert headings[-1] == "Development"


def test_the_state_store_has_one_section_after_the_failures() -> None:
    """Failed before: the store's rules were split over 'When providers fail' and 'Python'."""
    headings = _headings()
    assert "The state store" in headings
    assert headings.index("The state store") == headings.index("When providers fail or run out") + 1
    text = README.read_text(encoding="utf-8")
    python = text.split("\n## Python\n", 1)[1].split("\n## ", 1)[0]
    assert "journal" not in python, "the state store's rules belong in its own section"


def test_the_quick_start_lists_every_later_section_in_order() -> None:
    """A guard: the quick start's map names each later section, in the headings' order."""
    text = README.read_text(encoding="utf-8")
    quick = text.split("\n## Quick start\n", 1)[1].split("\n## ", 1)[0]
    listed = quick.split("The rest of this README is reference", 1)[1]
    anchors = re.findall(r"\]\(#([a-z0-9-]+)\)", listed)
    assert anchors == [_anchor(h) for h in _headings()[1:]]


def test_every_prose_line_fits_the_width() -> None:
    """Failed before: 11 prose lines were wider than 95 characters (one of 160)."""
    fence = False
    wide = []
    for number, line in enumerate(README.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("```"):
            fence = not fence
        elif not fence and not line.startswith("|") and len(line) > WIDTH:
            wide.append(f"line {number}: {len(line)} characters")
    assert not wide, wide


def test_every_link_within_the_readme_reaches_a_heading() -> None:
    """A guard: each ``](#anchor)`` is a heading's, so moved sections keep their links."""
    text = README.read_text(encoding="utf-8")
    anchors = {_anchor(h) for h in re.findall(r"^#{2,3} (.+)$", text, re.M)}
    links = set(re.findall(r"\]\(#([a-z0-9-]+)\)", text))
    assert links, "the README links no section"
    assert links <= anchors, sorted(links - anchors)


def test_the_troubleshooting_table_sends_each_symptom_to_a_section() -> None:
    """Failed before: the README had no troubleshooting section (a newcomer's order names one)."""
    text = README.read_text(encoding="utf-8")
    section = text.split("\n## Troubleshooting\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ") and "---" not in line]
    assert len(rows) > 1
    for row in rows[1:]:
        assert re.search(r"\]\(#[a-z0-9-]+\) \|$", row), row


def test_the_providers_section_is_in_subsections_a_reader_can_find() -> None:
    """Failed before: Providers ran some 380 lines with no heading after the table.

    Each ``###`` part, the table's aside, stays under 150 lines, and the listing of one's
    own machine (``websearch providers``) follows the table it mirrors.
    """
    text = README.read_text(encoding="utf-8")
    section = text.split("\n## Providers\n", 1)[1].split("\n## ", 1)[0]
    parts = re.split(r"^### .+$", section, flags=re.M)
    headings = re.findall(r"^### (.+)$", section, re.M)
    assert len(headings) >= 5, headings
    assert headings[0] == "What is ready on your machine"
    longest = max(len(part.splitlines()) for part in parts[1:])
    assert longest < 150, longest
