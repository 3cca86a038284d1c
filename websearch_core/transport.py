"""The aiohttp boundary: the only module that touches sockets or classifies failures.

* :class:`HttpRequest` / :class:`HttpResponse` are plain values, so providers build and
  parse without I/O and tests need no server for parsing.
* :class:`Transport` sends a request with the per-provider timeout and the size cap, applies
  the provider's base-URL override, and translates every aiohttp/asyncio error into the
  :mod:`websearch_core.errors` tree. ``asyncio.CancelledError`` is never caught.
* :func:`raise_for_status` is the one HTTP status classifier every provider uses, so the
  chain's failure texts are the spec's whatever the provider.

aiohttp's public API is all this module uses but for one private read, a caller's session's
own proxy, made in :mod:`websearch_core.session_proxy` (which names the releases it was
checked on) and answered "unreadable" there rather than guessed when aiohttp moves it.
"""

import asyncio
import email.utils
import functools
import logging
import math
import re
import time
from collections.abc import (
    Awaitable,
    Callable,
    Collection,
    Coroutine,
    Iterable,
    Mapping,
    Sequence,
)
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

from .body_buffer import BodyBuffer
from .connection_causes import (
    connect_unfinished,
    connection_cause,
    connection_failed,
    lookup_unanswered,
    protocol_fault,
    proxy_refusal,
    search_failed,
    sent_through_proxy,
    undecodable_encoding,
    unreached_cause,
)
from .deadline import deadline_clause, format_seconds, remaining_budget, timed_out_text
from .errors import (
    AuthorizationError,
    ConfigurationError,
    HostNotFoundError,
    HostNotReachedError,
    ProviderConnectionError,
    ProviderNotConfiguredError,
    ProviderTimeoutError,
    ProviderUnavailableError,
    ProxyUnreachableError,
    QuotaExhaustedError,
    RateLimitedError,
    ResponseParseError,
    ResponseTooLargeError,
    SearchProviderError,
)
from .event_stream_body import after_blank_lines, invalid_json_text, stream_by_first_line
from .json_decode import response_json, without_bom
from .lookup_waits import note_request
from .loopback import is_loopback
from .owner_slots import share_own_slots
from .redaction import masked_password, redact, redactor_for
from .said_once import first_time
from .sent_secret import AUTHORIZATION_CLASH, REMOVE_USER_INFO
from .session_proxy import UNREADABLE, session_proxy
from .sign_in_advice import signless_gateways, signless_gateways_message
from .sign_in_holders import sign_in_holders
from .sign_in_sends import judged_refusal
from .sse import DEFAULT_MAX_EVENT_BYTES, SseError, SseEvent
from .stream_read import StreamRead, is_labelled_stream

if TYPE_CHECKING:
    # aiohttp (with yarl) is ~80 ms to import: it loads when a session first sends, not
    # when a provider, a tool or the CLI imports this module for its values and classifiers.
    import aiohttp
    from yarl import URL

    from .credentials import Credentials
    from .env_proxies import EnvironmentProxies
    from .lookups import PendingLookups

__all__ = [
    "API_RESPONSE",
    "HttpRequest",
    "HttpResponse",
    "SseResponse",
    "Transport",
    "apply_base_url",
    "body_head_text",
    "classify_http_error",
    "connection_cause",
    "error_head",
    "parse_retry_after",
    "raise_for_status",
    "redact",
    "size_text",
    "too_large_message",
]

API_RESPONSE = "API response"
"""What a provider's body is called in the size cap's text unless the caller names it."""

logger = logging.getLogger("websearch_core.transport")
_T = TypeVar("_T")

_QUOTA_BODY = re.compile(r"credits?\s*(?:exhausted|exceeded)|quota|insufficient", re.IGNORECASE)
_PER_SECOND_BODY = re.compile(r"per[\s-]second|requests?\s*/\s*s(?:ec(?:ond)?)?\b", re.IGNORECASE)
_PER_MINUTE_BODY = re.compile(r"per[\s-]minute|requests?\s*/\s*min(?:ute)?\b", re.IGNORECASE)
_QUOTA_CURRENT = re.compile(r"quota_current\W{0,3}(\d{1,18})\b", re.IGNORECASE)
_QUOTA_LIMIT = re.compile(r"quota_limit\W{0,3}(\d{1,18})\b", re.IGNORECASE)
"""Brave's error ``meta`` (``"quota_current":15, "quota_limit":2000``): how much of the
month's quota is used, which a per-second 429 carries too. At most 18 digits: ``int`` refuses
a string of thousands, and no count is that long."""
_EPOCH_THRESHOLD = 1_000_000_000.0
_QUOTA_WINDOW = 86_400.0
_WINDOW_LENGTH = re.compile(r"w=(\d+)")
ERROR_BODY_LIMIT = 8 * 1024
BAD_RESPONSE_STATUS = 502
"""The status of a failure that is the upstream's reply itself (not HTTP, or a body that
cannot be decoded), as a gateway would report it."""
MAX_HINT_SECONDS = 31 * 86_400.0
"""The longest wait a rate-limit or quota hint can impose: a month, the longest quota window."""
MAX_REDIRECTS = 5
_FIRST_ERROR_STATUS = 400
"""The lowest status whose body is an error page, read only up to the cap (:func:`_error_page`)."""
_REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
_JSON_MEDIA = "application/json"
"""The JSON label, whose body's first line may say it is a stream (:func:`_told_by_first_line`)."""
_JSON_OPENERS = frozenset(b"{[")
"""The first bytes of a JSON object or array: a body opening with one is no stream (an SSE
field or comment opens with a letter or ``:``), decided without gathering its first line."""
CREDENTIAL_HEADERS = frozenset(
    {
        "authorization",
        "proxy-authorization",
        "cookie",
        "x-api-key",
        "api-key",
        "x-goog-api-key",
        "x-subscription-token",
    }
)
"""Headers that carry credentials: never sent to an origin other than the configured one."""


@dataclass(frozen=True, slots=True, kw_only=True)
class HttpRequest:
    """One outgoing request, built by a provider without I/O.

    Headers, form and JSON bodies are kept out of ``repr`` because they carry credentials.
    """

    method: str
    url: str
    params: Sequence[tuple[str, str]] = ()
    headers: Mapping[str, str] = field(default_factory=dict, repr=False)
    form: Sequence[tuple[str, str]] | None = field(default=None, repr=False)
    json: Any = field(default=None, repr=False)
    stream: bool = False
    """Read the answer as a server-sent event stream (:meth:`Transport.send_sse`)."""
    stream_end: "Callable[[SseEvent], bool] | None" = field(default=None, repr=False, compare=False)
    """Whether an event closes the stream (:mod:`~websearch_core.stream_ends`): the
    transport stops reading there instead of waiting for the socket to close; ``None``:
    read to the close."""
    fetch_with: "Callable[[Any], Awaitable[HttpResponse]] | None" = field(
        default=None, repr=False, compare=False
    )
    """Another fetcher for this step (headless Chromium), called with the provider context
    instead of the transport; ``None`` for a plain HTTP request."""


@dataclass(frozen=True, slots=True, kw_only=True)
class HttpResponse:
    """A fully read response body with its status, headers and final URL."""

    status: int
    body: bytes
    headers: Mapping[str, str] = field(default_factory=dict)
    url: str = ""

    def as_http(self) -> "HttpResponse":
        """Itself (an :class:`SseResponse` gives its plain form), so either reads the same."""
        return self

    def text(self) -> str:
        """The body decoded as UTF-8, replacing undecodable bytes."""
        return self.body.decode("utf-8", errors="replace")

    def json(self, provider: str, label: str, *, streamed: bool = False) -> Any:
        """The body parsed as JSON, or :class:`ResponseParseError` naming the provider.

        The refusal is ``<label> API returned invalid JSON``; an event stream, which a
        request for one JSON object never asked for, gets that reason after it
        (:func:`~.event_stream_body.invalid_json_text`).

        Args:
            provider: The provider id the error names.
            label: The provider's label, which starts the error text.
            streamed: The request asked for a stream (Codex, Perplexity, reading a body
                that came unparsed): a stream is then no surprise, so none is named.
        """
        try:
            return response_json(self.body)
        except ValueError:
            frame = f"{label} API returned invalid JSON"
            text = (
                frame
                if streamed
                else invalid_json_text(frame, self.header("Content-Type"), self.body)
            )
            raise ResponseParseError(provider, text, 502) from None

    def header(self, name: str) -> str | None:
        """A header value by case-insensitive name."""
        lowered = name.lower()
        for key, value in self.headers.items():
            if key.lower() == lowered:
                return value
        return None


@dataclass(frozen=True, slots=True, kw_only=True)
class SseResponse:
    """A streamed response read to its end: the parsed events plus the raw body.

    ``events`` is empty when the status is not 2xx or the body is not an event stream (by
    its label or its first line);
    the raw ``body`` is kept (within the size cap) so the provider can report errors and
    handle servers that answer a streaming request with plain JSON.
    """

    status: int
    body: bytes
    events: tuple[SseEvent, ...] = ()
    headers: Mapping[str, str] = field(default_factory=dict)
    url: str = ""

    def as_http(self) -> HttpResponse:
        """The same response as an :class:`HttpResponse` (for the status classifier)."""
        return HttpResponse(status=self.status, body=self.body, headers=self.headers, url=self.url)


