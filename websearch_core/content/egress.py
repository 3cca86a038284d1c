"""The headless browser's way out: a loopback proxy that connects only to checked addresses.

Chromium resolves host names itself. A request guard that resolves a name, checks the
address and then lets Chromium fetch leaves a gap: Chromium's own lookup may get another
answer (DNS rebinding: a public address first, then ``127.0.0.1`` or ``169.254.169.254``).
Given to a browser context as its proxy, :class:`EgressProxy` makes its own lookup the only
one: Chromium hands it every request of the context (Playwright adds ``<-loopback>`` to the
bypass list, so loopback names and literals come here too), and it resolves the name,
checks every address with :func:`~websearch_core.content.lookup.checked_addresses` and
connects to an address it checked, never to the name.

* ``CONNECT host:port`` (https, and every WebSocket): a tunnel to the checked address, bytes
  piped both ways. TLS stays end to end: certificates are Chromium's to check, as before.
* ``GET http://host/path HTTP/1.1`` (plain http): the request goes to the checked address in
  origin form with ``Connection: close``, and only that one request is read from the
  browser's connection, so a kept-alive connection never carries a second request (to
  another host) to the first one's address.

A refused target is answered ``403`` and handed to ``on_refusal``, so the fetch can name
it; one that reached no host (its name unresolved, its connection refused) is answered
``502`` and handed to ``on_unreached``, so the fetch can class it as the plain fetch does,
not as Chromium's ``net::ERR_TUNNEL_CONNECTION_FAILED`` (a proxy the user never set).
Everything is bounded: the request head's size and time, the time to connect, and the
proxy's life (it closes with the render, and its connections with it).
"""

import asyncio
import contextlib
import logging
import re
import socket
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any, Self
from urllib.parse import urlsplit, urlunsplit

from ..closing import AsyncClosing
from ..connection_causes import connect_unreached
from .errors import FetchFailedError, FetchRefusedError
from .lookup import CheckedAddress, checked_addresses
from .safety import Networks, check_url, request_host

__all__ = [
    "CONNECT_TIMEOUT_SECONDS",
    "HEAD_TIMEOUT_SECONDS",
    "MAX_HEAD_BYTES",
    "EgressProxy",
]

_log = logging.getLogger(__name__)

MAX_HEAD_BYTES = 64 * 1024
"""Longest request head read (request line and headers): Chromium's are a few KiB."""
HEAD_TIMEOUT_SECONDS = 30.0
"""How long a connection may take to send its request head (an idle preconnect included)."""
CONNECT_TIMEOUT_SECONDS = 10.0
"""How long connecting to a checked address may take, all of its addresses together."""
_CHUNK = 65536
_TOKEN = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
"""An HTTP token (RFC 9110): a method or a header name."""
_HOP_BY_HOP = frozenset(
    {
        "connection",
        "expect",
        "host",
        "keep-alive",
        "proxy-authenticate",
        "proxy-authorization",
        "proxy-connection",
        "te",
        "trailer",
        "upgrade",
    }
)
"""Headers not forwarded: they concern this hop (``Host`` is written from the target)."""
_PHRASES = {
    400: "Bad Request",
    403: "Forbidden",
    431: "Request Header Fields Too Large",
    501: "Not Implemented",
    502: "Bad Gateway",
}

RefusalSink = Callable[[FetchRefusedError], None]
UnreachedSink = Callable[[FetchFailedError], None]


class _Answered(Exception):
    """The request ends with the proxy's own answer (a refusal or an error status).

    Args:
        status: The HTTP status sent to the browser.
        reason: The answer's text (no credentials: URLs are quoted without them).
    """

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason


@dataclass(frozen=True, slots=True)
class _Head:
    method: str
    target: str
    headers: list[tuple[str, str]]


