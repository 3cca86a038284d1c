"""The fallback chain end to end against the loopback simulator (spec §Flow, §Errors)."""

import asyncio
import json
import logging
import os
import re
from pathlib import Path

import pytest
from pydantic import ValidationError

from tests.functional._sim_helpers import requests_per_provider, sim_client, simulator_fixture
from tests.refused_port import refused_port
from websearch_core import (
    AllProvidersFailedError,
    AuthorizationError,
    ConfigurationError,
    EmptyResponseError,
    NoProviderCanRunError,
    NoProviderConfiguredError,
    QuotaExhaustedError,
    WebSearch,
)
from websearch_core.testing import Fault, Simulator
from websearch_core.testing.simulator import SimResult

ALL = ["tavily", "brave", "searxng", "duckduckgo"]


sim = simulator_fixture(*ALL)


async def test_auto_chain_uses_first_available_in_spec_order(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        result = await ws.run("python asyncio")
    assert result.error is None
    assert result.response.provider == "tavily"
    assert requests_per_provider(sim) == {"tavily": 1, "brave": 0, "searxng": 0, "duckduckgo": 0}
    assert [a.outcome for a in result.response.attempts] == ["success"]


async def test_unconfigured_providers_are_skipped_silently(sim: Simulator) -> None:
    async with sim_client(sim, api_keys={"brave": "k"}) as ws:
        result = await ws.run("python asyncio")
    assert result.response.provider == "brave"
    assert [a.provider for a in result.response.attempts] == ["brave"]


async def test_preferred_provider_goes_first(sim: Simulator) -> None:
    async with sim_client(sim, provider="duckduckgo") as ws:
        result = await ws.run("python asyncio")
    assert result.response.provider == "duckduckgo"
    assert requests_per_provider(sim)["tavily"] == 0


async def test_preferred_provider_falls_back_to_the_auto_chain(sim: Simulator) -> None:
    sim["duckduckgo"].enqueue(Fault.challenge())
    async with sim_client(sim, provider="duckduckgo") as ws:
        result = await ws.run("python asyncio")
    assert result.response.provider == "tavily"
    assert [(a.provider, a.outcome) for a in result.response.attempts] == [
        ("duckduckgo", "failed"),
        ("tavily", "success"),
    ]
    assert result.response.attempts[0].status == 429


async def test_a_failed_preferred_provider_is_not_asked_again_by_the_auto_order(
    sim: Simulator,
) -> None:
    """Guard of spec Flow 3: the preferred provider, then the order *excluding* it.

    Every provider answers empty (a 204, which sets no cooldown, so a second turn would
    send a second request; SearXNG, whose simulated suggestions always render, is left
    out): each is asked once, the preferred first. It passes on main; with the preferred
    id left in the order after it, Brave was asked twice (stop 48).
    """
    for provider_id in ALL:
        sim[provider_id].results = []
    async with sim_client(sim, provider="brave", exclude=("searxng",)) as ws:
        with pytest.raises(AllProvidersFailedError) as caught:
            await ws.search("python asyncio")
    asked = [error.provider for error in caught.value.failures]
    assert asked == ["brave", "tavily", "duckduckgo"]
    assert requests_per_provider(sim) == {"tavily": 1, "brave": 1, "searxng": 0, "duckduckgo": 1}


async def test_excluded_providers_never_run_even_when_preferred(sim: Simulator) -> None:
    sim["brave"].always(Fault.server_error())
    async with sim_client(sim, provider="tavily", exclude=("tavily", "searxng")) as ws:
        result = await ws.run("python asyncio")
    assert result.response.provider == "duckduckgo"
    assert requests_per_provider(sim) == {"tavily": 0, "brave": 1, "searxng": 0, "duckduckgo": 1}
    assert result.response.attempts[0].outcome == "skipped"


async def test_forced_provider_runs_alone(sim: Simulator) -> None:
    sim["searxng"].always(Fault.server_error())
    async with sim_client(sim) as ws:
        result = await ws.run("python asyncio", provider="searxng")
    assert result.error is not None
    assert result.response.provider == "searxng"
    assert requests_per_provider(sim) == {"tavily": 0, "brave": 0, "searxng": 1, "duckduckgo": 0}


async def test_unavailable_forced_provider_falls_back_to_auto_chain(sim: Simulator) -> None:
    async with sim_client(sim, api_keys={}) as ws:
        result = await ws.run("python asyncio", provider="brave")
    # Brave has no key: the auto chain runs instead (SearXNG has an endpoint).
    assert result.response.provider == "searxng"
    assert result.response.attempts[0].provider == "brave"
    assert result.response.attempts[0].outcome == "skipped"
    assert requests_per_provider(sim)["brave"] == 0


async def test_unknown_ids_are_configuration_errors(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        with pytest.raises(ConfigurationError, match="Unknown search provider: bravo"):
            await ws.run("q", provider="bravo")
    # An unknown id in a setting fails when the settings are read, naming the setting.
    with pytest.raises(ValidationError, match=r"provider\n.*Unknown search provider: bravo"):
        sim_client(sim, provider="bravo")
    with pytest.raises(ValidationError, match=r"exclude\n.*unknown provider id nope"):
        sim_client(sim, exclude=("nope",))


async def test_empty_response_counts_as_204_and_moves_on(sim: Simulator) -> None:
    sim["tavily"].results = []
    async with sim_client(sim) as ws:
        result = await ws.run("python asyncio")
        assert result.response.provider == "brave"
        first = result.response.attempts[0]
        assert (first.provider, first.status) == ("tavily", 204)
        assert first.detail == "Tavily returned no renderable search content."
        with pytest.raises(AllProvidersFailedError) as caught:
            await ws.search("python asyncio", provider="tavily")
    assert isinstance(caught.value.failures[0], EmptyResponseError)
    assert str(caught.value) == "Tavily returned no renderable search content."


async def test_related_questions_alone_are_an_answer_not_a_204(sim: Simulator) -> None:
    """Guard of spec Flow 6: only a response with nothing renderable is a 204.

    Related questions alone render (Outputs' ``## Related``), so SearXNG's suggestions
    without results end the chain, no later provider asked. It passes on main; with the
    attempt's check counting only sources and an answer it failed (stop 48).
    """
    body = json.dumps(
        {"query": "python asyncio", "results": [], "suggestions": ["asyncio tutorial"]}
    )
    sim["searxng"].enqueue(Fault.http(200, body, {"Content-Type": "application/json"}))
    async with sim_client(sim, provider="searxng") as ws:
        result = await ws.run("python asyncio")
    assert result.error is None
    assert result.response.provider == "searxng"
    assert result.response.related_questions == ("asyncio tutorial",)
    assert "## Related" in result.text
    assert result.text.endswith("\n- asyncio tutorial")
    assert requests_per_provider(sim) == {"tavily": 0, "brave": 0, "searxng": 1, "duckduckgo": 0}


async def test_all_failed_message_lists_each_provider_in_order(sim: Simulator) -> None:
    sim["tavily"].always(Fault.unauthorized())
    sim["brave"].always(Fault.payment_required())
    sim["searxng"].always(Fault.forbidden())
    sim["duckduckgo"].always(Fault.challenge())
    async with sim_client(sim) as ws:
        result = await ws.run("python asyncio")
    async with sim_client(sim) as fresh:  # a new client: no cooldowns from the first call
        with pytest.raises(AllProvidersFailedError) as caught:
            await fresh.search("python asyncio")
    expected = (
        "All web search providers failed: "
        "tavily: Tavily authorization failed (401). Check API key or base URL; "
        "brave: brave: 402 credits exhausted; "
        "searxng: SearXNG authorization failed (403). Check API key or base URL; "
        "duckduckgo: DuckDuckGo blocked the request with a bot-detection challenge. "
        "DuckDuckGo throttles automated HTML searches from datacenter/shared-egress IPs; "
        "configure a credentialed provider such as Brave, Tavily, Exa, or Kagi for reliable "
        "web search."
    )
    assert result.text == f"Error: {expected}"
    assert result.error == expected
    assert result.response.provider == "duckduckgo"
    assert result.response.sources == ()
    assert [a.outcome for a in result.response.attempts] == ["failed"] * 4
    assert str(caught.value) == expected
    kinds = [type(error) for error in caught.value.failures]
    assert kinds[0] is AuthorizationError and kinds[1] is QuotaExhaustedError


async def test_all_failed_message_drops_a_failures_full_stop_before_the_next(
    sim: Simulator,
) -> None:
    # Before: "public: Public Web returned no renderable search content.; tavily: ...".
    for engine in ("duckduckgo", "brave", "searxng"):
        sim[engine].results = []
    sim["tavily"].always(Fault.http(500, "upstream down"))
    async with sim_client(sim, providers=("public", "tavily")) as ws:
        result = await ws.run("python asyncio", use_cache=False)
    assert result.error == (
        "All web search providers failed: "
        "public: Public Web returned no renderable search content; "
        "tavily: Tavily API error (500): upstream down"
    )
    assert [(a.provider, a.outcome) for a in result.response.attempts] == [
        ("public", "failed"),
        ("tavily", "failed"),
    ]


async def test_single_failure_is_reported_alone(sim: Simulator) -> None:
    sim["brave"].always(Fault.unauthorized())
    async with sim_client(sim) as ws:
        result = await ws.run("q", provider="brave")
    assert result.text == "Error: Brave authorization failed (401). Check API key or base URL."


async def test_no_provider_configured(sim: Simulator) -> None:
    async with sim_client(sim, api_keys={}, exclude=("duckduckgo", "searxng")) as ws:
        result = await ws.run("python asyncio")
        with pytest.raises(NoProviderConfiguredError, match=r"No web search provider configured\."):
            await ws.search("python asyncio")
    assert result.text == "Error: No web search provider configured."
    assert result.response.provider == "none"
    assert sum(requests_per_provider(sim).values()) == 0


async def test_cancellation_propagates_instead_of_error_text(sim: Simulator) -> None:
    sim["tavily"].always(Fault.hang(30))
    async with sim_client(sim) as ws:
        task = asyncio.create_task(ws.run("python asyncio"))
        while not sim["tavily"].requests:
            await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
    assert requests_per_provider(sim)["brave"] == 0


async def test_secrets_never_reach_the_text_or_the_errors(sim: Simulator) -> None:
    key = "sk-very-secret-brave-key"
    sim["brave"].always(Fault.http(500, body=f"upstream echoed token={key}"))
    async with sim_client(sim, api_keys={"brave": key}) as ws:
        result = await ws.run("q", provider="brave")
        with pytest.raises(AllProvidersFailedError) as caught:
            await ws.search("q", provider="brave")
    assert result.error is not None and "token=***" in result.error
    dumped = result.response.model_dump_json() + result.text + repr(caught.value.failures)
    assert key not in dumped
    assert key not in repr(ws) and key not in repr(ws.credentials)


async def test_a_key_echoed_in_a_successful_answer_is_masked(sim: Simulator) -> None:
    key = "sk-very-secret-brave-key"
    sim["brave"].results = [
        SimResult(f"Debug page for {key}", "https://example.org/a", f"it says token={key}")
    ]
    async with sim_client(sim, api_keys={"brave": key}) as ws:
        first = await ws.run("q", provider="brave")
        cached = await ws.run("q", provider="brave")  # what the cache kept is masked too
    assert first.error is None and "token=***" in first.text
    for result in (first, cached):
        assert key not in result.text + result.response.model_dump_json()
    assert cached.response.cached


async def test_a_password_written_in_a_base_url_is_never_shown(sim: Simulator) -> None:
    password = "gateway-pass-0123456789"
    sim["brave"].always(Fault.http(500, body=f"denied: admin:{password} ({password})"))
    closed = refused_port()  # the connection error names it
    echoing = sim.base_urls()["brave"].replace("http://", f"http://admin:{password}@")
    refused = f"http://admin:{password}@127.0.0.1:{closed}"
    texts = []
    for base_url in (echoing, refused):
        base_urls = {**sim.base_urls(), "brave": base_url}
        async with sim_client(sim, base_urls=base_urls) as ws:
            result = await ws.run("q", provider="brave")
        assert result.error is not None
        texts.append(result.text + result.response.model_dump_json())
    assert "denied: *** (***)" in texts[0]
    assert (
        f"Brave search failed: the connection failed (127.0.0.1:{closed}): could not connect"
        in texts[1]
    )
    assert not any(password in text or "admin:" in text for text in texts)


async def test_brave_s_per_second_429_is_waited_out_not_taken_for_a_spent_month(
    sim: Simulator,
) -> None:
    # Brave's rate-limit body carries the month's quota numbers; its headers may be stripped
    # by a gateway. The word "quota" alone must not put Brave away until next month.
    body = (
        '{"type":"ErrorResponse","error":{"code":"RATE_LIMITED","status":429,"meta":'
        '{"rate_limit":1,"rate_current":1,"quota_limit":2000,"quota_current":15}}}'
    )
    sim["brave"].enqueue(Fault.http(429, body=body))
    async with sim_client(sim, providers=("brave", "duckduckgo")) as ws:
        first = await ws.run("first")
        second = await ws.run("second")
    attempts = [(a.provider, a.outcome) for a in first.response.attempts]
    assert attempts == [("brave", "failed"), ("brave", "success")]  # waited, asked again
    assert (first.response.provider, second.response.provider) == ("brave", "brave")
    assert len(sim["brave"].requests) == 3  # the 429, its retry, the second search


async def test_a_call_cancelled_while_waiting_out_a_rate_limit_leaves_the_mark(
    sim: Simulator,
) -> None:
    sim["brave"].enqueue(Fault.rate_limited(retry_after=2))
    async with sim_client(sim, providers=("brave", "duckduckgo")) as ws:
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(ws.run("first"), 0.5)  # gives up during the 2 s wait
        second = await ws.run("second")
    assert len(sim["brave"].requests) == 1  # not asked again before its Retry-After
    assert [(a.provider, a.outcome) for a in second.response.attempts] == [
        ("brave", "skipped"),
        ("duckduckgo", "success"),
    ]


async def test_a_key_exported_after_a_search_is_masked_in_the_next(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    key = "tvly-exported-after-the-first-search-0123"
    sim["tavily"].always(Fault.http(500, body=f"upstream echoed token={key}"))
    keys = {pid: value for pid, value in sim.api_keys().items() if pid != "tavily"}
    async with sim_client(sim, api_keys=keys) as ws:
        await ws.run("first")  # the client's shared parts are built without the key
        monkeypatch.setenv("TAVILY_API_KEY", key)
        result = await ws.run("second", provider="tavily")
    assert result.error is not None and "token=***" in result.error
    assert key not in result.text + result.response.model_dump_json()


async def test_one_session_is_reused_across_calls(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        await ws.run("first")
        session = ws._session
        await ws.run("second")
        assert ws._session is session
    assert session is not None and session.closed


def test_sync_bridge_without_a_running_loop() -> None:
    with Simulator(["tavily"]).running_in_thread() as sim:
        ws = WebSearch(sim.settings(), api_keys=sim.api_keys())
        assert ws.run_sync("no loop").response.provider == "tavily"
        assert ws.search_sync("again").provider == "tavily"


async def test_sync_bridge_inside_a_running_loop() -> None:
    with Simulator(["tavily"]).running_in_thread() as sim:
        ws = WebSearch(sim.settings(), api_keys=sim.api_keys())
        # Blocks this loop's thread: the bridge must run on a loop of its own.
        assert ws.run_sync("inside a loop").response.provider == "tavily"
        result = await asyncio.to_thread(ws.run_sync, "worker thread")
        assert result.response.provider == "tavily"


async def test_a_forced_provider_that_cannot_run_falls_back_to_the_preferred_one_too(
    sim: Simulator,
) -> None:
    keys = {pid: key for pid, key in sim.api_keys().items() if pid != "tavily"}
    async with sim_client(
        sim, api_keys=keys, provider="brave", exclude=("searxng", "duckduckgo")
    ) as ws:
        result = await ws.run("python asyncio", provider="tavily")
    # The auto chain is every available provider, the configured preferred one included.
    assert result.error is None and result.response.provider == "brave"
    assert [(a.provider, a.outcome) for a in result.response.attempts] == [
        ("tavily", "skipped"),
        ("brave", "success"),
    ]


async def test_a_listed_provider_that_cannot_run_is_reported_not_skipped(
    sim: Simulator,
) -> None:
    keys = {pid: key for pid, key in sim.api_keys().items() if pid != "tavily"}
    async with sim_client(sim, api_keys=keys, providers=("tavily",)) as ws:
        result = await ws.run("python asyncio")
        with pytest.raises(NoProviderCanRunError) as raised:
            await ws.search("python asyncio")
    # Every entry of an explicit list is explicit: its own reason, after the spec's text,
    # as nothing could be asked (the settings failed, not Tavily: the command exits 2).
    why = (
        "Tavily web search is unavailable. Configure its credentials or select the automatic "
        "provider chain. To configure it, set TAVILY_API_KEY, or store the key with "
        "'websearch auth set tavily'."
    )
    assert result.error == f"No web search provider configured. {why}"
    assert result.response.provider == "tavily"
    assert sum(requests_per_provider(sim).values()) == 0
    # Both what it was raised as before and what it is: nothing could run.
    assert isinstance(raised.value, AllProvidersFailedError)
    assert isinstance(raised.value, NoProviderConfiguredError)
    assert str(raised.value) == result.error
    assert [error.provider for error in raised.value.failures] == ["tavily"]


async def test_a_chain_whose_listed_providers_all_lack_their_keys_names_each(
    sim: Simulator,
) -> None:
    async with sim_client(sim, api_keys={}, providers=("brave", "tavily")) as ws:
        result = await ws.run("python asyncio")
    assert result.error == (
        "No web search provider configured. brave: Brave web search is unavailable. Configure "
        "its credentials or select the automatic provider chain. To configure it, set "
        "BRAVE_API_KEY, or store the key with 'websearch auth set brave'; tavily: Tavily web "
        "search is unavailable. Configure its credentials or select the automatic provider "
        "chain. To configure it, set TAVILY_API_KEY, or store the key with 'websearch auth set "
        "tavily'."
    )
    assert sum(requests_per_provider(sim).values()) == 0


async def test_a_listed_provider_asked_and_failing_is_a_failure_not_a_setup_problem(
    sim: Simulator,
) -> None:
    sim["brave"].always(Fault.server_error(503, "down"))
    keys = {"brave": sim.api_keys()["brave"]}
    async with sim_client(sim, api_keys=keys, providers=("tavily", "brave")) as ws:
        with pytest.raises(AllProvidersFailedError) as raised:
            await ws.search("python asyncio")
    assert not isinstance(raised.value, NoProviderConfiguredError)
    assert str(raised.value).startswith("All web search providers failed: tavily: ")


async def test_a_forced_provider_that_cannot_run_says_why_before_the_fallbacks(
    sim: Simulator,
) -> None:
    sim["brave"].always(Fault.server_error(503, "down"))
    sim["duckduckgo"].always(Fault.server_error(503, "down"))
    keys = {pid: key for pid, key in sim.api_keys().items() if pid != "tavily"}
    async with sim_client(sim, api_keys=keys, exclude=("searxng",)) as ws:
        result = await ws.run("python asyncio", provider="tavily")
    assert result.is_error
    assert result.text.startswith(
        "Error: All web search providers failed: tavily: Tavily was forced but cannot run "
        "(no API key: set TAVILY_API_KEY, or store the key with 'websearch auth set tavily'); "
        "fell back to the auto chain; brave: "
    )
    assert requests_per_provider(sim)["tavily"] == 0


async def test_a_forced_provider_that_cannot_run_is_not_listed_again_by_the_fallback(
    sim: Simulator,
) -> None:
    """An explicit list naming it would report it a second time, with the spec's text."""
    keys = {pid: key for pid, key in sim.api_keys().items() if pid != "tavily"}
    async with sim_client(sim, providers=("tavily", "brave"), api_keys=keys) as ws:
        result = await ws.run("python asyncio", provider="tavily")
    assert result.response.provider == "brave"
    assert [(a.provider, a.outcome) for a in result.response.attempts] == [
        ("tavily", "skipped"),
        ("brave", "success"),
    ]
    assert requests_per_provider(sim)["tavily"] == 0


@pytest.mark.parametrize("pasted", ["k-1\r\nX-Injected: 1", "k-1\nsecond-line", "k-\x00-1"])
async def test_a_key_with_a_line_break_is_named_and_the_chain_moves_on(
    sim: Simulator, pasted: str
) -> None:
    # In the store (a variable cannot hold a NUL): one given in code is refused when the
    # client is built instead (test_key_problems).
    store = Path(os.environ["WEBSEARCH_CREDENTIALS_FILE"])
    store.write_text(json.dumps({"tavily": {"api_key": pasted}}), encoding="utf-8")
    keys = {pid: key for pid, key in sim.api_keys().items() if pid != "tavily"}
    async with sim_client(sim, providers=("tavily", "brave"), api_keys=keys) as ws:
        chained = await ws.run("python asyncio")
        forced = await ws.run("python asyncio", provider="tavily", use_cache=False)
        again = await ws.run("python asyncio", provider="tavily", use_cache=False)
    assert chained.response.provider == "brave"
    failed = chained.response.attempts[0]
    # Skipped before any request, naming where the key came from (see test_key_problems).
    assert (failed.provider, failed.outcome) == ("tavily", "skipped")
    expected = (
        f"Tavily API key stored in the credential store {store} contains a control character "
        "(a line break, a NUL), so it cannot be sent; store it again with "
        "'websearch auth set tavily'."
    )
    assert failed.detail == expected
    # Forced, it cannot run at all: the rest of the chain answers after saying why, every
    # time (no mark), as for a forced provider without a key.
    for result in (forced, again):
        assert result.response.provider == "brave"
        assert [(a.provider, a.outcome) for a in result.response.attempts] == [
            ("tavily", "skipped"),
            ("brave", "success"),
        ]
        assert result.response.attempts[0].detail == (
            f"Tavily was forced but cannot run ({expected.removesuffix('.')}); "
            "fell back to the auto chain"
        )
    assert requests_per_provider(sim)["tavily"] == 0


async def test_each_attempt_s_log_record_carries_its_attempt_as_fields(
    sim: Simulator, caplog: pytest.LogCaptureFixture
) -> None:
    # A program shipping its logs as JSON had only the sentence to parse for which
    # provider failed and how; each record now carries the attempt's own fields.
    sim["tavily"].always(Fault.server_error(503))
    sim["brave"].always(Fault.payment_required())
    with caplog.at_level(logging.INFO, logger="websearch_core"):
        async with sim_client(sim, state_backend="memory") as ws:
            first = await ws.run("python asyncio")
            again = await ws.run("python asyncio")
    fields = [
        (r.provider, r.outcome, r.status, r.ms)  # type: ignore[attr-defined]
        for r in caplog.records
        if hasattr(r, "outcome")
    ]
    attempts = [(a.provider, a.outcome, a.status, a.ms) for a in first.response.attempts]
    assert attempts[:2] == [
        ("tavily", "failed", 503, attempts[0][3]),
        ("brave", "failed", 402, attempts[1][3]),
    ]
    assert fields[: len(attempts)] == attempts
    cached = again.response.attempts[-1]
    assert (
        fields[len(attempts) :]
        == [("searxng", "cached", None, 0.0)]
        == [(cached.provider, cached.outcome, cached.status, cached.ms)]
    )


async def test_a_timeout_the_deadline_cut_short_says_so(sim: Simulator) -> None:
    """``Brave search timed out after 0.6s`` read as Brave's own timeout; it was what was
    left of the search's deadline. A provider's own timeout keeps the plain text."""
    sim["tavily"].always(Fault.hang(10))
    sim["brave"].always(Fault.hang(10))
    async with sim_client(
        sim, providers=["tavily", "brave"], timeout_seconds=0.8, deadline_seconds=1.5
    ) as ws:
        result = await ws.run("python", use_cache=False)
    own, cut = result.response.attempts
    assert own.detail == "Tavily search timed out after 0.8s"
    assert cut.detail is not None
    assert re.fullmatch(
        r"Brave search timed out after 0\.\ds, the time left of the 1\.5s deadline", cut.detail
    )
    assert cut.detail in (result.error or "")


async def test_a_preferred_provider_without_its_key_says_why_in_the_failure(
    sim: Simulator,
) -> None:
    # WebSearch(provider="brave") without a key, as the README's first example has it: the
    # auto chain answers, as the spec has it, and its error names Brave and what to set.
    sim["duckduckgo"].always(Fault.server_error(503))
    keys = {pid: key for pid, key in sim.api_keys().items() if pid not in ("brave", "tavily")}
    async with sim_client(sim, api_keys=keys, provider="brave", exclude=("searxng",)) as ws:
        result = await ws.run("python asyncio")
        with pytest.raises(AllProvidersFailedError) as raised:
            await ws.search("python asyncio", use_cache=False)
    why = (
        "Brave was preferred but cannot run (no API key: set BRAVE_API_KEY, or store the key "
        "with 'websearch auth set brave'); fell back to the auto chain"
    )
    assert result.error is not None
    assert result.error.startswith(f"All web search providers failed: brave: {why}; duckduckgo:")
    assert str(raised.value) == result.error
    first = result.response.attempts[0]
    assert (first.provider, first.outcome, first.detail) == ("brave", "skipped", why)
    assert requests_per_provider(sim)["brave"] == 0


async def test_a_preferred_provider_without_its_key_leaves_the_answer_alone(
    sim: Simulator,
) -> None:
    keys = {pid: key for pid, key in sim.api_keys().items() if pid != "brave"}
    async with sim_client(sim, api_keys=keys, provider="brave") as ws:
        result = await ws.run("python asyncio")
    assert result.error is None and result.response.provider == "tavily"
    assert [(a.provider, a.outcome) for a in result.response.attempts] == [
        ("brave", "skipped"),
        ("tavily", "success"),
    ]
    assert "set BRAVE_API_KEY" in (result.response.attempts[0].detail or "")
