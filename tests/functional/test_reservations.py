"""Reserve before send: budgets and rate limits that hold under concurrency, scoped marks.

The loopback simulator counts what each provider really received; the assertions compare
that count with the budget, across tasks of one client and across processes sharing a
SQLite file or a real redis-server.
"""

import asyncio
import itertools
import json
import os
import re
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.functional._sim_helpers import simulator_fixture
from tests.functional._state_settings import state_environment
from websearch_core import WebSearch
from websearch_core.errors import AuthorizationError
from websearch_core.ledger import Ledger, ProviderSkippedError, Reservation, mark_scope
from websearch_core.providers import get_provider
from websearch_core.quota import Budget, Rate
from websearch_core.state import MemoryStore, StateStore, open_store
from websearch_core.state.failsafe import FailSafeStore
from websearch_core.status import collect_status
from websearch_core.testing import Simulator

CHAIN = ("brave", "tavily")
BRAVE = get_provider("brave").info


sim = simulator_fixture("brave", "tavily", "searxng")


def _store(state: dict[str, Any]) -> StateStore:
    if state["state_backend"] == "memory":
        return MemoryStore()
    if state["state_backend"] == "redis":
        return open_store(redis_url=state["redis_url"], sqlite_path=None)
    return open_store(redis_url=None, sqlite_path=Path(state["state_dir"]) / "state.sqlite3")


def _env(sim: Simulator, state: dict[str, Any]) -> dict[str, str]:
    env = {**os.environ, **state_environment(state)}
    for pid, url in sim.base_urls().items():
        env[f"WEBSEARCH_{pid.upper()}_BASE_URL"] = url
    return env


async def test_concurrent_calls_in_one_client_send_exactly_the_budget(
    sim: Simulator, any_state: dict[str, Any]
) -> None:
    settings = sim.settings(providers=CHAIN, cache=False, budget={"brave": "30/month"}, **any_state)
    async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
        results = await asyncio.gather(*(ws.run(f"query {n}") for n in range(120)))
        rows = {row.id: row for row in await ws.provider_status()}
    assert len(sim["brave"].requests) == 30
    assert all(result.error is None for result in results)  # the rest went to Tavily
    assert sum(r.response.provider == "brave" for r in results) == 30
    assert rows["brave"].budget_used == 30 and rows["brave"].used_this_month == 30
    assert rows["brave"].reason.startswith("over budget until ")
    assert rows["brave"].reason.endswith(" UTC") and not rows["brave"].available


CHILD = r"""
import asyncio, json
from websearch_core import WebSearch

async def main():
    keys = {"brave": "k1", "tavily": "k2"}
    async with WebSearch(api_keys=keys, providers=("brave", "tavily"), cache=False,
                         budget={"brave": "40/month"}) as ws:
        results = await asyncio.gather(*(ws.run(f"q{n}") for n in range(25)))
    print(json.dumps([r.response.provider for r in results]))

asyncio.run(main())
"""

FORKS = r"""
import gc, json, os, sys, threading, traceback
# What every child would import on its own (the client, the chain, both adapters, both
# stores' clients): imported once here, nothing of it run, then forked.
import websearch_core.call_setup, websearch_core.orchestration.chain
import websearch_core.providers.brave, websearch_core.providers.tavily
import websearch_core.state, sqlite3, aiohttp
try:
    import redis.asyncio
except ImportError:
    pass
from websearch_core import WebSearch

code, count = sys.argv[1], int(sys.argv[2])
assert threading.active_count() == 1, threading.enumerate()  # a fork copies one thread
gc.freeze()
children = []
for _ in range(count):
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        os.dup2(write_end, 1)
        status = 0
        try:
            exec(compile(code, "<child>", "exec"), {"__name__": "__main__"})
        except BaseException:
            traceback.print_exc()
            status = 1
        sys.exit(status)  # nothing to unwind above: the interpreter's own exit, as a command's
    os.close(write_end)
    children.append((pid, read_end))
said = []
for pid, read_end in children:
    with os.fdopen(read_end, "rb") as printed:
        out = printed.read().decode()
    said.append([os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]), out])
print(json.dumps(said))
"""
"""Runs ``argv[1]`` in ``argv[2]`` forked processes at once, after their shared imports.

Six fresh interpreters cost about 0.8 s of CPU each, nearly all of it importing the client
(25 searches add little): on two loaded cores, most of the six-process case. Forked after
one import, each child is still its own process with its own client, ledger and store
connection, so the store is all they share, as six separate commands would.
"""


