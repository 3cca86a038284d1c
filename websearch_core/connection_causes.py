"""What went wrong with a connection, in the words a user (or a model) reads.

The one wording of connection failures, whoever met them: aiohttp (provider requests and
the page fetcher) names them by exception class, headless Chromium by a ``net::ERR_...``
code in Playwright's message. Both map to the same few phrases, then name what they came
from, so a failed search reads alike whichever path each provider took::

    Brave search failed: the connection failed (api.search.brave.com): the host name
        could not be resolved (ClientConnectorDNSError)
    Google browser search failed: the host name could not be resolved
        (net::ERR_NAME_NOT_RESOLVED)

The words are fixed per kind of failure, never the underlying text, which can name a
proxy or carry the whole URL.
"""

import errno
import re
from urllib.parse import urlsplit

from .loopback import is_loopback

__all__ = [
    "connect_refused",
    "connect_unfinished",
    "connect_unreached",
    "connection_cause",
    "connection_failed",
    "lookup_unanswered",
    "navigation_at_loopback",
    "navigation_cause",
    "navigation_unreached",
    "protocol_fault",
    "proxy_refusal",
    "search_failed",
    "search_failed_prefix",
    "sent_through_proxy",
    "undecodable_encoding",
    "unreached_cause",
]

NAME_NOT_RESOLVED = "the host name could not be resolved"
CERTIFICATE_REFUSED = "its TLS certificate was not accepted"
TLS_FAILED = "the TLS handshake failed"
PROXY_UNREACHABLE = "the proxy could not be reached"
NOT_CONNECTED = "could not connect"
CLOSED_BY_SERVER = "the server closed the connection"
FINGERPRINT_MISMATCH = "its certificate fingerprint did not match"
RESET = "the connection was reset"
TIMED_OUT = "the connection timed out"

_CHROMIUM_NET_ERRORS: tuple[tuple[str, str, str | None], ...] = (
    ("ERR_NAME_NOT_RESOLVED", NAME_NOT_RESOLVED, "dns"),
    ("ERR_NAME_RESOLUTION_FAILED", NAME_NOT_RESOLVED, "dns"),
    ("ERR_CERT_", CERTIFICATE_REFUSED, None),
    ("ERR_SSL_", TLS_FAILED, None),
    ("ERR_PROXY_CONNECTION_FAILED", PROXY_UNREACHABLE, "proxy"),
    ("ERR_PROXY_", PROXY_UNREACHABLE, None),
    ("ERR_TUNNEL_CONNECTION_FAILED", PROXY_UNREACHABLE, None),
    ("ERR_CONNECTION_REFUSED", NOT_CONNECTED, "connect"),
    ("ERR_CONNECTION_FAILED", NOT_CONNECTED, None),
    ("ERR_ADDRESS_UNREACHABLE", NOT_CONNECTED, "connect"),
    ("ERR_INTERNET_DISCONNECTED", NOT_CONNECTED, "connect"),
    ("ERR_CONNECTION_CLOSED", CLOSED_BY_SERVER, None),
    ("ERR_EMPTY_RESPONSE", CLOSED_BY_SERVER, None),
    ("ERR_CONNECTION_RESET", RESET, None),
    ("ERR_CONNECTION_TIMED_OUT", TIMED_OUT, None),
    ("ERR_TIMED_OUT", TIMED_OUT, None),
)
"""Chromium's network error codes (``net/base/net_error_list.h``) by name or name prefix:
their words, and how nothing was reached when that is what they say (``dns``, ``connect``
or ``proxy``, as :class:`~websearch_core.errors.HostNotReachedError.cause` has it: a name
that did not resolve, a connection refused, no route or no network at all, a proxy that
could not be reached). A proxy that answered with an error (``ERR_TUNNEL_CONNECTION_FAILED``),
a generic ``ERR_CONNECTION_FAILED``, a reset or a timeout may have reached a host: ``None``."""
_NET_ERROR = re.compile(r"\bnet::(ERR_[A-Z0-9_]+)")
_FAILED_AT = re.compile(r"\bnet::ERR_[A-Z0-9_]+ at (\S+)")
"""Where Playwright names the URL whose load failed, after the code: ``net::ERR_... at URL``."""
_CONTENT_ENCODING = re.compile(r"content-encoding: ([A-Za-z0-9._-]+)", re.IGNORECASE)
_UNFINISHED_DEFLATE = "deflate"
"""aiohttp's whole message for a deflate body whose compressed stream never ended."""
_QUOTED_BYTES = re.compile(r"(?::|(?<![\s:]))\s*+b['\"].*")
"""Where aiohttp's parser starts quoting the bytes it refused (``Bad status line: b'...'``).
Tried only at a colon or at the first of a run of blanks, where the leftmost match starts
anyway: tried at each blank, a long run with no ``b'`` after it was read again from each
(a line of 64,000 spaces: seconds)."""
PROTOCOL_FAULT_LIMIT = 100
_PARSER_WORDS_BY_RELEASE = {"Expected HTTP/": "Bad status line"}
"""The parser's first line as older aiohttp releases word it -> as the newer ones do.

aiohttp 3.11.0's llhttp says only ``Expected HTTP/`` of a status line that is not HTTP;
later releases say ``Bad status line`` first. Read alike, the same fault gives the same
error text on every aiohttp the package accepts."""


