"""SearXNG: a self-hosted metasearch instance queried through its JSON search API.

Available when an endpoint is configured (``searxng.endpoint`` in settings or
``SEARXNG_ENDPOINT``); no API key is involved. One ``GET <endpoint>/search?format=json``
per call, authenticated with HTTP Basic (preferred) or a bearer token when configured.

Public instances often sit behind a bot check that answers ``200`` with an HTML
"Verifying your request" page even though JSON was asked for; that is reported as a
:class:`~websearch_core.errors.ChallengeError`, any other non-JSON body as a
:class:`~websearch_core.errors.ResponseParseError`, never as an empty success.

API reference: https://docs.searxng.org/dev/search_api.html
"""

import base64
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

from pydantic import SecretStr

from ..errors import (
    ChallengeError,
    ConfigurationError,
    ProviderNotConfiguredError,
    ProviderUnavailableError,
    ResponseParseError,
)
from ..models import Recency, SearchParams, SearchResponse, SearchSource
from ..settings import SearxngSettings
from ..transport import HttpRequest, HttpResponse
from ._common import age_seconds_from_date, collapse_whitespace
from .base import ProviderContext, ProviderInfo, RequestResponseProvider, clamp_count

__all__ = [
    "SearxngProvider",
    "build_authorization",
    "detect_challenge",
    "format_answer",
    "parse_search_body",
]

PROVIDER_ID: Final = "searxng"
LABEL: Final = "SearXNG"
DEFAULT_RESULTS: Final = 10
MAX_RESULTS: Final = 20
MAX_ANSWERS: Final = 3
MAX_TRANSLATIONS: Final = 3

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

_TIME_RANGE: Final[Mapping[Recency, str]] = {
    "day": "day",
    "week": "month",  # SearXNG has no week range; a month is the closest that still covers it
    "month": "month",
    "year": "year",
}
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


def _search_url(endpoint: str) -> str:
    if not endpoint.lower().startswith(("http://", "https://")):
        raise ConfigurationError(
            f"searxng.endpoint must be an http(s) URL such as https://searx.example.org, "
            f"got {endpoint!r}"
        )
    return f"{endpoint.rstrip('/')}/search"


def _query_text(query: str) -> str:
    """The query without ``!!`` external bangs, which make SearXNG redirect off-site.

    A query with no such token is returned unchanged, byte for byte.
    """
    tokens = query.split()
    kept = [token for token in tokens if not token.startswith("!!")]
    if len(kept) == len(tokens) or not kept:
        return query
    return " ".join(kept)


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
    match = _TITLE.search(body)
    title = collapse_whitespace(match.group(1)) if match else ""
    return title[:120] or "bot check"


def _decode_json(response: HttpResponse) -> Any:
    try:
        return json.loads(response.body)
    except ValueError:
        pass
    text = response.text()
    challenge = detect_challenge(text)
    if challenge is not None:
        raise ChallengeError(
            PROVIDER_ID,
            f'SearXNG instance served a bot-check page ("{challenge}") instead of JSON '
            "results; use an instance that allows API access.",
        )
    if text.lstrip().startswith("<"):
        raise ResponseParseError(
            PROVIDER_ID,
            "SearXNG returned HTML instead of JSON; check that searxng.endpoint points at a "
            "SearXNG instance with the json format enabled.",
            502,
        )
    raise ResponseParseError(PROVIDER_ID, "SearXNG API returned invalid JSON", 502)


def _text(value: Any) -> str | None:
    if isinstance(value, str):
        stripped = value.strip()
        return stripped or None
    return None


def _weather_text(current: Mapping[str, Any]) -> str | None:
    summary = _text(current.get("summary"))
    if summary is not None:
        return summary
    location = current.get("location")
    temperature = current.get("temperature")
    condition = _text(current.get("condition"))
    name = _text(location.get("name")) if isinstance(location, Mapping) else None
    if name is None or not isinstance(temperature, Mapping) or condition is None:
        return None
    value = temperature.get("val")
    unit = temperature.get("unit") if isinstance(temperature.get("unit"), str) else ""
    if not isinstance(value, int | float) or isinstance(value, bool):
        return None
    return f"{name}: {value:g}{unit}: {condition}"