async def test_six_processes_send_exactly_the_budget(
    sim: Simulator, shared_state: dict[str, Any]
) -> None:
    env = _env(sim, shared_state)
    forks = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        FORKS,
        CHILD,
        "6",
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(forks.communicate(), 120)
    assert forks.returncode == 0, err.decode()
    outputs = json.loads(out)
    assert len(outputs) == 6
    providers: list[str] = []
    for status, printed in outputs:
        assert status == 0, err.decode()
        providers += json.loads(printed)
    assert len(providers) == 150
    assert len(sim["brave"].requests) == 40
    assert providers.count("brave") == 40 and providers.count("tavily") == 110
    async with _store(shared_state) as store:
        ledger = Ledger(store, budgets={"brave": Budget(40, "month")})
        skip = await ledger.skip_reason(BRAVE)
    assert skip is not None and "budget of 40/month is spent (40 used)" in skip.message


async def test_count_request_is_an_atomic_check_and_count(any_state: dict[str, Any]) -> None:
    async with _store(any_state) as store:
        ledger = Ledger(store, budgets={"brave": Budget(1, "month")})
        outcomes = await asyncio.gather(
            *(ledger.count_request("brave") for _ in range(10)), return_exceptions=True
        )
    assert outcomes.count(None) == 1
    refused = [o for o in outcomes if isinstance(o, ProviderSkippedError)]
    assert len(refused) == 9
    assert refused[0].message == (
        "Brave budget of 1/month is spent (1 used); skipped without a request."
    )


async def test_a_burst_is_spread_by_the_rate_and_what_cannot_wait_is_skipped(
    any_state: dict[str, Any],
) -> None:
    # Slots a minute apart and 150 s to wait: three fit (0, 60, 120 s), two do not (180,
    # 240 s, 30 s past it). The waits are recorded, not slept: what is checked is what each
    # waiter was booked and waited out before it was granted, not when a loaded machine
    # woke it (a 0.5 s rate timed on the wall clock failed a waiter woken 0.5 s late).
    waited: dict[asyncio.Task[Any] | None, list[float]] = {}

    async def recorded(seconds: float) -> None:
        waited.setdefault(asyncio.current_task(), []).append(seconds)

    async def reserve() -> list[float]:
        await ledger.reserve(BRAVE, max_wait=150)
        return waited.get(asyncio.current_task(), [])

    async with _store(any_state) as store:
        ledger = Ledger(store, rates={"brave": Rate(1, 60.0)}, sleep=recorded)
        before = time.time()
        outcomes = await asyncio.gather(*(reserve() for _ in range(5)), return_exceptions=True)
        booking_took = time.time() - before
        used = await store.get_usage("brave", ledger._windows("brave", time.time())[0].period)
    granted = sorted((o for o in outcomes if isinstance(o, list)), key=sum)
    refused = [o for o in outcomes if isinstance(o, ProviderSkippedError)]
    assert len(granted) == 3 and len(refused) == 2, outcomes
    assert sum(len(sleeps) for sleeps in waited.values()) == 2  # the refused waited for none
    # The first went at once; the others each waited out their own slot, booked a minute
    # after the one before it from the first booking's time: less what the later booking
    # came after it (a busy machine only widens this), never more than the slot.
    assert granted[0] == []
    for nth, sleeps in enumerate(granted[1:], start=1):
        assert len(sleeps) == 1
        assert nth * 60.0 - booking_took - 0.01 <= sleeps[0] <= nth * 60.0 + 0.01
    assert "rate limit of 1/min has no free slot within 150s" in refused[0].message
    assert used == 3  # the refused reservations gave their count back


