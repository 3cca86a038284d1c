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

Errors say what went wrong without echoing an HTML page:

* ``200`` with an HTML bot check ("Verifying your request") is a
  :class:`~websearch_core.errors.ChallengeError`; any other non-JSON body a
  :class:`~websearch_core.errors.ResponseParseError`, never an empty success. A bot check
  served with an error status is a challenge too.
* ``403`` with an HTML page (and no ``WWW-Authenticate`` challenge) is the instance
  refusing the ``json`` format: ``search.formats`` in its ``settings.yml`` lacks it. It is
  a :class:`~websearch_core.errors.ProviderNotConfiguredError` without an HTTP status, so
  it never reads as a key problem. ``401``, and ``403`` with a JSON or plain body, stay
  authorization failures: with a token or Basic auth in front of the instance that is
  what they mean.
* Any other HTML error page is reported by its status and ``<title>`` only.

API reference: https://docs.searxng.org/dev/search_api.html
"""

import base64
import json
import re
from typing import Any, Final
from urllib.parse import urlsplit, urlunsplit

from pydantic import SecretStr

from ..errors import (
    ChallengeError,
    ConfigurationError,
    ProviderNotConfiguredError,
    ResponseParseError,
    SearchProviderError,
)
from ..models import SearchParams, SearchResponse
from ..settings import SearxngSettings
from ..transport import (
    ERROR_BODY_LIMIT,
    HttpRequest,
    HttpResponse,
    api_error_text,
    raise_for_status,
)
from ._common import collapse_whitespace, is_http_url
from ._searxng_parse import DEFAULT_RESULTS, MAX_RESULTS, format_answer, parse_search_body
from .base import ProviderContext, ProviderInfo, RequestResponseProvider

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

JSON_FORMAT_DISABLED: Final = (
    'SearXNG instance{where} does not serve the JSON format (403): enable "json" in '
    "search.formats of its settings.yml."
)
EXTERNAL_BANG: Final = (
    "SearXNG redirects a query with an external bang ({tokens}) to another site instead of "
    'returning results; remove the "!!" token to search the SearXNG instance itself.'
)
# C0 controls, DEL and C1 controls: RFC 7617 forbids every one of them in user-id and password.
_CONTROL_CHARS: Final = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_TITLE: Final = re.compile(r"<title[^>]*>(.*?)</title\s*>", re.IGNORECASE | re.DOTALL)
_CHALLENGE_MARKERS: Final = (
    "verifying your request",  # searx.be and other instances behind the same anti-bot
    "verify you are human",
    "checking your browser",
    "making sure you're not a bot",  # Anubis
    "making sure you&#39;re not a bot",
    "just a moment...",  # Cloudflare
    "cf-chl-",
    "challenge-platform",
    "g-recaptcha",
    "h-captcha",
    "cf-turnstile",
)
"""Phrases and markup of bot checks. A bare "captcha" is not one: SearXNG's own HTML
results page names engines that hit a CAPTCHA, and that page is not a challenge."""


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


def detect_challenge(body: str) -> str | None:
    """A short description of the bot-check page in ``body``, or ``None`` if it is not one.

    Args:
        body: A decoded non-JSON response body.

    Returns:
        The page title (or ``"bot check"``) when a challenge marker is present.

    Example:
        >>> detect_challenge("<title>x | Verifying your request</title>")
        'x | Verifying your request'
    """
    lowered = body.lower()
    if not any(marker in lowered for marker in _CHALLENGE_MARKERS):
        return None
    return _page_title(body) or "bot check"


def _challenge_error(challenge: str) -> ChallengeError:
    return ChallengeError(
        PROVIDER_ID,
        f'SearXNG instance served a bot-check page ("{challenge}") instead of JSON '
        "results; use an instance that allows API access.",
    )


def _looks_like_html(text: str) -> bool:
    head = text.lstrip()[:512].lower()
    return head.startswith("<") and ("<html" in head or "<!doctype" in head or "<title" in head)


def _page_title(text: str) -> str | None:
    match = _TITLE.search(text)
    title = collapse_whitespace(match.group(1)) if match else ""
    return title[:120] or None


def _host(url: str) -> str | None:
    """``host[:port]`` of ``url``, never its user-info (which may hold a password)."""
    try:
        parts = urlsplit(url)
        host, port = parts.hostname, parts.port
    except ValueError:
        return None
    if not host:
        return None
    return f"{host}:{port}" if port is not None else host


def _decode_json(response: HttpResponse) -> Any:
    try:
        return json.loads(response.body)
    except ValueError:
        pass
    text = response.text()
    challenge = detect_challenge(text)
    if challenge is not None:
        raise _challenge_error(challenge)
    if text.lstrip().startswith("<"):
        raise ResponseParseError(
            PROVIDER_ID,
            "SearXNG returned HTML instead of JSON; check that searxng.endpoint points at a "
            "SearXNG instance with the json format enabled.",
            502,
        )
    raise ResponseParseError(PROVIDER_ID, "SearXNG API returned invalid JSON", 502)


class SearxngProvider(RequestResponseProvider):
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

    def check_response(self, response: HttpResponse) -> None:
        """Classify a non-2xx answer; an HTML page is never quoted, only its title.

        Raises:
            ChallengeError: A bot-check page, whatever the status.
            ProviderNotConfiguredError: 403 with an HTML page: the instance does not serve
                the ``json`` format (no HTTP status, so it is not read as a key problem).
            SearchProviderError: Anything else, through the shared status classifier.
        """
        status = response.status
        if 200 <= status < 300:
            return
        text = response.body[: ERROR_BODY_LIMIT * 4].decode("utf-8", errors="replace")
        if not _looks_like_html(text):
            raise_for_status(PROVIDER_ID, response, api_error_text(f"{LABEL} API error", response))
            return
        challenge = detect_challenge(text)
        if challenge is not None:
            raise _challenge_error(challenge)
        if status == 403 and response.header("WWW-Authenticate") is None:
            host = _host(response.url)
            where = f" at {host}" if host else ""
            raise ProviderNotConfiguredError(PROVIDER_ID, JSON_FORMAT_DISABLED.format(where=where))
        title = _page_title(text)
        reason = f": {title}" if title else ""
        raise_for_status(PROVIDER_ID, response, f"{LABEL} API error ({status}){reason}")

    def parse_response(self, response: HttpResponse, params: SearchParams) -> SearchResponse:
        """Parse a 2xx body; an HTML bot check or other non-JSON body is an error."""
        return parse_search_body(_decode_json(response), params.result_count)
