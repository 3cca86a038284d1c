"""Refreshing a Google OAuth sign-in at Google's token endpoint, as its own client does.

Why this exists: a Gemini CLI sign-in imported with ``websearch auth import gemini-cli``
holds an access token that lasts about an hour, and until now only a refresh hook passed in
code (``WebSearch(oauth_refreshers=...)``) could renew it, so an imported sign-in stopped
working an hour after the import. Google issues such a token to an installed application's
OAuth client, and renews it for whoever presents the refresh token with that client's id
and secret (an installed application's secret is public: Google's own guidance says it is
"obviously not treated as a secret", and the Gemini CLI ships its pair in its source).

The exchange (RFC 6749 section 6, Google's ``https://oauth2.googleapis.com/token``):
``POST`` a form of ``grant_type=refresh_token``, ``refresh_token``, ``client_id`` and
``client_secret``. Google answers ``{"access_token", "expires_in" (seconds), "token_type",
"scope", "id_token"}``, with a ``refresh_token`` only when it issues a new one; a refused
refresh is ``400 {"error": "invalid_grant", "error_description": "Token has been expired
or revoked."}`` (the user signed out, revoked the app, changed the password, or the grant
lapsed), a client Google does not know ``401 {"error": "invalid_client"}``, a deleted one
``401 {"error": "deleted_client"}``, and a refresh token another client obtained
``400 {"error": "unauthorized_client", "error_description": "Unauthorized"}``.

The request goes to Google's token endpoint whatever the provider's base URL: a gateway
set for Gemini (``base_urls.gemini``) stands in front of Cloud Code or the Gemini API,
serves no ``/token``, and must not be handed a long-lived refresh token and the client's
secret. It goes through the provider's transport (its proxy, deadline, size cap, errors
naming the provider) under its own base-URL id, ``google_oauth``
(``WEBSEARCH_GOOGLE_OAUTH_BASE_URL``), which points it elsewhere for the loopback simulator
or a user who really routes it through their own server. The refreshed token is written
back by ``Credentials.valid_oauth_token``.
No message here holds a token: errors name the entry, Google's error code and its
description.
"""

import math
import time
from dataclasses import dataclass, field
from typing import Any, Final

from ..credentials import OAuthToken, TokenRefresher
from ..errors import (
    OAuthTokenError,
    ProviderUnavailableError,
    RateLimitedError,
    ResponseParseError,
    SignInRefusedError,
)
from ..json_decode import response_json
from ..provider_ids import GOOGLE_OAUTH_ROUTE
from ..provider_types import ProviderInfo
from ..transport import HttpRequest, HttpResponse, Transport

__all__ = [
    "GOOGLE_TOKEN_URL",
    "TOKEN_URL_NAME",
    "GoogleOAuthClient",
    "refresh_request",
    "refreshed_token",
    "token_refresher",
]

GOOGLE_TOKEN_URL: Final = "https://oauth2.googleapis.com/token"
"""Google's OAuth 2.0 token endpoint (what google-auth-library refreshes at)."""
TOKEN_URL_NAME: Final = "Google OAuth base URL"
"""What the credential check calls the ``google_oauth`` base URL (after its variable,
``WEBSEARCH_GOOGLE_OAUTH_BASE_URL``) when the user info written into it cannot be sent."""
REFUSED_GRANT: Final = frozenset({"invalid_grant", "unauthorized_client", "deleted_client"})
"""Error codes after which this stored refresh token will never be renewed by this client: only
a new sign-in helps, so the refusal is final (:class:`~websearch_core.errors.SignInRefusedError`,
kept beside the token so that later searches do not ask again).

``invalid_grant`` (RFC 6749 section 5.2): the refresh token is invalid, expired, revoked or
was issued to another client. ``unauthorized_client`` (5.2): this client may not use the
grant; Google answers it (``Unauthorized``) to a refresh token obtained by another OAuth
client, such as a Gemini CLI sign-in stored in Antigravity's entry, and the pair never
changes. ``deleted_client`` (Google's own, 401): the client was deleted, which revokes every
refresh token issued to it. Not ``invalid_client``: client authentication failed (an
unknown id, a wrong secret), which concerns the client this package sends, not the stored
token; a release with the client corrected renews the same refresh token, which a refusal
kept under that token would go on refusing."""
REFUSED_CLIENT: Final = frozenset({"invalid_client", "unauthorized_client", "deleted_client"})
"""Error codes saying Google did not take the OAuth client the refresh was sent as."""
DESCRIPTION_AT_MOST: Final = 200
"""Characters of Google's ``error_description`` a message quotes."""


