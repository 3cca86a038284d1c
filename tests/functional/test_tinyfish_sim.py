"""TinyFish end to end through ``WebSearch`` against the loopback simulator.

Every call forces ``provider="tinyfish"`` so only TinyFish runs, whatever else is registered.
"""

import json
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
from aiohttp import web

from tests.functional._sim_helpers import fault_failure, sim_client, simulator_fixture
from websearch_core.errors import (
    AllProvidersFailedError,
    ProviderUnavailableError,
    ResponseParseError,
    SearchProviderError,
)
from websearch_core.testing import Fault, RecordedRequest, SimResult, Simulator
from websearch_core.testing.protocols.tinyfish import TinyFishProtocol
from websearch_core.transport import HttpResponse

QUERY = "web automation tools"


def _results(count: int) -> list[SimResult]:
    return [
        SimResult(title=f"R{i}", url=f"https://r{i}.example.org/", snippet=f"Snippet {i}.")
        for i in range(count)
    ]


sim = simulator_fixture("tinyfish")


def _pages(sim: Simulator) -> list[tuple[str | None, str | None]]:
    return [
        (r.query_dict().get("page"), r.query_dict().get("num_results"))
        for r in sim["tinyfish"].requests
    ]


async def _failure(
    sim: Simulator, fault: Fault, overrides: dict[str, Any] | None = None
) -> SearchProviderError:
    return await fault_failure(sim, "tinyfish", QUERY, fault, overrides)


# --- request shape and success ----------------------------------------------------------------


async def test_request_shape_and_parsed_response(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="tinyfish")
    assert result.error is None
    response = result.response
    assert response.provider == "tinyfish"
    assert response.auth_mode == "api_key"
    assert [a.outcome for a in response.attempts] == ["success"]
    assert len(response.sources) == 10
    first = response.sources[0]
    assert first.title == f"{QUERY} result 1"
    assert first.url == "https://site1.example.org/web-automation-tools"
    assert first.snippet == f"Snippet 1 about {QUERY}."
    assert first.author == "site1.example.org"
    assert result.text.startswith(f"[1] {QUERY} result 1\n")

    # Ten results on a full first page of ten: no second page is needed.
    (request,) = sim["tinyfish"].requests
    assert request.method == "GET"
    assert request.path == "/"
    assert request.query == (("query", QUERY), ("num_results", "10"), ("page", "0"))
    assert request.header("X-API-Key") == "sim-key-tinyfish"
    assert request.header("Accept") == "application/json"
    assert request.body == b""


async def test_limit_15_fetches_page_0_then_page_1(sim: Simulator) -> None:
    sim["tinyfish"].results = _results(25)
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="tinyfish", limit=15)
    assert _pages(sim) == [("0", "10"), ("1", "10")]
    assert [s.title for s in response.sources] == [f"R{i}" for i in range(15)]


async def test_limit_5_fetches_only_page_0(sim: Simulator) -> None:
    sim["tinyfish"].results = _results(25)
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="tinyfish", limit=5)
    assert _pages(sim) == [("0", "5")]
    assert [s.title for s in response.sources] == [f"R{i}" for i in range(5)]


async def test_a_short_first_page_ends_pagination(sim: Simulator) -> None:
    sim["tinyfish"].results = _results(7)
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="tinyfish", num_search_results=20)
    assert _pages(sim) == [("0", "10")]
    assert len(response.sources) == 7


async def test_twenty_is_the_most_and_takes_two_pages(sim: Simulator) -> None:
    sim["tinyfish"].results = _results(40)
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="tinyfish", num_search_results=100)
    assert _pages(sim) == [("0", "10"), ("1", "10")]
    assert [s.title for s in response.sources] == [f"R{i}" for i in range(20)]


