"""The cuts of an answer's links and URLs read each character a bounded number of times.

The tidying runs on every answer a filter or a ``limit`` cut sources from. Stop 56
(filters59) found it was handed the whole text before each cut and the whole text after
it (two copies of the answer per URL cut, and patterns run over them), and that the
patterns finding a URL or a citation in parentheses read a run of spaces again from each of
its characters: 16,384 spaces before a URL took about a second. Each cut now reads a window
either side (``links._Tidied``) and the parenthesis and list marker before a URL are read
back from it (``links._bare_urls``, ``links._spaced``); ``benchmarks/bench_regex_scaling.py``
shows the time per KiB flat. These tests pin the windows and that the new reading finds
what the old patterns found.
"""

import random
import re

import pytest

from websearch_core.filters import links
from websearch_core.filters.links import unlinked

CUT = "https://cut.example/p"
KEPT = "https://kept.example/q"

OLD_BARE = re.compile(
    r"(?P<line>^[ \t]*(?:[-*+]|\d{1,3}[.)])?[ \t]*)?"
    r"(?P<open>[ \t]*\([ \t]*)?<?"
    r"(?P<url>https?://[^\s<>\"'`\[\]]+)",
    re.MULTILINE,
)
"""The pattern main read bare URLs with (stop 55), the reference for what is found."""
OLD_LINK = re.compile(
    r"(?P<open>[ \t]*\([ \t]*)?"
    r"\[(?P<words>(?:[^\[\]]|\[[^\[\]]*\])*)\]"
    r"\((?P<url>https?://[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)\)"
    r"(?(open)[ \t]*\))"
)
"""The pattern main read Markdown links with (stop 55)."""
PIECES = (
    CUT,
    KEPT,
    f"[a]({CUT})",
    f"[[1]]({CUT})",
    "(",
    ")",
    "[",
    "]",
    "<",
    ">",
    " ",
    "   ",
    "\t",
    "\n",
    "- ",
    "1. ",
    "12) ",
    "*",
    "x",
    "word ",
    ".",
    ",",
)


