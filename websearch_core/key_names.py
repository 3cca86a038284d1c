"""The variables API keys are read from, by the id ``websearch auth`` stores each key under.

``websearch auth set BRAVE_API_KEY`` (the variable where the id goes) and ``websearch auth
remove brav`` (a typo) were answered with every provider id, or with ``no stored API key
for brav``, and nothing said which id was meant. The variables come from what the providers
declare they send (:attr:`~websearch_core.providers.base.SearchProvider.credential_kinds`),
so a provider's new variable is known here without a second list.
"""

from .provider_credentials import ApiKey
from .providers import PROVIDER_REGISTRY, get_provider

__all__ = ["key_variables"]


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
