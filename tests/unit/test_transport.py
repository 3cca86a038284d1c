import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any, cast

import aiohttp
import pytest
from aiohttp import web
from aiohttp.typedefs import Handler

from tests.refused_port import refused_port
from websearch_core.deadline import enter_attempt, leave_attempt
from websearch_core.errors import (
    AuthorizationError,
    ProviderConnectionError,
    ProviderTimeoutError,
    ProviderUnavailableError,
    QuotaExhaustedError,
    RateLimitedError,
    ResponseParseError,
    ResponseTooLargeError,
    SearchProviderError,
)
from websearch_core.transport import (
    HttpRequest,
    HttpResponse,
    Transport,
    apply_base_url,
    classify_http_error,
    parse_retry_after,
    raise_for_status,
    redact,
)


def test_base_url_keeps_path_and_query() -> None:
    url = "https://api.search.brave.com/res/v1/web/search?q=x"
    assert (
        apply_base_url(url, "http://127.0.0.1:8080")
        == "http://127.0.0.1:8080/res/v1/web/search?q=x"
    )
    assert (
        apply_base_url(url, "https://gw.example/proxy/")
        == "https://gw.example/proxy/res/v1/web/search?q=x"
    )
    assert apply_base_url(url, None) == url


def test_base_url_of_a_fixed_endpoint_follows_each_base_url() -> None:
    # An endpoint without a query is worked out once per base URL: asked again, or with
    # another base URL, or with a fragment, each answer is its own.
    url = "https://api.search.brave.com/res/v1/web/search"
    for _ in range(2):
        assert apply_base_url(url, "http://127.0.0.1:8080") == (
            "http://127.0.0.1:8080/res/v1/web/search"
        )
        assert apply_base_url(url, "https://gw.example/proxy") == (
            "https://gw.example/proxy/res/v1/web/search"
        )
        assert apply_base_url(f"{url}#top", "http://u:p@[::1]:9") == (
            "http://u:p@[::1]:9/res/v1/web/search#top"
        )


def test_retry_after_forms() -> None:
    now = datetime(2026, 11, 30, 12, 0, 0, tzinfo=UTC)
    assert parse_retry_after("3") == 3.0
    assert parse_retry_after(" 1.5 ") == 1.5
    assert parse_retry_after("Mon, 30 Nov 2026 12:00:30 GMT", now=now) == 30.0
    assert parse_retry_after("Mon, 30 Nov 2026 11:00:00 GMT", now=now) == 0.0
    assert parse_retry_after("soon") is None
    assert parse_retry_after(None) is None


@pytest.mark.parametrize(
    ("status", "body", "kind", "message"),
    [
        (
            429,
            '{"error": "Quota exceeded for this month"}',
            QuotaExhaustedError,
            "brave: credits exhausted",
        ),
        (400, "insufficient credits", QuotaExhaustedError, "brave: credits exhausted"),
        (402, "pay up", QuotaExhaustedError, "brave: 402 credits exhausted"),
        (401, "bad key", AuthorizationError, "brave: 401 unauthorized"),
        (403, "nope", AuthorizationError, "brave: 403 forbidden"),
    ],
)
def test_shared_classifier(
    status: int, body: str, kind: type[SearchProviderError], message: str
) -> None:
    error = classify_http_error("brave", status, body)
    assert isinstance(error, kind)
    assert error.message == message
    assert error.status == status


BRAVE_PER_SECOND_BODY = (
    '{"type":"ErrorResponse","error":{"code":"RATE_LIMITED","status":429,"detail":"Request '
    'rate limit exceeded for plan.","meta":{"plan":"Free","rate_limit":1,"rate_current":1,'
    '"quota_limit":2000,"quota_current":15}}}'
)


