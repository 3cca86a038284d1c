"""Public Web: fan-out, deadlines, failures, merge order and provenance.

Three layers:

* Deadlines with the real defaults (5 s soft, 30 s hard) on a virtual-clock event loop:
  fake engines sleep for chosen latencies, the loop's clock jumps to the next timer instead
  of waiting, so the tests are exact and take milliseconds.
* End to end through ``WebSearch(provider="public")`` against the loopback simulator:
  the real DuckDuckGo engine plus loopback stub engines (DuckDuckGo's own wire protocol
  under other ids, with chosen indexes and latencies), shortened deadlines, wall-clock
  tolerances.
* The registry path: the engines that are registered now, each on its simulated server.
"""

import asyncio
import gc
import logging
import selectors
import time
from collections.abc import AsyncIterator, Coroutine, Iterator, Sequence
from dataclasses import replace
from typing import Any, ClassVar, TypeVar, cast
from urllib.parse import urlsplit

import pytest

from websearch_core import WebSearch
from websearch_core import providers as registry
from websearch_core.credentials import Credentials
from websearch_core.errors import (
    AllProvidersFailedError,
    ChallengeError,
    ProviderUnavailableError,
    SearchProviderError,
)
from websearch_core.models import SearchParams, SearchResponse, SearchSource, SourceRank
from websearch_core.orchestration import attempt as attempt_module
from websearch_core.providers import duckduckgo as ddg
from websearch_core.providers.base import ProviderContext, ProviderInfo, SearchProvider, clamp_count
from websearch_core.providers.public import (
    ALL_EXCLUDED_MESSAGE,
    ENGINE_ORDER,
    INFO,
    PublicEnginesFailedError,
    PublicProvider,
    engine_params,
    registered_engines,
)
from websearch_core.settings import Settings
from websearch_core.testing import PROTOCOLS, Fault, SimResult, SimulatedProvider, Simulator
from websearch_core.testing.protocols.duckduckgo import DuckDuckGoProtocol
from websearch_core.testing.simulator import default_results
from websearch_core.transport import Transport, raise_for_status

QUERY = "public web consensus"
_T = TypeVar("_T")


# --- virtual clock ----------------------------------------------------------------------------


class _TimeTravelSelector(selectors.DefaultSelector):  # type: ignore[misc,valid-type]
    """Polls without blocking and moves the loop's clock to the next timer instead."""

    def __init__(self) -> None:
        super().__init__()
        self.now = 0.0

    def select(self, timeout: float | None = None) -> list[Any]:
        events: list[Any] = super().select(0)
        if not events and timeout is not None and timeout > 0:
            self.now += timeout
        elif not events and timeout is None:
            raise RuntimeError("virtual clock: nothing scheduled and nothing ready (deadlock)")
        return events


class _VirtualClockLoop(asyncio.SelectorEventLoop):
    def __init__(self) -> None:
        self._selector_clock = _TimeTravelSelector()
        super().__init__(self._selector_clock)

    def time(self) -> float:
        return self._selector_clock.now


def _run_virtual(coroutine: Coroutine[Any, Any, _T]) -> tuple[_T, float]:
    """Run ``coroutine`` on a virtual clock; returns its result and the virtual seconds taken."""
    loop = _VirtualClockLoop()
    try:
        started = loop.time()
        result = loop.run_until_complete(coroutine)
        return result, loop.time() - started
    finally:
        loop.close()


class _FakeEngine(SearchProvider):
    """An engine that answers after ``latency`` virtual seconds, or fails, or never answers."""

    info: ClassVar[ProviderInfo]

    def __init__(
        self, latency: float, urls: Sequence[str] = (), error: Exception | None = None
    ) -> None:
        self.latency = latency
        self.urls = list(urls)
        self.error = error
        self.calls: list[SearchParams] = []
        self.cancelled = False
        self.finished = False

    def is_available(self, context: ProviderContext) -> bool:
        return True

    async def search(self, params: SearchParams, context: ProviderContext) -> SearchResponse:
        self.calls.append(params)
        try:
            await asyncio.sleep(self.latency)
        except asyncio.CancelledError:
            self.cancelled = True
            raise
        self.finished = True
        if self.error is not None:
            raise self.error
        sources = tuple(SearchSource(title=f"T {url}", url=url) for url in self.urls)
        return SearchResponse(provider=self.info.id, sources=sources)


def _fake(
    engine_id: str,
    latency: float,
    urls: Sequence[str] = (),
    *,
    index: str | None = None,
    error: Exception | None = None,
) -> _FakeEngine:
    info = ProviderInfo(
        id=engine_id,
        label=engine_id.capitalize(),
        kind="scraper",
        description="fake engine",
        docs_url="https://example.org/",
        honours=frozenset({"query"}),
        default_results=10,
        max_results=20,
        index=index or engine_id,
    )
    engine_class = type(f"Fake_{engine_id}", (_FakeEngine,), {"info": info})
    return cast(_FakeEngine, engine_class(latency, urls, error))