def connection_cause(exc: BaseException) -> str:
    """An aiohttp connection failure in words, then the exception's class.

    An unknown kind is named by its class alone.

    Example:
        >>> import aiohttp
        >>> connection_cause(aiohttp.ServerDisconnectedError())
        'the server closed the connection (ServerDisconnectedError)'
    """
    import aiohttp  # the caller met an aiohttp error, so it is loaded already

    causes: tuple[tuple[type[BaseException], str], ...] = (  # the most specific kind first
        (aiohttp.ClientConnectorDNSError, NAME_NOT_RESOLVED),
        (aiohttp.ClientConnectorCertificateError, CERTIFICATE_REFUSED),
        (aiohttp.ClientSSLError, TLS_FAILED),
        (aiohttp.ClientProxyConnectionError, PROXY_UNREACHABLE),
        (aiohttp.ClientConnectorError, NOT_CONNECTED),
        (aiohttp.ServerDisconnectedError, CLOSED_BY_SERVER),
        (aiohttp.ServerFingerprintMismatch, FINGERPRINT_MISMATCH),
        (aiohttp.ClientConnectionResetError, RESET),
    )
    name = type(exc).__name__
    for kind, words in causes:
        if isinstance(exc, kind):
            return f"{words} ({name})"
    return name


def search_failed_prefix(label: str) -> str:
    """``<label> search failed: ``: how every provider's failed search starts its text.

    The reference's stem for the engines (``Ecosia search failed: <msg>``), which is silent on
    the API providers; one stem for both, so one cause reads alike down a listing of them.
    """
    return f"{label} search failed: "


def search_failed(label: str, what: str) -> str:
    """``<label> search failed: <what>``: a transport failure, as every provider words it.

    The one place the transport's failures are worded, keyed or not: the API providers
    said ``Brave connection closed before ...`` or ``Brave sent an invalid HTTP response``
    where the engines said ``Bing search failed: the ...``, so one cause read two ways down
    a listing of both. ``what`` is a clause that reads after the stem (``the response ...``,
    ``it sent ...``); the engines strip the stem and put their own prefix back.

    Example:
        >>> search_failed("Brave", "it sent an invalid HTTP response (x): Bad status line")
        'Brave search failed: it sent an invalid HTTP response (x): Bad status line'
    """
    return f"{search_failed_prefix(label)}{what}"


def connection_failed(label: str, host: str, words: str) -> str:
    """``<label> search failed: the connection failed (<host>): <words>``.

    Every provider's connection that failed, keyed or not: the API providers said ``<label>
    connection failed (...)`` and the engines this, so a first search offline with a key
    listed one cause in two wordings. The engines' texts strip :func:`search_failed_prefix`
    and put their own (``Google browser search failed: ...``) before the rest.

    Example:
        >>> connection_failed("Brave", "api.search.brave.com", "could not connect")
        'Brave search failed: the connection failed (api.search.brave.com): could not connect'
    """
    return search_failed(label, f"the connection failed ({host}): {words}")


_NOT_REACHED_ERRNOS = frozenset({errno.ECONNREFUSED, errno.ENETUNREACH, errno.EHOSTUNREACH})
"""A connection refused, or no route to the host: nothing reached it, nothing was sent."""


def lookup_unanswered(looked_up: str, seconds: str) -> str:
    """A request's time ran out while a host name it needed had no answer from DNS.

    Words of their own, not a timeout's: nothing was sent, so it reads as the name not
    resolved, which it is by the time the user reads it.

    Args:
        looked_up: What was looked up (``the host name``, ``the proxy's host name``).
        seconds: The time the request had, as its timeout is written.

    Example:
        >>> lookup_unanswered("the host name", "3")
        'the host name could not be resolved: no answer from DNS within 3s'
    """
    return f"{looked_up} could not be resolved: no answer from DNS within {seconds}s"


def connect_unfinished(through_proxy: bool, seconds: str) -> str:
    """A request's time ran out while its connection (or the proxy's) was still being opened.

    A connection that hangs is a firewall dropping packets, a network with no way out or
    a proxy that never answers: nothing was sent, so it reads as not connected (or the
    proxy not reached), with the time it had, not as a provider slow to answer.

    Args:
        through_proxy: The connection went to the proxy this machine is set to use.
        seconds: The time the connection had, as its timeout is written.

    Example:
        >>> connect_unfinished(False, "3")
        'could not connect: the connection was not made within 3s'
    """
    words = PROXY_UNREACHABLE if through_proxy else NOT_CONNECTED
    return f"{words}: the connection was not made within {seconds}s"


