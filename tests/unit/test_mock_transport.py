"""MockTransport: the real transport's code paths around a handler instead of a socket."""

import asyncio
import json

import aiohttp
import pytest

from tests.providers._helpers import key_context
from websearch_core.errors import (
    ProviderConnectionError,
    ProviderTimeoutError,
    RateLimitedError,
    ResponseTooLargeError,
)
from websearch_core.models import SearchParams
from websearch_core.providers.brave import BraveProvider
from websearch_core.testing import MockTransport, in_parts, scripted
from websearch_core.transport import HttpRequest, HttpResponse

REQUEST = HttpRequest(method="GET", url="https://api.search.brave.com/res/v1/web/search")


async def test_the_handler_answers_and_every_request_is_recorded() -> None:
    seen: list[str] = []

    def handler(request: HttpRequest) -> HttpResponse:
        seen.append(request.url)
        return HttpResponse(status=201, body=b"made", headers={"X-Id": "7"})

    transport = MockTransport(handler, base_urls={"brave": "http://127.0.0.1:9"})
    response = await transport.send("brave", "Brave", REQUEST)
    # The base-URL override applies before the handler sees the request, as on the wire.
    assert seen == ["http://127.0.0.1:9/res/v1/web/search"]
    assert (response.status, response.body, response.header("x-id")) == (201, b"made", "7")
    assert response.url == "http://127.0.0.1:9/res/v1/web/search"
    assert [(p, label, r.url) for p, label, r in transport.calls] == [("brave", "Brave", seen[0])]


async def test_an_async_handler_is_awaited() -> None:
    async def handler(request: HttpRequest) -> HttpResponse:
        await asyncio.sleep(0)
        return HttpResponse(status=200, body=request.method.encode())

    response = await MockTransport(handler).send("brave", "Brave", REQUEST)
    assert response.body == b"GET"


async def test_the_size_cap_and_its_text_are_the_real_transports() -> None:
    transport = MockTransport(lambda _: HttpResponse(status=200, body=b"x" * 2049))
    with pytest.raises(ResponseTooLargeError) as caught:
        await transport.send("brave", "Brave", REQUEST, max_response_bytes=2048)
    assert caught.value.message == "Brave API response exceeded 2 KiB"


async def test_a_handler_that_hangs_times_out_with_the_providers_label() -> None:
    async def hang(request: HttpRequest) -> HttpResponse:
        await asyncio.sleep(10)
        raise AssertionError("not reached")

    with pytest.raises(ProviderTimeoutError) as caught:
        await MockTransport(hang).send("brave", "Brave", REQUEST, timeout_seconds=0.2)
    assert caught.value.message == "Brave search timed out after 0.2s"


async def test_aiohttp_errors_from_the_handler_become_provider_errors() -> None:
    transport = MockTransport(scripted(aiohttp.ServerDisconnectedError()))
    with pytest.raises(ProviderConnectionError) as caught:
        await transport.send("brave", "Brave", REQUEST)
    assert caught.value.message == (
        "Brave search failed: the connection failed (api.search.brave.com): "
        "the server closed the connection (ServerDisconnectedError)"
    )
    assert caught.value.__context__ is None  # nothing of aiohttp's exception is kept


async def test_send_sse_parses_only_a_successful_event_stream() -> None:
    stream = b'data: {"n": 1}\n\ndata: {"n": 2}\n\n'
    headers = {"Content-Type": "text/event-stream; charset=utf-8"}
    transport = MockTransport(
        scripted(
            HttpResponse(status=200, body=stream, headers=headers),
            HttpResponse(status=429, body=stream, headers=headers),
        )
    )
    ok = await transport.send_sse("brave", "Brave", REQUEST)
    assert [json.loads(event.data)["n"] for event in ok.events] == [1, 2]
    refused = await transport.send_sse("brave", "Brave", REQUEST)
    assert (refused.status, refused.events, refused.body) == (429, (), stream)


async def test_a_script_that_runs_out_names_the_extra_request() -> None:
    transport = MockTransport(scripted())
    with pytest.raises(AssertionError, match=r"unexpected request: GET https://api\.search\.brave"):
        await transport.send("brave", "Brave", REQUEST)


async def test_a_provider_runs_its_real_status_handling_over_it() -> None:
    limited = HttpResponse(status=429, body=b"{}", headers={"Retry-After": "3"})
    transport = MockTransport(scripted(limited))
    context = key_context("brave", "brave-test-key", transport=transport)
    with pytest.raises(RateLimitedError) as caught:
        await BraveProvider().search(SearchParams(query="q"), context)
    assert caught.value.retry_after == 3.0
    (request,) = transport.requests
    assert request.headers["X-Subscription-Token"] == "brave-test-key"


# --- a body in parts, held open (streams62) -----------------------------------------------


async def test_a_held_body_past_the_cap_is_refused_at_the_cap_not_the_deadline() -> None:
    """Failed before (no ``reads``): a body in 1 KiB reads, held open after, is refused once
    it passes the cap, as the real transport refuses one, never waiting for its end."""
    answer = HttpResponse(status=200, body=b"x" * 4096, headers={"Content-Type": "text/html"})
    transport = MockTransport(
        lambda _: answer, reads=in_parts(1024, 1024, 1024, held_open=True), timeout_seconds=30
    )
    with pytest.raises(ResponseTooLargeError) as caught:
        await transport.send("brave", "Brave", REQUEST, max_response_bytes=2048)
    assert caught.value.message == "Brave API response exceeded 2 KiB"


async def test_a_held_error_page_is_cut_at_the_cap() -> None:
    """Failed before (no ``reads``): a 429's page past the cap, held open, is cut at the
    cap and handed on with its ``Retry-After``, as the real transport cuts it."""
    headers = {"Retry-After": "7", "Content-Type": "text/html"}
    answer = HttpResponse(status=429, body=b"y" * 4096, headers=headers)
    transport = MockTransport(lambda _: answer, reads=in_parts(3000, held_open=True))
    response = await transport.send("brave", "Brave", REQUEST, max_response_bytes=2048)
    assert (response.status, response.body, response.header("retry-after")) == (
        429,
        b"y" * 2048,
        "7",
    )


def test_in_parts_refuses_a_read_of_no_bytes() -> None:
    """Failed before (no ``in_parts``): a read of 0 bytes is no read; named."""
    with pytest.raises(ValueError, match="each read is 1 byte or more, not 0"):
        in_parts(4, 0)