@dataclass(frozen=True, slots=True)
class GoogleOAuthClient:
    """An installed application's Google OAuth client, and how its user signs in again."""

    label: str
    """The application's name in messages (``Gemini CLI``)."""
    client_id: str
    client_secret: str = field(repr=False)
    """Public (shipped in the application's source), but kept out of ``repr`` all the same."""
    sign_in_again: str
    """What the user does when the refresh token is refused, e.g. "run `gemini` ... then
    run `websearch auth import gemini-cli` again"."""
    client_source: str = "built into websearch-tools"
    """Where the client id and secret sent come from, said when Google refuses the client
    itself (``invalid_client``), which no new sign-in mends."""
    token_url: str = GOOGLE_TOKEN_URL


def refresh_request(client: GoogleOAuthClient, refresh_token: str) -> HttpRequest:
    """The form that trades ``refresh_token`` for a new access token."""
    return HttpRequest(
        method="POST",
        url=client.token_url,
        headers={"Accept": "application/json"},
        form=(
            ("grant_type", "refresh_token"),
            ("refresh_token", refresh_token),
            ("client_id", client.client_id),
            ("client_secret", client.client_secret),
        ),
    )


def _object(response: HttpResponse) -> dict[str, Any]:
    """The body as a JSON object; empty when it is not one."""
    try:
        data = response_json(response.body)
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def _text(value: object) -> str:
    """A short single-line form of one of Google's error fields; empty for a non-string."""
    if not isinstance(value, str):
        return ""
    return " ".join(value.split())[:DESCRIPTION_AT_MOST]


def _expiry(lifetime: object, sent_at: float) -> float | None:
    """When a token that lives ``lifetime`` seconds from ``sent_at`` expires; ``None``: unknown."""
    if isinstance(lifetime, bool) or not isinstance(lifetime, int | float):
        return None
    return sent_at + lifetime if math.isfinite(lifetime) else None


def _refusal(data: dict[str, Any], status: int) -> str:
    """``invalid_grant: Token has been expired or revoked.`` or the status alone."""
    code, description = _text(data.get("error")), _text(data.get("error_description"))
    said = ": ".join(filter(None, (code, description)))
    return said or f"status {status}"


def _client_help(client: GoogleOAuthClient, entry: str) -> str:
    """What mends Google's refusal of the OAuth client itself (``invalid_client``).

    Signing in again does not: the refresh token is fine, the client id and secret sent
    with it are what failed to authenticate, and a new sign-in is renewed with the same
    pair. What helps is another pair (a release of this package with it corrected) or a
    renewal that does not send this one (a refresh hook). The id is public (an installed
    application's, shipped in its source) and says which client was refused; the secret
    is never shown.
    """
    return (
        f"signing in again does not help: it was sent as the {client.label} OAuth client "
        f"({client.client_id}), whose id and secret are {client.client_source}; upgrade "
        "websearch-tools (a release with the client corrected renews this same sign-in), "
        "or renew it with a refresh hook (pass WebSearch(oauth_refreshers=...), or websearch "
        f"--refresh-hook {entry}=MODULE:FUNCTION on the command line)"
    )


