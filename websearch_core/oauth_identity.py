"""Which sign-in an OAuth token belongs to, as a fingerprint that survives a refresh.

A provider's marks (a 401 cooldown, a 429, spent credits) belong to the credential that
earned them, so a mark's scope has to tell one sign-in from another. The access token cannot
do that: it changes at every refresh, so a scope built on it would forget a rate limit the
moment the token was renewed. What is stable about a sign-in, in order:

1. The JWT ``iss`` and ``sub`` claims of an access token that is a JWT (OpenAI's, for
   Codex): the account itself, whatever token is current.
2. The refresh token (Google's stays the same across refreshes).
3. The access token, for a token that cannot be refreshed and so never changes by itself.

Issuers that rotate the refresh token with every refresh and hand out opaque access tokens
would still move the fingerprint, so a refresh keeps the fingerprint of the token it
replaces (``Credentials.valid_oauth_token`` stores it beside the fresh token): only a token
stored anew, a sign-in of its own, starts a new one. Only a truncated, salted SHA-256 digest
is ever kept, never the claim or token it was taken from.
"""

import base64
import hashlib

from .json_decode import json_loads

__all__ = ["grant_fingerprint", "sign_in_fingerprint"]

_SALT = b"websearch-tools oauth sign-in\x00"
"""Keeps these digests apart from any other digest of the same token."""
_GRANT_SALT = b"websearch-tools oauth grant\x00"
""":func:`grant_fingerprint`'s, so its digest of a refresh token is not the sign-in's."""


def _jwt_subject(access_token: str) -> str | None:
    """``iss`` and ``sub`` of a JWT access token, decoded and never verified; else ``None``."""
    parts = access_token.split(".")
    if len(parts) != 3:
        return None
    try:
        claims = json_loads(base64.urlsafe_b64decode(parts[1] + "=" * (-len(parts[1]) % 4)))
    except ValueError:  # binascii.Error and JSONDecodeError are ValueErrors
        return None
    if not isinstance(claims, dict):
        return None
    subject, issuer = claims.get("sub"), claims.get("iss")
    if not isinstance(subject, str) or not subject.strip():
        return None
    return f"{issuer if isinstance(issuer, str) else ''}\x00{subject.strip()}"


def sign_in_fingerprint(access_token: str, refresh_token: str | None) -> str:
    """A secret-free fingerprint of the sign-in a token belongs to (16 hex digits).

    Example:
        >>> a = sign_in_fingerprint("access-1", "refresh")
        >>> a == sign_in_fingerprint("access-2", "refresh"), len(a), "refresh" in a
        (True, 16, False)
    """
    subject = _jwt_subject(access_token)
    if subject is not None:
        basis = f"jwt\x00{subject}"
    elif refresh_token:
        basis = f"refresh\x00{refresh_token}"
    else:
        basis = f"access\x00{access_token}"
    digest = hashlib.sha256(_SALT + basis.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()[:16]


def grant_fingerprint(access_token: str, refresh_token: str | None) -> str:
    """A secret-free fingerprint of what a refresh presents: the refresh token itself.

    Unlike :func:`sign_in_fingerprint` (the account, stable across refreshes), this one
    changes with the refresh token, so a refusal remembered under it no longer applies
    once another refresh token is stored. A token without one is known by its access
    token, which is then what a refresh hook is handed.

    Example:
        >>> grant_fingerprint("a", "r1") == grant_fingerprint("b", "r1")
        True
        >>> grant_fingerprint("a", "r1") == grant_fingerprint("a", "r2")
        False
    """
    basis = f"refresh\x00{refresh_token}" if refresh_token else f"access\x00{access_token}"
    digest = hashlib.sha256(_GRANT_SALT + basis.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()[:16]