def sent_through_proxy(source: str | None) -> str:
    """What a timeout of a request sent through a proxy adds: which proxy it went through.

    A plain http request goes to the proxy whole (no ``CONNECT`` first), so a proxy that
    takes it and never answers reads as the provider timing out; naming the proxy (by the
    variable or setting that chose it, never its URL, which may hold a password) points
    at what may be hanging.

    Args:
        source: The variable or setting that named the proxy; ``None`` if not known.

    Example:
        >>> sent_through_proxy("HTTP_PROXY")
        ' (sent through the proxy that HTTP_PROXY names)'
    """
    if source is None:
        return " (sent through a proxy)"
    return f" (sent through the proxy that {source} names)"


def connect_refused(exc: BaseException) -> bool:
    """Whether ``exc`` is a connection refused or without a route, before anything was sent.

    A reset, a timeout or a TLS failure reached (or may have reached) the host, and a
    working network gives those for one provider's outage: only these tell that no host
    was reached, which across every provider asked is this machine's network.

    Example:
        >>> import aiohttp, errno
        >>> from aiohttp.client_reqrep import ConnectionKey
        >>> key = ConnectionKey("h", 80, False, True, None, None, None)
        >>> connect_refused(aiohttp.ClientConnectorError(key, OSError(errno.ECONNREFUSED, "")))
        True
        >>> connect_refused(aiohttp.ClientConnectorError(key, OSError(errno.ECONNRESET, "")))
        False
    """
    import aiohttp  # the caller met an aiohttp error, so it is loaded already

    if not isinstance(exc, aiohttp.ClientConnectorError) or isinstance(exc, aiohttp.ClientSSLError):
        return False
    return exc.os_error.errno in _NOT_REACHED_ERRNOS


def connect_unreached(error: OSError) -> bool:
    """Whether a socket's ``error`` is a connection refused or without a route.

    :func:`connect_refused` reads the same numbers from aiohttp's wrapper; a connection
    made by hand (the browser's egress proxy) meets the bare :class:`OSError`.

    Example:
        >>> import errno
        >>> connect_unreached(ConnectionRefusedError(errno.ECONNREFUSED, "refused"))
        True
        >>> connect_unreached(TimeoutError())
        False
    """
    return error.errno in _NOT_REACHED_ERRNOS


def unreached_cause(exc: BaseException) -> str | None:
    """How an aiohttp failure reached no host: ``dns``, ``proxy`` or ``connect``; else ``None``.

    One reading for a provider's request (its error class,
    :class:`~websearch_core.errors.HostNotReachedError` and its subclasses) and a page
    fetch's (:attr:`~websearch_core.content.errors.FetchFailedError.unreached`), so a
    search and a fetch on the same machine give the same hint for the same failure.

    Example:
        >>> import aiohttp, errno
        >>> from aiohttp.client_reqrep import ConnectionKey
        >>> key = ConnectionKey("h", 80, False, True, None, None, None)
        >>> unreached_cause(aiohttp.ClientConnectorError(key, OSError(errno.ECONNREFUSED, "")))
        'connect'
        >>> unreached_cause(aiohttp.ServerDisconnectedError()) is None
        True
    """
    import aiohttp  # the caller met an aiohttp error, so it is loaded already

    if isinstance(exc, aiohttp.ClientConnectorDNSError):
        return "dns"
    if isinstance(exc, aiohttp.ClientProxyConnectionError):
        return "proxy"
    if connect_refused(exc):
        return "connect"
    return None


def proxy_refusal(exc: BaseException) -> str | None:
    """A proxy's refusal to open a tunnel in words with its status, else ``None``.

    aiohttp raises :class:`aiohttp.ClientHttpProxyError` when a proxy answers ``CONNECT``
    with an error, and words it ``407, message='', url='http://user:pw@proxy:3128'`` when
    the answer has no reason phrase: the proxy's URL with its password. Only the status
    is kept. (It is a ``ClientResponseError``: asked before :func:`protocol_fault`.)

    Example:
        >>> import aiohttp
        >>> proxy_refusal(aiohttp.ClientHttpProxyError(None, (), status=407))
        'the proxy refused the connection (HTTP 407)'
    """
    import aiohttp  # the caller met an aiohttp error, so it is loaded already

    if isinstance(exc, aiohttp.ClientHttpProxyError):
        return f"the proxy refused the connection (HTTP {exc.status})"
    return None


