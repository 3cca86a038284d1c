"""A provider with a credential from elsewhere runs while the credential store cannot be read.

Gemini, Perplexity and Anthropic look up a sign-in in the store beside their key; with the
file unreadable that lookup failed, and they were passed over though their key was in the
environment. What the file holds cannot be known, so such a provider runs on the
credential it has from code, a variable or the config file, and its lookups in the store
find nothing. When a sign-in it would send first may be in the file (Gemini's, Perplexity's:
Anthropic's key wins anyway), the store's advice names it
(:meth:`~websearch_core.store_unreadable.UnreadableStoreError.advice`).

A provider with nothing but the store to run on still fails on the store's error: the
plan passes it over, and a forced one fails with it.
"""

from dataclasses import dataclass

from .credentials import Credentials
from .provider_credentials import Credential, SecretVariable, StoredOAuth
from .provider_types import ProviderInfo
from .store_unreadable import UnreadableStoreError

__all__ = ["PastStore", "run_past_store"]


@dataclass(frozen=True, slots=True)
class PastStore:
    """A provider that runs on a credential from elsewhere while the store cannot be read.

    Attributes:
        error: Why the store cannot be read.
        sign_in_unread: A credential it would send before the one it runs on may be in
            the file (a sign-in, whose lookup comes first): the advice names the provider.
    """

    error: UnreadableStoreError
    sign_in_unread: bool


def run_past_store(
    kinds: tuple[Credential, ...], info: ProviderInfo, credentials: Credentials
) -> PastStore | None:
    """Let a provider run past an unreadable store when it has a credential from elsewhere.

    Its store lookups (``kinds`` not found elsewhere) then find nothing
    (:meth:`~websearch_core.credentials.Credentials.pass_over_store`).

    Args:
        kinds: The provider's ``credential_kinds``, in the order it sends them.
        info: Its info (its id and key variables).
        credentials: The resolver its searches use.

    Returns:
        ``None`` when it has nothing from elsewhere, no lookup in the store, or the store
        can be read: nothing is passed over then.
    """
    lookups: list[tuple[str, str]] = []
    first_elsewhere: int | None = None
    for rank, kind in enumerate(kinds):
        where = _where(kind, info, credentials)
        if isinstance(where, tuple):
            lookups.append(where)
        elif where and first_elsewhere is None:
            first_elsewhere = rank
    if first_elsewhere is None or not lookups:
        return None
    error = credentials.store_error()
    if error is None:
        return None
    credentials.pass_over_store(lookups)
    ahead = kinds[:first_elsewhere]
    return PastStore(error, any(isinstance(kind, StoredOAuth) for kind in ahead))


def _where(
    kind: Credential, info: ProviderInfo, credentials: Credentials
) -> tuple[str, str] | bool:
    """Where ``kind`` would come from: its store lookup, or whether it is set elsewhere.

    A store lookup is its entry and field; ``True``: code, a variable or the config file;
    ``False``: unset, and not looked up in the store.
    """
    if isinstance(kind, StoredOAuth):
        return kind.entry or info.id, "oauth"
    if isinstance(kind, SecretVariable):
        return credentials.secret_env(kind.name) is not None
    env_vars = info.env_vars if kind.env_vars is None else kind.env_vars
    if not env_vars:  # a provider that declares no variable reads no key
        return False
    owner = kind.owner or info.id
    return True if credentials.key_elsewhere(owner, env_vars) else (owner, "api_key")
