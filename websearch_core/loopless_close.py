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
transport under a TLS one). Where one is missing (another aiohttp, another loop such as
uvloop), that connection is left as before: closed when collected.
"""

import contextlib
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import aiohttp

__all__ = ["close_without_loop"]


def close_without_loop(session: "aiohttp.ClientSession") -> int:
    """Close ``session``'s connections and connector now; its loop must be closed.

    Args:
        session: A session opened on a loop that is closed (on a loop still open, the
            connections are the loop's to close: nothing is done).

    Returns:
        How many connections were ended here (their sockets closed).
    """
    connector = session.connector
    if connector is None or connector.closed or not _loop_closed(connector):
        return 0
    ended = sum(_end(transport) for transport in list(_transports(connector)))
    waiter = connector.close()  # on a closed loop: marked closed, with nothing to await
    for _ in waiter.__await__():  # so it is awaited (aiohttp warns of one that is not)
        break
    return ended


def _loop_closed(connector: Any) -> bool:
    loop = getattr(connector, "_loop", None)
    return loop is not None and bool(loop.is_closed())


def _transports(connector: Any) -> Iterator[Any]:
    """The transports of ``connector``'s pooled and acquired connections."""
    for pooled in dict(getattr(connector, "_conns", {})).values():
        for protocol, _ in list(pooled):
            yield protocol.transport
    for protocol in list(getattr(connector, "_acquired", ())):
        yield protocol.transport


def _end(transport: Any) -> bool:
    """End ``transport``'s connection as its loop would have; ``False`` if it cannot be."""
    if transport is None:
        return False
    plain = getattr(getattr(transport, "_ssl_protocol", None), "_transport", None) or transport
    last_step = getattr(plain, "_call_connection_lost", None)
    if last_step is None or plain.get_extra_info("socket") is None:
        return False
    # abort() marks it lost, then fails to schedule the last step on the closed loop.
    with contextlib.suppress(RuntimeError):
        plain.abort()
    with contextlib.suppress(Exception):  # the protocol's part; the socket closes anyway
        last_step(None)
    return True
