"""``asyncio.run`` for a coroutine whose value may be large, without Python rendering it.

On Python 3.11 and 3.12, ``asyncio.run`` on the main thread installs its own SIGINT
handler (a ``functools.partial`` holding the main task) and, as it ends, checks it with
``signal.getsignal``. That check converts the handler to a ``signal.Handlers`` member and
fails, and the failure's message is built with ``%r`` of the handler: the partial's repr,
hence the task's, hence ``repr()`` of the task's result, computed whole (twice) and thrown
away. For a search that result is the whole response: a 17-result Brave page cost about
70 µs per rendering, and 200 Firecrawl results of 21,000 characters of Markdown each
rendered to some 66 MB of transient text and 0.25 s of CPU, where decoding and reading the
7 MB body took 0.01 s. Python 3.10 and 3.13 do not render it.

:func:`run_to_end` runs the coroutine inside a task whose own result is ``None`` and hands
the value back out of band, so nothing large is left for that message to render. The
coroutine runs in the same task as before, so cancellation (Ctrl-C) and exceptions reach
it and leave it exactly as they did with ``asyncio.run`` alone.

It runs on an :class:`asyncio.Runner`, which is what ``asyncio.run`` is, rather than on
``asyncio.run`` itself: ``nest_asyncio`` (common in notebooks) replaces ``asyncio.run`` with
one that reuses the thread's loop and never closes it, so every synchronous call made on a
worker thread left a loop open (its selector and self-pipe: 22 descriptors over 20 calls,
and an ``unclosed event loop`` warning each).

Ctrl-C on the main thread (a plain script's sync call, a command) reaches the coroutine
through the runner's own SIGINT handler: the first cancels it, and the runner then raises
``KeyboardInterrupt`` while handling the coroutine's ``CancelledError``; a second one, while
the cancelled coroutine closes what it opened, was raised inside that clean-up. Either way
Python printed the ``CancelledError``'s traceback deep in aiohttp and "During handling of
the above exception, another exception occurred" before the interrupt. :func:`run_to_end`
raises one ``KeyboardInterrupt`` instead, from its own line, as the worker-thread bridge
(:mod:`websearch_core.loop_worker`) does; the chain stays on ``__context__`` for a debugger.
On the main thread the runner's handler is replaced for the call
(:mod:`websearch_core.loop_interrupts`): a second Ctrl-C lets that clean-up finish, within
a bound, and a third stops at once.
"""

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

from .loop_interrupts import Interrupts, interrupts_handled

__all__ = ["run_to_end"]

_T = TypeVar("_T")


def run_to_end(coroutine: Coroutine[Any, Any, _T]) -> _T:
    """``asyncio.run(coroutine)``'s value, without Python 3.11/3.12 rendering it as text.

    Args:
        coroutine: What to run on a new event loop (no loop may be running in this thread,
            as for ``asyncio.run``).

    Raises:
        BaseException: Whatever ``asyncio.run(coroutine)`` raises: the coroutine's own
            exception, ``KeyboardInterrupt`` for Ctrl-C, ``RuntimeError`` inside a loop.

    Example:
        >>> async def answer() -> int:
        ...     return 42
        >>> run_to_end(answer())
        42
    """
    kept: list[_T] = []
    handler: Interrupts | None = None

    async def keep() -> None:
        task = asyncio.current_task()
        if handler is not None and task is not None:
            handler.watch(task)
        kept.append(await coroutine)

    try:
        # asyncio.run's own steps, as nest_asyncio leaves them; Ctrl-C as loop_interrupts says
        with asyncio.Runner() as runner, interrupts_handled(runner.get_loop()) as handler:
            runner.run(keep())
    except KeyboardInterrupt:
        raise KeyboardInterrupt from None  # one clean interrupt, however many Ctrl-Cs
    except asyncio.CancelledError:
        if handler is not None and handler.count:  # cancelled by Ctrl-C, as asyncio says it
            raise KeyboardInterrupt from None
        raise
    return kept[0]
