"""``async with`` for what searches or fetches: entering also imports its modules, off the loop."""

from collections.abc import Sequence
from typing import TYPE_CHECKING, Self

from .closing import AsyncClosing

if TYPE_CHECKING:
    from .provider_imports import Use

__all__ = ["FetchClosing", "ImportsWhenEntered", "SearchClosing"]


class ImportsWhenEntered(AsyncClosing):
    """Mixin: ``async with obj:`` also imports what ``obj``'s calls need, on a worker thread.

    A process's first search imports the chain (some 180 modules: 0.2 s idle, 0.3-0.6 s on
    a loaded machine) and its first fetch the fetcher and its parsers (0.3 s idle, 0.5-1.2 s
    loaded), each before its deadline begins, so the deadline holds but the call overruns
    it by that much: a 1.5 s search against a silent server took 1.7-2.1 s, a 1.5 s fetch
    2.2 s. Entering is set-up, not the call: the client, and the tools and retrievers (which
    build their client at their first call), import them here, and the first call finds
    them imported. Used without ``async with``, the first search imports them instead, off
    the loop and within its deadline (which, passing first, ends it; a first fetch imports
    them before its deadline begins).
    """

    __slots__ = ()

    def _entered_uses(self) -> Sequence["Use"]:
        """What this object's calls do, so what entering it imports (each class says)."""
        raise NotImplementedError

    async def __aenter__(self) -> Self:
        # Here, not at the top: importing an adapter must not load the providers' registry.
        from .provider_imports import import_for_uses

        await import_for_uses(self._entered_uses())
        return self


class SearchClosing(ImportsWhenEntered):
    """Mixin for what searches: ``async with obj:`` also imports the chain, off the loop.

    The first search then imports only its plan's providers (a few milliseconds). A
    retriever that also fetches its results' pages imports the fetcher too (it overrides
    :meth:`_entered_uses`).
    """

    __slots__ = ()

    def _entered_uses(self) -> Sequence["Use"]:
        return ("search",)


class FetchClosing(ImportsWhenEntered):
    """Mixin for what fetches pages: ``async with obj:`` also imports the fetcher, off the loop."""

    __slots__ = ()

    def _entered_uses(self) -> Sequence["Use"]:
        return ("fetch",)
