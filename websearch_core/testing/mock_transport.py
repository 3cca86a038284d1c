"""An in-process transport for tests: a function answers each request, no socket is opened.

In the manner of ``httpx.MockTransport``: :class:`MockTransport` is a
:class:`~websearch_core.transport.Transport` whose ``send`` / ``send_sse`` hand the request
to ``handler(request) -> HttpResponse`` instead of aiohttp. Everything around the wire stays
the real code path: the base-URL override, the attempt's time bound and the timeout text,
the size cap, the reading of a stream (:class:`~websearch_core.stream_read.StreamRead`, the
real transport's own: where it ends, a relabelled one told by its first line, blank lines
alone refused; the handler's body comes as one read), and
the mapping of aiohttp errors (a handler may raise ``aiohttp.ClientConnectionError`` to
simulate a dropped connection). Status codes are untouched, so the provider's and the
request loop's status handling runs as it would on the network.

Redirects are returned as they are, not followed (the loopback
:class:`~websearch_core.testing.Simulator` covers redirects, proxies and real sockets).

Example:
    >>> import asyncio
    >>> from websearch_core.transport import HttpRequest, HttpResponse
    >>> transport = MockTransport(lambda request: HttpResponse(status=200, body=b"{}"))
    >>> request = HttpRequest(method="GET", url="https://api.example/search")
    >>> asyncio.run(transport.send("brave", "Brave", request)).status
    200
    >>> transport.requests[0].url
    'https://api.example/search'
"""

import dataclasses
import inspect
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from typing import cast

import aiohttp

from ..errors import ResponseTooLargeError
from ..sse import DEFAULT_MAX_EVENT_BYTES, SseEvent
from ..stream_read import StreamRead, is_labelled_stream
from ..transport import (
    API_RESPONSE,
    HttpRequest,
    HttpResponse,
    SseResponse,
    Transport,
    is_error_page,
    too_large_message,
)

__all__ = ["Handler", "MockTransport", "scripted"]

Handler = Callable[[HttpRequest], HttpResponse | Awaitable[HttpResponse]]
"""Answers one request (sync or async); may raise an aiohttp error to simulate a failure."""


class MockTransport(Transport):
    """A :class:`Transport` that answers from ``handler`` in-process.

    Args:
        handler: Called with each request (its URL after the base-URL override).
        timeout_seconds: Default per-request timeout, as for :class:`Transport`.
        max_response_bytes: Default body size cap, as for :class:`Transport`.
        base_urls: Provider id to origin override, as for :class:`Transport`.
        secrets: Values scrubbed from transport error texts, as for :class:`Transport`.
        sign_in_gateways: The ``base_urls`` ids whose URL a sign-in may be sent to, as for
            :class:`Transport`: a refusal of a URL set on it advises this argument ("build
            the Transport with sign_in_gateways=[...]"), which it did not take, so a test
            of a gateway could not follow the advice.

    Attributes:
        requests: Every request sent, in order (URLs resolved).
        calls: ``(provider id, label, request)`` for each request, for tests that check
            which provider a request was sent for.
    """

    def __init__(
        self,
        handler: Handler,
        *,
        timeout_seconds: float = 5.0,
        max_response_bytes: int = 1 << 20,
        base_urls: Mapping[str, str] | None = None,
        secrets: Sequence[str] = (),
        sign_in_gateways: Iterable[str] = (),
    ) -> None:
        # No session: nothing here may reach aiohttp's client.
        super().__init__(
            cast(aiohttp.ClientSession, None),
            timeout_seconds=timeout_seconds,
            max_response_bytes=max_response_bytes,
            base_urls=base_urls,
            secrets=secrets,
            sign_in_gateways=sign_in_gateways,
        )
        self.handler = handler
        self.requests: list[HttpRequest] = []
        self.calls: list[tuple[str, str, HttpRequest]] = []

    def __repr__(self) -> str:
        return f"MockTransport(handler={self.handler!r}, base_urls={self.base_urls})"

    async def _answer(
        self,
        provider: str,
        label: str,
        request: HttpRequest,
        cap: int,
        name: str = API_RESPONSE,
        route: str | None = None,
    ) -> HttpResponse:
        url = self.resolve_url(route or provider, request.url)
        resolved = dataclasses.replace(request, url=url)
        self.requests.append(resolved)
        self.calls.append((provider, label, resolved))
        answer = self.handler(resolved)
        response = await answer if inspect.isawaitable(answer) else answer
        if len(response.body) > cap:
            if not is_error_page(response.status):
                raise _too_large(provider, label, cap, name)
            response = dataclasses.replace(response, body=response.body[:cap])
        if not response.url:
            response = dataclasses.replace(response, url=resolved.url)
        return response

    async def send(
        self,
        provider: str,
        label: str,
        request: HttpRequest,
        *,
        timeout_seconds: float | None = None,
        max_response_bytes: int | None = None,
        response_name: str = API_RESPONSE,
        route: str | None = None,
    ) -> HttpResponse:
        """See :meth:`Transport.send`; the answer comes from the handler."""
        cap = max_response_bytes or self.max_response_bytes
        url = self.resolve_url(route or provider, request.url)
        work = self._answer(provider, label, request, cap, response_name, route)
        return await self._guarded(provider, label, url, timeout_seconds, work)

    async def send_sse(
        self,
        provider: str,
        label: str,
        request: HttpRequest,
        *,
        timeout_seconds: float | None = None,
        max_response_bytes: int | None = None,
        max_event_bytes: int = DEFAULT_MAX_EVENT_BYTES,
    ) -> SseResponse:
        """See :meth:`Transport.send_sse`; the handler's body is parsed as the stream."""
        cap = max_response_bytes or self.max_response_bytes
        url = self.resolve_url(provider, request.url)

        async def read() -> SseResponse:
            response = await self._answer(provider, label, request, cap)
            body = response.body
            events: tuple[SseEvent, ...] = ()
            if 200 <= response.status < 300:
                # The real transport's rules, from the one place they live: the body
                # comes as one read, as from a server that sent it at once.
                stream = StreamRead(
                    labelled=is_labelled_stream(response.header("Content-Type")),
                    cap=cap,
                    too_large=lambda: _too_large(provider, label, cap),
                    stream_end=request.stream_end,
                    max_event_bytes=max_event_bytes,
                )
                stream.add(response.body)
                body, events = stream.finish(response.status)
            return SseResponse(
                status=response.status,
                body=body,
                events=events,
                headers=response.headers,
                url=response.url,
            )

        return await self._guarded(provider, label, url, timeout_seconds, read())


def _too_large(provider: str, label: str, cap: int, name: str = API_RESPONSE) -> Exception:
    return ResponseTooLargeError(provider, too_large_message(label, name, cap), 500)


def scripted(*responses: HttpResponse | BaseException) -> Handler:
    """A handler that answers with ``responses`` in order (an exception is raised).

    Raises:
        AssertionError: A request arrived after the script ran out (names the request).
    """
    queue = list(responses)

    def handler(request: HttpRequest) -> HttpResponse:
        if not queue:
            raise AssertionError(f"unexpected request: {request.method} {request.url}")
        answer = queue.pop(0)
        if isinstance(answer, BaseException):
            raise answer
        return answer

    return handler
