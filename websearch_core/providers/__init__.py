"""The provider registry: one ordered list of ids, and a convention for finding each one.

:data:`SEARCH_PROVIDER_ORDER` (defined in :mod:`websearch_core.provider_ids`, re-exported
here) is the only place a provider is listed. Provider ``<id>``
lives in ``websearch_core/providers/<id>.py``, which names its class as a module-level
``PROVIDER`` or defines exactly one concrete :class:`SearchProvider` subclass whose
``info.id`` is ``<id>``. The module is imported the first time the provider is used, so
importing the package stays cheap and a broken optional provider cannot break the others.
"""

import importlib
import inspect
from collections.abc import Mapping
from types import MappingProxyType, ModuleType

from ..errors import ConfigurationError
from ..provider_ids import SEARCH_PROVIDER_ORDER, unknown_provider_message
from .base import ProviderContext, ProviderInfo, SearchProvider

__all__ = [
    "PROVIDER_REGISTRY",
    "SEARCH_PROVIDER_ORDER",
    "ProviderContext",
    "ProviderInfo",
    "SearchProvider",
    "get_provider",
    "is_loaded",
    "loaded_count",
    "provider_class_in",
    "provider_ids",
]

PROVIDER_REGISTRY: Mapping[str, str] = MappingProxyType(
    {provider_id: f"{__name__}.{provider_id}" for provider_id in SEARCH_PROVIDER_ORDER}
)
"""Provider id to the module that defines it (``providers/<id>.py``), by convention."""

_instances: dict[str, SearchProvider] = {}


def provider_ids() -> tuple[str, ...]:
    """Every registered id, in auto-chain order."""
    return SEARCH_PROVIDER_ORDER


def provider_class_in(module: ModuleType, provider_id: str) -> type[SearchProvider]:
    """The provider class of ``module``: its ``PROVIDER``, else its one subclass for the id.

    Raises:
        TypeError: ``PROVIDER`` is not a :class:`SearchProvider` subclass, or the module
            defines none or several candidates (name one with ``PROVIDER = ...``).
    """
    named = getattr(module, "PROVIDER", None)
    if named is not None:
        if not (isinstance(named, type) and issubclass(named, SearchProvider)):
            raise TypeError(f"{module.__name__}.PROVIDER is not a SearchProvider subclass")
        return named
    candidates = [
        value
        for value in vars(module).values()
        if isinstance(value, type)
        and issubclass(value, SearchProvider)
        and value.__module__ == module.__name__
        and not inspect.isabstract(value)
        and getattr(getattr(value, "info", None), "id", None) == provider_id
    ]
    if len(candidates) != 1:
        found = ", ".join(sorted(c.__name__ for c in candidates)) or "none"
        raise TypeError(
            f"{module.__name__} must define one SearchProvider subclass with info.id "
            f"{provider_id!r} (found: {found}); name it with PROVIDER = <class>"
        )
    return candidates[0]


def is_loaded(provider_id: str) -> bool:
    """Whether ``provider_id``'s module is imported and its instance made (cheap to ask)."""
    return provider_id in _instances


def loaded_count() -> int:
    """How many providers are imported: a caller notices a new one by the count changing."""
    return len(_instances)


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
        raise ConfigurationError(unknown_provider_message(provider_id))
    provider_class = provider_class_in(importlib.import_module(target), provider_id)
    # Threads importing at once (first searches on several loops, off each loop) each make
    # one; every caller gets the first stored, so a provider's own state is never split.
    return _instances.setdefault(provider_id, provider_class())
