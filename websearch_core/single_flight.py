"""One run of an async job per key at a time: callers meanwhile share its outcome.

Why this exists: two searches of one process that meet the same expired OAuth token each
refreshed it, so Google's token endpoint was asked twice (two tokens issued, the refresh
grant spent twice) where one answer serves both. :class:`SingleFlight` runs the job for
the first caller of a key; a caller that comes while it runs waits for it and gets the
same result, or the same exception (a refused refresh is seen by every search that
waited for it, not asked again by each).

Flights belong to an event loop: a future cannot be awaited from another loop, so callers
on different loops (threads of the synchronous bridge) each run their own; the OAuth
refresh's job takes the credential store's file lock and reads the token again under it,
which is what makes those (and other processes) share one refresh. A first caller
cancelled (its attempt timed out) or interrupted leaves no outcome to share: a waiter then
runs the job itself rather than inherit a cancellation that was not its own.
"""

import asyncio
import weakref
from collections.abc import Awaitable, Callable, Hashable
from typing import Generic, TypeVar

__all__ = ["SingleFlight"]

_T = TypeVar("_T")


class _Abandoned(Exception):
    """The first caller stopped before the job had an outcome (cancelled or interrupted)."""


class SingleFlight(Generic[_T]):
    """Runs ``job`` once per key and running loop while callers of that key wait for it.

    Example:
        >>> import asyncio
        >>> calls = []
        >>> async def job() -> str:
        ...     calls.append(1)
        ...     await asyncio.sleep(0)
        ...     return "fresh"
        >>> async def two() -> list[str]:
        ...     flight: SingleFlight[str] = SingleFlight()
        ...     return list(await asyncio.gather(flight.run("k", job), flight.run("k", job)))
        >>> asyncio.run(two()), len(calls)
        (['fresh', 'fresh'], 1)
    """

    def __init__(self) -> None:
        self._flights: weakref.WeakKeyDictionary[
            asyncio.AbstractEventLoop, dict[Hashable, asyncio.Future[_T]]
        ] = weakref.WeakKeyDictionary()

    async def run(self, key: Hashable, job: Callable[[], Awaitable[_T]]) -> _T:
        """``job()``'s result, from the run in flight for ``key`` if there is one.

        Raises:
            Exception: What the job raised, in every caller that waited for that run.
        """
        loop = asyncio.get_running_loop()
        flights = self._flights.get(loop)
        if flights is None:
            flights = self._flights[loop] = {}
        while (running := flights.get(key)) is not None:
            try:
                # Shielded: a waiter cancelled stops waiting; the run goes on for the rest.
                return await asyncio.shield(running)
            except _Abandoned:
                continue  # its first caller gave up; one of the waiters runs it now
        future: asyncio.Future[_T] = loop.create_future()
        flights[key] = future
        try:
            result = await job()
        except Exception as exc:
            future.set_exception(exc)
            raise
        except BaseException:
            future.set_exception(_Abandoned())
            raise
        else:
            future.set_result(result)
            return result
        finally:
            if flights.get(key) is future:
                del flights[key]
            future.exception()  # taken as seen: no "never retrieved" warning without waiters
