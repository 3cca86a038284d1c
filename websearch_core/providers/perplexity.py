"""Perplexity: a grounded answer with its sources, by API key, session cookies or OAuth.

* **Auth methods**, tried in this order; when one fails (anything but cancellation) the
  next is tried, and the last error is raised when all fail:

  1. ``cookies``: ``PERPLEXITY_COOKIES`` (a browser ``Cookie`` header) on the ask endpoint;
  2. ``oauth``: the Perplexity OAuth token in the credential store, sent as the
     ``__Secure-next-auth.session-token`` cookie on the ask endpoint; a token within five
     minutes of expiry is refreshed first (through ``WebSearch(oauth_refreshers=...)``),
     and a 401 or 403 refreshes it once more and retries once;
  3. ``api_key``: ``PERPLEXITY_API_KEY`` / ``PPLX_API_KEY`` (or code, config, store) on the
     chat-completions API;
  4. ``openrouter``: ``OPENROUTER_API_KEY`` on OpenRouter's chat-completions API with the
     model ``perplexity/<model>``;
  5. ``anonymous``: the ask endpoint without credentials, only when no other method exists.

  The auto chain uses Perplexity only with cookies, an OAuth token or a Perplexity key
  (OpenRouter alone does not admit it); an explicit selection always may. Each method is
  one step of the core's request loop, kept in :mod:`._perplexity_steps`. A credential
  the one credential check refuses (a line break or ``.env`` quotes in
  ``PERPLEXITY_API_KEY`` behind working cookies) is passed over, never sent, and named
  (``ready; passed over: ...`` in the providers table, the attempt's detail, a warning);
  only when every credential set is refused is the provider misconfigured, before a
  request.
* **API-key mode:** ``POST https://api.perplexity.ai/chat/completions`` (OpenRouter:
  ``https://openrouter.ai/api/v1/chat/completions``) with ``Authorization: Bearer <key>``
  and ``Accept: text/event-stream`` (body: :mod:`._perplexity_request`); a plain JSON
  completion is read too. ``auth_mode`` is ``"api_key"``.
* **Ask mode** (cookies, OAuth, anonymous): ``POST
  https://www.perplexity.ai/rest/sse/perplexity_ask`` with the web client's headers and
  body; a transport failure before any response is retried exactly once. ``auth_mode`` is
  ``"oauth"`` (also for cookies) or ``"anonymous"``.
* **Limits:** ``num_search_results`` sets the API's search breadth (API-key mode only);
  ``limit`` cuts the returned sources in both modes.
* **Domain filters:** ``search_domain_filter`` carries the included domains, else the
  excluded ones, at most 20 (the docs forbid a mixed list; see :mod:`._perplexity_request`).
  A list that does not go out is written into the question and checked on the sources
  here, and ``SearchResponse.filters`` records it as ``query`` + ``post``, not ``native``.
* **Results**, the captures they are tested on and the errors a 2xx stream can carry: see
  :mod:`._perplexity_parse` (chat completions) and :mod:`._perplexity_ask` (the ask stream).
* **Errors:** ``Perplexity API error (<status>): <body>`` and ``Perplexity ask API error
  (<status>): <body>`` after the shared classifier (one :class:`ErrorMap` per mode).

Differences from the reference:

* The models are fixed (``sonar-pro``; ``experimental`` on the ask endpoint): the reference
  reads ``PI_PERPLEXITY_API_MODEL`` and ``PI_PERPLEXITY_MODEL`` and can switch to the
  Responses API with ``PI_PERPLEXITY_RESPONSES``; none of those variables are read here.
* The reference skips an OAuth token whose JWT ``exp`` is within five minutes. Here the
  stored expiry is used, and such a token is refreshed through the hook instead; without a
  hook that method fails and the next one is tried (so an expired token alone does not
  fall back to anonymous search).
* The ask endpoint's ``timezone`` is ``TZ`` when it names an IANA zone, else ``UTC``.
* A stream that breaks mid-event counts as a transport failure on the ask endpoint and is
  sent once more, like a connection that failed before any response.

* ``search_domain_filter`` never mixes included and excluded domains: the reference sends
  both in one list, capped at 20 (§6.5), which https://docs.perplexity.ai/guides/search-domain-filters
  forbids ("either allowlist mode ... or denylist mode ..., but not both simultaneously"; an
  older revision of the guide, with a cap of 3, allowed mixing).

Docs: https://docs.perplexity.ai/api-reference/chat-completions-post
"""

from typing import Final
from urllib.parse import urlsplit

from ..errors import SearchProviderError
from ..models import SearchResponse
from ..provider_credentials import ApiKey, SecretVariable, StoredOAuth
from ..transport import HttpRequest
from ._json_api import honours
from ._perplexity_request import (
    ASK_ENDPOINT,
    CHAT_ENDPOINT,
    COOKIES_ENV,
    COOKIES_WHAT,
    FILTERS,
    OPENROUTER_ENV,
    TIMEZONE_ENV,
    api_body,
    ask_body,
    ask_headers,
    auth_methods,
    session_cookies,
)
from ._perplexity_steps import (
    after_broken,
    answer,
    asks,
    begin,
    next_step,
    step_from,
)
from .base import ErrorMap, Flow, ProtocolProvider, ProviderContext, ProviderInfo