async def test_each_page_is_decoded_once(sim: Simulator, monkeypatch: pytest.MonkeyPatch) -> None:
    # The paging decision after each page and the final parse decoded every page again:
    # five decodes for two pages (84 against 16 ms on a large answer).
    decoded: list[int] = []
    decode = HttpResponse.json

    def counted(response: HttpResponse, provider: str, label: str) -> Any:
        decoded.append(id(response))
        return decode(response, provider, label)

    monkeypatch.setattr(HttpResponse, "json", counted)
    sim["tinyfish"].results = _results(40)
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="tinyfish", num_search_results=20)
    assert len(response.sources) == 20
    assert len(decoded) == 2
    assert len(set(decoded)) == 2


async def test_duplicates_across_pages_are_dropped(sim: Simulator) -> None:
    results = _results(20)
    results[12] = results[3]  # page 1 repeats a URL of page 0
    sim["tinyfish"].results = results
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="tinyfish", limit=20)
    urls = [s.url for s in response.sources]
    assert len(urls) == len(set(urls)) == 19
    assert _pages(sim) == [("0", "10"), ("1", "10")]


async def test_filters_are_sent_on_every_page(sim: Simulator) -> None:
    sim["tinyfish"].results = _results(25)
    async with sim_client(sim) as ws:
        await ws.search(
            QUERY,
            provider="tinyfish",
            limit=12,
            recency="month",
            include_domains=("example.org",),
            country="fr",
            language="fr",
        )
    # The domain goes in the query, as TinyFish documents, and as the reference's parameter.
    for page, request in enumerate(sim["tinyfish"].requests):
        assert request.query == (
            ("query", f"{QUERY} site:example.org"),
            ("recency_minutes", "43200"),
            ("include_domains", "example.org"),
            ("location", "FR"),
            ("language", "fr"),
            ("num_results", "10"),
            ("page", str(page)),
        )
    assert len(sim["tinyfish"].requests) == 2


async def test_explicit_dates_replace_recency_and_tinyfish_applies_them(sim: Simulator) -> None:
    # The reference forbids recency_minutes with after_date / before_date: the request half
    # is a guard (the adapter never mixed them); the sources half needs the simulator to
    # apply the dates as TinyFish does (date_window), which it did not before.
    sim["tinyfish"].honour_dates = True
    async with sim_client(sim) as ws:
        response = await ws.search(
            QUERY,
            provider="tinyfish",
            recency="week",
            date_after=date(2026, 1, 3),
            date_before=date(2026, 1, 5),
        )
    (request,) = sim["tinyfish"].requests
    sent = request.query_dict()
    assert "recency_minutes" not in sent
    assert (sent["after_date"], sent["before_date"]) == ("2026-01-03", "2026-01-05")
    assert [s.title for s in response.sources] == [f"{QUERY} result {i}" for i in (3, 4, 5)]
    applied = {record.name: record.applied for record in response.filters}
    assert applied["date_after"] == applied["date_before"] == ("native",)


# --- faults ----------------------------------------------------------------------------------


async def test_malformed_body(sim: Simulator) -> None:
    failure = await _failure(sim, Fault.malformed())
    assert isinstance(failure, ResponseParseError)
    assert failure.message == "TinyFish Search API returned an unexpected response shape"


async def test_non_json_body(sim: Simulator) -> None:
    failure = await _failure(sim, Fault.http(200, "<html>maintenance</html>"))
    assert isinstance(failure, ResponseParseError)
    assert failure.message == "TinyFish API returned invalid JSON"


