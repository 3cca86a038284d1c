"""What a Perplexity auth method's step needs besides its request: a fresh token, its answer.

Kept apart from :mod:`websearch_core.providers.perplexity` so the provider module holds
only the order of the methods and the loop's hooks. :func:`fresh_token` is the one place
that awaits (the credential store's refresh hook); :func:`read_answer` is pure.
"""

import time
from typing import TYPE_CHECKING, Final

from ..credentials import OAuthToken
from ..errors import SearchProviderError
from ..models import SearchResponse
from ..transport import SseResponse
from ._perplexity_ask import AskResult, parse_ask_answer
from ._perplexity_parse import parse_api_answer
from ._perplexity_request import ASK_KINDS, ASK_MODEL, MethodKind

if TYPE_CHECKING:
    from .base import Exchange, ProviderContext

__all__ = ["OAUTH_MIN_LIFETIME", "fresh_token", "read_answer"]

OAUTH_MIN_LIFETIME: Final = 300.0
"""A stored token that expires sooner than this is refreshed before use."""


async def fresh_token(context: "ProviderContext", provider_id: str) -> OAuthToken:
    """The stored token, refreshed first when it expires within :data:`OAUTH_MIN_LIFETIME`."""
    token = await context.credentials.valid_oauth_token(provider_id)
    expires = token.expires_at
    if expires is not None and expires - time.time() < OAUTH_MIN_LIFETIME:
        token = await context.credentials.valid_oauth_token(provider_id, force_refresh=True)
    return token


def read_answer(
    kind: MethodKind, exchange: "Exchange", *, limit: int | None
) -> SearchResponse | SearchProviderError:
    """The 2xx answer of a ``kind`` step as a response, or why it cannot be read.

    The failure is returned, not raised: the provider then tries its next method and
    raises it only when none is left.
    """
    response = exchange.response
    assert isinstance(response, SseResponse)  # every Perplexity request streams
    try:
        if kind in ASK_KINDS:
            auth = "anonymous" if kind == "anonymous" else "oauth"
            request_id = exchange.request.headers["X-Request-ID"]
            asked = AskResult(auth_mode=auth, requested_model=ASK_MODEL, request_id=request_id)
            return parse_ask_answer(response, asked, limit=limit)
        model = str(exchange.request.json["model"])
        return parse_api_answer(response, requested_model=model, limit=limit)
    except SearchProviderError as error:
        return error
