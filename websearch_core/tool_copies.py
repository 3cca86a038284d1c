"""What a copy of a tool, spec or retriever holds: its configuration, and clients of its own.

Frameworks copy tools: LangChain and LangGraph deep-copy them (binding, graph state),
``model_copy(update=...)`` derives a variant. Every adapter object owns a
:class:`~websearch_core.client.LoopBoundClient` (its HTTP sessions, one per event loop, and a
state store, opened on first use), which holds a lock and cannot itself be copied. The rule,
written once here for every adapter:

* a copy, shallow or deep, shares the configuration it was built from (settings, keys, and
  a :class:`~websearch_core.WebSearch`, session or browser the caller gave, which stay the
  caller's to close);
* a copy opens its own clients when first used, so closing one never closes the other's
  sessions (the original's next call simply opens new ones, as after any ``aclose``).

:class:`~websearch_core.client.LoopBoundClient` and :class:`~websearch_core.WebSearch` copy
as a new empty set and as themselves; :func:`with_own_clients` and
:class:`CopiesOpenOwnClients` give a shallow copy the same rule (a shallow copy would
otherwise share the set). A pickled adapter follows the same rule, and never holds a secret:
see :mod:`websearch_core.tool_pickles`.
"""

import copy
from typing import Any, Self

__all__ = ["CopiesOpenOwnClients", "with_own_clients"]


def with_own_clients(namespace: dict[str, Any]) -> None:
    """Replace each client set in ``namespace`` (an object's attributes) with a new one."""
    from .client import LoopBoundClient  # loaded already: it made the sets being replaced

    for name, value in namespace.items():
        if isinstance(value, LoopBoundClient):
            namespace[name] = copy.copy(value)


class CopiesOpenOwnClients:
    """Mixin for a plain (not pydantic) adapter object: copies follow the module's rule.

    A deep copy is this shallow one too: what such an object holds besides its clients is
    configuration, which may include a live session the caller gave (it cannot be copied).
    """

    __slots__ = ()

    def __copy__(self) -> Self:
        copied = type(self).__new__(type(self))
        attributes = dict(vars(self))
        with_own_clients(attributes)
        vars(copied).update(attributes)
        return copied

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        copied = self.__copy__()
        memo[id(self)] = copied
        return copied
