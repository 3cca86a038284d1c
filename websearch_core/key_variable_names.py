"""The variables each provider reads its API key from, as data: no provider module imported.

A build refuses an unknown id in ``api_keys={...}`` with every id there is and, for an id
that is a key's variable (``{"GOOGLE_API_KEY": ...}``), the provider it belongs to. Those
variables are declared in the providers' modules (their ``credential_kinds``), so the
message imported all 25 of them at the build: a tool's first call, on the loop, with no
deadline yet. Kept here as a table instead, as ``SIGN_IN_ROUTES`` is; a test holds it to
what the providers declare (:func:`~websearch_core.key_names.key_variables`).
"""

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

__all__ = ["KEY_VARIABLES"]

KEY_VARIABLES: Final[Mapping[str, str]] = MappingProxyType(
    {
        "perplexity_api_key": "perplexity",
        "pplx_api_key": "perplexity",
        "openrouter_api_key": "openrouter",
        "gemini_api_key": "gemini",
        "google_api_key": "gemini",
        "anthropic_search_api_key": "anthropic",
        "anthropic_api_key": "anthropic",
        "xai_api_key": "xai",
        "zai_api_key": "zai",
        "exa_api_key": "exa",
        "tinyfish_api_key": "tinyfish",
        "jina_api_key": "jina",
        "kagi_api_key": "kagi",
        "tavily_api_key": "tavily",
        "firecrawl_api_key": "firecrawl",
        "brave_api_key": "brave",
        "serper_api_key": "serper",
        "moonshot_search_api_key": "kimi",
        "kimi_search_api_key": "kimi",
        "parallel_api_key": "parallel",
        "synthetic_api_key": "synthetic",
    }
)
"""Every variable a provider reads an API key from, lower-cased, with the id its key is
stored under (``openrouter`` for ``OPENROUTER_API_KEY``, which Perplexity reads), in the
providers' registry order."""
