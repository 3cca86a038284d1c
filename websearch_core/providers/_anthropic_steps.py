"""One Anthropic turn's bookkeeping between the request loop's calls.

Kept apart from :mod:`websearch_core.providers.anthropic` (the facts, the error map and
the hooks) so the hooks read as the protocol and this module as its state: the
credential, base URL and model resolved once per search (``flow.state``), each Messages
call built from them, and what a paused turn continues with. Nothing here sends anything.
"""

from collections.abc import Iterable, Sequence
from typing import Any, Final, Literal

from ..errors import ProviderNotConfiguredError
from ..models import SearchResponse
from ..provider_types import Flow, ProviderContext
from ..transport import HttpRequest
from ._anthropic_parse import message_content, parse_messages, turn_so_far
from ._anthropic_request import (
    BASE_URL_ENV_VARS,
    DEFAULT_MODEL,
    AnthropicAuth,
    base_url,
    messages_url,
    request_body,
    request_headers,
)

__all__ = [
    "KEY_VARIABLES",
    "MAX_CONTINUATIONS",
    "MISSING_CREDENTIALS_MESSAGE",
    "MODEL_ENV_VAR",
    "OAUTH_KEY_MARKER",
    "OAUTH_KEY_WHAT",
    "begin_turn",
    "hand_out_key_sign_in",
    "paused_content",
    "resolve_auth",
    "turn_answer",
    "turn_request",
]

OAUTH_KEY_MARKER: Final = "sk-ant-oat"
"""A key containing this is an OAuth token: always a bearer token with the OAuth beta."""
OAUTH_KEY_WHAT: Final = "Anthropic OAuth token"
"""What a key holding :data:`OAUTH_KEY_MARKER` is called in a problem's or refusal's text."""
MISSING_CREDENTIALS_MESSAGE: Final = (
    "No Anthropic credentials found. Set ANTHROPIC_SEARCH_API_KEY or ANTHROPIC_API_KEY, "
    "or configure Anthropic OAuth."
)
KEY_VARIABLES: Final = ("ANTHROPIC_SEARCH_API_KEY", "ANTHROPIC_API_KEY")
"""The key variables :data:`MISSING_CREDENTIALS_MESSAGE` names, in its order."""
MODEL_ENV_VAR: Final = "ANTHROPIC_SEARCH_MODEL"
MAX_CONTINUATIONS: Final = 3
"""How many times a paused turn is resumed before the answer so far is returned."""


async def resolve_auth(
    context: ProviderContext, provider_id: str, key: str | None, margin: float
) -> AnthropicAuth:
    """``key`` (``x-api-key`` or Bearer) or the stored OAuth token, refreshed if expired.

    ``margin`` is the provider's refresh margin (``SearchProvider.oauth_margin``): a token
    expiring within it is refreshed first.

    Raises:
        ProviderNotConfiguredError: Nothing is configured (the reference's message).
    """
    if key is not None:
        kind: Literal["api_key", "oauth"] = "oauth" if OAUTH_KEY_MARKER in key else "api_key"
        return AnthropicAuth(token=key, kind=kind)
    if context.credentials.oauth_token(provider_id) is None:
        unseen = context.credentials.unseen_clause(KEY_VARIABLES)
        raise ProviderNotConfiguredError(provider_id, MISSING_CREDENTIALS_MESSAGE + unseen)
    token = await context.credentials.valid_oauth_token(provider_id, min_lifetime=margin)
    return AnthropicAuth(token=token.access_token, kind="oauth", stored_oauth=True)


def hand_out_key_sign_in(
    context: ProviderContext, provider_id: str, env_vars: Iterable[str]
) -> None:
    """Record the OAuth token given as the key as a sign-in, with where it was given.

    It opens the whole Claude account as a stored token does, so a request carrying it is
    judged where it is sent (:meth:`~websearch_core.credentials.Credentials.
    hand_out_sign_in`), not only where ``ANTHROPIC_BASE_URL`` is set.

    Args:
        context: The search's context, whose credentials hand the key out.
        provider_id: The provider's id: the key's, and the one it is judged under.
        env_vars: The provider's key variables, so the refusal names the one it is in.
    """
    credentials = context.credentials
    given = credentials.key_secret(provider_id, env_vars, OAUTH_KEY_WHAT)
    if given is not None:
        credentials.hand_out_sign_in(given, provider_id)


def begin_turn(flow: Flow, auth: AnthropicAuth, provider_id: str) -> None:
    """Keep the credential, base URL and model for the whole turn in ``flow.state``.

    Only a stored OAuth token becomes ``flow.token``, the one the loop refreshes on a 401.
    """
    credentials = flow.context.credentials
    if auth.stored_oauth:
        flow.token = credentials.oauth_token(provider_id)
    environ = {name: credentials.env(name) or "" for name in BASE_URL_ENV_VARS}
    flow.state["auth"] = auth
    flow.state["base"] = base_url(environ)
    flow.state["model"] = credentials.env(MODEL_ENV_VAR) or DEFAULT_MODEL


def turn_request(flow: Flow, assistant_content: Sequence[Any]) -> HttpRequest:
    """The Messages call with ``assistant_content`` as the turn so far (none at first)."""
    auth: AnthropicAuth = flow.state["auth"]
    if flow.token is not None:  # a stored token, possibly just refreshed by the loop
        auth = AnthropicAuth(token=flow.token.access_token, kind="oauth", stored_oauth=True)
    base: str = flow.state["base"]
    body = request_body(
        flow.params,
        model=flow.state["model"],
        system_prompt=flow.context.system_prompt,
        assistant_content=assistant_content,
    )
    return HttpRequest(
        method="POST", url=messages_url(base), headers=request_headers(auth, base), json=body
    )


def paused_content(flow: Flow) -> list[Any] | None:
    """The turn's content so far when its last reply paused and may be continued, else None.

    ``None`` also when a reply was an error or unreadable (the loop's check or the
    provider's parse reports it) or :data:`MAX_CONTINUATIONS` is spent.
    """
    messages = turn_so_far(flow.responses)
    if len(messages) != len(flow.exchanges) or len(messages) > MAX_CONTINUATIONS:
        return None
    if messages[-1].get("stop_reason") != "pause_turn":
        return None
    return [block for message in messages for block in message_content(message)]


def turn_answer(flow: Flow, provider_id: str, label: str) -> SearchResponse:
    """Every message of the turn as one answer; the latest ``request-id`` header wins."""
    replies = [exchange.response.as_http() for exchange in flow.exchanges]
    data = [reply.json(provider_id, label) for reply in replies]
    request_id = next(filter(None, (r.header("request-id") for r in reversed(replies))), None)
    auth: AnthropicAuth = flow.state["auth"]
    return parse_messages(data, flow.params, request_id=request_id).model_copy(
        update={"auth_mode": auth.kind}
    )
