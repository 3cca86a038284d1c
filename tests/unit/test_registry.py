"""Registry contract: one list of ids, modules found by convention, facts as data, lazy."""

import importlib
import pkgutil
import subprocess
import sys
from types import ModuleType

import pytest

import websearch_core.providers as providers_pkg
import websearch_core.testing.protocols as protocols_pkg
from websearch_core import providers
from websearch_core.errors import ConfigurationError
from websearch_core.models import SearchParams, SearchResponse
from websearch_core.providers.base import ProviderContext, ProviderInfo, SearchProvider
from websearch_core.testing import PROTOCOLS
from websearch_core.testing.simulator import protocol_class_in

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
    # Only the spec's relative order is fixed: a provider it does not name may sit anywhere.
    assert [pid for pid in order if pid in spec_order] == [p for p in spec_order if p in order]


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


# --- one list of ids: everything else is found by convention ----------------------------------


def test_the_registry_is_the_order_list_by_convention() -> None:
    assert tuple(providers.PROVIDER_REGISTRY) == providers.SEARCH_PROVIDER_ORDER
    for provider_id, module in providers.PROVIDER_REGISTRY.items():
        assert module == f"websearch_core.providers.{provider_id}"


def _module(name: str, **attributes: object) -> ModuleType:
    module = ModuleType(name)
    for key, value in attributes.items():
        setattr(module, key, value)
    return module


def _defined_in(module: str, name: str) -> type[SearchProvider]:
    return type(name, (_Fake,), {"__module__": module})


class _Fake(SearchProvider):
    info = ProviderInfo(id="fake", label="Fake", kind="api", description="d", docs_url="https://x")

    async def search(self, params: SearchParams, context: ProviderContext) -> SearchResponse:
        raise NotImplementedError


def test_the_provider_class_is_the_modules_one_subclass_for_the_id() -> None:
    fake = _defined_in("pkg.fake", "FakeProvider")
    module = _module("pkg.fake", FakeProvider=fake, SearchProvider=SearchProvider)
    assert providers.provider_class_in(module, "fake") is fake


def test_a_module_level_provider_name_settles_ambiguity() -> None:
    first, second = _defined_in("pkg.fake", "A"), _defined_in("pkg.fake", "B")
    with pytest.raises(TypeError, match=r"pkg.fake must define one .*found: A, B.*PROVIDER"):
        providers.provider_class_in(_module("pkg.fake", A=first, B=second), "fake")
    named = _module("pkg.fake", A=first, B=second, PROVIDER=second)
    assert providers.provider_class_in(named, "fake") is second


def test_a_module_without_its_provider_is_named() -> None:
    with pytest.raises(TypeError, match=r"pkg.empty must define one .*'fake' \(found: none\)"):
        providers.provider_class_in(_module("pkg.empty"), "fake")
    with pytest.raises(TypeError, match="PROVIDER is not a SearchProvider subclass"):
        providers.provider_class_in(_module("pkg.bad", PROVIDER=object), "fake")


def test_simulator_protocols_follow_the_registry_order() -> None:
    present = {
        info.name
        for info in pkgutil.iter_modules(protocols_pkg.__path__)
        if not info.name.startswith("_")
    }
    assert present <= set(providers.SEARCH_PROVIDER_ORDER), "a protocol for no provider"
    expected = [pid for pid in providers.SEARCH_PROVIDER_ORDER if pid in present]
    assert list(PROTOCOLS) == expected
    assert "public" not in PROTOCOLS  # the aggregate is simulated through its engines


@pytest.mark.parametrize("provider_id", list(PROTOCOLS))
def test_each_protocol_module_has_one_protocol_class(provider_id: str) -> None:
    protocol_class = protocol_class_in(importlib.import_module(PROTOCOLS[provider_id]))
    for method in ("answer", "challenge", "malformed"):
        assert callable(getattr(protocol_class, method))


def test_a_protocol_module_can_name_its_class() -> None:
    def answer(self: object) -> None: ...

    chosen = type("Chosen", (), {"__module__": "pkg.proto", "answer": answer})
    helper = type("Helper", (), {"__module__": "pkg.proto", "answer": answer})

    module = _module("pkg.proto", ChosenProtocol=chosen, HelperProtocol=helper)
    with pytest.raises(TypeError, match="must define one \\*Protocol class"):
        protocol_class_in(module)
    module.PROTOCOL = chosen
    assert protocol_class_in(module) is chosen