def _virtual_context(**settings: Any) -> ProviderContext:
    return ProviderContext(
        transport=cast(Transport, None),  # fake engines send nothing
        settings=Settings(**settings),
        credentials=Credentials(),
    )


def _virtual_search(
    engines: Sequence[SearchProvider], params: SearchParams | None = None, **settings: Any
) -> tuple[SearchResponse, float]:
    provider = PublicProvider(engines=engines)
    return _run_virtual(
        provider.search(params or SearchParams(query=QUERY), _virtual_context(**settings))
    )


def _urls(response: SearchResponse) -> list[str]:
    return [source.url for source in response.sources]


# --- deadlines with the real defaults (virtual clock) -----------------------------------------


def test_real_defaults_are_five_and_thirty_seconds() -> None:
    provider = PublicProvider()
    assert (provider.soft_deadline_seconds, provider.hard_deadline_seconds) == (5.0, 30.0)
    assert provider.deadlines(_virtual_context()) == (5.0, 30.0)
    assert provider.deadlines(_virtual_context(timeout_seconds=10)) == (5.0, 10.0)
    assert provider.deadlines(_virtual_context(timeout_seconds=3)) == (3.0, 3.0)


def test_returns_when_every_engine_settled_before_the_soft_deadline() -> None:
    fast = _fake("a", 1.0, ["https://a.org/"])
    slower = _fake("b", 3.0, ["https://b.org/"])
    response, elapsed = _virtual_search([fast, slower])
    assert elapsed == pytest.approx(3.0)
    assert _urls(response) == ["https://a.org/", "https://b.org/"]
    assert response.partial is False


def test_soft_deadline_with_a_success_cancels_the_stragglers() -> None:
    fast = _fake("a", 1.0, ["https://a.org/"])
    straggler = _fake("b", 20.0, ["https://b.org/"])
    response, elapsed = _virtual_search([fast, straggler])
    assert elapsed == pytest.approx(5.0)
    assert _urls(response) == ["https://a.org/"]
    assert straggler.cancelled and not straggler.finished
    assert response.partial is True


def test_after_the_soft_deadline_the_first_success_ends_the_wait() -> None:
    failing = _fake("a", 1.0, error=SearchProviderError("a", "boom", 500))
    late = _fake("b", 12.0, ["https://b.org/"])
    later = _fake("c", 100.0, ["https://c.org/"])
    response, elapsed = _virtual_search([failing, late, later])
    assert elapsed == pytest.approx(12.0)
    assert _urls(response) == ["https://b.org/"]
    assert later.cancelled
    assert response.partial is True


def test_hard_cap_with_no_success_gives_an_empty_response() -> None:
    hung = [_fake(name, 100.0, ["https://x.org/"]) for name in ("a", "b", "c")]
    response, elapsed = _virtual_search(hung)
    assert elapsed == pytest.approx(30.0)
    assert response == SearchResponse(
        provider="public",
        partial=True,
        notes=("Engines that did not answer: a, b, c: cut off at the deadline",),
    )
    assert all(engine.cancelled for engine in hung)


def test_hard_cap_with_some_failures_and_the_rest_pending_is_still_empty() -> None:
    failing = _fake("a", 1.0, error=SearchProviderError("a", "boom", 500))
    hung = _fake("b", 100.0, ["https://x.org/"])
    response, elapsed = _virtual_search([failing, hung])
    assert elapsed == pytest.approx(30.0)
    assert response.sources == ()


def test_hard_cap_never_passes_the_provider_timeout() -> None:
    hung = _fake("a", 100.0, ["https://x.org/"])
    _, elapsed = _virtual_search([hung], timeout_seconds=12)
    assert elapsed == pytest.approx(12.0)


def test_an_empty_answer_does_not_end_the_wait_at_the_soft_deadline() -> None:
    empty = _fake("a", 1.0, [])
    late = _fake("b", 8.0, ["https://b.org/"])
    response, elapsed = _virtual_search([empty, late])
    assert elapsed == pytest.approx(8.0)
    assert _urls(response) == ["https://b.org/"]


def test_every_engine_empty_is_an_empty_response_not_a_failure() -> None:
    response, elapsed = _virtual_search([_fake("a", 1.0), _fake("b", 2.0)])
    assert elapsed == pytest.approx(2.0)
    assert response.sources == ()


def test_every_engine_failed_is_an_aggregated_503_in_engine_order() -> None:
    engines = [
        _fake("a", 4.0, error=ChallengeError("a", "A blocked the request.")),
        _fake("b", 1.0, error=SearchProviderError("b", "B exploded", 500)),
        _fake("c", 2.0, error=SearchProviderError("c", "whatever", 401)),
        _fake("d", 3.0, error=RuntimeError("bug in d")),
    ]
    with pytest.raises(PublicEnginesFailedError) as caught:
        _virtual_search(engines)
    error = caught.value
    assert isinstance(error, ProviderUnavailableError)
    assert (error.provider, error.status) == ("public", 503)
    # Each engine by id, with its kind of failure in a few words (its sentence is logged).
    assert error.message == (
        "All public engines failed: a: blocked by a bot challenge; b: failed (HTTP 500); "
        "c: failed (HTTP 401); d: failed: bug in d"
    )
    assert [engine_id for engine_id, _ in error.failures] == ["a", "b", "c", "d"]


