"""What the JSON API provider modules have in common, written once.

Each helper here stood, with the same logic, in two or more provider modules: deriving
``honours`` from the filters a provider sends; reading an optional string, an ``http(s)``
URL or a JSON error envelope; Google's ``tbs`` recency codes; a self-hosted URL override;
and turning a failure that a 2xx body reports (with an HTTP-like code) into the error that
status would raise. All of it is pure.
"""

from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final
from urllib.parse import urlsplit

from ..errors import ConfigurationError, SearchProviderError
from ..filters import FilterSupport
from ..js_trim import trim
from ..json_decode import decoded_json
from ..models import Recency
from ..redaction import userinfo_cut_short
from ..transport import HttpResponse, raise_for_status
from ._common import first_items, is_http_url

__all__ = [
    "COUNT_FIELDS",
    "GOOGLE_TBS_RECENCY",
    "error_for_status",
    "first_env",
    "honours",
    "http_url",
    "item_url",
    "json_object",
    "list_or_empty",
    "text_or_none",
    "url_override",
]

COUNT_FIELDS: Final = frozenset({"query", "limit", "num_search_results"})
"""The fields every provider sends: the query and how many results are wanted."""

GOOGLE_TBS_RECENCY: Final[Mapping[Recency, str]] = {
    "day": "qdr:d",
    "week": "qdr:w",
    "month": "qdr:m",
    "year": "qdr:y",
}
"""Google's ``tbs`` past-period codes, which Google-backed APIs (Serper, Firecrawl) take."""


def honours(filters: FilterSupport, *extra: str) -> frozenset[str]:
    """The ``SearchParams`` fields a provider sends upstream, derived from its filters.

    A native filter is by definition a field sent upstream, so stating the two lists
    separately in every ``ProviderInfo`` only gave them room to drift apart.

    Args:
        filters: The provider's filter support; its ``native`` filters are sent.
        extra: Other fields it sends (``max_tokens``, ``temperature``).

    Example:
        >>> sorted(honours(FilterSupport(native=frozenset({"recency"})), "temperature"))
        ['limit', 'num_search_results', 'query', 'recency', 'temperature']
    """
    return COUNT_FIELDS | filters.native | frozenset(extra)


def text_or_none(value: Any) -> str | None:
    """``value`` trimmed when it is a non-blank string, else ``None`` (JSON fields vary).

    Example:
        >>> text_or_none("  a b "), text_or_none("  "), text_or_none(3)
        ('a b', None, None)
    """
    if not isinstance(value, str):
        return None
    return trim(value) or None


def list_or_empty(value: Any) -> list[Any]:
    """``value``'s first entries when it is a JSON array (see ``first_items``), else ``[]``.

    A field documented as an array can arrive as a number, ``true`` or an object; iterating
    ``value or ()`` would raise ``TypeError`` on a number (past every parse-error handler,
    ending the search instead of failing over), and walk an object's keys or a string's
    characters as if they were items. An array of thousands is read up to the bound.

    Example:
        >>> list_or_empty([1, 2]), list_or_empty(7), list_or_empty({"a": 1}), list_or_empty(None)
        ([1, 2], [], [], [])
    """
    return first_items(value) if isinstance(value, list) else []


def json_object(text: str) -> Mapping[str, Any] | None:
    """``text`` decoded when it is a JSON object, else ``None``.

    Error bodies vary (an envelope, a bare string, an HTML page), so every reader of one
    starts here. ``text`` is an error's head, decoded with its one byte-order mark
    dropped, so a mark left is refused (:func:`~websearch_core.json_decode.decoded_json`).

    Example:
        >>> json_object('{"error": "x"}'), json_object("[1]"), json_object("<html>")
        ({'error': 'x'}, None, None)
    """
    try:
        data = decoded_json(text)
    except ValueError:
        return None
    return data if isinstance(data, Mapping) else None


def http_url(value: Any) -> str | None:
    """``value`` trimmed when it is an absolute ``http(s)`` URL with a host, else ``None``.

    Trimmed by the one field rule (:func:`~websearch_core.js_trim.trim`), as the spec's
    ``url.trim()`` and the other parsers' URL readers trim: ``str.strip`` kept a BOM at
    the ends, and the URL check then dropped the whole result.

    Example:
        >>> http_url(" https://a.example/x "), http_url("ftp://a.example"), http_url(None)
        ('https://a.example/x', None, None)
        >>> http_url("\ufeffhttps://a.example/x\ufeff")
        'https://a.example/x'
    """
    url = trim(value) if isinstance(value, str) else ""
    return url if is_http_url(url) else None


def item_url(item: Any) -> str | None:
    """A result item's ``url``, trimmed, when the item is an object and the URL ``http(s)``.

    Every JSON API parser skips an item without one, so this is how they all start.

    Example:
        >>> item_url({"url": " https://a.example "}), item_url({"url": "/x"}), item_url([1])
        ('https://a.example', None, None)
    """
    return http_url(item.get("url")) if isinstance(item, Mapping) else None


def first_env(env: Callable[[str], str | None], names: Iterable[str]) -> str | None:
    """The first of ``names`` whose value is not blank, trimmed, or ``None``.

    Args:
        env: Reads one variable (``context.credentials.env``), so a provider sees the
            environment its key lookup sees, never ``os.environ`` directly.
        names: The variables, in precedence order.
    """
    for name in names:
        value = (env(name) or "").strip()
        if value:
            return value
    return None


def url_override(value: str, what: str) -> str:
    """``value`` checked as a configured endpoint: ``http(s)``, a host, no user info.

    Credentials in a configured URL would be sent to every request and echoed in errors,
    so they are refused rather than used; so is an ``@`` after the host, where a token
    with an unencoded ``/`` puts it (:func:`userinfo_cut_short`).

    Args:
        value: The configured URL, already trimmed.
        what: Names it in the error (``Firecrawl base URL``).

    Raises:
        ConfigurationError: ``Invalid <what>: expected an HTTP or HTTPS URL`` or
            ``Invalid <what>: URL credentials are not allowed``.
    """
    if not is_http_url(value):
        raise ConfigurationError(f"Invalid {what}: expected an HTTP or HTTPS URL")
    if "@" in urlsplit(value).netloc or userinfo_cut_short(value):
        raise ConfigurationError(f"Invalid {what}: URL credentials are not allowed")
    return value


def error_for_status(
    provider: str, status: int, response: HttpResponse, message: str
) -> SearchProviderError:
    """The error a response with ``status`` would raise, for a failure a 2xx body reports.

    Jina and Kagi answer some failures with 200 and an HTTP status inside the body; typing
    them by that status (401 authorization, 429 rate limit, 402 spent credits) lets the
    chain treat them as it treats the same status on the wire.

    Args:
        provider: The provider id.
        status: The HTTP status the body names (400-599).
        response: The 2xx response, whose body and headers the classifier reads.
        message: The error text when the shared classifier has none of its own.
    """
    named = HttpResponse(status=status, body=response.body, headers=response.headers)
    try:
        raise_for_status(provider, named, message)
    except SearchProviderError as error:
        return error
    return SearchProviderError(provider, message, status)