@pytest.mark.parametrize(
    ("body", "headers", "wait"),
    [
        (BRAVE_PER_SECOND_BODY, {}, 1.0),  # the month's quota is far from used up
        ('{"error": "Quota exceeded for this month"}', {"Retry-After": "1"}, 1.0),
        ('{"error": "per-second quota reached"}', {}, 1.0),
        ('{"error": "per-IP quota of 10 requests/minute"}', {}, 60.0),
    ],
)
def test_a_quota_worded_429_that_is_a_short_limit_waits_seconds(
    body: str, headers: dict[str, str], wait: float
) -> None:
    response = HttpResponse(status=429, body=body.encode(), headers=headers)
    with pytest.raises(RateLimitedError) as caught:
        raise_for_status("brave", response, "Brave API error (429)")
    assert caught.value.message == "brave: credits exhausted"  # the reference's text
    assert (caught.value.status, caught.value.retry_after) == (429, wait)


def test_a_spent_quota_429_keeps_its_reset_when_it_says_one() -> None:
    spent = BRAVE_PER_SECOND_BODY.replace('"quota_current":15', '"quota_current":2000')
    for body, headers in ((spent, {}), ('{"error": "Quota exceeded"}', {"Retry-After": "7200"})):
        response = HttpResponse(status=429, body=body.encode(), headers=headers)
        with pytest.raises(QuotaExhaustedError) as caught:
            raise_for_status("brave", response, "Brave API error (429)")
        assert caught.value.message == "brave: credits exhausted"
        if headers:
            assert caught.value.reset_at is not None
            left = (caught.value.reset_at - datetime.now(UTC)).total_seconds()
            assert 7100 < left <= 7200
        else:
            assert caught.value.reset_at is None  # the month's end, as before


def test_a_quota_429_with_absurd_numbers_is_still_a_spent_quota() -> None:
    body = f'{{"meta":{{"quota_current":1,"quota_limit":{"9" * 5000}}}}}'.encode()
    with pytest.raises(QuotaExhaustedError):
        raise_for_status("brave", HttpResponse(status=429, body=body), "Brave API error (429)")


def test_a_quota_worded_5xx_is_the_server_s_trouble_not_a_spent_quota() -> None:
    body = b'{"error":"insufficient capacity, try again shortly"}'
    with pytest.raises(ProviderUnavailableError) as caught:
        raise_for_status("brave", HttpResponse(status=503, body=body), "Brave API error (503)")
    assert not isinstance(caught.value, QuotaExhaustedError)
    assert (caught.value.message, caught.value.status) == ("brave: credits exhausted", 503)


def test_classifier_leaves_other_statuses_to_the_provider() -> None:
    assert classify_http_error("brave", 429, "slow down") is None
    assert classify_http_error("brave", 500, "oops") is None


def test_raise_for_status_picks_the_class() -> None:
    ok = HttpResponse(status=200, body=b"{}")
    raise_for_status("brave", ok, "unused")
    limited = HttpResponse(status=429, body=b"slow", headers={"retry-after": "7"})
    with pytest.raises(RateLimitedError) as caught:
        raise_for_status("brave", limited, "Brave API error (429): slow")
    assert caught.value.retry_after == 7.0
    assert caught.value.message == "Brave API error (429): slow"
    with pytest.raises(ProviderUnavailableError):
        raise_for_status("brave", HttpResponse(status=503, body=b""), "Brave API error (503)")
    with pytest.raises(SearchProviderError) as other:
        raise_for_status(
            "brave", HttpResponse(status=422, body=b"bad"), "Brave API error (422): bad"
        )
    assert type(other.value) is SearchProviderError
    assert other.value.status == 422


def test_invalid_json_is_a_parse_error() -> None:
    with pytest.raises(ResponseParseError, match="Brave API returned invalid JSON"):
        HttpResponse(status=200, body=b"<html>").json("brave", "Brave")


def test_redact() -> None:
    assert redact("key=abcd1234 and abcd1234", ["abcd1234"]) == "key=*** and ***"
    assert redact("short k", ["k"]) == "short k"


def test_request_repr_hides_headers_and_bodies() -> None:
    request = HttpRequest(
        method="POST",
        url="https://api.example/search",
        headers={"Authorization": "Bearer secret-token"},
        json={"api_key": "secret-token"},
    )
    assert "secret-token" not in repr(request)


