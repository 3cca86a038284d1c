"""Quota-aware fallback end to end: the simulator counts every request it receives."""

import asyncio
import json
import logging
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from tests.functional._sim_helpers import requests_per_provider, sim_client, simulator_fixture
from tests.functional._state_settings import state_environment
from websearch_core import AllProvidersFailedError, WebSearch
from websearch_core.testing import Fault, Simulator

CHAIN = ("brave", "tavily", "searxng")


sim = simulator_fixture("brave", "tavily", "searxng", "duckduckgo")


def _client(sim: Simulator, state: dict[str, Any] | None = None, **overrides: Any) -> WebSearch:
    # Kept local: every quota test runs on CHAIN, its state store given positionally.
    return sim_client(sim, **{"providers": CHAIN, **(state or {}), **overrides})


async def test_exhausted_provider_is_skipped_without_a_request(sim: Simulator) -> None:
    sim["brave"].always(Fault.payment_required())
    async with _client(sim, cache=False) as ws:
        first = await ws.run("python asyncio")
        assert first.response.provider == "tavily"
        assert requests_per_provider(sim)["brave"] == 1
        second = await ws.run("python asyncio")
    assert second.response.provider == "tavily"
    assert requests_per_provider(sim)["brave"] == 1  # nothing was sent to Brave the second time
    skipped = second.response.attempts[0]
    assert (skipped.provider, skipped.outcome) == ("brave", "skipped")
    assert skipped.detail is not None and "Brave is out of quota until" in skipped.detail
    assert "00:00:00 UTC" in skipped.detail  # no reset given: the start of next month
    # A month is long: the skip says how to clear the mark once the credits are renewed.
    assert skipped.detail.endswith(
        "skipped without a request. `websearch providers reset brave` clears this mark."
    )


async def test_a_failed_search_names_the_last_provider_asked_not_one_skipped(
    sim: Simulator,
) -> None:
    sim["brave"].always(Fault.payment_required())
    sim["tavily"].always(Fault.server_error())
    async with _client(sim, cache=False, providers=("tavily", "brave")) as ws:
        first = await ws.run("python asyncio")
        second = await ws.run("python asyncio")  # Brave is out of quota: skipped
    assert first.response.provider == "brave"
    assert [(a.provider, a.outcome) for a in second.response.attempts] == [
        ("tavily", "failed"),
        ("brave", "skipped"),
    ]
    assert second.response.provider == "tavily"  # the spec's "last attempted provider"


async def test_a_provider_skipped_without_a_request_is_named_in_the_final_error(
    sim: Simulator, tmp_path: Path
) -> None:
    sim["brave"].always(Fault.payment_required())
    sim["tavily"].always(Fault.server_error())
    state = {"state_backend": "sqlite", "state_dir": tmp_path / "state", "cache": False}
    async with _client(sim, state, providers=("brave", "tavily")) as ws:
        await ws.run("python asyncio")  # Brave's 402 marks it out of quota
        both = await ws.run("python asyncio")
    async with _client(sim, state, providers=("brave",)) as alone:
        only = await alone.run("python asyncio")
        with pytest.raises(AllProvidersFailedError) as raised:
            await alone.search("python asyncio")
    assert requests_per_provider(sim)["brave"] == 1  # neither search sent Brave a request
    # The skip is a failure of the chain: the caller reads why Brave was not asked.
    assert both.error is not None
    assert both.error.startswith("All web search providers failed: brave: Brave is out of quota")
    assert "skipped without a request." in both.error
    assert "; tavily: Tavily API error (500)" in both.error
    # A chain of one skipped provider says why, not that no provider is configured.
    assert only.error is not None and only.error.startswith("Brave is out of quota until")
    assert only.response.provider == "brave"
    assert str(raised.value).startswith("Brave is out of quota until")


