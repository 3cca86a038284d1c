"""A state store that does not answer costs a page fetch a share of its deadline, no more.

Fetched pages share the search cache, and their lookup and write used to wait for the
store as long as the fetch's whole deadline allowed: behind a SQLite file another process
holds locked, or a loopback server that accepts and never answers in place of Redis, a
4 s fetch of a loopback page failed with "no content within the 4 s deadline" (4.0 s
measured for each). Both now wait a tenth of it (0.4 s here), as a search's do, and the
page is fetched without the store.

What is timed is what the store may cost the page: from the call to the page's server
being asked (a lookup), or from the page served to the call's answer (a write). Neither
may take more than half the deadline, the most any wait for the store is allowed
(``STORE_SETTING_CAP``, README: ``WEBSEARCH_STATE_WAIT_SECONDS``); the other half is the
page's. The process's first fetch, which imports the fetcher and its parsers before its
deadline starts, is made first without the cache: that time is not the store's.
"""

import asyncio
import contextlib
import logging
import sqlite3
import time
from pathlib import Path

import pytest
from aiohttp import web

from tests.content._server import PageServer
from tests.content.test_fetch import ARTICLE, fetch
from tests.sqlite_holder import held_by_another_process
from tests.stalling_proxy import silent_server
from websearch_core import WebSearch
from websearch_core.deadline import STORE_SETTING_CAP

DEADLINE = 4.0
"""Less than either store's own timeout (10 s busy wait, 5 s socket), so a fetch waiting on
the store for its whole deadline fails: the error, not only the time, tells the cases apart."""

STORE_MOST = DEADLINE * STORE_SETTING_CAP
"""The most of the deadline a wait for the store may take (2 s): the rest is the page's."""


def _timed_page(server: PageServer, path: str) -> dict[str, float]:
    """Serve ``ARTICLE`` at ``path``; the returned dict gets the time it was asked, ``"at"``."""
    asked: dict[str, float] = {}

    async def answer(_request: web.Request) -> web.Response:
        asked["at"] = time.monotonic()
        return web.Response(text=ARTICLE, content_type="text/html")

    server.route(path, answer)
    return asked


async def _imports_done(ws: WebSearch, server: PageServer) -> None:
    """The process's first fetch, without the cache: it imports the fetcher and its parsers."""
    server.page("/first", ARTICLE)
    assert (await fetch(ws, server.url("/first"), use_cache=False)).title == "Loopback article"


async def _timed_fetch(ws: WebSearch, url: str) -> tuple[str, float]:
    """The fetched page's title (or the error's text) and when the fetch began."""
    started = time.monotonic()
    try:
        page = await fetch(ws, url, timeout_seconds=DEADLINE)
    except Exception as exc:  # the test reports what the fetch said, whatever it was
        return f"{type(exc).__name__}: {exc}", started
    return page.title or "", started


async def test_a_state_file_locked_before_its_first_use_leaves_the_page_its_time(
    tmp_path: Path, server: PageServer
) -> None:
    # Opening the file (on the cache lookup) waits for the lock another process holds.
    asked = _timed_page(server, "/a")
    with held_by_another_process(tmp_path / "state.sqlite3"):
        async with WebSearch(state_backend="sqlite", state_dir=tmp_path) as ws:
            await _imports_done(ws, server)
            title, started = await _timed_fetch(ws, server.url("/a"))
    assert title == "Loopback article"
    assert asked["at"] - started < STORE_MOST  # the page's server asked in its half
    assert server.hits["/a"] == 1


async def test_pages_fetched_behind_a_locked_state_file_all_arrive(
    tmp_path: Path, server: PageServer
) -> None:
    # The store is open and answering, then another process takes its lock: fetch_many's
    # pages each looked it up (and, fetched, wrote it) for the rest of the deadline.
    server.page("/a", ARTICLE)
    asked = [_timed_page(server, path) for path in ("/b", "/c")]
    async with WebSearch(state_backend="sqlite", state_dir=tmp_path) as ws:
        assert not (await fetch(ws, server.url("/a"))).cached  # opens the store
        with held_by_another_process(tmp_path / "state.sqlite3"):
            started = time.monotonic()
            pages = await ws.fetch_many(
                [server.url("/b"), server.url("/c")],
                timeout_seconds=DEADLINE,
                allow_private_addresses=True,
                use_browser=False,
            )
            ended = time.monotonic()
    assert [getattr(page, "title", page) for page in pages] == ["Loopback article"] * 2
    assert max(page["at"] for page in asked) - started < STORE_MOST  # the lookups' cost
    assert ended - max(page["at"] for page in asked) < STORE_MOST  # the writes' cost