def _texts(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [
        "".join(rng.choice(PIECES) for _ in range(rng.choice((2, 5, 10, 30, 80))))
        for _ in range(count)
    ]


def _opened(match: re.Match[str]) -> int | None:
    return match.start("open") if match["open"] is not None else None


@pytest.fixture
def handed(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The longer side of the text each cut is handed, one entry a cut (the reading runs)."""
    lengths: list[int] = []
    closed = links._closed

    def reading(left: str, right: str) -> tuple[str, int]:
        lengths.append(max(len(left), len(right)))
        return closed(left, right)

    monkeypatch.setattr(links, "_closed", reading)
    return lengths


def test_each_cut_reads_a_window_of_the_text_not_all_of_it(handed: list[int]) -> None:
    # Failed before: each cut was handed the whole answer before it and after it.
    sentence = f"Big. See {CUT} for details. Figures via {CUT} differ ([a]({CUT})).\n"
    once = unlinked(sentence, [CUT], [KEPT])
    assert once == "Big. Figures differ.\n"
    handed.clear()  # the three cuts of the sentence alone
    assert unlinked(sentence * 300, [CUT], [KEPT]) == once * 300
    assert len(handed) == 900
    assert max(handed) <= 1_000  # of the 31,000 characters of the answer


def test_a_cut_beside_long_runs_reads_as_it_did() -> None:
    """A guard: runs longer than a window beside a cut leave the cut's tidying as it was."""
    run = "x" * 899 + "."
    assert unlinked(f"{run} See {CUT} for details. {run}", [CUT], []) == f"{run} {run}"
    assert unlinked(f"{run}\n\nSources: {CUT}\n\n{run}", [CUT], []) == f"{run}\n\n{run}"
    assert unlinked(f"{run} ({CUT}) {run}.", [CUT], []) == f"{run} {run}."


def test_bare_urls_are_found_as_the_old_pattern_found_them() -> None:
    """A guard: the URL, its line's list marker and its parenthesis, as main's pattern read."""
    for text in _texts(1_500, 59):
        old = [
            (m.start(), m.start("url"), m["url"], m.end(), m["line"] is not None, _opened(m))
            for m in OLD_BARE.finditer(text)
        ]
        new = [
            (u.start, u.url_start, u.url, u.end, u.line, u.open_start)
            for u in links._bare_urls(text)
        ]
        assert new == old, text


def test_links_are_found_as_the_old_pattern_found_them() -> None:
    """A guard: each link with the spaces before a parenthesis it stands alone in."""
    for text in _texts(1_500, 60):
        old = [(m.start(), m.end(), m["url"], m["open"] is None) for m in OLD_LINK.finditer(text)]
        new = []
        previous = 0
        for match in links._LINK.finditer(text):
            start, previous = links._spaced(text, match, previous), match.end()
            new.append((start, match.end(), match["url"], match["open"] is None))
        assert new == old, text


# Stop 57 (filters60): a run of blanks longer than a window beside a cut kept its far end
# (each cut was handed 400 characters either side, and the run went only as far as that).
@pytest.mark.parametrize("blanks", [" " * 500, " " * 5_000, "\t" * 1_000, " \t" * 700])
@pytest.mark.parametrize(
    ("written", "cut"),
    [
        (f"Big. {CUT}{{}}More.", "Big. More."),
        (f"Big.{{}}{CUT} More.", "Big. More."),
        (f"Big. See {CUT}{{}}for details. More.", "Big. More."),
        (f"Big. ({CUT}{{}}) More.", "Big. More."),
        (f"{'x' * 900} Big.{{}}{CUT}{{}}More.", f"{'x' * 900} Big. More."),
    ],
)
def test_a_long_run_of_blanks_beside_a_cut_goes_as_a_short_one_does(
    written: str, cut: str, blanks: str
) -> None:
    # Failed before: the run's far end stayed (`Big.` and hundreds of blanks), and `for
    # details` past 200 blanks was not read (`Big. for details.`).
    assert unlinked(written.replace("{}", blanks), [CUT], [KEPT]) == cut


def test_long_runs_beside_cuts_keep_each_cut_s_reading_a_window(handed: list[int]) -> None:
    # Failed before: the runs stayed. Each cut is still handed a window, not the run.
    piece = f"Big.{' ' * 3_000}{CUT}{' ' * 3_000}More. "
    assert unlinked(piece * 20, [CUT], [KEPT]) == "Big. More. " * 20
    assert len(handed) == 20 and max(handed) <= 1_000


# Stop 58 (filters61): a run of blanks longer than a window not beside the cut hid what
# stood before it: `Big.`, 1,000 blanks and `Sources: <url>` kept its line (the label rule
# saw no sentence's end before `Sources:`, only blanks to the window's edge). A long run is
# now handed as one blank, so the rules read past it as past a space.
@pytest.mark.parametrize("blanks", [" " * 1_000, " " * 100_000, "\t" * 1_000, " \t" * 700])
@pytest.mark.parametrize(
    ("written", "cut"),
    [
        (f"Big.{{}}Sources: {CUT}", "Big."),
        (f"Big.{{}}Sources: {CUT}\n\nMore.", "Big.\n\nMore."),
        (f"Big.{{}}Details are at {CUT}. More.", "Big. More."),
        (f"Big.{{}}You can visit {CUT}.", "Big."),
        (f"Big.{{}}**Source:** [[1]]({CUT})", "Big."),
    ],
)
def test_a_long_run_of_blanks_before_the_cut_s_sentence_hides_nothing(
    written: str, cut: str, blanks: str
) -> None:
    # Failed before: the line or sentence stayed (`Big.`, the blanks, `Sources:`, or
    # `Details are.`), its opening past the window.
    assert unlinked(written.replace("{}", blanks), [CUT], [KEPT]) == cut


def test_a_long_run_inside_kept_text_stays_as_written() -> None:
    """A guard: a run the cut's rules read as one is written back whole where it stays."""
    for blanks in (" " * 40, " " * 1_000, "\t" * 100_000):
        text = f"Big.{blanks}Small. See {CUT}. More.{blanks}End."
        assert unlinked(text, [CUT], [KEPT]) == f"Big.{blanks}Small. More.{blanks}End."


def test_cuts_after_a_100_000_blank_run_each_read_a_bounded_window(
    handed: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Failed before: the line stayed. Counted, not timed: each cut is handed at most a
    # window, and reads back at most a window's worth of pieces, the run being one of them.
    pieces: list[int] = []
    view = links._Tidied._view

    def reading(tidied: links._Tidied) -> tuple[str, list[tuple[int, int]]]:
        left, shown = view(tidied)
        pieces.append(len(shown))
        return left, shown

    monkeypatch.setattr(links._Tidied, "_view", reading)
    urls = ", ".join(f"{CUT}{index}" for index in range(300))
    written = f"Big.{' ' * 100_000}Sources: {urls}\n\nMore."
    cut = unlinked(written, [f"{CUT}{index}" for index in range(300)], [KEPT])
    assert cut == "Big.\n\nMore."
    assert len(handed) == 300 and max(handed) <= 1_000
    assert max(pieces) <= 4
