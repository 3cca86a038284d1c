"""A budget the store cannot check is skipped while another provider can answer, never fatal.

A broken state store degrades to "no state", never to a failed search (the design's
promise), and a budget is never spent unseen while another provider could answer. Both
hold: a budgeted provider whose reservation the store cannot check is skipped, and asked
after all, uncounted, only when every other provider has failed or was never there (a
chain of budgeted providers alone, a pinned or forced one, Public Web engines all failing or
finding nothing, wherever Public Web stands in the chain).
The attempt's detail and the response's notes say the request went uncounted, and one
warning of the ``websearch_core.state`` logger says it. Before, such a chain failed while
the store was down.
"""

import contextlib
import logging
import sqlite3
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from tests.functional._locked_store import behind_a_held_lock, budgeted_brave_first
from tests.stalling_proxy import silent_server
from websearch_core import SearchResponse, SearchToolResult, WebSearch
from websearch_core import providers as registry
from websearch_core.providers import duckduckgo as ddg
from websearch_core.providers.public import PublicProvider
from websearch_core.testing import SimResult, Simulator
from websearch_core.testing.faults import Fault
from websearch_core.testing.simulator import default_results

DEADLINE = 4.0
UNCOUNTED = (
    "Brave budget of 1000/month not checked (state store unavailable); asked as the last "
    "resort, the request uncounted."
)
SKIPPED = (
    "Brave budget of 1000/month cannot be checked while the state store is unavailable; "
    "skipped without a request."
)
PUBLIC_UNCOUNTED = (
    "Bing budget of 100/day not checked (state store unavailable); asked as the last resort, "
    "the request uncounted."
)
TAVILY_UNCOUNTED = PUBLIC_UNCOUNTED.replace("Bing", "Tavily")
ASKED_AGAIN = [("public", "failed"), ("tavily", "failed"), ("public", "success")]
"""Public Web then Tavily, and Public Web again as the last resort, for its held Bing."""


def _uncounted_warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.levelno == logging.WARNING and "uncounted" in r.getMessage()
    ]


def _sqlite(sim: Simulator, tmp_path: Path, providers: tuple[str, ...]) -> Any:
    """The shared budgeted chain with its state in ``tmp_path``'s SQLite file, no cache."""
    return budgeted_brave_first(
        sim, providers, DEADLINE, state_backend="sqlite", state_dir=tmp_path, cache=False
    )


async def _brave_alone_asked(
    tmp_path: Path,
    locked_file: sqlite3.Connection,
    caplog: pytest.LogCaptureFixture,
    *,
    rate_limited: bool = False,
) -> tuple[Simulator, SearchResponse]:
    """A chain of Brave alone searched behind the lock (its first answer a 429, if asked).

    ``caplog`` is cleared before that search, so it holds that search's warnings only.
    """
    async with Simulator(["brave"]) as sim:
        settings = _sqlite(sim, tmp_path, providers=("brave",))
        async with behind_a_held_lock(sim, settings, locked_file) as (ws, first):
            assert first.provider == "brave"  # the search that opened the store
            if rate_limited:
                sim["brave"].enqueue(Fault.rate_limited(retry_after=1))
            caplog.clear()
            return sim, await ws.search("rust tokio")


async def test_a_chain_of_one_budgeted_provider_answers_uncounted_behind_a_locked_file(
    tmp_path: Path, locked_file: sqlite3.Connection, caplog: pytest.LogCaptureFixture
) -> None:
    sim, response = await _brave_alone_asked(tmp_path, locked_file, caplog)
    assert sim["brave"].requests and len(sim["brave"].requests) == 2
    assert response.provider == "brave" and response.sources
    assert [(a.provider, a.outcome) for a in response.attempts] == [("brave", "success")]
    assert response.attempts[0].detail == UNCOUNTED
    assert UNCOUNTED in response.notes
    assert len(_uncounted_warnings(caplog)) == 1