async def test_a_forced_provider_is_asked_even_while_it_is_marked_out(sim: Simulator) -> None:
    sim["brave"].enqueue(Fault.payment_required())
    async with _client(sim, cache=False) as ws:
        marked = await ws.run("python asyncio")  # Brave's 402: out of quota until next month
        forced = await ws.run("python asyncio", provider="brave")
    assert marked.response.provider == "tavily"
    # Forcing means "ask this provider": the caller may know the quota was renewed.
    assert forced.error is None and forced.response.provider == "brave"
    assert requests_per_provider(sim)["brave"] == 2
    assert [(a.provider, a.outcome) for a in forced.response.attempts] == [("brave", "success")]


async def test_listed_chain_is_exactly_those_providers(sim: Simulator) -> None:
    for pid in CHAIN:
        sim[pid].always(Fault.server_error())
    async with _client(sim) as ws:
        result = await ws.run("python asyncio")
    assert result.error is not None
    assert result.error.startswith("All web search providers failed: brave: ")
    assert requests_per_provider(sim)["duckduckgo"] == 0  # always available, but not listed


async def test_short_retry_after_is_waited_out_and_retried_once(sim: Simulator) -> None:
    # 0.4 s, not a whole second: the same wait-then-retry path for 0.6 s less a run; a
    # retry that did not wait comes back in milliseconds, well under the 0.35 asserted.
    sim["brave"].enqueue(Fault.rate_limited(retry_after=0.4))
    async with _client(sim) as ws:
        started = asyncio.get_running_loop().time()
        result = await ws.run("python asyncio")
        waited = asyncio.get_running_loop().time() - started
    assert result.response.provider == "brave"
    assert requests_per_provider(sim)["brave"] == 2 and requests_per_provider(sim)["tavily"] == 0
    assert waited >= 0.35
    outcomes = [(a.provider, a.outcome, a.status) for a in result.response.attempts]
    assert outcomes == [("brave", "failed", 429), ("brave", "success", None)]


async def test_a_retry_after_equal_to_the_wait_budget_is_waited_out(sim: Simulator) -> None:
    # The bound is the point, not its size: 0.4 s against a budget of 0.4 s (both read as
    # the same float) takes the boundary's path for 0.6 s less than 1 s against 1 s.
    sim["brave"].enqueue(Fault.rate_limited(retry_after=0.4))
    async with _client(sim, rate_limit_wait_seconds=0.4) as ws:
        result = await ws.run("python asyncio")
    assert result.response.provider == "brave"  # "a wait of up to 0.4 s": 0.4 s included
    assert requests_per_provider(sim)["brave"] == 2 and requests_per_provider(sim)["tavily"] == 0


async def test_repeated_rate_limit_after_the_retry_moves_on(sim: Simulator) -> None:
    sim["brave"].always(Fault.rate_limited(retry_after=0.1))
    async with _client(sim) as ws:
        result = await ws.run("python asyncio")
    assert result.response.provider == "tavily"
    assert requests_per_provider(sim)["brave"] == 2  # the first try and exactly one retry


async def test_a_mark_keeps_the_first_300_characters_of_its_error(sim: Simulator) -> None:
    # An upstream's error text can run to kilobytes; the mark is stored and repeated in
    # every skip sentence until it ends, so it keeps the start, where the status is.
    sim["brave"].always(Fault.rate_limited(retry_after=100, body="Z" * 1000))
    async with _client(sim, cache=False) as ws:
        first = await ws.run("python asyncio")
        second = await ws.run("python asyncio")
    error = first.response.attempts[0].detail
    skipped = second.response.attempts[0].detail
    assert error is not None and len(error) > 1000
    assert skipped is not None and skipped.startswith("Brave is rate limited until ")
    reason = skipped.partition(" UTC (")[2].rpartition("); skipped without a request.")[0]
    assert reason == error[:300]