def apply_base_url(url: str, base_url: str | None) -> str:
    """Swap the scheme, host and port of ``url`` for those of ``base_url``; keep the path.

    A path on ``base_url`` is kept as a prefix, so a gateway mounted under ``/proxy`` works.

    Example:
        >>> apply_base_url("https://api.search.brave.com/res/v1/web/search", "http://127.0.0.1:8080")
        'http://127.0.0.1:8080/res/v1/web/search'
    """
    if not base_url:
        return url
    if "?" in url:  # a query per search: kept out of the cache
        return _swapped_origin(url, base_url)
    return _swapped_endpoint(url, base_url)


def _swapped_origin(url: str, base_url: str) -> str:
    """:func:`apply_base_url` with a base URL set, worked out."""
    target = urlsplit(url)
    base = urlsplit(base_url)
    path = base.path.rstrip("/") + target.path
    return urlunsplit((base.scheme, base.netloc, path, target.query, target.fragment))


@functools.lru_cache(maxsize=128)
def _swapped_endpoint(url: str, base_url: str) -> str:
    """:func:`_swapped_origin` for a URL without a query: a provider's fixed endpoint.

    Every search to a provider with a base URL set asked it again (two splits and a
    join, about 2 us); kept per endpoint, it is one lookup.
    """
    return _swapped_origin(url, base_url)