async def _brave_asked_last(
    tmp_path: Path, locked_file: sqlite3.Connection, *, brave_finds: bool = True
) -> SearchToolResult:
    """Brave, then Tavily failing, behind the lock: Brave is skipped, then asked last.

    With ``brave_finds`` False its answer as the last resort holds nothing.
    """
    async with Simulator(["brave", "tavily"]) as sim:
        sim["tavily"].always(Fault.http(500, "upstream down"))
        settings = _sqlite(sim, tmp_path, providers=("brave", "tavily"))
        # The search that opens the store: Tavily fails, Brave answers.
        async with behind_a_held_lock(sim, settings, locked_file) as (ws, _):
            if not brave_finds:
                sim["brave"].results = []
            return await ws.run("rust tokio", use_cache=False)


async def test_a_skipped_budget_is_asked_last_after_every_other_provider_failed(
    tmp_path: Path, locked_file: sqlite3.Connection
) -> None:
    response = (await _brave_asked_last(tmp_path, locked_file)).response
    outcomes = [(a.provider, a.outcome, a.detail) for a in response.attempts]
    assert [o[:2] for o in outcomes] == [
        ("brave", "skipped"),
        ("tavily", "failed"),
        ("brave", "success"),
    ]
    assert outcomes[0][2] == SKIPPED and outcomes[2][2] == UNCOUNTED
    assert response.provider == "brave" and UNCOUNTED in response.notes


async def test_a_failed_last_resort_reads_its_failure_and_uncounted_note_as_one_sentence(
    tmp_path: Path, locked_file: sqlite3.Connection
) -> None:
    # Before, the failure's own full stop stayed before the join: "... no renderable search
    # content.; Brave budget ...".
    result = await _brave_asked_last(tmp_path, locked_file, brave_finds=False)
    last = result.response.attempts[-1]
    assert (last.provider, last.outcome) == ("brave", "failed")
    assert last.detail == f"Brave returned no renderable search content; {UNCOUNTED}"
    # The final error reads the detail's text: the request went uncounted, failed or not.
    assert result.error == (
        "All web search providers failed: tavily: Tavily API error (500): upstream down; "
        f"brave: Brave returned no renderable search content; {UNCOUNTED}"
    )


async def test_a_budget_is_still_not_spent_while_another_provider_answers(
    tmp_path: Path, locked_file: sqlite3.Connection
) -> None:
    async with Simulator(["brave", "tavily"]) as sim:
        settings = _sqlite(sim, tmp_path, providers=("brave", "tavily"))
        async with behind_a_held_lock(sim, settings, locked_file) as (ws, _):
            response = await ws.search("rust tokio")
    assert response.provider == "tavily"
    assert len(sim["brave"].requests) == 1  # the first search's only


@pytest.mark.parametrize("how", ["forced", "pinned"])
async def test_a_forced_or_pinned_budgeted_provider_answers_uncounted_from_a_silent_redis(
    how: str, caplog: pytest.LogCaptureFixture
) -> None:
    pytest.importorskip("redis")
    with silent_server() as port:
        async with Simulator(["brave", "tavily"]) as sim:
            url = f"redis://:hunter2-redis-secret@127.0.0.1:{port}/0"
            pinned = {"provider": "brave", "fallback": False}
            chosen: dict[str, Any] = pinned if how == "pinned" else {}
            settings = sim.settings(
                timeout_seconds=None,
                deadline_seconds=DEADLINE,
                budget={"brave": "1000/month"},
                state_backend="redis",
                redis_url=url,
                **chosen,
            )
            async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
                if how == "forced":
                    result = await ws.run("python asyncio", provider="brave", use_cache=False)
                else:
                    result = await ws.run("python asyncio", use_cache=False)
    assert not result.is_error, result.text
    assert result.response.provider == "brave"
    assert UNCOUNTED in result.response.notes
    assert len(sim["brave"].requests) == 1 and sim["tavily"].requests == []
    assert len(_uncounted_warnings(caplog)) == 1
    assert "hunter2" not in caplog.text


