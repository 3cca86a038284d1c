"""What a client does with a session left open on an event loop closed without shutting down.

``loop.run_until_complete(ws.run(...))`` then ``loop.close()``, without
``loop.shutdown_asyncgens()`` between them, never shuts the loop down: the client's guard,
which that shutdown runs, never closes the session, and aiohttp can close it only through
its loop. The client's exit check (and its collection, or the next search on another loop)
then said so in one line, while aiohttp's ``Unclosed client session`` and ``Unclosed
connector`` followed it and the sockets stayed open until the process ended. The session's
connections are now closed without the loop (:mod:`websearch_core.loopless_close`), so
aiohttp has nothing to report, and the line says that and what to change, once per process
for each kind of loop: LlamaIndex closes a loop per synchronous call, and a line per call
would bury an agent's log. A loop LlamaIndex ran (:mod:`websearch_core.loop_runners`) gets
advice for LlamaIndex, not for a ``loop.close()`` its user never wrote. The line goes to the
loop's own exception handler, where asyncio and aiohttp report theirs, so a handler of the
user's own gets it too. Where the connections cannot be closed so (a loop or an aiohttp
whose private parts are not the ones read there), the session is left as it was and the
line says that instead, before aiohttp's own report.
"""

import asyncio
from typing import TYPE_CHECKING

from .loop_runners import runner_of
from .loopless_close import close_without_loop
from .said_once import first_time

if TYPE_CHECKING:
    import aiohttp

__all__ = [
    "LEFT_BY_RUNNER",
    "LEFT_ON_CLOSED_LOOP",
    "LEFT_OPEN_BY_RUNNER",
    "LEFT_OPEN_ON_CLOSED_LOOP",
    "close_left_on_closed_loop",
]

LEFT_ON_CLOSED_LOOP = (
    "WebSearch found its HTTP session left open on an event loop closed before "
    "loop.shutdown_asyncgens() ran, which would have closed it (asyncio.run runs both), "
    "and closed its connections without the loop: run "
    "loop.run_until_complete(loop.shutdown_asyncgens()) before loop.close(), or close the "
    "client on the loop first (loop.run_until_complete(ws.aclose()))"
)
"""The report for a loop of the user's own (or of code not known to run loops)."""

LEFT_BY_RUNNER: dict[str, str] = {
    "llama_index": (
        "WebSearch found its HTTP session left open on an event loop LlamaIndex closed "
        "without shutting it down, and closed its connections without the loop: a "
        "synchronous call of an async function made inside a running loop (tool.call of "
        "FunctionTool.from_defaults(async_fn=...)) runs it on a loop LlamaIndex opens in a "
        "thread (llama_index.core.async_utils.asyncio_run); in async code write "
        "result = await tool.acall(...), or build the tool with create_web_search_tool(ws), "
        "whose call shuts its loop down"
    ),
}
"""The report for a loop known code ran, by the runner's name (see ``loop_runners``)."""

_NOT_CLOSED = (
    "could not close its connections without the loop (this event loop or aiohttp keeps "
    "them where it does not look)"
)
_UNCLOSED_FOLLOWS = "; aiohttp reports the session as an unclosed client session"

LEFT_OPEN_ON_CLOSED_LOOP = (
    "WebSearch left its HTTP session open on an event loop closed before "
    "loop.shutdown_asyncgens() ran, which would have closed it (asyncio.run runs both), "
    f"and {_NOT_CLOSED}: run loop.run_until_complete(loop.shutdown_asyncgens()) before "
    "loop.close(), or close the client on the loop first "
    f"(loop.run_until_complete(ws.aclose())){_UNCLOSED_FOLLOWS}"
)
"""The report when the session could not be closed without its loop (uvloop, say)."""

LEFT_OPEN_BY_RUNNER: dict[str, str] = {
    "llama_index": (
        "WebSearch left its HTTP session open on an event loop LlamaIndex closed without "
        f"shutting it down, and {_NOT_CLOSED}: in async code write "
        "result = await tool.acall(...), or build the tool with create_web_search_tool(ws), "
        f"whose call shuts its loop down{_UNCLOSED_FOLLOWS}"
    ),
}
""":data:`LEFT_OPEN_ON_CLOSED_LOOP` for a loop known code ran, by the runner's name."""


def close_left_on_closed_loop(
    session: "aiohttp.ClientSession", loop: asyncio.AbstractEventLoop
) -> None:
    """Close ``session``, left open on the closed ``loop``, and say so once per kind of loop.

    Args:
        session: The client's own session opened on ``loop``.
        loop: The closed loop it was opened on.
    """
    if session.closed:
        return
    closed = close_without_loop(session)
    runner = runner_of(loop)
    if first_time(("left on closed loop", runner, closed)):
        if closed:
            message = LEFT_BY_RUNNER.get(runner or "", LEFT_ON_CLOSED_LOOP)
        else:  # left as it was: aiohttp's own report follows, as it did before
            message = LEFT_OPEN_BY_RUNNER.get(runner or "", LEFT_OPEN_ON_CLOSED_LOOP)
        loop.call_exception_handler({"message": message})
