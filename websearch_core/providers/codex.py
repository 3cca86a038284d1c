"""OpenAI (``codex``): the ChatGPT Codex backend's hosted ``web_search``, streamed as SSE.

* **Endpoint:** ``POST https://chatgpt.com/backend-api/codex/responses``, a Responses API
  event stream (``Accept: text/event-stream``).
* **Auth:** a ChatGPT OAuth access token stored for provider ``"codex"``
  (``CredentialStore.set_oauth``; the login flow is not ours). It is sent as
  ``Authorization: Bearer``; the account id from the token's
  ``https://api.openai.com/auth`` claim (``chatgpt_account_id``) goes in
  ``chatgpt-account-id`` and its residency claim, when present, in
  ``x-openai-internal-codex-residency``. An expired token is refreshed through the
  ``WebSearch(oauth_refreshers=...)`` hook; a 401 makes the core's request loop refresh
  the token once and send the same step again (a failed refresh is the error). Also
  sent: ``OpenAI-Beta: responses=experimental``, ``originator`` and ``User-Agent``.
  Headers and body are built in ``_codex_request``.
* **Model:** ``CODEX_SEARCH_MODEL`` pins one model; otherwise :data:`DEFAULT_MODELS` are
  tried in order, moving on only after a 400 saying the model is not supported for the
  account, or an answer given without searching (the :meth:`CodexProvider.follow_up` hook,
  its bookkeeping in ``_codex_steps``; the request loop does the sending).
* **Body:** the query as the user message, the system prompt as ``instructions``, the hosted
  ``web_search`` tool forced; ``recency``, ``max_tokens`` and ``temperature`` are not sent.
* **Stream** (read in :mod:`._codex_parse`, links in :mod:`._codex_text`): the answer,
  sources, citations and usage; a completion that never searched, or brought neither text
  nor a source (an image placeholder only, a broken message item), is refused (502);
  ``error`` / ``response.failed`` events are typed by their text's status.
* **Errors:** ``Codex API error (<status>): <body>`` after the shared classifier (so a 401
  reads ``OpenAI authorization failed (401) ...``); OpenAI's ``error.code`` for spent
  prepaid credits or a spend limit its owner set is a spent prepaid balance, checked
  again after a while (:mod:`._codex_errors`).

Captures and differences from the reference:

* ``fixtures/openai/responses_web_search_*.json`` are public Responses API bodies (the item
  shapes the Codex stream carries), ``responses_web_search_tool_stream.sse`` a public
  Responses stream; :func:`parse_response_object` and :func:`parse_stream` read them.
  Their ``web_search_call`` items carry ``action.sources`` only as ``{"type": "api",
  "name": "oai-weather"}`` (no URL) or not at all (the recorder did not ask for sources);
  ``open_page`` actions carry a ``url``, used as a source.
  ``chat_completions_search_preview.json`` (the Chat Completions API, never called here)
  is refused as an unexpected shape.
* The reference also counts reasoning summaries as answer parts; here they are used only
  when no message text came. The spec's condition for scraping links from the answer (no
  ``url_citation``) is used rather than the reference's (no source at all).
* ``OPENAI_API_KEY`` against the public Responses API is not in the spec and not supported.
* The reference refuses to send the sign-in to any custom endpoint (``Refusing to send
  official Codex OAuth credentials to custom endpoint <baseUrl>``); here a
  ``base_urls.codex`` on loopback (the simulator, a local proxy) or trusted in
  ``sign_in_gateways`` receives it too, and any other makes the provider
  ``misconfigured`` (:mod:`websearch_core.sign_in_destination`).

Docs: https://platform.openai.com/docs/guides/tools-web-search
"""

from typing import Final
from urllib.parse import urlsplit

from ..errors import ProviderNotConfiguredError, SearchProviderError
from ..filters.support import FilterSupport
from ..models import SearchResponse
from ..provider_credentials import StoredOAuth
from ..transport import HttpRequest
from ._codex_errors import ERRORS
from ._codex_failures import codex_failure, codex_failure_text
from ._codex_parse import NoWebSearchError, parse_body, parse_response_object, parse_stream
from ._codex_request import DEFAULT_INSTRUCTIONS, account_claims, request_body, request_headers
from ._codex_steps import (
    CODEX_ENDPOINT,
    DEFAULT_MODELS,
    MODEL_ENV_VAR,
    model_refused,
    models_to_try,
    outcome,
    step_request,
)
from ._codex_text import links_in_text, strip_openai_utm
from ._json_api import COUNT_FIELDS
from .base import Flow, ProtocolProvider, ProviderContext, ProviderInfo

