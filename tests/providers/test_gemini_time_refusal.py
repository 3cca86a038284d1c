"""Which Gemini errors mean "no time filter here", and the question form a resend is sent."""

import json
from datetime import date

import pytest

from websearch_core.filters import plan_filters
from websearch_core.models import SearchParams
from websearch_core.providers._gemini_filters import CLOUD_CODE_FILTERS, DEVELOPER_FILTERS
from websearch_core.providers._gemini_time_refusal import names_time_filter
from websearch_core.providers.gemini import INFO


def _body(message: str) -> str:
    return json.dumps({"error": {"code": 400, "message": message, "status": "INVALID_ARGUMENT"}})


def _violations(field: str, description: str, kind: str = "BadRequest") -> str:
    """A 400 whose message is bare and whose ``details`` name a field, as Google's are."""
    detail = {
        "@type": f"type.googleapis.com/google.rpc.{kind}",
        "fieldViolations": [{"field": field, "description": description}],
    }
    error = {"code": 400, "message": "Request contains an invalid argument.", "details": [detail]}
    return json.dumps([{"error": error}])


@pytest.mark.parametrize(
    ("status", "body", "named"),
    [
        # The JSON name, as an unknown field's message gives it.
        (400, _body("Unknown name \"timeRangeFilter\" at 'tools[0].google_search'"), True),
        # The proto path, as a field violation's message gives it.
        (400, _body("Invalid value at 'tools[0].google_search.time_range_filter'"), True),
        (400, _body("Request contains an invalid argument."), False),
        # Guards (stop 46): Google's bodies for a search tool it will not take leave the
        # time filter unnamed, and a resend without it would still send the tool.
        (400, _body("Search Grounding is not supported."), False),
        (
            400,
            _body("Please use google_search field instead of google_search_retrieval field."),
            False,
        ),
        (400, _body("API key not valid. Please pass a valid API key."), False),
        (403, _body("timeRangeFilter is not allowed for this project"), False),
        # Only the message is read: the name elsewhere in the body is no refusal of it.
        (400, '{"error": {"message": "bad"}, "timeRangeFilter": 1}', False),
        (400, "Unknown name timeRangeFilter", True),  # a body that is not JSON: its text
        # Google's error model: a bare message, the field in a BadRequest's violations.
        (400, _violations("tools[0].google_search.time_range_filter", "Invalid value."), True),
        (400, _violations("tools[0]", "Unknown name \"timeRangeFilter\" at 'tools[0]'"), True),
        (400, _violations("contents[0].parts", "Invalid value."), False),
        (400, _violations("tools[0].google_search.time_range_filter", "x", kind="Help"), False),
    ],
)
def test_names_time_filter(status: int, body: str, named: bool) -> None:
    assert names_time_filter(status, body) is named


@pytest.mark.parametrize(
    "params",
    [
        SearchParams(query="python asyncio after:2025-01-01 before:2025-03-31"),
        SearchParams(query="rust", date_after=date(2025, 1, 1), recency="week"),
        SearchParams(query='"exact words" -noise site:docs.python.org before:2024-12-31'),
        SearchParams(query="news", include_domains=["a.org"], date_before=date(2026, 2, 1)),
        SearchParams(query="plain words"),
    ],
)
def test_guard_a_resend_asks_what_a_sign_in_would_have_asked(params: SearchParams) -> None:
    """A guard (the plan is unchanged): re-planning for Cloud Code gives the OAuth question."""
    for_key = plan_filters(params, INFO, DEVELOPER_FILTERS).params
    resent = plan_filters(for_key, INFO, CLOUD_CODE_FILTERS).params
    assert resent.query == plan_filters(params, INFO, CLOUD_CODE_FILTERS).params.query
    # And once more changes nothing (a search planned either way ends in one form).
    assert plan_filters(resent, INFO, CLOUD_CODE_FILTERS).params.query == resent.query
