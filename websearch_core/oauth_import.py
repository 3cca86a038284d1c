"""Reading another tool's OAuth sign-in file, for ``websearch auth import``.

Why this exists: this package has no login flow of its own, and the only way to give it an
OAuth token was code (``CredentialStore.set_oauth``), so a user signed in with the Gemini
CLI had to copy its token by hand. The Gemini CLI keeps its Google sign-in in
``~/.gemini/oauth_creds.json`` (its ``Storage.getOAuthCredsPath()``), written by its
``cacheCredentials`` as google-auth-library's ``Credentials`` JSON, mode 0600:
``access_token``, ``refresh_token``, ``expiry_date`` (epoch **milliseconds**),
``token_type`` (``Bearer``), ``scope`` and ``id_token``. Only the first three are read.
A Gemini CLI run with ``GEMINI_FORCE_ENCRYPTED_FILE_STORAGE=true`` keeps the token in the
keychain instead and leaves no such file; a file holding ``"type":
"external_account_authorized_user"`` (its BYOID sign-in) holds no access token.

One table of sources (:data:`IMPORT_SOURCES`), one reader; nothing here writes the store,
and no message ever holds a token: errors name the file and the field.
"""

import math
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from .credentials import OAuthToken
from .errors import ConfigurationError
from .json_decode import json_loads
from .sent_secret import flaw

__all__ = ["IMPORT_SOURCES", "ImportSource", "read_google_credentials", "read_sign_in"]

MAX_FILE_BYTES: Final = 64 * 1024
"""A credentials file is a few hundred bytes; anything past this is not one."""


@dataclass(frozen=True, slots=True)
class ImportSource:
    """Another tool's sign-in file and the credential store entry it becomes."""

    entry: str
    """The credential store entry the token is stored under (the provider's sign-in)."""
    label: str
    """The tool's name in messages."""
    default_path: str
    """Where the tool keeps the file (``~`` is the user's home directory)."""
    read: Callable[[Any, str], OAuthToken]
    """The file's JSON and its name in messages to the token; raises
    :class:`~websearch_core.errors.ConfigurationError` naming what is wrong."""
    sign_in_hint: str
    """How to get a fresh file, for the missing-file and expired-token messages."""
    fileless: str = ""
    """When the tool may keep its sign-in where no file can be read (a keychain) and what
    to do then, said when no file is found at the usual place; empty: it always writes one."""
    fileless_variable: str = ""
    """The tool's variable that makes it keep the sign-in out of the file; set to ``true``
    in our environment, the missing-file message starts from it."""


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None


def _token_field(data: Mapping[str, Any], name: str, where: str) -> str | None:
    """A token field's trimmed value; ``None`` when absent or empty.

    Raises:
        ConfigurationError: It is not a string, or holds a character no header can carry.
    """
    value = data.get(name)
    if value is None:
        return None
    if not isinstance(value, str):
        raise ConfigurationError(f"{where}: {name} is not a string; nothing stored")
    value = value.strip()
    reason = flaw(value, key=False) if value else None
    if reason is not None:
        raise ConfigurationError(f"{where}: {name} {reason}; nothing stored")
    return value or None


def read_google_credentials(data: Any, where: str) -> OAuthToken:
    """The token in google-auth-library ``Credentials`` JSON (the Gemini CLI's file).

    Example:
        >>> token = read_google_credentials(
        ...     {"access_token": "ya29.x", "expiry_date": 1700000000000}, "f"
        ... )
        >>> token.expires_at
        1700000000.0

    Raises:
        ConfigurationError: Not a JSON object, an external-account credential, or no
            usable ``access_token``; the message names the file and the field only.
    """
    if not isinstance(data, Mapping):
        raise ConfigurationError(f"{where} is not a JSON object; nothing stored")
    if data.get("type") == "external_account_authorized_user":
        raise ConfigurationError(
            f"{where} holds an external-account (BYOID) credential, not an OAuth token;"
            " nothing stored"
        )
    access = _token_field(data, "access_token", where)
    if access is None:
        raise ConfigurationError(f"{where} holds no access_token; nothing stored")
    expiry = _number(data.get("expiry_date"))
    return OAuthToken(
        access_token=access,
        refresh_token=_token_field(data, "refresh_token", where),
        expires_at=expiry / 1000 if expiry is not None else None,
    )


IMPORT_SOURCES: Final[Mapping[str, ImportSource]] = {
    "gemini-cli": ImportSource(
        entry="gemini-cli",
        label="Gemini CLI",
        default_path="~/.gemini/oauth_creds.json",
        read=read_google_credentials,
        sign_in_hint="run `gemini` and choose Login with Google",
        fileless=(
            "a Gemini CLI run with GEMINI_FORCE_ENCRYPTED_FILE_STORAGE=true keeps its sign-in"
            " in the system keychain (or an encrypted file) and writes no file to import:"
            " sign in once with that variable unset so it writes {file}, then import it, or"
            " set GEMINI_API_KEY instead"
        ),
        fileless_variable="GEMINI_FORCE_ENCRYPTED_FILE_STORAGE",
    ),
}
"""What ``websearch auth import SOURCE`` knows, by ``SOURCE``."""


def _no_file(source: ImportSource, file: Path, *, given: bool) -> str:
    """Why there is nothing at ``file`` and what to do, for the missing-file error.

    A Gemini CLI that keeps its sign-in in the keychain leaves no file, and "sign in with
    the Gemini CLI first" sent its user back to a sign-in that had already happened; so
    the usual place's message says that such a sign-in cannot be imported and what works
    instead (first, when the tool's variable is set here too).
    """
    missing = f"no {source.label} sign-in at {file}"
    if given or not source.fileless:
        return f"{missing}: {source.sign_in_hint} first, or give the file's path; nothing stored"
    fileless = source.fileless.format(file=file)
    variable = source.fileless_variable
    if variable and os.environ.get(variable, "").strip().lower() == "true":
        return f"{missing} ({variable} is set to true here): {fileless}; nothing stored"
    return (
        f"{missing}: {source.sign_in_hint} first, or give the file's path ({fileless});"
        " nothing stored"
    )


def read_sign_in(source: ImportSource, path: str | None) -> tuple[Path, OAuthToken]:
    """The file's path and the token in it.

    Raises:
        ConfigurationError: The file is missing, unreadable, too large, not JSON, or holds
            no usable token; the message names the file, never a value in it.
    """
    file = Path(os.path.expanduser(path or source.default_path))
    try:
        with file.open("rb") as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise ConfigurationError(_no_file(source, file, given=path is not None)) from None
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise ConfigurationError(f"cannot read {file}: {reason}; nothing stored") from None
    if len(raw) > MAX_FILE_BYTES:
        raise ConfigurationError(
            f"{file} is too large for a {source.label} sign-in file; nothing stored"
        )
    try:
        data = json_loads(raw)
    except ValueError:
        raise ConfigurationError(f"{file} is not valid JSON; nothing stored") from None
    return file, source.read(data, str(file))
