"""Brave end to end through ``WebSearch`` against the loopback simulator.

Every call forces ``provider="brave"`` so only Brave runs, whatever else is registered.
"""

import hashlib
import json
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest

from tests.functional._sim_helpers import fault_failure, sim_client, simulator_fixture
from websearch_core import WebSearch
from websearch_core.errors import (
    AllProvidersFailedError,
    AuthorizationError,
    ProviderConnectionError,
    ResponseParseError,
    ResponseTooLargeError,
    SearchProviderError,
)
from websearch_core.format import format_age
from websearch_core.providers._common import age_seconds_from_date
from websearch_core.testing import Fault, RecordedRequest, SimResult, Simulator
from websearch_core.testing.protocols.brave import BraveProtocol

QUERY = "python asyncio"


sim = simulator_fixture("brave")


async def _failure(sim: Simulator, fault: Fault, **overrides: Any) -> SearchProviderError:
    return await fault_failure(sim, "brave", QUERY, fault, overrides)


# --- request shape and success ----------------------------------------------------------------


async def test_request_shape_and_parsed_results(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="brave", limit=3)

    (request,) = sim["brave"].requests
    assert request.method == "GET"
    assert request.path == "/res/v1/web/search"
    assert request.query == (
        ("q", QUERY),
        ("count", "3"),
        ("extra_snippets", "true"),
        ("text_decorations", "false"),
        ("safesearch", "moderate"),
    )
    assert request.header("X-Subscription-Token") == "sim-key-brave"
    assert request.header("Accept") == "application/json"
    assert request.body == b""

    assert response.provider == "brave"
    assert response.auth_mode == "api_key"
    assert response.request_id == hashlib.sha256(QUERY.encode()).hexdigest()[:32]
    assert [(s.title, s.url, s.snippet) for s in response.sources] == [
        (
            "python asyncio result 1",
            "https://site1.example.org/python-asyncio",
            "Snippet 1 about python asyncio.",
        ),
        (
            "python asyncio result 2",
            "https://site2.example.org/python-asyncio",
            "Snippet 2 about python asyncio.",
        ),
        (
            "python asyncio result 3",
            "https://site3.example.org/python-asyncio",
            "Snippet 3 about python asyncio.",
        ),
    ]
    # The wire has age "January 1, 2026" and page_age "2026-01-01T00:00:00": ISO wins, with
    # the zone it is read in (UTC) said.
    assert [s.published_date for s in response.sources] == [
        "2026-01-01T00:00:00+00:00",
        "2026-01-02T00:00:00+00:00",
        "2026-01-03T00:00:00+00:00",
    ]
    assert response.sources[0].age_seconds is not None
    assert [(a.provider, a.outcome) for a in response.attempts] == [("brave", "success")]


async def test_tool_text_lists_the_sources(sim: Simulator) -> None:
    sim["brave"].results = [
        SimResult(
            title="<b>Event loop</b> docs",
            url="https://docs.python.org/3/library/asyncio-eventloop.html",
            snippet="The event loop is the core of every <strong>asyncio</strong> application.",
            published="2026-01-05T00:00:00Z",
        ),
        SimResult(title="Undated", url="https://b.example.org", snippet="No date here."),
    ]
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="brave")
    assert not result.is_error
    age = format_age(age_seconds_from_date("2026-01-05T00:00:00Z", now=datetime.now(UTC)))
    assert result.text == (
        f"[1] Event loop docs ({age})\n"
        "    https://docs.python.org/3/library/asyncio-eventloop.html\n"
        "    The event loop is the core of every asyncio application.\n"
        "[2] Undated\n"
        "    https://b.example.org/\n"
        "    No date here."
    )


async def test_a_recent_page_with_a_relative_age_gets_its_iso_date(sim: Simulator) -> None:
    published = (datetime.now(UTC) - timedelta(days=2, hours=3)).replace(microsecond=0)
    sim["brave"].results = [
        SimResult(title="Undated", url="https://a.example.org/", snippet="s"),
        SimResult(
            title="Recent",
            url="https://b.example.org/",
            snippet="s",
            published=published.isoformat(),
        ),
    ]
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="brave")
    undated, recent = result.response.sources
    assert (undated.published_date, undated.age_seconds) == (None, None)
    # Brave wrote age "2 days ago"; the result carries page_age's ISO timestamp instead.
    assert recent.published_date == published.isoformat()  # page_age is UTC, said as such
    assert recent.age_seconds is not None
    assert abs(recent.age_seconds - (2 * 86400 + 3 * 3600)) < 60
    assert "\n[2] Recent (2d ago)\n" in result.text


