"""Escalation of script-only pages to headless Chromium, and the address rules inside it.

Skipped locally without Playwright or Chromium; failed instead when ``CI`` is set.
"""

import os
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from aiohttp import web

from tests.content._server import PageServer, serve
from websearch_core import WebSearch
from websearch_core.browser import HeadlessBrowser, chromium_path

_WORDS = "Rendered by the page script with enough words to be the article body. " * 8


def _chromium_problem() -> str | None:
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        return "playwright is not installed"
    path = chromium_path()
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        return f"no Chromium executable at {path}"
    return None


@pytest_asyncio.fixture
async def ws() -> AsyncIterator[WebSearch]:
    problem = _chromium_problem()
    if problem is not None:
        if os.environ.get("CI"):
            pytest.fail(f"the browser tests must run in CI: {problem}")
        pytest.skip(problem)
    browser = HeadlessBrowser(executable_path=chromium_path())
    async with WebSearch(state_backend="memory", browser=browser) as client:
        yield client
    await browser.aclose()


@pytest_asyncio.fixture
async def other() -> AsyncIterator[PageServer]:
    async for running in serve("127.0.0.2"):
        yield running


def _app_page(beacon: str | None = None) -> str:
    fetch = f"fetch({beacon!r}).catch(() => null);" if beacon else ""
    return (
        "<html><head><title>App</title></head><body><div id='app'></div><script>"
        f"{fetch}document.getElementById('app').innerHTML = "
        f"'<article><h1>Rendered</h1><p>{_WORDS}</p></article>';"
        "</script></body></html>"
    )


async def test_script_only_page_is_rendered(ws: WebSearch, server: PageServer) -> None:
    server.page("/app", _app_page())
    page = await ws.fetch(server.url("/app"), allow_private_addresses=True)
    assert page.fetched_with == "browser"
    assert "Rendered by the page script" in page.text
    plain = await ws.fetch(
        server.url("/app"), allow_private_addresses=True, use_browser=False, use_cache=False
    )
    assert plain.fetched_with == "http" and "Rendered by the page script" not in plain.text


async def test_blocked_answer_is_retried_in_the_browser(ws: WebSearch, server: PageServer) -> None:
    article = f"<html><body><article><h1>Kept</h1><p>{_WORDS}</p></article></body></html>"

    async def first_refused(request: web.Request) -> web.Response:
        if server.hits[request.path] == 1:
            return web.Response(status=403, text="blocked")
        return web.Response(text=article, content_type="text/html")

    server.route("/guarded", first_refused)
    page = await ws.fetch(server.url("/guarded"), allow_private_addresses=True)
    assert (page.fetched_with, page.status) == ("browser", 200)
    assert "Rendered by the page script" in page.text


async def test_requests_made_by_the_page_obey_the_address_rules(
    ws: WebSearch, server: PageServer, other: PageServer
) -> None:
    server.page("/app", _app_page(other.url("/beacon")))
    other.page("/beacon", "ok", "text/plain")
    # Only 127.0.0.1 is opened: the page's request to 127.0.0.2 never leaves the browser.
    page = await ws.fetch(server.url("/app"), allowed_networks=["127.0.0.1/32"])
    assert page.fetched_with == "browser"
    assert other.hits["/beacon"] == 0
    # the control: with 127.0.0.2 opened too, the same page does reach it
    await ws.fetch(
        server.url("/app"), allowed_networks=["127.0.0.1/32", "127.0.0.2/32"], use_cache=False
    )
    assert other.hits["/beacon"] == 1


def _socket_page(socket_url: str) -> str:
    # The article appears once the socket opened or failed, so the fetch reads it either way.
    return (
        "<html><head><title>Live</title></head><body><div id='app'></div><script>"
        "const show = () => { document.getElementById('app').innerHTML = "
        f"'<article><h1>Live</h1><p>{_WORDS}</p></article>'; }};"
        f"const socket = new WebSocket({socket_url!r});"
        "socket.onopen = socket.onerror = socket.onclose = show;"
        "</script></body></html>"
    )


async def test_websockets_opened_by_the_page_obey_the_address_rules(
    ws: WebSearch, server: PageServer, other: PageServer
) -> None:
    async def socket(request: web.Request) -> web.WebSocketResponse:
        answer = web.WebSocketResponse()
        await answer.prepare(request)
        await answer.send_str("hello")
        await answer.close()
        return answer

    other.route("/socket", socket)
    socket_url = other.url("/socket").replace("http://", "ws://", 1)
    server.page("/live", _socket_page(socket_url))
    # page.route() never sees a WebSocket: 127.0.0.2 must stay closed to it all the same.
    page = await ws.fetch(server.url("/live"), allowed_networks=["127.0.0.1/32"])
    assert page.fetched_with == "browser" and "Rendered by the page script" in page.text
    assert other.hits["/socket"] == 0
    # the control: with 127.0.0.2 opened too, the same page's socket does connect
    await ws.fetch(
        server.url("/live"), allowed_networks=["127.0.0.1/32", "127.0.0.2/32"], use_cache=False
    )
    assert other.hits["/socket"] == 1