def test_merge_follows_engine_priority_not_completion_order() -> None:
    first = _fake("first", 4.0, ["https://slow-but-first.org/"])
    second = _fake("second", 1.0, ["https://fast-but-second.org/"])
    response, _ = _virtual_search([first, second])
    assert _urls(response) == ["https://slow-but-first.org/", "https://fast-but-second.org/"]
    assert response.sources[0].engines == (SourceRank(engine="first", rank=1),)


def test_caller_cancellation_cancels_every_engine_and_propagates() -> None:
    engines = [_fake("a", 1.0, ["https://a.org/"]), _fake("b", 100.0), _fake("c", 100.0)]
    provider = PublicProvider(engines=engines)

    async def scenario() -> None:
        task = asyncio.create_task(provider.search(SearchParams(query=QUERY), _virtual_context()))
        await asyncio.sleep(2.0)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert not [t for t in asyncio.all_tasks() if t.get_name().startswith("public:")]

    _, elapsed = _run_virtual(scenario())
    assert elapsed == pytest.approx(2.0)
    assert engines[0].finished
    assert engines[1].cancelled and engines[2].cancelled


def test_excluded_engines_do_not_run() -> None:
    kept = _fake("a", 1.0, ["https://a.org/"])
    excluded = _fake("duckduckgo", 1.0, ["https://d.org/"])
    response, _ = _virtual_search([excluded, kept], exclude=("duckduckgo",))
    assert _urls(response) == ["https://a.org/"]
    assert excluded.calls == []


def test_every_engine_excluded_is_a_400() -> None:
    with pytest.raises(SearchProviderError) as caught:
        _virtual_search([_fake("duckduckgo", 1.0)], exclude=("duckduckgo",))
    assert (caught.value.provider, caught.value.status) == ("public", 400)
    assert caught.value.message == ALL_EXCLUDED_MESSAGE
    assert ALL_EXCLUDED_MESSAGE == "Every credential-free engine is excluded by settings."


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({}, 15),
        ({"limit": 3}, 3),
        ({"limit": 100}, 30),
        ({"num_search_results": 22, "limit": 2}, 22),
    ],
)
def test_merged_count_is_15_by_default_and_30_at_most(
    params: dict[str, Any], expected: int
) -> None:
    # Two indexes with 20 distinct URLs each: 40 candidates.
    a = _fake("a", 1.0, [f"https://a.org/{i}" for i in range(20)], index="x")
    b = _fake("b", 1.0, [f"https://b.org/{i}" for i in range(20)], index="y")
    response, _ = _virtual_search([a, b], SearchParams(query=QUERY, **params))
    assert len(response.sources) == expected


@pytest.mark.parametrize(
    ("params", "count"),
    [
        ({}, None),  # the engine's own default
        ({"limit": 5}, None),  # fewer than the engine's default: still its default
        ({"limit": 10}, None),
        ({"limit": 14}, 14),
        ({"num_search_results": 25}, 20),  # the engine's maximum
        ({"num_search_results": 12, "limit": 30}, 12),
    ],
)
def test_each_engine_gets_its_own_default_unless_more_was_asked(
    params: dict[str, Any], count: int | None
) -> None:
    engine = _fake("a", 0.0)
    sent = engine_params(engine, SearchParams(query=QUERY, recency="week", **params))
    assert sent.num_search_results == count
    assert sent.limit is None
    assert (sent.query, sent.recency) == (QUERY, "week")


def test_engines_receive_the_callers_other_parameters() -> None:
    engine = _fake("a", 1.0, ["https://a.org/"])
    params = SearchParams(query=QUERY, recency="day", language="de", country="AT", limit=40)
    _virtual_search([engine], params)
    (sent,) = engine.calls
    assert (sent.query, sent.recency, sent.language, sent.country) == (QUERY, "day", "de", "AT")
    assert sent.result_count == 20


# --- provider facts ---------------------------------------------------------------------------


def test_explicit_only_availability() -> None:
    provider = PublicProvider()
    context = _virtual_context()
    assert provider.is_available(context) is False
    assert provider.is_explicitly_available(context) is True
    assert INFO.id == "public" and INFO.label == "Public Web" and INFO.kind == "aggregate"
    assert (INFO.default_results, INFO.max_results, INFO.env_vars) == (15, 30, ())


def test_engine_order_is_the_spec_scraper_order() -> None:
    assert ENGINE_ORDER == (
        "duckduckgo", "bing", "yahoo", "startpage", "google", "ecosia", "mojeek"
    )  # fmt: skip


def test_registered_engines_are_the_registered_scrapers_in_priority_order() -> None:
    engines = registered_engines()
    ids = [engine.info.id for engine in engines]
    assert "duckduckgo" in ids
    assert ids == [eid for eid in ENGINE_ORDER if eid in registry.PROVIDER_REGISTRY]
    assert all(engine.info.kind == "scraper" for engine in engines)
    assert all(engine.info.index for engine in engines)