def format_answer(item: Any) -> str | None:
    """One entry of SearXNG's ``answers`` list as text, or ``None`` when it has none.

    Handles the legacy plain string, ``{"answer": ...}``, ``{"translations": [{"text"}]}``
    (up to three texts, one per line) and weather answers (``{"current": {"summary"}}``).

    Example:
        >>> print(format_answer({"translations": [{"text": "Hallo"}, {"text": "Servus"}]}))
        Hallo
        Servus
    """
    if isinstance(item, str):
        return _text(item)
    if not isinstance(item, Mapping):
        return None
    answer = _text(item.get("answer"))
    if answer is not None:
        return answer
    translations = item.get("translations")
    if isinstance(translations, list):
        texts = [
            text
            for entry in translations
            if isinstance(entry, Mapping) and (text := _text(entry.get("text"))) is not None
        ]
        if texts:
            return "\n".join(texts[:MAX_TRANSLATIONS])
    current = item.get("current")
    if isinstance(current, Mapping):
        return _weather_text(current)
    return None


def _source(item: Any) -> SearchSource | None:
    if not isinstance(item, Mapping):
        return None
    url = _text(item.get("url"))
    if url is None:
        return None
    title = item.get("title")
    content = item.get("content")
    if content is None:
        content = item.get("snippet")
    published = item.get("publishedDate")
    if published is None:
        published = item.get("published_date")
    published_text = _text(published)
    return SearchSource(
        title=collapse_whitespace(title) if isinstance(title, str) and title.strip() else url,
        url=url,
        snippet=_text(content),
        published_date=published_text,
        age_seconds=age_seconds_from_date(published_text),
    )


def _unresponsive(value: Any) -> list[str]:
    if not isinstance(value, list):
        return []
    failures: list[str] = []
    for entry in value:
        if isinstance(entry, Sequence) and not isinstance(entry, str) and entry:
            engine = str(entry[0])
            reason = str(entry[1]) if len(entry) > 1 and entry[1] is not None else ""
            failures.append(f"{engine}: {reason}" if reason else engine)
        elif isinstance(entry, str) and entry.strip():
            failures.append(entry.strip())
    return failures


def parse_search_body(data: Any, count: int | None) -> SearchResponse:
    """Turn a decoded ``/search?format=json`` body into a response (pure).

    Args:
        data: The decoded JSON body.
        count: The requested result count (``num_search_results`` before ``limit``).

    Returns:
        Sources (at most ``count`` clamped to 1..20, default 10), suggestions as related
        questions, and up to three answers joined by a blank line.

    Raises:
        ResponseParseError: The body is not a JSON object or ``results`` is not a list.
        ProviderUnavailableError: No usable result came back and SearXNG reported failing
            upstream engines (status 503).
    """
    if not isinstance(data, Mapping):
        raise ResponseParseError(PROVIDER_ID, "SearXNG API returned an unexpected body", 502)
    results = data.get("results", [])
    if not isinstance(results, list):
        raise ResponseParseError(PROVIDER_ID, "SearXNG API returned non-list results", 502)
    limit = clamp_count(count, DEFAULT_RESULTS, MAX_RESULTS)
    sources = [source for item in results if (source := _source(item)) is not None][:limit]
    if not sources:
        failures = _unresponsive(data.get("unresponsive_engines"))
        if failures:
            raise ProviderUnavailableError(
                PROVIDER_ID,
                "SearXNG returned no usable results; upstream engines failed: "
                + "; ".join(failures),
                503,
            )
    suggestions = data.get("suggestions")
    related = (
        tuple(text for item in suggestions if (text := _text(item)) is not None)
        if isinstance(suggestions, list)
        else ()
    )
    raw_answers = data.get("answers")
    answers = (
        [text for item in raw_answers if (text := format_answer(item)) is not None]
        if isinstance(raw_answers, list)
        else []
    )
    return SearchResponse(
        provider=PROVIDER_ID,
        answer="\n\n".join(answers[:MAX_ANSWERS]) or None,
        sources=tuple(sources),
        related_questions=related,
    )


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
        """
        settings = context.settings.searxng
        endpoint = _endpoint(settings)
        if endpoint is None:
            raise ProviderNotConfiguredError(PROVIDER_ID, ENDPOINT_MISSING)
        url = _search_url(endpoint)
        headers = {"Accept": "application/json"}
        authorization = build_authorization(settings)
        if authorization is not None:
            headers["Authorization"] = authorization
        query: list[tuple[str, str]] = [("q", _query_text(params.query)), ("format", "json")]
        if params.result_count is not None:
            query.append(("pageno", "1"))
        if params.recency is not None:
            query.append(("time_range", _TIME_RANGE[params.recency]))
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

    def parse_response(self, response: HttpResponse, params: SearchParams) -> SearchResponse:
        """Parse a 2xx body; an HTML bot check or other non-JSON body is an error."""
        return parse_search_body(_decode_json(response), params.result_count)
