"""The one list of provider ids, in the spec's auto-chain order.

A leaf with no imports, so :mod:`websearch_core.settings` can check configured ids
against it without importing the providers package (which imports the settings);
:mod:`websearch_core.providers` builds its registry from it and re-exports it.
"""

__all__ = ["FREE_ENGINE_ORDER", "SEARCH_PROVIDER_ORDER", "unknown_provider_message"]

FREE_ENGINE_ORDER: tuple[str, ...] = (
    "duckduckgo",
    "bing",
    "yahoo",
    "startpage",
    "google",
    "ecosia",
    "mojeek",
)
"""The credential-free engines, in priority order: last in the auto chain before
``public``, and the order in which the Public Web fan-out merges them."""

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
    *FREE_ENGINE_ORDER,
    "public",
)
"""Every provider id, in the spec's auto-chain order: keyed APIs first, self-hosted, then
scrapers. The one list: the registry, the simulator's protocols, the README provider table
and the tests all derive from it."""


def unknown_provider_message(*unknown: str) -> str:
    """The reference's text for ids no provider has, with every id there is.

    Example:
        >>> unknown_provider_message("bravo").startswith("Unknown search provider: bravo (known: ")
        True
    """
    return (
        f"Unknown search provider: {', '.join(unknown)} (known: {', '.join(SEARCH_PROVIDER_ORDER)})"
    )