class EgressProxy(AsyncClosing):
    """A forward proxy on ``127.0.0.1`` that reaches only addresses the rules allow.

    Use as an async context manager; :attr:`url` is what the browser context is given.

    Args:
        allowed: Networks allowed although not public (as ``allowed_networks``).
        allow_private: Allow non-public addresses, cloud metadata services excepted (as
            ``allow_private_addresses``): the proxy then still stands between a page and
            169.254.169.254.
        on_refusal: Called with each refused request's :class:`FetchRefusedError`.
        on_unreached: Called with each request that reached no host, as a
            :class:`FetchFailedError` whose ``unreached`` is ``dns`` or ``connect``.
        connect_timeout: Seconds to connect to a checked address.
        head_timeout: Seconds a connection may take to send its request head.
        max_head_bytes: Longest request head; a longer one is answered ``431``.

    Example:
        >>> async def main() -> None:  # doctest: +SKIP
        ...     async with EgressProxy() as proxy:
        ...         context = await browser.new_context(proxy={"server": proxy.url})
    """

    def __init__(
        self,
        allowed: Networks = (),
        *,
        allow_private: bool = False,
        on_refusal: RefusalSink | None = None,
        on_unreached: UnreachedSink | None = None,
        connect_timeout: float = CONNECT_TIMEOUT_SECONDS,
        head_timeout: float = HEAD_TIMEOUT_SECONDS,
        max_head_bytes: int = MAX_HEAD_BYTES,
    ) -> None:
        self._allowed = allowed
        self._allow_private = allow_private
        self._on_refusal = on_refusal
        self._on_unreached = on_unreached
        self._connect_timeout = connect_timeout
        self._head_timeout = head_timeout
        self._max_head_bytes = max_head_bytes
        self._server: asyncio.Server | None = None
        self._port = 0
        self._connections: set[asyncio.Task[Any]] = set()

    @property
    def url(self) -> str:
        """The proxy's address for the browser, ``http://127.0.0.1:PORT``."""
        if self._server is None:
            raise RuntimeError("the egress proxy is not running")
        return f"http://127.0.0.1:{self._port}"

    async def __aenter__(self) -> Self:
        self._server = await asyncio.start_server(
            self._serve, "127.0.0.1", 0, limit=self._max_head_bytes
        )
        self._port = int(self._server.sockets[0].getsockname()[1])
        return self

    async def aclose(self) -> None:
        """Stop listening and end every connection still open (idempotent)."""
        server, self._server = self._server, None
        if server is None:
            return
        server.close()
        connections = list(self._connections)
        for task in connections:
            task.cancel()
        await asyncio.gather(*connections, return_exceptions=True)
        await server.wait_closed()

    # --- one connection -------------------------------------------------------------------

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._connections.add(task)
        try:
            await self._exchange(reader, writer)
        except _Answered as answer:
            with contextlib.suppress(OSError):
                await _answer(writer, answer.status, answer.reason)
        except (OSError, asyncio.IncompleteReadError, TimeoutError):
            pass  # the browser or the server went away: nothing left to tell
        except Exception as error:  # a bug here must end one connection, not the proxy
            _log.warning("the browser's proxy dropped a connection: %s", type(error).__name__)
        finally:
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()
            if task is not None:
                self._connections.discard(task)

    async def _exchange(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            async with asyncio.timeout(self._head_timeout):
                data = await reader.readuntil(b"\r\n\r\n")
        except asyncio.LimitOverrunError:
            raise _Answered(
                431, f"the request head is over the {self._max_head_bytes}-byte limit"
            ) from None
        head = _parse_head(data)
        if head.method == "CONNECT":
            await self._tunnel(head, reader, writer)
        else:
            await self._forward(head, reader, writer)

    async def _tunnel(
        self, head: _Head, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        """``CONNECT host:port``: a byte pipe to the checked address of ``host``."""
        host, port = _authority(head.target)
        _name, (upstream_reader, upstream_writer) = await self._open(_tunnel_url(host, port), port)
        try:
            writer.write(b"HTTP/1.1 200 Connection Established\r\n\r\n")
            await writer.drain()
            await _first_of(_pipe(reader, upstream_writer), _pipe(upstream_reader, writer))
        finally:
            upstream_writer.close()

    async def _forward(
        self, head: _Head, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        """``METHOD http://host/path``: that one request, sent to the checked address."""
        try:
            parts = urlsplit(head.target)
            port = parts.port or 80
        except ValueError:
            raise _Answered(400, "the request target is not a URL") from None
        if parts.scheme.lower() != "http" or not parts.hostname:
            raise _Answered(400, "only CONNECT and absolute http:// requests are proxied")
        if _AMBIGUOUS_AUTHORITY.search(parts.netloc):
            # ``http://127.0.0.2\@a.test/``: ``urlsplit`` reads the host after the ``@``, a
            # browser the one before the ``\`` (yarl refuses it). Userinfo in a target is an
            # error (RFC 9110 4.2.4), as in CONNECT's; Chromium sends neither.
            raise _Answered(400, "the request target's authority is not host[:port]")
        length = _body_length(head.headers)
        name, (upstream_reader, upstream_writer) = await self._open(head.target, port)
        request = _origin_request(head, parts.path or "/", parts.query, _host_header(name, port))
        try:
            upstream_writer.write(request)
            await _copy_exactly(reader, upstream_writer, length)
            # The answer is passed on until the server closes (Connection: close) or the
            # browser does; anything more the browser sends is another request, dropped.
            await _first_of(_pipe(upstream_reader, writer), _drop_until_closed(reader))
        finally:
            upstream_writer.close()

    async def _open(
        self, url: str, port: int
    ) -> tuple[str, tuple[asyncio.StreamReader, asyncio.StreamWriter]]:
        """The host ``url`` names and a connection to an address of it the rules allow.

        The host is read once, as the checks read it (:func:`~.safety.request_host`: IDNA
        2008, no root dot): the name looked up and written in ``Host`` is the name judged.
        ``urlsplit``'s reading resolved ``straße.de`` as ``strasse.de`` (the socket module's
        IDNA 2003), another domain than the ``xn--strae-oqa.de`` the check judged.

        Raises:
            _Answered: ``403`` when the rules refuse the target (reported to
                ``on_refusal``), ``502`` when it does not resolve or does not answer.
        """
        host = ""  # the log's name for a target refused before its host is read
        try:
            host = request_host(url)
            check_url(url, allow_private=self._allow_private, allowed=self._allowed)
            addresses = await checked_addresses(
                url, host, port, self._allowed, allow_private=self._allow_private
            )
        except FetchRefusedError as refusal:
            shown = host or "a target"
            _log.info("the browser's proxy refused %s:%s: %s", shown, port, refusal.reason)
            if self._on_refusal is not None:
                self._on_refusal(refusal)
            raise _Answered(403, f"refused by the fetcher: {refusal.reason}") from None
        except FetchFailedError as failure:
            self._report_unreached(failure)
            raise _Answered(502, failure.reason) from None
        try:
            async with asyncio.timeout(self._connect_timeout):
                return host, await _connect_any(addresses)
        except (OSError, TimeoutError) as error:
            said = str(error) or type(error).__name__
            reason = f"{host}:{port} did not accept a connection ({said})"
            if connect_unreached(error):  # refused or no route; a timeout may have reached it
                self._report_unreached(FetchFailedError(url, reason, unreached="connect"))
            raise _Answered(502, reason) from None

    def _report_unreached(self, failure: FetchFailedError) -> None:
        """Hand ``failure`` to ``on_unreached`` when it says how no host was reached."""
        if failure.unreached is not None and self._on_unreached is not None:
            self._on_unreached(failure)


def _parse_head(data: bytes) -> _Head:
    """The request line and headers of ``data`` (which ends with the blank line).

    Raises:
        _Answered: ``400`` for anything but a plain HTTP/1.x head: a line folded, a bare
            CR or LF, a header without a name. Nothing malformed is passed on.
    """
    lines = data[:-4].decode("latin-1").split("\r\n")
    words = lines[0].split(" ")
    method, target, version = words if len(words) == 3 else ("", "", "")
    if not _TOKEN.fullmatch(method) or _CONTROL.search(target) or version not in _VERSIONS:
        raise _Answered(400, "a malformed request line")
    headers: list[tuple[str, str]] = []
    for line in lines[1:]:
        name, colon, value = line.partition(":")
        if not colon or not _TOKEN.fullmatch(name) or _FORBIDDEN_IN_VALUE.search(value):
            raise _Answered(400, "a malformed header line")
        headers.append((name, value.strip(" \t")))
    return _Head(method.upper(), target, headers)


_VERSIONS = frozenset({"HTTP/1.0", "HTTP/1.1"})
_DIGITS = re.compile(r"[0-9]{1,18}")
_FORBIDDEN_IN_VALUE = re.compile(r"[\r\n\x00]")
_AMBIGUOUS_AUTHORITY = re.compile(r"[@\\]")
"""Userinfo or a backslash in an absolute-form target: readers disagree on its host."""
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
"""Not in a request target: it is quoted in refusals and in the log."""


def _authority(target: str) -> tuple[str, int]:
    """The host and port of a ``CONNECT`` target (``example.org:443``, ``[::1]:8443``).

    Raises:
        _Answered: ``400`` when it is not exactly a host and a port.
    """
    try:
        parts = urlsplit(f"//{target}")
        port = parts.port
    except ValueError:
        raise _Answered(400, "the CONNECT target is not host:port") from None
    if port is None or not parts.hostname or parts.path or parts.query or "@" in target:
        raise _Answered(400, "the CONNECT target is not host:port")
    return parts.hostname, port


def _tunnel_url(host: str, port: int) -> str:
    """The URL a tunnel's refusal names: the browser says only the host and port."""
    netloc = f"[{host}]" if ":" in host else host
    if port == 80:
        return f"http://{netloc}/"
    return f"https://{netloc}/" if port == 443 else f"https://{netloc}:{port}/"


def _host_header(host: str, port: int) -> str:
    netloc = f"[{host}]" if ":" in host else host
    return netloc if port == 80 else f"{netloc}:{port}"


def _body_length(headers: list[tuple[str, str]]) -> int:
    """The request body's length from ``Content-Length`` (0 without one).

    Raises:
        _Answered: ``501`` for a ``Transfer-Encoding`` (Chromium sends none over HTTP/1.1,
            and a body whose end only a chunk parser knows could hide a second request),
            ``400`` for a ``Content-Length`` that is not one number.
    """
    lengths = {value for name, value in headers if name.lower() == "content-length"}
    if any(name.lower() == "transfer-encoding" for name, _value in headers):
        raise _Answered(501, "a request body with a Transfer-Encoding is not proxied")
    if not lengths:
        return 0
    if len(lengths) > 1 or not _DIGITS.fullmatch(next(iter(lengths))):
        raise _Answered(400, "a malformed Content-Length")
    return int(next(iter(lengths)))


def _origin_request(head: _Head, path: str, query: str, host: str) -> bytes:
    """The request as the server gets it: origin form, own ``Host``, ``Connection: close``."""
    named = {
        token.strip().lower()
        for name, value in head.headers
        if name.lower() == "connection"
        for token in value.split(",")
    }
    kept = [
        f"{name}: {value}\r\n"
        for name, value in head.headers
        if name.lower() not in _HOP_BY_HOP and name.lower() not in named
    ]
    target = urlunsplit(("", "", path, query, ""))
    lines = [f"{head.method} {target} HTTP/1.1\r\n", f"Host: {host}\r\n", *kept]
    return ("".join(lines) + "Connection: close\r\n\r\n").encode("latin-1")


async def _connect_any(
    addresses: list[CheckedAddress],
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """Connect to the first of ``addresses`` that answers (the socket address as checked).

    The socket connects to the ``sockaddr`` that was checked, so nothing resolves the
    name a second time.
    """
    loop = asyncio.get_running_loop()
    error: OSError = OSError("no address")
    for address in addresses:
        sock = socket.socket(address.family, socket.SOCK_STREAM)
        sock.setblocking(False)
        try:
            await loop.sock_connect(sock, address.sockaddr)
        except OSError as failure:
            sock.close()
            error = failure
            continue
        except BaseException:
            sock.close()
            raise
        return await asyncio.open_connection(sock=sock, limit=_CHUNK)
    raise error


async def _copy_exactly(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, length: int
) -> None:
    """Pass on exactly ``length`` bytes (a request body), no more."""
    remaining = length
    while remaining:
        chunk = await reader.read(min(remaining, _CHUNK))
        if not chunk:
            raise asyncio.IncompleteReadError(b"", remaining)
        remaining -= len(chunk)
        writer.write(chunk)
        await writer.drain()
    await writer.drain()


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Copy until ``reader`` ends or either side fails."""
    with contextlib.suppress(OSError):
        while chunk := await reader.read(_CHUNK):
            writer.write(chunk)
            await writer.drain()


async def _drop_until_closed(reader: asyncio.StreamReader) -> None:
    """Read and drop what the browser sends until it closes: never a second request."""
    with contextlib.suppress(OSError):
        while await reader.read(_CHUNK):
            pass


async def _first_of(*steps: Coroutine[Any, Any, object]) -> None:
    """Run ``steps`` together until the first one ends; the others are cancelled."""
    tasks = [asyncio.ensure_future(step) for step in steps]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def _answer(writer: asyncio.StreamWriter, status: int, text: str) -> None:
    """The proxy's own answer: a short text, then the connection closes."""
    body = text.encode("utf-8")
    head = (
        f"HTTP/1.1 {status} {_PHRASES.get(status, 'Error')}\r\n"
        "Content-Type: text/plain; charset=utf-8\r\n"
        f"Content-Length: {len(body)}\r\n"
        "Connection: close\r\n\r\n"
    )
    writer.write(head.encode("ascii") + body)
    await writer.drain()
