"""Gemini's per-mode filter record: the time window the Developer API is sent, and the plan."""

from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from tests.providers._helpers import stored_context
from websearch_core.credentials import OAuthToken
from websearch_core.filters import plan_filters
from websearch_core.models import SearchParams
from websearch_core.providers._gemini_filters import (
    CLOUD_CODE_FILTERS,
    DEVELOPER_FILTERS,
    time_range_filter,
)
from websearch_core.providers._gemini_request import code_assist_body, developer_request
from websearch_core.providers.base import ProviderContext
from websearch_core.providers.gemini import INFO, GeminiProvider


def _context(where: Path, token: OAuthToken | None) -> ProviderContext:
    return stored_context(
        "gemini", where, keys=None, environ={"GEMINI_API_KEY": "k"}, token=token, system_prompt="s"
    )


NOW = datetime(2026, 12, 6, 9, 15, 42, 123456, tzinfo=UTC)


@pytest.mark.parametrize(
    ("fields", "window"),
    [
        ({"recency": "day"}, ("2026-12-05T09:15:42Z", "2026-12-06T09:15:42Z")),
        ({"recency": "year"}, ("2025-12-06T09:15:42Z", "2026-12-06T09:15:42Z")),
        ({"date_after": date(2026, 3, 1)}, ("2026-03-01T00:00:00Z", "2026-12-06T09:15:42Z")),
        ({"date_before": date(2025, 12, 31)}, ("1970-01-01T00:00:00Z", "2026-01-01T00:00:00Z")),
        # Both asked: the window both allow (the later start, the earlier end).
        (
            {"recency": "month", "date_after": date(2026, 11, 20)},
            ("2026-11-20T00:00:00Z", "2026-12-06T09:15:42Z"),
        ),
        (
            {"recency": "week", "date_before": date(2026, 12, 2)},
            ("2026-11-29T09:15:42Z", "2026-12-03T00:00:00Z"),
        ),
        # Contradicting filters: an empty window, which matches no time (never start > end).
        (
            {"recency": "day", "date_before": date(2026, 1, 1)},
            ("2026-12-05T09:15:42Z", "2026-12-05T09:15:42Z"),
        ),
        ({"date_after": date(2027, 1, 1)}, ("2027-01-01T00:00:00Z", "2027-01-01T00:00:00Z")),
    ],
)
def test_the_window_sent_with_a_key(fields: dict[str, object], window: tuple[str, str]) -> None:
    params = SearchParams.model_validate({"query": "x", **fields})
    assert time_range_filter(params, DEVELOPER_FILTERS, NOW) == {
        "startTime": window[0],
        "endTime": window[1],
    }


def test_no_window_without_a_date_filter_or_in_cloud_code() -> None:
    assert time_range_filter(SearchParams(query="x"), DEVELOPER_FILTERS, NOW) is None
    dated = SearchParams(query="x", recency="day", date_after=date(2026, 1, 1))
    assert time_range_filter(dated, CLOUD_CODE_FILTERS, NOW) is None


def test_each_request_carries_its_own_modes_filters() -> None:
    params = SearchParams(query="x", recency="day")
    sent = developer_request(params, "s", model="m", key="k").json
    assert sent is not None and "timeRangeFilter" in sent["tools"][0]["google_search"]
    body = code_assist_body(params, "s", model="m", project="p", request_id="r")
    assert body["request"]["tools"] == [{"google_search": {}}]


def test_the_plan_follows_the_mode(tmp_path: Path) -> None:
    provider = GeminiProvider()
    keyed = _context(tmp_path / "key", token=None)
    signed_in = _context(tmp_path / "oauth", token=OAuthToken(access_token="t"))
    assert provider.filter_support(keyed) is DEVELOPER_FILTERS
    assert provider.filter_support(signed_in) is CLOUD_CODE_FILTERS

    params = SearchParams(query="rust after:2025-01-01", recency="week")
    with_key = plan_filters(params, INFO, provider.filter_support(keyed))
    assert (with_key.params.query, with_key.params.date_after) == ("rust", date(2025, 1, 1))
    assert with_key.ways == {"date_after": ("native",), "recency": ("native",)}
    with_sign_in = plan_filters(params, INFO, provider.filter_support(signed_in))
    assert with_sign_in.params.query == "rust after:2025-01-01"
    assert with_sign_in.ways == {"date_after": ("query",), "recency": ("ignored",)}