async def test_long_retry_after_moves_on_and_the_cooldown_outlives_the_process(
    sim: Simulator, shared_state: dict[str, Any]
) -> None:
    sim["brave"].enqueue(Fault.rate_limited(retry_after=3600))
    async with _client(sim, shared_state) as ws:
        result = await ws.run("python asyncio")
    assert result.response.provider == "tavily"
    assert requests_per_provider(sim)["brave"] == 1
    # A new process reading the same state directory sees Brave cooling down.
    code = (
        "import asyncio, json, sys\n"
        "from websearch_core import WebSearch\n"
        "async def main():\n"
        "    async with WebSearch() as ws:\n"
        "        rows = await ws.provider_status()\n"
        "    print(json.dumps({r.id: r.mark.kind if r.mark else None for r in rows}))\n"
        "asyncio.run(main())\n"
    )
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", code,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        env={**os.environ, **state_environment(shared_state)},
    )  # fmt: skip
    out, err = await process.communicate()
    assert process.returncode == 0, err.decode()
    marks = json.loads(out)
    assert marks["brave"] == "rate_limited"
    assert marks["tavily"] is None


async def test_two_processes_share_one_ledger(sim: Simulator, shared_state: dict[str, Any]) -> None:
    sim["brave"].enqueue(Fault.payment_required())
    async with _client(sim, shared_state, cache=False) as ws:
        await ws.run("first process")
    assert requests_per_provider(sim)["brave"] == 1
    # Another process, pointed at the same simulator and state, skips Brave at once.
    env = {**os.environ, **state_environment(shared_state)}
    for pid, url in sim.base_urls().items():
        env[f"WEBSEARCH_{pid.upper()}_BASE_URL"] = url
    env["SEARXNG_ENDPOINT"] = sim["searxng"].base_url
    code = (
        "import asyncio, json\n"
        "from websearch_core import WebSearch\n"
        "async def main():\n"
        "    keys = {'brave': 'k1', 'tavily': 'k2'}\n"
        "    async with WebSearch(api_keys=keys, providers=('brave', 'tavily', 'searxng'),\n"
        "                         cache=False) as ws:\n"
        "        result = await ws.run('second process')\n"
        "    print(json.dumps([result.response.provider,\n"
        "                      [a.outcome for a in result.response.attempts]]))\n"
        "asyncio.run(main())\n"
    )
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", code, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await process.communicate()
    assert process.returncode == 0, err.decode()
    provider, outcomes = json.loads(out)
    assert provider == "tavily"
    assert outcomes == ["skipped", "success"]
    assert requests_per_provider(sim)["brave"] == 1


async def test_cache_hit_sends_nothing(sim: Simulator) -> None:
    async with _client(sim) as ws:
        first = await ws.run("Python  AsyncIO")
        second = await ws.run("python asyncio")  # same query after normalisation
        bypass = await ws.run("python asyncio", use_cache=False)
        other = await ws.run("python asyncio", limit=3)  # other parameters: another key
    assert not first.response.cached
    assert second.response.cached and second.text == first.text
    assert [a.outcome for a in second.response.attempts] == ["cached"]
    assert not bypass.response.cached and not other.response.cached
    assert requests_per_provider(sim)["brave"] == 3


async def test_cache_can_be_switched_off(sim: Simulator) -> None:
    async with _client(sim, cache=False) as ws:
        await ws.run("python asyncio")
        await ws.run("python asyncio")
    assert requests_per_provider(sim)["brave"] == 2


async def test_cache_ttl_expires(sim: Simulator) -> None:
    async with _client(sim, cache_ttl_seconds=0.2) as ws:
        await ws.run("python asyncio")
        await asyncio.sleep(0.3)
        again = await ws.run("python asyncio")
    assert not again.response.cached
    assert requests_per_provider(sim)["brave"] == 2


