"""A shallow copy of a LlamaIndex tool runs through a copy of the object behind its functions.

A ``FunctionTool`` calls bound methods of the object that owns the tool's clients (the
spec, the fetcher). A plain shallow copy would keep calling the original's methods, so
closing either tool closed the other's session; this copy calls a copy of that object
instead, which opens its own clients (:mod:`websearch_core.tool_copies`). A deep copy
needs nothing here: copying the bound methods copies their object, once (``memo``).
"""

import copy
from types import MethodType
from typing import ClassVar, Self

__all__ = ["ToolCopies"]


class ToolCopies:
    """Mixin for a ``FunctionTool`` whose functions are methods of ``owner_attribute``."""

    __slots__ = ()

    owner_attribute: ClassVar[str]
    """The attribute holding the object whose methods the tool calls."""

    def __copy__(self) -> Self:
        copied = type(self).__new__(type(self))
        attributes = dict(vars(self))
        owner = attributes.get(self.owner_attribute)
        if owner is not None:
            own = copy.copy(owner)
            for name, value in attributes.items():
                if isinstance(value, MethodType) and value.__self__ is owner:
                    attributes[name] = MethodType(value.__func__, own)
            attributes[self.owner_attribute] = own
        vars(copied).update(attributes)
        return copied
