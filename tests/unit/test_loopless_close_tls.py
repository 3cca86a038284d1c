"""Closing a session without its loop: a TLS connection, and shapes it does not know.

Stop 53 (firstusers16) closed a session left on a loop closed unshut by ending each
connection as asyncio would (:mod:`websearch_core.loopless_close`), TLS ones through the
plain transport under asyncio's TLS one; only plain HTTP was run (the simulator). Here a
loopback TLS server (a self-signed certificate made by the ``openssl`` command for the
test) answers one request over keep-alive, so the client's connection is pooled, TLS and
open when its loop is closed. Whether it was ended is what the client's socket says at once
(closed or not), and then what the server saw: its side of the connection lost (an event).

The private parts read there may be missing or of another shape (uvloop's transports keep
no ``_call_connection_lost``; another aiohttp may pool connections otherwise). A transport
like uvloop's stands in for the first, pooled entries of another shape for the second:
then nothing is touched, and what was said before holds: a line saying the session was left
open, then aiohttp's own ``Unclosed client session``. Each runs in a fresh interpreter with
every warning shown (``-W default``).
"""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None, reason="needs openssl")

_SCRIPT = """
import asyncio, gc, ssl, sys, threading

import aiohttp

from websearch_core.closed_loops import close_left_on_closed_loop
from websearch_core.loopless_close import close_without_loop

cert, key, mode = sys.argv[1:4]
lost = threading.Event()


class Answer(asyncio.Protocol):
    def connection_made(self, transport):
        self.transport = transport

    def data_received(self, data):
        if data.endswith(b"\\r\\n\\r\\n"):
            self.transport.write(b"HTTP/1.1 200 OK\\r\\nContent-Length: 2\\r\\n\\r\\nok")

    def connection_lost(self, exc):
        lost.set()


server_loop = asyncio.new_event_loop()
served = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
served.load_cert_chain(cert, key)
server = server_loop.run_until_complete(
    server_loop.create_server(Answer, "127.0.0.1", 0, ssl=served)
)
port = server.sockets[0].getsockname()[1]
threading.Thread(target=server_loop.run_forever, daemon=True).start()


class UvloopLike(asyncio.Transport):
    # A transport of another loop: public methods only, no asyncio selector internals.
    def __init__(self, real):
        super().__init__()
        self.real = real

    def get_extra_info(self, name, default=None):
        return self.real.get_extra_info(name, default)

    def is_closing(self):
        return False


async def fetch():
    trusted = ssl.create_default_context(cafile=cert)
    session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(ssl=trusted))
    async with session.get(f"https://127.0.0.1:{port}/") as response:
        print("answered", response.status, await response.text())
    return session


loop = asyncio.new_event_loop()
session = loop.run_until_complete(fetch())
loop.close()
(pooled,) = session.connector._conns.values()
real = pooled[0][0].transport
print("tls", real.get_extra_info("sslcontext") is not None)
if mode == "uvloop-like":
    pooled[0][0].transport = UvloopLike(real)
if mode == "other pool":
    pooled[0] = pooled[0][0]  # a bare protocol, not the (protocol, time) pair
print("closed here", bool(close_without_loop(session)))  # before: a count
print("socket closed", real.get_extra_info("socket").fileno() == -1)  # at once, or never
if mode == "tls":
    print("server lost it", lost.wait(60))  # its side hears of it on its own thread
print("session closed", session.closed)
close_left_on_closed_loop(session, loop)
print("said", flush=True)
del session, pooled
gc.collect()
"""


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and its key, made by ``openssl``."""
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [
            "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
            "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", str(key), "-out", str(cert),
            "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )  # fmt: skip
    return cert, key


def _run(certificate: tuple[Path, Path], mode: str) -> tuple[list[str], list[str]]:
    """The script's lines, and its stderr's lines (warnings and reports)."""
    cert, key = certificate
    done = subprocess.run(
        [sys.executable, "-W", "default", "-c", _SCRIPT, str(cert), str(key), mode],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines(), done.stderr.splitlines()


def _said_open() -> str:
    from websearch_core.closed_loops import LEFT_OPEN_ON_CLOSED_LOOP

    return LEFT_OPEN_ON_CLOSED_LOOP


def _unclosed(stderr: list[str]) -> list[str]:
    return [line for line in stderr if line.startswith(("Unclosed", "unclosed"))]


def test_guard_a_pooled_tls_connection_is_ended_without_its_loop(
    certificate: tuple[Path, Path],
) -> None:
    """A guard (held before): the TLS path ends the socket, and nothing is reported open."""
    lines, stderr = _run(certificate, "tls")
    assert lines == [
        "answered 200 ok",
        "tls True",
        "closed here True",
        "socket closed True",
        "server lost it True",
        "session closed True",
        "said",
    ]
    assert stderr == []  # no unclosed transport, connector or session; closed: no line


@pytest.mark.parametrize("mode", ["uvloop-like", "other pool"])
def test_a_shape_not_known_is_left_as_it_was_and_said_so(
    certificate: tuple[Path, Path], mode: str
) -> None:
    """Failed before: a uvloop-like transport was not ended but the connector was closed
    (its socket left to a collection's ``unclosed transport``) and the line said it was
    closed; pooled entries of another shape raised out of the close.

    Now nothing is touched, the line says the session was left open, and aiohttp's own
    report follows, as before the loopless close existed.
    """
    lines, stderr = _run(certificate, mode)
    assert lines == [
        "answered 200 ok",
        "tls True",
        "closed here False",
        "socket closed False",
        "session closed False",
        "said",
    ]
    assert stderr[0] == _said_open()  # read here: the code before had no such line
    assert _unclosed(stderr)[0] == "Unclosed client session", stderr