async def test_public_web_asks_an_unchecked_engine_only_when_the_others_failed(
    tmp_path: Path, locked_file: sqlite3.Connection
) -> None:
    async with Simulator(["duckduckgo", "bing"]) as sim:
        settings = _public_alone(sim, tmp_path)
        async with behind_a_held_lock(sim, settings, locked_file) as (ws, first):
            assert not first.partial  # the search that opened the store
            sim["duckduckgo"].always(Fault.http(503, "down"))
            response = await ws.search("rust tokio")
    assert response.provider == "public" and response.sources
    assert len(sim["bing"].requests) == 2
    notes = " ".join(response.notes)
    assert "Bing budget of 100/day not checked (state store unavailable)" in notes
    assert "duckduckgo" in notes


def _public_sqlite(
    sim: Simulator, tmp_path: Path, timeout_seconds: float | None = None, **more: Any
) -> Any:
    """Bing under a budget, state in ``tmp_path``'s SQLite file, no cache to answer instead."""
    return sim.settings(
        timeout_seconds=timeout_seconds,
        deadline_seconds=20.0,
        budget={"bing": "100/day"},
        state_backend="sqlite",
        state_dir=tmp_path,
        cache=False,
        **more,
    )


def _public_alone(sim: Simulator, tmp_path: Path) -> Any:
    """Public Web pinned alone (nothing after it to ask first)."""
    return _public_sqlite(sim, tmp_path, provider="public", fallback=False)


def _public_chain(sim: Simulator, tmp_path: Path, timeout_seconds: float | None = None) -> Any:
    """Public Web, then Tavily (unbudgeted): the provider a held engine must wait for."""
    return _public_sqlite(
        sim, tmp_path, providers=("public", "tavily"), timeout_seconds=timeout_seconds
    )


@contextlib.asynccontextmanager
async def _public_chain_held(
    tmp_path: Path,
    locked_file: sqlite3.Connection,
    engines: tuple[str, ...] = ("duckduckgo", "bing"),
    timeout_seconds: float | None = None,
) -> AsyncIterator[tuple[Simulator, WebSearch]]:
    """Public Web (over ``engines``) then Tavily, the store opened, then its file locked.

    The simulator outlives the block, for the requests its services saw.
    """
    async with Simulator([*engines, "tavily"]) as sim:
        settings = _public_chain(sim, tmp_path, timeout_seconds=timeout_seconds)
        async with behind_a_held_lock(sim, settings, locked_file) as (ws, _):
            yield sim, ws


def _break_duckduckgo(sim: Simulator, how: str) -> None:
    """Public Web's other engine fails (``failing``) or answers with nothing (``empty``)."""
    if how == "failing":
        sim["duckduckgo"].always(Fault.http(503, "down"))
    else:
        sim["duckduckgo"].results = []


async def public_web_asked_last(
    tmp_path: Path,
    locked_file: sqlite3.Connection,
    duckduckgo: str,
    caplog: pytest.LogCaptureFixture | None = None,
) -> tuple[Simulator, SearchResponse]:
    """Public Web then Tavily behind the lock; DuckDuckGo fails or finds nothing, Tavily fails.

    Bing, held back while its budget cannot be checked, is then asked as the last resort
    and answers. ``caplog`` is cleared just before that search, when given.
    """
    async with _public_chain_held(tmp_path, locked_file) as (sim, ws):
        _break_duckduckgo(sim, duckduckgo)
        sim["tavily"].always(Fault.http(500, "upstream down"))
        if caplog is not None:
            caplog.clear()
        return sim, await ws.search("rust tokio")


@pytest.mark.parametrize("duckduckgo", ["failing", "empty"])
async def test_an_unchecked_engine_waits_for_the_providers_after_public_web(
    tmp_path: Path, locked_file: sqlite3.Connection, duckduckgo: str
) -> None:
    # Whether Public Web's other engine failed or found nothing, its held engine is left
    # to the next provider: Tavily answers, and Bing is not asked.
    async with _public_chain_held(tmp_path, locked_file) as (sim, ws):
        _break_duckduckgo(sim, duckduckgo)
        response = await ws.search("rust tokio")
    assert response.provider == "tavily"
    assert [(a.provider, a.outcome) for a in response.attempts] == [
        ("public", "failed"),
        ("tavily", "success"),
    ]
    assert len(sim["bing"].requests) == 1  # the first search's only


