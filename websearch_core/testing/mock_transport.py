"""An in-process transport for tests: a function answers each request, no socket is opened.

In the manner of ``httpx.MockTransport``: :class:`MockTransport` is a
:class:`~websearch_core.transport.Transport` whose ``send`` / ``send_sse`` hand the request
to ``handler(request) -> HttpResponse`` instead of aiohttp. Everything around the wire stays
the real code path: the base-URL override, the attempt's time bound and the timeout text,
the size cap, the reading of a stream (:class:`~websearch_core.stream_read.StreamRead`, the
real transport's own: where it ends, a relabelled one told by its first line, blank lines
alone refused), the stop at a first line that refuses a body, and the mapping of aiohttp
errors (a handler may raise ``aiohttp.ClientConnectionError`` to simulate a dropped
connection). Status codes are untouched, so the provider's and the request loop's status
handling runs as it would on the network.

The handler's body comes as one read, as from a server that sent it at once; ``reads``
delivers it otherwise: in parts, and held open after its last byte as a server or proxy
keeping the connection would (:func:`in_parts`). Only what ends a body on the wire (a
stream's closing event, a first line that refuses it, the size cap) then ends the read,
or the time bound does.

A declared ``Content-Length`` is read as aiohttp reads it (:mod:`.declared_length`): the
body ends there, and a body cut short of it fails as a connection closed early. Redirects
are followed by the real transport's rules (:func:`~websearch_core.transport.redirect_hop`),
each hop answered by the handler and recorded. The loopback
:class:`~websearch_core.testing.Simulator` covers proxies and real sockets.

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

import asyncio
import dataclasses
import inspect
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import cast

import aiohttp
from yarl import URL

from ..body_buffer import BodyBuffer
from ..errors import ResponseTooLargeError
from ..event_stream_body import after_blank_lines, stream_by_first_line
from ..sse import DEFAULT_MAX_EVENT_BYTES, SseEvent
from ..stream_read import StreamRead, is_labelled_stream
from ..transport import (
    _REDIRECT_STATUSES,
    API_RESPONSE,
    HttpRequest,
    HttpResponse,
    SseResponse,
    Transport,
    is_error_page,
    redirect_hop,
    told_by_first_line,
    too_large_message,
)
from .declared_length import declared_length, up_to_declared

__all__ = ["Handler", "MockTransport", "Reads", "in_parts", "scripted"]

Handler = Callable[[HttpRequest], HttpResponse | Awaitable[HttpResponse]]
"""Answers one request (sync or async); may raise an aiohttp error to simulate a failure."""

Reads = Callable[[HttpRequest, HttpResponse], AsyncIterator[bytes]]
"""How the handler's body for a request arrives: each item one read, in order. Waiting
after the last item holds the reply open (:func:`in_parts`)."""


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
        reads: How each body arrives (:func:`in_parts`); ``None``: the whole body at once,
            as one read. The mock's body was always one read, so no test on it could hold
            a stream open after its end or flush a byte first, as servers do; those were
            the loopback simulator's alone.

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
        reads: Reads | None = None,
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
        self.reads = reads
        self.requests: list[HttpRequest] = []
        self.calls: list[tuple[str, str, HttpRequest]] = []

    def __repr__(self) -> str:
        return f"MockTransport(handler={self.handler!r}, base_urls={self.base_urls})"

    async def _answer(
        self, provider: str, label: str, request: HttpRequest, route: str | None = None
    ) -> tuple[HttpRequest, HttpResponse]:
        """The request as last sent and the handler's reply to it, unread.

        A redirect is followed as the real transport follows one (:func:`~..transport.
        redirect_hop`): the mock returned it as it was, so a provider's redirect was a
        status to it here and a followed hop (or a refusal) on the wire.
        """
        url = self.resolve_url(route or provider, request.url)
        sent = dataclasses.replace(request, url=url)
        response = await self._ask(provider, label, sent)
        asked, count = URL(url), 0
        while response.status in _REDIRECT_STATUSES:
            location = response.header("Location")
            if not location:
                break
            sent = redirect_hop(
                provider,
                label,
                asked,
                sent,
                response.status,
                location,
                count,
                self._carries_credentials,
            )
            count += 1
            response = await self._ask(provider, label, sent)
        return sent, response

    async def _ask(self, provider: str, label: str, sent: HttpRequest) -> HttpResponse:
        """The handler's reply to ``sent`` (recorded), its URL the request's if it gave none."""
        self.requests.append(sent)
        self.calls.append((provider, label, sent))
        answer = self.handler(sent)
        response = await answer if inspect.isawaitable(answer) else answer
        if not response.url:
            response = dataclasses.replace(response, url=sent.url)
        return response

    def _parts(self, request: HttpRequest, response: HttpResponse) -> AsyncIterator[bytes]:
        """The reads the reply's body arrives in (``reads``, or the whole body at once).

        Ended at its declared length (:func:`~.declared_length.up_to_declared`).
        """
        parts = self.reads(request, response) if self.reads is not None else _at_once(response.body)
        declared = declared_length(request, response)
        if declared is None:
            return parts
        return up_to_declared(request, response, parts, declared)

    async def _body(
        self,
        request: HttpRequest,
        response: HttpResponse,
        too_large: Callable[[], BaseException],
        cap: int,
    ) -> bytes:
        """The body as the real transport reads one (``_read_capped``), read by read.

        An error page past the cap is cut there; any other body past it is refused. A
        body whose first line refuses it (:func:`~..transport.told_by_first_line`) is
        read no further, so a stream held open after it ends there, not at the deadline.
        """
        error_page = is_error_page(response.status)
        if not error_page:
            _refuse_declared_over(request, response, too_large, cap)
        judged = not error_page and told_by_first_line(
            response.header("Content-Type"), request.headers
        )
        head: bytes | None = b"" if judged else None
        gathered = BodyBuffer()
        async with _closing(self._parts(request, response)) as parts:
            async for part in parts:
                gathered.add(part)
                if gathered.size > cap:
                    if error_page:
                        return gathered.take()[:cap]
                    raise too_large()
                if head is not None:
                    head = after_blank_lines(head + part)
                    told = stream_by_first_line(head)
                    if told:
                        break
                    if told is False:
                        head = None
        return gathered.take()

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

        async def read() -> HttpResponse:
            sent, response = await self._answer(provider, label, request, route)
            body = await self._body(
                sent, response, lambda: _too_large(provider, label, cap, response_name), cap
            )
            return dataclasses.replace(response, body=body)

        return await self._guarded(provider, label, url, timeout_seconds, read())

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

        def too_large() -> BaseException:
            return _too_large(provider, label, cap)

        async def read() -> SseResponse:
            sent, response = await self._answer(provider, label, request)
            events: tuple[SseEvent, ...] = ()
            if 200 <= response.status < 300:
                _refuse_declared_over(sent, response, too_large, cap)
                # The real transport's rules, from the one place they live, read by read.
                stream = StreamRead(
                    labelled=is_labelled_stream(response.header("Content-Type")),
                    cap=cap,
                    too_large=too_large,
                    stream_end=request.stream_end,
                    max_event_bytes=max_event_bytes,
                )
                async with _closing(self._parts(sent, response)) as parts:
                    async for part in parts:
                        if stream.add(part):
                            break
                body, events = stream.finish(response.status)
            else:
                body = await self._body(sent, response, too_large, cap)
            return SseResponse(
                status=response.status,
                body=body,
                events=events,
                headers=response.headers,
                url=response.url,
            )

        return await self._guarded(provider, label, url, timeout_seconds, read())


@asynccontextmanager
async def _closing(parts: AsyncIterator[bytes]) -> AsyncIterator[AsyncIterator[bytes]]:
    """``parts``, closed once read or left (a held reply is let go, as a released socket)."""
    try:
        yield parts
    finally:
        close = getattr(parts, "aclose", None)
        if close is not None:
            await close()


async def _at_once(body: bytes) -> AsyncIterator[bytes]:
    """The whole body as one read (none for an empty one), as the mock always gave it."""
    if body:
        yield body


def in_parts(*sizes: int, held_open: bool = False) -> Reads:
    r"""Deliver each body as reads of ``sizes`` bytes, in order, then the rest as one read.

    A server may flush a byte or four first (``d``, then ``ata: ...``), and may keep the
    connection after its last byte (a proxy's keep-alive, a stream never closed): the
    reader must then find the body's end itself. Between reads the event loop has a turn,
    as it has between a socket's reads.

    Args:
        sizes: The first reads' lengths (each 1 or more); none: the body as one read.
        held_open: After the last byte, wait (the connection held): only what ends the
            body on the wire (a stream's closing event, a first line that refuses the
            body, the size cap) or the request's time bound ends the read.

    Raises:
        ValueError: A size under 1 (names it).

    Example:
        >>> import asyncio
        >>> from websearch_core.transport import HttpRequest
        >>> transport = MockTransport(
        ...     lambda request: HttpResponse(status=200, body=b"data: 1\n\ndata: [DONE]\n\n"),
        ...     reads=in_parts(1, 3, held_open=True),
        ...     timeout_seconds=0.2,
        ... )
        >>> request = HttpRequest(method="POST", url="u", stream=True,
        ...     stream_end=lambda event: event.data == "[DONE]")
        >>> [event.data for event in asyncio.run(
        ...     transport.send_sse("brave", "Brave", request)).events]
        ['1', '[DONE]']
    """
    for size in sizes:
        if size < 1:
            raise ValueError(f"in_parts: each read is 1 byte or more, not {size}")

    async def reads(request: HttpRequest, response: HttpResponse) -> AsyncIterator[bytes]:
        body, at = response.body, 0
        for size in sizes:
            if at >= len(body):
                break
            yield body[at : at + size]
            at += size
            await asyncio.sleep(0)
        if at < len(body):
            yield body[at:]
        if held_open:
            await asyncio.Event().wait()  # never set: the time bound ends the wait

    return reads


def _refuse_declared_over(
    request: HttpRequest,
    response: HttpResponse,
    too_large: Callable[[], BaseException],
    cap: int,
) -> None:
    """Fail before reading a body whose declared length is over ``cap``, as the real one."""
    declared = declared_length(request, response)
    if declared is not None and declared > cap:
        raise too_large()


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
