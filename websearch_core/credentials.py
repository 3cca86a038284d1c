"""API keys: explicit arguments > environment > config file > the local credential store.

The store is a small JSON file written with mode ``0600`` (owner read/write only), for keys
set through ``websearch auth set <provider>``. Values are only ever held in memory as
:class:`pydantic.SecretStr` or plain strings passed straight into request headers; nothing
here prints or logs them: the store's log lines (``INFO``, shown by ``websearch auth -v``)
name its path and how many entries it holds, nothing of what they are.
"""

import json
import logging
import math
import os
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable, Iterable, Mapping
from contextlib import AbstractContextManager, asynccontextmanager, nullcontext
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar

from pydantic import SecretStr

from .deadline import remaining_budget
from .edited_text import SavedAsUtf16Error, utf8_text
from .env_values import value_getter, values_reader
from .environ_given import unseen_clause
from .errors import (
    AuthorizationError,
    ConfigurationError,
    OAuthTokenError,
    ProviderNotConfiguredError,
    ProviderUnavailableError,
    SearchProviderError,
    SignInRefusedError,
)
from .oauth_identity import grant_fingerprint, sign_in_fingerprint
from .private_file import warn_if_open
from .redaction import MIN_TOKEN_LENGTH, userinfo_secrets
from .sent_secret import KeptChecks, SentSecret, flaw, in_variable, key_in_code_problem
from .sign_in_declarations import sign_in_variable, sign_in_variables, undeclared_refusal
from .sign_in_holders import note_holder
from .sign_in_values import NO_SIGN_IN_VALUES, SignInValues
from .single_flight import SingleFlight
from .store_lock import LOCK_WAIT_SECONDS, LockHeldError, exclusive, exclusive_for, lock_path
from .store_unreadable import UnreadableStoreError

__all__ = [
    "CredentialStore",
    "Credentials",
    "OAuthToken",
    "TokenRefresher",
    "explicit_keys",
    "refuse_bad_keys_in_code",
]

logger = logging.getLogger(__name__)

EXPIRY_SKEW_SECONDS = 60.0
"""A token this close to expiry counts as expired, so it never dies mid-request."""


@dataclass(frozen=True, slots=True)
class OAuthToken:
    """An OAuth access token with its expiry and refresh token (values hidden from repr)."""

    access_token: str = field(repr=False)
    refresh_token: str | None = field(default=None, repr=False)
    expires_at: float | None = None
    """Epoch seconds; ``None`` when the issuer gave no expiry."""
    sign_in: str | None = None
    """The fingerprint of the sign-in this token was refreshed from (see
    :mod:`websearch_core.oauth_identity`), kept so a refresh never makes it another sign-in;
    ``None`` for a token stored as it was issued. Not a secret."""

    def fingerprint(self) -> str:
        """Which sign-in this token belongs to, stable across refreshes; never a secret."""
        return self.sign_in or sign_in_fingerprint(self.access_token, self.refresh_token)

    def is_expired(self, now: float | None = None, skew: float = EXPIRY_SKEW_SECONDS) -> bool:
        """True when the token expires within ``skew`` seconds of ``now``."""
        if self.expires_at is None:
            return False
        return (now if now is not None else time.time()) + skew >= self.expires_at

    def to_json(self) -> dict[str, Any]:
        """The stored form (``sign_in`` only when there is one)."""
        stored: dict[str, Any] = {
            "access_token": self.access_token,
            "refresh_token": self.refresh_token,
            "expires_at": self.expires_at,
        }
        if self.sign_in is not None:
            stored["sign_in"] = self.sign_in
        return stored

    @classmethod
    def from_json(cls, data: Any) -> "OAuthToken | None":
        """Read the stored form; ``None`` for anything malformed."""
        if not isinstance(data, dict) or not isinstance(data.get("access_token"), str):
            return None
        expires = data.get("expires_at")
        refresh = data.get("refresh_token")
        sign_in = data.get("sign_in")
        return cls(
            access_token=data["access_token"],
            refresh_token=refresh if isinstance(refresh, str) else None,
            expires_at=float(expires)
            if isinstance(expires, int | float) and math.isfinite(expires)
            else None,
            sign_in=sign_in if isinstance(sign_in, str) and sign_in else None,
        )


TokenRefresher = Callable[[str, OAuthToken], Awaitable[OAuthToken]]
"""The documented refresh hook: ``async def refresh(provider_id, expired_token) -> new_token``.

Login flows are not ours; a caller that owns one passes a refresher per provider to
``WebSearch(oauth_refreshers={...})``. The new token is written back to the store.
"""

_REFRESHES: "SingleFlight[OAuthToken]" = SingleFlight()
"""The OAuth refreshes in flight in this process, by credential file, entry and sign-in."""


SETTLED_NS = 2_000_000_000
"""A credential file changed less than this long ago (2 s, the coarsest common file-system
clock) is read again on every lookup rather than kept."""

_FileSignature = tuple[int, int, int, int, int]
"""What identifies one version of a file: device, inode, size, modified and changed time."""


def _signature(status: os.stat_result) -> _FileSignature:
    return (status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns, status.st_ctime_ns)