async def test_a_fetched_page_is_not_held_by_its_cache_write_which_lands_later(
    tmp_path: Path, server: PageServer
) -> None:
    # The lookup is answered; another process takes the lock while the page is served, so
    # only the write waits. It used to hold the fetched page until the deadline, and the
    # fetch failed with a page in hand. Now it is given up on in time and still lands on
    # the store's thread once the lock is let go.
    held = contextlib.ExitStack()
    served: dict[str, float] = {}

    async def lock_then_answer(_request: web.Request) -> web.Response:
        await asyncio.to_thread(
            held.enter_context, held_by_another_process(tmp_path / "state.sqlite3")
        )
        served["at"] = time.monotonic()  # the lock taken: what follows is the write's
        return web.Response(text=ARTICLE, content_type="text/html")

    server.page("/a", ARTICLE)
    server.route("/b", lock_then_answer)
    with held:
        async with WebSearch(state_backend="sqlite", state_dir=tmp_path) as ws:
            assert not (await fetch(ws, server.url("/a"))).cached  # opens the store
            title, _started = await _timed_fetch(ws, server.url("/b"))
            ended = time.monotonic()
            held.close()  # the other process lets go
            rows = await _cache_rows(tmp_path / "state.sqlite3", want=2)
    assert title == "Loopback article"
    assert ended - served["at"] < STORE_MOST  # the page's write held it no longer
    assert rows == 2


async def test_a_redis_that_never_answers_leaves_the_page_its_time(
    server: PageServer, caplog: pytest.LogCaptureFixture
) -> None:
    pytest.importorskip("redis")
    asked = _timed_page(server, "/a")
    with silent_server() as port:
        url = f"redis://:hunter2-redis-secret@127.0.0.1:{port}/0"
        async with WebSearch(state_backend="redis", redis_url=url) as ws:
            await _imports_done(ws, server)
            with caplog.at_level(logging.DEBUG):
                title, started = await _timed_fetch(ws, server.url("/a"))
    assert title == "Loopback article"
    assert asked["at"] - started < STORE_MOST  # the page's server asked in its half
    assert "hunter2" not in caplog.text


async def _cache_rows(path: Path, want: int) -> int:
    """The cache's row count once it reaches ``want`` (or after 5 s, whatever it is then)."""
    give_up = time.monotonic() + 5.0
    observer = sqlite3.connect(path, timeout=5.0)
    try:
        while True:
            (rows,) = observer.execute("SELECT count(*) FROM cache").fetchone()
            if rows >= want or time.monotonic() > give_up:
                return int(rows)
            await asyncio.sleep(0.02)
    finally:
        observer.close()


async def test_pages_behind_a_stuck_state_file_pay_one_share_between_them(
    tmp_path: Path, server: PageServer
) -> None:
    # The store answers reads but not writes (another process holds the write lock). The
    # first page's cache write is given up on after its share (1 s of a 10 s fetch); the
    # second page's, begun 0.7 s after the first, waited its own whole share as well, so
    # fetch_many paid 1.7 s for a store it knew was stuck after 1 s. Every wait under way
    # now ends with the first given up on.
    share = 1.0
    served: dict[str, float] = {}

    async def first(_request: web.Request) -> web.Response:
        served["/a"] = time.monotonic()
        return web.Response(text=ARTICLE, content_type="text/html")

    async def second(_request: web.Request) -> web.Response:
        while "/a" not in served:
            await asyncio.sleep(0.01)
        await asyncio.sleep(served["/a"] + 0.7 - time.monotonic())
        served["/b"] = time.monotonic()
        return web.Response(text=ARTICLE, content_type="text/html")

    server.page("/opens", ARTICLE)
    server.route("/a", first)
    server.route("/b", second)
    async with WebSearch(state_backend="sqlite", state_dir=tmp_path) as ws:
        assert not (await fetch(ws, server.url("/opens"))).cached  # opens the store
        with held_by_another_process(tmp_path / "state.sqlite3"):
            pages = await ws.fetch_many(
                [server.url("/a"), server.url("/b")],
                timeout_seconds=10.0,
                allow_private_addresses=True,
                use_browser=False,
            )
            ended = time.monotonic()
    assert [getattr(page, "title", page) for page in pages] == ["Loopback article"] * 2
    # Its own share would end a whole share after it was served; the first's, 0.3 s after.
    assert ended - served["/b"] < share - 0.1
