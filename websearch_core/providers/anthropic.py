r"""Anthropic: Claude answers from live results of its server-side ``web_search`` tool.

* **Endpoint:** ``POST <base>/v1/messages`` (the Messages API), non-streaming JSON. ``<base>``
  is ``ANTHROPIC_SEARCH_BASE_URL``, else ``ANTHROPIC_BASE_URL``, else
  ``https://api.anthropic.com``; trailing slashes and a trailing ``/v1`` are removed. The
  search-only variable never changes anything but this provider. A URL with an ``@`` only
  after its host (a token holding an unencoded ``/``) is refused, naming the variable.
* **Body** (:mod:`._anthropic_request`): ``model`` is ``ANTHROPIC_SEARCH_MODEL``, default
  ``claude-haiku-4-5``; ``max_tokens`` defaults to 4096; the query is the user message, the
  system prompt ``system``, the tool ``web_search_20250305`` with ``allowed_domains`` or
  ``blocked_domains`` (never both: with includes, the blocked domains are asked in the
  question and checked here, recorded ``query + post``), and ``user_location: {"type":
  "approximate", "country": "DE"}`` for ``country`` (Anthropic's web search tool page and
  its SDKs' ``WebSearchTool20250305.user_location``: a two-letter ISO country code);
  ``temperature`` only for a model that takes it. The tool has no date, recency or
  language field.
* **Auth:** ``ANTHROPIC_SEARCH_API_KEY`` first, then ``ANTHROPIC_API_KEY``, then an OAuth
  token stored for provider ``"anthropic"``. An API key goes in ``x-api-key`` on
  Anthropic's own host and as ``Authorization: Bearer`` on any other host (gateways), but
  in ``x-api-key`` again on a gateway whose URL holds a user name (its ``Basic``). An
  OAuth token (a stored one, or a key containing ``sk-ant-oat``) is always a bearer token
  with the ``oauth-2025-04-20`` beta; a stored token that gets a 401 is refreshed once
  through the ``WebSearch(oauth_refreshers=...)`` hook and the request sent again (the
  core's request loop does it: ``oauth_refresh_statuses``). Headers also carry
  ``anthropic-version: 2023-06-01`` and ``anthropic-beta: web-search-2025-03-05``.
* **pause_turn:** when the server pauses a long turn (``stop_reason: "pause_turn"``, after
  many searches) the request is sent again with the paused content as the assistant turn,
  so the model continues where it stopped; at most :data:`MAX_CONTINUATIONS` times (the
  :meth:`AnthropicProvider.follow_up` hook). The turns are read as one assistant message.
* **Results:** the answer, sources, citations and age are read as
  :mod:`._anthropic_parse` tells; the request id is the ``request-id`` header, else the
  message ``id``. Turns are kept by :mod:`._anthropic_steps`.
* **Errors:** ``Anthropic API error (<status>): <body>`` after the shared classifier; a 404
  keeps status 404 so the chain prints the spec's ``Anthropic web search returned 404
  (model or endpoint not found).``. Spent credits come as a 400 ``invalid_request_error``
  whose message says ``Your credit balance is too low to access the Anthropic API``
  (quoted from live answers in anthropics/claude-code issues #4208 and #66314, and
  anthropics/claude-quickstarts #229); that reads as a spent prepaid balance
  (:class:`~websearch_core.errors.CreditsSpentError`), not as a bad request, so the
  provider is skipped rather than asked again, and re-checked once it may be topped up.
  A 402 (``billing_error`` in Anthropic's SDKs) is spent credits through the shared
  classifier already. No credentials: ``No
  Anthropic credentials found. Set ANTHROPIC_SEARCH_API_KEY or ANTHROPIC_API_KEY, or
  configure Anthropic OAuth.``.

Differences from the reference (the captures' quirks are in the parse module):

* The reference sends ``?beta=true``, ``x-app: cli`` and, for OAuth, a Claude Code client
  identity; none of these are sent here. Recency is ignored, as in the reference. The
  reference sends no ``user_location``; the country goes there here, since the tool has it.

Docs: https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/web-search-tool
"""

from collections.abc import Mapping
from typing import Final

from ..errors import CreditsSpentError
from ..models import SearchResponse
from ..provider_credentials import ApiKey, StoredOAuth
from ..transport import HttpRequest
from ._anthropic_parse import page_age_seconds, parse_messages
from ._anthropic_request import (
    ANTHROPIC_HOST,
    BASE_URL_ENV_VARS,
    DEFAULT_MAX_TOKENS,
    DEFAULT_MODEL,
    FILTERS,
    AnthropicAuth,
    base_url,
    messages_url,
    request_body,
    request_headers,
    temperature_allowed,
)
from ._anthropic_steps import (
    KEY_VARIABLES,
    MAX_CONTINUATIONS,
    MISSING_CREDENTIALS_MESSAGE,
    MODEL_ENV_VAR,
    OAUTH_KEY_MARKER,
    OAUTH_KEY_WHAT,
    begin_turn,
    hand_out_key_sign_in,
    paused_content,
    resolve_auth,
    turn_answer,
    turn_request,
)
from ._anthropic_stream import message_from_stream
from ._json_api import honours, json_object
from .base import ErrorMap, Flow, ProtocolProvider, ProviderContext, ProviderInfo