def test_public_is_registered_last_in_the_order() -> None:
    assert registry.SEARCH_PROVIDER_ORDER[-1] == "public"
    assert isinstance(registry.get_provider("public"), PublicProvider)


# --- end to end against the simulator: real DuckDuckGo plus loopback stub engines --------------

SOFT = 0.3
HARD = 1.0
LONG = 300.0
"""What a fan-out that ends early must not wait for: the most ``timeout_seconds`` allows.

Why: the fan-out tests bounded ``elapsed < bound + 2.0`` (a loaded machine once ran 0.7 s
over a 0.5 s slack, so even 2 s can flip). Now what the fan-out would wait for if it did
not end on its own (the hard cap, the hanging engines, the provider's own time) takes this
long, so a fan-out that waited hangs to :data:`HANG_GUARD` instead of passing slowly.
"""
HANG_GUARD = 30.0
"""Seconds a fan-out that should end at its own bound may take before the test fails."""
PUBLIC_LOGGER = "websearch_core.providers.public"
STUBS = {"stub-bing": "bing", "stub-google": "google", "stub-mojeek": "mojeek"}


STUB_ORIGINS: dict[str, str] = {}
"""Each stub engine's simulated server, set by the ``sim`` fixture. A stub is no registered
provider, so no ``base_urls`` entry may name it: it sends to its server itself."""


class _LoopbackEngine(SearchProvider):
    """A stub engine speaking DuckDuckGo's real wire protocol under its own id and index.

    It builds DuckDuckGo's request and parses its page with DuckDuckGo's pure functions,
    but sends it to its own simulated server, through the transport under its own id.
    ``latency`` delays the request (a slow success when the server answers).
    """

    info: ClassVar[ProviderInfo]
    latency: ClassVar[float] = 0.0

    def is_available(self, context: ProviderContext) -> bool:
        return True

    async def search(self, params: SearchParams, context: ProviderContext) -> SearchResponse:
        if self.latency:
            await asyncio.sleep(self.latency)
        request = ddg.build_request(ddg.build_form(params))
        path = urlsplit(request.url).path
        request = replace(request, url=f"{STUB_ORIGINS[self.info.id]}{path}")
        response = await context.transport.send(self.info.id, self.info.label, request)
        raise_for_status(
            self.info.id, response, f"{self.info.label} HTML error ({response.status})"
        )
        page = ddg.parse_page(response.text())
        wanted = clamp_count(params.result_count, 10, 20)
        return SearchResponse(provider=self.info.id, sources=tuple(page.sources[:wanted]))


def _stub(engine_id: str, latency: float = 0.0) -> SearchProvider:
    info = replace(ddg.INFO, id=engine_id, label=f"Stub {STUBS[engine_id]}", index=STUBS[engine_id])
    engine_class = type(f"Stub_{engine_id}", (_LoopbackEngine,), {"info": info, "latency": latency})
    return cast(SearchProvider, engine_class())


@pytest.fixture
async def sim() -> AsyncIterator[Simulator]:
    simulator = Simulator(["duckduckgo"])
    for stub_id in STUBS:
        simulator.providers[stub_id] = SimulatedProvider(stub_id, DuckDuckGoProtocol())
    async with simulator:
        STUB_ORIGINS.update({stub_id: simulator[stub_id].base_url for stub_id in STUBS})
        yield simulator
    STUB_ORIGINS.clear()


