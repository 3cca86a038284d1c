"""Registry contract: every provider module is registered, described as data, and lazy."""

import pkgutil
import subprocess
import sys

import pytest

import websearch_core.providers as providers_pkg
from websearch_core import providers
from websearch_core.errors import ConfigurationError
from websearch_core.models import SearchParams
from websearch_core.providers.base import SearchProvider

PRIVATE_MODULES = {"base"}


def test_every_provider_module_is_registered() -> None:
    modules = {
        info.name
        for info in pkgutil.iter_modules(providers_pkg.__path__)
        if not info.name.startswith("_") and info.name not in PRIVATE_MODULES
    }
    assert modules == set(providers.PROVIDER_REGISTRY)


def test_order_lists_each_registered_provider_once() -> None:
    order = providers.SEARCH_PROVIDER_ORDER
    assert len(order) == len(set(order))
    assert set(order) == set(providers.PROVIDER_REGISTRY)


@pytest.mark.parametrize("provider_id", providers.SEARCH_PROVIDER_ORDER)
def test_provider_info_is_complete(provider_id: str) -> None:
    provider = providers.get_provider(provider_id)
    info = provider.info
    assert isinstance(provider, SearchProvider)
    assert info.id == provider_id
    assert info.label and info.description and info.docs_url.startswith("https://")
    assert info.kind in ("api", "answer", "scraper", "aggregate")
    assert info.honours <= set(SearchParams.model_fields) - {"provider"}
    assert "query" in info.honours
    if info.default_results is not None and info.max_results is not None:
        assert 1 <= info.default_results <= info.max_results
    assert providers.get_provider(provider_id) is provider


def test_unknown_provider_is_a_configuration_error() -> None:
    with pytest.raises(ConfigurationError, match="Unknown search provider: nope"):
        providers.get_provider("nope")


def test_spec_relative_order_of_registered_providers() -> None:
    spec_order = [
        "perplexity", "gemini", "anthropic", "codex", "xai", "zai", "exa", "tinyfish", "jina",
        "kagi", "tavily", "firecrawl", "brave", "serper", "kimi", "parallel", "synthetic",
        "searxng", "duckduckgo", "bing", "yahoo", "startpage", "google", "ecosia", "mojeek",
        "public",
    ]  # fmt: skip
    order = list(providers.SEARCH_PROVIDER_ORDER)
    assert order == [pid for pid in spec_order if pid in order]


def test_importing_the_core_loads_no_provider_and_no_framework() -> None:
    code = (
        "import sys, websearch_core\n"
        "loaded = [m for m in sys.modules if m.startswith('websearch_core.providers.')"
        " and not m.endswith(('.base', '._common'))]\n"
        "frameworks = [m for m in sys.modules if m.split('.')[0] in"
        " ('langchain_core', 'llama_index', 'langchain')]\n"
        "print(loaded, frameworks)\n"
        "assert not loaded and not frameworks\n"
    )
    completed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert completed.returncode == 0, completed.stdout + completed.stderr


def test_only_the_spec_named_answer_engines_take_max_tokens_and_temperature() -> None:
    takers = {
        provider_id
        for provider_id in providers.SEARCH_PROVIDER_ORDER
        if {"max_tokens", "temperature"} & providers.get_provider(provider_id).info.honours
    }
    assert takers == {"perplexity", "gemini", "anthropic", "xai"}
