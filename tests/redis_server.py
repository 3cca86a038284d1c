"""A throwaway ``redis-server`` on loopback for tests of the Redis state backend.

:func:`session_redis_url` is the body of a session fixture (see its docstring). It starts
``redis-server`` on a free 127.0.0.1 port with persistence off and stops it after the
session. Without ``redis-server`` or the ``redis`` package the tests that need it are
skipped locally; when ``CI`` is set they fail instead, so CI can never pass by skipping.
"""

import contextlib
import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import NoReturn

import pytest

_START_TIMEOUT = 10.0


def unavailable(reason: str) -> NoReturn:
    """Skip the test, or fail it in CI where every backend must really run."""
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (required when CI is set)", pytrace=False)
    pytest.skip(reason)


def free_loopback_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _pong(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(64).startswith(b"+PONG")
    except OSError:
        return False


def _stop(proc: "subprocess.Popen[bytes]") -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)


def _start(binary: str, directory: Path, log: Path) -> "tuple[subprocess.Popen[bytes], int]":
    """Start redis-server on a free port; retried because another process may take the port."""
    for _attempt in range(3):
        port = free_loopback_port()
        with log.open("ab") as log_file:
            options = {
                "port": str(port),
                "bind": "127.0.0.1",
                "save": "",  # no RDB snapshots
                "appendonly": "no",
                "daemonize": "no",
                "dir": str(directory),
                "loglevel": "warning",
            }
            argv = [binary] + [
                arg for name, value in options.items() for arg in (f"--{name}", value)
            ]
            proc = subprocess.Popen(
                argv,
                stdin=subprocess.DEVNULL,
                stdout=log_file,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + _START_TIMEOUT
        while time.monotonic() < deadline and proc.poll() is None:
            if _pong(port):
                return proc, port
            time.sleep(0.02)
        _stop(proc)
    raise RuntimeError(f"redis-server did not start:\n{log.read_text(errors='replace')}")


@contextlib.contextmanager
def running_redis_server(directory: Path) -> Iterator[str]:
    """Run redis-server for the duration of the block and yield its ``redis://`` URL."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise FileNotFoundError("redis-server")
    proc, port = _start(binary, directory, directory / "redis.log")
    try:
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        _stop(proc)


def session_redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Body of a session fixture: the URL of a private redis-server for the session.

    Wrap it where the fixture is needed (a conftest, or a test module)::

        @pytest.fixture(scope="session")
        def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
            yield from session_redis_url(tmp_path_factory)
    """
    try:
        import redis  # noqa: F401
    except ImportError:
        unavailable('the redis package is not installed (pip install "websearch-tools[redis]")')
    if shutil.which("redis-server") is None:
        unavailable("redis-server is not installed (apt-get install redis-server)")
    with running_redis_server(tmp_path_factory.mktemp("redis")) as url:
        yield url