@pytest.mark.parametrize("duckduckgo", ["failing", "empty"])
async def test_public_web_is_asked_again_for_its_unchecked_engines_when_the_chain_failed(
    tmp_path: Path,
    locked_file: sqlite3.Connection,
    caplog: pytest.LogCaptureFixture,
    duckduckgo: str,
) -> None:
    # Found nothing: its other engine answered with no results (not a failure). Before,
    # Public Web then ended with "no renderable content", and Bing, held back, was never
    # asked.
    sim, response = await public_web_asked_last(tmp_path, locked_file, duckduckgo, caplog)
    outcomes = [(a.provider, a.outcome, a.detail) for a in response.attempts]
    assert [o[:2] for o in outcomes] == ASKED_AGAIN
    if duckduckgo == "empty":
        assert outcomes[0][2] == (
            "Public Web returned no renderable search content. Engines that did not answer: "
            "bing: budget of 100/day unchecked: state store unavailable, not asked."
        )
    assert response.provider == "public" and response.sources
    assert len(sim["bing"].requests) == 2
    assert len(sim["duckduckgo"].requests) == 2  # once per search: not again as a last resort
    assert any("Bing budget of 100/day not checked" in note for note in response.notes)
    assert PUBLIC_UNCOUNTED in response.notes
    assert _uncounted_warnings(caplog) == [PUBLIC_UNCOUNTED]


async def test_public_web_last_behind_a_held_provider_asks_its_unchecked_engine_in_chain_order(
    tmp_path: Path, locked_file: sqlite3.Connection, caplog: pytest.LogCaptureFixture
) -> None:
    # Tavily, held before it, made Public Web's turn a held one too: the last resort asks
    # both, in chain order, and Public Web's Bing answers when Tavily fails.
    async with Simulator(["duckduckgo", "bing", "tavily"]) as sim:
        settings = sim.settings(
            timeout_seconds=None,
            deadline_seconds=20.0,
            providers=("tavily", "public"),
            budget={"bing": "100/day", "tavily": "100/day"},
            state_backend="sqlite",
            state_dir=tmp_path,
            cache=False,
        )
        # The search that opens the store: Tavily answers.
        async with behind_a_held_lock(sim, settings, locked_file) as (ws, _):
            sim["duckduckgo"].results = []
            sim["tavily"].always(Fault.http(500, "upstream down"))
            caplog.clear()
            response = await ws.search("rust tokio")
    assert [(a.provider, a.outcome) for a in response.attempts] == [
        ("tavily", "skipped"),
        ("public", "failed"),
        ("tavily", "failed"),
        ("public", "success"),
    ]
    assert response.provider == "public" and response.sources
    assert len(sim["bing"].requests) == 1 and len(sim["tavily"].requests) == 2
    assert PUBLIC_UNCOUNTED in response.notes
    assert sorted(_uncounted_warnings(caplog)) == [PUBLIC_UNCOUNTED, TAVILY_UNCOUNTED]


async def test_a_last_resort_retried_after_a_short_rate_limit_reserves_once(
    tmp_path: Path, locked_file: sqlite3.Connection, caplog: pytest.LogCaptureFixture
) -> None:
    # The retry after a short 429 reserved again: a second uncounted reservation, a second
    # warning, and the first attempt's detail did not say its request went uncounted.
    sim, response = await _brave_alone_asked(tmp_path, locked_file, caplog, rate_limited=True)
    assert len(sim["brave"].requests) == 3  # the first search's, the 429, the retry
    assert len(_uncounted_warnings(caplog)) == 1
    outcomes = [(a.provider, a.outcome, a.detail) for a in response.attempts]
    assert outcomes == [
        ("brave", "failed", f"rate limited; retrying after 1s; {UNCOUNTED}"),
        ("brave", "success", UNCOUNTED),
    ]
    assert response.notes.count(UNCOUNTED) == 1


