"""SearXNG: a self-hosted metasearch instance queried through its JSON search API.

Available when an endpoint is configured (``searxng.endpoint`` in settings or
``SEARXNG_ENDPOINT``); no API key is involved. One ``GET <endpoint>/search?format=json``
per call, authenticated with HTTP Basic (preferred) or a bearer token when configured.
The body is read by :mod:`websearch_core.providers._searxng_parse` (engines, answers,
infoboxes, corrections, unresponsive engines: see there).

Where this departs from the reference (measured against a real SearXNG, issue 12):

* **Endpoint:** both ``https://host`` and ``https://host/search`` (with or without
  trailing slashes) are accepted; an endpoint already ending in ``/search`` is used as
  is, so ``/search/search`` is never requested.
* **Recency:** ``week`` is sent as ``time_range=week``. The reference downgrades it to
  ``month`` on the belief that SearXNG has no week range; SearXNG accepts ``day``,
  ``week``, ``month`` and ``year``, and a real instance filters by week.
* **External bangs:** a query with a ``!!`` token (``!!g foo`` jumps to Google, ``!!``
  alone to the first result) is refused before sending (status 400). SearXNG answers it
  with a redirect off the instance, never with results; the reference's silent removal of
  the token would search something other than what was asked. Single-``!`` bangs
  (``!wp paris``) select SearXNG's own engines and are sent unchanged.
* **Language:** ``language="auto"`` (SearXNG's automatic detection) is sent as given.

Errors say what went wrong without echoing an HTML page. Non-HTML error bodies go through
the shared classifier (``SearXNG API error (<status>): <body>``); HTML pages (a bot check,
the instance refusing the ``json`` format, any other error page) are read by
:mod:`websearch_core.providers._searxng_pages`, see there.

API reference: https://docs.searxng.org/dev/search_api.html
"""

import base64
import re
from typing import Final
from urllib.parse import urlsplit, urlunsplit

from pydantic import SecretStr

from ..errors import ConfigurationError, ProviderNotConfiguredError, SearchProviderError
from ..filters import FilterSupport
from ..models import SearchParams, SearchResponse
from ..settings import SearxngSettings
from ..transport import HttpRequest, HttpResponse
from ._common import is_http_url
from ._searxng_pages import decode_json, detect_challenge, html_page_error
from ._searxng_parse import DEFAULT_RESULTS, MAX_RESULTS, format_answer, parse_search_body
from .base import Flow, ProtocolProvider, ProviderContext, ProviderInfo

__all__ = [
    "SearxngProvider",
    "build_authorization",
    "detect_challenge",
    "external_bangs",
    "format_answer",
    "parse_search_body",
    "search_url",
]

PROVIDER_ID: Final = "searxng"
LABEL: Final = "SearXNG"

ENDPOINT_MISSING: Final = (
    "SearXNG endpoint not configured. Set searxng.endpoint in settings or SEARXNG_ENDPOINT "
    "in environment."
)
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
        raise ConfigurationError(
            "searxng.endpoint must be an http(s) URL such as https://searx.example.org, "
            f"got {endpoint!r}"
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


class SearxngProvider(ProtocolProvider):
    """SearXNG's JSON search API on a configured instance."""

    info = ProviderInfo(
        id=PROVIDER_ID,
        label=LABEL,
        kind="api",
        description="Self-hosted SearXNG metasearch instance (JSON search API).",
        docs_url="https://docs.searxng.org/dev/search_api.html",
        env_vars=(),
        setup_hint="set SEARXNG_ENDPOINT or searxng.endpoint",
        honours=frozenset({"query", "recency", "limit", "num_search_results", "language"}),
        default_results=DEFAULT_RESULTS,
        max_results=MAX_RESULTS,
        filters=FilterSupport(
            native=frozenset({"recency", "language"}),
            query=frozenset({"include_domains", "exclude_domains", "phrase", "exclude_terms"}),
        ),
    )

    def is_available(self, context: ProviderContext) -> bool:
        """Whether an endpoint is configured (settings or ``SEARXNG_ENDPOINT``)."""
        return _endpoint(context.settings.searxng) is not None

    def build_request(self, params: SearchParams, context: ProviderContext) -> HttpRequest:
        """``GET <endpoint>/search`` with the query, filters and auth headers.

        Raises:
            ProviderNotConfiguredError: No endpoint is configured.
            ConfigurationError: The endpoint is not an http(s) URL or Basic auth is invalid.
            SearchProviderError: The query holds an external bang (status 400).
        """
        settings = context.settings.searxng
        endpoint = _endpoint(settings)
        if endpoint is None:
            raise ProviderNotConfiguredError(PROVIDER_ID, ENDPOINT_MISSING)
        url = search_url(endpoint)
        bangs = external_bangs(params.query)
        if bangs:
            tokens = ", ".join(f'"{token}"' for token in dict.fromkeys(bangs))
            raise SearchProviderError(PROVIDER_ID, EXTERNAL_BANG.format(tokens=tokens), 400)
        headers = {"Accept": "application/json"}
        authorization = build_authorization(settings)
        if authorization is not None:
            headers["Authorization"] = authorization
        query: list[tuple[str, str]] = [("q", params.query), ("format", "json")]
        if params.result_count is not None:
            query.append(("pageno", "1"))
        if params.recency is not None:
            # SearXNG's time_range takes the same four words as ``recency``.
            query.append(("time_range", params.recency))
        categories = _comma_list(settings.categories)
        if categories:
            query.append(("categories", categories))
        engines = _comma_list(settings.engines)
        if engines:
            query.append(("engines", engines))
        if settings.safesearch is not None:
            query.append(("safesearch", str(settings.safesearch)))
        language = params.language or (settings.language or "").strip() or None
        if language:
            query.append(("language", language))
        return HttpRequest(method="GET", url=url, params=tuple(query), headers=headers)

    def follow_up(self, flow: Flow) -> HttpRequest | None:
        """No second request; an HTML error page ends the search with the error it means.

        Read here rather than through the error map because telling a disabled ``json``
        format from a credential refusal takes the ``WWW-Authenticate`` header, and its
        text names the instance's host from the response URL (see ``_searxng_pages``).

        Raises:
            ChallengeError: A bot-check page, whatever the status.
            ProviderNotConfiguredError: 403 with an HTML page: the instance does not serve
                the ``json`` format (no HTTP status, so it is not read as a key problem).
            SearchProviderError: Any other HTML error page, by its status and title only.
        """
        last = flow.last.response
        error = html_page_error(last) if isinstance(last, HttpResponse) else None
        if error is not None:
            raise error
        return None

    def parse_response(self, response: HttpResponse, params: SearchParams) -> SearchResponse:
        """Parse a 2xx body; an HTML bot check or other non-JSON body is an error."""
        return parse_search_body(decode_json(response), params.result_count)
