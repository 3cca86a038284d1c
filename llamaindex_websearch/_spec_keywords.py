"""The spec's functions called with a name a model invents for ``query``, told the name meant.

``ToolSpec.to_tool_list()`` users meet ``WebSearchToolSpec.web_search`` and
``aweb_search`` themselves (``spec.web_search(q="rust")``, or the functions handed to a
framework that calls them with a model's arguments as they come). A ``q``, ``question`` or
``search_query`` got Python's ``unexpected keyword argument 'q'`` alone, while the tools
answer the same name with ``(did you mean query?)``. The functions now refuse it in
Python's words followed by the name meant, read from the tools' table
(:mod:`websearch_core.invented_names`), another search API's name for an argument
(:mod:`websearch_core.param_names`), or the nearest spelling, and what they take.

A right call pays only for the ``try`` around it: the names are looked at only once
Python has refused one.
"""

import functools
import inspect
from collections.abc import Callable, Collection, Coroutine, Mapping
from typing import Any, Concatenate, ParamSpec, TypeVar

from websearch_core.pending_call import AwaitableMethod, PendingCall

__all__ = [
    "SpecAwaitableMethod",
    "naming_invented_keywords",
    "spec_awaitable_method",
    "unexpected_keyword",
]

_S = TypeVar("_S")
_P = ParamSpec("_P")
_T = TypeVar("_T")


def unexpected_keyword(
    owner: str, kwargs: Mapping[str, object], takes: Collection[str]
) -> TypeError | None:
    """The refusal of every keyword in ``kwargs`` that ``owner()`` does not take, at once.

    A model that invents names invents several (``q`` and ``num``): naming the first alone
    (as Python does) had it retry, be refused for the next, and retry again. One keyword is
    refused in Python's words with the name meant; several are all named, each known
    near-miss with its own name meant.

    Args:
        owner: The function as Python names it (``WebSearchToolSpec.web_search``).
        kwargs: The keywords given (their values are never read: one may hold a secret).
        takes: The keywords the function takes, in the order the message lists them.

    Returns:
        A ``TypeError`` in Python's words with the names meant and what ``owner`` takes, or
        ``None`` when every keyword is taken (Python refused something else: let it stand).

    Example:
        >>> print(unexpected_keyword("Spec.web_search", {"q": "x"}, ["query", "limit"]))
        Spec.web_search() got an unexpected keyword argument 'q'; did you mean query? (Spec.web_search() takes query, limit)
        >>> print(unexpected_keyword("Spec.web_search", {"q": 1, "num": 2, "x": 3}, ["query", "limit"]))
        Spec.web_search() got unexpected keyword arguments 'q', 'num' and 'x'; did you mean query for 'q', limit for 'num'? (Spec.web_search() takes query, limit)
    """  # noqa: E501
    unknown = [name for name in kwargs if name not in takes]
    if not unknown:
        return None
    meant = {name: close for name in unknown if (close := _meant(name, takes)) is not None}
    listed = ", ".join(takes)
    if len(unknown) == 1:
        hint = f"; did you mean {meant[unknown[0]]}?" if meant else ""
        return TypeError(
            f"{owner}() got an unexpected keyword argument {unknown[0]!r}{hint} "
            f"({owner}() takes {listed})"
        )
    names = ", ".join(repr(name) for name in unknown[:-1]) + f" and {unknown[-1]!r}"
    hints = ", ".join(f"{close} for {name!r}" for name, close in meant.items())
    hint = f"; did you mean {hints}?" if hints else ""
    return TypeError(
        f"{owner}() got unexpected keyword arguments {names}{hint} ({owner}() takes {listed})"
    )


def _meant(unknown: str, takes: Collection[str]) -> str | None:
    """The keyword ``unknown`` probably stands for (``None``: none close).

    A model's or another search API's name for one, else the nearest spelling.
    """
    from websearch_core.invented_names import INVENTED_NAMES  # only for a wrong keyword
    from websearch_core.meant_names import closest_name
    from websearch_core.param_names import OTHER_API_NAMES

    named = INVENTED_NAMES.get(unknown.lower()) or OTHER_API_NAMES.get(unknown.lower())
    return named if named in takes else closest_name(unknown, takes)


def _taken(function: Callable[..., object]) -> tuple[str, ...]:
    """The keywords ``function`` (a method) takes, in the order of its signature."""
    parameters = list(inspect.signature(function).parameters.values())[1:]  # not self
    return tuple(parameter.name for parameter in parameters)


def naming_invented_keywords(
    method: Callable[Concatenate[_S, _P], _T],
) -> Callable[Concatenate[_S, _P], _T]:
    """``method``, its refusal of unknown keywords naming every one and the arguments meant.

    Its signature (for ``inspect``, LlamaIndex's schema of it and type checkers) stays
    ``method``'s.
    """
    owner = method.__qualname__
    takes = _taken(method)

    @functools.wraps(method)
    def checked(instance: _S, /, *args: _P.args, **kwargs: _P.kwargs) -> _T:
        try:
            return method(instance, *args, **kwargs)
        except TypeError:
            refused = unexpected_keyword(owner, kwargs, takes)  # one not taken: never bound
            if refused is None:  # raised by the call itself, or another binding error
                raise
            raise refused from None

    return checked


class SpecAwaitableMethod(AwaitableMethod[_S, _P, _T]):
    """An ``AwaitableMethod`` whose refusal of an unknown keyword names the argument meant.

    The ``async def`` is called, and so refuses a keyword, as the method is called (not when
    it is awaited), so its refusal is caught there.
    """

    def __init__(
        self,
        method: Callable[Concatenate[_S, _P], Coroutine[Any, Any, _T]],
        twin: str,
        holder: str,
    ) -> None:
        super().__init__(method, twin, holder)
        self._owner = method.__qualname__
        self._takes = _taken(method)

    def __call__(self, instance: _S, /, *args: _P.args, **kwargs: _P.kwargs) -> PendingCall[_T]:
        """The call as the base makes it; an unknown keyword refused naming the one meant."""
        try:
            return super().__call__(instance, *args, **kwargs)
        except TypeError:
            refused = unexpected_keyword(self._owner, kwargs, self._takes)
            if refused is None:
                raise
            raise refused from None


def spec_awaitable_method(
    twin: str, *, holder: str
) -> Callable[
    [Callable[Concatenate[_S, _P], Coroutine[Any, Any, _T]]], SpecAwaitableMethod[_S, _P, _T]
]:
    """``awaitable_method`` (:mod:`websearch_core.pending_call`), naming a keyword's meaning."""

    def make(
        method: Callable[Concatenate[_S, _P], Coroutine[Any, Any, _T]],
    ) -> SpecAwaitableMethod[_S, _P, _T]:
        return SpecAwaitableMethod(method, twin, holder)

    return make