@pytest.mark.parametrize("backend", ["memory", "sqlite"])
async def test_a_counted_retry_after_a_short_rate_limit_counts_its_own_request(
    tmp_path: Path, backend: str
) -> None:
    # The other half of the rule: a counted request retried is two requests its budget saw.
    async with Simulator(["brave"]) as sim:
        sim["brave"].enqueue(Fault.rate_limited(retry_after=1))
        settings = budgeted_brave_first(
            sim, ("brave",), DEADLINE, state_backend=backend, state_dir=tmp_path, cache=False
        )
        async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
            response = await ws.search("python asyncio")
            rows = {row.id: row for row in await ws.provider_status()}
    assert [(a.provider, a.outcome) for a in response.attempts] == [
        ("brave", "failed"),
        ("brave", "success"),
    ]
    assert response.attempts[0].detail == "rate limited; retrying after 1s"
    assert len(sim["brave"].requests) == 2
    assert (rows["brave"].budget_used, rows["brave"].used_this_month) == (2, 2)


# --- what the last resort reports: both passes' engines, its uncounted request --------------


async def _public_last_resort_fails(
    tmp_path: Path, locked_file: sqlite3.Connection, *, duckduckgo_empty: bool
) -> Any:
    """Public Web then Tavily; DuckDuckGo fails or finds nothing, and so does everything else."""
    async with _public_chain_held(tmp_path, locked_file) as (sim, ws):
        _break_duckduckgo(sim, "empty" if duckduckgo_empty else "failing")
        sim["tavily"].always(Fault.http(500, "upstream down"))
        sim["bing"].always(Fault.http(503, "bing down"))
        result = await ws.run("rust tokio", use_cache=False)
    assert len(sim["bing"].requests) == 2 and len(sim["duckduckgo"].requests) == 2
    return result


async def test_a_failed_last_resort_still_names_the_engines_that_failed_in_the_first_pass(
    tmp_path: Path, locked_file: sqlite3.Connection
) -> None:
    # Before, the final error named Bing alone: DuckDuckGo's failure, news of the first
    # pass, was dropped when the last resort replaced Public Web's error.
    result = await _public_last_resort_fails(tmp_path, locked_file, duckduckgo_empty=False)
    assert result.is_error
    assert result.text == (
        "Error: All web search providers failed: tavily: Tavily API error (500): upstream "
        "down; public: All public engines failed: duckduckgo, bing: failed (HTTP 503); "
        f"{PUBLIC_UNCOUNTED}"
    )
    last = result.response.attempts[-1]
    assert (last.provider, last.outcome, last.status) == ("public", "failed", 503)
    assert last.detail == (
        f"All public engines failed: duckduckgo, bing: failed (HTTP 503); {PUBLIC_UNCOUNTED}"
    )


async def test_a_failed_last_resort_after_engines_that_found_nothing_says_nothing_was_found(
    tmp_path: Path, locked_file: sqlite3.Connection
) -> None:
    # DuckDuckGo answered with nothing: Public Web as a whole found nothing (204), as it
    # says when every engine is asked at once, not "All public engines failed" (503).
    result = await _public_last_resort_fails(tmp_path, locked_file, duckduckgo_empty=True)
    assert result.text == (
        "Error: All web search providers failed: tavily: Tavily API error (500): upstream "
        "down; public: Public Web returned no renderable search content. Engines that did "
        f"not answer: bing: failed (HTTP 503); {PUBLIC_UNCOUNTED}"
    )
    last = result.response.attempts[-1]
    assert last.detail == (
        "Public Web returned no renderable search content. Engines that did not answer: "
        f"bing: failed (HTTP 503); {PUBLIC_UNCOUNTED}"
    )


OFF_SITE = [SimResult("Tokio", "https://tokio.elsewhere.example/", "Tokio, async Rust.")]


