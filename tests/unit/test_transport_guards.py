"""The transport's guards: redirects, rate-limit hints, and errors that carry nothing along."""

import math
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import aiohttp
import pytest
from aiohttp import web

from websearch_core.errors import ProviderConnectionError, SearchProviderError
from websearch_core.transport import (
    MAX_HINT_SECONDS,
    MAX_REDIRECTS,
    HttpRequest,
    Transport,
    parse_retry_after,
)

KEY = "sk-guard-0123456789abcdef"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("7", 7.0),
        ("1e300", MAX_HINT_SECONDS),
        ("inf", MAX_HINT_SECONDS),
        ("-inf", 0.0),
        ("-5", 0.0),
        ("nan", None),
        ("soon", None),
        ("", None),
        (None, None),
    ],
)
def test_retry_after_is_clamped_or_ignored(value: str | None, expected: float | None) -> None:
    assert parse_retry_after(value) == expected


def test_retry_after_dates_far_and_past() -> None:
    now = datetime(2026, 12, 1, tzinfo=UTC)
    past = format_datetime(now - timedelta(hours=1), usegmt=True)
    soon = format_datetime(now + timedelta(seconds=90), usegmt=True)
    far = format_datetime(now + timedelta(days=3650), usegmt=True)
    assert parse_retry_after(past, now) == 0.0
    assert parse_retry_after(soon, now) == 90.0
    assert parse_retry_after(far, now) == MAX_HINT_SECONDS
    assert all(
        math.isfinite(parse_retry_after(v, now) or 0.0)
        for v in ("Mon, 01 Jan 9999 00:00:00 GMT", "Tue, 99 Foo 2026 99:99:99 GMT")
    )


class Servers:
    """Two loopback origins: ``home`` (the provider) and ``other`` (where redirects point)."""

    def __init__(self) -> None:
        self.home = ""
        self.other = ""
        self.seen: dict[str, list[tuple[str, str, dict[str, str], bytes]]] = {
            "home": [],
            "other": [],
        }
        self.home_routes: dict[str, Callable[[], web.Response]] = {}
        """Path to a response factory (a prepared response cannot be sent twice)."""
        self._runners: list[web.AppRunner] = []

    async def start(self) -> None:
        for name, host in (("home", "127.0.0.1"), ("other", "127.0.0.2")):
            app = web.Application()
            app.router.add_route("*", "/{tail:.*}", self._handler(name))
            runner = web.AppRunner(app, handle_signals=False)
            await runner.setup()
            site = web.TCPSite(runner, host, 0)
            await site.start()
            address = runner.addresses[-1]
            setattr(self, name, f"http://{address[0]}:{address[1]}")
            self._runners.append(runner)

    def _handler(self, name: str) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
        async def handle(request: web.Request) -> web.StreamResponse:
            body = await request.read()
            self.seen[name].append((request.method, request.path, dict(request.headers), body))
            if name == "home" and request.path in self.home_routes:
                return self.home_routes[request.path]()
            return web.json_response({"ok": name, "path": request.path})

        return handle

    async def close(self) -> None:
        for runner in self._runners:
            await runner.cleanup()


@pytest.fixture
async def servers() -> AsyncIterator[Servers]:
    pair = Servers()
    await pair.start()
    yield pair
    await pair.close()


@pytest.fixture
async def transport() -> AsyncIterator[Transport]:
    async with aiohttp.ClientSession() as session:
        yield Transport(session, timeout_seconds=5, max_response_bytes=1 << 20, secrets=(KEY,))


def _redirect(location: str, status: int = 307) -> Callable[[], web.Response]:
    return lambda: web.Response(status=status, headers={"Location": location})


async def test_a_same_origin_redirect_keeps_the_request(
    servers: Servers, transport: Transport
) -> None:
    servers.home_routes["/old"] = _redirect("/new", 308)
    request = HttpRequest(
        method="POST", url=f"{servers.home}/old", headers={"x-api-key": KEY}, json={"q": 1}
    )
    response = await transport.send("p", "P", request)
    assert response.status == 200 and response.url.endswith("/new")
    method, path, headers, body = servers.seen["home"][-1]
    assert (method, path, headers["x-api-key"], body) == ("POST", "/new", KEY, b'{"q": 1}')


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
@pytest.mark.parametrize("header", ["X-Subscription-Token", "x-api-key", "x-goog-api-key"])
async def test_credentials_never_follow_a_redirect_to_another_origin(
    servers: Servers, transport: Transport, status: int, header: str
) -> None:
    servers.home_routes["/search"] = _redirect(f"{servers.other}/steal", status)
    request = HttpRequest(method="GET", url=f"{servers.home}/search", headers={header: KEY})
    with pytest.raises(SearchProviderError) as caught:
        await transport.send("p", "P", request)
    assert caught.value.message.startswith(
        "P search failed: the request was redirected to another origin (127.0.0.2:"
    )
    assert caught.value.status == status
    assert servers.seen["other"] == []


