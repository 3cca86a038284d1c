"""A loopback port whose new connections hang: a listener whose backlog is full.

What a user's machine sees behind a firewall that drops packets, or on a network with no way
out: the connection's SYN gets no answer, so ``connect`` waits until a timeout ends it. With
no network here, loopback stands in: a socket listening with the smallest backlog that never
accepts, its queue filled by a few connections of its own. The kernel then drops every
further SYN (``tcp_abort_on_overflow`` is off by default), so a connection neither opens nor
is refused.
"""

import select
import socket
from collections.abc import Iterator
from contextlib import contextmanager

FILLERS = 4
"""Connections that fill the queue (a backlog of 0 takes one; the rest wait in SYN_SENT)."""


@contextmanager
def hanging_port() -> Iterator[int]:
    """A loopback TCP port on which a new connection hangs, for the ``with`` block."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    fillers: list[socket.socket] = []
    try:
        listener.bind(("127.0.0.1", 0))
        listener.listen(0)
        port: int = listener.getsockname()[1]
        for _ in range(FILLERS):
            filler = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            fillers.append(filler)
            filler.setblocking(False)
            filler.connect_ex(("127.0.0.1", port))
        select.select([], fillers, [], 0.2)  # the first ones are queued by now
        yield port
    finally:
        for filler in fillers:
            filler.close()
        listener.close()
