"""``async with`` for what searches: entering also imports the chain, off the loop."""

from typing import Self

from .closing import AsyncClosing

__all__ = ["SearchClosing"]


class SearchClosing(AsyncClosing):
    """Mixin for what searches: ``async with obj:`` also imports the chain, off the loop.

    A process's first search imports the chain (some 180 modules: 0.2 s idle, 0.3-0.6 s on
    a loaded machine) before its deadline begins, so the deadline holds but the call
    overruns it by that much: a 1.5 s search against a silent server took 1.7-2.1 s.
    Entering is set-up, not the search: the client, and the tools and retrievers (which
    build their client at their first call), import the chain here on a worker thread,
    and the first search imports only its plan's providers (a few milliseconds). Used
    without ``async with``, the first search imports the chain instead, still before its
    deadline begins.
    """

    __slots__ = ()

    async def __aenter__(self) -> Self:
        # Here, not at the top: importing an adapter must not load the providers' registry.
        from .provider_imports import import_chain

        await import_chain()
        return self
