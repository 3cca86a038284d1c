"""The credential check in front of every provider's ``search``, however it was set.

Why this exists: the chain checks a provider before it reserves a request, but a provider
called directly (a user's, a fan-out's engine) ran no check, and one that sends a stored
sign-in itself sent it to whatever gateway its route named. So every ``search`` a
:class:`~websearch_core.providers.base.SearchProvider` can be asked through is guarded:

* one defined in a class body, by ``SearchProvider.__init_subclass__``;
* one assigned to a class later (``MyProvider.search = f``, a patch), by the providers'
  metaclass, which guards what is assigned;
* one assigned to an instance (``provider.search = f``, a stand-in), by the instance's
  ``__setattr__``.

A guard adds no frame to the search: it returns the search's own coroutine, and a refusal
is raised when that coroutine is awaited, where the search's own errors are. The chain,
which has just run the check, asks through ``SearchProvider._search_checked``, which reaches
past the guard (by :data:`UNCHECKED` or :data:`UNCHECKED_BOUND`) so the check runs once a
search.
"""

import functools
import types
from collections.abc import Callable, Coroutine
from typing import Any, Final, Protocol

from ..errors import ProviderNotConfiguredError, SearchProviderError
from ..models import SearchParams, SearchResponse
from ..provider_types import ProviderContext, ProviderInfo
from ..sent_secret import CredentialCheck

__all__ = [
    "UNCHECKED",
    "UNCHECKED_BOUND",
    "BoundSearch",
    "Checked",
    "SearchMethod",
    "guarded_method",
    "guarded_on_instance",
]


class Checked(Protocol):
    """What a guard needs of a provider: a ``SearchProvider``, by what it has.

    Named so because the base imports this module: a type-only import back would make a
    cycle.
    """

    @property
    def info(self) -> ProviderInfo:
        """Whose check it is (its id names the refusal's provider)."""

    def credential_check(self, context: ProviderContext) -> CredentialCheck:
        """The one credential check, run before the search."""

    def search(
        self, params: SearchParams, context: ProviderContext
    ) -> Coroutine[Any, Any, SearchResponse]:
        """The search the guard stands in front of (read on the class, to find the guard)."""


SearchMethod = Callable[
    [Checked, SearchParams, ProviderContext], Coroutine[Any, Any, SearchResponse]
]
"""A provider's ``search`` as its class holds it (the instance passed first)."""

BoundSearch = Callable[[SearchParams, ProviderContext], Coroutine[Any, Any, SearchResponse]]
"""A ``search`` as an instance holds it: called without the instance."""

UNCHECKED: Final = "_websearch_unchecked"
"""The attribute of a class's guarded ``search`` that holds the unguarded one."""
UNCHECKED_BOUND: Final = "_websearch_unchecked_bound"
"""The attribute of an instance's guarded ``search`` that holds the unguarded one."""


def guarded_method(search: object) -> object:
    """``search`` as a class should hold it: guarded, unless it is already or cannot be.

    A function (a method once on the class) is wrapped as it is; a static method or
    another callable (a mock, a ``functools.partial``, a bound method), which a class calls
    without the instance, is wrapped as that call; a class method (or another descriptor
    that is not callable itself, a ``functools.partialmethod``) is bound as the class would
    bind it, on each call, then called: it ran no check at all, so a classmethod ``search``
    sent its sign-in to any gateway. Anything else (not callable, an abstract method) is
    returned as it is, as is a guard already made.
    """
    if isinstance(search, staticmethod):
        search = search.__func__
    elif isinstance(search, types.FunctionType):
        if getattr(search, "__isabstractmethod__", False) or hasattr(search, UNCHECKED):
            return search
        method: SearchMethod = search
        return _guarded(method)
    elif not callable(search) and hasattr(type(search), "__get__"):
        if getattr(search, "__isabstractmethod__", False):
            return search
        return _guarded(_bound_on_each_call(search))
    if not callable(search):
        return search
    plain: BoundSearch = search

    def as_method(
        _: Checked, params: SearchParams, context: ProviderContext
    ) -> Coroutine[Any, Any, SearchResponse]:
        return plain(params, context)

    return _guarded(as_method)


def _bound_on_each_call(descriptor: Any) -> SearchMethod:
    """A method that binds ``descriptor`` to the instance's class (or the instance) and calls it.

    What Python does when it reads the attribute: a class method is bound to
    ``type(instance)``, a subclass's included, so ``cls`` is what it would have been.
    """
    get = descriptor.__get__

    def as_method(
        self: Checked, params: SearchParams, context: ProviderContext
    ) -> Coroutine[Any, Any, SearchResponse]:
        bound: BoundSearch = get(self, type(self))
        return bound(params, context)

    return as_method


def _guarded(search: SearchMethod) -> SearchMethod:
    """``search`` that first runs the provider's :meth:`~SearchProvider.credential_check`.

    A plain function that returns ``search``'s coroutine, not a coroutine of its own: a
    frame here would be resumed once more for every response a search waits for. A
    refusal is raised when the result is awaited, where the search's own errors are.

    The check runs once however the call arrives: a subclass's ``search`` reaching its
    parent's through ``super()`` finds the instance's own ``search`` guarded too, by
    another guard, so the parent's guard leaves the check to that one (or to the chain,
    which called the unguarded one after its own check).
    """

    @functools.wraps(search)
    def checked_search(
        self: Checked, params: SearchParams, context: ProviderContext
    ) -> Coroutine[Any, Any, SearchResponse]:
        resolved = type(self).search
        if resolved is checked_search or not hasattr(resolved, UNCHECKED):
            problem = self.credential_check(context).problem  # inline: no frame more
            if problem is not None:
                return _raise_when_awaited(ProviderNotConfiguredError(self.info.id, problem))
        return search(self, params, context)

    setattr(checked_search, UNCHECKED, search)
    return checked_search


def guarded_on_instance(provider: Checked, search: object) -> object:
    """``search`` as ``provider``'s own attribute should hold it: checking ``provider``.

    Returned as it is when it cannot be called, when it is already guarded for
    ``provider`` (its own guarded method read back, or a guard made here), or when it is a
    guard for it already. A replacement that calls the class's ``search`` itself runs the
    check twice (once here, once there): the price of a stand-in, not of a search.
    """
    if not callable(search):
        return search
    if getattr(search, UNCHECKED_BOUND, None) is not None:
        return search
    if getattr(search, UNCHECKED, None) is not None and getattr(search, "__self__", None) is (
        provider
    ):
        return search
    plain: BoundSearch = search

    def checked_search(
        params: SearchParams, context: ProviderContext
    ) -> Coroutine[Any, Any, SearchResponse]:
        problem = provider.credential_check(context).problem
        if problem is not None:
            return _raise_when_awaited(ProviderNotConfiguredError(provider.info.id, problem))
        return plain(params, context)

    setattr(checked_search, UNCHECKED_BOUND, plain)
    return checked_search


async def _raise_when_awaited(error: SearchProviderError) -> SearchResponse:
    """A coroutine that raises ``error``: a refusal reaches the caller where the loop's would."""
    raise error