__all__ = [
    "CODEX_ENDPOINT",
    "DEFAULT_INSTRUCTIONS",
    "DEFAULT_MODELS",
    "INFO",
    "CodexProvider",
    "NoWebSearchError",
    "account_claims",
    "links_in_text",
    "parse_body",
    "parse_response_object",
    "parse_stream",
    "request_body",
    "request_headers",
    "strip_openai_utm",
]

MISSING_TOKEN: Final = (
    'No Codex OAuth credentials found. Store a ChatGPT OAuth token for provider "codex" '
    "to enable Codex web search."
)

INFO = ProviderInfo(
    id="codex",
    label="OpenAI",
    kind="answer",
    description='OpenAI\'s native web_search (uses a ChatGPT OAuth token stored for "codex")',
    docs_url="https://platform.openai.com/docs/guides/tools-web-search",
    env_vars=(),
    honours=COUNT_FIELDS,
    default_results=None,
    max_results=None,
    index="openai",
    answer_links_sources=True,
    # How, too: no command stores this sign-in, and a user shown "store a ChatGPT OAuth
    # token" alone looked for one (`websearch auth import codex`).
    setup_hint=(
        'store a ChatGPT OAuth token for provider "codex" from Python, with '
        "CredentialStore.set_oauth"
    ),
    filters=FilterSupport.language_model(google_syntax=True),
)


class CodexProvider(ProtocolProvider):
    """The ``codex`` provider, labelled OpenAI (see the module docstring)."""

    info = INFO
    errors = ERRORS
    oauth_refresh_statuses = frozenset({401})
    credential_kinds = (StoredOAuth(),)
    """Only a stored ChatGPT OAuth token; no key is read."""
    sign_in_hosts = (str(urlsplit(CODEX_ENDPOINT).hostname),)
    """The token opens the whole ChatGPT account: a ``base_urls.codex`` elsewhere than
    ``chatgpt.com`` or a loopback address gets it only when trusted in
    ``sign_in_gateways`` (the reference refuses custom endpoints for it outright)."""
    answer_variables = (MODEL_ENV_VAR,)

    def is_available(self, context: ProviderContext) -> bool:
        """A ChatGPT OAuth token is stored for ``codex`` (expiry is checked when searching)."""
        return context.credentials.oauth_token(self.info.id) is not None

    def models(self, context: ProviderContext) -> tuple[str, ...]:
        """``CODEX_SEARCH_MODEL`` alone, or :data:`DEFAULT_MODELS`."""
        return models_to_try(context)

    async def prepare(self, flow: Flow) -> None:
        """A usable token (refreshed first when expired) and the models to try.

        Raises:
            ProviderNotConfiguredError: No token is stored for ``codex``.
            AuthorizationError: It expired and could not be refreshed.
        """
        credentials = flow.context.credentials
        if credentials.oauth_token(self.info.id) is None:
            raise ProviderNotConfiguredError(self.info.id, MISSING_TOKEN)
        flow.token = await credentials.valid_oauth_token(
            self.info.id, min_lifetime=self.oauth_margin()
        )
        flow.state["models"] = self.models(flow.context)

    def first_request(self, flow: Flow) -> HttpRequest:
        """The search with the first model."""
        return step_request(flow, 0)

    def follow_up(self, flow: Flow) -> HttpRequest | None:
        """The next model, after one the account lacks or one that answered without searching.

        Each model gets one exchange (a refresh resends without adding one), so the number
        of exchanges is the next model's index, also when the loop asks again after a refresh.
        """
        index = len(flow.exchanges)
        if index >= len(flow.state["models"]):
            return None
        return step_request(flow, index) if model_refused(flow) else None

    def after_failure(
        self, flow: Flow, request: HttpRequest, error: SearchProviderError
    ) -> HttpRequest | None:
        """No other way to try; the transport's failure said as the reference words Codex's.

        Raises:
            SearchProviderError: ``error`` as ``Codex request failed: <the transport's
                clause>``, its class and status kept (:mod:`._codex_failures`).
        """
        raise codex_failure(error, self.info.label) from None

    def timed_out_text(self, seconds: float) -> str:
        """The attempt's hard stop said as the transport's timeout is.

        ``Codex request failed: timed out after <N>s`` (:mod:`._codex_failures`).
        """
        return codex_failure_text(super().timed_out_text(seconds), self.info.label)

    def parse(self, flow: Flow) -> SearchResponse:
        """The last answer, read once (:meth:`follow_up` may have read it already)."""
        answer = outcome(flow)
        if isinstance(answer, SearchProviderError):
            raise answer
        return answer
