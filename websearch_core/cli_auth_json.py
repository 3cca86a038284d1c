"""What the ``auth`` commands answer under ``--json``: one shape family, said in one place.

Each action grew its ``--json`` on its own (``remove``, then ``set`` and ``list``), and
``import`` had none: a refusal under ``auth remove --json`` named its ``provider`` while one
under ``auth set --json`` did not, so a script had to know which action it ran to read the
id back. Here every action's success shape and the one refusal shape are built, and the
words its ``--help`` (and the README) use to describe them are kept beside the builders, so
the two cannot drift apart. No builder takes a key or token: what is stored is named by kind
(``api_key``, ``oauth``), never by value.
"""

from collections.abc import Mapping
from pathlib import Path
from typing import Final

__all__ = [
    "AUTH_JSON_HELP",
    "import_answer",
    "list_answer",
    "refusal_fields",
    "remove_answer",
    "set_answer",
]

_REFUSAL: Final = '{"provider", "error", "failed": true} when refused'
"""The refusal shape every action shares; ``provider`` is null when no id was read."""

AUTH_JSON_HELP: Final[Mapping[str, str]] = {
    "set": (
        'answer as JSON on stdout: {"provider", "stored": "api_key", "credentials_file", '
        '"used_instead"} (the variable or setting whose key is sent first, or null), or '
        f"{_REFUSAL}; the key is never in it"
    ),
    "list": (
        'answer as JSON on stdout: {"credentials_file", "stored": [{"provider", "api_key", '
        f'"oauth"}}]}}, true or false for what is stored, or {_REFUSAL} (provider null); '
        "never a key or token"
    ),
    "remove": (
        'answer as JSON on stdout: {"provider", "removed": "api_key" or "oauth", '
        f'"oauth_kept"}}, or {_REFUSAL} (exit 1 when nothing was stored)'
    ),
    "import": (
        'answer as JSON on stdout: {"provider", "stored": "oauth", "credentials_file", '
        '"imported_from", "refresh_token", "expires_at", "expired"} (refresh_token and '
        f"expired true or false, expires_at seconds since 1970 or null), or {_REFUSAL}; "
        "the token is never in it"
    ),
}
"""Each action's ``--json`` help: its success shape and the shared refusal shape."""


def refusal_fields(provider: str | None) -> dict[str, object]:
    """The fields an ``auth`` refusal holds before ``error``: the id it was about, or null.

    Args:
        provider: The id as the command read it (trimmed, lower case), or ``None`` when the
            action takes none (``list``) or the command line was refused before it was read.
    """
    return {"provider": provider}


def set_answer(
    provider: str, credentials_file: Path, used_instead: str | None
) -> dict[str, object]:
    """``auth set --json``: the id, what was stored, where, and what is sent before it.

    Args:
        provider: The id the key was stored under.
        credentials_file: The store's file.
        used_instead: The variable's name or the setting whose key outranks the stored one.
    """
    return {
        "provider": provider,
        "stored": "api_key",
        "credentials_file": str(credentials_file),
        "used_instead": used_instead,
    }


def list_answer(credentials_file: Path, held: Mapping[str, tuple[bool, bool]]) -> dict[str, object]:
    """``auth list --json``: the store's file and, per id, whether a key and a sign-in are held.

    Args:
        credentials_file: The store's file.
        held: Each stored id's (has an API key, has an OAuth sign-in), in the store's order.
    """
    stored = [
        {"provider": provider, "api_key": api_key, "oauth": oauth}
        for provider, (api_key, oauth) in held.items()
    ]
    return {"credentials_file": str(credentials_file), "stored": stored}


def remove_answer(provider: str, *, oauth: bool, oauth_kept: bool) -> dict[str, object]:
    """``auth remove --json``: the id and what was forgotten (a sign-in kept is said for a key).

    Args:
        provider: The id whose key or sign-in was forgotten.
        oauth: A sign-in was forgotten (``--oauth``), not a key.
        oauth_kept: A key was forgotten and the id's sign-in stays.
    """
    if oauth:
        return {"provider": provider, "removed": "oauth"}
    return {"provider": provider, "removed": "api_key", "oauth_kept": oauth_kept}


def import_answer(
    provider: str,
    credentials_file: Path,
    imported_from: Path,
    *,
    refresh_token: bool,
    expires_at: float | None,
    expired: bool,
) -> dict[str, object]:
    """``auth import --json``: the entry stored, from which file, and what the token lets run.

    The prose line says the same (with or without a refresh token, its expiry); a script
    gets them as values: whether searches can renew it and whether it is already spent.

    Args:
        provider: The OAuth entry the sign-in was stored as (``gemini-cli``).
        credentials_file: The store's file.
        imported_from: The sign-in file read.
        refresh_token: The sign-in holds a refresh token (its value is never given).
        expires_at: When the token expires, seconds since 1970, if known.
        expired: The token had expired when it was imported.
    """
    return {
        "provider": provider,
        "stored": "oauth",
        "credentials_file": str(credentials_file),
        "imported_from": str(imported_from),
        "refresh_token": refresh_token,
        "expires_at": expires_at,
        "expired": expired,
    }
