"""The SearXNG request, as pure functions: search URL, Basic or bearer auth, query string.

Kept apart from :mod:`websearch_core.providers.searxng`, which states where this departs
from the reference and holds the hooks.
"""

import base64
import re
from typing import Final
from urllib.parse import urlsplit, urlunsplit

from pydantic import SecretStr

from ..errors import ConfigurationError, SearchProviderError
from ..models import SearchParams
from ..settings import SearxngSettings
from ._common import is_http_url

__all__ = [
    "BASIC_COLON",
    "BASIC_CONTROL",
    "BASIC_INCOMPLETE",
    "build_authorization",
    "external_bangs",
    "query_params",
    "search_url",
]

PROVIDER_ID: Final = "searxng"

BASIC_INCOMPLETE: Final = (
    "SearXNG Basic auth requires both searxng.basic_username and searxng.basic_password, "
    "or SEARXNG_BASIC_USERNAME and SEARXNG_BASIC_PASSWORD."
)
BASIC_COLON: Final = (
    "SearXNG Basic auth username cannot contain ':' because RFC 7617 uses it as the separator."
)
BASIC_CONTROL: Final = (
    "SearXNG Basic auth credentials must not contain RFC 7617 control characters."
)

EXTERNAL_BANG: Final = (
    "SearXNG redirects a query with an external bang ({tokens}) to another site instead of "
    'returning results; remove the "!!" token to search the SearXNG instance itself.'
)
# C0 controls, DEL and C1 controls: RFC 7617 forbids every one of them in user-id and password.
_CONTROL_CHARS: Final = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def _reveal(value: SecretStr | None) -> str | None:
    return None if value is None else value.get_secret_value()


def build_authorization(settings: SearxngSettings) -> str | None:
    """The ``Authorization`` header value for the configured SearXNG credentials.

    Basic auth wins over a bearer token. It is chosen as soon as either half is configured
    (an empty string counts as configured), and then both halves must be present.

    Args:
        settings: The SearXNG settings (environment already merged in).

    Returns:
        ``Basic <base64>``, ``Bearer <token>``, or ``None`` when no credential is set.

    Raises:
        ConfigurationError: Basic auth is incomplete, the username contains ``:``, or a
            credential contains a control character.

    Example:
        >>> build_authorization(SearxngSettings(basic_username="a", basic_password="b"))
        'Basic YTpi'
    """
    username = _reveal(settings.basic_username)
    password = _reveal(settings.basic_password)
    if username is not None or password is not None:
        if username is None or password is None:
            raise ConfigurationError(BASIC_INCOMPLETE)
        if ":" in username:
            raise ConfigurationError(BASIC_COLON)
        if _CONTROL_CHARS.search(username) or _CONTROL_CHARS.search(password):
            raise ConfigurationError(BASIC_CONTROL)
        encoded = base64.b64encode(f"{username}:{password}".encode()).decode("ascii")
        return f"Basic {encoded}"
    token = _reveal(settings.token)
    if token is not None and token.strip():
        return f"Bearer {token.strip()}"
    return None


def _endpoint(settings: SearxngSettings) -> str | None:
    endpoint = (settings.endpoint or "").strip()
    return endpoint or None


def search_url(endpoint: str) -> str:
    """The search URL of an instance given as ``https://host[/prefix]`` or ``.../search``.

    Trailing slashes are ignored and ``/search`` is added only when the path does not
    already end in it, so both forms people copy from a browser work.

    Raises:
        ConfigurationError: ``endpoint`` is not an absolute http(s) URL with a host.

    Example:
        >>> search_url("https://searx.example.org/search/")
        'https://searx.example.org/search'
        >>> search_url("https://example.org/searxng")
        'https://example.org/searxng/search'
    """
    if not is_http_url(endpoint):
        raise ConfigurationError(  # the value is not repeated: it may carry credentials
            "searxng.endpoint must be an http(s) URL such as https://searx.example.org"
        )
    parts = urlsplit(endpoint)
    path = parts.path.rstrip("/")
    if not path.endswith("/search"):
        path += "/search"
    return urlunsplit((parts.scheme, parts.netloc, path, parts.query, ""))


def external_bangs(query: str) -> list[str]:
    """The tokens of ``query`` that make SearXNG redirect instead of search.

    SearXNG reads every whitespace-separated token starting with ``!!`` as an external
    bang (``!!g``, ``!!wde``) or, for a bare ``!!``, as "go to the first result".

    Example:
        >>> external_bangs("!!g espresso !wp grind")
        ['!!g']
    """
    return [token for token in query.split() if token.startswith("!!")]


def _comma_list(value: str | None) -> str | None:
    if value is None:
        return None
    entries = [entry.strip() for entry in value.split(",") if entry.strip()]
    return ",".join(entries) or None


def query_params(params: SearchParams, settings: SearxngSettings) -> tuple[tuple[str, str], ...]:
    """The query string for ``params`` on an instance configured by ``settings`` (pure).

    Raises:
        SearchProviderError: The query holds an external bang (status 400).
    """
    bangs = external_bangs(params.query)
    if bangs:
        tokens = ", ".join(f'"{token}"' for token in dict.fromkeys(bangs))
        raise SearchProviderError(PROVIDER_ID, EXTERNAL_BANG.format(tokens=tokens), 400)
    query: list[tuple[str, str]] = [("q", params.query), ("format", "json")]
    if params.result_count is not None:
        query.append(("pageno", "1"))
    if params.recency is not None:
        # SearXNG's time_range takes the same four words as ``recency``.
        query.append(("time_range", params.recency))
    for name, value in (
        ("categories", _comma_list(settings.categories)),
        ("engines", _comma_list(settings.engines)),
    ):
        if value:
            query.append((name, value))
    if settings.safesearch is not None:
        query.append(("safesearch", str(settings.safesearch)))
    language = params.language or (settings.language or "").strip() or None
    if language:
        query.append(("language", language))
    return tuple(query)
