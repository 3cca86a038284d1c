"""The Codex backend request, as pure functions: headers from the OAuth token, the body.

Kept apart from :mod:`websearch_core.providers.codex`, which states the wire facts these
functions follow and holds the model-fallback hook.

Body: ``model``, ``stream: true``, ``store: false``, ``instructions`` (the system prompt),
``input: [{"type": "message", "role": "user", "content": [{"type": "input_text", "text":
<query>}]}]``, ``tools: [{"type": "web_search", "search_context_size": "high"}]``,
``tool_choice: {"type": "web_search"}``, ``include: ["web_search_call.action.sources"]``,
``parallel_tool_calls: true``. ``recency``, ``max_tokens`` and ``temperature`` are not sent.
"""

import base64
from typing import Any, Final

from .. import __version__
from ..json_decode import json_loads
from ..models import SearchParams

__all__ = ["DEFAULT_INSTRUCTIONS", "account_claims", "request_body", "request_headers"]

DEFAULT_INSTRUCTIONS: Final = (
    "You are a helpful assistant with web search capabilities. Search the web to answer the "
    "user's question accurately and cite your sources."
)
AUTH_CLAIM: Final = "https://api.openai.com/auth"


def account_claims(token: str) -> dict[str, str]:
    """The ChatGPT account id and residency claims of an OAuth access token (a JWT).

    The token is only decoded, never verified: the server does that.

    Example:
        >>> account_claims("not-a-jwt")
        {}
    """
    parts = token.split(".")
    if len(parts) != 3:
        return {}
    try:
        payload = base64.urlsafe_b64decode(parts[1] + "=" * (-len(parts[1]) % 4))
        claims = json_loads(payload)
    except ValueError:
        return {}
    auth = claims.get(AUTH_CLAIM) if isinstance(claims, dict) else None
    if not isinstance(auth, dict):
        return {}
    found: dict[str, str] = {}
    account = auth.get("chatgpt_account_id")
    if isinstance(account, str) and account.strip():
        found["account_id"] = account.strip()
    for name in ("chatgpt_data_residency", "chatgpt_compute_residency"):
        value = auth.get(name)
        if isinstance(value, str) and value.strip():
            found["residency"] = value.strip()
            break
    return found


def request_headers(token: str) -> dict[str, str]:
    """The Codex backend headers for ``token`` (account id and residency from its claims)."""
    headers = {
        "Authorization": f"Bearer {token}",
        "OpenAI-Beta": "responses=experimental",
        "originator": "websearch-tools",
        "User-Agent": f"websearch-tools/{__version__}",
        "Accept": "text/event-stream",
        "Content-Type": "application/json",
    }
    claims = account_claims(token)
    if "account_id" in claims:
        headers["chatgpt-account-id"] = claims["account_id"]
    if "residency" in claims:
        headers["x-openai-internal-codex-residency"] = claims["residency"]
    return headers


def request_body(params: SearchParams, *, model: str, instructions: str = "") -> dict[str, Any]:
    """The streamed Responses request for ``params`` (pure).

    Example:
        >>> request_body(SearchParams(query="x"), model="gpt-5")["tool_choice"]
        {'type': 'web_search'}
    """
    return {
        "model": model,
        "stream": True,
        "store": False,
        "instructions": instructions.strip() or DEFAULT_INSTRUCTIONS,
        "input": [
            {
                "type": "message",
                "role": "user",
                "content": [{"type": "input_text", "text": params.query}],
            }
        ],
        "tools": [{"type": "web_search", "search_context_size": "high"}],
        "tool_choice": {"type": "web_search"},
        "include": ["web_search_call.action.sources"],
        "parallel_tool_calls": True,
    }
