"""refresh_target: the forms a <meta http-equiv="refresh"> is written in, read as browsers do."""

import pytest

from websearch_core.content.refresh import refresh_target

PAGE = "https://a.example/dir/page"


def _meta(content: str, name: str = "refresh") -> str:
    return f'<html><head><meta http-equiv="{name}" content="{content}"></head><body></body></html>'


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("0; url=/new", "https://a.example/new"),
        ("0;URL='next?x=1'", "https://a.example/dir/next?x=1"),
        ("5, https://b.example/", "https://b.example/"),
        ("3 url = other", "https://a.example/dir/other"),
        (".5;url=/half", "https://a.example/half"),
        ("1.9.9; url=/dots", "https://a.example/dots"),
        ("0; url='/quoted' trailing", "https://a.example/quoted"),
        ("0005; url=/padded", "https://a.example/padded"),
        ("6; url=/late", None),
        ("9" * 5000 + "; url=/never", None),
        ("0", None),
        ("url=/no-delay", None),
        ("0; url=#here", None),
        ("0; url=/dir/page", None),
    ],
)
def test_a_refresh_is_read_as_browsers_read_it(content: str, expected: str | None) -> None:
    assert refresh_target(_meta(content), PAGE) == expected


def test_the_http_equiv_name_is_read_in_any_case() -> None:
    assert refresh_target(_meta("0; url=/x", "REFRESH"), PAGE) == "https://a.example/x"
    assert refresh_target(_meta("0; url=/x", "content-type"), PAGE) is None


@pytest.mark.parametrize("html", ["", "<!-- nothing -->", "<p>no refresh here</p>"])
def test_a_page_without_a_refresh_has_no_target(html: str) -> None:
    assert refresh_target(html, PAGE) is None