def test_the_protocol_writes_braves_relative_and_absolute_ages() -> None:
    request = RecordedRequest(
        method="GET",
        path="/res/v1/web/search",
        query=(("q", "x"),),
        headers={"X-Subscription-Token": "k"},
        body=b"",
    )
    recent = (datetime.now(UTC) - timedelta(days=1, hours=1)).replace(microsecond=0)
    old = "2023-05-01T20:10:05"
    response = BraveProtocol().answer(
        request,
        [
            SimResult(
                title="a", url="https://a.example/", snippet="", published=recent.isoformat()
            ),
            SimResult(title="b", url="https://b.example/", snippet="", published=old),
        ],
    )
    assert response.text is not None
    first, second = json.loads(response.text)["web"]["results"]
    assert first["age"] == "1 day ago"
    assert first["page_age"] == recent.replace(tzinfo=None).isoformat()
    assert (second["age"], second["page_age"]) == ("May 1, 2023", old)


async def test_count_defaults_to_10_and_caps_at_20(sim: Simulator) -> None:
    sim["brave"].results = [
        SimResult(title=f"r{i}", url=f"https://r{i}.example.org/", snippet="s") for i in range(30)
    ]
    async with sim_client(sim) as ws:
        default = await ws.search(QUERY, provider="brave")
        capped = await ws.search(QUERY, provider="brave", num_search_results=50, limit=2)
    assert [r.query_dict()["count"] for r in sim["brave"].requests] == ["10", "20"]
    assert len(default.sources) == 10
    assert len(capped.sources) == 20  # num_search_results wins over limit, as the spec says


async def test_time_country_and_language_filters_on_the_wire(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        await ws.search(QUERY, provider="brave", recency="month")
        await ws.search(
            QUERY,
            provider="brave",
            recency="day",
            date_after=date(2025, 2, 1),
            date_before=date(2025, 2, 28),
            country="gb",
            language="en-GB",
        )
    first, second = (r.query_dict() for r in sim["brave"].requests)
    assert first["freshness"] == "pm"
    assert "country" not in first and "search_lang" not in first
    assert second["freshness"] == "2025-02-01to2025-02-28"
    assert second["country"] == "GB"
    assert second["search_lang"] == "en-gb"


async def test_settings_base_url_override_reaches_the_simulator(sim: Simulator) -> None:
    async with WebSearch(sim.settings(provider="brave"), api_keys={"brave": "explicit-key"}) as ws:
        response = await ws.search(QUERY, provider="brave", limit=1)
    assert len(response.sources) == 1
    assert sim["brave"].requests[0].header("X-Subscription-Token") == "explicit-key"


async def test_no_results_is_an_empty_response_error(sim: Simulator) -> None:
    sim["brave"].results = []
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="brave")
    assert result.text == "Error: Brave returned no renderable search content."


