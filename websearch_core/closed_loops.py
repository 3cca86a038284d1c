"""What a client says at exit of a session left open on an event loop closed by hand.

``loop.run_until_complete(ws.run(...))`` then ``loop.close()``, without
``loop.shutdown_asyncgens()`` between them, never shuts the loop down: the client's guard,
which that shutdown runs, never closes the session, and once the loop is closed nothing can
(aiohttp closes a session's connections through its loop). The interpreter's exit then
printed aiohttp's ``Unclosed client session`` and ``Unclosed connector`` alone, naming
neither the client nor what to write; ``ws.close()`` after ``loop.close()`` returned with the
session still open, saying nothing either. The client's exit check now reports it through
the loop's own exception handler (where asyncio and aiohttp report theirs, so a handler of
the user's own gets it too), in one line that says what to run.
"""

import asyncio
import weakref

__all__ = ["LEFT_ON_CLOSED_LOOP", "say_left_on_closed_loop"]

LEFT_ON_CLOSED_LOOP = (
    "WebSearch left its HTTP session open on an event loop closed before "
    "loop.shutdown_asyncgens() ran, which would have closed it (asyncio.run runs both), "
    "and a closed loop can close nothing: run "
    "loop.run_until_complete(loop.shutdown_asyncgens()) before loop.close(), or close the "
    "client on the loop first (loop.run_until_complete(ws.aclose())); aiohttp reports the "
    "session as an unclosed client session"
)
"""The report, once per closed loop however many clients left a session on it."""

_REPORTED: "weakref.WeakSet[asyncio.AbstractEventLoop]" = weakref.WeakSet()
"""The closed loops reported so far in this process, by the exit check or by a client
collected before it (weak: a loop collected is not reported again, and its id may be
reused)."""


def say_left_on_closed_loop(loop: asyncio.AbstractEventLoop, said: set[int]) -> None:
    """Report a session left open on the closed ``loop`` to its exception handler, once.

    A client collected before the exit (``del ws``, or one made in a function that
    returned) took its guard along, so the exit check never saw its session and aiohttp's
    ``Unclosed client session`` was said alone; the client's collection
    (:mod:`websearch_core.abandoned`) reports it here too, the loop counted once between
    both.

    Args:
        loop: The closed loop the session was opened on.
        said: The ids of the loops reported in this exit check; ``loop``'s is added.
    """
    if id(loop) in said or loop in _REPORTED:
        return
    said.add(id(loop))
    _REPORTED.add(loop)
    loop.call_exception_handler({"message": LEFT_ON_CLOSED_LOOP})
