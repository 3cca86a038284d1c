"""A loopback port that refuses every connection for as long as the tests run.

Tests used to bind a socket to port 0, read its number and close it: a port "nothing listens
on". Closed, the port is free again, and a simulator or proxy started a moment later may be
given the same number by the kernel; a connection meant to be refused then reached a live
server (seen once in CI: Public Web read DuckDuckGo's results from the "closed" port). Here the
socket stays bound and never listens, so the kernel refuses connections to it and gives its
number to no one else until the test process ends.
"""

import atexit
import socket

_held: socket.socket | None = None


def refused_port() -> int:
    """A loopback TCP port bound by this process and never listening: connections are refused.

    The same port for every caller; it is held (not closed) until the process exits, so no
    listener started by a test can be given its number.
    """
    global _held
    if _held is None:
        held = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        held.bind(("127.0.0.1", 0))
        atexit.register(held.close)
        _held = held
    port: int = _held.getsockname()[1]
    return port
