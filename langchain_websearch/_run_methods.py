"""A tool's ``_run`` and ``_arun`` handed to LangChain as plain functions, not bound methods.

LangChain reads the running method on every call, twice: its parameters (does it take a
``run_manager``?) and its type hints (does it take a ``RunnableConfig``?). Looked up on the
tool, a method is a new bound method each time, and ``inspect.signature`` of a bound method
reads the function's signature and then builds a second one without ``self``, checking
every parameter again; the type hints are looked for through the method as well. A plain
function that carries its signature is answered from that signature at once.

So :class:`PlainRunMethod` hands out, per lookup on a tool, a function of the call's
arguments alone, bound to that tool, carrying the signature the bound method had and no
annotations to resolve (about 5-10 us a call, a tenth of what our LangChain tool's own
work costs beside LangChain's). What LangChain learns is the same: the same parameters and
no ``RunnableConfig``. Looked up on the class, it is the function itself, so LangChain's
``self.__class__._arun is BaseTool._arun`` test and ``inspect`` read it as before.
"""

import inspect
from collections.abc import Callable
from typing import Any

__all__ = ["PlainRunMethod", "hand_out_plain"]


class PlainRunMethod:
    """A method that, looked up on an instance, is a plain function bound to it.

    Args:
        function: The method as defined (``self`` first), its signature already stored on
            it (see ``_keep_signature`` in :mod:`langchain_websearch.tool`).
    """

    def __init__(self, function: Callable[..., Any]) -> None:
        self._function = function
        signature = inspect.signature(function)
        self._signature = signature.replace(parameters=list(signature.parameters.values())[1:])

    def __get__(self, instance: object, owner: type | None = None) -> Callable[..., Any]:
        function = self._function
        if instance is None:
            return function

        def bound(*args: Any, **kwargs: Any) -> Any:
            return function(instance, *args, **kwargs)

        bound.__signature__ = self._signature  # type: ignore[attr-defined]
        bound.__annotations__ = {}  # what LangChain resolves: nothing, at once
        bound.__name__ = function.__name__
        bound.__qualname__ = function.__qualname__
        return bound


def hand_out_plain(cls: type, *names: str) -> None:
    """Make each named method of ``cls`` a :class:`PlainRunMethod` (after the class exists).

    Set after the class statement, where pydantic no longer reads the class's names (in
    its body an underscore name that is not a function would become a private attribute).
    """
    for name in names:
        setattr(cls, name, PlainRunMethod(cls.__dict__[name]))
