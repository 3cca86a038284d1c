"""Failures kept past their turn hold no key: the chain's outcome and the fan-out's report.

Stop 51 walked what ``WebSearch.search`` raises; two places keep failures before that and
are read on their own: ``ChainRunner.run``'s :class:`ChainOutcome` (``failures``, public
through :mod:`websearch_core.orchestration`) and the Public Web fan-out's error, whose
``failures`` and ``outcomes`` hold each engine's error (``AllProvidersFailedError``
carries it). Each test drives real requests on the loopback simulator into failures whose
bodies quote a secret the call knows, then walks every object reachable from what is kept
(``_leaks.reachable_texts``: attributes, chains, library frames' locals).
"""

import dataclasses
import json

import aiohttp
import pytest

from tests.conformance._leaks import echo_forms_seen, reachable_texts
from websearch_core import AllProvidersFailedError, WebSearch, providers
from websearch_core.credentials import Credentials
from websearch_core.errors import SearchProviderError
from websearch_core.models import SearchParams, SearchResponse, SearchToolResult
from websearch_core.orchestration import ChainPlan, ChainRunner
from websearch_core.orchestration.fanout import PublicEnginesFailedError
from websearch_core.providers._scraper import PageResults
from websearch_core.providers.base import ProviderContext
from websearch_core.providers.brave import BraveProvider
from websearch_core.providers.duckduckgo import DuckDuckGoProvider
from websearch_core.providers.public import PublicProvider
from websearch_core.state import MemoryStore
from websearch_core.testing import Fault, Simulator
from websearch_core.transport import HttpResponse, Transport

KEY = "sk-proj-Q7fK2mVt9XbL4nRw8ZcJ1pHs6dGy3uEa"
"""A key of a real provider's shape (OpenAI's project keys): 40 characters."""
ENGINES = ("duckduckgo", "bing")


class _BuggyBrave(BraveProvider):
    """Brave with a bug: it reads a 2xx body as JSON without the real one's checks.

    The request is the real one (the key in ``X-Subscription-Token``) through the real
    transport; only the parse is wrong, as a provider's bug would be.
    """

    def parse_response(self, response: HttpResponse, params: SearchParams) -> SearchResponse:
        return SearchResponse.model_validate(json.loads(response.body))


def _page(secret: str) -> Fault:
    """A 200 page that is no JSON: a gateway quoting the request it passed on."""
    page = f"<html><body>Gateway: GET /res/v1/web/search X-Subscription-Token: {secret}</body>"
    return Fault.http(200, body=page, headers={"Content-Type": "text/html"})


async def test_a_chain_outcome_keeps_no_bug_that_read_the_key() -> None:
    """``ChainRunner.run``'s outcome: a provider's bug is kept as the client hands it out.

    Before, ``outcome.failures`` held the bug itself (``json.JSONDecodeError``, whose
    ``doc`` is the whole page quoting the key, and whose traceback's frames held the
    flow and the response). Now it holds what ``AllProvidersFailedError`` carries: a
    provider error with the bug's text, caused by its trace (type and lines). Failed
    before the fix.
    """
    async with Simulator(["brave"]) as sim, aiohttp.ClientSession() as session:
        sim["brave"].always(_page(KEY))
        settings = sim.settings(rate_limit_wait_seconds=0)
        transport = Transport(
            session,
            timeout_seconds=5.0,
            max_response_bytes=1 << 20,
            base_urls=sim.base_urls(),
            secrets=(KEY,),
        )
        context = ProviderContext(
            transport=transport,
            settings=settings,
            credentials=Credentials(explicit={"brave": KEY}, environ={}),
        )
        outcome = await ChainRunner(MemoryStore()).run(
            ChainPlan(providers=[_BuggyBrave()]), SearchParams(query="python"), context
        )
    assert sim["brave"].requests[0].header("X-Subscription-Token") == KEY, "a real request"
    assert outcome.response is None
    seen = [outcome.failure_message(), repr(outcome)]
    for _, error in outcome.failures:
        seen.extend(reachable_texts(error))
    assert echo_forms_seen(KEY, seen) == []
    [(provider, kept)] = outcome.failures
    assert provider.info.id == "brave"
    assert isinstance(kept, SearchProviderError) and kept.provider == "brave"
    assert "JSONDecodeError" in "".join(getattr(kept.__cause__, "__notes__", []))