@pytest.mark.parametrize("bing", ["failing", "off-site"])
async def test_a_failed_last_resort_after_results_the_filters_dropped_names_the_filters(
    tmp_path: Path, locked_file: sqlite3.Connection, bing: str
) -> None:
    # DuckDuckGo's results all fail the site (its own check drops them before the merge),
    # Bing is held, Tavily fails, and the last resort's Bing fails or finds only results
    # off the site too. Before, both passes said "no renderable search content".
    async with _public_chain_held(tmp_path, locked_file) as (sim, ws):
        sim["duckduckgo"].results = list(OFF_SITE)
        sim["duckduckgo"].honour_operators = False  # its answer leaks off the site
        sim["tavily"].always(Fault.http(500, "upstream down"))
        if bing == "failing":
            sim["bing"].always(Fault.http(503, "bing down"))
        else:
            sim["bing"].results = list(OFF_SITE)
            sim["bing"].honour_operators = False
        result = await ws.run("rust tokio site:wanted.example", use_cache=False)
    assert len(sim["bing"].requests) == 2 and len(sim["duckduckgo"].requests) == 2
    first, tavily, last = result.response.attempts
    assert (first.provider, first.status, tavily.provider) == ("public", 204, "tavily")
    assert first.detail == (
        f"Public Web returned no results matching the filters (include_domains dropped "
        f"{len(OFF_SITE)}). Engines that did not answer: bing: budget of 100/day unchecked: "
        "state store unavailable, not asked."
    )
    why = " Engines that did not answer: bing: failed (HTTP 503)." if bing == "failing" else ""
    # The last resort's Bing, answering off the site, adds its own to DuckDuckGo's.
    dropped = len(OFF_SITE) * (1 if bing == "failing" else 2)
    text = (
        f"Public Web returned no results matching the filters (include_domains dropped "
        f"{dropped}).{why}"
    )
    assert (last.provider, last.outcome, last.status) == ("public", "failed", 204)
    # The uncounted note once, whether Bing failed or answered: before, an answer's note
    # was among Public Web's notes, which its error text repeats, and joined again after it.
    said = f"{text.removesuffix('.')}; {PUBLIC_UNCOUNTED}"
    assert last.detail == said
    assert result.text == (
        "Error: All web search providers failed: tavily: Tavily API error (500): upstream "
        f"down; public: {said}"
    )


async def test_public_web_answering_as_the_last_resort_says_so_in_its_attempt_and_its_notes(
    tmp_path: Path, locked_file: sqlite3.Connection
) -> None:
    # As the chain says of a budgeted provider it asks last: the attempt's detail too.
    _, response = await public_web_asked_last(tmp_path, locked_file, "failing")
    last = response.attempts[-1]
    assert (last.provider, last.outcome, last.detail) == ("public", "success", PUBLIC_UNCOUNTED)
    assert response.notes.count(PUBLIC_UNCOUNTED) == 1  # said by the chain, not the engine too
    # The answer is Bing's alone: DuckDuckGo's failure in the first pass makes it partial.
    assert response.partial
    assert "Engines that did not answer: duckduckgo: failed (HTTP 503)" in response.notes


async def test_public_web_last_in_the_chain_says_its_uncounted_engine_in_its_attempt(
    tmp_path: Path, locked_file: sqlite3.Connection
) -> None:
    async with Simulator(["duckduckgo", "bing"]) as sim:
        settings = _public_alone(sim, tmp_path)
        async with behind_a_held_lock(sim, settings, locked_file) as (ws, _):
            sim["duckduckgo"].results = []
            response = await ws.search("rust tokio")
    assert [(a.provider, a.outcome, a.detail) for a in response.attempts] == [
        ("public", "success", PUBLIC_UNCOUNTED)
    ]
    assert PUBLIC_UNCOUNTED in response.notes


async def test_public_web_with_an_engine_cut_off_and_the_rest_empty_holds_its_unchecked_engine(
    tmp_path: Path, locked_file: sqlite3.Connection
) -> None:
    # Yahoo still running at Public Web's hard cap is cut off (it neither failed nor
    # answered) and DuckDuckGo found nothing: Bing, held back, is asked as the last resort.
    async with _public_chain_held(
        tmp_path, locked_file, engines=("duckduckgo", "bing", "yahoo"), timeout_seconds=1.5
    ) as (sim, ws):
        sim["duckduckgo"].results = []
        sim["yahoo"].always(Fault.hang())
        sim["tavily"].always(Fault.http(500, "upstream down"))
        response = await ws.search("rust tokio")
    outcomes = [(a.provider, a.outcome, a.detail) for a in response.attempts]
    assert [o[:2] for o in outcomes] == ASKED_AGAIN
    assert outcomes[0][2] == (
        "Public Web returned no renderable search content. Engines that did not answer: "
        "bing: budget of 100/day unchecked: state store unavailable, not asked; "
        "yahoo: cut off at the deadline."
    )
    assert response.provider == "public" and response.sources
    assert len(sim["bing"].requests) == 2 and len(sim["yahoo"].requests) == 2
    assert "Engines that did not answer: yahoo: cut off at the deadline" in response.notes
    assert PUBLIC_UNCOUNTED in response.notes


