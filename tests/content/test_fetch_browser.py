"""Escalation of script-only pages to headless Chromium, and the address rules inside it.

Skipped locally without Playwright or Chromium; failed instead when ``CI`` is set.
"""

import asyncio
import base64
import logging
import os
import socket
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
from aiohttp import web

from tests.content._server import PageServer, serve
from websearch_core import WebSearch
from websearch_core.browser import CHROMIUM_ARGS, HeadlessBrowser, chromium_path, teardown_reserve
from websearch_core.content import FetchRefusedError, FetchTimeoutError

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


def _require_chromium() -> None:
    """Skip without Playwright and Chromium; in CI, where they are installed, fail instead."""
    problem = _chromium_problem()
    if problem is not None:
        if os.environ.get("CI"):
            pytest.fail(f"the browser tests must run in CI: {problem}")
        pytest.skip(problem)


def _clear_proxy_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    """No proxy from the environment the tests run in: each test names its own."""
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY"):
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.lower(), raising=False)


pytestmark = pytest.mark.asyncio(loop_scope="module")
"""One loop for the module, so one Chromium (:func:`shared_chromium`) serves its tests."""


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def shared_chromium() -> AsyncIterator[HeadlessBrowser]:
    """The plain Chromium the ``ws`` tests share: a launch is 1-5 s, and none of them tests it.

    Each fetch opens its own context and closes it, so no page, cookie or route is left for
    the next test. Tests whose Chromium needs its own flags, proxy or environment at launch
    (the rebinding, metadata and proxy tests, the hung page's) still launch their own.
    """
    _require_chromium()
    browser = HeadlessBrowser(executable_path=chromium_path())
    try:
        yield browser
    finally:
        await browser.aclose()


@pytest_asyncio.fixture(loop_scope="module")
async def ws(shared_chromium: HeadlessBrowser) -> AsyncIterator[WebSearch]:
    """A client of its own (in-memory state, no cache from another test) on the shared Chromium."""
    async with WebSearch(state_backend="memory", browser=shared_chromium) as client:
        yield client


@pytest_asyncio.fixture(loop_scope="module")
async def server() -> AsyncIterator[PageServer]:
    """The page server, on the module's loop (the tests run there)."""
    async for running in serve():
        yield running


@pytest_asyncio.fixture(loop_scope="module")
async def other() -> AsyncIterator[PageServer]:
    """A second page server, on 127.0.0.2, on the module's loop."""
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


HUNG_FETCH_SECONDS = 8.0
"""The hung page's fetch timeout: Chromium reaches the server well within its load's part.

With a 2 s fetch the load had 1.5 s, and on a loaded machine Chromium's request had not
reached the server by then (the server saw the plain fetch only, 12 runs in 15).
"""

HUNG_FETCH_RESERVE = 2.0
"""The teardown reserve the test gives that fetch: four times the default, so a close slowed
by a loaded machine still ends in it, while a load run to the end still overruns."""