async def test_stale_answer_is_served_when_every_provider_fails(sim: Simulator) -> None:
    async with _client(sim, cache_ttl_seconds=0.1) as ws:
        fresh = await ws.run("python asyncio")
        await asyncio.sleep(0.2)
        for pid in CHAIN:
            sim[pid].always(Fault.server_error())
        stale = await ws.run("python asyncio")
    assert stale.error is None
    assert stale.response.cached and stale.response.stale
    assert stale.text.startswith("Note: every provider failed; this cached answer is from ")
    assert stale.text.endswith(fresh.text)
    # The structured answer (--json, the tools' artifacts) says how old it is as well.
    note = stale.text.splitlines()[0].removeprefix("Note: ")
    assert stale.response.notes == (note,)
    assert stale.to_metadata()["response"]["notes"] == [note]
    assert [a.outcome for a in stale.response.attempts] == ["failed", "failed", "failed", "cached"]


async def test_failures_are_never_cached(sim: Simulator) -> None:
    sim["brave"].enqueue(Fault.server_error())
    async with _client(sim, providers=("brave",)) as ws:
        failed = await ws.run("python asyncio")
        ok = await ws.run("python asyncio")
    assert failed.error is not None
    assert ok.error is None and not ok.response.cached


async def test_pinned_provider_never_switches(sim: Simulator) -> None:
    sim["brave"].always(Fault.server_error())
    async with _client(sim, providers=(), provider="brave", fallback=False) as ws:
        result = await ws.run("python asyncio")
    assert result.error == "Brave API error (500): internal error"
    assert requests_per_provider(sim) == {"brave": 1, "tavily": 0, "searxng": 0, "duckduckgo": 0}


async def test_pinned_provider_that_cannot_run_says_so(sim: Simulator) -> None:
    settings = sim.settings(provider="brave", fallback=False)
    async with WebSearch(settings, api_keys={}) as ws:
        result = await ws.run("python asyncio")
    assert result.error == (
        "No web search provider configured. Brave web search is unavailable. Configure its "
        "credentials or select the automatic provider chain. To configure it, set BRAVE_API_KEY, "
        "or store the key with 'websearch auth set brave'."
    )
    assert sum(requests_per_provider(sim).values()) == 0


async def test_request_budget_is_counted_and_enforced(sim: Simulator) -> None:
    async with _client(sim, budget={"brave": "2/month"}, cache=False) as ws:
        for _ in range(3):
            result = await ws.run("python asyncio")
        rows = {row.id: row for row in await ws.provider_status()}
    assert requests_per_provider(sim)["brave"] == 2
    assert result.response.provider == "tavily"
    assert result.response.attempts[0].detail == (
        "Brave budget of 2/month is spent (2 used); skipped without a request."
    )
    assert rows["brave"].budget == "2/month" and rows["brave"].budget_used == 2
    assert rows["brave"].used_this_month == 2
    assert rows["tavily"].used_this_month == 1


async def test_authorization_failure_keeps_the_provider_out_for_a_while(sim: Simulator) -> None:
    # An hour's cooldown: a 0.3 s one had to outlast two searches and the status table,
    # and a loop descheduled for 0.35 s (a loaded machine) read the mark already gone.
    sim["brave"].enqueue(Fault.unauthorized())
    async with _client(sim, cache=False, auth_cooldown_seconds=3600) as ws:
        await ws.run("python asyncio")
        await ws.run("python asyncio")
        rows = {row.id: row for row in await ws.provider_status()}
        assert requests_per_provider(sim)["brave"] == 1
        assert rows["brave"].mark is not None and rows["brave"].mark.kind == "unauthorized"
        assert "Brave refused its credentials until" in rows["brave"].reason
        skip = await ws.run("python asyncio")
        assert skip.response.attempts[0].detail is not None
        assert skip.response.attempts[0].detail.endswith("; skipped without a request.")
    assert requests_per_provider(sim)["brave"] == 1


async def test_an_authorization_cooldown_ends(sim: Simulator) -> None:
    # The counterpart: once its cooldown is over the provider is asked again. A late
    # wake only lengthens the wait past the 0.3 s; a mark that never ends fails here.
    sim["brave"].enqueue(Fault.unauthorized())
    async with _client(sim, cache=False, auth_cooldown_seconds=0.3) as ws:
        await ws.run("python asyncio")
        await asyncio.sleep(0.4)
        await ws.run("python asyncio")
    assert requests_per_provider(sim)["brave"] == 2