def navigation_cause(message: str) -> str | None:
    """A headless load's network failure in words, then Chromium's code; ``None`` if none.

    Playwright reports a failed navigation as ``Page.goto: net::ERR_NAME_NOT_RESOLVED at
    https://...``; only the code is read. A network code outside the table is named alone
    (still without the URL); a message without one (a crashed page, a closed browser) is
    not a connection failure and gives ``None``.

    Example:
        >>> navigation_cause("Page.goto: net::ERR_CONNECTION_REFUSED at http://127.0.0.1:9/")
        'could not connect (net::ERR_CONNECTION_REFUSED)'
        >>> navigation_cause("Page.goto: net::ERR_ABORTED at https://example.org/")
        'net::ERR_ABORTED'
        >>> navigation_cause("Target page, context or browser has been closed") is None
        True
    """
    found = _NET_ERROR.search(message)
    if found is None:
        return None
    code = found.group(1)
    known = _net_error(code)
    return f"{known[0]} (net::{code})" if known is not None else f"net::{code}"


def navigation_unreached(message: str) -> str | None:
    """How a headless load reached no host (``dns``, ``connect``, ``proxy``), else ``None``.

    Read from Playwright's message as :func:`navigation_cause` reads it, so that Chromium's
    failures are classed as aiohttp's are (:func:`connect_refused`, a DNS error, a proxy
    not reached): across every provider asked, this machine's network.

    Example:
        >>> navigation_unreached("Page.goto: net::ERR_NAME_NOT_RESOLVED at https://x.invalid/")
        'dns'
        >>> navigation_unreached("Page.goto: net::ERR_CONNECTION_RESET at https://example.org/")
    """
    found = _NET_ERROR.search(message)
    known = _net_error(found.group(1)) if found is not None else None
    return known[1] if known is not None else None


def navigation_at_loopback(message: str) -> bool:
    """Whether a headless load refused, or given no route, was to a loopback address.

    The transport marks such a failure of aiohttp's (``HostNotReachedError.loopback``), so
    the hint says nothing listens there instead of sending the user to a firewall; this
    reads the same from Playwright's message, ``Page.goto: net::ERR_CONNECTION_REFUSED at
    http://127.0.0.1:8080/search?q=...``: a ``connect`` code (:func:`navigation_unreached`)
    and the URL after it on this machine. A name not resolved or a proxy not reached says
    nothing of what listens, so is never marked.

    Example:
        >>> navigation_at_loopback("Page.goto: net::ERR_CONNECTION_REFUSED at http://[::1]:9/")
        True
        >>> navigation_at_loopback("Page.goto: net::ERR_CONNECTION_REFUSED at https://x.org/")
        False
    """
    found = _FAILED_AT.search(message)
    if found is None or navigation_unreached(message) != "connect":
        return False
    try:
        host = urlsplit(found.group(1)).hostname
    except ValueError:  # not a URL after all (an unclosed ``[``)
        return False
    return host is not None and is_loopback(host)


def _net_error(code: str) -> tuple[str, str | None] | None:
    """A ``net::`` code's words and unreached cause from the table, ``None`` if not in it."""
    for name, words, unreached in _CHROMIUM_NET_ERRORS:
        if code.startswith(name):
            return words, unreached
    return None


def undecodable_encoding(exc: BaseException) -> str | None:
    """The ``Content-Encoding`` aiohttp could not decode, when that is what ``exc`` says.

    aiohttp reports a body it cannot inflate as ``Can not decode content-encoding: gzip``
    (a broken body), also for an encoding it has no decoder for (``zstandard``), which a
    server sent unasked. A deflate body that ends before its compressed stream does is
    reported in one word, its error's whole ``message``: ``deflate``.

    Example:
        >>> undecodable_encoding(ValueError("Can not decode content-encoding: br"))
        'br'
    """
    found = _CONTENT_ENCODING.search(str(exc))
    if found:
        return found.group(1)
    said = str(getattr(exc, "message", "") or "").strip()
    return said if said == _UNFINISHED_DEFLATE else None


def protocol_fault(exc: BaseException) -> str:
    r"""What aiohttp's HTTP parser refused in a response: the first line of its own words.

    The bytes it quotes after them (which can be anything the server sent) and the URL
    are left out.

    Example:
        >>> protocol_fault(ValueError("Bad status line:\n  Expected HTTP/:\n  b'HELLO'"))
        'Bad status line'
        >>> protocol_fault(ValueError("Expected HTTP/:\n\n  b'HELLO'\n     ^"))
        'Bad status line'
    """
    message = str(getattr(exc, "message", "") or exc).strip()
    first = message.splitlines()[0] if message else ""
    first = _QUOTED_BYTES.sub("", first).rstrip(" :")
    first = _PARSER_WORDS_BY_RELEASE.get(first, first)
    return first[:PROTOCOL_FAULT_LIMIT] or type(exc).__name__
