"""A refresh hook that renews a sign-in at a loopback token endpoint, as a caller's would.

The Codex, Anthropic and Perplexity sign-ins have no refresh of their own here: a program
passes one as ``WebSearch(oauth_refreshers={...})``. This one posts the stored refresh token
to the simulator's token endpoint (``websearch_core/testing/protocols/_oauth_refresh.py``)
and returns what it issues, so a test counts real token requests. Imported by the child
processes of the cross-process tests too, so it imports nothing from pytest.
"""

import json
import time
from typing import Any

import aiohttp

from websearch_core.credentials import OAuthToken, TokenRefresher
from websearch_core.errors import SignInRefusedError


class RefreshRefusedError(SignInRefusedError):
    """The token endpoint refused the refresh token for good (``invalid_grant``).

    A :class:`~websearch_core.errors.SignInRefusedError`, as the package asks a hook to
    raise for a final refusal: it is then remembered and not asked again.
    """


class RefreshFailedError(Exception):
    """The token endpoint failed otherwise (a 5xx): a passing failure, asked again later."""


def refresher(token_url: str) -> TokenRefresher:
    """A refresh hook that asks ``token_url`` for a new token with the stored refresh token.

    Args:
        token_url: The token endpoint.
    """

    async def refresh(entry: str, expired: OAuthToken) -> OAuthToken:
        form = {"grant_type": "refresh_token", "refresh_token": expired.refresh_token or ""}
        async with aiohttp.ClientSession() as session, session.post(token_url, data=form) as reply:
            text = await reply.text()
        body = _object(text)
        if reply.status != 200:
            said = f"{reply.status} {body.get('error')}"
            if body.get("error") == "invalid_grant":
                raise RefreshRefusedError(entry, said, reply.status)
            raise RefreshFailedError(said)
        return OAuthToken(
            access_token=body["access_token"],
            refresh_token=body.get("refresh_token") or expired.refresh_token,
            expires_at=time.time() + float(body["expires_in"]),
        )

    return refresh


def _object(text: str) -> dict[str, Any]:
    """The reply's JSON object; empty for any other body (a proxy's 503 page)."""
    try:
        data = json.loads(text)
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}