@pytest.fixture
async def server() -> AsyncIterator[str]:
    async def ok(request: web.Request) -> web.Response:
        return web.Response(text=f"{request.method} {request.path_qs}")

    async def slow(request: web.Request) -> web.Response:
        await asyncio.sleep(5)
        return web.Response(text="late")

    async def big(request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse()
        await response.prepare(request)
        for _ in range(64):
            await response.write(b"x" * 1024)
        return response

    async def reset(request: web.Request) -> web.Response:
        assert request.transport is not None
        request.transport.abort()
        return web.Response()

    async def stalled_body(request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse(headers={"Content-Length": "4096"})
        await response.prepare(request)
        await response.write(b"x" * 1024)  # the headers and a quarter of the body, then nothing
        await asyncio.sleep(5)
        return response

    async def late_redirect(request: web.Request) -> web.Response:
        await asyncio.sleep(0.3)
        raise web.HTTPFound("/late")

    async def late(request: web.Request) -> web.Response:
        await asyncio.sleep(0.35)
        return web.Response(text="late")

    app = web.Application()
    requests: list[str] = []

    @web.middleware
    async def record(request: web.Request, handler: Handler) -> web.StreamResponse:
        requests.append(request.path)
        return await handler(request)

    app.middlewares.append(record)
    app.router.add_get("/ok", ok)
    app.router.add_get("/slow", slow)
    app.router.add_get("/stalled-body", stalled_body)
    app.router.add_get("/late-redirect", late_redirect)
    app.router.add_get("/late", late)
    app.router.add_get("/big", big)
    app.router.add_get("/reset", reset)
    runner = web.AppRunner(app, shutdown_timeout=0.1)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    host, port = runner.addresses[0][:2]
    origin = f"http://{host}:{port}"
    SEEN[origin] = requests
    yield origin
    await runner.cleanup()
    del SEEN[origin]  # a later server on the same port starts with its own list


SEEN: dict[str, list[str]] = {}
"""The paths each test server was asked for, by its origin."""


async def _send(base: str, path: str, **kwargs: float) -> HttpResponse:
    async with aiohttp.ClientSession() as session:
        transport = Transport(
            session,
            timeout_seconds=kwargs.get("timeout", 2.0),
            max_response_bytes=int(kwargs.get("cap", 1024 * 1024)),
            base_urls={"brave": base},
        )
        return await transport.send(
            "brave", "Brave", HttpRequest(method="GET", url=f"https://api.example{path}")
        )


async def test_send_uses_base_url_override(server: str) -> None:
    response = await _send(server, "/ok?q=1")
    assert response.status == 200
    assert response.text() == "GET /ok?q=1"


async def test_timeout_is_mapped(server: str) -> None:
    with pytest.raises(ProviderTimeoutError, match=r"Brave search timed out after 0\.2s"):
        await _send(server, "/slow", timeout=0.2)


async def test_the_time_limit_covers_the_body(server: str) -> None:
    """Headers in time and a body that stops coming: the limit ends the read, not the server."""
    with pytest.raises(ProviderTimeoutError, match=r"Brave search timed out after 0\.3s"):
        await _send(server, "/stalled-body", timeout=0.3)


async def test_redirect_hops_share_one_time_limit(server: str) -> None:
    """0.3 s to the redirect and 0.35 s to the answer: each in time, together not."""
    with pytest.raises(ProviderTimeoutError, match=r"Brave search timed out after 0\.5s"):
        await _send(server, "/late-redirect", timeout=0.5)
    assert SEEN[server] == ["/late-redirect", "/late"]


async def test_a_spent_attempt_budget_sends_nothing(server: str) -> None:
    _, scope = enter_attempt(0.0)
    try:
        with pytest.raises(ProviderTimeoutError, match=r"Brave search timed out after 0s"):
            await _send(server, "/ok")
    finally:
        leave_attempt(scope)
    assert SEEN[server] == []


class _TimeoutsSeen:
    """A real session that keeps the timeout each request hands aiohttp, then sends it.

    The deadline reaches aiohttp only as that value, and a total aiohttp rounds up (it
    does past its ceil threshold, 5 s by default) or a lost connect limit would show in
    no reply until a server stalled for seconds, so the test reads the value itself.
    """

    def __init__(self, session: aiohttp.ClientSession) -> None:
        self._session = session
        self.timeouts: list[aiohttp.ClientTimeout] = []

    def __getattr__(self, name: str) -> object:
        return getattr(self._session, name)

    def request(self, *args: object, **kwargs: Any) -> object:
        self.timeouts.append(kwargs["timeout"])
        return self._session.request(*args, **kwargs)


async def test_each_request_gets_the_time_left_unrounded_and_the_connect_limit(
    server: str,
) -> None:
    async with aiohttp.ClientSession() as session:
        seen = _TimeoutsSeen(session)
        transport = Transport(
            cast(aiohttp.ClientSession, seen),
            timeout_seconds=7.5,
            max_response_bytes=1024,
            base_urls={"brave": server},
            connect_timeout_seconds=1.25,
        )
        request = HttpRequest(method="GET", url="https://api.example/late-redirect")
        assert (await transport.send("brave", "Brave", request)).text() == "late"
        transport.connect_timeout_seconds = 0.5
        await transport.send("brave", "Brave", HttpRequest(method="GET", url="https://x/ok"))
    totals = [timeout.total for timeout in seen.timeouts]
    assert None not in totals
    first, hop, later = cast(list[float], totals)
    # Each hop has what is left of the one limit (the redirect answered after 0.3 s).
    assert 7.0 < first <= 7.5 and 6.0 < hop <= first - 0.3 and 7.0 < later <= 7.5
    for timeout in seen.timeouts:
        assert cast(float, timeout.total) < timeout.ceil_threshold  # never rounded up
        assert (timeout.connect, timeout.sock_read) == (None, None)
    assert [timeout.sock_connect for timeout in seen.timeouts] == [1.25, 1.25, 0.5]


async def test_size_cap_is_enforced_while_streaming(server: str) -> None:
    with pytest.raises(ResponseTooLargeError, match="Brave API response exceeded 16 KiB"):
        await _send(server, "/big", cap=16 * 1024)


async def test_reset_is_a_connection_error(server: str) -> None:
    with pytest.raises(ProviderConnectionError) as caught:
        await _send(server, "/reset")
    prefix = f"Brave search failed: the connection failed ({server.removeprefix('http://')}): "
    assert caught.value.message in (  # an aborted socket reads as either, by timing
        f"{prefix}the server closed the connection (ServerDisconnectedError)",
        f"{prefix}the connection was reset (ClientConnectionResetError)",
    )


async def test_refused_connection_is_a_connection_error_in_words() -> None:
    port = refused_port()
    with pytest.raises(ProviderConnectionError) as caught:
        await _send(f"http://127.0.0.1:{port}", "/ok")
    assert caught.value.message == (
        f"Brave search failed: the connection failed (127.0.0.1:{port}): could not connect "
        "(ClientConnectorError)"
    )


async def test_cancellation_propagates(server: str) -> None:
    task = asyncio.create_task(_send(server, "/slow", timeout=10))
    await asyncio.sleep(0.1)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


async def test_the_repr_masks_credentials_in_base_urls() -> None:
    # ProviderContext (handed to every provider) shows its transport in its own repr.
    async with aiohttp.ClientSession() as session:
        transport = Transport(
            session,
            timeout_seconds=5,
            max_response_bytes=1024,
            base_urls={"brave": "http://gw:hunter2pass@gw.example", "exa": "http://TOKEN123@x.io"},
        )
        shown = repr(transport)
    assert "hunter2pass" not in shown and "TOKEN123" not in shown
    assert "http://gw:***@gw.example" in shown and "http://***@x.io" in shown
