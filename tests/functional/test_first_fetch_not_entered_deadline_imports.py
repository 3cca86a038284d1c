"""A first page fetch on a client not entered ends by its deadline, its import counted in it.

A client used without ``async with`` imports the page fetcher and its parsers at its first
fetch, on a worker thread (0.3 s idle, over a second on a loaded machine). The fetch's
deadline began after that import, so a fetch with ``timeout_seconds=3`` could end seconds
past it. It now counts from the call's start, as a first search's does (stop 47): the wait
for the import ends by it, every page is then refused as a page whose turn came after the
deadline is, and the import goes on and serves the next call.

A synchronous fetch (``fetch_sync``, ``fetch_many_sync``) entered its fresh client, which
imported the search chain, never used by a fetch, with no limit before the fetch's deadline
began; it now takes the first fetch's path (stop 49).

A fresh interpreter holds the fetcher's import on an event the script controls
(``tests.loop_imports.gated_import``): the first call must end while that import is still
held, and the next one, after the import is let go, must read the page. Nothing is timed.
"""

import textwrap

import pytest

from tests.loop_imports import gated_import, run_watched

_DEADLINE_SECONDS = 3.0
"""Enough for the second call's page on a loaded machine; the first call waits all of it."""

_ANSWERED_DEADLINE_SECONDS = 10.0
"""The deadline of a first fetch that must read its page, the fetcher's first import and
all, while another import is held: 3 s ran out at load 10 ("the 3 s deadline passed before
its turn"). Nothing waits it out when the fetch is right; the wait it guards against is
the 30 s hold, with no limit, seen whatever the deadline (``lapsed``, ``held``)."""

_SCRIPT = textwrap.dedent(
    """
    import asyncio, importlib, json

    from websearch_core import WebSearch
    from websearch_core.content import FetchError

    async def call(client, url):
        # (the error's type and text, or None; the page's text when read)
        if CALL == "fetch":
            try:
                page = await client.fetch(url, allow_private_addresses=True)
            except FetchError as error:
                return [type(error).__name__, str(error)], None
        elif CALL == "fetch_many":
            (page,) = await client.fetch_many([url], allow_private_addresses=True)
        elif CALL == "fetch_many_sync":  # from a thread without a loop, as fetch_sync
            many = functools.partial(client.fetch_many_sync, [url], allow_private_addresses=True)
            (page,) = await asyncio.to_thread(many)
        else:  # from a thread without a loop, as synchronous code calls it
            sync = functools.partial(client.fetch_sync, url, allow_private_addresses=True)
            try:
                page = await asyncio.to_thread(sync)
            except FetchError as error:
                return [type(error).__name__, str(error)], None
        if isinstance(page, FetchError):
            return [type(page).__name__, str(page)], None
        return None, page.text

    async def main():
        runner, url = await serve_page(PAGE, "text/html")
        client = WebSearch(state_backend="memory", deadline_seconds=DEADLINE)
        try:
            return await first_then_released(lambda: call(client, url))
        finally:
            await client.aclose()
            await runner.cleanup()

    import functools
    print(json.dumps(asyncio.run(main())))
    """
)

_PAGE = (
    "<html><head><title>T</title></head><body><main><h1>Notes</h1>"
    + "<p>A paragraph long enough to be the page's main text, read as such.</p>" * 9
    + "</main></body></html>"
).encode()

_FETCHER = "websearch_core.content.service"
_CHAIN = "websearch_core.call_setup"
_STORE = "websearch_core.state"
"""The state store's package, which a cached fetch reads and writes through."""
"""The search chain's machinery, which a page fetch never uses."""


@pytest.mark.parametrize("call", ["fetch", "fetch_many", "fetch_sync", "fetch_many_sync"])
def test_a_first_fetch_ends_by_its_deadline_while_the_fetchers_import_is_held(call: str) -> None:
    found = run_watched(
        gated_import(_FETCHER) + _SCRIPT, CALL=call, DEADLINE=_DEADLINE_SECONDS, PAGE=_PAGE
    )
    assert found["lapsed"] == [], found  # the call waited for the import: never let go
    assert found["held"] is True, found  # it ended while the import was held
    error, _ = found["first"]
    assert isinstance(error, list) and error[0] == "FetchTimeoutError", found
    assert "the 3 s deadline passed before its turn" in error[1], found
    # The import went on off the loop, once, and served the next call.
    assert found["on"] == ["websearch-imports"], found
    error, text = found["second"]
    assert error is None and "long enough" in (text or ""), found


@pytest.mark.parametrize("call", ["fetch_sync", "fetch_many_sync"])
def test_a_first_sync_fetch_does_not_wait_for_the_chains_import(call: str) -> None:
    """A synchronous fetch reads its page while the search chain's import is held.

    Its fresh client was entered (``async with``), which imports the chain, not needed for
    a fetch, with no time limit and before the fetch's deadline began: with that import
    held, a 3 s ``fetch_sync`` waited out the whole hold (30 s) and then answered. It now
    takes the path a first :meth:`~websearch_core.WebSearch.fetch` takes, importing the
    fetcher alone, within its deadline. Failed before the change (the hold lapsed).
    """
    found = run_watched(
        gated_import(_CHAIN) + _SCRIPT, CALL=call, DEADLINE=_ANSWERED_DEADLINE_SECONDS, PAGE=_PAGE
    )
    assert found["lapsed"] == [], found  # the call waited for the chain: never let go
    assert found["held"] is True, found  # it ended while the chain's import was held
    error, text = found["first"]
    assert error is None and "long enough" in (text or ""), found
    error, text = found["second"]
    assert error is None and "long enough" in (text or ""), found


@pytest.mark.parametrize("call", ["fetch_sync", "fetch_many_sync"])
def test_a_first_sync_fetch_counts_the_state_stores_import_in_its_deadline(call: str) -> None:
    """A synchronous fetch's fresh client borrows the state store within the deadline.

    Its fresh client opened the client's store as it was built, on the caller's thread,
    importing the store's modules before the fetch's deadline began: with that import held,
    a 3 s ``fetch_sync`` waited out the whole hold (30 s). The store is now borrowed at
    its first use, after the fetch's import (which takes the store's modules, within the
    deadline): the page is refused as too late while they are held. Failed before.
    """
    found = run_watched(
        gated_import(_STORE) + _SCRIPT, CALL=call, DEADLINE=_DEADLINE_SECONDS, PAGE=_PAGE
    )
    assert found["lapsed"] == [], found  # the call waited for the store: never let go
    assert found["held"] is True, found  # it ended while the store's import was held
    error, _ = found["first"]
    assert isinstance(error, list) and error[0] == "FetchTimeoutError", found
    assert "the 3 s deadline passed before its turn" in error[1], found
    assert found["on"] == ["websearch-imports"], found  # off the loop, once
    error, text = found["second"]
    assert error is None and "long enough" in (text or ""), found
