"""SearXNG: a self-hosted metasearch instance queried through its JSON search API.

Available when an endpoint is configured (``searxng.endpoint`` in settings or
``SEARXNG_ENDPOINT``); no API key is involved. One ``GET <endpoint>/search?format=json``
per call, authenticated with HTTP Basic (preferred) or a bearer token when configured.
The request is built by :mod:`websearch_core.providers._searxng_request`; the body is read
by :mod:`websearch_core.providers._searxng_parse` (engines, answers, infoboxes,
corrections, unresponsive engines: see there).

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

import logging
from typing import Final

from ..error_bound import WARNING_CUT_MARK, bounded_message
from ..errors import ProviderNotConfiguredError
from ..filters import TEXT_OPERATORS, URL_TITLE_OPERATORS, FilterSupport
from ..models import FilterName, SearchParams, SearchResponse
from ..provider_credentials import SetUrl
from ..sent_secret import SentSecret
from ..settings import SearxngSettings
from ..transport import HttpRequest, HttpResponse
from ._json_api import honours
from ._searxng_pages import decode_json, detect_challenge, html_page_error
from ._searxng_parse import (
    DEFAULT_RESULTS,
    MAX_RESULTS,
    format_answer,
    parse_search_body,
    unanswered_line,
)
from ._searxng_request import (
    BASIC_COLON,
    BASIC_CONTROL,
    BASIC_INCOMPLETE,
    build_authorization,
    external_bangs,
    query_params,
    search_url,
)
from .base import ErrorMap, Flow, ProtocolProvider, ProviderContext, ProviderInfo

__all__ = [
    "BASIC_COLON",
    "BASIC_CONTROL",
    "BASIC_INCOMPLETE",
    "ENDPOINT_MISSING",
    "SearxngProvider",
    "build_authorization",
    "detect_challenge",
    "external_bangs",
    "format_answer",
    "parse_search_body",
    "search_url",
]

logger = logging.getLogger(__name__)

PROVIDER_ID: Final = "searxng"
ENDPOINT_MISSING: Final = (
    "SearXNG endpoint not configured. Set searxng.endpoint in settings or SEARXNG_ENDPOINT "
    "in environment."
)

_WANTED_URL: Final[frozenset[FilterName]] = frozenset({"in_url"})
_WORDS_IN_SENT: Final = (URL_TITLE_OPERATORS | TEXT_OPERATORS) - _WANTED_URL
"""``-inurl:``, ``intitle:``, ``-intitle:``, ``intext:``, ``-intext:`` as the reference's
``formatScraperQuery`` writes them; a wanted ``inurl:`` goes as a word. Its engines read
them unevenly, so the URL and title ones are checked here too."""
_IN_QUERY: Final[frozenset[FilterName]] = frozenset(
    {"include_domains", "exclude_domains", "phrase", "exclude_terms"}
)
_FILTERS: Final = FilterSupport(
    native=frozenset({"recency", "language"}),
    query=_IN_QUERY | _WORDS_IN_SENT,
    demoted=_WANTED_URL,
    unpromised=URL_TITLE_OPERATORS - _WANTED_URL,
)


_SECRETS: Final = (
    ("basic_username", "SEARXNG_BASIC_USERNAME", "SearXNG Basic auth username"),
    ("basic_password", "SEARXNG_BASIC_PASSWORD", "SearXNG Basic auth password"),
    ("token", "SEARXNG_TOKEN", "SearXNG token"),
)
"""Each credential setting, the variable that also sets it, and its name in a problem."""


def _endpoint(settings: SearxngSettings) -> str | None:
    endpoint = (settings.endpoint or "").strip()
    return endpoint or None


def _setting_secret(
    context: ProviderContext, field: str, variable: str, what: str
) -> SentSecret | None:
    """The credential setting ``field`` as it is sent, named by its variable or setting.

    Settings merge the variable over the config file, so the value says which one set
    it: the variable when it holds the same value, else the ``searxng.<field>`` setting.
    The variable is read as a plain one: the token and password are masked from the
    settings already, and a user name is no secret (masking ``user`` would cut words).
    """
    secret = getattr(context.settings.searxng, field)
    if secret is None:
        return None
    value = secret.get_secret_value()
    if field == "token":  # sent trimmed, and not at all when blank (build_authorization)
        value = value.strip()
        if not value:
            return None
    if (context.credentials.env(variable) or "") == value.strip():
        where, fix = f"in {variable}", f"remove it from {variable}"
    else:
        where, fix = f"in the searxng.{field} setting", "fix that setting"
    # Basic auth and the token both go in the Authorization header.
    return SentSecret(value, what, where, fix, authorization=True)


class SearxngProvider(ProtocolProvider):
    """SearXNG's JSON search API on a configured instance."""

    info = ProviderInfo(
        id=PROVIDER_ID,
        label="SearXNG",
        kind="api",
        description="Self-hosted SearXNG metasearch instance (JSON search API).",
        docs_url="https://docs.searxng.org/dev/search_api.html",
        env_vars=(),
        setup_hint="set SEARXNG_ENDPOINT or searxng.endpoint",
        honours=honours(_FILTERS),
        default_results=DEFAULT_RESULTS,
        max_results=MAX_RESULTS,
        filters=_FILTERS,
    )

    errors = ErrorMap(response_error=html_page_error)
    """Non-HTML error bodies read as ``SearXNG API error (<status>): <body>``; an HTML page
    is read whole by ``html_page_error``: telling a disabled ``json`` format from a
    credential refusal takes the ``WWW-Authenticate`` header, and its text names the
    instance's host from the response URL (see ``_searxng_pages``)."""

    def is_available(self, context: ProviderContext) -> bool:
        """Whether an endpoint is configured (settings or ``SEARXNG_ENDPOINT``)."""
        return _endpoint(context.settings.searxng) is not None

    def own_url(self, context: ProviderContext) -> SetUrl | None:
        """The endpoint, named by ``SEARXNG_ENDPOINT`` when that set it, else the setting.

        A user name and password written into it (``https://user:pw@searx.example``) go
        out as Basic auth, so they are checked as the ``searxng.basic_*`` settings are.
        """
        endpoint = _endpoint(context.settings.searxng)
        if endpoint is None:
            return None
        from_variable = (context.credentials.env("SEARXNG_ENDPOINT") or "") == endpoint
        source = "SEARXNG_ENDPOINT" if from_variable else "the searxng.endpoint setting"
        return SetUrl(endpoint, "SearXNG endpoint", source)

    def sent_secrets(self, context: ProviderContext) -> list[SentSecret]:
        """Basic auth's username and password when either is set, else the bearer token.

        The order :func:`build_authorization` chooses them in; they live in the settings
        (``searxng.*`` or the ``SEARXNG_*`` variables), not where a key is looked up.
        """
        settings = context.settings.searxng
        basic = settings.basic_username is not None or settings.basic_password is not None
        chosen = _SECRETS[:2] if basic else _SECRETS[2:]
        found = (_setting_secret(context, *entry) for entry in chosen)
        return [secret for secret in found if secret is not None]

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
        query = query_params(params, settings)
        headers = {"Accept": "application/json"}
        authorization = build_authorization(settings)
        if authorization is not None:
            headers["Authorization"] = authorization
        return HttpRequest(method="GET", url=url, params=query, headers=headers)

    def parse(self, flow: Flow) -> SearchResponse:
        """The response; the engines that did not answer logged, every secret masked.

        Logged here rather than by the pure parser because the transport is at hand: an
        engine's reason is upstream text, which may quote the instance's token or Basic
        password, and the log line must not carry what the response's notes (masked by
        the core's clean-up) do not.
        """
        answer = super().parse(flow)
        line = unanswered_line(answer.notes)
        if line is not None:  # every engine's reason, masked, then held as an error's text
            logger.warning(
                "%s", bounded_message(flow.context.transport.masked(line), WARNING_CUT_MARK)
            )
        return answer

    def parse_response(self, response: HttpResponse, params: SearchParams) -> SearchResponse:
        """Parse a 2xx body; an HTML bot check or other non-JSON body is an error."""
        return parse_search_body(decode_json(response), params.result_count)
