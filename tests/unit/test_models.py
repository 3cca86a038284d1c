from datetime import date

import pytest
from pydantic import ValidationError

from websearch_core.models import SearchParams, SearchResponse, SearchSource


def _error_fields(exc: ValidationError) -> set[str]:
    return {str(err["loc"][0]) for err in exc.errors()}


def test_minimal_params() -> None:
    params = SearchParams(query="python asyncio")
    assert params.query == "python asyncio"
    assert params.recency is None and params.limit is None


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("query", ""),
        ("query", "   "),
        ("query", "x" * 2001),
        ("recency", "fortnight"),
        ("limit", 0),
        ("limit", 101),
        ("limit", "5"),
        ("limit", 5.5),
        ("limit", True),
        ("max_tokens", 0),
        ("temperature", -0.1),
        ("temperature", 2.5),
        ("temperature", "0.2"),
        ("num_search_results", -1),
        ("country", "USA"),
        ("language", "english please"),
        ("include_domains", ("not a domain",)),
    ],
)
def test_bad_values_raise_naming_the_field(field: str, value: object) -> None:
    args: dict[str, object] = {"query": "ok", field: value}
    with pytest.raises(ValidationError) as caught:
        SearchParams(**args)  # type: ignore[arg-type]
    assert field in _error_fields(caught.value)
    assert field in str(caught.value)


@pytest.mark.parametrize(
    ("field", "value", "says"),
    [
        ("country", "usa", "country must be a two-letter ISO 3166-1 code such as 'us' or 'de'"),
        ("date_after", "yesterday", "date_after must be a date written YYYY-MM-DD"),
        ("date_before", "2025/01/31", "date_before must be a date written YYYY-MM-DD"),
        ("date_after", "2025-13-01", "got '2025-13-01': its month, 13, is not 01-12"),
    ],
)
def test_a_bad_country_or_date_says_what_to_write(field: str, value: str, says: str) -> None:
    """Not pydantic's regular expression or "input is too short": the form it takes."""
    with pytest.raises(ValidationError) as caught:
        SearchParams(query="ok", **{field: value})  # type: ignore[arg-type]
    assert _error_fields(caught.value) == {field}
    assert says in str(caught.value)
    assert repr(value) in str(caught.value)


@pytest.mark.parametrize(
    ("given", "expected"),
    [("2025-01-31", date(2025, 1, 31)), (date(2025, 1, 31), date(2025, 1, 31)), (None, None)],
)
def test_a_date_is_read_as_before(given: object, expected: date | None) -> None:
    assert SearchParams(query="ok", date_after=given).date_after == expected  # type: ignore[arg-type]


@pytest.mark.parametrize("query", ["", "   ", "\t\n"])
def test_an_empty_query_is_refused_as_a_blank_one_is(query: str) -> None:
    # "" got pydantic's "String should have at least 1 character", "   " "must not be
    # blank": two texts for one mistake.
    with pytest.raises(ValidationError) as caught:
        SearchParams(query=query)
    (error,) = caught.value.errors()
    assert (error["loc"], error["msg"]) == (
        ("query",),
        "Value error, query must not be empty or only whitespace",
    )


def test_unknown_field_is_rejected() -> None:
    with pytest.raises(ValidationError) as caught:
        SearchParams(query="q", count=3)  # type: ignore[call-arg]
    assert "count" in str(caught.value)


def test_date_order_is_checked() -> None:
    with pytest.raises(ValidationError, match="date_after must not be later than date_before"):
        SearchParams(query="q", date_after=date(2026, 2, 1), date_before=date(2026, 1, 1))


@pytest.mark.parametrize(
    ("query", "bounds"),
    [
        ("python after:2026-02-01 before:2026-01-01", {}),
        ("python before:2026-01-01", {"date_after": date(2026, 2, 1)}),
        ("python AFTER:2026-02-01", {"date_before": date(2026, 1, 1)}),
        ("python since:2026-02-01 until:2026-01-01", {}),  # the reference's other names
        ("python until:2026-01-01", {"date_after": date(2026, 2, 1)}),
        ("python Since:2026-02-01", {"date_before": date(2026, 1, 1)}),
    ],
)
def test_date_order_counts_the_query_s_directives(query: str, bounds: dict[str, date]) -> None:
    # Sent on, Brave would get freshness=2026-02-01to2026-01-01; the model must hear why.
    expected = "query: after:2026-02-01 is later than before:2026-01-01, so no date is in"
    with pytest.raises(ValidationError, match=expected):
        SearchParams(query=query, **bounds)
    assert SearchParams(query="python after:2026-01-01 before:2026-02-01").query


def test_domains_are_normalised() -> None:
    params = SearchParams(query="q", include_domains=("WWW.Example.COM", " docs.python.org "))
    assert params.include_domains == ("example.com", "docs.python.org")


def test_result_count_prefers_num_search_results() -> None:
    assert SearchParams(query="q", limit=3).result_count == 3
    assert SearchParams(query="q", limit=3, num_search_results=7).result_count == 7
    assert SearchParams(query="q").result_count is None


def test_params_are_frozen() -> None:
    params = SearchParams(query="q")
    with pytest.raises(ValidationError):
        params.query = "other"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("response", "renderable"),
    [
        (SearchResponse(provider="x"), False),
        (SearchResponse(provider="x", answer="  \n "), False),
        (SearchResponse(provider="x", related_questions=(" ",), search_queries=("",)), False),
        (SearchResponse(provider="x", answer="yes"), True),
        (SearchResponse(provider="x", sources=(SearchSource(title="t", url="https://u/"),)), True),
        (SearchResponse(provider="x", related_questions=("why?",)), True),
        (SearchResponse(provider="x", search_queries=("q",)), True),
    ],
)
def test_renderable_content(response: SearchResponse, renderable: bool) -> None:
    assert response.has_renderable_content() is renderable


@pytest.mark.parametrize("value", ["auto", "AUTO", " auto "])
def test_language_auto_means_no_preference(value: str) -> None:
    assert SearchParams(query="q", language=value).language is None