def parse_retry_after(value: str | None, now: datetime | None = None) -> float | None:
    """Seconds from a ``Retry-After`` header (delta-seconds or an HTTP date), or ``None``.

    Whatever the upstream sends, the result is ``None`` or a number in
    ``[0, MAX_HINT_SECONDS]``: a huge or infinite value is clamped, NaN and garbage are
    ignored, a date in the past is 0.

    Example:
        >>> parse_retry_after("1e300"), parse_retry_after("inf"), parse_retry_after("nan")
        (2678400.0, 2678400.0, None)
    """
    if not value:
        return None
    value = value.strip()
    try:
        return clamp_hint(float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, OverflowError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return clamp_hint((when - (now or datetime.now(UTC))).total_seconds())


def clamp_hint(seconds: float) -> float | None:
    """A wait or reset hint bounded to ``[0, MAX_HINT_SECONDS]``; ``None`` for NaN."""
    if math.isnan(seconds):
        return None
    return min(MAX_HINT_SECONDS, max(0.0, seconds))


def classify_http_error(provider: str, status: int, body: str) -> SearchProviderError | None:
    """The spec's shared classifier: 401, spent credits, 402, 403; else ``None``.

    Args:
        provider: The provider id; the messages use the id (``brave: 401 unauthorized``).
        status: The HTTP status.
        body: The (already truncated) response body.
    """
    # A 401 says it all, whatever its body mentions ("insufficient scope" is no spent quota);
    # otherwise the reference's order: a spent-credit body, then 402, then 403.
    if status == 401:
        return AuthorizationError(provider, f"{provider}: 401 unauthorized", status)
    if _QUOTA_BODY.search(body):
        message = f"{provider}: credits exhausted"
        if status >= 500:  # "insufficient capacity": the server's trouble, not a spent quota
            return ProviderUnavailableError(provider, message, status)
        return QuotaExhaustedError(provider, message, status)
    if status == 402:
        return QuotaExhaustedError(provider, f"{provider}: 402 credits exhausted", status)
    if status == 403:
        return AuthorizationError(provider, f"{provider}: 403 forbidden", status)
    return None


def error_head(response: HttpResponse) -> str:
    r"""The start of an error body as text: only that head is decoded, never the whole body.

    Decoded as the reference's ``fetch`` decodes a body's text (WHATWG's UTF-8 decode):
    undecodable bytes become U+FFFD and a leading byte-order mark is dropped, so a quoted
    body never starts with an invisible mark and a JSON body's message is read from it.

    Example:
        >>> error_head(HttpResponse(status=500, body=b"boom" * 10_000))[-4:], ERROR_BODY_LIMIT
        ('boom', 8192)
        >>> error_head(HttpResponse(status=500, body=b'\xef\xbb\xbf{"error": "x"}'))
        '{"error": "x"}'
    """
    return body_head_text(response.body)[:ERROR_BODY_LIMIT]


def body_head_text(body: bytes) -> str:
    r"""The first ``4 * ERROR_BODY_LIMIT`` bytes of ``body`` as text, as error heads are read.

    The one decode of an error body's head, for the readers that look into it rather than
    quote it (Codex's "model is not supported", SearXNG's HTML error pages): undecodable
    bytes become U+FFFD and a leading byte-order mark is dropped
    (:func:`~websearch_core.json_decode.without_bom`), so what the text starts with is
    what the server wrote. Not cut to :data:`ERROR_BODY_LIMIT` characters: a bot check's
    marker may sit past that in a long page.

    Example:
        >>> body_head_text(b"\xef\xbb\xbf<!DOCTYPE html>")
        '<!DOCTYPE html>'
    """
    return without_bom(body[: ERROR_BODY_LIMIT * 4].decode("utf-8", errors="replace"))


def raise_for_status(provider: str, response: HttpResponse, fallback_message: str) -> None:
    """Raise the right error for a non-2xx response; return for a 2xx one.

    The shared classifier runs first; otherwise ``fallback_message`` (the provider's own
    ``<Label> API error (<status>): <body>`` text) is raised as a rate limit (429, with the
    ``Retry-After`` delay), a transient failure (5xx) or a plain provider error.
    """
    status = response.status
    if 200 <= status < 300:
        return
    body = error_head(response)
    if status == 429:
        _raise_for_rate_limit_headers(provider, response, fallback_message)
    classified = classify_http_error(provider, status, body)
    if classified is not None:
        if status == 429 and isinstance(classified, QuotaExhaustedError):
            header_wait = parse_retry_after(response.header("Retry-After"))
            wait = _short_limit_wait(header_wait, body)
            if wait is not None:  # the spec's text, but a wait of seconds, not a month
                raise RateLimitedError(provider, classified.message, status, retry_after=wait)
            if header_wait is not None:  # a spent quota that says when it comes back
                reset_at = datetime.now(UTC) + timedelta(seconds=header_wait)
                raise QuotaExhaustedError(provider, classified.message, status, reset_at=reset_at)
        raise classified
    if status == 429:
        retry_after = parse_retry_after(response.header("Retry-After"))
        if retry_after is None and _PER_SECOND_BODY.search(body):
            retry_after = 1.0
        raise RateLimitedError(provider, fallback_message, status, retry_after=retry_after)
    if status >= 500:
        raise ProviderUnavailableError(provider, fallback_message, status)
    raise SearchProviderError(provider, fallback_message, status)


def _short_limit_wait(header_wait: float | None, body: str) -> float | None:
    """The wait of a 429 whose body names a quota although only a short limit was hit.

    The reference's classifier reads any 429 mentioning "quota" as spent credits, which
    would skip the provider until next month. Brave's per-second 429 carries its monthly
    ``quota_current``/``quota_limit`` in every error (a gateway may strip its rate-limit
    headers), and other services write "per-second quota". A ``Retry-After`` under an hour,
    a quota not used up, or a per-second or per-minute wording makes it a rate limit.

    Args:
        header_wait: The response's ``Retry-After`` in seconds, if it gave a usable one.
        body: The head of the error body.
    """
    if header_wait is not None and header_wait < _QUOTA_WINDOW / 24:
        return header_wait
    current, limit = _QUOTA_CURRENT.search(body), _QUOTA_LIMIT.search(body)
    if current is not None and limit is not None and int(current[1]) < int(limit[1]):
        return header_wait if header_wait is not None else 1.0
    if header_wait is None and _PER_SECOND_BODY.search(body):
        return 1.0
    if header_wait is None and _PER_MINUTE_BODY.search(body):
        return 60.0
    return None


def _numbers(value: str | None) -> list[float]:
    """Comma-separated finite numbers (``1, 15000``); empty when any part is not one."""
    if not value:
        return []
    numbers: list[float] = []
    for part in value.split(","):
        try:
            number = float(part.split(";")[0].strip())
        except ValueError:
            return []
        if not math.isfinite(number):
            return []
        numbers.append(number)
    return numbers


def _window_lengths(policy: str | None, count: int) -> list[float | None]:
    """Window lengths from ``X-RateLimit-Policy: 1;w=1, 15000;w=2592000`` (Brave's form)."""
    lengths: list[float | None] = [None] * count
    if not policy:
        return lengths
    for index, part in enumerate(policy.split(",")[:count]):
        match = _WINDOW_LENGTH.search(part)
        lengths[index] = float(match.group(1)) if match else None
    return lengths


def _raise_for_rate_limit_headers(provider: str, response: HttpResponse, message: str) -> None:
    """Tell a short rate limit from a spent quota using rate-limit headers, when present.

    Understands single values and Brave's comma lists (one entry per window, e.g. per
    second and per month). A spent window of a day or longer is an exhausted quota until
    its reset; a spent shorter window is a rate limit with that reset as the wait.
    """
    remaining = _numbers(
        response.header("X-RateLimit-Remaining") or response.header("RateLimit-Remaining")
    )
    resets = _numbers(response.header("X-RateLimit-Reset") or response.header("RateLimit-Reset"))
    if not remaining or len(resets) != len(remaining):
        return
    now = datetime.now(UTC).timestamp()
    waits = [
        clamp_hint(reset - now if reset > _EPOCH_THRESHOLD else reset) or 0.0 for reset in resets
    ]
    lengths = _window_lengths(response.header("X-RateLimit-Policy"), len(remaining))
    spent = [index for index, left in enumerate(remaining) if left <= 0]
    if not spent:
        return
    for index in spent:
        window = lengths[index]
        is_quota = (
            window >= _QUOTA_WINDOW if window is not None else waits[index] >= _QUOTA_WINDOW / 24
        )
        if is_quota:
            reset_at = datetime.fromtimestamp(now + waits[index], UTC)
            raise QuotaExhaustedError(provider, message, response.status, reset_at=reset_at)
    wait = max(waits[index] for index in spent)
    header_wait = parse_retry_after(response.header("Retry-After"))
    retry_after = header_wait if header_wait is not None else wait
    raise RateLimitedError(provider, message, response.status, retry_after=retry_after)


def _trustable(ids: Iterable[str]) -> frozenset[str]:
    """``ids`` as the set a transport trusts, after refusing those no sign-in is sent under.

    The settings' rule and words (:func:`~websearch_core.sign_in_advice.signless_gateways`),
    so that a ``Transport`` built with ``sign_in_gateways=["brave"]`` is told what
    ``Settings(sign_in_gateways=["brave"])`` is, rather than trusting it silently.
    """
    given = tuple(dict.fromkeys(ids))  # once each, in the order named
    signless = signless_gateways(given, own_transport=True)
    if signless:
        raise ConfigurationError(f"sign_in_gateways: {signless_gateways_message(signless)}")
    return frozenset(given)


def _shared_instance(transport: "Transport") -> "Transport":
    """The transport whose attributes ``transport`` uses: its owner's, if it is a copy.

    Read with a default: a subclass may set a slot before ``Transport.__init__`` ran.
    """
    return getattr(transport, "_copied_from", None) or transport


class Transport:
    """Sends provider requests over one shared :class:`aiohttp.ClientSession`.

    Every request is bounded by the lesser of its timeout and what remains of the current
    provider attempt (:mod:`websearch_core.deadline`), capped in size, and follows redirects
    itself: at most :data:`MAX_REDIRECTS` hops, http(s) only, and a request that carries
    credentials is never sent on to another origin.

    Args:
        session: The session to use; owned by the caller.
        timeout_seconds: Default per-request timeout.
        max_response_bytes: Default body size cap.
        base_urls: Provider id to origin override.
        secrets: Values to scrub from any error text built from transport errors.
        connect_timeout_seconds: How long opening one connection may take.
        credentials: Whose secrets are scrubbed too, as they are when the text is built
            (a key read for the first time by the request that failed included), and whose
            sign-ins are judged where each request goes. Without them (a transport of your
            own), the sign-ins every ``Credentials`` alive has handed out are judged by the
            same rule (:meth:`_judge_held_anywhere`).
        proxies: The environment's proxies (``HTTP(S)_PROXY``, ``NO_PROXY``), looked at
            before every request so that their credentials are known before one is sent.
            A session that does not trust the environment (the client's own: aiohttp would
            add ``~/.netrc`` logins) is sent through the proxy they name; one that does (a
            caller's) picks the same itself. ``None``: the session's own proxy, if any.
        proxy: The settings' proxy (``WEBSEARCH_PROXY``), which the client's own session is
            sent through in place of the environment's. It is chosen per request, not set on
            the session, so that a loopback endpoint is reached directly (see
            :meth:`_proxy_for`).
        proxy_source: What set ``proxy`` (``WEBSEARCH_PROXY`` or ``the proxy setting``),
            named when it cannot be reached.
        lookups: The host names the session is still looking up (the client's own
            session's resolver): a timeout while the request's host name (or its proxy's)
            had no answer yet is a host not found, not a slow provider. ``None``: every
            timeout is the provider's.
        sign_in_gateways: The ``sign_in_gateways`` setting: the ``base_urls`` ids trusted
            with a stored sign-in. A request carrying a sign-in ``credentials`` handed out
            goes only to a host its sender declares for it (over https), a loopback address,
            or through one of these (:mod:`websearch_core.sign_in_sends`). A context whose
            settings trust any sends through its own copy trusting those too
            (:meth:`trusting`), never through this one; the copy follows what this one
            trusts later (:attr:`sign_in_gateways`), and whatever else is set on it later
            (its attributes are this one's: :attr:`__slots__`). A built-in id no sign-in is sent
            under (``brave``) is refused, as the settings refuse it; a plugin's id is not.

    Raises:
        ConfigurationError: ``sign_in_gateways`` names an id no sign-in is sent under.
    """

    __slots__ = ("__dict__", "__weakref__", "_copied_from", "_judged_by", "_settings_trust")
    """What a context's copy (:meth:`trusting`) holds of its own: whom it copies, its
    settings' ids and their union with the owner's. Everything else lives in the instance
    dictionary, which a copy shares with its owner, so whatever the owner sets later (its
    session, timeouts, size cap, routes, ids, a ``MockTransport``'s handler, an attribute
    of a subclass's) is the copy's as well, and whatever is set through the copy is the
    owner's."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Keep a subclass's own ``__slots__`` on the owner, as its dictionary is shared.

        A copy (:meth:`trusting`) shares the owner's instance dictionary and no slot of a
        subclass's: it held none, so a context holding one failed its search with
        ``AttributeError`` at the first read (a header or session the subclass keeps in
        one), and one set through the copy would have stayed the copy's. Each such slot
        reads and writes the owner's (:func:`~websearch_core.owner_slots.share_own_slots`).
        """
        super().__init_subclass__(**kwargs)
        share_own_slots(cls, _shared_instance)

    def __init__(
        self,
        session: "aiohttp.ClientSession",
        *,
        timeout_seconds: float,
        max_response_bytes: int,
        base_urls: Mapping[str, str] | None = None,
        secrets: Sequence[str] = (),
        connect_timeout_seconds: float | None = None,
        credentials: "Credentials | None" = None,
        proxies: "EnvironmentProxies | None" = None,
        proxy: str | None = None,
        proxy_source: str | None = None,
        lookups: "PendingLookups | None" = None,
        sign_in_gateways: Iterable[str] = (),
    ) -> None:
        self._copied_from: Transport | None = None
        self.session = session
        self._trusted = _trustable(sign_in_gateways)
        self._settings_trust: frozenset[str] = frozenset()
        self._judged_by: tuple[frozenset[str], frozenset[str]] | None = None
        self._lookups = lookups
        self._proxies = proxies
        self._proxy = proxy
        self._proxy_source = proxy_source
        self._routes_proxies = proxies is not None and not getattr(session, "trust_env", False)
        self.default_timeout_seconds = timeout_seconds
        self.connect_timeout_seconds = connect_timeout_seconds
        self.max_response_bytes = max_response_bytes
        self._routes: dict[str, str] = dict(base_urls or {})
        self._credentials = credentials
        self._secrets = tuple(secrets)
        self._aiohttp_timeout: aiohttp.ClientTimeout | None = None

    def __repr__(self) -> str:
        # A gateway's base URL may carry credentials (https://user:pw@gw, https://token@gw).
        shown = {provider: masked_password(url) for provider, url in self.base_urls.items()}
        return f"Transport(timeout_seconds={self.timeout_seconds}, base_urls={shown})"

    @property
    def base_urls(self) -> dict[str, str]:
        """Provider id (or ``route``) to the origin its requests are sent to instead.

        The owner's, on a context's copy too (:meth:`trusting`, which shares the owner's
        attributes): a copy kept the routes of the moment it was made, so after the owner
        set new ones (``transport.base_urls = {...}``) a context holding a copy went on
        sending, sign-ins and all, to a gateway its owner no longer named, trusted under
        the id now naming another URL.
        """
        return self._routes

    @base_urls.setter
    def base_urls(self, routes: dict[str, str]) -> None:
        """Send to ``routes`` from now on: the owner's, through a context's copy as well."""
        self._routes = routes

    @property
    def sign_in_gateways(self) -> frozenset[str]:
        """The ``base_urls`` ids whose URL a request sent through it may carry a sign-in to.

        Those its owner gave it (built with them, :meth:`trust_sign_in_gateways`, or set
        here), as they are now; on a context's copy (:meth:`trusting`), with those of that
        context's settings. A copy kept the ids of the moment it was made: an owner's later
        trust reached the contexts holding the transport itself and not those holding a
        copy, so two contexts built from one transport judged one gateway two ways.
        """
        owners = self._trusted  # the owner's, on a copy too (one attribute dictionary)
        if self._copied_from is None:
            return owners
        judged = self._judged_by
        if judged is None or judged[0] is not owners:  # the owner changed it since
            judged = (owners, owners.union(self._settings_trust))
            self._judged_by = judged
        return judged[1]

    @sign_in_gateways.setter
    def sign_in_gateways(self, ids: Iterable[str]) -> None:
        """Trust exactly ``ids``: the owner's, so every context sending through it follows.

        Set through a context's copy, it is the shared transport's all the same: the copy
        is an implementation detail of the context, and a change made through it and seen
        by that context alone is the split judgement the copy follows its owner to avoid.

        Raises:
            ConfigurationError: An id no sign-in is sent under, as :meth:`__init__` refuses.
        """
        self._trusted = _trustable(ids)

    def trust_sign_in_gateways(self, ids: Iterable[str]) -> None:
        """Trust the URL set under each of ``ids`` with a sign-in, as :attr:`sign_in_gateways`.

        For the transport's owner, who may add ids after building it; every context given
        it sees them, those built before included (their copies read the owner's ids,
        :meth:`trusting`). A context does not call this: it added its settings' ids to the
        shared transport, so that a context whose settings trust no gateway sent a sign-in
        through one another context sharing it trusted.

        Raises:
            ConfigurationError: An id no sign-in is sent under, as :meth:`__init__` refuses.
        """
        trusted = self._trusted
        if not trusted.issuperset(ids):
            self._trusted = trusted.union(_trustable(ids))

    def trusting(self, ids: Collection[str]) -> "Transport":
        """This transport as a context whose settings trust ``ids`` sends through it.

        Each request is judged by the ids of the context that makes it: those the transport
        was given and those its settings trust (the search guard and the request loop judge
        a route by them too, so a transport judging by its own alone refused what they
        allowed). With settings trusting none, the transport is returned as it is;
        otherwise a copy trusting them too, which shares the transport's attribute
        dictionary (:attr:`__slots__`): its session, timeouts, size cap, proxies, routes,
        ids, and anything set on it later, through either. A copy made by
        ``copy.copy`` kept the values of the moment it was made, so a context built before
        the owner replaced its session sent through the old one (its proxy, or closed), and
        read bodies and waited by the old cap and timeout. A copy is made from the
        transport it copies, never from another copy, so a context rebuilt with other
        settings (``dataclasses.replace``) drops the first settings' ids. The copy reads
        its owner's ids whenever it judges, so an id the owner trusts or stops trusting
        later reaches every context alike, those built before included; and a context
        whose settings trust an id goes on trusting it when the owner stops (the context
        was returned the transport itself when it trusted the ids already, and lost them
        with the owner).

        Args:
            ids: The ``sign_in_gateways`` of the context's settings.

        Raises:
            ConfigurationError: An id no sign-in is sent under, as :meth:`__init__` refuses.
        """
        shared = self._copied_from or self
        if not ids:
            return shared
        judged = object.__new__(type(shared))  # of the owner's class (MockTransport's too)
        judged.__dict__ = shared.__dict__
        judged._settings_trust = _trustable(ids)
        judged._judged_by = None
        judged._copied_from = shared
        return judged

    @property
    def timeout_seconds(self) -> float:
        """The time a request may take now: the default, bounded by the attempt's budget."""
        return remaining_budget(self.default_timeout_seconds)

    def resolve_url(self, provider: str, url: str) -> str:
        """``url`` with the base-URL override of ``provider`` (an id of ``base_urls``) applied."""
        return apply_base_url(url, self.base_urls.get(provider))

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
        """Send ``request`` and read the whole body.

        Args:
            provider: The provider id (for the base-URL override and error tagging).
            label: The provider's display label (for messages).
            request: What to send.
            timeout_seconds: Overrides the default timeout for this request.
            max_response_bytes: Overrides the default size cap for this request.
            response_name: What the body is called in the size cap's text (``page`` for an
                HTML engine; see :func:`too_large_message`).
            route: The ``base_urls`` key whose override applies instead of the provider's,
                for a request to a service that is not the provider's (Google's token
                endpoint renewing Gemini's sign-in: ``google_oauth``). Errors still name
                ``provider``.

        Returns:
            The response, whatever its status; status handling is the caller's.

        Raises:
            ProviderTimeoutError: The timeout passed.
            ProviderConnectionError: The connection failed or closed mid-body.
            ResponseTooLargeError: The body passed the size cap.
            ProviderUnavailableError: Any other aiohttp failure.
            ProviderNotConfiguredError: It carries a stored sign-in where none may go
                (:meth:`_judge_sign_ins`); nothing is sent.
            SearchProviderError: A redirect that may not be followed.
        """
        # Every search runs this once, so it is one frame over aiohttp: no async context
        # manager or generator of our own, and no text built for errors that did not
        # happen. The body is read by one coroutine of ours (in place of aiohttp's read()
        # and the stream's) and a redirect costs one more. The time limit is aiohttp's own total
        # timeout, which covers the exchange to the body's last byte: aiohttp keeps a timer
        # context for every request anyway, and an asyncio.timeout of ours around it cost
        # ~12 us a search (in place, benchmarks/RESULTS.md). Each redirect hop gets what is
        # left of it.
        cap = max_response_bytes or self.max_response_bytes
        url = self.resolve_url(route or provider, request.url)
        self._judge_sign_ins(provider, label, request, url, route)
        note_request(url)  # a fan-out's engine cut off while its name had no answer
        timeout = remaining_budget(timeout_seconds or self.default_timeout_seconds)
        expires = time.monotonic() + timeout
        failure: SearchProviderError
        try:
            response = await self._first(provider, label, request, url, _left_until(expires))
            try:
                if response.status in _REDIRECT_STATUSES:
                    response = await self._follow(provider, label, request, url, response, expires)
                # Not aiohttp's read(): it joins the chunks at the end, holding the body
                # twice (see body_buffer). Releasing after the last chunk puts the
                # connection back in the pool, as read() does.
                body = await _read_capped(provider, label, response, cap, response_name)
                response.release()
            except BaseException:
                response.release()
                raise
            return HttpResponse(
                status=response.status,
                body=body,
                headers=dict(response.headers.items()),
                url=str(response.url),
            )
        except _translated() as exc:
            failure = self._failure(provider, label, url, timeout, exc)
        # Raised outside the handler, so it carries no __context__ (see _failure).
        raise failure

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
        """Send ``request`` and read its event stream to the end, within the timeout.

        The whole stream shares one deadline, so a server that stops sending mid-stream
        times out instead of hanging; a stream that ends mid-event is a connection error,
        never half an answer. The read stops at the request's closing event
        (:attr:`HttpRequest.stream_end`); a 2xx body labelled otherwise whose first line is
        an SSE field (a gateway relabelling the stream ``application/json``) is read as the
        stream it is, and stops there too.

        Raises:
            ProviderTimeoutError: The deadline passed before the stream ended.
            ProviderConnectionError: The connection failed, or the stream ended mid-event.
            ResponseTooLargeError: The stream or one event passed its cap.
            ProviderUnavailableError: Any other aiohttp failure.
            ProviderNotConfiguredError: It carries a stored sign-in where none may go.
            SearchProviderError: A redirect that may not be followed.
        """
        cap = max_response_bytes or self.max_response_bytes
        url = self.resolve_url(provider, request.url)
        self._judge_sign_ins(provider, label, request, url, None)
        note_request(url)

        async def read() -> SseResponse:
            response = await self._first(provider, label, request, url, None)
            try:
                if response.status in _REDIRECT_STATUSES:
                    response = await self._follow(provider, label, request, url, response, None)
                events: tuple[SseEvent, ...] = ()
                if not 200 <= response.status < 300:
                    body = await _read_capped(provider, label, response, cap, API_RESPONSE)
                else:
                    _refuse_declared_over(provider, label, response, cap, API_RESPONSE)
                    # Where the stream ends and what it holds is StreamRead's, shared
                    # with MockTransport so a test on either sees the same.
                    read = StreamRead(
                        labelled=is_labelled_stream(response.content_type),
                        cap=cap,
                        too_large=lambda: _too_large(provider, label, cap, API_RESPONSE),
                        stream_end=request.stream_end,
                        max_event_bytes=max_event_bytes,
                    )
                    while not read.ended and (chunk := await response.content.readany()):
                        read.add(chunk)
                    body, events = read.finish(response.status)
            finally:
                response.release()
            return SseResponse(
                status=response.status,
                body=body,
                events=events,
                headers=dict(response.headers.items()),
                url=str(response.url),
            )

        # Streams are rare and long: a coroutine more than send costs nothing here.
        return await self._guarded(provider, label, url, timeout_seconds, read())

    def _judge_sign_ins(
        self, provider: str, label: str, request: HttpRequest, url: str, route: str | None
    ) -> None:
        """Raise before ``request`` goes to ``url`` if it carries a sign-in where none may go.

        The one check on the URL actually sent, whoever built the request: the request
        loop's steps, a provider that sends through the transport itself, or one sent under
        another provider's ``route`` (:mod:`websearch_core.sign_in_sends`). A redirect
        hop to another origin never carries a credential at all (:meth:`_follow`).

        Raises:
            ProviderNotConfiguredError: The refusal, naming the provider, the endpoint's
                origin and the settings that would allow it, never the token.
        """
        credentials = self._credentials
        if credentials is None:
            self._judge_held_anywhere(provider, label, request, url, route)
            return
        if not credentials.sign_ins:
            return  # no sign-in handed out (the usual case): nothing to judge
        refused = judged_refusal(
            request,
            url,
            credentials,
            provider,
            label,
            route,
            self.sign_in_gateways,
            self.base_urls,
        )
        if refused is not None:
            raise ProviderNotConfiguredError(provider, refused)

    def _judge_held_anywhere(
        self, provider: str, label: str, request: HttpRequest, url: str, route: str | None
    ) -> None:
        """:meth:`_judge_sign_ins` for a transport built without credentials (a user's own).

        It was not judged at all, so a plugin sending a sign-in through it reached any host.
        It has no credentials to ask, so it asks every ``Credentials`` alive in the process
        that has handed out a sign-in (:func:`~websearch_core.sign_in_holders.
        sign_in_holders`; none, the usual case, costs one empty test), by the client's rule
        and arguments: the URL set on it under an id its :attr:`sign_in_gateways` name (its
        own, and those of the settings of the context sending through it,
        :meth:`trusting`) is trusted, no other. Stop 43 trusted the URL set on it for
        whatever id a request went under, so a sign-in left for a route the client's
        transport refuses (a Brave proxy set on it).
        Its refusal names its own ``base_urls=`` and ``sign_in_gateways=``, what trusts a
        gateway here, not the settings' base URLs, which it is never given.
        """
        holders = sign_in_holders()
        if not holders:
            return
        for holder in holders:
            if not holder.sign_ins:
                continue
            refused = judged_refusal(
                request,
                url,
                holder,
                provider,
                label,
                route,
                self.sign_in_gateways,
                self.base_urls,
                own_transport=True,
            )
            if refused is not None:
                raise ProviderNotConfiguredError(provider, refused)

    @property
    def judges_sign_ins(self) -> bool:
        """Whether it judges every request it sends that carries a sign-in.

        So when it was built with the client's credentials, which hand them out; the
        request loop judges its steps itself only when not.
        """
        return self._credentials is not None

    def _first(
        self, provider: str, label: str, request: HttpRequest, url: str, total: float | None
    ) -> "Awaitable[aiohttp.ClientResponse]":
        """The request as its provider built it, not yet awaited (so no frame of our own).

        aiohttp copies the headers and encodes the parameters itself, so both go as they are.
        ``total`` bounds the whole exchange (``None``: the caller bounds it).
        """
        form = request.form
        return self.session.request(
            request.method,
            url,
            params=request.params or None,
            headers=request.headers,
            data=list(form) if form is not None else None,
            json=request.json,
            allow_redirects=False,
            timeout=self._client_timeout(total),
            proxy=self._proxy_for(provider, label, url),
        )

    def _proxy_for(self, provider: str, label: str, url: str) -> str | None:
        """The proxy ``url`` goes through when this transport picks it, else ``None``.

        The environment's is asked whether or not the session picks it itself, so that a
        proxy exported since the last request has its credentials known before this one can
        carry them. A loopback host (``localhost``, ``127.0.0.0/8``, ``::1``) is never
        proxied, as Go's and Chromium's proxy rules have it: through a proxy it names the
        proxy's own machine, not this one, and a sign-in sent to a loopback base URL over
        plain http (allowed because it stays on this machine) would reach the proxy in
        clear text.

        A caller's session sends through its own proxy (``ClientSession(proxy=...)``) if it
        has one, else through the environment's if it trusts it, as aiohttp picks them.

        Raises:
            SearchProviderError: A caller's session would send a loopback request through a
                proxy on another machine (aiohttp cannot be told to send it directly).
        """
        proxies = self._proxies
        chosen = proxies.for_url(url) if proxies is not None else None
        if self._proxy is not None:
            chosen = self._proxy
        elif not self._routes_proxies:
            # A caller's session: its own proxy wins, else the environment's if it trusts it.
            own = session_proxy(self.session)
            if own is UNREADABLE:
                _say_proxy_unread(url)
            if isinstance(own, str):
                chosen = own
            elif not getattr(self.session, "trust_env", False):
                chosen = None
            if chosen is not None and _proxied_off_machine(url, chosen):
                raise SearchProviderError(provider, _proxied_loopback_message(label, url, chosen))
            return None
        if chosen is not None and is_loopback(urlsplit(url).hostname or ""):
            return None
        return chosen

    def _proxy_named(self, url: str) -> str | None:
        """The variable or setting that named the proxy ``url`` went through, if known.

        ``None`` for a caller's session with a proxy of its own: no setting of ours chose it.
        """
        if self._proxy is not None:
            return self._proxy_source
        return self._proxies.variable_for(url) if self._proxies is not None else None

    def _client_timeout(self, total: float | None) -> "aiohttp.ClientTimeout":
        """The per-request ``aiohttp.ClientTimeout``: the connect limit, and ``total`` if given.

        ``total`` is never rounded up (aiohttp rounds a long one to the next whole second
        unless told otherwise). Without it the timeout is built once and rebuilt only if
        ``connect_timeout_seconds`` is changed afterwards.
        """
        make = _timeout_class or _load_timeout_class()
        if total is not None:
            return make(
                total=total, sock_connect=self.connect_timeout_seconds, ceil_threshold=_NEVER_CEILED
            )
        timeout = self._aiohttp_timeout
        if timeout is None or timeout.sock_connect != self.connect_timeout_seconds:
            timeout = make(total=None, sock_connect=self.connect_timeout_seconds)
            self._aiohttp_timeout = timeout
        return timeout

    async def _follow(
        self,
        provider: str,
        label: str,
        request: HttpRequest,
        url: str,
        response: "aiohttp.ClientResponse",
        expires: float | None,
    ) -> "aiohttp.ClientResponse":
        """Follow ``response``'s redirects by our rules; the final response, still open.

        aiohttp's own redirect handling strips only ``Authorization`` when the host changes,
        so every other credential header (``X-Subscription-Token``, ``x-api-key``, ...) and a
        307's body would travel on; here nothing credentialed leaves its origin. Every
        response passed over is released before anything is raised. Each hop is bounded by
        what is left until ``expires`` (``time.monotonic()``; ``None``: the caller bounds it).
        """
        from yarl import URL

        asked = URL(url)
        hop = replace(request, url=url, params=())
        for count in range(MAX_REDIRECTS + 1):
            location = response.headers.get("Location")
            if response.status not in _REDIRECT_STATUSES or not location:
                return response
            response.release()
            hop = redirect_hop(
                provider,
                label,
                asked,
                hop,
                response.status,
                location,
                count,
                self._carries_credentials,
            )
            response = await self.session.request(
                hop.method,
                hop.url,
                headers=hop.headers,
                data=hop.form,
                json=hop.json,
                allow_redirects=False,
                timeout=self._client_timeout(None if expires is None else _left_until(expires)),
                proxy=self._proxy_for(provider, label, hop.url),
            )
        raise AssertionError("unreachable: the last hop returns or raises")  # pragma: no cover

    def _carries_credentials(self, headers: Mapping[str, str]) -> bool:
        """Whether a request with ``headers`` holds a credential (by name or by value)."""
        if any(name.lower() in CREDENTIAL_HEADERS for name in headers):
            return True
        redactor = redactor_for(self._known_secrets())
        return any(redactor(value) != value for value in headers.values())

    def masked(self, text: str) -> str:
        """``text`` with every secret this transport knows masked (see :meth:`_known_secrets`).

        For upstream text a provider logs before the core cleans its response (SearXNG's
        unanswered engines): the log line must not carry what the response will not.
        """
        return redactor_for(self._known_secrets())(text)

    def _known_secrets(self) -> tuple[str, ...]:
        """Every secret to scrub now: the given ones and all the credentials handed out.

        A transport built without credentials (a user's own) knows the sign-ins every
        ``Credentials`` alive has handed out (:func:`~websearch_core.sign_in_holders.
        sign_in_holders`), as its judgement does (:meth:`_judge_held_anywhere`). It knew
        its given secrets alone, so a redirect to another origin of a request carrying a
        stored sign-in in a header of its sender's own (``X-Session``) was followed with
        the header (only the known credential headers are dropped), and an error text
        echoing a sign-in was not masked.
        """
        known = self._secrets
        if self._credentials is not None:
            known = (*known, *self._credentials.secrets())
        else:
            for holder in sign_in_holders():  # none, the usual case
                known = (
                    *known,
                    *holder.sign_ins,
                    *holder.refresh_tokens,
                    *holder.given_sign_ins,
                )
        return tuple(sorted(set(known)))

    def _failure(
        self, provider: str, label: str, url: str, timeout: float, exc: BaseException
    ) -> SearchProviderError:
        """The provider error for an aiohttp, asyncio or stream failure.

        The one place where those become provider errors. The error keeps no link to
        aiohttp's exception (whose ``repr`` can hold request headers): callers raise it after
        their ``except`` block, so it has no ``__context__``.
        """
        import aiohttp

        hostless: SearchProviderError | None = self._lookup_unanswered(
            provider, label, url, timeout, exc
        )
        hostless = hostless or self._connect_unfinished(provider, label, url, timeout, exc)
        hostless = hostless or _hostless_failure(provider, label, timeout, exc)
        if isinstance(hostless, ProviderTimeoutError) and self._proxy_for(provider, label, url):
            # Sent whole to the proxy, which may be the one that never answered.
            message = f"{hostless.message}{sent_through_proxy(self._proxy_named(url))}"
            return ProviderTimeoutError(provider, message, None)
        if hostless is not None:
            return hostless
        host = urlsplit(url).netloc.rpartition("@")[2] or "?"  # never the userinfo
        if isinstance(exc, aiohttp.ClientPayloadError | aiohttp.ClientResponseError):
            encoding = undecodable_encoding(exc)
            if encoding is not None:
                message = search_failed(
                    label,
                    f"the response could not be decoded ({host}): its Content-Encoding "
                    f"{encoding} is broken or not supported",
                )
                return ProviderUnavailableError(provider, message, BAD_RESPONSE_STATUS)
        refusal = proxy_refusal(exc)  # a ClientResponseError, but no reply of the provider's
        if refusal is not None:
            return ProviderConnectionError(provider, connection_failed(label, host, refusal))
        if isinstance(exc, aiohttp.ClientPayloadError):
            said = f"the connection closed before the response was complete ({host})"
            message = search_failed(label, said)
            return ProviderConnectionError(provider, message)
        if isinstance(exc, aiohttp.ClientConnectionError):
            return self._connection_failed(provider, label, url, exc)
        if isinstance(exc, aiohttp.ClientResponseError):  # aiohttp's parser refused the reply
            said = f"it sent an invalid HTTP response ({host}): {protocol_fault(exc)}"
            message = search_failed(label, said)
            return ProviderUnavailableError(provider, message, BAD_RESPONSE_STATUS)
        detail = self.masked(str(exc))
        said = f"the request failed ({host}): {type(exc).__name__} {detail}".rstrip()
        message = search_failed(label, said)
        return ProviderUnavailableError(provider, message)

    def _connection_failed(
        self, provider: str, label: str, url: str, exc: BaseException
    ) -> ProviderConnectionError:
        """The error for a connection that failed: which host, and whose failure it says.

        A refusal at a loopback address is marked so (``loopback``): nothing listens where
        a base URL points on this machine, which no firewall explains.
        """
        host = urlsplit(url).netloc.rpartition("@")[2] or "?"  # never the userinfo
        message = connection_failed(label, host, connection_cause(exc))
        failed_as = _connection_failure(exc)
        if failed_as is ProxyUnreachableError:
            return ProxyUnreachableError(provider, message, source=self._proxy_named(url))
        if failed_as is HostNotReachedError:
            loopback = is_loopback(urlsplit(url).hostname or "")
            return HostNotReachedError(provider, message, loopback=loopback)
        return failed_as(provider, message)

    def unanswered_lookup(
        self, provider: str, label: str, urls: Iterable[str], seconds: float
    ) -> HostNotFoundError | None:
        """The error for requests to ``urls`` stopped while a name they need had no answer.

        For a fan-out's engines cut off at its deadline (:mod:`~websearch_core.lookup_waits`):
        as a timeout during the lookup would read (:meth:`_lookup_unanswered`), ``seconds``
        the time they had. ``None`` when every name was resolved, and on a caller's
        session, whose lookups are not known.
        """
        for url in sorted(urls):
            unanswered = self._lookup_unanswered(provider, label, url, seconds, TimeoutError())
            if unanswered is not None:
                return unanswered
        return None

    def cut_off_unsent(
        self, provider: str, label: str, urls: Iterable[str], seconds: float
    ) -> HostNotReachedError | None:
        """The error for a task cut off before its requests to ``urls`` were sent, else ``None``.

        Called by the cut-off task itself (a fan-out's engine at its deadline): a name they
        need had no answer yet (:meth:`unanswered_lookup`), or the task's last connection
        was still being opened (:mod:`~websearch_core.connect_phase`, the client's own
        session only). ``seconds``: the time they had.
        """
        unanswered = self.unanswered_lookup(provider, label, urls, seconds)
        connecting = _cut_off_connecting(self.session) if unanswered is None else None
        if connecting is None:
            return unanswered
        return self._connect_unfinished(provider, label, connecting, seconds, TimeoutError())

    def _lookup_unanswered(
        self, provider: str, label: str, url: str, timeout: float, exc: BaseException
    ) -> HostNotFoundError | None:
        """The error for a timeout that came while the host's name had no answer yet.

        A DNS server that does not answer, not the provider: nothing left this machine, so
        the offline rule decides whether it counts (:mod:`~websearch_core.lookups`).
        ``None`` for any other failure, a session whose lookups are not known (a
        caller's), or a name (and the proxy's, if any) that was resolved.
        """
        lookups = self._lookups
        if lookups is None or not isinstance(exc, TimeoutError):
            return None
        from yarl import URL

        proxy = self._proxy_for(provider, label, url)
        proxy_host = URL(proxy).raw_host if proxy is not None else None
        if lookups.pending(proxy_host):
            looked_up = "the proxy's host name"
        elif proxy is None and lookups.pending(URL(url).raw_host):
            looked_up = "the host name"
        else:
            return None
        host = urlsplit(url).netloc.rpartition("@")[2] or "?"  # never the userinfo
        words = lookup_unanswered(looked_up, format_seconds(timeout)) + deadline_clause()
        return HostNotFoundError(provider, connection_failed(label, host, words))

    def _connect_unfinished(
        self, provider: str, label: str, url: str, timeout: float, exc: BaseException
    ) -> HostNotReachedError | None:
        """The error for a timeout that came while the request's connection was being opened.

        A connection that hangs (packets dropped, a proxy that never answers), not a slow
        provider: nothing was sent, so the offline rule decides whether it counts
        (:mod:`~websearch_core.connect_phase`). aiohttp's ``ConnectionTimeoutError`` (the
        connect timeout ended first) says so on any session; the request's own timeout
        ending first, only the client's own session's connector tells. Through the proxy
        this transport picked, the proxy is what did not answer. ``None`` otherwise.
        """
        import aiohttp

        if isinstance(exc, aiohttp.ConnectionTimeoutError):
            seconds = self.connect_timeout_seconds or timeout
        elif isinstance(exc, TimeoutError) and _cut_off_connecting(self.session) is not None:
            seconds = timeout
        else:
            return None
        proxy = self._proxy_for(provider, label, url)
        host = urlsplit(url).netloc.rpartition("@")[2] or "?"  # never the userinfo
        words = connect_unfinished(proxy is not None, format_seconds(seconds))
        message = connection_failed(label, host, f"{words}{deadline_clause()}")
        if proxy is not None:
            return ProxyUnreachableError(provider, message, source=self._proxy_named(url))
        return HostNotReachedError(provider, message)

    async def _guarded(
        self,
        provider: str,
        label: str,
        url: str,
        timeout_seconds: float | None,
        work: Coroutine[Any, Any, _T],
    ) -> _T:
        """Await ``work`` within the timeout, its failures translated as :meth:`send` does.

        For :meth:`send_sse`, and for transports that answer some other way
        (:class:`~websearch_core.testing.mock_transport.MockTransport`) and must fail
        exactly as this one does; :meth:`send` spells it out to save a coroutine a search,
        and hands its time limit to aiohttp.
        """
        timeout = remaining_budget(timeout_seconds or self.default_timeout_seconds)
        failure: SearchProviderError
        try:
            async with asyncio.timeout(timeout):
                return await work
        except _translated() as exc:
            failure = self._failure(provider, label, url, timeout, exc)
        raise failure


def _cut_off_connecting(session: "aiohttp.ClientSession") -> str | None:
    """The URL of this task's last request on ``session`` if it ended opening its connection.

    Imported here, on a timeout only: the module needs aiohttp, which a transport given a
    session has loaded already.
    """
    from .connect_phase import cut_off_connecting

    return cut_off_connecting(session)


def _connection_failure(exc: BaseException) -> type[ProviderConnectionError]:
    """The error class of a connection failure: what it says of whose failure it was.

    A name that did not resolve, a proxy that could not be reached, and a connection
    refused or without a route reached no provider: alike across every provider asked,
    they are this machine's network (:mod:`~websearch_core.orchestration.offline`).
    """
    return _UNREACHED_ERRORS.get(unreached_cause(exc), ProviderConnectionError)


_UNREACHED_ERRORS: dict[str | None, type[ProviderConnectionError]] = {
    "dns": HostNotFoundError,
    "proxy": ProxyUnreachableError,
    "connect": HostNotReachedError,
}
"""The error class of each way a request reached no host (:func:`unreached_cause`)."""


def _hostless_failure(
    provider: str, label: str, timeout: float, exc: BaseException
) -> SearchProviderError | None:
    """The error for a timeout, a broken stream or a request never sent; else ``None``."""
    if isinstance(exc, TimeoutError):
        message = timed_out_text(label, timeout)
        return ProviderTimeoutError(provider, message, None)
    if isinstance(exc, SseError):
        if exc.too_large:
            message = search_failed(label, f"a stream event was {exc}")
            return ResponseTooLargeError(provider, message, 500)
        return ProviderConnectionError(provider, search_failed(label, f"the {exc}"))
    if isinstance(exc, ValueError) and _HEADER_CONTROL_CHARACTER in str(exc):
        # Nothing was sent, and the same configuration fails the same way: no mark.
        message = _not_sent(
            label,
            "a header value holds a line break or another control character; check the "
            "provider's API key for a pasted newline",
        )
        return SearchProviderError(provider, message, None)
    if isinstance(exc, ValueError) and _AUTHORIZATION_TWICE in str(exc):
        # The credential check says it before a request for what the providers declare;
        # this is for anything it did not foresee.
        clash = AUTHORIZATION_CLASH.format(what="its credential", advice=REMOVE_USER_INFO)
        message = _not_sent(label, f"the user name in its base URL {clash}")
        return SearchProviderError(provider, message, None)
    return None


def _not_sent(label: str, why: str) -> str:
    """``<Label> search failed: the request was not sent: <why>``.

    The transport refuses to send a request it knows will fail or leak (a header with a
    line break, a user name beside a bearer key, a caller's session proxying a loopback
    request). These said ``<Label> request was not sent: ...`` where every other transport
    failure says :func:`~websearch_core.connection_causes.search_failed`'s stem, so one
    listing read two ways; the engines strip the stem, so theirs read as before.

    Example:
        >>> _not_sent("Brave", "why")
        'Brave search failed: the request was not sent: why'
    """
    return search_failed(label, f"the request was not sent: {why}")


def _redirected_too_often(label: str) -> str:
    """``<Label> search failed: the request was redirected more than <N> times``.

    Worded with the stem of every transport failure (it said ``<Label> redirected more
    than <N> times``), so a loop of redirects reads as a failed search, as a reset does.

    Example:
        >>> _redirected_too_often("Brave")
        'Brave search failed: the request was redirected more than 5 times'
    """
    return search_failed(label, f"the request was redirected more than {MAX_REDIRECTS} times")


_HEADER_CONTROL_CHARACTER = "control character detected in headers"
"""How aiohttp words its refusal of a header value with CR, LF, NUL or another control."""
_AUTHORIZATION_TWICE = "Cannot combine AUTHORIZATION header"
"""How aiohttp refuses a URL with user info (its ``Basic``) beside an ``Authorization``
header: a gateway URL ``https://user:pw@gw`` for a provider whose key is a bearer token."""


# aiohttp's ClientTimeout once the first request has loaded aiohttp (see _load_timeout_class).
_timeout_class: "type[aiohttp.ClientTimeout] | None" = None

# A ceil threshold no total reaches: aiohttp rounds a total over it up to the next second.
_NEVER_CEILED = math.inf


def _load_timeout_class() -> "type[aiohttp.ClientTimeout]":
    """The ``aiohttp.ClientTimeout`` class, imported on the first request and kept for the rest.

    Every request builds one (its total is what is left of the deadline, new each time),
    and an ``import aiohttp`` statement run each time to reach the class was ~1.6% of a
    send's samples in place; the module itself still loads only when a session first sends.
    """
    global _timeout_class
    import aiohttp

    _timeout_class = aiohttp.ClientTimeout
    return _timeout_class


def _left_until(expires: float) -> float:
    """Seconds left until ``expires`` (``time.monotonic()``); ``TimeoutError`` if none are.

    aiohttp takes a total timeout of zero as no timeout at all, so a spent budget fails
    here, before anything is sent.
    """
    left = expires - time.monotonic()
    if left <= 0:
        raise TimeoutError
    return left


def _say_proxy_unread(url: str) -> None:
    """Say once that a loopback request of a caller's session was sent without the check.

    The aiohttp in use keeps the session's own proxy where :mod:`websearch_core.session_proxy`
    cannot read it, so whether the request goes through a proxy on another machine is not
    known; it is sent as the session sends it, as aiohttp itself would.
    """
    if not is_loopback(urlsplit(url).hostname or "") or not first_time(("unread proxy",)):
        return
    import aiohttp

    logger.warning(
        "WebSearch could not read the proxy of the HTTP session it was given (aiohttp %s "
        "keeps it where WebSearch does not look): a request to the loopback address %s is "
        "sent as that session sends it, through that proxy if it has one; let WebSearch "
        "open its own session to have loopback addresses reached directly",
        aiohttp.__version__,
        urlsplit(url).hostname,
    )


def _proxied_off_machine(url: str, proxy: str) -> bool:
    """Whether a request to loopback ``url`` would go through ``proxy`` on another machine."""
    if not is_loopback(urlsplit(url).hostname or ""):
        return False
    try:
        proxy_host = urlsplit(proxy).hostname or ""
    except ValueError:
        return True
    return not is_loopback(proxy_host)


def _proxied_loopback_message(label: str, url: str, proxy: object) -> str:
    """Why a caller's session may not send a loopback request: its origins, no user info."""
    target = urlsplit(url)
    try:
        through = urlsplit(str(proxy))
        shown = f"{through.scheme}://{through.hostname}"
        shown += f":{through.port}" if through.port is not None else ""
    except ValueError:
        shown = "a proxy"
    named = target.hostname or ""
    return _not_sent(
        label,
        f"the HTTP session given to WebSearch would send it to the loopback address {named} "
        f"through the proxy {shown}, which would receive its credentials and reach its own "
        f"machine, not this one; add {named} to NO_PROXY or give WebSearch a session "
        "without that proxy",
    )


def _translated() -> tuple[type[BaseException], ...]:
    """What a send turns into provider errors; evaluated only when something was raised.

    (An ``except`` clause's expression runs only for an exception in flight, so the usual
    path neither imports aiohttp nor builds this tuple.)
    """
    import aiohttp

    # ValueError: aiohttp refuses a header holding a control character before sending.
    return (TimeoutError, SseError, aiohttp.ClientError, ValueError)


async def _read_capped(
    provider: str, label: str, response: "aiohttp.ClientResponse", cap: int, name: str
) -> bytes:
    """The body as it arrives, in one buffer, failing as soon as it passes ``cap`` bytes.

    An error status's body is cut at the cap instead (:func:`_error_page`). A 2xx body
    labelled ``text/event-stream`` or JSON, or sent to a request that asked for JSON only,
    whose first line is an SSE field is read only up to that line (:func:`_unasked_stream`).
    """
    if is_error_page(response.status):
        return await _error_page(response, cap)
    _refuse_declared_over(provider, label, response, cap, name)
    content = response.content
    gathered = BodyBuffer()
    head = b"" if told_by_first_line(response.content_type, response.request_info.headers) else None
    while chunk := await content.readany():
        gathered.add(chunk)
        if gathered.size > cap:
            raise _too_large(provider, label, cap, name)
        if head is not None:
            head, told = _unasked_stream(head, chunk)
            if told:
                break
    return gathered.take()


@functools.lru_cache(maxsize=64)
def _told_by_first_line(content_type: str | None) -> bool:
    """Whether a body under this label is judged a stream by its first line, and cut there.

    A stream label, and a JSON one (``application/json``, a ``+json`` type): a gateway
    that streams and relabels the stream JSON, then holds the socket, left the search
    waiting for the deadline. No JSON text starts with an SSE field or comment, so a JSON
    body is never cut. Any other label (a page) is read whole, as it may say anything.
    Cached: a provider sends the same few labels on every search, and splitting and
    lowering one cost ~0.5 us a search.
    """
    media = (content_type or "").split(";", 1)[0].strip().lower()
    return is_labelled_stream(media) or media == _JSON_MEDIA or media.endswith("+json")


def told_by_first_line(content_type: str | None, sent: Mapping[str, str]) -> bool:
    """Whether a body is judged a stream by its first line: by its label, or by the ask.

    The label decides first (:func:`_told_by_first_line`). Any other label is a page,
    read whole, unless the request's ``Accept`` (``sent``: the headers it went with)
    asked for JSON and nothing else (:func:`_asks_json_only`): a stream sent with no
    label, or as ``text/plain``, to such a request and held open waited for the close.
    Such a request has no page to cut: its server was told only JSON is read, and its
    reader refuses whatever is not JSON, a stream by its first line. Shared with
    :class:`~.testing.mock_transport.MockTransport` (not in ``__all__``).

    Examples:
        >>> told_by_first_line("text/plain", {"Accept": "application/json"})
        True
        >>> told_by_first_line("text/plain", {"Accept": "text/html,*/*;q=0.8"})
        False
    """
    return _told_by_first_line(content_type) or _asks_json_only(_header_sent(sent, "Accept"))


def _asks_json_only(accept: str | None) -> bool:
    """Whether an ``Accept`` value names JSON types and nothing else (no ``*/*``).

    Examples:
        >>> _asks_json_only("application/json"), _asks_json_only("application/json, */*")
        (True, False)
        >>> _asks_json_only("application/problem+json;q=0.9"), _asks_json_only(None)
        (True, False)
    """
    if not accept:
        return False
    for asked in accept.split(","):
        media = asked.split(";", 1)[0].strip().lower()
        if media != _JSON_MEDIA and not media.endswith("+json"):
            return False
    return True


def _header_sent(headers: Mapping[str, str], name: str) -> str | None:
    """A header of a request by name, whatever its case (aiohttp's are case-blind already).

    aiohttp's headers (a multidict, told by its ``getall``; not imported here, as aiohttp
    is not) answer in one lookup; only a plain mapping (a
    :class:`~.testing.mock_transport.MockTransport` request's) is scanned when its
    spelling differs: scanned every time, a request with no ``Accept`` paid ~3 us.
    """
    value = headers.get(name)
    if value is None and not hasattr(headers, "getall"):
        lowered = name.lower()
        value = next((v for k, v in headers.items() if k.lower() == lowered), None)
    return value


def _unasked_stream(head: bytes, chunk: bytes) -> tuple[bytes | None, bool]:
    """The head gathered so far and whether it says a stream, for a read of one body.

    :meth:`Transport.send` serves requests that asked for one JSON object (or a page);
    every reader of one refuses an event stream by its first line, unread
    (:func:`~.event_stream_body.invalid_json_text`). Anthropic's and xAI's real streams
    (a gateway streaming for them) served and then held open were read on to the close:
    the search waited for the deadline and failed as timed out, though its refusal was
    known at the first line. Read stops there now; the connection, released unread, is
    closed rather than pooled. A JSON body under the label (a server ignoring the label)
    is no stream by its first line, and is read whole as before. A JSON label is judged
    alike (:func:`_told_by_first_line`); a JSON body starting ``{`` or ``[`` is decided
    by that byte, its first read neither copied nor searched.

    Returns:
        The head (blank lines dropped) while its first line is unsaid, ``None`` once it
        said the body is no stream; and whether it said it is one.
    """
    if not head and chunk[0] in _JSON_OPENERS:
        return None, False  # a JSON body's first read: no stream opens so (~1.5 us kept)
    head = after_blank_lines(head + chunk)
    told = stream_by_first_line(head)
    return (head if told is None else None), bool(told)


def is_error_page(status: int) -> bool:
    """Whether a reply's body is an error page, cut at the size cap rather than refused.

    One rule for both transports: :class:`~.testing.mock_transport.MockTransport` refused
    a handler's error page past the cap as too large, where this one quotes its head and
    keeps what the status says (a 429's wait), so a test on it saw another failure.
    """
    return status >= _FIRST_ERROR_STATUS


async def _error_page(response: "aiohttp.ClientResponse", cap: int) -> bytes:
    """An error status's body up to ``cap`` bytes; the rest is left unread.

    Only the head of an error body is ever quoted (:func:`error_head`), so one past the cap
    is cut there, not refused: refusing it would put "response exceeded" where the status
    belongs, and lose what the status says (a 429's wait, a 401's sign-in advice, a 5xx's
    outage). Released unread, the connection is closed rather than pooled.
    """
    content = response.content
    gathered = BodyBuffer()
    while gathered.size < cap and (chunk := await content.readany()):
        gathered.add(chunk)
    body = gathered.take()
    return body if len(body) <= cap else body[:cap]


def _refuse_declared_over(
    provider: str, label: str, response: "aiohttp.ClientResponse", cap: int, name: str
) -> None:
    """Fail before reading a body whose declared length is over ``cap``."""
    declared = response.content_length
    if declared is not None and declared > cap:
        raise _too_large(provider, label, cap, name)


def _too_large(provider: str, label: str, cap: int, name: str) -> ResponseTooLargeError:
    return ResponseTooLargeError(provider, too_large_message(label, name, cap), 500)


def too_large_message(label: str, response_name: str, cap: int) -> str:
    """The one text of a body past its size cap: ``Brave API response exceeded 2 MiB``.

    The behaviour reference words Brave's cap so, the way :meth:`HttpResponse.json` words
    ``Brave API returned invalid JSON``; every JSON API provider reads alike. An HTML
    engine serves pages, not an API: its ``response_name`` is ``page`` (``Bing page
    exceeded 2 MiB``), and a page rendered in headless Chromium is a ``rendered page``.

    Example:
        >>> too_large_message("Brave", API_RESPONSE, 2 * 1024 * 1024)
        'Brave API response exceeded 2 MiB'
    """
    return f"{label} {response_name} exceeded {size_text(cap)}"


def _origin(url: "URL") -> tuple[str, str, int | None]:
    return (url.scheme.lower(), (url.host or "").lower(), url.port)


def _host_of(url: "URL") -> str:
    return url.raw_authority.rpartition("@")[2] or "?"


def _cross_origin_message(label: str, asked: "URL", target: "URL") -> str:
    """Why a redirect was not followed, naming both ends so that they read apart.

    Hosts name them, unless the two share a host (a redirect from ``http`` to ``https``,
    as gateways answer a base URL written with the wrong scheme): then the schemes are
    spelled too, with the base URL that would work.
    """
    there, here = _host_of(target), _host_of(asked)
    hint = ""
    if there == here:
        there, here = f"{target.scheme}://{there}", f"{asked.scheme}://{here}"
        if (asked.scheme, target.scheme) == ("http", "https"):
            hint = f"; if {there} is the service, configure the base URL with https"
    return search_failed(
        label,
        f"the request was redirected to another origin ({there}); not followed, so "
        f"credentials and the request body stay with {here}{hint}",
    )


def redirect_hop(
    provider: str,
    label: str,
    asked: "URL",
    hop: HttpRequest,
    status: int,
    location: str,
    count: int,
    carries_credentials: Callable[[Mapping[str, str]], bool],
) -> HttpRequest:
    """The request a redirect leads to by our rules, or the error that refuses it.

    One place for both transports (:meth:`Transport._follow` over aiohttp and
    :class:`~.testing.mock_transport.MockTransport`), so a test on either follows a
    redirect alike: at most :data:`MAX_REDIRECTS` hops; a 303, or a 301/302 to a POST, is
    a GET without the body, as browsers send it; and a request that carries a body or a
    credential is never sent to another origin than ``asked`` (the first URL), while one
    that carries neither goes there without the known credential headers. Not in
    ``__all__``.

    Args:
        provider: The provider id the errors are tagged with.
        label: The provider's label, for the texts.
        asked: The URL first requested, whose origin the request belongs to.
        hop: The request that was answered with the redirect (its ``url`` as sent,
            parameters included).
        status: The redirect's status.
        location: Its ``Location`` header.
        count: How many redirects were followed before this one.
        carries_credentials: Whether headers hold a credential (the transport's secrets).

    Raises:
        SearchProviderError: Past :data:`MAX_REDIRECTS`, to an invalid or non-http(s)
            location, or to another origin with a body or a credential.
    """
    from yarl import URL

    if count == MAX_REDIRECTS:
        raise SearchProviderError(provider, _redirected_too_often(label), status)
    target = _redirect_target(provider, label, URL(hop.url), location, status)
    method, headers, form, body_json = hop.method, dict(hop.headers), hop.form, hop.json
    if status == 303 or (status in (301, 302) and method == "POST"):
        # As browsers do: the next request is a GET without the body.
        method, form, body_json = "GET", None, None
        headers = {k: v for k, v in headers.items() if k.lower() != "content-type"}
    if _origin(target) != _origin(asked):
        if form is not None or body_json is not None or carries_credentials(headers):
            raise SearchProviderError(provider, _cross_origin_message(label, asked, target), status)
        headers = {k: v for k, v in headers.items() if k.lower() not in CREDENTIAL_HEADERS}
    form = list(form) if form is not None else None
    return replace(
        hop, method=method, url=str(target), params=(), headers=headers, form=form, json=body_json
    )


def _redirect_target(
    provider: str, label: str, current: "URL", location: str, status: int
) -> "URL":
    """Where a ``Location`` header points, or an error for a scheme we never follow."""
    from yarl import URL

    try:
        target = current.join(URL(location))
    except ValueError:
        message = search_failed(label, "the request was redirected to an invalid location")
        raise SearchProviderError(provider, message, status) from None
    if target.scheme.lower() not in ("http", "https") or not target.host:
        scheme = target.scheme or "relative"
        said = f"the request was redirected to a {scheme}: location; not followed"
        raise SearchProviderError(provider, search_failed(label, said), status)
    return target


def size_text(limit: int) -> str:
    """A size cap as people write it: ``2 MiB``, ``64 KiB``, else ``<n> bytes``."""
    if limit % (1024 * 1024) == 0:
        return f"{limit // (1024 * 1024)} MiB"
    if limit % 1024 == 0:
        return f"{limit // 1024} KiB"
    return f"{limit} bytes"