async def test_a_rendered_page_that_never_loads_is_closed_within_the_fetchs_timeout(
    server: PageServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    _require_chromium()
    monkeypatch.setattr("websearch_core.browser.TEARDOWN_RESERVE_SECONDS", HUNG_FETCH_RESERVE)
    timeout = HUNG_FETCH_SECONDS
    reserve = teardown_reserve(timeout)
    assert reserve == HUNG_FETCH_RESERVE  # the rule's cap is the reserve, not a quarter
    released = asyncio.Event()

    async def refused_then_hangs(request: web.Request) -> web.Response:
        if server.hits[request.path] == 1:
            return web.Response(status=403, text="blocked")  # the browser is tried next
        await asyncio.wait_for(released.wait(), 3600)  # an hour, or until the test ends
        return web.Response(text="too late")

    server.route("/hangs", refused_then_hangs)
    browser = HeadlessBrowser(executable_path=chromium_path())
    try:
        async with browser.page() as page:  # Chromium is running: only the fetch is timed
            chromium = page.context.browser
        assert chromium is not None
        async with WebSearch(state_backend="memory", browser=browser) as ws:
            loop = asyncio.get_running_loop()
            started = loop.time()
            with pytest.raises(FetchTimeoutError) as caught:
                # The caller's own stop at the fetch's timeout, armed first: a load run to
                # the timeout always loses to it (TimeoutError, not the fetch's own error),
                # however fast the machine; a load stopped at the reserve has 2 s to close.
                async with asyncio.timeout(timeout):
                    # Through the egress proxy, whose close is in the kept time too.
                    await ws.fetch(
                        server.url("/hangs"),
                        timeout_seconds=timeout,
                        use_cache=False,
                        allowed_networks=["127.0.0.1/32"],
                    )
            elapsed = loop.time() - started
        assert server.hits["/hangs"] == 2  # the plain fetch, then the browser's, which hung
        assert str(caught.value).endswith(f"no content within the {timeout:g} s deadline")
        # The load stopped the reserve early and the page was closed in that time.
        assert chromium.contexts == []
        assert elapsed >= timeout - reserve  # a timer only ends late
    finally:
        released.set()
        await browser.aclose()


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


class _UdpCounter(asyncio.DatagramProtocol):
    """Counts the datagrams that reach a UDP port (a STUN server's, here)."""

    def __init__(self) -> None:
        self.datagrams = 0

    def datagram_received(self, data: bytes, addr: tuple[str | Any, int]) -> None:
        self.datagrams += 1


def _webrtc_page(stun_url: str) -> str:
    # ICE gathering sends STUN binding requests as soon as the offer is set; the page asks
    # for /done 300 ms later, and the render waits for the network to idle after that, so
    # the page lives long enough for them to go out.
    return (
        "<html><head><title>Call</title></head><body><div id='app'></div><script>"
        "document.getElementById('app').innerHTML = "
        f"'<article><h1>Call</h1><p>{_WORDS}</p></article>';"
        f"const peer = new RTCPeerConnection({{iceServers: [{{urls: {stun_url!r}}}]}});"
        "peer.createDataChannel('probe');"
        "peer.createOffer().then((offer) => peer.setLocalDescription(offer))"
        ".then(() => setTimeout(() => fetch('/done'), 300));"
        "</script></body></html>"
    )


async def test_webrtc_opened_by_the_page_sends_nothing_past_the_address_rules(
    ws: WebSearch, server: PageServer
) -> None:
    loop = asyncio.get_running_loop()
    transport, stun = await loop.create_datagram_endpoint(_UdpCounter, local_addr=("127.0.0.2", 0))
    try:
        port = transport.get_extra_info("sockname")[1]
        server.page("/call", _webrtc_page(f"stun:127.0.0.2:{port}"))
        server.page("/done", "ok", "text/plain")
        # STUN goes over UDP, which neither page.route() nor the egress proxy sees.
        page = await ws.fetch(server.url("/call"), allowed_networks=["127.0.0.1/32"])
    finally:
        transport.close()
    assert page.fetched_with == "browser" and "Rendered by the page script" in page.text
    assert server.hits["/done"] == 1  # the page lived past the offer
    assert stun.datagrams == 0


# --- DNS rebinding: the address checked is the address Chromium connects to --------------------

_REBIND_HOST = "rebind.test"
_DEAD_HOST = "dead.test"
"""A name that does not resolve (an ad server that is gone)."""


class _RebindingDns:
    """A DNS that answers ``rebind.test`` with 127.0.0.1 a few times, then with 127.0.0.2.

    A rebinding attacker's name server does this with a zero TTL: the check gets the
    harmless answer, the connection the forbidden one. Other names resolve as usual.
    """

    def __init__(self, public_answers: int) -> None:
        self.public_answers = public_answers
        self.lookups = 0
        self._real = socket.getaddrinfo

    def getaddrinfo(self, host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        if host == _DEAD_HOST:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        if host != _REBIND_HOST:
            return self._real(host, port, *args, **kwargs)
        self.lookups += 1
        answer = "127.0.0.1" if self.lookups <= self.public_answers else "127.0.0.2"
        return self._real(answer, port, *args, **kwargs)


@pytest.fixture
def dns(monkeypatch: pytest.MonkeyPatch) -> _RebindingDns:
    resolver = _RebindingDns(public_answers=1)
    monkeypatch.setattr(socket, "getaddrinfo", resolver.getaddrinfo)
    return resolver


@pytest_asyncio.fixture(loop_scope="module")
async def rebinding_ws() -> AsyncIterator[WebSearch]:
    """A client whose Chromium resolves ``rebind.test`` to 127.0.0.2 by itself.

    The flag stands for Chromium's own lookup getting the rebound answer: whatever the
    fetcher checked, a browser that resolves the name again connects to 127.0.0.2.
    """
    _require_chromium()
    flag = f"--host-resolver-rules=MAP {_REBIND_HOST} 127.0.0.2"
    browser = HeadlessBrowser(executable_path=chromium_path(), args=(*CHROMIUM_ARGS, flag))
    async with WebSearch(state_backend="memory", browser=browser) as client:
        yield client
    await browser.aclose()


@pytest_asyncio.fixture(loop_scope="module")
async def twin(server: PageServer) -> AsyncIterator[PageServer]:
    """A server on 127.0.0.2 at the same port as ``server``: where a rebound name leads."""
    async for running in serve("127.0.0.2", server.port):
        yield running


def _page_with_script(script_url: str) -> str:
    """A script-only page that also runs a script from ``script_url`` (which fills #from)."""
    return (
        "<html><head><title>App</title></head><body><div id='app'></div><script>"
        "document.getElementById('app').innerHTML = "
        f"'<article><h1>Rendered</h1><p>{_WORDS}</p><p id=\"from\"></p></article>';"
        f"</script><script src={script_url!r}></script></body></html>"
    )


def _script_saying(words: str) -> str:
    return f"document.getElementById('from').textContent = {words!r};"


@pytest.mark.parametrize("blank", [None, "HTTP_PROXY=  ", "http_proxy=", "ALL_PROXY= "])
async def test_a_name_rebound_after_the_check_does_not_reach_the_private_address(
    rebinding_ws: WebSearch,
    server: PageServer,
    other: PageServer,
    dns: _RebindingDns,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
    blank: str | None,
) -> None:
    # The page's script comes from rebind.test: its first answer (127.0.0.1) is allowed,
    # every later one is 127.0.0.2, which is not. The old guard checked the first answer
    # and let Chromium resolve again, and Chromium reached 127.0.0.2. A proxy variable set
    # to spaces names no proxy: it took the page's traffic off the address-checking proxy
    # (as a proxy of the user's does), and Chromium reached 127.0.0.2 again.
    _clear_proxy_variables(monkeypatch)
    if blank is not None:
        name, value = blank.split("=")
        monkeypatch.setenv(name, value)
    secret_url = f"http://{_REBIND_HOST}:{other.port}/secret.js"
    server.page("/app", _page_with_script(secret_url))
    other.page("/secret.js", _script_saying("internal secret"), "application/javascript")
    caplog.set_level(logging.INFO, logger="websearch_core.content.egress")
    page = await rebinding_ws.fetch(server.url("/app"), allowed_networks=["127.0.0.1/32"])
    assert page.fetched_with == "browser" and "Rendered by the page script" in page.text
    assert other.hits["/secret.js"] == 0
    assert "internal secret" not in page.text
    assert dns.lookups >= 2  # the check's lookup, then the connection's own
    refusals = [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]
    assert any(
        f"{_REBIND_HOST}:{other.port}" in line
        and f"{_REBIND_HOST} resolves to 127.0.0.2, a loopback address" in line
        for line in refusals
    ), refusals


async def test_the_browser_connects_to_the_address_that_was_checked(
    rebinding_ws: WebSearch, server: PageServer, twin: PageServer, dns: _RebindingDns
) -> None:
    # rebind.test always answers 127.0.0.1 here; only Chromium's own resolver says
    # 127.0.0.2. The script must come from the address the fetcher checked.
    dns.public_answers = 1000
    script_url = f"http://{_REBIND_HOST}:{server.port}/where.js"
    server.page("/app", _page_with_script(script_url))
    server.page("/where.js", _script_saying("served by the checked address"), "text/javascript")
    twin.page("/where.js", _script_saying("served by another address"), "text/javascript")
    page = await rebinding_ws.fetch(server.url("/app"), allowed_networks=["127.0.0.1/32"])
    assert "served by the checked address" in page.text
    assert (server.hits["/where.js"], twin.hits["/where.js"]) == (1, 0)


async def test_a_page_whose_name_rebinds_before_the_browser_loads_it_is_refused_by_name(
    rebinding_ws: WebSearch, server: PageServer, twin: PageServer, dns: _RebindingDns
) -> None:
    # Two harmless answers (the plain fetch's, the browser guard's), then 127.0.0.2: the
    # page escalates to the browser, whose load of the page itself must be refused.
    dns.public_answers = 2
    server.page("/app", _app_page())
    twin.page("/app", f"<html><body><article><p>Internal admin. {_WORDS}</p></article></body>")
    url = f"http://{_REBIND_HOST}:{server.port}/app"
    with pytest.raises(FetchRefusedError) as refused:
        await rebinding_ws.fetch(url, allowed_networks=["127.0.0.1/32"])
    assert refused.value.kind == "address"
    assert str(refused.value).startswith(f"cannot fetch {url}: {_REBIND_HOST} resolves to")
    assert "127.0.0.2, a loopback address" in str(refused.value)
    assert (server.hits["/app"], twin.hits["/app"]) == (1, 0)


_META_HOST = "meta.test"


@pytest_asyncio.fixture(loop_scope="module")
async def metadata_ws() -> AsyncIterator[WebSearch]:
    """A client whose Chromium resolves ``meta.test`` to 127.0.0.2 by itself.

    127.0.0.2 stands for the metadata server (nothing here answers at 169.254.169.254):
    the fetcher's own lookups answer ``meta.test`` with 169.254.169.254.
    """
    _require_chromium()
    flag = f"--host-resolver-rules=MAP {_META_HOST} 127.0.0.2"
    browser = HeadlessBrowser(executable_path=chromium_path(), args=(*CHROMIUM_ARGS, flag))
    async with WebSearch(state_backend="memory", browser=browser) as client:
        yield client
    await browser.aclose()


async def test_with_private_addresses_allowed_a_page_cannot_reach_a_metadata_address(
    metadata_ws: WebSearch,
    server: PageServer,
    other: PageServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # With private addresses allowed the page's requests were neither looked up nor sent
    # through the egress proxy: Chromium resolved meta.test itself and fetched the script
    # from the "metadata server". Now the proxy resolves the name (to 169.254.169.254,
    # a cloud metadata address) and refuses it, private addresses allowed or not.
    _clear_proxy_variables(monkeypatch)
    real = socket.getaddrinfo

    def metadata_dns(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        return real("169.254.169.254" if host == _META_HOST else host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", metadata_dns)
    server.page("/app", _page_with_script(f"http://{_META_HOST}:{other.port}/creds.js"))
    other.page("/creds.js", _script_saying("instance credentials"), "application/javascript")
    page = await metadata_ws.fetch(server.url("/app"), allow_private_addresses=True)
    assert page.fetched_with == "browser" and "Rendered by the page script" in page.text
    assert "instance credentials" not in page.text
    assert other.hits["/creds.js"] == 0
    # A private address the page names is still reached: the rest of the intranet is open.
    server.page("/private", _page_with_script(f"http://127.0.0.2:{other.port}/ok.js"))
    other.page("/ok.js", _script_saying("intranet script"), "application/javascript")
    page = await metadata_ws.fetch(server.url("/private"), allow_private_addresses=True)
    assert "intranet script" in page.text


async def test_a_host_that_does_not_resolve_does_not_fail_the_render(
    ws: WebSearch, server: PageServer, dns: _RebindingDns
) -> None:
    # The guard's lookup error left its route handler, the request was never answered, and
    # the fetch ran out of time for one script (or socket) the page did not need.
    server.page("/script", _page_with_script(f"http://{_DEAD_HOST}/ad.js"))
    server.page("/socket", _socket_page(f"ws://{_DEAD_HOST}/live"))
    for path in ("/script", "/socket"):
        page = await ws.fetch(server.url(path), allowed_networks=["127.0.0.1/32"])
        assert page.fetched_with == "browser" and "Rendered by the page script" in page.text


@pytest.mark.parametrize("whose", ["setting", "environment"])
async def test_through_the_users_own_proxy_the_browser_still_uses_that_proxy(
    server: PageServer, dns: _RebindingDns, monkeypatch: pytest.MonkeyPatch, whose: str
) -> None:
    # Behaviour kept: with WEBSEARCH_PROXY set, both fetches go through the user's proxy
    # (the loopback server stands for it and answers every absolute-form request), not
    # through the egress proxy, which would connect to rebind.test by itself. A proxy the
    # environment names (Chromium reads HTTP_PROXY itself) keeps the egress proxy off
    # alike, now that the fetcher asks the same chooser as searches. Nothing listens on
    # port 8080: only through the proxy is the page found.
    _require_chromium()
    _clear_proxy_variables(monkeypatch)
    dns.public_answers = 1000
    server.page("/app", _app_page())
    proxy = server.url("")
    setting = proxy if whose == "setting" else None
    if setting is None:
        monkeypatch.setenv("HTTP_PROXY", proxy.replace("://", "://puser:PW0123456789@"))
    browser = HeadlessBrowser(executable_path=chromium_path(), proxy=setting)
    try:
        async with WebSearch(state_backend="memory", browser=browser, proxy=setting) as client:
            page = await client.fetch(
                f"http://{_REBIND_HOST}:8080/app", allowed_networks=["127.0.0.1/32"]
            )
    finally:
        await browser.aclose()
    assert page.fetched_with == "browser" and "Rendered by the page script" in page.text
    assert server.hits["/app"] == 2  # the plain fetch's request, then the browser's


async def test_a_proxy_exported_after_the_browser_started_takes_its_pages(
    server: PageServer, dns: _RebindingDns, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Chromium reads HTTP_PROXY once, when it starts; one exported later was not used (nor
    # the checking proxy, off for a proxy of the user's): the page went out directly. Now
    # the per-request chooser's proxy is the page's context proxy, with its credentials.
    _require_chromium()
    _clear_proxy_variables(monkeypatch)
    dns.public_answers = 1000
    password = "PROXYPASSWORD0123456789"
    expected = "Basic " + base64.b64encode(f"puser:{password}".encode()).decode()

    async def behind_proxy_auth(request: web.Request) -> web.Response:
        if request.headers.get("Proxy-Authorization") != expected:
            return web.Response(status=407, headers={"Proxy-Authenticate": 'Basic realm="p"'})
        return web.Response(text=_app_page(), content_type="text/html")

    server.page("/first", _app_page())
    server.route("/app", behind_proxy_auth)
    browser = HeadlessBrowser(executable_path=chromium_path())
    try:
        async with WebSearch(state_backend="memory", browser=browser) as client:
            first = await client.fetch(server.url("/first"), allow_private_addresses=True)
            assert first.fetched_with == "browser"  # Chromium started, without a proxy
            proxy = server.url("").replace("://", f"://puser:{password}@")
            monkeypatch.setenv("HTTP_PROXY", proxy)
            page = await client.fetch(
                f"http://{_REBIND_HOST}:8080/app", allowed_networks=["127.0.0.1/32"]
            )
    finally:
        await browser.aclose()
    assert page.fetched_with == "browser" and "Rendered by the page script" in page.text
    assert password not in page.model_dump_json()