def refreshed_token(
    client: GoogleOAuthClient,
    info: ProviderInfo,
    entry: str,
    response: HttpResponse,
    old: OAuthToken,
    sent_at: float,
) -> OAuthToken:
    """The token in the token endpoint's answer, or the error its refusal means.

    Args:
        client: The OAuth client the refresh was sent as.
        info: The provider whose search needed the token (errors are its failures).
        entry: The credential store entry being refreshed (errors name it).
        response: The token endpoint's answer.
        old: The token being replaced; its refresh token is kept when Google sends none.
        sent_at: When the request left (epoch seconds): ``expires_in`` counts from then,
            so the expiry is never later than Google's.

    Raises:
        SignInRefusedError: Google refused the refresh token for good (``invalid_grant``,
            ``unauthorized_client``, ``deleted_client``: :data:`REFUSED_GRANT`); the
            message says how to sign in again.
        OAuthTokenError: Google refused the client's authentication (``invalid_client``;
            the message says that signing in again does not help, and what does), or
            refused without an error code (a bare 400, 401 or 403): the next search asks
            again.
        RateLimitedError: The endpoint answered 429.
        ProviderUnavailableError: It answered a 5xx or another unexpected status.
        ResponseParseError: A 2xx without a usable access token.
    """
    data = _object(response)
    status = response.status
    where = f"{entry}: refreshing the {client.label} sign-in"
    if 200 <= status < 300:
        access = data.get("access_token")
        if not isinstance(access, str) or not access.strip():
            raise ResponseParseError(info.id, f"{where}: Google's answer holds no access token")
        expires_at = _expiry(data.get("expires_in"), sent_at)
        renewed = data.get("refresh_token")
        return OAuthToken(
            access_token=access.strip(),
            refresh_token=renewed.strip()
            if isinstance(renewed, str) and renewed.strip()
            else old.refresh_token,
            expires_at=expires_at,
        )
    code = _text(data.get("error"))
    if code in REFUSED_GRANT or code in REFUSED_CLIENT or status in (400, 401, 403):
        whom = "the OAuth client" if code in REFUSED_CLIENT else "the sign-in"
        # Final for this refresh token (remembered: asked no more until a new sign-in):
        # REFUSED_GRANT. A client that failed to authenticate, or a refusal without a
        # code, may pass.
        refused = SignInRefusedError if code in REFUSED_GRANT else OAuthTokenError
        # invalid_client alone is about the pair sent, not the sign-in: a new sign-in is
        # renewed with the same pair, so the text says what does help.
        fix = _client_help(client, entry) if code == "invalid_client" else client.sign_in_again
        raise refused(
            info.id, f"{where}: Google refused {whom} ({_refusal(data, status)}); {fix}", 401
        )
    if status == 429:
        raise RateLimitedError(info.id, f"{where}: Google's token endpoint answered 429", 429)
    raise ProviderUnavailableError(
        info.id, f"{where}: Google's token endpoint answered {status}; try again later", status
    )


def token_refresher(
    client: GoogleOAuthClient, transport: Transport, info: ProviderInfo
) -> TokenRefresher:
    """A refresh hook that renews a token of ``client``'s sign-in through ``transport``.

    Sent under the ``google_oauth`` base URL, never the provider's (see the module's text).

    What ``Credentials.valid_oauth_token`` calls (with the entry and the stored token) when
    no hook was passed in code for the entry.
    """

    async def refresh(entry: str, token: OAuthToken) -> OAuthToken:
        if not token.refresh_token:
            raise OAuthTokenError(
                info.id,
                f"{entry}: OAuth token expired and holds no refresh token; {client.sign_in_again}",
                401,
            )
        sent_at = time.time()
        request = refresh_request(client, token.refresh_token)
        response = await transport.send(info.id, info.label, request, route=GOOGLE_OAUTH_ROUTE)
        return refreshed_token(client, info, entry, response, token, sent_at)

    return refresh
