"""Loopback servers that stop answering, for tests of a state store that hangs.

* :func:`silent_server`: accepts connections and never answers (a Redis behind a broken
  network path, or one frozen by a blocking command).
* :func:`stalling_proxy`: forwards to a real server until a chosen request has gone through
  a given number of times, then forwards nothing more, so a store can answer the first
  steps of a search and hang on a later one.
"""

import contextlib
import socket
import threading
from collections.abc import Callable, Iterator

from tests.fault_release import SelfRelease


@contextlib.contextmanager
def silent_server(release: SelfRelease | None = None) -> Iterator[int]:
    """Accept on a free loopback port and read without ever answering; yields the port.

    Args:
        release: Closes the server and its connections once its time is up, even
            mid-block, so a call stuck reading from it ends (see :mod:`tests.fault_release`).
    """
    with _Listener(lambda conn: _drain(conn), release) as port:
        yield port


@contextlib.contextmanager
def stalling_proxy(
    target_port: int, marker: bytes, passes: int, release: SelfRelease | None = None
) -> Iterator[int]:
    """Forward loopback connections to ``target_port`` until ``marker`` has passed ``passes`` times.

    From the request that carries ``marker`` once more on, nothing is forwarded in either
    direction on any connection: they stay open and silent (closed, once ``release``'s
    time is up).

    Yields:
        The proxy's port.
    """
    state = _Stall(marker, passes)
    with _Listener(lambda conn: _forward(conn, target_port, state), release) as port:
        yield port


class _Stall:
    """How many times the marker went through, and whether the proxy has gone silent."""

    def __init__(self, marker: bytes, passes: int) -> None:
        self.marker = marker
        self.passes = passes
        self.seen = 0
        self.stalled = threading.Event()
        self.lock = threading.Lock()

    def allows(self, chunk: bytes) -> bool:
        """Whether ``chunk`` (one request from the client) may still go through."""
        with self.lock:
            self.seen += chunk.count(self.marker)
            if self.seen > self.passes:
                self.stalled.set()
            return not self.stalled.is_set()


class _Listener:
    """A loopback listener running ``handle`` on a thread per connection."""

    def __init__(
        self, handle: Callable[[socket.socket], None], release: SelfRelease | None = None
    ) -> None:
        self._handle = handle
        self._release = release
        self._closing = threading.Lock()  # the release's timer and the block's end
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._sock.bind(("127.0.0.1", 0))
        self._sock.listen(16)
        self._conns: list[socket.socket] = []
        self._thread = threading.Thread(target=self._accept, daemon=True)

    def __enter__(self) -> int:
        self._thread.start()
        port: int = self._sock.getsockname()[1]
        if self._release is not None:
            self._release.arm(self._close)
        return port

    def __exit__(self, *exc: object) -> None:
        if self._release is not None:
            self._release.disarm()
        self._close()
        self._thread.join(5)

    def _close(self) -> None:
        """Stop accepting and close every connection: a client reading one gets its end."""
        with self._closing:
            with contextlib.suppress(OSError):
                self._sock.shutdown(socket.SHUT_RDWR)
            self._sock.close()
            for conn in list(self._conns):
                with contextlib.suppress(OSError):
                    conn.shutdown(socket.SHUT_RDWR)
                conn.close()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self._sock.accept()
            except OSError:
                return
            self._conns.append(conn)
            threading.Thread(target=self._handle, args=(conn,), daemon=True).start()


def _drain(conn: socket.socket) -> None:
    with contextlib.suppress(OSError):
        while conn.recv(65536):
            pass


def _forward(conn: socket.socket, target_port: int, state: _Stall) -> None:
    try:
        upstream = socket.create_connection(("127.0.0.1", target_port))
    except OSError:
        conn.close()
        return
    threading.Thread(target=_pump_back, args=(upstream, conn, state), daemon=True).start()
    with contextlib.closing(upstream), contextlib.suppress(OSError):
        while chunk := conn.recv(65536):
            if state.allows(chunk):
                upstream.sendall(chunk)


def _pump_back(upstream: socket.socket, conn: socket.socket, state: _Stall) -> None:
    with contextlib.suppress(OSError):
        while chunk := upstream.recv(65536):
            if not state.stalled.is_set():
                conn.sendall(chunk)