async def test_a_waiter_woken_late_does_not_push_the_next_past_its_booked_slot() -> None:
    # Slots a minute apart: the store books 0, 60 and 120 s. The waiters sleep until the test
    # says their slot has come, an event, not a clock reading. The second is woken last,
    # after the third's slot: the third must go at its own booked slot, not wait on the
    # second, nor on the in-process limiter's pacing from the first's send (a minute on the
    # real clock). When that limiter gated every send, it paced each from the previous
    # one's wake-up: a waiter woken late pushed the next past its wait, skipped.
    store = MemoryStore()
    asleep: list[tuple[float, asyncio.Task[Any] | None, asyncio.Event]] = []
    two_asleep = asyncio.Event()

    async def until_told(seconds: float) -> None:
        told = asyncio.Event()
        asleep.append((seconds, asyncio.current_task(), told))
        if len(asleep) == 2:
            two_asleep.set()
        await told.wait()

    ledger = Ledger(store, rates={"brave": Rate(1, 60.0)}, sleep=until_told)
    before = time.time()
    first = await ledger.reserve(BRAVE, max_wait=150)  # the free slot, at once
    assert first.provider == "brave" and asleep == []
    later = [asyncio.create_task(ledger.reserve(BRAVE, max_wait=150)) for _ in range(2)]
    done, _ = await asyncio.wait(
        [asyncio.create_task(two_asleep.wait()), *later],
        timeout=30,  # a waiter that never sleeps fails, not hangs
        return_when=asyncio.FIRST_COMPLETED,
    )
    booking_took = time.time() - before
    assert len(asleep) == 2 and not any(task.done() for task in later), done
    (second_slot, second, wake_second), (third_slot, third, wake_third) = sorted(
        asleep, key=lambda a: a[0]
    )
    assert second is not None and third is not None
    # Booked a minute apart from the first's time, less what the bookings took (see above).
    assert 60.0 - booking_took - 0.01 <= second_slot <= 60.0 + 0.01
    assert 120.0 - booking_took - 0.01 <= third_slot <= 120.0 + 0.01
    wake_third.set()  # the third's slot comes while the second still sleeps
    async with asyncio.timeout(30):  # one paced by the real clock waits a minute: fails
        granted_third = await third
    assert isinstance(granted_third, Reservation)
    assert granted_third.provider == "brave" and not second.done()
    wake_second.set()  # the late one wakes, and goes too
    async with asyncio.timeout(30):
        granted_second = await second
    assert isinstance(granted_second, Reservation) and granted_second.provider == "brave"


async def test_without_its_state_store_the_ledger_still_paces_alone() -> None:
    # The counterpart: a store that books nothing (a failed backend behind the fail-safe
    # wrapper answers 0 for every slot) leaves the in-process limiter as the only pacing.
    inner = MemoryStore()
    await inner.aclose()  # every call now fails: the wrapper bypasses it
    ledger = Ledger(FailSafeStore(inner), rates={"brave": Rate(5, 1.0)})
    started = time.monotonic()
    sent = []
    for _ in range(3):
        await ledger.reserve(BRAVE, max_wait=5)
        sent.append(time.monotonic() - started)
    assert sent[1] - sent[0] >= 0.19 and sent[2] - sent[1] >= 0.19


async def test_a_cancelled_wait_gives_the_slot_back(any_state: dict[str, Any]) -> None:
    # The waiter is looked at once it sleeps for its slot, an event: a fixed 0.2 s read
    # its count before a store slow to answer (a loaded machine, Redis's two round trips
    # on the store's thread) had counted it.
    asleep_for_its_slot = asyncio.Event()

    async def noted_sleep(seconds: float) -> None:
        asleep_for_its_slot.set()
        await asyncio.sleep(seconds)

    async with _store(any_state) as store:
        ledger = Ledger(
            store,
            budgets={"brave": Budget(5, "month")},
            rates={"brave": Rate(1, 60.0)},
            sleep=noted_sleep,
        )
        await ledger.reserve(BRAVE, max_wait=120)  # takes the free slot at once
        assert not asleep_for_its_slot.is_set()
        waiting = asyncio.create_task(ledger.reserve(BRAVE, max_wait=120))  # next: in 60 s
        async with asyncio.timeout(30):  # a waiter that never sleeps fails, not hangs
            await asleep_for_its_slot.wait()
        assert not waiting.done()
        budget_period = ledger._windows("brave", time.time())[1].period
        assert await store.get_usage("brave", budget_period) == 2
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        assert await store.get_usage("brave", budget_period) == 1


