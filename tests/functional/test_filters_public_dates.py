"""Public Web names every filter its engines' own checks dropped results for, not domains alone.

Besides the domains, Public Web's engines check the dates (``date_after``,
``date_before``), a ``recency`` they cannot send (Ecosia has none, Yahoo no year) and
``filetype`` (Mojeek reads no ``filetype:``) on their own results. Each simulated engine
honours the date parameter it sends (``honour_dates``), as the real one does, so what it
applied upstream is left out by the engine and what it could not is dropped by its check.
"""

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.functional.test_budget_last_resort import PUBLIC_UNCOUNTED, _public_chain_held
from websearch_core import WebSearch
from websearch_core import providers as registry
from websearch_core.filters import plan_filters
from websearch_core.models import SearchParams
from websearch_core.providers.bing import BingProvider
from websearch_core.providers.ecosia import EcosiaProvider
from websearch_core.providers.mojeek import MojeekProvider
from websearch_core.providers.public import ENGINE_ORDER, PublicProvider
from websearch_core.providers.yahoo import YahooProvider
from websearch_core.testing import SimResult, Simulator
from websearch_core.testing.faults import Fault

ENGINES = list(ENGINE_ORDER)
OLD = [
    SimResult("Laravel", "https://github.com/laravel/laravel", "The framework.", "2020-03-01"),
    SimResult("Laravel core", "https://github.com/laravel/framework", "The core.", "2020-04-01"),
]
"""On the site the domain tests ask for, so only the other filter leaves them out."""
UNDATED_ENGINE = "mojeek"
"""Its page shows no dates: it keeps its results unchecked for a date it cannot send."""

CASES = [
    pytest.param("laravel after:2025-01-01", {}, "date_after", (UNDATED_ENGINE,), id="after:"),
    pytest.param("laravel", {"date_after": "2025-01-01"}, "date_after", (UNDATED_ENGINE,)),
    pytest.param("laravel before:2019-01-01", {}, "date_before", (UNDATED_ENGINE,), id="before:"),
    pytest.param("laravel", {"date_before": "2019-01-01"}, "date_before", (UNDATED_ENGINE,)),
    pytest.param("laravel", {"recency": "week"}, "recency", ()),
    pytest.param("laravel", {"recency": "year"}, "recency", ()),
    # Only Mojeek takes no filetype: in the query; the others are trusted to apply it.
    pytest.param(
        "laravel filetype:pdf",
        {},
        "filetype",
        tuple(e for e in ENGINES if e != UNDATED_ENGINE),
        id="filetype:",
    ),
]


@pytest.fixture
async def sim(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Simulator]:
    monkeypatch.setenv("WEBSEARCH_BROWSER", "off")
    async with Simulator(ENGINES) as simulator:
        for engine_id in ENGINES:
            simulator[engine_id].results = list(OLD)
            simulator[engine_id].honour_dates = True
        yield simulator


def _checking(name: str, query: str, fields: dict[str, str], excluded: tuple[str, ...]) -> int:
    """How many engines asked check ``name`` on their own results, rather than send it.

    An engine that sends the filter upstream is left nothing by its simulator (dates and
    operators honoured), so only these engines drop results for it.
    """
    params = SearchParams(query=query, **fields)  # type: ignore[arg-type]
    return sum(
        name in plan_filters(params, registry.get_provider(e).info).checks
        for e in ENGINES
        if e not in excluded
    )


def _dropped(name: str, query: str, fields: dict[str, str], excluded: tuple[str, ...]) -> str:
    """``name dropped N``: both results of each engine that checks ``name`` on its own."""
    return f"{name} dropped {len(OLD) * _checking(name, query, fields, excluded)}"


async def _run(sim: Simulator, query: str, excluded: tuple[str, ...], **fields: Any) -> Any:
    async with WebSearch(sim.settings(exclude=excluded)) as ws:
        return await ws.run(query, provider="public", use_cache=False, **fields)


@pytest.mark.parametrize(("query", "fields", "name", "excluded"), CASES)
async def test_results_every_engine_dropped_for_one_filter_name_it(
    sim: Simulator, query: str, fields: dict[str, str], name: str, excluded: tuple[str, ...]
) -> None:
    result = await _run(sim, query, excluded, **fields)
    dropped = _dropped(name, query, fields, excluded)
    assert result.error == f"Public Web returned no results matching the filters ({dropped})."
    (attempt,) = result.response.attempts
    assert (attempt.provider, attempt.outcome, attempt.status) == ("public", "failed", 204)


@pytest.mark.parametrize(("query", "fields", "name", "excluded"), CASES)
async def test_a_domain_filter_every_result_met_is_not_named(
    sim: Simulator, query: str, fields: dict[str, str], name: str, excluded: tuple[str, ...]
) -> None:
    # The results are on the site; the other filter dropped them. Only that one is named:
    # before, the site was named too, and a caller loosening it would find the same nothing.
    result = await _run(sim, f"{query} site:github.com", excluded, **fields)
    dropped = _dropped(name, query, fields, excluded)
    assert result.error == f"Public Web returned no results matching the filters ({dropped})."