async def test_an_upgrade_to_https_on_the_same_host_names_both_schemes(
    servers: Servers, transport: Transport
) -> None:
    # A gateway that answers a base URL written with http:// by sending it to https://.
    secure = servers.home.replace("http://", "https://", 1)
    servers.home_routes["/search"] = _redirect(f"{secure}/search", 301)
    request = HttpRequest(method="GET", url=f"{servers.home}/search", headers={"x-api-key": KEY})
    with pytest.raises(SearchProviderError) as caught:
        await transport.send("p", "P", request)
    assert caught.value.message == (
        f"P search failed: the request was redirected to another origin ({secure}); not "
        f"followed, so credentials and the request body stay with {servers.home}; if "
        f"{secure} is the service, configure the base URL with https"
    )
    assert [path for _, path, _, _ in servers.seen["home"]] == ["/search"]


async def test_a_key_hidden_in_an_ordinary_header_counts_as_a_credential(
    servers: Servers, transport: Transport
) -> None:
    servers.home_routes["/search"] = _redirect(f"{servers.other}/steal")
    request = HttpRequest(method="GET", url=f"{servers.home}/search", headers={"X-Key": KEY})
    with pytest.raises(SearchProviderError):
        await transport.send("p", "P", request)
    assert servers.seen["other"] == []


async def test_a_307_with_a_body_is_not_resent_to_another_origin(
    servers: Servers, transport: Transport
) -> None:
    servers.home_routes["/search"] = _redirect(f"{servers.other}/steal", 307)
    request = HttpRequest(method="POST", url=f"{servers.home}/search", form=[("q", "x")])
    with pytest.raises(SearchProviderError, match="redirected to another origin"):
        await transport.send("p", "P", request)
    assert servers.seen["other"] == []


async def test_a_keyless_request_follows_to_another_origin_without_credential_headers(
    servers: Servers, transport: Transport
) -> None:
    servers.home_routes["/html/"] = _redirect(f"{servers.other}/results", 303)
    request = HttpRequest(
        method="POST",
        url=f"{servers.home}/html/",
        headers={"User-Agent": "test", "Accept-Language": "en"},
        form=[("q", "x")],
    )
    response = await transport.send("p", "P", request)
    assert response.status == 200
    ((method, path, headers, body),) = servers.seen["other"]
    assert (method, path, body) == ("GET", "/results", b"")
    assert headers["User-Agent"] == "test" and "Content-Type" not in headers


async def test_an_explicit_cookie_header_is_a_credential(
    servers: Servers, transport: Transport
) -> None:
    servers.home_routes["/ask"] = _redirect(f"{servers.other}/steal", 302)
    request = HttpRequest(method="GET", url=f"{servers.home}/ask", headers={"Cookie": "s=1"})
    with pytest.raises(SearchProviderError, match="redirected to another origin"):
        await transport.send("p", "P", request)
    assert servers.seen["other"] == []


@pytest.mark.parametrize(
    "location", ["file:///etc/passwd", "javascript:alert(1)", "ftp://127.0.0.2/x"]
)
async def test_a_redirect_to_another_scheme_is_refused(
    servers: Servers, transport: Transport, location: str
) -> None:
    servers.home_routes["/search"] = _redirect(location, 302)
    with pytest.raises(SearchProviderError, match="location; not followed"):
        await transport.send("p", "P", HttpRequest(method="GET", url=f"{servers.home}/search"))


async def test_redirect_loops_stop(servers: Servers, transport: Transport) -> None:
    servers.home_routes["/loop"] = _redirect("/loop", 302)
    with pytest.raises(SearchProviderError, match=f"more than {MAX_REDIRECTS} times"):
        await transport.send("p", "P", HttpRequest(method="GET", url=f"{servers.home}/loop"))
    assert len(servers.seen["home"]) == MAX_REDIRECTS + 1


async def test_a_transport_error_keeps_no_aiohttp_exception_around(transport: Transport) -> None:
    request = HttpRequest(method="GET", url="http://127.0.0.1:9/", headers={"x-api-key": KEY})
    with pytest.raises(ProviderConnectionError) as caught:
        await transport.send("p", "P", request)
    assert caught.value.__context__ is None and caught.value.__cause__ is None
    assert KEY not in repr(caught.value) and KEY not in str(caught.value)


async def test_a_redirect_status_without_a_location_is_the_answer(
    servers: Servers, transport: Transport
) -> None:
    servers.home_routes["/moved"] = lambda: web.Response(status=302, text="no forwarding address")
    response = await transport.send(
        "p", "P", HttpRequest(method="GET", url=f"{servers.home}/moved")
    )
    assert (response.status, response.body) == (302, b"no forwarding address")
    assert len(servers.seen["home"]) == 1


async def test_an_event_stream_is_read_after_a_redirect(
    servers: Servers, transport: Transport
) -> None:
    servers.home_routes["/old"] = _redirect("/events", 308)
    servers.home_routes["/events"] = lambda: web.Response(
        body=b"data: one\n\ndata: two\n\n", content_type="text/event-stream"
    )
    request = HttpRequest(method="GET", url=f"{servers.home}/old", headers={"x-api-key": KEY})
    response = await transport.send_sse("p", "P", request)
    assert [event.data for event in response.events] == ["one", "two"]
    assert response.url.endswith("/events")
    assert [path for _, path, _, _ in servers.seen["home"]] == ["/old", "/events"]