RATE_CHILD = r"""
import asyncio, json, sys, time
from pathlib import Path
from websearch_core.ledger import Ledger
from websearch_core.providers import get_provider
from websearch_core.quota import Rate
from websearch_core.state import open_store

cfg = json.loads(sys.argv[1])

async def main():
    path = Path(cfg["sqlite_path"]) if cfg["sqlite_path"] else None
    async with open_store(redis_url=cfg["redis_url"], sqlite_path=path) as store:
        ledger = Ledger(store, rates={"brave": Rate(8, 1.0)})
        print("ready", flush=True)
        sys.stdin.readline()
        sent = []
        for _ in range(3):
            asked = time.time()
            await ledger.reserve(get_provider("brave").info, max_wait=30)
            sent.append((asked, time.time()))
    print(json.dumps(sent), flush=True)

asyncio.run(main())
"""


async def test_processes_share_one_rate_schedule(shared_state: dict[str, Any]) -> None:
    sqlite_path = None
    if shared_state["state_backend"] == "sqlite":
        sqlite_path = str(Path(shared_state["state_dir"]) / "state.sqlite3")
    config = json.dumps({"redis_url": shared_state.get("redis_url"), "sqlite_path": sqlite_path})
    children = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            RATE_CHILD,
            config,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        for _ in range(3)
    ]
    for child in children:
        assert child.stdout is not None
        assert (await asyncio.wait_for(child.stdout.readline(), 60)).strip() == b"ready"
    outputs = await asyncio.wait_for(
        asyncio.gather(*(child.communicate(b"go\n") for child in children)), 60
    )
    # Each send's booked slot lies between the moment its process asked and the moment the
    # reservation returned: the store books no earlier than it is asked, and the wait ends no
    # earlier than the slot. A process that wakes late for its slot (a loaded machine) only
    # widens its span, so these bounds hold however late the sends are; the send times
    # themselves do not (a late send narrowed the gap to the next one to 0.21 s).
    spans = [tuple(span) for out, _ in outputs for span in json.loads(out)]
    assert len(spans) == 9
    # 8/s shared: the slots are 0.125 s apart whichever process holds them, so the nine span
    # at least 1 s. Unshared, each process books its own three from "go": 0.25 s in all.
    # (4/s proved the same in 2 s of waiting; the rate is a parameter, the path is one.)
    slot = 1.0 / 8
    assert max(end for _, end in spans) - min(start for start, _ in spans) >= 8 * slot - 0.02
    # No two slots closer than a slot: two sends whose spans fit together within less than
    # that cannot hold two slots of one schedule (unshared, the first three are side by side).
    for (start_a, end_a), (start_b, end_b) in itertools.combinations(spans, 2):
        assert max(end_a, end_b) - min(start_a, start_b) >= slot - 0.02


async def test_marks_hold_only_for_the_scope_that_earned_them() -> None:
    scope = {"brave": "key-a"}
    ledger = Ledger(MemoryStore(), scope_of=lambda pid: scope.get(pid))
    await ledger.record_failure("brave", AuthorizationError("brave", "Brave refused", 401))
    skip = await ledger.skip_reason(BRAVE)
    assert skip is not None and "Brave refused its credentials until" in skip.message
    scope["brave"] = "key-b"  # a new key: a different door
    assert await ledger.skip_reason(BRAVE) is None
    assert await ledger.skip_reason(BRAVE, scope="key-a") is not None
    scope["brave"] = "key-a"  # a scope passed in wins over the current one
    assert await ledger.skip_reason(BRAVE, scope="key-b") is None


async def test_a_reservation_that_skips_marked_agrees_with_skip_reason(
    any_state: dict[str, Any],
) -> None:
    scope = {"brave": "key-a"}
    async with _store(any_state) as store:
        ledger = Ledger(
            store, budgets={"brave": Budget(2, "month")}, scope_of=lambda pid: scope.get(pid)
        )
        await ledger.record_failure("brave", AuthorizationError("brave", "Brave refused", 401))
        skip = await ledger.skip_reason(BRAVE)
        with pytest.raises(ProviderSkippedError) as refused:
            await ledger.reserve(BRAVE, skip_marked=True)
        assert skip is not None and refused.value.message == skip.message
        assert await store.get_usage("brave", "month:" + time.strftime("%Y-%m", time.gmtime())) == 0
        await ledger.reserve(BRAVE)  # without skip_marked a forced call still reserves
        scope["brave"] = "key-b"  # the mark was earned with another key: reserved after all
        assert await ledger.skip_reason(BRAVE) is None
        reservation = await ledger.reserve(BRAVE, skip_marked=True)
        assert reservation.provider == "brave"
        over = await ledger.skip_reason(BRAVE)
        with pytest.raises(ProviderSkippedError) as spent:
            await ledger.reserve(BRAVE, skip_marked=True)
    assert over is not None and spent.value.message == over.message
    assert "budget of 2/month is spent (2 used)" in over.message


