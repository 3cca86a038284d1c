"""A loopback proxy that refuses every request with a status line it is given.

aiohttp words a refused ``CONNECT`` whose status line has no reason phrase as
``407, message='', url='http://user:pw@proxy'``: the proxy's URL, password included. Page
fetches and searches both meet it; both test against this proxy.
"""

import contextlib
import socketserver
import threading
from collections.abc import Iterator


class _Refusing(socketserver.StreamRequestHandler):
    """Reads a request's head (a ``CONNECT`` too) and answers the server's status line."""

    def handle(self) -> None:
        while self.rfile.readline() not in (b"\r\n", b"\n", b""):
            pass
        status_line: bytes = self.server.status_line  # type: ignore[attr-defined]
        self.wfile.write(status_line + b"\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")


@contextlib.contextmanager
def refusing_proxy(status_line: bytes) -> Iterator[int]:
    """Run the proxy on a free loopback port, answering ``status_line``; yields the port."""
    with socketserver.ThreadingTCPServer(("127.0.0.1", 0), _Refusing) as proxy:
        proxy.status_line = status_line  # type: ignore[attr-defined]
        thread = threading.Thread(target=proxy.serve_forever, daemon=True)
        thread.start()
        try:
            yield proxy.server_address[1]
        finally:
            proxy.shutdown()
            thread.join()


STATUS_LINES = [b"HTTP/1.1 407 ", b"HTTP/1.1 502 "]
"""Refusals with no reason phrase: the form aiohttp words with the proxy's URL."""
STATUS_IDS = ["407", "502"]


@contextlib.contextmanager
def refusing_proxy_url(status_line: bytes, password: str) -> Iterator[str]:
    """Run the proxy; yields its URL with the user ``puser`` and ``password`` in it."""
    with refusing_proxy(status_line) as port:
        yield f"http://puser:{password}@127.0.0.1:{port}"
