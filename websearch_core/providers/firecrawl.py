"""Firecrawl Search API: web results (Google-style operators allowed in the query), as JSON.

* **Endpoint:** ``POST https://api.firecrawl.dev/v2/search`` with a JSON body ``query``,
  ``limit``, ``sources: [{"type": "web"}]`` and, when asked, ``tbs``, ``country`` (upper
  case; Firecrawl's v2 reference: an ISO 3166-1 alpha-2 code, ``US`` when none is sent,
  firecrawl/firecrawl-docs ``agent-source-of-truth/curl.mdx``; its server takes any string
  and defaults to ``us``) and one domain list, ``includeDomains`` or ``excludeDomains``
  (arrays of bare hostnames, never both: firecrawl/firecrawl ``apps/api/src/controllers/
  v2/types.ts`` and its Python SDK). With both lists the included go as the field and the
  excluded as ``-site:`` in ``query``; a base pinned to ``/v1`` gets every list as
  ``site:`` / ``-site:`` in ``query`` instead.
* **Auth:** ``Authorization: Bearer <key>`` when a key resolves (``FIRECRAWL_API_KEY``);
  ``auth_mode`` is then ``"api_key"``. Without a key no ``Authorization`` header is sent
  at all and ``auth_mode`` is ``"keyless"``.
* **Availability:** the auto chain uses Firecrawl when a key resolves or a self-hosted base
  is configured (``FIRECRAWL_BASE_URL`` or ``FIRECRAWL_API_URL``); an explicit selection
  (``provider="firecrawl"`` or the preferred provider) always may, keyless if need be.
* **Custom base:** ``FIRECRAWL_BASE_URL`` (then ``FIRECRAWL_API_URL``) replaces the hosted
  origin, for self-hosted Firecrawl. It must be an ``http(s)`` URL without user info,
  otherwise :class:`~websearch_core.errors.ConfigurationError` says ``Invalid Firecrawl base
  URL: expected an HTTP or HTTPS URL`` / ``Invalid Firecrawl base URL: URL credentials are
  not allowed``. Its query and fragment are dropped and trailing slashes removed; ``/v2`` is
  appended unless the path already ends in ``/v1`` or ``/v2``; then ``/search``. (The
  generic ``WEBSEARCH_FIRECRAWL_BASE_URL`` origin override still applies on top, as for
  every provider.)
* **Limits:** ``limit`` is ``num_search_results`` or ``limit``, default 10, clamped to
  1..100.
* **Time filters:** ``date_after`` / ``date_before`` win over ``recency`` and give a Google
  custom date range ``tbs=cdr:1,cd_min:MM/DD/YYYY,cd_max:MM/DD/YYYY`` (zero-padded; a
  missing bound is left out); otherwise ``recency`` gives ``tbs=qdr:d|w|m|y``.
* **Query operators:** the query keeps the directives (Google syntax, as the reference
  sends it) except the domains, which go as the fields above (a typed ``site:`` too).
  Firecrawl's docs list ``site:`` / ``-site:``, ``inurl:``, ``intitle:``,
  quotes and ``-term`` and no ``filetype:``, so a ``filetype:`` sent is checked on the
  results here rather than trusted (``query + post``).
* **Results:** ``data.web[]`` (v2), a ``data`` array (v1, for a base ending in ``/v1``) or
  ``results[]``. Each needs an ``http(s)`` URL; the title falls back to the URL; the snippet
  is the first non-blank of ``description``, ``snippet`` and ``markdown``; ``markdown`` (a
  scraped page) is also the source's page ``content``. ``request_id`` is the body's
  ``id``. ``success: false`` is raised as a provider error carrying the body's
  ``error`` (else ``Firecrawl request failed``).
* **Errors:** ``Firecrawl API error (<status>): <body>`` after the shared classifier (a body
  saying ``Insufficient credits`` is a quota error).
* **Modules:** the request is built in ``_firecrawl_request``, the body read in
  ``_firecrawl_parse``; this module holds the facts and hooks.

Capture vs reference: the real capture
(``fixtures/firecrawl/v2_search_firecrawl_with_markdown.json``, made with ``scrapeOptions``
asking for markdown) is the v2 shape ``{success, data: {web:
[...]}, creditsUsed}``: results carry ``url``, ``title``, ``description``, ``position``,
sometimes ``category`` (``"github"``), and ``markdown`` plus page ``metadata`` for scraped
ones. It has no ``id``, so ``request_id`` is ``None`` for it, and no result carries a
publication date, so Firecrawl sources have no ``published_date``. The reference writes the
snippet rule as ``description ?? snippet ?? markdown``; here a blank ``description`` also
falls through to the next field rather than giving an empty snippet.

Docs: https://docs.firecrawl.dev/api-reference/endpoint/search
"""

