"""How to put back what an unreadable credential store held for one provider.

The unreadable store's fix ended "store the keys again with 'websearch auth set
<provider>'" on every row of the providers table, codex's too, which takes no key: its
sign-in is stored from Python, and the Gemini CLI's with ``websearch auth import``. A row
now names the way back for each credential its provider looks up in the store, read from
the same ``credential_kinds`` its searches send, so a new kind of credential is advised
for where it is declared.
"""

from .cli_status import PROG
from .oauth_import import IMPORT_SOURCES
from .provider_credentials import ApiKey, Credential, StoredOAuth
from .provider_types import ProviderInfo

__all__ = ["restore_advice"]


def restore_advice(kinds: tuple[Credential, ...], info: ProviderInfo) -> str | None:
    """How to store again each credential the provider looks up in the store.

    Args:
        kinds: The provider's ``credential_kinds``, in the order it sends them.
        info: Its info (its id and key variables).

    Returns:
        The fix after "fix the file, or remove it and" (the row's
        :meth:`~websearch_core.store_unreadable.UnreadableStoreError.repair`, whose
        ``advice`` for the whole file names every way at once): ``store brave's key again with
        'websearch auth set brave'``, or for several credentials each with its way; ``None``
        when it looks up nothing there.

    Example:
        >>> brave = ProviderInfo(id="brave", label="Brave", kind="api", description="",
        ...     docs_url="", env_vars=("BRAVE_API_KEY",))
        >>> print(restore_advice((ApiKey(),), brave))
        store brave's key again with 'websearch auth set brave'
        >>> codex = ProviderInfo(id="codex", label="OpenAI", kind="answer", description="",
        ...     docs_url="")
        >>> print(restore_advice((StoredOAuth(),), codex))
        store codex's OAuth token again from Python with CredentialStore.set_oauth("codex", ...)
    """
    ways: list[tuple[str, str]] = []
    for kind in kinds:
        way = _way_back(kind, info)
        if way is not None and way not in ways:
            ways.append(way)
    if not ways:
        return None
    if len(ways) == 1:
        what, how = ways[0]
        return f"store {info.id}'s {what} again {how}"
    each = ", ".join(f"the {what} {how}" for what, how in ways)
    return f"store again whichever of these it held for {info.id}: {each}"


def _way_back(kind: Credential, info: ProviderInfo) -> tuple[str, str] | None:
    """What ``kind`` is called and how it is stored, when it is looked up in the store."""
    if isinstance(kind, StoredOAuth):
        entry = kind.entry or info.id
        if entry in IMPORT_SOURCES:
            return kind.name, f"with '{PROG} auth import {entry}'"
        return kind.name, f'from Python with CredentialStore.set_oauth("{entry}", ...)'
    if isinstance(kind, ApiKey):
        env_vars = info.env_vars if kind.env_vars is None else kind.env_vars
        if not env_vars:  # a provider that declares no variable reads no key
            return None
        owner = kind.owner or info.id
        what = "key" if owner == info.id else f"{owner} key"
        return what, f"with '{PROG} auth set {owner}'"
    return None