async def test_over_long_query_never_reaches_the_server(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        with pytest.raises(AllProvidersFailedError) as caught:
            await ws.search("q" * 401, provider="brave")
    (failure,) = caught.value.failures
    assert (failure.status, failure.message) == (
        400,
        "Brave search queries cannot exceed 400 characters",
    )
    assert sim["brave"].requests == []


# --- faults -----------------------------------------------------------------------------------


async def test_invalid_subscription_token_422_is_an_authorization_error(sim: Simulator) -> None:
    body = json.dumps(
        {
            "type": "ErrorResponse",
            "error": {
                "code": "SUBSCRIPTION_TOKEN_INVALID",
                "detail": "The provided subscription token is invalid.",
                "status": 422,
            },
        }
    )
    failure = await _failure(sim, Fault.http(422, body))
    assert isinstance(failure, AuthorizationError)
    assert failure.status == 422
    assert failure.message == f"Brave API error (422): {body}"


def test_the_protocol_refuses_a_request_without_a_token_like_brave() -> None:
    request = RecordedRequest(
        method="GET", path="/res/v1/web/search", query=(("q", "x"),), headers={}, body=b""
    )
    response = BraveProtocol().answer(request, [])
    assert response.status == 422
    assert response.text is not None
    assert json.loads(response.text)["error"]["code"] == "SUBSCRIPTION_TOKEN_INVALID"


async def test_a_reset_on_a_reused_connection_is_not_silently_resent(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        await ws.search(QUERY, provider="brave", limit=1, use_cache=False)
        sim["brave"].enqueue(Fault.reset())
        with pytest.raises(AllProvidersFailedError) as caught:
            await ws.search(QUERY, provider="brave", limit=1, use_cache=False)
    assert isinstance(caught.value.failures[0], ProviderConnectionError)
    assert len(sim["brave"].requests) == 2


async def test_malformed_body(sim: Simulator) -> None:
    failure = await _failure(sim, Fault.malformed())
    assert isinstance(failure, ResponseParseError)
    assert failure.message == "Brave API returned invalid JSON"


async def test_a_body_nested_past_the_recursion_limit_is_invalid_json(sim: Simulator) -> None:
    # json.loads recurses per level: this used to escape as RecursionError and end the search.
    deep = "[" * 100_000 + "]" * 100_000
    failure = await _failure(sim, Fault.http(200, deep))
    assert isinstance(failure, ResponseParseError)
    assert failure.message == "Brave API returned invalid JSON"


async def test_lone_surrogate_escapes_in_a_body_never_reach_the_model_text(
    sim: Simulator,
) -> None:
    body = json.dumps(
        {
            "web": {
                "results": [
                    {"url": "https://a.example/", "title": "Ti\ud800tle", "description": "d\udc00"},
                    {"url": "https://b.example/\udfff", "title": "gone"},
                ]
            }
        }
    )
    sim["brave"].enqueue(Fault.http(200, body))
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="brave")
    assert result.error is None
    assert [(s.title, s.url, s.snippet) for s in result.response.sources] == [
        ("Title", "https://a.example/", "d")
    ]
    assert "Title" in result.text
    result.text.encode("utf-8")  # writable: what a terminal or the cache needs


async def test_oversized_body_past_braves_own_2_mib_cap(sim: Simulator) -> None:
    failure = await _failure(sim, Fault.oversized(size=3 * 1024 * 1024))
    assert isinstance(failure, ResponseTooLargeError)
    assert failure.message == "Brave API response exceeded 2 MiB"


async def test_a_422_on_an_optional_filter_is_retried_once_without_it(sim: Simulator) -> None:
    rejected = (
        '{"type":"ErrorResponse","error":{"code":"VALIDATION","status":422,'
        '"detail":"Unable to validate request parameter(s)"}}'
    )
    sim["brave"].enqueue(Fault.http(422, rejected))
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="brave", language="fr", country="ca")
    first, second = sim["brave"].requests
    assert (first.query_dict()["search_lang"], first.query_dict()["country"]) == ("fr", "CA")
    assert "search_lang" not in second.query_dict() and "country" not in second.query_dict()
    ignored = {f.name: f.applied for f in result.response.filters}
    assert ignored == {"language": ("ignored",), "country": ("ignored",)}
    assert result.text.endswith("Filters not applied: language=fr, country=ca.")


async def test_a_422_on_the_language_keeps_what_a_lang_directive_gave_way_to(
    sim: Simulator,
) -> None:
    """Both language records read ignored after the resend; the ``lang:de`` that gave way
    to ``language="fr"`` still says so (the clause was lost when ``fr`` was dropped too)."""
    rejected = (
        '{"type":"ErrorResponse","error":{"code":"VALIDATION","status":422,'
        '"detail":"Unable to validate request parameter(s)"}}'
    )
    sim["brave"].enqueue(Fault.http(422, rejected))
    async with sim_client(sim) as ws:
        result = await ws.run(f"{QUERY} lang:de", provider="brave", language="fr")
    first, second = sim["brave"].requests
    assert first.query_dict()["search_lang"] == "fr" and "search_lang" not in second.query_dict()
    assert [(f.value, f.applied) for f in result.response.filters] == [
        ("fr", ("ignored",)),
        ("de", ("ignored",)),
    ]
    assert result.text.endswith(
        "Filters not applied: language=fr, language=de (language=fr used instead)."
    )


async def test_a_three_letter_lang_directive_is_not_sent_and_is_named_not_applied(
    sim: Simulator,
) -> None:
    """``lang:haw`` (Hawaiian, no two-letter code) is the search's language, which Brave's
    ``search_lang`` cannot carry: not sent, and the model is told (it went as a word)."""
    async with sim_client(sim) as ws:
        result = await ws.run(f"{QUERY} lang:haw", provider="brave")
    (request,) = sim["brave"].requests
    assert request.query_dict()["q"] == QUERY and "search_lang" not in request.query_dict()
    assert result.text.endswith("Filters not applied: language=haw.")


async def test_a_two_letter_language_search_lang_lacks_is_named_not_applied(
    sim: Simulator,
) -> None:
    """``af`` has two letters but no ``search_lang`` code: it was never sent, yet recorded
    ``native``. The plan now asks the mapping that builds the query string."""
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="brave", language="af")
    (request,) = sim["brave"].requests
    assert "search_lang" not in request.query_dict()
    assert result.text.endswith("Filters not applied: language=af.")


async def test_a_422_for_the_key_is_not_retried(sim: Simulator) -> None:
    sim["brave"].always(
        Fault.http(422, '{"error":{"code":"SUBSCRIPTION_TOKEN_INVALID","status":422}}')
    )
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="brave", language="fr")
    assert result.is_error and len(sim["brave"].requests) == 1
