"""Close the HTTP session of a client dropped while its event loop still runs.

A tool or retriever made per request (a web handler building ``WebSearchTool()`` each
time) and never closed is collected while its loop goes on. Its client's guard closes what
it opened only when the loop shuts down, so the session was collected along with the client
instead: aiohttp logged ``Unclosed client session`` and ``Unclosed connector`` as asyncio
errors for every such object, and the sockets stayed open until then. Here the session
outlives its owner just long enough to be closed on its loop.
"""

import asyncio
import weakref
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import aiohttp

__all__ = ["close_on_its_loop", "close_when_collected"]

_CLOSING: set["asyncio.Task[None]"] = set()
"""Closings under way: a task the loop holds only weakly must be kept until it is done."""


def close_when_collected(
    owner: object, session: "aiohttp.ClientSession", loop: asyncio.AbstractEventLoop
) -> weakref.finalize:  # type: ignore[type-arg]
    """Close ``session`` on ``loop`` when ``owner`` is collected, if it is still open then.

    Returns:
        The finalizer: ``detach()`` it when the session is closed or replaced, so that it
        holds no closed session for the rest of the owner's life.
    """
    finalizer = weakref.finalize(owner, _close_soon, session, loop)
    # Not at interpreter exit: the client's own guard closes what is left then, on a loop
    # that may be idle, where a closing scheduled here would only be left pending.
    finalizer.atexit = False
    return finalizer


def close_on_its_loop(session: "aiohttp.ClientSession", loop: asyncio.AbstractEventLoop) -> None:
    """Have ``loop`` close ``session``, from any thread, without waiting for it.

    For a client closed on one loop holding a session of another, which aiohttp can close
    only there. A loop that no longer runs closes it as it shuts down (the client's guard).
    """
    _close_soon(session, loop)


def _close_soon(session: "aiohttp.ClientSession", loop: asyncio.AbstractEventLoop) -> None:
    """Have ``loop`` close ``session`` (collection may run on any thread, or on no loop).

    On a loop closed without shutting down, which can run nothing, its connections are
    closed without it and that is said as the exit check says it
    (:mod:`websearch_core.closed_loops`), so aiohttp has no unclosed session to report as
    it is collected.
    """
    if session.closed:
        return
    if loop.is_closed():
        from .closed_loops import close_left_on_closed_loop  # only when one was left

        close_left_on_closed_loop(session, loop)
        return
    try:
        loop.call_soon_threadsafe(_start_closing, session, loop)
    except RuntimeError:  # the loop closed meanwhile: nothing can be awaited on it now
        return


def _start_closing(session: "aiohttp.ClientSession", loop: asyncio.AbstractEventLoop) -> None:
    if session.closed:
        return
    task = loop.create_task(session.close())
    _CLOSING.add(task)
    task.add_done_callback(_CLOSING.discard)