@pytest.mark.parametrize(("cooldown", "hinted"), [(3600, False), (3601, True)])
async def test_only_a_mark_longer_than_an_hour_says_how_to_clear_it(
    sim: Simulator, cooldown: int, hinted: bool
) -> None:
    sim["brave"].enqueue(Fault.unauthorized())
    async with _client(sim, cache=False, auth_cooldown_seconds=cooldown) as ws:
        await ws.run("python asyncio")
        skip = await ws.run("python asyncio")
    detail = skip.response.attempts[0].detail
    assert detail is not None and detail.startswith("Brave refused its credentials until")
    # The README: "a skip for a mark longer than an hour ... ends with that command".
    assert detail.endswith("`websearch providers reset brave` clears this mark.") is hinted


async def test_circuit_breaker_opens_after_repeated_failures_and_resets(sim: Simulator) -> None:
    sim["brave"].enqueue(Fault.server_error(), Fault.server_error())
    async with _client(sim, cache=False) as ws:
        await ws.run("one")  # first failure: forgiven
        await ws.run("two")  # second consecutive failure: the breaker opens
        await ws.run("three")  # skipped
        assert requests_per_provider(sim)["brave"] == 2
        await ws.reset_provider("brave")
        await ws.run("four")  # reset clears the mark; Brave answers again
        assert requests_per_provider(sim)["brave"] == 3
        store = await ws.state()
        assert await store.record_failure("brave") == 1  # the success reset the counter


async def test_a_success_between_two_failures_keeps_the_breaker_closed(sim: Simulator) -> None:
    sim["brave"].enqueue(Fault.server_error(), None, Fault.server_error())
    async with _client(sim, cache=False) as ws:
        for query in ("one", "two", "three"):  # fails, answers, fails: never twice in a row
            await ws.run(query)
        fourth = await ws.run("four")
    assert fourth.response.provider == "brave"  # the breaker counts consecutive failures
    assert requests_per_provider(sim)["brave"] == 4


async def test_a_refused_request_is_not_counted_by_the_breaker(sim: Simulator) -> None:
    sim["brave"].enqueue(Fault.http(400, "bad query"), Fault.http(400, "bad query"))
    async with _client(sim, cache=False) as ws:
        for query in ("one", "two"):  # Brave refuses both requests: a 4xx is no outage
            await ws.run(query)
        third = await ws.run("three")
    assert third.response.provider == "brave"  # the breaker counts 5xx, timeouts, resets
    assert requests_per_provider(sim)["brave"] == 3


async def test_provider_reset_clears_marks(sim: Simulator) -> None:
    sim["brave"].enqueue(Fault.payment_required())
    async with _client(sim, cache=False) as ws:
        await ws.run("python asyncio")
        await ws.reset_provider("brave")
        result = await ws.run("python asyncio")
    assert result.response.provider == "brave"


async def test_unknown_ids_are_named(sim: Simulator) -> None:
    with pytest.raises(ValidationError, match="unknown provider id bravo, tavlly"):
        _client(sim, providers=("brave", "bravo", "tavlly"))
    with pytest.raises(ValidationError, match=r"budget\.brave must look like '2000/month'"):
        _client(sim, budget={"brave": "lots"})