async def test_fault_on_the_second_page_fails_the_search(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    sim["tinyfish"].results = _results(25)
    faults = iter([None, Fault.server_error()])  # page 0 answers, page 1 fails
    monkeypatch.setattr(sim["tinyfish"], "next_fault", lambda: next(faults, None))
    async with sim_client(sim) as ws:
        with pytest.raises(AllProvidersFailedError) as caught:
            await ws.search(QUERY, provider="tinyfish", limit=15)
    (failure,) = caught.value.failures
    assert isinstance(failure, ProviderUnavailableError)
    assert failure.message == "TinyFish API error (500): internal error"
    assert _pages(sim) == [("0", "10"), ("1", "10")]


# --- the protocol on its own ------------------------------------------------------------------


def _recorded(headers: dict[str, str], query: tuple[tuple[str, str], ...]) -> RecordedRequest:
    return RecordedRequest(method="GET", path="/", query=query, headers=headers, body=b"")


def test_protocol_refuses_a_missing_key() -> None:
    response = TinyFishProtocol().answer(_recorded({}, (("query", "x"),)), [])
    assert response.status == 401


@pytest.mark.parametrize("headers", [{}, {"X-API-Key": "  "}])
def test_protocol_names_a_missing_key_with_tinyfishs_code(headers: dict[str, str]) -> None:
    # TinyFish's error table: MISSING_API_KEY, 401, "No X-API-Key header was supplied".
    response = TinyFishProtocol().answer(_recorded(headers, (("query", "x"),)), [])
    assert isinstance(response, web.Response) and isinstance(response.text, str)
    error = json.loads(response.text)["error"]
    assert error["code"] == "MISSING_API_KEY"
    assert set(error) == {"code", "message", "details"}


@pytest.mark.parametrize(
    "query",
    [(), (("query", " "),), (("query", "x"), ("page", "11")), (("query", "x"), ("page", "a"))],
)
def test_protocol_refuses_bad_parameters(query: tuple[tuple[str, str], ...]) -> None:
    response = TinyFishProtocol().answer(_recorded({"X-API-Key": "k"}, query), _results(3))
    assert response.status == 400


@pytest.mark.parametrize(
    "freshness",
    [
        (("recency_minutes", "60"), ("after_date", "2026-01-01")),
        (("recency_minutes", "1440"), ("before_date", "2026-01-01")),
        (("recency_minutes", "0"),),
        (("recency_minutes", "5256001"),),
        (("recency_minutes", "week"),),
        (("after_date", "2026-1-5"),),
        (("before_date", "05/01/2026"),),
        (("after_date", "2026-01-06"), ("before_date", "2026-01-05")),
    ],
)
def test_protocol_refuses_what_tinyfishs_freshness_rules_refuse(
    freshness: tuple[tuple[str, str], ...],
) -> None:
    # docs.tinyfish.ai/search-api/reference: recency_minutes is 1..5256000 and never with a
    # date; dates are YYYY-MM-DD with after_date <= before_date.
    query = (("query", "x"), *freshness)
    response = TinyFishProtocol().answer(_recorded({"X-API-Key": "k"}, query), _results(3))
    assert response.status == 400


@pytest.mark.parametrize(
    "freshness",
    [
        (("recency_minutes", "5256000"),),
        (("after_date", "2026-01-05"), ("before_date", "2026-01-05")),
    ],
)
def test_protocol_accepts_the_limits_of_tinyfishs_freshness_rules(
    freshness: tuple[tuple[str, str], ...],
) -> None:
    # Guard (passes before and after): the edges the reference allows are not refused.
    query = (("query", "x"), *freshness)
    response = TinyFishProtocol().answer(_recorded({"X-API-Key": "k"}, query), _results(3))
    assert response.status == 200


def test_protocol_date_window_reads_recency_minutes_and_the_dates() -> None:
    dated = [
        SimResult(
            title=f"D{day}",
            url=f"https://d{day}.example.org/",
            snippet="s",
            published=f"2026-01-0{day}T12:00:00Z",
        )
        for day in range(1, 8)
    ]
    query = (("query", "x"), ("after_date", "2026-01-03"), ("before_date", "2026-01-05"))
    window = TinyFishProtocol().date_window(_recorded({"X-API-Key": "k"}, query))
    assert [r.title for r in dated if window.admits(r)] == ["D3", "D4", "D5"]
    recent = TinyFishProtocol().date_window(
        _recorded({"X-API-Key": "k"}, (("query", "x"), ("recency_minutes", "60")))
    )
    assert recent.earliest is not None
    assert datetime.now(UTC) - recent.earliest >= timedelta(minutes=60)
    assert not any(recent.admits(r) for r in dated)


def test_protocol_challenge_is_a_403() -> None:
    assert TinyFishProtocol().challenge().status == 403
