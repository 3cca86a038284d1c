"""Close an aiohttp session whose event loop was closed before the session was.

aiohttp closes a session's connections through its loop; once that loop is closed, its
``close()`` only marks the connector closed and forgets the connections (their sockets
stay open until each transport is collected, when asyncio warns ``unclosed transport``),
and a session never closed at all is reported as ``Unclosed client session`` and
``Unclosed connector`` when collected. A loop closed without shutting down (a
``loop.close()`` of one's own, or LlamaIndex's synchronous call of an async function on a
loop it opens in a thread) leaves every client's session so. The sockets are the
process's, not the loop's: here each connection is ended as asyncio itself ends one (its
transport's last step, run now instead of being scheduled on a loop that runs no more), and
the connector is then closed, so nothing is left for aiohttp or asyncio to report.

It reads what aiohttp 3.11 to 3.14 and asyncio's selector transports keep privately
(the connector's pooled and acquired connections, the transport's last step, the plain
transport under a TLS one). Everything is read before anything is done: where one part is
missing or of another shape (another aiohttp, a loop such as uvloop whose transports keep
no such step), nothing is touched and the session is left as before, for aiohttp to report
unclosed; it was closed anyway (its connections forgotten, their sockets open) or the read
raised out of the exit check. The caller says which happened (:mod:`.closed_loops`).
"""

import contextlib
import functools
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import aiohttp

__all__ = ["close_without_loop"]


def close_without_loop(session: "aiohttp.ClientSession") -> bool:
    """Close ``session``'s connections and connector now; its loop must be closed.

    Args:
        session: A session opened on a loop that is closed (on a loop still open, the
            connections are the loop's to close: nothing is done).

    Returns:
        Whether the session is closed: its connections ended here (their sockets closed)
        and its connector marked closed. ``False`` leaves it as it was: its loop is open,
        or a part read here is missing or of a shape not known here.
    """
    connector = session.connector
    if connector is None or connector.closed:
        return True
    try:
        if not _loop_closed(connector):
            return False
        endings = [_ending(transport) for transport in list(_transports(connector))]
    except Exception:  # a shape not known here (AttributeError, TypeError, ...): touch nothing
        return False
    known = [ending for ending in endings if ending is not None]
    if len(known) != len(endings):
        return False
    for end in known:
        end()
    _closed(connector)
    return True


def _loop_closed(connector: Any) -> bool:
    loop = getattr(connector, "_loop", None)
    return loop is not None and bool(loop.is_closed())


def _transports(connector: Any) -> Iterator[Any]:
    """The transports of ``connector``'s pooled and acquired connections.

    Raises:
        TypeError: A pooled connection is not the ``(protocol, time)`` pair read here.
        ValueError: Likewise.
        AttributeError: A connection has no ``transport``.
    """
    for pooled in dict(getattr(connector, "_conns", {})).values():
        for protocol, _ in list(pooled):
            yield protocol.transport
    for protocol in list(getattr(connector, "_acquired", ())):
        yield protocol.transport


def _ending(transport: Any) -> Callable[[], None] | None:
    """What ends ``transport``'s connection as its loop would have; ``None``: not known here.

    A transport already gone (``None``, or a plain one whose socket is closed) needs nothing.
    """
    if transport is None:
        return _nothing
    ssl_protocol = getattr(transport, "_ssl_protocol", None)
    plain = getattr(ssl_protocol, "_transport", None) or transport
    last_step = getattr(plain, "_call_connection_lost", None)
    if not callable(last_step) or not callable(getattr(plain, "abort", None)):
        return None  # not asyncio's selector transport (uvloop's, another loop's)
    if plain.get_extra_info("socket") is None:
        return _nothing
    return functools.partial(_end, plain, last_step)


def _end(plain: Any, last_step: Callable[[Any], object]) -> None:
    """End the plain transport ``plain``: its abort, then its ``last_step`` run now."""
    # abort() marks it lost, then fails to schedule the last step on the closed loop.
    with contextlib.suppress(RuntimeError):
        plain.abort()
    with contextlib.suppress(Exception):  # the protocol's part; the socket closes anyway
        last_step(None)


def _nothing() -> None:
    """A connection with nothing left to end."""


def _closed(connector: Any) -> None:
    """Mark ``connector`` closed; on a closed loop its close has nothing to await."""
    waiter = connector.close()
    with contextlib.suppress(AttributeError, TypeError):  # another aiohttp: not awaitable
        for _ in waiter.__await__():  # awaited, so aiohttp does not warn of one that is not
            break