__all__ = [
    "ASK_ENDPOINT",
    "CHAT_ENDPOINT",
    "INFO",
    "PerplexityProvider",
    "api_body",
    "ask_body",
    "ask_headers",
    "auth_methods",
]

OAUTH_MIN_LIFETIME: Final = 300.0
"""A stored token that expires sooner than this is refreshed before use (the reference's
five minutes). Declared once, on the provider's ``StoredOAuth``: the search's refresh
before the first request and after a 401, and the credential check, all read it there
(``SearchProvider.oauth_margin``)."""

API_ERRORS: Final = ErrorMap(prefix="Perplexity API error")
ASK_ERRORS: Final = ErrorMap(prefix="Perplexity ask API error")

_FILTERS: Final = FILTERS
INFO = ProviderInfo(
    id="perplexity",
    label="Perplexity",
    kind="answer",
    description="Uses auth when configured; explicit selection falls back to anonymous search",
    docs_url="https://docs.perplexity.ai/api-reference/chat-completions-post",
    env_vars=("PERPLEXITY_API_KEY", "PPLX_API_KEY"),
    honours=honours(_FILTERS, "max_tokens", "temperature"),
    default_results=20,
    max_results=None,
    sources_cut_by_limit=True,
    answer_numbers_sources=True,
    answer_links_sources=True,
    index="perplexity",
    filters=_FILTERS,
)


class PerplexityProvider(ProtocolProvider):
    """The hooks choose the auth method in flight; :mod:`._perplexity_steps` keeps its state."""

    info = INFO
    errors = API_ERRORS
    oauth_refresh_statuses = frozenset({401, 403})
    credential_kinds = (
        SecretVariable(COOKIES_ENV, COOKIES_WHAT, header="Cookie", sign_in=True),
        StoredOAuth(min_lifetime=OAUTH_MIN_LIFETIME),
        ApiKey(authorization=True),
        ApiKey(
            owner="openrouter",
            env_vars=OPENROUTER_ENV,
            what="OpenRouter API key",
            authorization=True,
        ),
    )
    """The auth methods' credentials in :func:`auth_methods`' order."""
    tries_every_credential = True
    """A failed method moves on to the next, so every credential set may be sent."""
    answer_variables = (TIMEZONE_ENV,)
    """The ask endpoint's "today" is the day in the zone ``TZ`` names."""
    sign_in_hosts = (str(urlsplit(ASK_ENDPOINT).hostname),)
    """The cookies and the OAuth token (a session token too) open the whole Perplexity
    account: a ``base_urls.perplexity`` elsewhere (other than loopback) gets them only when
    trusted in ``sign_in_gateways``; otherwise they are passed over and a key, if set, is
    used."""

    def is_available(self, context: ProviderContext) -> bool:
        """Cookies, a stored OAuth token or a Perplexity key (OpenRouter alone is not enough).

        The store is asked first, cookies or not: a search's credential check asks it for
        the token anyway, and with the file unreadable the plan learns it here and runs
        Perplexity on its cookies (:mod:`websearch_core.store_passed`), where that check
        once stopped the whole search with the file's error.
        """
        signed_in = context.credentials.oauth_token(self.info.id) is not None
        return bool(session_cookies(context) or signed_in or self.api_key(context))

    def is_explicitly_available(self, context: ProviderContext) -> bool:
        """Always: without credentials an explicit selection searches anonymously."""
        return True

    async def prepare(self, flow: Flow) -> None:
        """Choose the auth methods; resolve the OAuth token now (hooks after this are sync)."""
        refused = self.sign_in_refusal(flow.context)
        await begin(
            flow,
            self.info.id,
            self.api_key(flow.context),
            margin=self.oauth_margin(),
            sign_ins_refused=refused,
        )

    def first_request(self, flow: Flow) -> HttpRequest | None:
        """The request of the first usable method."""
        return step_from(flow, 0)

    def follow_up(self, flow: Flow) -> HttpRequest | None:
        """The next method after a failed one (the same after a refresh); else done.

        A last failed status is read by the loop through :meth:`error_map`.
        """
        return next_step(flow)

    def after_failure(
        self, flow: Flow, request: HttpRequest, error: SearchProviderError
    ) -> HttpRequest | None:
        """An ask request once more after a broken connection; else the next method."""
        return after_broken(flow, request, error)

    def error_map(self, flow: Flow) -> ErrorMap:
        """The ask endpoint's texts for an ask method, the API's for a key."""
        return ASK_ERRORS if asks(flow) else API_ERRORS

    def parse(self, flow: Flow) -> SearchResponse:
        """The answer :meth:`follow_up` read from the last exchange (or its failure, raised)."""
        return answer(flow)