@pytest.mark.parametrize("status", [500, 503])
async def test_the_fan_outs_engine_failures_hold_no_echoed_secret(status: int) -> None:
    """The Public Web fan-out's error: every engine's failure, detached where it is kept.

    The engines send no key, but their failure bodies may quote one the call holds (here
    Brave's, as a shared gateway or a proxy's error page would). Each message was
    masked; the error object was not: the engines' errors kept their tracebacks, whose
    library frames held the flow and the response quoting the secret, reachable from
    ``AllProvidersFailedError.failures[0].failures`` and ``.outcomes``. Failed before.
    """
    await _fan_out_with_every_engine_failing(status)


@pytest.mark.parametrize("status", [403, 429])
async def test_guard_the_fan_outs_refusals_hold_no_echoed_secret(status: int) -> None:
    """A guard (it passed before the fix too): engines refusing (403) or rate limiting.

    Their errors are raised from the engines' error maps without the response in a frame
    the traceback keeps; the fix detaches them too.
    """
    await _fan_out_with_every_engine_failing(status)


async def _fan_out_with_every_engine_failing(status: int) -> None:
    """Every engine answers ``status`` quoting Brave's key; nothing reaches it after."""
    async with Simulator([*ENGINES, "brave"]) as sim:
        for engine in ENGINES:
            sim[engine].always(Fault.http(status, body=f"refused; echo {KEY}"))
        settings = sim.settings(rate_limit_wait_seconds=0)
        async with WebSearch(settings, api_keys={"brave": KEY}) as ws:
            result = await ws.run("python asyncio", provider="public")
            with pytest.raises(AllProvidersFailedError) as caught:
                await ws.search("python asyncio", provider="public", use_cache=False)
    _assert_nothing_reachable(sim, result, caught.value)


def _assert_nothing_reachable(
    sim: Simulator, result: SearchToolResult, error: AllProvidersFailedError
) -> None:
    """Every engine was asked, and no form of the key is reachable from what came back."""
    assert all(sim[engine].requests for engine in ENGINES), "every engine was asked"
    [report] = error.failures
    assert isinstance(report, PublicEnginesFailedError)
    assert [engine for engine, _ in report.failures] == list(ENGINES)
    assert result.error is not None
    seen = [result.text, repr(result), *reachable_texts(error)]
    assert echo_forms_seen(KEY, seen) == []


def _buggy_duckduckgo() -> DuckDuckGoProvider:
    """DuckDuckGo whose page reader has a bug: it reads the HTML page as JSON.

    The request is the real one through the real transport; only the read is wrong.
    """

    def read(response: HttpResponse) -> PageResults:
        return PageResults(json.loads(response.body))

    buggy = DuckDuckGoProvider()
    buggy.engine = dataclasses.replace(DuckDuckGoProvider.engine, read=read)
    return buggy


async def test_an_engines_bug_is_kept_as_the_client_hands_a_bug_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An engine's bug in the fan-out's report: a provider error caused by its trace.

    Before, ``failures`` and ``outcomes`` of the fan-out's error held the bug itself
    (``json.JSONDecodeError``: ``doc`` is the whole page, here quoting a key of the call,
    and its traceback's frames the flow and the response). Now the engine's failure is
    what the client hands out for a provider's bug: a provider error with its text,
    caused by its trace (type and lines, no locals). Failed before the fix.
    """
    engines = [_buggy_duckduckgo(), providers.get_provider("bing")]
    monkeypatch.setitem(providers._instances, "public", PublicProvider(engines=engines))
    page = f"<html><body>Gateway: X-Subscription-Token: {KEY}</body></html>"
    async with Simulator([*ENGINES, "brave"]) as sim:
        sim["duckduckgo"].always(Fault.http(200, body=page, headers={"Content-Type": "text/html"}))
        sim["bing"].always(Fault.http(500, body=f"refused; echo {KEY}"))
        settings = sim.settings(rate_limit_wait_seconds=0)
        async with WebSearch(settings, api_keys={"brave": KEY}) as ws:
            result = await ws.run("python asyncio", provider="public")
            with pytest.raises(AllProvidersFailedError) as caught:
                await ws.search("python asyncio", provider="public", use_cache=False)
    seen = [result.text, repr(result), *reachable_texts(caught.value)]
    assert echo_forms_seen(KEY, seen) == []
    [report] = caught.value.failures
    assert isinstance(report, PublicEnginesFailedError)
    engine, kept = report.failures[0]
    assert engine == "duckduckgo" and isinstance(kept, SearchProviderError)
    assert "JSONDecodeError" in "".join(getattr(kept.__cause__, "__notes__", []))
