"""Whether a request's time ran out while its connection was still being opened.

A connection that hangs (a firewall dropping packets, a network with no way out, a proxy
that accepts TCP and never answers ``CONNECT``) gives aiohttp's bare ``TimeoutError`` when
the provider's timeout ends first, as for a provider slow to answer: read so, every
provider's breaker opened on a machine whose connections all hung (measured: two providers
behind a full-backlog listener, ``timeout_seconds`` 0.5, both ``circuit_open`` after two
searches). aiohttp's own ``ConnectionTimeoutError`` comes only when
``connect_timeout_seconds`` is the shorter one.

:class:`WatchedConnector` is the client's own session's connector. Its ``connect`` (pool
slot, DNS, TCP, the proxy's ``CONNECT``, TLS: aiohttp's own "connect" phase, as its
``on_connection_create_start``/``_end`` trace hooks bound it) notes itself in a context
variable of the task sending the request, and clears it once the connection is there. A
timeout cancels that task inside ``connect``, so the note outlives it and the transport
reads it (:func:`cut_off_connecting`): nothing was sent, so the offline rule decides whether
the failure counts (:mod:`~websearch_core.orchestration.offline`). A request on a pooled
connection pays one coroutine frame and two context-variable writes; nothing is read
unless a request timed out.

A connector belongs to a session, so a caller's session (``WebSearch(session=...)``) keeps
a plain timeout here; only aiohttp's ``ConnectionTimeoutError`` tells it apart there.
"""

from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

import aiohttp

if TYPE_CHECKING:
    from aiohttp.client_reqrep import ClientRequest
    from aiohttp.connector import Connection
    from aiohttp.tracing import Trace

__all__ = ["WatchedConnector", "cut_off_connecting"]

_CONNECTING: ContextVar["tuple[object, ClientRequest] | None"] = ContextVar(
    "websearch_connecting", default=None
)
"""The connector whose ``connect`` this task entered and did not leave, and the request it
was for (whose URL a fan-out's engine cut off there is named by); ``None`` if none."""


class WatchedConnector(aiohttp.TCPConnector):
    """A ``TCPConnector`` that notes, per task, a connection it has not finished opening."""

    async def connect(
        self, req: "ClientRequest", traces: "list[Trace]", timeout: "aiohttp.ClientTimeout"
    ) -> "Connection":
        """Open (or take from the pool) the connection for ``req``, noted while under way.

        A failure other than a cancellation (a refused connection, a name not found) clears
        the note: it is worded by its own kind. A cancellation (the request's timeout)
        leaves it for the transport to read.
        """
        _CONNECTING.set((self, req))
        try:
            connection = await super().connect(req, traces, timeout)
        except Exception:
            _CONNECTING.set(None)
            raise
        _CONNECTING.set(None)
        return connection


def cut_off_connecting(session: Any) -> str | None:
    """The URL of this task's last request on ``session`` if it ended opening its connection.

    ``None`` when it did not (or no request was sent on ``session`` in this task).

    Args:
        session: The session the request went through; only a :class:`WatchedConnector`
            of its own can say so.
    """
    connecting = _CONNECTING.get()
    if connecting is None or connecting[0] is not getattr(session, "connector", None):
        return None
    return str(connecting[1].url)