class CredentialStore:
    """A JSON file of ``{provider: {"api_key": "..."}}`` readable by its owner only.

    Args:
        path: The file; created on first write with its parent directory.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._cached: tuple[_FileSignature, dict[str, dict[str, Any]]] | None = None
        self._holds = 0
        self._held: dict[str, dict[str, Any]] | None = None
        self._consulted = False
        """Whether anything has been read from the file yet (a lookup, a write's read)."""

    def __repr__(self) -> str:
        return f"CredentialStore(path={str(self.path)!r})"

    def _read(self) -> dict[str, dict[str, Any]]:
        """The file's content, parsed again only when the file changed (never mutate it).

        The auto chain asks the store about every provider without a key on every search
        (19 lookups); reading and decoding the file each time cost ~150 us a search. A
        ``stat`` (under 1 us) says whether the file is still the one parsed, so a key
        stored by another process or an editor is still seen on the next lookup, as before.
        Any change sets the file's change time (``st_ctime``) to the clock's now, which no
        program can set back; a file changed within :data:`SETTLED_NS` of the read is not
        kept (a coarse file-system clock could give a later change the same stamp), so a
        kept version's stamp is older than any change that can follow it.
        """
        if self._holds and self._held is not None:
            return self._held
        self._consulted = True
        data = self._current()
        if self._holds:
            self._held = data
        return data

    def _current(self) -> dict[str, dict[str, Any]]:
        try:
            status = os.stat(self.path)
        except FileNotFoundError:
            return {}  # what reading a missing file gives, without a second failed call
        except OSError:
            return self._load()  # unreadable: the read raises as it always did
        signature = _signature(status)
        cached = self._cached
        if cached is not None and cached[0] == signature:
            return cached[1]
        data = self._load()
        # Once per version of the file read (a lookup of a file kept is not logged).
        logger.info("credential store %s read: %s", self.path, _entries(len(data)))
        warn_if_open(self.path, status, "credential store")
        changed = max(status.st_mtime_ns, status.st_ctime_ns)
        settled = time.time_ns() - changed > SETTLED_NS
        self._cached = (signature, data) if settled else None
        return data

    def version(self) -> Hashable | None:
        """What the next lookup would read, as one comparable value; ``None``: not pinned.

        Equal versions mean equal content: the file's signature while the content read from
        it is kept (a file changed within :data:`SETTLED_NS` is not), or a marker for no
        file at all. ``None`` when nothing is kept yet or the file cannot be looked at, so
        a caller keeping answers drawn from the store keeps none.

        A store nothing has been read from yet gives :data:`_UNREAD` without looking at the
        file: no answer rests on its content, so none can be kept wrongly, and the first
        read changes the version. A client whose keys are given in code never reads it, and
        kept answers then cost it no ``stat`` a search (2 us, more with no file, which
        raises ``FileNotFoundError`` each time).
        """
        if not self._consulted:
            return _UNREAD
        try:
            status = os.stat(self.path)
        except FileNotFoundError:
            return _NO_FILE
        except OSError:
            return None
        cached = self._cached
        signature = _signature(status)
        return signature if cached is not None and cached[0] == signature else None

    def held(self) -> "_Hold":
        """Inside ``with store.held():`` the file is looked at once (a write looks again).

        Resolving a plan asks about each provider in one synchronous step; one look for
        all of them reads what a single look at its start would, without a ``stat`` per
        provider.
        """
        return _Hold(self)

    def _load(self) -> dict[str, dict[str, Any]]:
        """The file's provider entries read and checked now, a new object the caller may change.

        An entry that is not an object (``"brave": "key"`` written by hand) holds nothing
        a lookup can use and is left out here; :meth:`_load_all` keeps it for a write.
        """
        return {k: v for k, v in self._load_all().items() if isinstance(v, dict)}

    def _load_all(self) -> dict[str, Any]:
        """Every entry of the file, read now: what a write starts from, so it keeps them.

        Writes started from :meth:`_load` once, so ``websearch auth set tavily`` deleted an
        entry it could not read (a key written by hand as ``"brave": "..."``) for good.
        """
        self._consulted = True
        try:
            raw = utf8_text(self.path.read_bytes())
        except FileNotFoundError:
            return {}
        except OSError as exc:
            raise UnreadableStoreError(
                f"cannot read credential store {self.path}: {exc.strerror}"
            ) from None
        except SavedAsUtf16Error as exc:
            # Notepad's "Unicode", PowerShell's ``>``: said as for the config file.
            raise UnreadableStoreError(f"credential store {self.path} {exc}") from None
        except UnicodeDecodeError as exc:
            # A file saved by an editor in Latin-1: named like a bad config file, by
            # position only (the bytes around it are a key's).
            raise UnreadableStoreError(
                f"credential store {self.path} is not UTF-8 text "
                f"(byte {exc.start} cannot be decoded)"
            ) from None
        if not raw.strip():
            # An empty file (``touch``ed ready, or emptied to forget every key) holds no
            # keys; read as invalid JSON, it failed every search and even ``auth set``.
            return {}
        try:
            data = json.loads(raw)
        except json.JSONDecodeError:
            raise UnreadableStoreError(f"credential store {self.path} is not valid JSON") from None
        if not isinstance(data, dict):
            raise UnreadableStoreError(f"credential store {self.path} must hold a JSON object")
        return data

    def _update(self, change: Callable[[dict[str, Any]], bool]) -> bool:
        """Apply ``change`` to every entry of the file and write it back, under a lock.

        Two writers at once (``websearch auth set brave`` beside ``auth set tavily``) each
        read the file, changed their entry and renamed their copy over it, so the one that
        renamed last erased the other's key. The lock (:func:`~websearch_core.store_lock.
        exclusive`) is held from the read to the rename.

        Args:
            change: Changes the entries in place; ``False``: nothing changed, nothing
                is written.

        Returns:
            What ``change`` returned.
        """
        target = Path(os.path.realpath(self.path))
        try:
            target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            with exclusive(target, f"credential store {self.path}"):
                data = self._load_all()
                if not change(data):
                    return False
                self._write(data)
                return True
        except OSError as exc:
            raise self._unwritable(exc) from None

    def _write(self, data: Mapping[str, Any]) -> None:
        """Replace the file's content at once (a new file renamed over it), mode 0600.

        A store that is a symbolic link (a dotfiles checkout links it into place) has its
        target replaced, not the link: renaming onto the link's own path turned it into a
        regular file, and the dotfiles copy no longer saw any key stored after that.
        """
        self._held = None
        target = Path(os.path.realpath(self.path))
        try:
            target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".credentials-")
        except OSError as exc:
            raise self._unwritable(exc) from None
        try:
            os.fchmod(fd, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(data, handle, indent=2, sort_keys=True)
            os.replace(tmp, target)
        except BaseException as exc:
            Path(tmp).unlink(missing_ok=True)
            if isinstance(exc, OSError):
                raise self._unwritable(exc) from None
            raise
        linked = (
            "" if target == Path(os.path.abspath(self.path)) else f" (reached through {self.path})"
        )
        logger.info(
            "credential store %s written (mode 0600)%s: %s", target, linked, _entries(len(data))
        )

    def _unwritable(self, error: OSError) -> ConfigurationError:
        """A failed write named with the file and the reason; the old file is left as it was.

        A directory the user may not write to, a read-only file system or a full disk
        ended ``websearch auth set`` in a traceback.
        """
        reason = error.strerror or type(error).__name__
        return ConfigurationError(f"cannot write credential store {self.path}: {reason}")

    def get(self, provider: str, field: str = "api_key") -> str | None:
        """The stored value for ``provider`` without surrounding whitespace, or ``None``.

        :meth:`set` strips what it stores; a file written by hand or by an older version
        may hold a key with a trailing line break all the same, and it is used as a key
        from any other source is: trimmed.
        """
        value = self._read().get(provider, {}).get(field)
        if not isinstance(value, str):
            return None
        return value.strip() or None

    def set(self, provider: str, value: str, field: str = "api_key") -> None:
        """Store ``value`` for ``provider``; the file stays mode 0600.

        Raises:
            ConfigurationError: ``value`` is blank, or has a flaw no key has (see
                :func:`~websearch_core.sent_secret.flaw`): a control character (a pasted
                Ctrl-A, a NUL), the quotes or the ``NAME=`` of a ``.env`` line, an
                invisible character. Such a key would be stored and then fail every later
                search. The message never shows the value.
        """
        # "an API key", not the file's field name: `websearch auth set brave` said
        # "refusing to store an api_key for brave", a word from the JSON, not the README.
        key = field == "api_key"
        what = "an API key" if key else f"the {field} field"
        if not value.strip():
            empty = "an empty API key" if key else f"an empty {field} field"
            raise ConfigurationError(f"refusing to store {empty} for {provider}")
        reason = flaw(value.strip(), key=key)
        if reason is not None:
            raise ConfigurationError(
                f"refusing to store {what} for {provider} that {reason}; nothing stored"
            )
        stored = value.strip()
        self._update(lambda data: _put(data, provider, field, stored))

    def get_oauth(self, provider: str) -> OAuthToken | None:
        """The stored OAuth token for ``provider``, or ``None``."""
        return OAuthToken.from_json(self._read().get(provider, {}).get("oauth"))

    def set_oauth(self, provider: str, token: OAuthToken) -> None:
        """Store an OAuth token (access, refresh, expiry) for ``provider``; mode 0600.

        A new sign-in: the stored token is replaced whole, and with it a refusal kept beside
        the old one (:meth:`LockedStore.refuse`), so the next refresh asks again.
        """
        self._update(lambda data: _put(data, provider, "oauth", token.to_json()))

    def refusal(self, provider: str) -> str | None:
        """Why the token stored for ``provider`` cannot be refreshed, if that was said for good.

        The text a refresh refused for good kept beside the token (see
        :meth:`LockedStore.refuse`) while it still names that token's refresh token; read
        without the lock, for ``websearch providers``, which said such a sign-in was ready.
        """
        stored = self._read().get(provider, {}).get("oauth")
        token = OAuthToken.from_json(stored)
        return None if token is None else _refusal_of(stored, token)

    @asynccontextmanager
    async def locked(self, seconds: float) -> AsyncIterator["LockedStore"]:
        """Hold the store's lock inside (waiting at most ``seconds``), for an OAuth refresh.

        Two threads (each its own event loop) or two processes meeting one expired sign-in
        each asked the token endpoint; holding the lock from the read of the entry to the
        write of its new token makes the second read the first one's token. What it yields
        reads the file afresh and writes without taking the lock again (a second ``flock``
        on the same file, from this process, would wait for itself).

        Raises:
            LockHeldError: Another thread or process held the lock for ``seconds``.
            ConfigurationError: The lock file cannot be made (the directory is not
                writable), named as a failed write is.
        """
        begun = time.monotonic()  # what comes before the wait is part of it, not extra
        target = Path(os.path.realpath(self.path))
        try:
            target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            lock_path(target)
        except OSError as exc:
            raise self._unwritable(exc) from None
        async with exclusive_for(target, seconds, begun=begun):
            yield LockedStore(self)

    def remove(self, provider: str, field: str | None = None) -> bool:
        """Forget ``field`` (default: everything) stored for ``provider``.

        Args:
            provider: The provider id.
            field: One stored value (``"api_key"``, ``"oauth"``); an entry left empty
                goes too. ``None`` forgets the whole entry.

        Returns:
            True when something was removed.
        """
        if not _forget(self._load_all(), provider, field):
            return False  # nothing to lock or write (the store need not even exist)
        return self._update(lambda data: _forget(data, provider, field))

    def providers(self) -> list[str]:
        """Ids that have something stored (never the values)."""
        return sorted(self._read())


def _entries(count: int) -> str:
    """``1 entry``, ``3 entries``: how much a store holds, never what."""
    return f"{count} entr{'y' if count == 1 else 'ies'}"


def _put(data: dict[str, Any], provider: str, field: str, value: object) -> bool:
    """Set ``field`` of ``provider``'s entry in ``data`` to ``value``."""
    _entry(data, provider)[field] = value
    return True


def _forget(data: dict[str, Any], provider: str, field: str | None) -> bool:
    """Remove ``field`` (``None``: the whole entry) of ``provider`` from ``data``.

    An entry left empty goes too. ``False`` when there was nothing to remove.
    """
    if provider not in data:
        return False
    entry = data[provider]
    if field is not None and isinstance(entry, dict):
        if field not in entry:
            return False
        del entry[field]
        if entry:
            return True
    del data[provider]
    return True


def _entry(data: dict[str, Any], provider: str) -> dict[str, Any]:
    """``provider``'s entry in ``data``, a new one in place of one that is not an object."""
    entry = data.get(provider)
    if not isinstance(entry, dict):
        entry = data[provider] = {}
    return entry


class LockedStore:
    """A credential store whose lock is held (see :meth:`CredentialStore.locked`)."""

    __slots__ = ("_store",)

    def __init__(self, store: CredentialStore) -> None:
        self._store = store

    def get_oauth(self, provider: str) -> OAuthToken | None:
        """The OAuth token stored for ``provider`` now: read from the file, never a kept copy."""
        return OAuthToken.from_json(self._store._load().get(provider, {}).get("oauth"))

    def set_oauth(self, provider: str, token: OAuthToken) -> None:
        """Store ``token`` for ``provider`` (every other entry kept), under the held lock."""
        data = self._store._load_all()
        if _put(data, provider, "oauth", token.to_json()):
            self._store._write(data)

    def refusal(self, provider: str, token: OAuthToken) -> str | None:
        """Why ``token``'s refresh was refused for good, if it was; else ``None``.

        What :meth:`refuse` kept beside the stored token, while it still names that
        token's refresh token (:func:`~websearch_core.oauth_identity.grant_fingerprint`):
        a token stored since (a new sign-in) holds no such record, and a refresh token
        changed in the file by hand no longer matches one.
        """
        return _refusal_of(self._store._load().get(provider, {}).get("oauth"), token)

    def refuse(self, provider: str, token: OAuthToken, message: str) -> None:
        """Keep ``message`` as the final refusal of ``token``'s refresh, beside it.

        Only while ``token`` is still the one stored: a sign-in stored meanwhile is not
        marked with its predecessor's refusal. The record holds a digest of the refresh
        token and the error's text (never a token); storing a new token drops it.
        """
        data = self._store._load_all()
        entry = data.get(provider)
        stored = entry.get("oauth") if isinstance(entry, dict) else None
        if not isinstance(stored, dict) or OAuthToken.from_json(stored) != _as_stored(token):
            return
        grant = grant_fingerprint(token.access_token, token.refresh_token)
        stored[_REFUSED] = {"grant": grant, "message": message}
        self._store._write(data)


_REFUSED = "refused"
"""The field of a stored OAuth token that records its refresh's final refusal."""


def _refusal_of(stored: object, token: OAuthToken) -> str | None:
    """The final refusal kept in ``stored`` (an entry's ``oauth``) for ``token``, or ``None``.

    One reading of the record for the refresh (which then asks nothing) and for the
    providers table (which then says the sign-in is refused rather than ready).
    """
    refused = stored.get(_REFUSED) if isinstance(stored, dict) else None
    if not isinstance(refused, dict):
        return None
    message = refused.get("message")
    grant = grant_fingerprint(token.access_token, token.refresh_token)
    if refused.get("grant") != grant or not isinstance(message, str) or not message:
        return None
    return message


def _as_stored(token: OAuthToken) -> OAuthToken | None:
    """``token`` as reading its stored form gives it back (so the two compare equal)."""
    return OAuthToken.from_json(token.to_json())


class _Hold:
    """``CredentialStore.held``'s context (a class: a generator costs a microsecond more)."""

    __slots__ = ("_store",)

    def __init__(self, store: CredentialStore) -> None:
        self._store = store

    def __enter__(self) -> None:
        self._store._holds += 1

    def __exit__(self, *_: object) -> None:
        store = self._store
        store._holds -= 1
        if not store._holds:
            store._held = None


_NO_FILE = "no credential store file"
""":meth:`CredentialStore.version` of a missing file (every lookup gives nothing)."""
_UNREAD = "credential store not read yet"
""":meth:`CredentialStore.version` before anything was read from it (no answer rests on it)."""

_FROM_CODE = "api_keys in code"
_FROM_CONFIG = "api_keys in the config file"
_FROM_STORE = "the credential store"
_KEPT_KEYS = 64
"""How many keys :meth:`Credentials.key_secret` keeps as it handed them out (the same key
is then the same object, which :class:`KeptChecks` compares by identity first)."""
"""Where a key came from, besides an environment variable (named by itself): a variable's
name holds no space, so none of these is mistaken for one."""

_NOT_HELD: AbstractContextManager[object] = nullcontext()
"""What ``Credentials.store_held`` gives without a store (reusable: it does nothing)."""


class Credentials:
    """Resolves a provider's key from each source in precedence order.

    Args:
        explicit: Keys passed in code, e.g. ``WebSearch(api_keys={"brave": "..."})``.
        configured: Keys from the TOML config file.
        store: The local credential store, consulted last.
        environ: The environment to read in place of ``os.environ`` (the default). It
            replaces the process environment, it is not layered over it, so a test given
            ``environ={}`` is not served the developer's own keys; layer overrides with
            ``collections.ChainMap(overrides, os.environ)``. A key set in ``os.environ``
            alone is then not found, and the "not found" error says so
            (:meth:`unseen_clause`). Sign-in variables a provider class declares are
            recorded from ``os.environ`` too (:meth:`note_sign_in_variables`): code may
            read one from there whatever this mapping holds.
    """

    def __init__(
        self,
        explicit: Mapping[str, str | SecretStr] | None = None,
        configured: Mapping[str, SecretStr] | None = None,
        store: CredentialStore | None = None,
        environ: Mapping[str, str] | None = None,
        refreshers: Mapping[str, TokenRefresher] | None = None,
    ) -> None:
        self._explicit = {k.lower(): _reveal(v) for k, v in (explicit or {}).items()}
        self._configured = {k.lower(): v.get_secret_value() for k, v in (configured or {}).items()}
        self._store = store
        self._environ = environ if environ is not None else os.environ
        self._env_get = value_getter(self._environ)
        # Every value that could reach a request, for redaction; grows as keys resolve.
        self._known = {v for v in (*self._explicit.values(), *self._configured.values()) if v}
        self._secrets_version = 0
        self._refreshers = dict(refreshers or {})
        self.checks = KeptChecks()
        """Each provider's last credential check (see :class:`KeptChecks`)."""
        self._key_secrets: dict[tuple[str, str, str, str], SentSecret] = {}
        """The keys handed out by :meth:`key_secret`, by provider, name, value and source."""
        self._sign_ins: dict[str, str] = {}
        """The sign-ins handed out (access token to its store entry; a given one to its
        provider's id), newest last: the transport judges where a request carrying one goes
        (:attr:`sign_ins`)."""
        self._refresh_tokens: dict[str, str] = {}
        """Their refresh tokens, each to its store entry, judged as the access tokens are
        (:attr:`refresh_tokens`)."""
        self._given_sign_ins: dict[str, tuple[str, str]] = {}
        """The sign-ins among :attr:`sign_ins` given rather than stored (a cookie variable,
        an OAuth token given as the key): each to what it is and where it was given, which
        a refusal names in place of a store entry (:attr:`given_sign_ins`)."""
        self._sign_in_values = NO_SIGN_IN_VALUES
        """All of them (refresh tokens too) as one check of a request, built again whenever
        one is recorded (:attr:`sign_in_values`)."""
        self._read_names: dict[str, None] = {}
        """Every environment variable looked up so far, in order (a set that only grows)."""
        self._probe: tuple[int, Callable[[], tuple[object, ...]]] | None = None
        self.store_passed: set[tuple[str, str]] = set()
        """Store lookups (entry, ``"api_key"`` or ``"oauth"``) that find nothing while the
        store cannot be read, their provider running on a credential from elsewhere
        (:meth:`pass_over_store`); empty, the usual case, while the store has been read."""

    def __repr__(self) -> str:
        return (
            f"Credentials(explicit={sorted(self._explicit)}, configured={sorted(self._configured)})"
        )

    def api_key(self, provider: str, env_vars: Iterable[str] = ()) -> str | None:
        """The first non-blank key for ``provider``, or ``None``.

        Args:
            provider: The provider id (also the key name in code, config and store).
            env_vars: The provider's environment variable names, in the spec's order.
        """
        found = self._find_key(provider, env_vars)
        return None if found is None else self._remember(found[0])

    def key_problem(
        self, provider: str, env_vars: Iterable[str] = (), label: str = ""
    ) -> str | None:
        r"""Why the key :meth:`api_key` would hand out cannot be sent, or ``None``.

        Keys are refused with a control character where they are set (``websearch auth
        set``, ``[api_keys]``), but one already in the credential store (written by hand
        or by an older version) or in a variable (``BRAVE_API_KEY="k\x01ey"``) is only
        met here. Without this check it reached the request and failed as ``request was
        not sent``, which names neither the variable nor the store, and status said
        ``ready``. The text names where the key came from and never shows it.

        Args:
            provider: The provider id.
            env_vars: The provider's environment variable names, as for :meth:`api_key`.
            label: The provider's display name (default: its id).
        """
        secret = self.key_secret(provider, env_vars, f"{label or provider} API key")
        return None if secret is None else secret.problem()

    def key_secret(
        self, provider: str, env_vars: Iterable[str] = (), what: str = ""
    ) -> SentSecret | None:
        """The key :meth:`api_key` would hand out, with where it was set; ``None``: no key.

        Args:
            provider: The id the key is kept under in code, config and store.
            env_vars: Its environment variable names, as for :meth:`api_key`.
            what: What the key is called in a problem's text (default: ``<id> API key``).
        """
        found = self._find_key(provider, env_vars)
        if found is None:
            return None
        value, source = found
        what = what or f"{provider} API key"
        kept = self._key_secrets.get((provider, what, value, source))
        if kept is not None:  # the same key again (its value is remembered already)
            return kept
        place = self._key_place(provider, source)
        if place is None:  # read from a variable, its source
            secret = in_variable(self._remember(value), what, source, key=True)
        else:
            secret = SentSecret(self._remember(value), what, *place, key=True)
        if len(self._key_secrets) >= _KEPT_KEYS:  # keys changed often: start again
            self._key_secrets.clear()
        self._key_secrets[(provider, what, value, source)] = secret
        return secret

    def _key_place(self, provider: str, source: str) -> tuple[str, str] | None:
        """Where a key from ``source`` was set and how to fix it; ``None`` for a variable."""
        if source == _FROM_STORE:
            fix = f"store it again with 'websearch auth set {provider}'"
            return f"stored in {self._store_name()}", fix
        if source == _FROM_CODE:
            return f'given in code as api_keys["{provider}"]', "pass it without one"
        if source == _FROM_CONFIG:
            return f"in the config file's [api_keys] {provider}", "fix that entry"
        return None

    def oauth_secret(
        self,
        provider: str,
        what: str = "",
        min_lifetime: float = EXPIRY_SKEW_SECONDS,
        *,
        refreshes_itself: bool = False,
    ) -> SentSecret | None:
        """The stored OAuth access token, with the store it is in; ``None``: none stored.

        A stored token wins over the provider's other credentials, expired or not. One
        that :meth:`valid_oauth_token` would replace (within ``min_lifetime`` of expiry,
        with a refresh hook) is never sent (the hook's token is, checked there): it is
        given with an empty value, which passes the check. Without a hook, it has to be
        replaced in the store either way.

        Args:
            provider: The provider id the token is stored under.
            what: What the token is called in a problem's text (default: ``<id> OAuth
                token``).
            min_lifetime: The provider's refresh margin, as given to
                :meth:`valid_oauth_token`: the same rule decides both.
            refreshes_itself: The sign-in has its own refresh (``own_refresh`` there),
                which replaces a token that holds a refresh token.
        """
        token = self.oauth_token(provider)
        if token is None:
            return None
        renewable = provider in self._refreshers or (refreshes_itself and bool(token.refresh_token))
        replaced = token.is_expired(skew=min_lifetime) and renewable
        return SentSecret(
            "" if replaced else token.access_token,
            what or f"{provider} OAuth token",
            f"stored in {self._store_name()}",
            f"store a new token for {provider}, or forget it with "
            f"'websearch auth remove {provider} --oauth'",
        )

    def env_secret(self, name: str, what: str) -> SentSecret | None:
        """A credential variable's value (see :meth:`secret_env`) with its name; ``None``: unset.

        Args:
            name: The variable, e.g. ``PERPLEXITY_COOKIES``.
            what: What it holds, e.g. ``Perplexity cookie header``.
        """
        value = self.secret_env(name)
        if value is None:
            return None
        return in_variable(value, what, name)

    def _store_name(self) -> str:
        """The credential store as a problem's text names it: its file when there is one."""
        if self._store is None:
            return "the credential store"
        return f"the credential store {self._store.path}"

    def _find_key(self, provider: str, env_vars: Iterable[str]) -> tuple[str, str] | None:
        """The first non-blank key for ``provider`` (trimmed) and where it came from.

        The source is an environment variable's name, or one of ``_FROM_CODE``,
        ``_FROM_CONFIG`` and ``_FROM_STORE``, which no variable is named (they hold a
        space).
        """
        # Source by source, stopping at the first key: a key given in code (the usual
        # case for a program) reads no environment variable at all.
        value = self._explicit.get(provider)
        if value and value.strip():
            return value.strip(), _FROM_CODE
        for name in env_vars:
            self._read_names[name] = None
            value = self._env_get(name)
            if value and value.strip():
                return value.strip(), name
        value = self._configured.get(provider)
        if value and value.strip():
            return value.strip(), _FROM_CONFIG
        if self._store is None:
            return None
        try:
            stored = self._store.get(provider)
        except UnreadableStoreError:
            if (provider, "api_key") in self.store_passed:
                return None
            raise
        return (stored, _FROM_STORE) if stored else None

    def key_elsewhere(self, provider: str, env_vars: Iterable[str]) -> bool:
        """Whether ``provider`` has a key in code, a variable or the config file (not the store).

        What lets a provider run while the credential store cannot be read
        (:mod:`websearch_core.store_passed`); the store is not looked at.
        """
        if (self._explicit.get(provider) or "").strip():
            return True
        if any((self._env_get(name) or "").strip() for name in env_vars):
            return True
        return bool((self._configured.get(provider) or "").strip())

    def pass_over_store(self, lookups: Iterable[tuple[str, str]]) -> None:
        """Have these store lookups find nothing while the store cannot be read.

        Each is an entry and ``"api_key"`` or ``"oauth"``: what a provider running on a
        credential from elsewhere would otherwise look up there, and fail on. A store read
        again answers them as ever (only its read error is passed over).
        """
        self.store_passed.update(lookups)

    def store_error(self) -> UnreadableStoreError | None:
        """Why the credential store cannot be read now, or ``None`` (it can, or there is none)."""
        if self._store is None:
            return None
        try:
            self._store.providers()
        except UnreadableStoreError as error:
            return error
        return None

    def store_held(self) -> AbstractContextManager[object]:
        """Inside, the credential store's file is looked at once (see ``CredentialStore.held``)."""
        return self._store.held() if self._store is not None else _NOT_HELD

    def env(self, name: str) -> str | None:
        """A non-blank (trimmed) value from the environment this resolver reads.

        For settings that are not secrets (a model, a base URL): a URL's userinfo
        (``https://user:pw@gateway``) is remembered as a secret all the same. A variable
        that is a credential itself is read with :meth:`secret_env`.

        A variable a provider class declares as a sign-in (``SecretVariable(...,
        sign_in=True)``) is recorded as one whichever way it is read
        (:meth:`_hand_out_variable`).
        """
        self._read_names[name] = None
        value = (self._env_get(name) or "").strip()
        if not value:
            return None
        if "@" in value and "://" in value:
            self.add_secrets(userinfo_secrets(value))
        what = sign_in_variable(name)
        if what is not None:
            self._hand_out_variable(name, what, value)
        return value

    def note_sign_in_variables(self) -> None:
        """Record the value of every variable a provider class declares as a sign-in.

        Asked by the credential check before each provider's search
        (:meth:`~websearch_core.providers.base.SearchProvider.credential_check`). A value is
        recorded when it is read through :meth:`env` or :meth:`secret_env`, but a plugin
        may read ``os.environ`` itself: then it was judged where it was sent only if the
        check had read the variable first, which it did not when the provider's API key,
        listed before its session, was what the check resolved, nor for a provider that
        declares nothing and reads another class's variable. Read here, every such value set
        is recorded before any provider's own code runs, whatever ran before; a value
        already recorded costs a look-up, and none declared nothing.
        """
        read = self._env_get
        declared = sign_in_variables()
        for name in declared:
            if read(name):  # unset, the usual case: one look-up, and no name to probe
                self.env(name)
        if self._environ is not os.environ:
            self._note_process_sign_ins(declared)

    def _note_process_sign_ins(self, declared: Mapping[str, str]) -> None:
        """Record the declared sign-in variables set in ``os.environ``, besides ``environ``.

        A ``Credentials`` given an ``environ`` of its own read the declared variables there
        alone, so a plugin reading its session from ``os.environ`` itself (as the README
        allows) sent it unjudged, anywhere. The value is recorded to be judged and masked
        (:meth:`_hand_out_variable`), not to be handed to any provider: what resolves a
        key still reads ``environ`` only.
        """
        for name, what in declared.items():
            value = (os.environ.get(name) or "").strip()
            if value:
                self._hand_out_variable(name, what, value)

    def unseen_clause(self, names: Iterable[str]) -> str:
        """What a "not found" error of ``names`` adds when they are set in ``os.environ``.

        Empty unless this resolver was given an ``environ`` of its own that lacks them
        (:func:`~websearch_core.environ_given.unseen_clause`): the spec's text told a
        user who had set ``BRAVE_API_KEY`` to set it.
        """
        return unseen_clause(self._environ, names)

    def _hand_out_variable(self, name: str, what: str, value: str) -> None:
        """Record ``value``, read from the sign-in variable ``name``, as a given sign-in.

        A plugin's session cookie read through :meth:`secret_env` was judged only where its
        URL is set, so a request it built for a host of its own choosing carried it there.
        Recorded under the variable's name (:meth:`hand_out_sign_in`), it is judged where it
        is sent by the hosts of the classes declaring the variable, and a refusal names
        ``what`` and the variable, never the value. A value shorter than
        :data:`~websearch_core.redaction.MIN_TOKEN_LENGTH` (``theme=dark``) is no session
        and is not: judged by substring, it would be found in other providers' requests and
        refuse them.
        """
        if value in self._sign_ins:
            return  # recorded already, as at each read after the first: ~2.7 us to redo
        if len(value) >= MIN_TOKEN_LENGTH:
            given = in_variable(value, what, name)
            self.hand_out_sign_in(given, name)

    def secret_env(self, name: str) -> str | None:
        """:meth:`env` for a variable that holds a credential: its value becomes a secret.

        For credentials that are not one provider's key (a session cookie): what the
        resolver hands out is masked wherever a secret is (:meth:`secrets`).
        """
        value = self.env(name)
        if value is not None:
            self._remember(value)
        return value

    def add_secrets(self, values: Iterable[str]) -> None:
        """Remember ``values`` as secrets (blank ones are ignored).

        For parts of a credential that are sent in another shape (the token inside a
        cookie header, a proxy's password), so that they are masked as a key is.
        """
        for value in values:
            if value:
                self._remember(value)

    def has_refresher(self, entry: str) -> bool:
        """Whether a refresh hook was passed in code for ``entry``; it wins over a sign-in's own."""
        return entry in self._refreshers

    def oauth_token(self, provider: str) -> OAuthToken | None:
        """The stored OAuth token for ``provider`` (possibly expired), or ``None``.

        Raises:
            ProviderNotConfiguredError: A token is stored, ``provider`` is a provider's id,
                and no provider class with it declares the sign-in: it would be sent
                unchecked (:func:`~websearch_core.sign_in_declarations.undeclared_refusal`).
        """
        token = self._stored_oauth(provider)
        if token is not None:
            undeclared = undeclared_refusal(provider, provider)
            if undeclared is not None:
                raise ProviderNotConfiguredError(provider, undeclared)
            self._remember_token(token, provider)
        return token

    def _stored_oauth(self, entry: str) -> OAuthToken | None:
        """The token stored under ``entry``; ``None`` as well for a lookup passed over."""
        if self._store is None:
            return None
        try:
            return self._store.get_oauth(entry)
        except UnreadableStoreError:
            if (entry, "oauth") in self.store_passed:
                return None
            raise

    def oauth_refused(self, entry: str) -> bool:
        """Whether the token stored under ``entry`` had its refresh refused for good.

        A search with it fails at once (:meth:`valid_oauth_token`); the providers table
        says so instead of ``ready``.
        """
        if self._store is None:
            return False
        try:
            return self._store.refusal(entry) is not None
        except UnreadableStoreError:
            if (entry, "oauth") in self.store_passed:
                return False
            raise

    async def valid_oauth_token(
        self,
        provider: str,
        *,
        entry: str | None = None,
        force_refresh: bool = False,
        min_lifetime: float = EXPIRY_SKEW_SECONDS,
        own_refresh: TokenRefresher | None = None,
        refused: OAuthToken | None = None,
    ) -> OAuthToken:
        """A usable OAuth token: the stored one, or one refreshed through the hook.

        One refresh per sign-in (entry and fingerprint) runs at a time in this process on
        one event loop: a search that needs the same one meanwhile waits for its token, or
        its error, rather than ask the token endpoint again (:mod:`.single_flight`). That
        refresh holds the credential store's lock and reads the entry again under it:
        another thread or process that renewed the token meanwhile stored it there, and it
        is used without asking again (see :meth:`_refresh_under_lock`). A refresh refused
        for good (:class:`~websearch_core.errors.SignInRefusedError`) is remembered there,
        so later searches fail with its text without asking again, until a new sign-in.

        Args:
            provider: The provider id (the errors name it as the provider that failed).
            entry: The store entry the token is kept under, when a provider keeps more
                than one kind of sign-in (``gemini-cli`` beside ``gemini``); the refresh
                hook is the one registered under it, is called with it, and its token is
                written back to it. Default: ``provider``.
            force_refresh: Refresh even if the token looks valid (after the server said 401).
            min_lifetime: A token expiring sooner than this many seconds is refreshed first:
                the provider's margin (``StoredOAuth.min_lifetime``; Perplexity's is five
                minutes), which :meth:`oauth_secret` applies too.
            own_refresh: The sign-in's own refresh (the Gemini CLI's, at Google's token
                endpoint), used when no hook is registered under the entry: a hook passed
                in code wins. What it raises as a
                :class:`~websearch_core.errors.SearchProviderError` is its own message
                and stands as it is.
            refused: With ``force_refresh``, the token the server refused: a stored one
                that differs from it (and has not expired) was renewed since, by a search
                that met the same refusal, and is returned without another refresh.

        Raises:
            ProviderNotConfiguredError: No token is stored, or one is and ``provider``
                does not declare the sign-in under ``entry``: it would be sent unchecked
                (:func:`~websearch_core.sign_in_declarations.undeclared_refusal`).
            SignInRefusedError: The refresh token was refused for good, now or before
                (the hook raised it, or Google said ``invalid_grant``).
            OAuthTokenError: The token expired (or was refused) and no refresh hook is
                configured, or the hook failed.
            AuthorizationError: The hook returned a token that cannot be sent.
            SearchProviderError: ``own_refresh`` failed (its own error).
            ProviderUnavailableError: Another thread or process held the store's lock for
                the attempt's time left; nothing was refreshed.
        """
        name = entry or provider
        token = self.oauth_token(name)
        if token is None:
            raise ProviderNotConfiguredError(provider, f"{name}: no OAuth token stored")
        undeclared = undeclared_refusal(provider, name) if name != provider else None
        if undeclared is not None:  # another provider's entry, which this one does not declare
            raise ProviderNotConfiguredError(provider, undeclared)
        # A forced refresh is not needed when the stored token is no longer the one the
        # server refused: a search that met the same refusal renewed it meanwhile.
        renewed = refused is not None and token.access_token != refused.access_token
        if (renewed or not force_refresh) and not token.is_expired(skew=min_lifetime):
            return token
        hook = self._refreshers.get(name)
        refresh = hook if hook is not None else own_refresh
        if refresh is None:
            raise OAuthTokenError(
                provider,
                f"{name}: OAuth token expired and no refresh hook is configured "
                f"(pass WebSearch(oauth_refreshers=...), or websearch --refresh-hook "
                f"{name}=MODULE:FUNCTION or WEBSEARCH_REFRESH_HOOKS on the command line, or "
                "store a new token)",
                401,
            )
        # One refresh per sign-in at a time in this process: a search that meets it running
        # waits for its token (or its error) instead of asking the token endpoint again.
        where = self._store.path if self._store is not None else id(self)
        flight = (where, name, token.fingerprint())
        hooked = hook is not None
        fresh = await _REFRESHES.run(
            flight,
            lambda: self._refresh_under_lock(provider, name, token, refresh, hooked, min_lifetime),
        )
        self._remember_token(fresh, name)  # each caller's redaction learns the new token
        return fresh

    async def _refresh_under_lock(
        self,
        provider: str,
        name: str,
        token: OAuthToken,
        refresh: TokenRefresher,
        hooked: bool,
        min_lifetime: float,
    ) -> OAuthToken:
        """``token`` renewed, once across the threads and processes sharing the store.

        Under the store's lock the entry is read again: a token renewed since ``token`` (see
        :func:`_renewed_since`) is the one another thread or process just stored, and is
        returned without asking the token endpoint; else the stored one (its refresh token
        may have been rotated meanwhile) is refreshed and written back before the lock is
        let go. The wait for the lock ends with the attempt's time left (at most
        :data:`~websearch_core.store_lock.LOCK_WAIT_SECONDS`): a lock still held then
        belongs to a process that is stuck, maybe mid-refresh, and refreshing beside it
        could spend a refresh token that is good for one use only, so the search fails
        saying so (the chain goes on to the next provider) and nothing is refreshed.

        A refusal that is final (:class:`~websearch_core.errors.SignInRefusedError`) is
        kept beside the stored token before the lock is let go (:meth:`LockedStore.
        refuse`): the thread or process that gets the lock next, and every later search,
        fails with its text without asking the token endpoint again (each asked once, so
        a sign-in Google had revoked cost a request per search). A passing failure (a
        timeout, a 5xx, a hook's other errors) is not kept: the next search asks again.

        Raises:
            ProviderUnavailableError: The lock stayed held for the whole wait.
            SignInRefusedError: The refresh was refused for good, now or before.
            OAuthTokenError, AuthorizationError, SearchProviderError: As
                :meth:`_refreshed`.
        """
        store = self._store
        if store is None:
            return await self._refreshed(provider, name, token, refresh, hooked=hooked)
        try:
            async with store.locked(_lock_patience()) as held:
                current = held.get_oauth(name)
                if current is not None and _renewed_since(current, token, min_lifetime):
                    logger.info("%s: OAuth token already renewed by another search; used", name)
                    return current
                renewing = current or token
                refused = held.refusal(name, renewing)
                if refused is not None:
                    logger.info("%s: OAuth refresh refused before; not asked again", name)
                    raise SignInRefusedError(provider, refused, 401)
                try:
                    fresh = await self._refreshed(provider, name, renewing, refresh, hooked=hooked)
                except SignInRefusedError as refusal:
                    _keep_refusal(held, name, renewing, refusal.message)
                    raise
                held.set_oauth(name, fresh)
                return fresh
        except LockHeldError as error:
            raise ProviderUnavailableError(
                provider,
                f"{name}: not refreshed: another process or thread held the credential "
                f"store's lock {Path(error.lock_file).name} for the {error.waited:.1f} s this "
                "search could wait (it may be stuck renewing the same sign-in); try again",
            ) from None

    async def _refreshed(
        self,
        provider: str,
        name: str,
        token: OAuthToken,
        refresh: TokenRefresher,
        *,
        hooked: bool,
    ) -> OAuthToken:
        """``token`` renewed through ``refresh`` (a hook passed in code when ``hooked``), checked.

        The caller stores it: :meth:`_refresh_under_lock` does, while it holds the lock.

        Raises:
            SignInRefusedError: The hook raised one (its refusal is final).
            OAuthTokenError: The hook failed otherwise.
            AuthorizationError: The hook returned a token that cannot be sent.
            SearchProviderError: The sign-in's own refresh failed (its own error).
        """
        try:
            fresh = await refresh(name, token)
        except Exception as exc:
            if not hooked and isinstance(exc, SearchProviderError):
                raise  # the sign-in's own refresh: its message says what failed and why
            # A hook says a refusal is final by raising SignInRefusedError; its message is
            # the hook's own and is never shown (it may quote a token endpoint's body).
            failed = SignInRefusedError if isinstance(exc, SignInRefusedError) else OAuthTokenError
            raise failed(
                provider,
                f"{name}: OAuth token refresh failed: its refresh hook raised {type(exc).__name__}",
                401,
            ) from None
        returned = SentSecret(
            fresh.access_token,
            f"{provider}: the OAuth token",
            "its refresh hook returned",
            "nothing stored; fix the hook given as WebSearch(oauth_refreshers=...)",
        ).problem()
        if returned is not None:
            # Neither sent (the transport's "not sent" names nothing) nor stored, where
            # every later search would meet it.
            raise AuthorizationError(provider, returned)
        self._remember_token(fresh, name)
        # Still the sign-in it was refreshed from, whatever the new tokens hash to: a mark
        # earned with it (a 429, spent credits) must not be dropped by the refresh.
        return replace(fresh, sign_in=token.fingerprint())

    def sources_version(self) -> Hashable | None:
        """What every lookup so far read from, as one comparable value; ``None``: not pinned.

        Two equal values mean each lookup made so far would give the same answer again: the
        same value of every environment variable read, the same credential store content
        (:meth:`CredentialStore.version`), and keys in code and config never change. So an
        answer that rests on these lookups alone, such as which providers can run, can be
        kept while the value stays the same, instead of asking every source again.
        ``None`` when the store's content is not pinned (just changed, or unreadable).
        """
        store = None
        if self._store is not None:
            store = self._store.version()
            if store is None:
                return None
        probe = self._probe
        if probe is None or probe[0] != len(self._read_names):
            read = values_reader(self._environ, tuple(self._read_names))
            probe = self._probe = (len(self._read_names), read)
        return store, probe[1]()

    def _remember_token(self, token: OAuthToken, entry: str) -> None:
        """Mask both secrets of ``token`` from now on: its access and any refresh token.

        Its access token is kept as the sign-in stored under ``entry`` too, for the
        transport to judge where it is sent, and its refresh token likewise (at most
        :data:`_KEPT_SIGN_INS` of each, the oldest let go: a long-lived client renews its
        tokens every hour).
        """
        new = token.access_token not in self._sign_ins
        _keep_newest(self._sign_ins, token.access_token, entry)
        self._remember(token.access_token)
        if token.refresh_token:
            new = new or token.refresh_token not in self._refresh_tokens
            _keep_newest(self._refresh_tokens, token.refresh_token, entry)
            self._remember(token.refresh_token)
        if new:  # built again only when a value is recorded
            self._sign_in_values = self._recorded_values()
            note_holder(self)  # judged by a transport built without credentials too

    def hand_out_sign_in(self, secret: SentSecret, entry: str) -> None:
        """Record ``secret``, a sign-in given in a variable, code, config or as a key.

        A stored sign-in is recorded when it is read (:meth:`oauth_token`); one given
        otherwise (Perplexity's ``PERPLEXITY_COOKIES``, an Anthropic OAuth token given as
        the key) was judged only where its URL is set, so a subclass's own request, or a URL
        it built, sent it anywhere. Recorded here, it is judged at send time as a stored one
        is, by the hosts the provider declares for ``entry``, and a refusal names what it is
        and where it was given (``secret.what``, ``secret.where``), never its value.

        Args:
            secret: The sign-in as it is sent (a part of it, such as the session token in a
                cookie header, may be recorded on its own: a provider may rewrite the rest).
            entry: The id it is judged under: the provider's, whose ``sign_in_hosts`` it
                may go to, or the variable it was read from (the hosts of the classes
                declaring it, :func:`~websearch_core.sign_in_declarations.declared_hosts`).
        """
        value = secret.value
        if value:
            new = value not in self._sign_ins
            _keep_newest(self._sign_ins, value, entry)
            _keep_newest(self._given_sign_ins, value, (secret.what, secret.where))
            self._remember(value)
            if new:
                self._sign_in_values = self._recorded_values()
                note_holder(self)

    def _recorded_values(self) -> SignInValues:
        """:attr:`sign_in_values` for what is recorded now."""
        recorded = (self._sign_ins, self._refresh_tokens)
        return SignInValues(
            [*recorded[0], *recorded[1]], [*recorded[0].values(), *recorded[1].values()]
        )

    def _remember(self, value: str) -> str:
        if value and value not in self._known:
            self._known.add(value)
            self._secrets_version += 1
        return value

    @property
    def secrets_version(self) -> int:
        """A number that changes whenever :meth:`secrets` gains a value.

        What a client builds from the secrets (a transport that scrubs them, a redactor)
        can be kept while this stays the same, instead of being rebuilt for every search;
        the set only grows, so an equal number means the same secrets.
        """
        return self._secrets_version

    def secrets(self) -> tuple[str, ...]:
        """Every key given in code or config or handed out so far, for redaction."""
        return tuple(self._known)

    @property
    def sign_ins(self) -> Mapping[str, str]:
        """The sign-ins handed out so far: each access token to its store entry.

        A sign-in given rather than stored (:meth:`hand_out_sign_in`) is here too, under its
        provider's id or the variable it was read from, and in :attr:`given_sign_ins`.

        Read by the transport before every request (empty, the usual case: nothing to
        judge), so a request that carries one is judged by the URL it is sent to, whoever
        built it (:mod:`websearch_core.sign_in_sends`).
        """
        return self._sign_ins

    @property
    def given_sign_ins(self) -> Mapping[str, tuple[str, str]]:
        """The sign-ins handed out that were given, not stored: each to what it is and where.

        A subset of :attr:`sign_ins` (see :meth:`hand_out_sign_in`), read only to word a
        refusal: ``("Perplexity cookie header", "in PERPLEXITY_COOKIES")``.
        """
        return self._given_sign_ins

    @property
    def refresh_tokens(self) -> Mapping[str, str]:
        """The refresh tokens of the sign-ins handed out: each to its store entry.

        A refresh token renews the account's sign-in for as long as it lives, so the
        transport judges where a request carrying one goes as it judges an access token,
        against its issuer's token endpoint (:mod:`websearch_core.sign_in_sends`). Every one
        came with an access token, so :attr:`sign_ins` is empty only when this is.
        """
        return self._refresh_tokens

    @property
    def sign_in_values(self) -> SignInValues:
        """Every value in :attr:`sign_ins` and :attr:`refresh_tokens`, as one check.

        Built when one is recorded, not per request: the transport asks it first, so a
        request carrying none of them (any other provider's, the usual case while a cookie
        is set) is looked through once, not once per value (:mod:`websearch_core.
        sign_in_values`).
        """
        return self._sign_in_values


_KEPT_SIGN_INS = 64
"""How many handed-out sign-ins :attr:`Credentials.sign_ins` keeps, the newest."""


_Kept = TypeVar("_Kept")


def _keep_newest(kept: dict[str, _Kept], token: str, entry: _Kept) -> None:
    """Keep ``token`` under ``entry`` in ``kept``, letting the oldest go past the bound."""
    if token and token not in kept:
        if len(kept) >= _KEPT_SIGN_INS:
            del kept[next(iter(kept))]
        kept[token] = entry


LOCK_REPORT_SECONDS = 0.05
"""What a refresh's wait for the store's lock leaves of the attempt's time, at most: enough
for the search to fail saying the lock was held, rather than be cut off by the attempt's
hard stop as a plain timeout."""


def _keep_refusal(held: LockedStore, name: str, token: OAuthToken, message: str) -> None:
    """Keep a final refusal beside ``token`` (:meth:`LockedStore.refuse`), if the store lets.

    A store that cannot be written only costs the next search one more refused request:
    logged, and the refusal itself still raised by the caller. The line says what that
    costs and what to do (the store's path and the reason are in ``error``): it said only
    that the refusal was not kept, and the new sign-in the refusal asks for is written to
    the same file, so it has to be made writable first.
    """
    try:
        held.refuse(name, token, message)
    except ConfigurationError as error:
        logger.warning(
            "%s: the OAuth refresh's final refusal was not kept (%s), so every search asks the "
            "token endpoint again and is refused again; make that file writable, then sign in "
            "again as the refusal says",
            name,
            error,
        )


def _lock_patience() -> float:
    """How long a refresh waits for the store's lock: the attempt's time left, nearly.

    At most :data:`~websearch_core.store_lock.LOCK_WAIT_SECONDS` (outside any attempt too);
    :data:`LOCK_REPORT_SECONDS` (or a fifth of what is left, if less) is kept back.
    """
    left = remaining_budget(LOCK_WAIT_SECONDS)
    return max(0.0, left - min(LOCK_REPORT_SECONDS, left / 5))


def _renewed_since(current: OAuthToken, replaced: OAuthToken, min_lifetime: float) -> bool:
    """Whether ``current`` (stored now) renews ``replaced`` (expired, or refused).

    A different access token that is not expiring within ``min_lifetime`` and expires later
    (no expiry counts as later): an older token written back would fail as the replaced one
    did.
    """
    if current.access_token == replaced.access_token or current.is_expired(skew=min_lifetime):
        return False
    if current.expires_at is None or replaced.expires_at is None:
        return True
    return current.expires_at > replaced.expires_at


def explicit_keys(api_keys: object) -> dict[str, str | SecretStr]:
    """``WebSearch(api_keys=...)`` checked, keyed by trimmed lower-case provider id.

    A key given in the wrong shape used to fail far from where it was given, in words
    that named neither ``api_keys`` nor the provider: a string for the mapping raised
    ``dictionary update sequence element #0 ...``, a number for a key an
    ``AttributeError`` out of the first search (which must not raise), and a padded id
    (``" Brave"``) passed the id check but was never looked up. ``None`` for a key is no
    key (``api_keys={"brave": os.environ.get("BRAVE_API_KEY")}`` with the variable unset).

    Raises:
        ConfigurationError: ``api_keys`` is not a mapping, an id or a key is not a
            string, or a key has a flaw no key has (a control character, ``.env``
            quotes, a letter beyond ASCII: see :func:`~websearch_core.sent_secret.flaw`);
            the message names the id and the type or the flaw, never a value.

    Example:
        >>> explicit_keys({" Brave": "k", "tavily": None})
        {'brave': 'k'}
    """
    if api_keys is None:
        return {}
    if not isinstance(api_keys, Mapping):
        raise ConfigurationError(
            'api_keys must map provider ids to keys, like {"brave": "..."} '
            f"(got {type(api_keys).__name__})"
        )
    checked: dict[str, str | SecretStr] = {}
    for provider, key in api_keys.items():
        if not isinstance(provider, str):
            raise ConfigurationError(
                f"api_keys: provider ids are strings (got {type(provider).__name__})"
            )
        if key is None:
            continue
        if not isinstance(key, str | SecretStr):
            raise ConfigurationError(
                f'api_keys["{provider}"] must be a string (got {type(key).__name__})'
            )
        # A key given in code that can never be sent is a bug in the program, not a
        # setup a user fixes later: refused here, by the rule every sent key is checked
        # by, rather than skipped at each search like one in a variable.
        problem = key_in_code_problem(provider, _reveal(key))
        if problem is not None:
            raise ConfigurationError(problem)
        checked[provider.strip().lower()] = key
    return checked


def refuse_bad_keys_in_code(api_keys: object) -> None:
    """Refuse now a key in ``api_keys`` that can never be sent; its shape is checked later.

    For the LlamaIndex tools, which build their client (and so call :func:`explicit_keys`)
    at the first call, where a wrong shape is reported as the tool's configuration error:
    a key with ``.env`` quotes or a line break is a bug in the program that passed it, so
    it is refused when the tool is built, as ``WebSearch`` and the other adapters do.

    Raises:
        ConfigurationError: A string key has a flaw (see
            :func:`~websearch_core.sent_secret.key_in_code_problem`); never its value.
    """
    if not isinstance(api_keys, Mapping):
        return
    for provider, key in api_keys.items():
        if isinstance(provider, str) and isinstance(key, str | SecretStr):
            problem = key_in_code_problem(provider, _reveal(key))
            if problem is not None:
                raise ConfigurationError(problem)


def _reveal(value: str | SecretStr) -> str:
    return value.get_secret_value() if isinstance(value, SecretStr) else value