from ..models import SearchParams, SearchResponse
from ..transport import HttpRequest, HttpResponse
from ._firecrawl_parse import parse_results
from ._firecrawl_request import (
    BASE_URL_ENV_VARS,
    DEFAULT_RESULTS,
    FILTERS,
    FIRECRAWL_ENDPOINT,
    MAX_RESULTS,
    configured_base_url,
    is_v1,
    request_body,
    search_endpoint,
    time_filter,
)
from ._json_api import first_env, honours
from .base import (
    KEY_IN_AUTHORIZATION,
    ErrorMap,
    Flow,
    ProtocolProvider,
    ProviderContext,
    ProviderInfo,
)

__all__ = [
    "BASE_URL_ENV_VARS",
    "FIRECRAWL_ENDPOINT",
    "INFO",
    "FirecrawlProvider",
    "configured_base_url",
    "parse_results",
    "request_body",
    "search_endpoint",
    "time_filter",
]

INFO = ProviderInfo(
    id="firecrawl",
    label="Firecrawl",
    kind="api",
    description="Uses Firecrawl API when FIRECRAWL_API_KEY is set; falls back to keyless mode",
    docs_url="https://docs.firecrawl.dev/api-reference/endpoint/search",
    env_vars=("FIRECRAWL_API_KEY",),
    key_prefixes=("fc-",),  # its API reference: "Bearer fc-123456789 ... is your API key"
    honours=honours(FILTERS),
    default_results=DEFAULT_RESULTS,
    max_results=MAX_RESULTS,
    index="firecrawl",
    filters=FILTERS,
)


def _base_url(context: ProviderContext) -> str | None:
    return first_env(context.credentials.env, BASE_URL_ENV_VARS)


class FirecrawlProvider(ProtocolProvider):
    """The Firecrawl search provider (see the module docstring for the wire details)."""

    info = INFO
    credential_kinds = KEY_IN_AUTHORIZATION
    errors = ErrorMap(prefix="Firecrawl API error")

    def is_available(self, context: ProviderContext) -> bool:
        """A key, or a self-hosted base URL in the environment."""
        return self.api_key(context) is not None or _base_url(context) is not None

    def is_explicitly_available(self, context: ProviderContext) -> bool:
        """Always: without a key an explicit selection runs keyless."""
        return True

    def build_request(self, params: SearchParams, context: ProviderContext) -> HttpRequest:
        """The POST request for ``params``, with a bearer key when one resolves.

        Raises:
            ConfigurationError: The configured base URL is invalid.
        """
        url = search_endpoint(_base_url(context))
        headers = {"Content-Type": "application/json"}
        key = self.api_key(context)
        if key is not None:
            headers["Authorization"] = f"Bearer {key}"
        body = request_body(params, v1=is_v1(url))
        return HttpRequest(method="POST", url=url, headers=headers, json=body)

    def parse(self, flow: Flow) -> SearchResponse:
        """The parsed body, with ``auth_mode`` saying whether the request carried a key."""
        parsed = super().parse(flow)
        mode = "api_key" if "Authorization" in flow.last.request.headers else "keyless"
        return parsed.model_copy(update={"auth_mode": mode})

    def parse_response(self, response: HttpResponse, params: SearchParams) -> SearchResponse:
        """The sources and request id of a 2xx body (``auth_mode`` is set by :meth:`parse`)."""
        data = response.json(self.info.id, self.info.label)
        sources = parse_results(data)
        request_id = data.get("id")  # parse_results checked that data is a mapping
        return SearchResponse(
            provider=self.info.id,
            sources=sources,
            request_id=request_id if isinstance(request_id, str) and request_id else None,
            auth_mode="api_key",
        )