@pytest.fixture(autouse=True)
def _no_leaked_tasks(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """No 'Task was destroyed' or 'exception was never retrieved' reports from asyncio."""
    with caplog.at_level(logging.ERROR, logger="asyncio"):
        yield
        gc.collect()
    leaked = [r.getMessage() for r in caplog.records if r.name == "asyncio"]
    assert not leaked, leaked


def _install(
    monkeypatch: pytest.MonkeyPatch,
    engines: Sequence[SearchProvider],
    soft: float = SOFT,
    hard: float = HARD,
) -> PublicProvider:
    provider = PublicProvider(
        soft_deadline_seconds=soft, hard_deadline_seconds=hard, engines=engines
    )
    monkeypatch.setitem(registry._instances, "public", provider)
    return provider


def _all_engines(*latencies: float) -> list[SearchProvider]:
    """The real DuckDuckGo engine, then the three stubs (optionally delayed)."""
    delays = list(latencies) + [0.0] * (len(STUBS) - len(latencies))
    return [
        registry.get_provider("duckduckgo"),
        *(_stub(sid, d) for sid, d in zip(STUBS, delays, strict=True)),
    ]


def _client(sim: Simulator, **overrides: Any) -> WebSearch:
    registered = {pid: url for pid, url in sim.base_urls().items() if pid not in STUBS}
    return WebSearch(sim.settings(base_urls=registered, **overrides))


def _results(*urls: str) -> list[SimResult]:
    return [SimResult(title=f"Title {url}", url=url, snippet=f"About {url}") for url in urls]


def _no_public_tasks() -> bool:
    return not [t for t in asyncio.all_tasks() if t.get_name().startswith("public:")]


async def test_consensus_order_and_provenance_over_the_wire(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    _install(monkeypatch, _all_engines())
    sim["duckduckgo"].results = _results(
        "https://a.example/", "https://b.example/", "https://c.example/"
    )
    sim["stub-bing"].results = _results("https://www.b.example/", "https://a.example")
    sim["stub-google"].results = [
        SimResult(
            "C from Google",
            "https://c.example/?utm_source=google",
            "The longest snippet of all for C",
        ),
        SimResult("D", "https://d.example/", "D"),
    ]
    sim["stub-mojeek"].results = _results("https://e.example/")
    async with _client(sim) as ws:
        result = await ws.run(QUERY, provider="public")
    assert result.error is None, result.error
    response = result.response
    assert response.provider == "public" and response.answer is None
    # c: Bing and Google indexes (2 votes). a and b: DuckDuckGo and stub-bing share the Bing
    # index, so one vote each. The single votes go by best rank (a, b and e were first
    # somewhere, d only second), then by first-seen order.
    assert [s.url for s in response.sources] == [
        "https://c.example/?utm_source=google",
        "https://a.example/",
        "https://www.b.example/",  # the URL of the best-ranked occurrence
        "https://e.example/",
        "https://d.example/",
    ]
    c, a, b, e, _ = response.sources
    assert (c.title, c.snippet) == ("C from Google", "The longest snippet of all for C")
    assert c.engines == (
        SourceRank(engine="duckduckgo", rank=3),
        SourceRank(engine="stub-google", rank=1),
    )
    assert a.engines == (
        SourceRank(engine="duckduckgo", rank=1),
        SourceRank(engine="stub-bing", rank=2),
    )
    assert b.engines == (
        SourceRank(engine="duckduckgo", rank=2),
        SourceRank(engine="stub-bing", rank=1),
    )
    assert b.title == "Title https://www.b.example/"  # from the best-ranked occurrence
    assert e.engines == (SourceRank(engine="stub-mojeek", rank=1),)
    assert result.text.startswith(
        "[1] C from Google\n    https://c.example/?utm_source=google\n"
        "    The longest snippet of all for C\n[2] Title https://a.example/\n"
    )
    assert response.partial is False
    # Every engine got the query once, in DuckDuckGo's real form shape.
    for engine_id in ("duckduckgo", *STUBS):
        (request,) = sim[engine_id].requests
        assert request.method == "POST" and request.path == "/html/"
        assert request.form()[0] == ("q", QUERY)
    assert [a.provider for a in response.attempts] == ["public"]


async def test_parameters_reach_the_engines(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    _install(monkeypatch, _all_engines())
    async with _client(sim) as ws:
        await ws.search(QUERY, provider="public", recency="week", language="fr", country="CH")
    for engine_id in ("duckduckgo", *STUBS):
        form = dict(sim[engine_id].requests[0].form())
        assert (form["q"], form["kl"], form["df"]) == (QUERY, "ch-fr", "w")


async def test_default_count_is_15_and_engines_use_their_default(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    _install(monkeypatch, _all_engines())
    for engine_id in ("duckduckgo", *STUBS):
        sim[engine_id].results = _results(*(f"https://{engine_id}.example/{i}" for i in range(30)))
    async with _client(sim) as ws:
        response = await ws.search(QUERY, provider="public")
    assert len(response.sources) == 15
    assert len(sim["duckduckgo"].requests) == 1  # DDG's default 10: one page


async def test_a_larger_count_is_asked_of_each_engine(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    _install(monkeypatch, [registry.get_provider("duckduckgo")])
    sim["duckduckgo"].results = _results(*(f"https://ddg.example/{i}" for i in range(40)))
    async with _client(sim) as ws:
        response = await ws.search(QUERY, provider="public", num_search_results=25)
    assert len(sim["duckduckgo"].requests) == 2  # 20 (DDG's max) takes two pages
    assert [s.url for s in response.sources] == [f"https://ddg.example/{i}" for i in range(20)]
    assert response.sources[19].engines == (SourceRank(engine="duckduckgo", rank=20),)


async def test_soft_deadline_returns_with_the_fast_engines(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    _install(monkeypatch, _all_engines(), hard=LONG)  # the cap it must not wait for
    for stub_id in STUBS:
        sim[stub_id].always(Fault.hang())
    # at_level, not set_level: the module's leak check holds the handler at ERROR around
    # the test, and set_level would leave it there for the tests that follow.
    with caplog.at_level(logging.INFO, logger=PUBLIC_LOGGER):
        async with _client(sim, timeout_seconds=LONG) as ws:
            started = time.perf_counter()
            async with asyncio.timeout(HANG_GUARD):  # it waited for the hanging engines
                response = await ws.search(QUERY, provider="public")
            elapsed = time.perf_counter() - started
            assert _no_public_tasks()
    assert elapsed >= SOFT  # a lower bound: a timer only ends late
    assert [s.url for s in response.sources] == [r.url for r in default_results(QUERY)]
    assert all(s.engines == (SourceRank(engine="duckduckgo", rank=i),) for i, s in
               enumerate(response.sources, 1))  # fmt: skip
    assert all(len(sim[stub_id].requests) == 1 for stub_id in STUBS)  # asked, then abandoned
    messages = [r.getMessage() for r in caplog.records if r.name.endswith(".public")]
    assert any(m.startswith(f"public: cancelled {', '.join(STUBS)} after ") for m in messages)


async def test_everything_settled_returns_before_the_soft_deadline(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    _install(monkeypatch, _all_engines(), soft=LONG, hard=LONG)
    sim["stub-google"].always(Fault.server_error())
    async with _client(sim, timeout_seconds=LONG) as ws:
        async with asyncio.timeout(HANG_GUARD):  # it waited for the soft deadline
            response = await ws.search(QUERY, provider="public")
    first = response.sources[0]
    assert first.engines == (
        SourceRank(engine="duckduckgo", rank=1),
        SourceRank(engine="stub-bing", rank=1),
        SourceRank(engine="stub-mojeek", rank=1),
    )


async def test_after_the_soft_deadline_the_first_success_returns(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    _install(monkeypatch, _all_engines(0.7), soft=SOFT, hard=LONG)  # stub-bing: 0.7 s
    sim["duckduckgo"].always(Fault.server_error())
    sim["stub-google"].always(Fault.hang())
    sim["stub-mojeek"].always(Fault.challenge())
    async with _client(sim, timeout_seconds=LONG) as ws:
        started = time.perf_counter()
        async with asyncio.timeout(HANG_GUARD):  # it waited for the hanging engine
            response = await ws.search(QUERY, provider="public")
        elapsed = time.perf_counter() - started
    assert elapsed >= 0.7  # stub-bing's answer, which comes 0.7 s in
    assert {s.engines for s in response.sources} == {
        (SourceRank(engine="stub-bing", rank=i),) for i in range(1, 11)
    }


async def test_hard_cap_with_nothing_found_is_the_no_content_error(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    _install(monkeypatch, _all_engines())
    for engine_id in ("duckduckgo", *STUBS):
        sim[engine_id].always(Fault.hang())
    async with _client(sim, timeout_seconds=LONG) as ws:
        started = time.perf_counter()
        async with asyncio.timeout(HANG_GUARD):  # it waited for the hanging engines
            result = await ws.run(QUERY, provider="public")
        elapsed = time.perf_counter() - started
        assert _no_public_tasks()
    assert elapsed >= HARD  # a lower bound: a timer only ends late
    # The reason follows the text: which engines did not answer, and why (none was named).
    assert result.text == (
        "Error: Public Web returned no renderable search content. Engines that did not "
        "answer: duckduckgo, stub-bing, stub-google, stub-mojeek: cut off at the deadline."
    )
    (attempt,) = result.response.attempts
    assert (attempt.provider, attempt.outcome, attempt.status) == ("public", "failed", 204)


async def test_an_engine_stopped_by_the_fan_outs_own_time_is_cut_off_not_failed(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One engine fails, the other hangs past the aggregate's own time: the same text always.

    With ``timeout_seconds`` below the 30 s cap, the hard deadline is the aggregate's whole
    time and the hanging engine's request times out at that same instant. Which the loop
    ran first decided the text: 20 runs gave 11 times ``no renderable search content``
    (204), 8 times ``All public engines failed: ...; stub-bing: ... timed out after 0.5s``
    and once ``... after 0.4s`` (503). The engine was still running at the hard deadline:
    the reference's empty answer (204), every time.
    """
    _install(monkeypatch, _all_engines()[:2])  # the real 30 s cap: the timeout is the bound
    # What is pinned here is the fan-out's own answer at its time, so the attempt's hard
    # stop waits longer and two late loop turns in a row cannot reach it (one late turn
    # is the next test's).
    monkeypatch.setattr(attempt_module, "HARD_STOP_GRACE_SECONDS", 2.0)
    sim["duckduckgo"].always(Fault.server_error(503, "down"))
    sim["stub-bing"].always(Fault.hang(5))
    texts = []
    async with _client(sim, timeout_seconds=0.3) as ws:
        for _ in range(10):
            result = await ws.run(QUERY, provider="public", use_cache=False)
            (attempt,) = result.response.attempts
            texts.append((result.text, attempt.status))
        assert _no_public_tasks()
    # The engine still running is cut off every time, never failed; the other's reason
    # follows its state (it failed, then cools down).
    assert {status for _, status in texts} == {204}
    for text, _ in texts:
        assert text.startswith("Error: Public Web returned no renderable search content. ")
        assert text.endswith("; stub-bing: cut off at the deadline.")
    # Cut off like a straggler cancelled at the hard deadline: no failure, so no cooldown
    # (the engine's timeout counted as one used to cool it down after three runs).
    assert len(sim["stub-bing"].requests) == 10


async def test_a_late_loop_keeps_the_fan_outs_own_answer_over_the_hard_stop(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The loop blocked across the attempt's end: the fan-out's cut-off still answers.

    A callback sleeps synchronously from shortly before the fan-out's time (0.3 s) until
    well past the attempt's hard stop (0.1 s later), as a loaded machine does: both are due
    in the same loop turn. The hard stop used to win and replace the fan-out's answer (204,
    the engines that did not answer) with "Public Web search timed out after 0.3s".
    """
    _install(monkeypatch, _all_engines()[:2])  # the real 30 s cap: the timeout is the bound
    sim["duckduckgo"].always(Fault.server_error(503, "down"))
    sim["stub-bing"].always(Fault.hang(5))
    loop = asyncio.get_running_loop()
    async with _client(sim, timeout_seconds=0.3) as ws:
        for _ in range(3):
            blocker = loop.call_later(0.2, time.sleep, 0.5)  # past 0.3 s and 0.4 s alike
            result = await ws.run(QUERY, provider="public", use_cache=False)
            blocker.cancel()
            (attempt,) = result.response.attempts
            assert attempt.status == 204, result.text
            assert result.text.startswith(
                "Error: Public Web returned no renderable search content. "
            )
            assert result.text.endswith("; stub-bing: cut off at the deadline.")
        assert _no_public_tasks()


async def test_every_engine_failing_is_an_aggregated_503(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    _install(monkeypatch, _all_engines(), hard=LONG)
    sim["duckduckgo"].always(Fault.challenge())
    sim["stub-bing"].always(Fault.unauthorized())
    sim["stub-google"].always(Fault.hang(0.4))  # a slow failure: 504 after 0.4 s
    sim["stub-mojeek"].always(Fault.malformed())
    with caplog.at_level(logging.INFO, logger=PUBLIC_LOGGER):
        async with _client(sim, timeout_seconds=LONG) as ws:
            started = time.perf_counter()
            with pytest.raises(AllProvidersFailedError) as caught:
                async with asyncio.timeout(HANG_GUARD):  # all settled: no wait for the cap
                    await ws.search(QUERY, provider="public")
            elapsed = time.perf_counter() - started
    assert elapsed >= 0.4  # stub-google's slow failure ended it
    (error,) = caught.value.failures
    assert isinstance(error, PublicEnginesFailedError)
    assert (error.provider, error.status) == ("public", 503)
    assert str(caught.value) == error.message
    assert error.message == (
        "All public engines failed: duckduckgo: blocked by a bot challenge; "
        "stub-bing: blocked the request (HTTP 401); stub-google: failed (HTTP 504); "
        "stub-mojeek: returned a page it could not read"
    )
    assert [engine_id for engine_id, _ in error.failures] == ["duckduckgo", *STUBS]
    assert isinstance(error.failures[0][1], ChallengeError)
    # Each engine's failure is logged on its own line, as the chain logs a provider's.
    logged = [r.getMessage() for r in caplog.records if r.name.endswith(".public")]
    assert f"public: duckduckgo failed: {ddg.CHALLENGE_MESSAGE}" in logged
    assert f"public: stub-mojeek failed: {ddg.UNRECOGNISED_MESSAGE}" in logged


async def test_a_challenge_is_an_engine_failure_never_an_empty_success(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    _install(monkeypatch, _all_engines())
    sim["duckduckgo"].always(Fault.challenge())
    sim["stub-bing"].always(Fault.challenge())
    async with _client(sim) as ws:
        response = await ws.search(QUERY, provider="public")
    assert response.sources[0].engines == (
        SourceRank(engine="stub-google", rank=1),
        SourceRank(engine="stub-mojeek", rank=1),
    )


async def test_excluded_engines_are_not_asked(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    _install(monkeypatch, _all_engines())
    async with _client(sim, exclude=("duckduckgo",)) as ws:
        response = await ws.search(QUERY, provider="public")
    assert sim["duckduckgo"].requests == []
    assert {r.engine for s in response.sources for r in s.engines} == set(STUBS)


async def test_caller_cancellation_cancels_the_fan_out(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    _install(monkeypatch, _all_engines(), soft=LONG, hard=LONG)
    for engine_id in ("duckduckgo", *STUBS):
        sim[engine_id].always(Fault.hang())
    async with _client(sim, timeout_seconds=LONG) as ws:
        task = asyncio.create_task(ws.run(QUERY, provider="public"))
        while not all(sim[engine_id].requests for engine_id in ("duckduckgo", *STUBS)):
            await asyncio.sleep(0.01)
        assert not _no_public_tasks()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            async with asyncio.timeout(HANG_GUARD):  # the cancel waited for the engines
                await task
        assert _no_public_tasks()


# --- the registry path: every registered engine on its simulated server -----------------------


def _registered_engine_ids() -> list[str]:
    return [eid for eid in ENGINE_ORDER if eid in registry.PROVIDER_REGISTRY]


@pytest.fixture
async def engines_sim() -> AsyncIterator[Simulator]:
    simulated = [eid for eid in _registered_engine_ids() if eid in PROTOCOLS]
    async with Simulator(simulated) as simulator:
        yield simulator


def _unsimulated() -> tuple[str, ...]:
    return tuple(eid for eid in _registered_engine_ids() if eid not in PROTOCOLS)


async def test_registered_engines_are_fanned_out_and_merged(engines_sim: Simulator) -> None:
    simulated = list(engines_sim.providers)
    async with WebSearch(engines_sim.settings(exclude=_unsimulated())) as ws:
        result = await ws.run(QUERY, provider="public")
    assert result.error is None, result.error
    response = result.response
    assert response.provider == "public"
    expected = default_results(QUERY)  # every simulated engine serves these, in this order
    assert [s.url.rstrip("/") for s in response.sources] == [r.url for r in expected]
    for rank, source in enumerate(response.sources, 1):
        assert source.engines == tuple(SourceRank(engine=eid, rank=rank) for eid in simulated)
    for engine_id in simulated:
        assert len(engines_sim[engine_id].requests) >= 1


async def test_the_auto_chain_does_not_fan_out(engines_sim: Simulator) -> None:
    async with WebSearch(engines_sim.settings(exclude=_unsimulated())) as ws:
        result = await ws.run(QUERY)
    assert result.response.provider != "public"
    assert "public" not in [a.provider for a in result.response.attempts]


async def test_every_registered_engine_excluded_is_a_400(engines_sim: Simulator) -> None:
    async with WebSearch(engines_sim.settings(exclude=tuple(_registered_engine_ids()))) as ws:
        result = await ws.run(QUERY, provider="public")
        with pytest.raises(AllProvidersFailedError) as caught:
            await ws.search(QUERY, provider="public")
    assert result.text == f"Error: {ALL_EXCLUDED_MESSAGE}"
    (error,) = caught.value.failures
    assert (error.provider, error.status) == ("public", 400)
    assert sum(len(engines_sim[eid].requests) for eid in engines_sim.providers) == 0


async def test_preferred_public_runs_first(engines_sim: Simulator) -> None:
    async with WebSearch(engines_sim.settings(provider="public", exclude=_unsimulated())) as ws:
        response = await ws.search(QUERY)
    assert response.provider == "public"
    assert [a.provider for a in response.attempts] == ["public"]


async def test_engine_failures_show_only_a_status_a_server_sent(engines_sim: Simulator) -> None:
    # A reset connection and an unreadable 200 carry statuses of ours (503, 502) for the
    # chain's bookkeeping; the summary said "could not connect (HTTP 503)", as if the
    # server had answered 503. A status a server did send is kept.
    engines_sim["duckduckgo"].always(Fault.reset())
    engines_sim["bing"].always(Fault.rate_limited(retry_after=60))
    engines_sim["yahoo"].always(Fault.server_error(503))
    engines_sim["startpage"].always(Fault.malformed())
    browser_backed = ("google", "ecosia", "mojeek")
    async with WebSearch(engines_sim.settings(exclude=(*_unsimulated(), *browser_backed))) as ws:
        with pytest.raises(AllProvidersFailedError) as caught:
            await ws.search(QUERY, provider="public")
    assert str(caught.value) == (
        "All public engines failed: duckduckgo: could not connect; bing: rate limited "
        "(HTTP 429); yahoo: failed (HTTP 503); startpage: returned a page it could not read"
    )


async def test_each_engine_s_log_record_carries_its_attempt_as_fields(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The chain's attempt records carry provider, outcome, status and ms as fields; an
    engine's line in the fan-out carried only its sentence."""
    _install(monkeypatch, _all_engines(), hard=3.0)
    sim["duckduckgo"].always(Fault.challenge())
    sim["stub-bing"].always(Fault.unauthorized())
    sim["stub-google"].always(Fault.hang(0.2))  # its server answers 504 after 0.2 s
    sim["stub-mojeek"].always(Fault.malformed())
    with caplog.at_level(logging.INFO, logger=PUBLIC_LOGGER):
        async with _client(sim) as ws:
            started = time.perf_counter()
            with pytest.raises(AllProvidersFailedError) as caught:
                await ws.search(QUERY, provider="public", use_cache=False)
            search_ms = (time.perf_counter() - started) * 1000
            with pytest.raises(AllProvidersFailedError):  # the refusing engine now cools down
                await ws.search(QUERY, provider="public", use_cache=False)
    (error,) = caught.value.failures
    assert isinstance(error, PublicEnginesFailedError)
    records = [r for r in caplog.records if r.name.endswith(".public") and hasattr(r, "outcome")]
    fields = [(r.provider, r.outcome, r.status) for r in records]  # type: ignore[attr-defined]
    first = [(engine_id, "failed", failure.status) for engine_id, failure in error.failures]
    assert [status for *_, status in first] == [429, 401, 504, 502]
    again = [first[0], ("stub-bing", "skipped", None), *first[2:]]
    assert fields == first + again
    waited = {r.provider: r.ms for r in records[:4]}  # type: ignore[attr-defined]
    # Its own wait, inside the search's: not a bound on the time, which load can flip.
    assert 200 <= waited["stub-google"] <= search_ms
    assert all(isinstance(ms, float) and ms > 0 for ms in waited.values())
    assert all(r.getMessage().startswith(f"public: {r.provider} failed: ") for r in records)  # type: ignore[attr-defined]