async def test_mark_scope_follows_the_key_and_the_endpoint(sim: Simulator) -> None:
    async def scope(provider_id: str, key: str = "k1", **overrides: Any) -> str:
        settings = sim.settings(**overrides)
        async with WebSearch(settings, api_keys={**sim.api_keys(), "brave": key}) as ws:
            return mark_scope(ws._context(), provider_id)

    base = await scope("searxng")
    assert await scope("searxng") == base
    assert await scope("searxng", searxng={"endpoint": "http://127.0.0.1:9/other"}) != base
    assert await scope("brave", key="k1") != await scope("brave", key="k2")
    assert await scope("brave", base_urls={"brave": "http://127.0.0.1:9"}) != await scope("brave")
    assert "k1" not in await scope("brave", key="k1")
    # SearXNG's credentials are part of its door; another provider's scope ignores them.
    endpoint = sim["searxng"].base_url
    with_token = await scope("searxng", searxng={"endpoint": endpoint, "token": "t1"})
    assert await scope("searxng", searxng={"endpoint": endpoint, "token": "t2"}) != with_token
    other = {"endpoint": "http://127.0.0.1:9/other"}
    assert await scope("brave", searxng=other) == await scope("brave")


@pytest.mark.parametrize(
    ("provider_id", "variable"),
    [
        ("anthropic", "ANTHROPIC_SEARCH_BASE_URL"),
        ("anthropic", "ANTHROPIC_BASE_URL"),
        ("firecrawl", "FIRECRAWL_BASE_URL"),
        ("kimi", "MOONSHOT_SEARCH_BASE_URL"),
    ],
)
async def test_mark_scope_follows_an_endpoint_set_in_the_environment(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch, provider_id: str, variable: str
) -> None:
    # A key refused at one gateway says nothing about another: pointing the provider's
    # own endpoint variable elsewhere must let it be tried again.
    async def scope() -> str:
        async with WebSearch(sim.settings(), api_keys=sim.api_keys()) as ws:
            return mark_scope(ws._context(), provider_id)

    monkeypatch.delenv(variable, raising=False)
    scopes = {await scope()}
    for gateway in ("http://127.0.0.1:9/one", "http://127.0.0.1:9/two"):
        monkeypatch.setenv(variable, gateway)
        scopes.add(await scope())
    assert len(scopes) == 3  # the default endpoint and each gateway: three doors


async def test_status_ignores_a_mark_earned_at_another_endpoint(sim: Simulator) -> None:
    async with WebSearch(sim.settings(providers=("searxng",), cache=False)) as first:
        context = first._context()
        store = await first.state()
        ledger = Ledger(store, scope_of=lambda pid: mark_scope(context, pid))
        await ledger.record_failure("searxng", AuthorizationError("searxng", "forbidden", 403))
        rows = {row.id: row for row in await first.provider_status()}
        assert rows["searxng"].mark is not None and not rows["searxng"].available
        other = sim.settings(providers=("searxng",), searxng={"endpoint": "http://127.0.0.1:9/b"})
        async with WebSearch(other) as moved:
            rows = {row.id: row for row in await collect_status(moved._context(), store, other)}
    assert rows["searxng"].mark is None  # the same state seen from another endpoint
    assert rows["searxng"].available and rows["searxng"].reason == "ready"


async def test_a_scope_that_cannot_be_computed_leaves_the_mark_unscoped() -> None:
    def broken(provider_id: str) -> str:
        raise RuntimeError(f"no scope for {provider_id}")

    store = MemoryStore()
    ledger = Ledger(store, scope_of=broken)
    await ledger.record_failure("brave", AuthorizationError("brave", "Brave refused", 401))
    mark = await store.get_mark("brave", time.time())
    assert mark is not None and mark.scope == ""
    assert await ledger.skip_reason(BRAVE) is not None


