"""What a client keeps between searches, and what makes it build them again.

The transport, provider context, redactor and ledger settings depend only on the client:
its session (one per event loop), its frozen settings and the secrets it knows. Kept, they
must still follow each of those: a new loop gets a new session, a key resolved after the
client was made is scrubbed and masked at once, and concurrent searches
never share a ledger's per-call failure counts.
"""

import asyncio
import threading

import pytest

from websearch_core import Settings, WebSearch
from websearch_core.providers import ProviderContext

LATER_KEY = "tvly-exported-after-the-client-0123456789"


def _client() -> WebSearch:
    settings = Settings(providers=("brave",), state_backend="memory", cache=False)
    return WebSearch(settings, api_keys={"brave": "brave-key-given-in-code-0123456789"})


async def test_searches_on_one_loop_share_the_transport_and_context() -> None:
    async with _client() as ws:
        first = ws._context()
        assert ws._context() is first
        assert first.transport.session is ws._session


async def test_a_key_resolved_later_is_known_to_the_transport_and_redactor(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async with _client() as ws:
        before = ws._context()
        redactor = ws._setup().redactor()
        header = {"X-Search-Key": LATER_KEY}
        assert not before.transport._carries_credentials(header)
        assert redactor(LATER_KEY) == LATER_KEY

        monkeypatch.setenv("TAVILY_API_KEY", LATER_KEY)
        assert ws.credentials.api_key("tavily", ("TAVILY_API_KEY",)) == LATER_KEY

        # The same transport knows it: it asks the credentials whenever it scrubs.
        assert ws._context() is before
        assert before.transport._carries_credentials(header)  # never redirected elsewhere
        assert ws._setup().redactor()(f"echo {LATER_KEY}") == "echo ***"


def test_a_new_event_loop_gets_a_new_session_and_transport() -> None:
    ws = _client()

    async def first_loop() -> ProviderContext:
        return ws._context()

    async def second_loop(first: ProviderContext) -> ProviderContext:
        second = ws._context()
        # The first session never sent a request: it closes from here without its loop.
        await first.transport.session.close()
        await ws.aclose()
        return second

    first = asyncio.run(first_loop())
    second = asyncio.run(second_loop(first))
    assert second is not first
    assert second.transport.session is not first.transport.session


async def test_replaced_settings_are_followed() -> None:
    async with _client() as ws:
        before = ws._context()
        ws.settings = Settings(
            providers=("brave",), state_backend="memory", cache=False, timeout_seconds=3.0
        )
        after = ws._context()
        assert after.settings is ws.settings
        assert after.transport.default_timeout_seconds == 3.0
        assert before.transport.default_timeout_seconds != 3.0


async def test_each_search_gets_its_own_ledger_over_shared_budgets() -> None:
    settings = Settings(providers=("brave",), state_backend="memory", budget={"brave": "30/month"})
    async with WebSearch(settings, api_keys={"brave": "brave-key-0123456789"}) as ws:
        setup = ws._setup()
        store = setup.guarded(await ws.state())
        one, two = setup.runner(store), setup.runner(store)
        assert one.ledger is not two.ledger
        assert one.ledger._failures_seen is not two.ledger._failures_seen
        assert one.ledger.budgets == two.ledger.budgets
        assert str(one.ledger.budgets["brave"]) == str(two.ledger.budgets["brave"])


async def test_the_store_s_fail_safe_view_is_kept_while_the_store_is_the_same() -> None:
    """One view for the store a search uses, made again only for another store.

    The view holds nothing of its own, so each search built one to drop it (fails before:
    a new view every search). A store replaced (closed and opened again) gets its own.
    """
    async with _client() as ws:
        setup = ws._setup()
        store = await ws.state()
        view = setup.guarded(store)
        assert view.inner is store
        assert setup.guarded(store) is view
        other = WebSearch(Settings(state_backend="memory"))
        async with other:
            replaced = await other.state()
            fresh = setup.guarded(replaced)
        assert fresh is not view and fresh.inner is replaced
        assert setup.guarded(store) is not fresh and setup.guarded(store).inner is store


def test_loops_in_two_threads_taking_turns_each_keep_their_own_setup() -> None:
    """Each loop keeps its setup while another loop searches in between.

    With one setup for the client, two threads' loops searching in turn rebuilt it on most
    searches (317-554 of 600 in a run on the simulator): its transport, plan and ledger
    settings, some 30 us each time.
    """
    ws = _client()
    loops = [asyncio.new_event_loop() for _ in range(2)]
    threads = [threading.Thread(target=loop.run_forever, daemon=True) for loop in loops]
    for thread in threads:
        thread.start()

    def on(loop: asyncio.AbstractEventLoop) -> ProviderContext:
        async def context() -> ProviderContext:
            return ws._context()

        return asyncio.run_coroutine_threadsafe(context(), loop).result(timeout=10)

    try:
        first = [on(loop) for loop in loops]
        again = [on(loop) for loop in loops]
        assert first[0] is not first[1]
        assert again == first
        assert [context.transport.session for context in again] == [
            ws._loop_sessions[loop] for loop in loops
        ]
    finally:
        for loop in loops:
            asyncio.run_coroutine_threadsafe(ws.aclose(), loop).result(timeout=10)
            loop.call_soon_threadsafe(loop.stop)
        for thread, loop in zip(threads, loops, strict=True):
            thread.join(timeout=10)
            loop.close()
