"""Which loopback origins each event loop serves, so a blocking call can refuse to wait on one.

A synchronous call (``run_sync``, a tool's ``invoke``) made while an event loop runs in its
thread blocks that loop until the call ends. A loopback server started on the same loop
(the :class:`~websearch_core.testing.Simulator` under ``async with``) then cannot answer:
the request is accepted by the kernel, waits out ``timeout_seconds`` and fails as
``Brave search timed out after 5s``, which says nothing of why. The simulator records
here the origins it serves and on which loop; the synchronous bridge asks before it
blocks, and refuses at once with an error naming the cause and the fix.

Only the origin (scheme, host, port) is kept and named: never a path, a user name or a
password (a proxy URL may carry one).
"""

import asyncio
import threading
import weakref
from collections.abc import Iterable
from urllib.parse import urlsplit

__all__ = ["blocked_origin", "serve_on", "stop_serving", "sync_call_blocks_server"]

_SERVED: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, set[str]]" = (
    weakref.WeakKeyDictionary()
)
"""Each loop still alive to the origins served on it (weak: a loop collected goes)."""
_LOCK = threading.Lock()
"""Servers start and stop on their own loops, possibly in several threads at once."""
_DEFAULT_PORTS = {"http": 80, "https": 443}


def origin_of(url: str) -> str | None:
    """``scheme://host:port`` of ``url``, lower-cased, its default port written out.

    ``None`` for text that is not an http(s) URL with a host.

    Example:
        >>> origin_of("http://user:pw@LOCALHOST/search?q=1")
        'http://localhost:80'
    """
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS or not parts.hostname:
        return None
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    return f"{scheme}://{host}:{port or _DEFAULT_PORTS[scheme]}"


def serve_on(loop: asyncio.AbstractEventLoop, url: str) -> None:
    """Record that ``loop`` answers requests to ``url``'s origin."""
    origin = origin_of(url)
    if origin is not None:
        with _LOCK:
            _SERVED.setdefault(loop, set()).add(origin)


def stop_serving(loop: asyncio.AbstractEventLoop, url: str) -> None:
    """Forget that ``loop`` answers ``url``'s origin (its server has stopped)."""
    origin = origin_of(url)
    with _LOCK:
        served = _SERVED.get(loop)
        if served is not None and origin is not None:
            served.discard(origin)


def blocked_origin(urls: Iterable[str]) -> str | None:
    """The first origin of ``urls`` served by the loop running in this thread, else ``None``.

    That loop is the one a synchronous call made here blocks until it ends.
    """
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return None
    with _LOCK:
        served = frozenset(_SERVED.get(loop, ()))
    if not served:
        return None
    for url in urls:
        origin = origin_of(url)
        if origin in served:
            return origin
    return None


def sync_call_blocks_server(call: str, awaited: str, origin: str) -> RuntimeError:
    """The error for ``call`` made on the running loop that serves ``origin``.

    Args:
        call: The synchronous method called (``run_sync``).
        awaited: Its asynchronous form, what to write instead (``run``).
        origin: The origin served on the loop the call would block.

    Example:
        >>> error = sync_call_blocks_server("run_sync", "run", "http://127.0.0.1:8080")
        >>> print(str(error)[:79])
        run_sync() would block the running event loop that serves http://127.0.0.1:8080
    """
    return RuntimeError(
        f"{call}() would block the running event loop that serves {origin} (a Simulator "
        f"started on it), so that server could never answer: await ws.{awaited}(...) "
        "instead (a tool's ainvoke/acall), or serve the simulator from a thread of its own "
        "with `with Simulator([...]).running_in_thread() as sim:`"
    )
