"""The environment variables a provider reads that change what it answers, in one place.

Some providers read a gateway's URL from a variable of their own service rather than from
``base_urls`` (``ANTHROPIC_BASE_URL``, ``FIRECRAWL_BASE_URL``, ``MOONSHOT_SEARCH_BASE_URL``):
their module names them (``BASE_URL_ENV_VARS``, ``URL_ENV_VARS``) or the provider class does
(:attr:`~websearch_core.providers.base.SearchProvider.url_variables`). Such a variable
changes what the provider answers, and where a sign-in may go, so both a mark's scope and the
result cache's scope read it: this is where they learn which variables those are.

Others change what it answers without moving it: a model (``GEMINI_SEARCH_MODEL``), a time
zone (Perplexity's ``TZ``). The provider class declares them
(:attr:`~websearch_core.providers.base.SearchProvider.answer_variables`); only the result
cache's scope reads them (:func:`scope_variables`), as a mark is about reaching the service.
"""

import functools
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .providers.base import SearchProvider

__all__ = ["endpoint_variables", "scope_variables"]

_MODULE_ATTRIBUTES = ("BASE_URL_ENV_VARS", "URL_ENV_VARS")


def endpoint_variables(provider: "SearchProvider") -> tuple[str, ...]:
    """The variables naming ``provider``'s endpoint, its module's first (each once).

    Example:
        >>> from websearch_core.providers import get_provider
        >>> endpoint_variables(get_provider("anthropic"))
        ('ANTHROPIC_SEARCH_BASE_URL', 'ANTHROPIC_BASE_URL')
        >>> endpoint_variables(get_provider("brave"))
        ()
    """
    return _of_class(type(provider))


def scope_variables(provider: "SearchProvider") -> tuple[str, ...]:
    """The variables whose values the result cache's scope takes: endpoint, then answer.

    Example:
        >>> from websearch_core.providers import get_provider
        >>> scope_variables(get_provider("anthropic"))
        ('ANTHROPIC_SEARCH_BASE_URL', 'ANTHROPIC_BASE_URL', 'ANTHROPIC_SEARCH_MODEL')
    """
    return _in_scope(type(provider))


@functools.cache
def _in_scope(cls: type["SearchProvider"]) -> tuple[str, ...]:
    """Worked out once per provider class, as :func:`_of_class` is."""
    return tuple(dict.fromkeys((*_of_class(cls), *cls.answer_variables)))


@functools.cache
def _of_class(cls: type["SearchProvider"]) -> tuple[str, ...]:
    """Worked out once per provider class (the cache's key asks on every search)."""
    module = sys.modules.get(cls.__module__)
    names = [name for attr in _MODULE_ATTRIBUTES for name in getattr(module, attr, ())]
    names.extend(cls.url_variables)
    return tuple(dict.fromkeys(names))