async def test_each_filter_that_dropped_results_is_named_in_the_order_listed(
    sim: Simulator,
) -> None:
    # Engines that leak off the site: one result is on the site but too old, the other
    # recent but off it. Each filter dropped one, so both are named, the domain first (the
    # order a single provider names them in).
    recent_off_site = SimResult("News", "https://laravel-news.com/x", "News.", "2026-11-01")
    for engine_id in ENGINES:
        sim[engine_id].results = [OLD[0], recent_off_site]
        sim[engine_id].honour_operators = False
    query = "laravel after:2025-01-01 site:github.com"
    result = await _run(sim, query, (UNDATED_ENGINE,))
    # Each engine leaks the recent page off the site; the old one reaches the date check
    # only at the engines that cannot send the date.
    off_site = len(ENGINES) - 1
    too_old = _checking("date_after", query, {}, (UNDATED_ENGINE,))
    assert result.error == (
        f"Public Web returned no results matching the filters (include_domains dropped "
        f"{off_site}, date_after dropped {too_old})."
    )


async def test_an_engine_that_cannot_date_its_results_keeps_them(sim: Simulator) -> None:
    # Mojeek's page shows no dates: its results pass unchecked, and Public Web answers
    # with them, the date filter reported as partly unchecked.
    result = await _run(sim, "laravel after:2025-01-01", ())
    assert result.error is None, result.error
    assert [s.url for s in result.response.sources] == [r.url for r in OLD]
    assert "date_after=2025-01-01 (some results unchecked)" in result.text


async def test_filters_named_by_different_engines_come_in_the_order_listed(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Mojeek (filetype checked here) ahead of Yahoo (a year's recency checked here): each
    # names its own filter, and the text lists them as a single provider would (recency
    # first), not in the order the engines were given.
    # Mojeek serves its results (the year's filter let them through), which are no PDFs;
    # Yahoo, which reads filetype:, serves its PDFs, all older than a year.
    sim["mojeek"].honour_dates = False
    sim["yahoo"].results = [
        SimResult("Laravel", "https://github.com/laravel/guide.pdf", "The guide.", "2020-03-01")
    ]
    public = PublicProvider(engines=[MojeekProvider(), YahooProvider()])
    monkeypatch.setitem(registry._instances, "public", public)
    result = await _run(sim, "laravel filetype:pdf", (), recency="year")
    # Yahoo's one PDF is too old; Mojeek's pages are no PDFs.
    assert result.error == (
        f"Public Web returned no results matching the filters (recency dropped "
        f"{len(sim['yahoo'].results)}, filetype dropped {len(OLD)})."
    )


@pytest.mark.parametrize("bing", ["failing", "finds nothing recent"])
async def test_a_last_resort_whose_engines_dropped_results_for_recency_names_it(
    tmp_path: Path, locked_file: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch, bing: str
) -> None:
    # Ecosia's own check drops its results for the recency, Bing is held for its unchecked
    # budget, Tavily fails, and the last resort's Bing fails or, honouring the recency
    # itself, finds nothing: both passes name the recency.
    public = PublicProvider(engines=[EcosiaProvider(), BingProvider()])
    monkeypatch.setitem(registry._instances, "public", public)
    engines = ("ecosia", "bing")
    async with _public_chain_held(tmp_path, locked_file, engines) as (sim, ws):
        for engine_id in engines:
            sim[engine_id].results = list(OLD)
            sim[engine_id].honour_dates = True
        sim["tavily"].always(Fault.http(500, "upstream down"))
        if bing == "failing":
            sim["bing"].always(Fault.http(503, "bing down"))
        result = await ws.run("laravel", recency="week", use_cache=False)
    first, tavily, last = result.response.attempts
    assert (first.provider, first.status, tavily.provider) == ("public", 204, "tavily")
    # Ecosia's check dropped both its results, in each pass; Bing's held none back.
    recency = f"recency dropped {len(OLD)}"
    assert first.detail == (
        f"Public Web returned no results matching the filters ({recency}). Engines that did "
        "not answer: bing: budget of 100/day unchecked: state store unavailable, not asked."
    )
    why = ". Engines that did not answer: bing: failed (HTTP 503)" if bing == "failing" else ""
    said = (
        f"Public Web returned no results matching the filters ({recency}){why}; {PUBLIC_UNCOUNTED}"
    )
    assert (last.provider, last.outcome, last.status, last.detail) == (
        "public",
        "failed",
        204,
        said,
    )
    assert result.error == (
        f"All web search providers failed: tavily: Tavily API error (500): upstream down; "
        f"public: {said}"
    )
