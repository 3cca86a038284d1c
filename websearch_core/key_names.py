"""What credentials are called: the variables keys are read from, the entries tokens are under.

``websearch auth set BRAVE_API_KEY`` (the variable where the id goes) and ``websearch auth
remove brav`` (a typo) were answered with every provider id, or with ``no stored API key
for brav``, and nothing said which id was meant. The variables come from what the providers
declare they send (:attr:`~websearch_core.providers.base.SearchProvider.credential_kinds`),
so a provider's new variable is known here without a second list.
"""

from .provider_credentials import ApiKey, StoredOAuth
from .providers import PROVIDER_REGISTRY, get_provider

__all__ = ["key_variables", "oauth_entries"]


def key_variables() -> dict[str, str]:
    """Every variable a provider reads an API key from, lower-cased, with its key's id.

    The id is the one the key is stored under: ``openrouter`` for ``OPENROUTER_API_KEY``,
    which Perplexity reads, ``gemini`` for ``GOOGLE_API_KEY``. Imports every provider
    module, so it is for a command's error path, not for a search.

    Example:
        >>> key_variables()["openrouter_api_key"]
        'openrouter'
    """
    names: dict[str, str] = {}
    for provider_id in PROVIDER_REGISTRY:
        provider = get_provider(provider_id)
        for kind in provider.credential_kinds:
            if not isinstance(kind, ApiKey):
                continue
            env_vars = provider.info.env_vars if kind.env_vars is None else kind.env_vars
            for name in env_vars:
                names.setdefault(name.lower(), kind.owner or provider_id)
    return names


def oauth_entries() -> tuple[str, ...]:
    """Every store entry a provider reads an OAuth token from, in registry order.

    ``gemini`` and ``gemini-cli`` for Gemini's two sign-ins, ``codex``... : the ids
    ``websearch auth remove --oauth`` takes. Imports every provider module, as
    :func:`key_variables` does, so it is for a command, not for a search.

    Example:
        >>> "gemini-cli" in oauth_entries()
        True
    """
    entries: dict[str, None] = {}
    for provider_id in PROVIDER_REGISTRY:
        for kind in get_provider(provider_id).credential_kinds:
            if isinstance(kind, StoredOAuth):
                entries.setdefault(kind.entry or provider_id, None)
    return tuple(entries)


def self_refreshing_entries() -> frozenset[str]:
    """The store entries whose sign-in renews an expiring token from its refresh token.

    ``gemini-cli`` and ``gemini`` (the Gemini CLI's and Antigravity's OAuth clients, at
    Google's token endpoint): what ``websearch auth import`` needs to say whether an
    imported token outlives its hour. Imports every provider module, as
    :func:`oauth_entries` does.

    Example:
        >>> sorted(self_refreshing_entries())
        ['gemini', 'gemini-cli']
    """
    return frozenset(
        kind.entry or provider_id
        for provider_id in PROVIDER_REGISTRY
        for kind in get_provider(provider_id).credential_kinds
        if isinstance(kind, StoredOAuth) and kind.refreshes_itself
    )