async def test_brave_rate_limit_headers_tell_rate_limit_from_quota(sim: Simulator) -> None:
    per_second = {
        "X-RateLimit-Limit": "1, 2000",
        "X-RateLimit-Policy": "1;w=1, 2000;w=2592000",
        "X-RateLimit-Remaining": "0, 1500",
        "X-RateLimit-Reset": "1, 1000000",
    }
    monthly = {**per_second, "X-RateLimit-Remaining": "1, 0", "X-RateLimit-Reset": "1, 86400"}
    body = '{"type":"ErrorResponse","error":{"code":"RATE_LIMITED","meta":{"quota_limit":2000}}}'
    sim["brave"].enqueue(Fault.http(429, body, per_second), Fault.http(429, body, monthly))
    async with _client(sim, cache=False) as ws:
        # Per-second window spent: wait 1 s and retry; then the monthly window is spent.
        result = await ws.run("python asyncio")
        rows = {row.id: row for row in await ws.provider_status()}
    assert result.response.provider == "tavily"
    first, second = result.response.attempts[:2]
    assert first.detail == "rate limited; retrying after 1s"
    assert second.status == 429 and second.outcome == "failed"
    assert rows["brave"].mark is not None and rows["brave"].mark.kind == "exhausted"
    assert requests_per_provider(sim)["brave"] == 2


async def test_logs_say_who_served_skipped_and_failed_without_secrets(
    sim: Simulator, caplog: pytest.LogCaptureFixture
) -> None:
    key = "sk-brave-secret-value"
    sim["brave"].enqueue(Fault.http(402, body=f"no credits left for {key}"))
    caplog.set_level(logging.INFO, logger="websearch_core")
    settings = sim.settings(providers=CHAIN, cache=False)
    async with WebSearch(settings, api_keys={**sim.api_keys(), "brave": key}) as ws:
        await ws.run("first")
        await ws.run("second")
    messages = [record.getMessage() for record in caplog.records]
    assert any(m.startswith("web search provider brave failed (402)") for m in messages)
    assert any(
        m.startswith("web search provider brave skipped: Brave is out of quota") for m in messages
    )
    assert messages.count("web search served by tavily") == 2
    assert all(key not in m for m in messages)
    # An HTTP failure is logged as its one line: no traceback, no chained exceptions.
    assert not any(record.exc_info for record in caplog.records)


async def test_a_broken_state_store_costs_no_answer(
    sim: Simulator, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    state_dir = tmp_path / "state"
    state_dir.mkdir()
    (state_dir / "state.sqlite3").write_bytes(b"this is not a database" * 100)
    settings = sim.settings(providers=CHAIN, state_backend="sqlite", state_dir=state_dir)
    async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
        first = await ws.run("python asyncio")
        second = await ws.run("python asyncio")
    assert first.error is None and first.response.provider == "brave"
    assert not second.response.cached  # no cache without a store, but still an answer
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert any("state store unavailable; searching without it" in m for m in warnings)


async def test_an_unreachable_redis_costs_no_answer(sim: Simulator) -> None:
    pytest.importorskip("redis")
    from tests.redis_server import free_loopback_port

    url = f"redis://127.0.0.1:{free_loopback_port()}/0"  # nothing listens there
    settings = sim.settings(providers=CHAIN, state_backend="redis", redis_url=url)
    async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
        result = await ws.run("python asyncio")
    assert result.error is None and result.response.provider == "brave"


async def test_public_fan_out_skips_engines_that_are_marked_out() -> None:
    async with Simulator(["duckduckgo", "bing"]) as sim:
        sim["bing"].always(Fault.forbidden())
        settings = sim.settings(provider="public", fallback=False, cache=False)
        async with WebSearch(settings) as ws:
            first = await ws.run("python asyncio")
            second = await ws.run("python asyncio")
            rows = {row.id: row for row in await ws.provider_status()}
    assert first.response.provider == second.response.provider == "public"
    assert len(sim["bing"].requests) == 1  # marked after the 403, not asked again
    assert len(sim["duckduckgo"].requests) == 2
    assert rows["bing"].mark is not None and rows["bing"].mark.kind == "unauthorized"
    # Bing takes no key: its 403 is a block of automated requests, not refused credentials.
    assert rows["bing"].reason.startswith("Bing is blocking automated requests until")
    assert rows["duckduckgo"].used_this_month == 2 and rows["bing"].used_this_month == 1
