"""An OAuth 2.0 refresh-token grant (RFC 6749 section 6) for the sign-ins a hook renews.

The Codex, Anthropic and Perplexity sign-ins are renewed by a refresh hook the caller
passes (``WebSearch(oauth_refreshers=...)``): the package never calls a token endpoint for
them. A test's hook calls this one, which the provider's simulator serves at
``POST /oauth/token`` (:data:`TOKEN_PATH`), so that a refresh is a request that can be
counted, slowed down or refused like any other the simulator answers. It is not any one
provider's endpoint: it answers as RFC 6749 says a token endpoint does.

A ``grant_type=refresh_token`` form with a refresh token that is neither used nor in
:attr:`RefreshGrant.revoked` gets a fresh access token (``sim-<name>-access-<n>``,
``expires_in`` :attr:`RefreshGrant.lifetime`, ``token_type: Bearer``) and a new refresh
token: each refresh token is good for one use, as the ChatGPT and Claude sign-ins rotate
theirs, so a second refresh from the same stored entry is refused (``400 invalid_grant``),
as it would be by those services. Any other grant gets ``400 unsupported_grant_type``.
The provider's API refuses an access token in :attr:`RefreshGrant.expired` (``401``), as it
does one that outlived its lifetime, so a test can have a token refused before its stored
expiry (or one stored without any).
"""

from aiohttp import web

from ..simulator import RecordedRequest

__all__ = ["TOKEN_PATH", "RefreshGrant"]

TOKEN_PATH = "/oauth/token"


def _oauth_error(error: str, description: str) -> web.Response:
    """An OAuth 2.0 error body (RFC 6749 section 5.2)."""
    return web.json_response({"error": error, "error_description": description}, status=400)


class RefreshGrant:
    """One sign-in's token endpoint: rotates refresh tokens, refuses used and revoked ones.

    Args:
        name: What its tokens start with (the provider id), so a test can tell whose they are.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self.revoked: set[str] = set()
        """Refresh tokens refused as ``invalid_grant`` (signed out); each used one joins."""
        self.lifetime = 3600
        """The ``expires_in`` of every access token issued."""
        self.issued: list[str] = []
        """The access tokens issued, in order."""
        self.expired: set[str] = set()
        """Access tokens the provider's API refuses as expired (``401``)."""

    def answer(self, request: RecordedRequest) -> web.Response:
        """A new access and refresh token for a usable refresh token, else OAuth's error."""
        form = dict(request.form()) if request.method == "POST" else {}
        if form.get("grant_type") != "refresh_token":
            return _oauth_error("unsupported_grant_type", "Only refresh_token is supported.")
        refresh = form.get("refresh_token", "")
        if not refresh or refresh in self.revoked:
            return _oauth_error("invalid_grant", "Refresh token is invalid, used or revoked.")
        self.revoked.add(refresh)  # one use only: the next refresh needs the new one
        number = len(self.issued) + 1
        access = f"sim-{self.name}-access-{number}"
        self.issued.append(access)
        return web.json_response(
            {
                "access_token": access,
                "refresh_token": f"sim-{self.name}-refresh-{number}",
                "expires_in": self.lifetime,
                "token_type": "Bearer",
            }
        )
