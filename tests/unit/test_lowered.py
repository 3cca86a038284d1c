"""``found_lowered`` answers as ``marker in page.lower()`` does, a window at a time."""

import pytest

from websearch_core.providers._lowered import _WINDOW, found_lowered

MARKERS = ("<h3", "unusual traffic", "/httpservice/retry/enablejs")


def _pages() -> list[str]:
    """Pages whose markers sit across a window's edge, after text lowering lengthens."""
    pages = []
    for marker in ("<H3", "Unusual TRAFFIC", "/HttpService/Retry/EnableJS", "unusual trafic"):
        for shift in range(len(marker) + 1):
            lead = "İ" * 7 + "ação " * ((_WINDOW - shift) // 5)  # İ lowers to two characters
            lead = lead[: _WINDOW - shift]
            pages.append(lead + marker + " ΣΑΣ " + "é" * 10)
            pages.append("x" * (_WINDOW - shift) + marker)
    return pages


@pytest.mark.parametrize("page", _pages())
def test_the_answer_is_that_of_lowering_the_whole_page(page: str) -> None:
    for marker in MARKERS:
        assert found_lowered(page, (marker,)) is (marker in page.lower())
    assert found_lowered(page, MARKERS) is any(marker in page.lower() for marker in MARKERS)


def test_a_marker_across_every_edge_is_found() -> None:
    page = ("ü" * (_WINDOW - 2) + "<H3>") * 3
    assert found_lowered(page, ("<h3>",))
    assert not found_lowered(page, ("<h4>",))


@pytest.mark.parametrize("marker", ["", "<H3", "ação"])
def test_a_marker_that_could_not_be_compared_is_refused(marker: str) -> None:
    with pytest.raises(ValueError, match="marker must be non-empty lower-case ASCII text"):
        found_lowered("page", (marker,))