# BASE_URL_ENV_VARS stays a name of this module: a mark's scope (``mark_scope``) reads the
# endpoint variables of the provider's own module, so a gateway switch is tried again.
__all__ = [
    "BASE_URL_ENV_VARS",
    "DEFAULT_MAX_TOKENS",
    "DEFAULT_MODEL",
    "INFO",
    "LOW_CREDIT_MESSAGE",
    "MAX_CONTINUATIONS",
    "MISSING_CREDENTIALS_MESSAGE",
    "AnthropicAuth",
    "AnthropicProvider",
    "base_url",
    "error_code",
    "message_from_stream",
    "messages_url",
    "page_age_seconds",
    "parse_messages",
    "request_body",
    "request_headers",
    "temperature_allowed",
]

_FILTERS = FILTERS
LOW_CREDIT_MESSAGE: Final = "credit balance is too low"
"""What Anthropic's answer to an account without credits says (HTTP 400)."""

INFO = ProviderInfo(
    id="anthropic",
    label="Anthropic",
    kind="answer",
    description="Claude's native web_search tool (uses Anthropic OAuth or ANTHROPIC_API_KEY)",
    docs_url="https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/web-search-tool",
    env_vars=KEY_VARIABLES,
    key_prefixes=("sk-ant-",),  # its Console's keys begin sk-ant- (sk-ant-api03-...)
    honours=honours(_FILTERS, "max_tokens", "temperature"),
    default_results=None,
    max_results=None,
    index="anthropic",
    filters=_FILTERS,
)


def error_code(body: str) -> str | None:
    """``spent_credits`` for Anthropic's answer to an account without credits, else ``None``.

    The answer is ``{"type": "error", "error": {"type": "invalid_request_error", "message":
    "Your credit balance is too low to access the Anthropic API. ..."}}`` with status 400:
    without this code it read as an ordinary bad request, and the provider was asked again
    on every search.

    Example:
        >>> error_code('{"error": {"message": "Your credit balance is too low to ..."}}')
        'spent_credits'
    """
    data = json_object(body)
    error = data.get("error") if data is not None else None
    message = error.get("message") if isinstance(error, Mapping) else None
    if isinstance(message, str) and LOW_CREDIT_MESSAGE in message.lower():
        return "spent_credits"
    return None


PREPAID_STATUSES: Final = frozenset({402})
"""402 ``billing_error``: "out of credits or spend limit reached" (Anthropic's SDK reference,
https://rubydoc.info/github/anthropics/anthropic-sdk-ruby/Anthropic/Models/Beta/Sessions/BetaManagedAgentsBillingErrorObject),
both the owner's to raise; re-checked, not held until next month."""


class AnthropicProvider(ProtocolProvider):
    """Per-search state (the credential, base URL and model) lives in the loop's ``Flow``."""

    info = INFO
    errors = ErrorMap(
        prefix="Anthropic API error",
        code=error_code,
        codes={"spent_credits": CreditsSpentError},
        prepaid=PREPAID_STATUSES,
    )
    oauth_refresh_statuses = frozenset({401})
    credential_kinds = (
        ApiKey(
            authorization_marker=OAUTH_KEY_MARKER,
            marked_what=OAUTH_KEY_WHAT,
            header="x-api-key",
        ),
        StoredOAuth(),
    )
    """A key wins over a stored OAuth token, which is then never sent. A key goes in
    ``x-api-key`` beside a gateway URL's user info, an OAuth token (stored, or given as
    the key) only in ``Authorization``."""
    url_variables = BASE_URL_ENV_VARS
    answer_variables = (MODEL_ENV_VAR,)
    sign_in_hosts = (ANTHROPIC_HOST,)
    """An OAuth token (stored, or a ``sk-ant-oat`` key) opens the whole Claude account: a
    base URL elsewhere gets it only on loopback or when trusted in ``sign_in_gateways``;
    an API key goes to any gateway."""
    """A gateway's URL, whose user info is sent with every request (see ``base_url``)."""

    def is_available(self, context: ProviderContext) -> bool:
        """A key, or a stored OAuth token, for ``anthropic``."""
        has_token = context.credentials.oauth_token(self.info.id) is not None
        return self.api_key(context) is not None or has_token

    async def resolve_auth(self, context: ProviderContext) -> AnthropicAuth:
        """The key (``x-api-key`` or Bearer) or the stored OAuth token, refreshed if expired."""
        key = self.api_key(context)
        if key is not None and OAUTH_KEY_MARKER in key:  # a sign-in, judged where it is sent
            hand_out_key_sign_in(context, self.info.id, self.info.env_vars)
        return await resolve_auth(context, self.info.id, key, self.oauth_margin())

    async def prepare(self, flow: Flow) -> None:
        """Resolve the credential, base URL and model once for the whole turn."""
        begin_turn(flow, await self.resolve_auth(flow.context), self.info.id)

    def first_request(self, flow: Flow) -> HttpRequest:
        """The first Messages call (no assistant turn yet)."""
        return turn_request(flow, ())

    def follow_up(self, flow: Flow) -> HttpRequest | None:
        """The same call with the paused content as the assistant turn, while it pauses.

        An error or an unreadable reply ends the turn: the loop's check or :meth:`parse`
        reports it.
        """
        content = paused_content(flow)
        return None if content is None else turn_request(flow, content)

    def parse(self, flow: Flow) -> SearchResponse:
        """Every message of the turn as one answer; the latest ``request-id`` header wins."""
        return turn_answer(flow, self.info.id, self.info.label)
