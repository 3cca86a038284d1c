"""The explicit provider registry and the auto-chain order.

Each entry maps a provider id to ``"module:Class"``; the module is imported the first time
the provider is used, so importing the package stays cheap and a broken optional provider
cannot break the others. A provider that is not implemented is simply not listed.
"""

import importlib
from collections.abc import Mapping
from types import MappingProxyType

from ..errors import ConfigurationError
from .base import ProviderContext, ProviderInfo, SearchProvider

__all__ = [
    "PROVIDER_REGISTRY",
    "SEARCH_PROVIDER_ORDER",
    "ProviderContext",
    "ProviderInfo",
    "SearchProvider",
    "get_provider",
    "provider_ids",
]

PROVIDER_REGISTRY: Mapping[str, str] = MappingProxyType(
    {
        "perplexity": "websearch_core.providers.perplexity:PerplexityProvider",
        "gemini": "websearch_core.providers.gemini:GeminiProvider",
        "anthropic": "websearch_core.providers.anthropic:AnthropicProvider",
        "codex": "websearch_core.providers.codex:CodexProvider",
        "xai": "websearch_core.providers.xai:XaiProvider",
        "zai": "websearch_core.providers.zai:ZaiProvider",
        "exa": "websearch_core.providers.exa:ExaProvider",
        "jina": "websearch_core.providers.jina:JinaProvider",
        "synthetic": "websearch_core.providers.synthetic:SyntheticProvider",
        "tavily": "websearch_core.providers.tavily:TavilyProvider",
        "brave": "websearch_core.providers.brave:BraveProvider",
        "firecrawl": "websearch_core.providers.firecrawl:FirecrawlProvider",
        "serper": "websearch_core.providers.serper:SerperProvider",
        "kimi": "websearch_core.providers.kimi:KimiProvider",
        "tinyfish": "websearch_core.providers.tinyfish:TinyFishProvider",
        "kagi": "websearch_core.providers.kagi:KagiProvider",
        "parallel": "websearch_core.providers.parallel:ParallelProvider",
        "searxng": "websearch_core.providers.searxng:SearxngProvider",
        "duckduckgo": "websearch_core.providers.duckduckgo:DuckDuckGoProvider",
        "bing": "websearch_core.providers.bing:BingProvider",
        "yahoo": "websearch_core.providers.yahoo:YahooProvider",
        "startpage": "websearch_core.providers.startpage:StartpageProvider",
        "google": "websearch_core.providers.google:GoogleProvider",
        "ecosia": "websearch_core.providers.ecosia:EcosiaProvider",
        "mojeek": "websearch_core.providers.mojeek:MojeekProvider",
        "public": "websearch_core.providers.public:PublicProvider",
    }
)
"""Provider id to ``module:Class``, in no particular order."""

SEARCH_PROVIDER_ORDER: tuple[str, ...] = (
    "perplexity",
    "gemini",
    "anthropic",
    "codex",
    "xai",
    "zai",
    "exa",
    "tinyfish",
    "jina",
    "kagi",
    "tavily",
    "firecrawl",
    "brave",
    "serper",
    "kimi",
    "parallel",
    "synthetic",
    "searxng",
    "duckduckgo",
    "bing",
    "yahoo",
    "startpage",
    "google",
    "ecosia",
    "mojeek",
    "public",
)
"""The auto chain, in the spec's order: keyed APIs first, self-hosted, then scrapers."""

_instances: dict[str, SearchProvider] = {}


def provider_ids() -> tuple[str, ...]:
    """Every registered id, in auto-chain order."""
    return SEARCH_PROVIDER_ORDER


def get_provider(provider_id: str) -> SearchProvider:
    """The (cached) provider instance for ``provider_id``, importing its module on first use.

    Raises:
        ConfigurationError: ``provider_id`` is not registered.
    """
    instance = _instances.get(provider_id)
    if instance is not None:
        return instance
    target = PROVIDER_REGISTRY.get(provider_id)
    if target is None:
        known = ", ".join(SEARCH_PROVIDER_ORDER)
        raise ConfigurationError(f"Unknown search provider: {provider_id} (known: {known})")
    module_name, _, class_name = target.partition(":")
    provider_class = getattr(importlib.import_module(module_name), class_name)
    instance = provider_class()
    if not isinstance(instance, SearchProvider):
        raise TypeError(f"{target} is not a SearchProvider")
    _instances[provider_id] = instance
    return instance