class _TrustedDuckDuckGo(ddg.DuckDuckGoProvider):
    """DuckDuckGo as an engine whose results are not checked as it answers (an embedder's
    engine may declare so): its ``site:`` goes into the query and is trusted, and only
    Public Web's own check of the merged results applies it."""

    info = replace(ddg.INFO, filters=replace(ddg.INFO.filters, checked=frozenset()))


WANTED = [SimResult("Tokio", "https://docs.wanted.example/tokio", "Tokio, async Rust.")]


@pytest.fixture
def trusted_duckduckgo(monkeypatch: pytest.MonkeyPatch) -> None:
    """Public Web's engines for the test: :class:`_TrustedDuckDuckGo`, then Bing."""
    public = PublicProvider(engines=[_TrustedDuckDuckGo(), registry.get_provider("bing")])
    monkeypatch.setitem(registry._instances, "public", public)


@pytest.mark.usefixtures("trusted_duckduckgo")
async def test_engine_results_that_all_fail_public_webs_own_filter_hold_its_unchecked_engine(
    tmp_path: Path, locked_file: sqlite3.Connection
) -> None:
    # DuckDuckGo's results reached the merge, and Public Web's include_domains check then
    # dropped them all: before, that counted as found, so Public Web ended with "no results
    # matching the filters" and Bing, held back, was never asked.
    async with _public_chain_held(tmp_path, locked_file) as (sim, ws):
        sim["duckduckgo"].honour_operators = False  # its answer leaks off the site
        sim["bing"].results = list(WANTED)
        sim["tavily"].always(Fault.http(500, "upstream down"))
        response = await ws.search("rust tokio site:wanted.example")
    outcomes = [(a.provider, a.outcome, a.detail) for a in response.attempts]
    assert [o[:2] for o in outcomes] == ASKED_AGAIN
    # DuckDuckGo served the simulator's default results, all off the site.
    dropped = len(default_results("rust tokio site:wanted.example"))
    assert outcomes[0][2] == (
        f"Public Web returned no results matching the filters (include_domains dropped "
        f"{dropped}). Engines that did not answer: bing: budget of 100/day unchecked: state "
        "store unavailable, not asked."
    )
    assert [source.url for source in response.sources] == ["https://docs.wanted.example/tokio"]
    assert len(sim["bing"].requests) == 2 and len(sim["duckduckgo"].requests) == 2
    assert PUBLIC_UNCOUNTED in response.notes


@pytest.mark.usefixtures("trusted_duckduckgo")
async def test_public_web_alone_asks_its_unchecked_engine_when_its_own_filter_kept_nothing(
    tmp_path: Path, locked_file: sqlite3.Connection
) -> None:
    # Nothing after Public Web: its held engine is asked within the same turn, once no
    # other engine's result survives Public Web's own check (before: once none had any).
    async with Simulator(["duckduckgo", "bing"]) as sim:
        settings = _public_alone(sim, tmp_path)
        async with behind_a_held_lock(sim, settings, locked_file) as (ws, _):
            sim["bing"].results = list(WANTED)
            response = await ws.search("rust tokio site:wanted.example")
    assert [(a.provider, a.outcome, a.detail) for a in response.attempts] == [
        ("public", "success", PUBLIC_UNCOUNTED)
    ]
    assert [source.url for source in response.sources] == ["https://docs.wanted.example/tokio"]
    assert len(sim["bing"].requests) == 2