async def test_release_gives_an_unsent_reservation_back_once(any_state: dict[str, Any]) -> None:
    async with _store(any_state) as store:
        ledger = Ledger(store, budgets={"brave": Budget(1, "month")})
        reservation = await ledger.reserve(BRAVE)
        with pytest.raises(ProviderSkippedError, match="budget of 1/month is spent"):
            await ledger.reserve(BRAVE)
        await ledger.release(reservation)  # the request was never sent
        await ledger.release(reservation)  # idempotent: one count back, not two
        month, budget = (w.period for w in reservation.windows)
        assert await store.get_usage("brave", budget) == 0
        assert await store.get_usage("brave", month) == 0
        again = await ledger.reserve(BRAVE)
        assert again.windows == reservation.windows and not again.released


async def test_releasing_one_reservation_twice_gives_back_one_count(
    any_state: dict[str, Any],
) -> None:
    async with _store(any_state) as store:
        ledger = Ledger(store, budgets={"brave": Budget(5, "month")})
        sent = await ledger.reserve(BRAVE)
        unsent = await ledger.reserve(BRAVE)
        await ledger.release(unsent)
        await ledger.release(unsent)  # a second release must not take the sent one's count
        month, budget = (w.period for w in sent.windows)
        assert await store.get_usage("brave", budget) == 1
        assert await store.get_usage("brave", month) == 1


async def test_a_mark_set_while_waiting_for_a_slot_skips_the_provider() -> None:
    store = MemoryStore()
    ledger = Ledger(store, budgets={"brave": Budget(9, "month")}, rates={"brave": Rate(4, 1.0)})
    await ledger.reserve(BRAVE)
    waiting = asyncio.create_task(ledger.reserve(BRAVE, max_wait=5))  # its slot: in 0.25 s
    await asyncio.sleep(0.05)
    await ledger.record_failure("brave", AuthorizationError("brave", "Brave refused", 401))
    with pytest.raises(ProviderSkippedError, match="Brave refused its credentials until"):
        await waiting
    budget_period = ledger._windows("brave", time.time())[1].period
    assert await store.get_usage("brave", budget_period) == 1  # the waiter gave its count back


async def test_without_its_state_store_a_client_still_keeps_to_the_rate(
    sim: Simulator, tmp_path: Path
) -> None:
    # A damaged SQLite file: the store books no rate slots, so the client's own pacing is
    # all that keeps Brave under 1/min.
    state_dir = tmp_path / "state"
    state_dir.mkdir()
    (state_dir / "state.sqlite3").write_bytes(b"this is not a database" * 100)
    settings = sim.settings(
        providers=CHAIN,
        state_backend="sqlite",
        state_dir=state_dir,
        rate={"brave": "1/min"},
        cache=False,
        deadline_seconds=1.5,
    )
    async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
        async with asyncio.timeout(20):  # a client that ignores its deadline fails, not hangs
            first = await ws.run("python asyncio")
            second = await ws.run("python asyncio")
    assert first.response.provider == "brave"
    assert second.response.provider == "tavily"
    assert len(sim["brave"].requests) == 1  # the second search sent Brave nothing
    skip = second.response.attempts[0]
    assert (skip.provider, skip.outcome) == ("brave", "skipped")
    assert skip.detail is not None
    # The time left is read off the clock (1.4993... when on time): said to a tenth, as
    # limits are, and never more than the deadline's; a busy machine leaves less (0.9 s
    # after a 0.5 s stall, which a "1(.d)s" pattern failed).
    refusal = (
        r"Brave rate limit of 1/min has no free slot within (\d+(\.\d)?)s; "
        r"skipped without a request\."
    )
    said = re.fullmatch(refusal, skip.detail)
    assert said is not None, skip.detail
    assert float(said[1]) <= 1.5


async def test_a_skip_asked_for_by_provider_id_names_the_provider_by_its_label() -> None:
    # Callers written before ProviderInfo pass an id; the skip still reads like the chain's.
    ledger = Ledger(MemoryStore())
    for provider_id in ("brave", "in-house"):
        refused = AuthorizationError(provider_id, "refused", 401)
        await ledger.record_failure(provider_id, refused)
    with pytest.raises(ProviderSkippedError, match=r"^Brave refused its credentials until"):
        await ledger.reserve("brave", skip_marked=True)
    # An id the registry does not know (a caller's own provider) is named as given.
    with pytest.raises(ProviderSkippedError, match=r"^in-house refused its credentials until"):
        await ledger.reserve("in-house", skip_marked=True)
