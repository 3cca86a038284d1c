"""Which library's code ran an event loop, for the words of a report about that loop.

A session left on a loop closed without shutting down was reported with advice for a loop
of one's own (``run loop.shutdown_asyncgens() before loop.close()``), also when the user
wrote no loop at all: LlamaIndex's synchronous ``tool.call`` of a tool built from an async
function (``FunctionTool.from_defaults(async_fn=...)``), called inside a running loop, runs
it on a loop that ``llama_index.core.async_utils.asyncio_run`` opens in a thread and closes
without shutting down. Who ran the loop is known only while it runs, so it is noted when a
client first guards a session on it (once per loop and session), by the module of the
frame that runs it; the report reads the note when the loop is closed.
"""

import asyncio
import sys
import weakref
from types import FrameType

__all__ = ["LOOP_RUNNERS", "note_loop_runner", "runner_of"]

LOOP_RUNNERS: dict[str, str] = {
    "llama_index/core/async_utils.py": "llama_index",
}
"""Known code that runs a loop of its own, by the end of its module's path: its name."""

_FRAMES_LOOKED_AT = 100
"""How far down the stack the runner is looked for (a search's own frames come first)."""

_RUNNERS: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, str | None]" = (
    weakref.WeakKeyDictionary()
)
"""Each loop noted so far and the name of its runner (``None``: the user's own code)."""


def note_loop_runner(loop: asyncio.AbstractEventLoop) -> None:
    """Note which known code runs ``loop``, the running loop, if not noted yet."""
    if loop in _RUNNERS:
        return
    _RUNNERS[loop] = _runner(sys._getframe(1))


def runner_of(loop: asyncio.AbstractEventLoop) -> str | None:
    """The name of the known code that ran ``loop`` (``None``: none known, or not noted)."""
    return _RUNNERS.get(loop)


def _runner(frame: FrameType | None) -> str | None:
    for _ in range(_FRAMES_LOOKED_AT):
        if frame is None:
            return None
        path = frame.f_code.co_filename.replace("\\", "/")
        for ending, name in LOOP_RUNNERS.items():
            if path.endswith(ending):
                return name
        frame = frame.f_back
    return None
