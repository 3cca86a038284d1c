"""Two threads, two processes and a stuck lock holder meeting one expired OAuth sign-in.

The end-to-end tests of the refresh under the credential store's lock (Gemini's own refresh
in ``functional/test_oauth_refresh_across_loops.py``, the sign-ins a hook renews in
``functional/test_hooked_refresh_across_loops.py``) drive the same callers: the synchronous
API in two threads (each its own event loop), two processes on one store, and another
process holding the store's lock. The token endpoint answers slowly
(:data:`SLOW_TOKEN_SECONDS`), so both callers have read the expired token before the first
refresh is written back; without that, the second could start late enough to read the new
token anyway, and a test would prove nothing.
"""

import asyncio
import contextlib
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from websearch_core import WebSearch
from websearch_core.testing import RecordedRequest, Simulator

REPO = Path(__file__).resolve().parents[1]
SLOW_TOKEN_SECONDS = 0.6
"""How long the simulated token endpoint takes: longer than two callers started together
take to read the store, short beside the 5 s attempt timeout."""

HANG_BOUND_SECONDS = 30.0
"""An attempt's time in a test that waits on an event rather than the clock: only a hang's
bound, far beyond how late a loaded machine starts a thread."""

HOLD_BOUND_SECONDS = 20.0
"""The longest :func:`token_endpoint_held_until` holds a refresh: within the attempt's
:data:`HANG_BOUND_SECONDS`, so a test whose event never comes fails on what was asked."""


def slow_token_endpoint(
    protocol: Any,
    token_path: str,
    monkeypatch: pytest.MonkeyPatch,
    seconds: float = SLOW_TOKEN_SECONDS,
) -> None:
    """Make ``protocol`` answer requests to ``token_path`` ``seconds`` late."""
    answer = protocol.answer

    def slow(request: RecordedRequest, results: list[Any]) -> Any:
        if request.path == token_path:
            time.sleep(seconds)  # holds the simulator's loop: the reply comes late
        return answer(request, results)

    monkeypatch.setattr(protocol, "answer", slow)


def token_endpoint_held_until(
    sim: Simulator,
    provider: str,
    token_path: str,
    monkeypatch: pytest.MonkeyPatch,
    ready: Callable[[], bool],
) -> None:
    """Make ``provider``'s token endpoint answer only once ``ready()`` holds.

    The simulator serves other requests meanwhile (the answer is awaited, not slept in), so
    a test can hold the first refresh until the simulator has seen what must come before
    it, however late a loaded machine runs the other caller: an order by construction,
    where a fixed delay only made it likely. After :data:`HOLD_BOUND_SECONDS` the answer
    is given anyway and the test fails on what was asked, rather than hang.
    """
    protocol = sim[provider].protocol
    answer = protocol.answer

    def held(request: RecordedRequest, results: list[Any]) -> Any:
        if request.path != token_path:
            return answer(request, results)

        async def when_ready() -> Any:
            give_up = time.monotonic() + HOLD_BOUND_SECONDS
            while not ready() and time.monotonic() < give_up:
                await asyncio.sleep(0.01)
            return answer(request, results)

        return when_ready()

    monkeypatch.setattr(protocol, "answer", held)


def sent_with(sim: Simulator, provider: str, header: str, value: str) -> Callable[[], int]:
    """How many requests to ``provider`` so far carried ``header: value`` (read when called)."""
    return lambda: sum(r.header(header) == value for r in sim[provider].requests)


def two_threads_search(ws: WebSearch, provider: str) -> list[object]:
    """What ``ws.search_sync`` gave two threads started together: responses or exceptions."""
    start = threading.Barrier(2)
    outcomes: list[object] = []

    def search(query: str) -> None:
        start.wait()
        try:
            outcomes.append(ws.search_sync(query, provider=provider))
        except Exception as exc:  # kept to be named by the caller's assertion
            outcomes.append(exc)

    threads = [threading.Thread(target=search, args=(q,)) for q in ("python asyncio", "tokio")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return outcomes


_CHILD = r"""
import json, sys
from websearch_core import WebSearch
from websearch_core.settings import Settings

config, query, provider, token_url = json.loads(sys.argv[1]), *sys.argv[2:5]
hooks = {}
if token_url:
    from tests.token_hook import refresher
    hooks[provider] = refresher(token_url)
ws = WebSearch(Settings(**config), api_keys={}, oauth_refreshers=hooks)
print("ready", flush=True)
sys.stdin.readline()
try:
    response = ws.search_sync(query, provider=provider)
    print(json.dumps({"answered": bool(response.answer)}), flush=True)
except Exception as exc:
    print(json.dumps({"failed": type(exc).__name__, "message": str(exc)}), flush=True)
"""


async def two_processes_search(
    sim: Simulator, provider: str, token_url: str = ""
) -> list[dict[str, Any]]:
    """What two processes on ``sim``'s credential store, let go together, each reported.

    Each runs ``search_sync`` for ``provider`` with the simulator's settings (the store is
    the one ``WEBSEARCH_CREDENTIALS_FILE`` names, inherited); with ``token_url``, under a
    refresh hook (:func:`tests.token_hook.refresher`) that renews the sign-in there.
    Returns ``{"answered": bool}`` or ``{"failed": <exception type>, "message": ...}``.
    """
    settings = sim.settings()
    config = json.dumps(
        {
            "base_urls": sim.base_urls(),
            "exclude": list(settings.exclude),
            "state_backend": "memory",
            "timeout_seconds": 5.0,
        }
    )
    children = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            _CHILD,
            config,
            query,
            provider,
            token_url,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            cwd=REPO,  # where ``tests.token_hook`` is imported from
            env=dict(os.environ),
        )
        for query in ("python asyncio", "tokio")
    ]
    for child in children:
        assert child.stdout is not None
        assert (await asyncio.wait_for(child.stdout.readline(), 60)).strip() == b"ready"
    outputs = await asyncio.wait_for(
        asyncio.gather(*(child.communicate(b"go\n") for child in children)), 60
    )
    return [json.loads(out) for out, _ in outputs]


def store_lock_file(sim: Simulator) -> Path:
    """The lock file of ``sim``'s credential store (beside the file a link points to)."""
    target = Path(os.path.realpath(sim.settings().resolved_credentials_file()))
    return target.with_name(f"{target.name}.lock")


_HOLDER = r"""
import sys
from filelock import FileLock
lock = FileLock(sys.argv[1])
lock.acquire()
print("held", flush=True)
sys.stdin.read()  # until the test closes our stdin (or dies)
lock.release()
"""


@contextlib.contextmanager
def lock_held_by_another_process(lock_file: Path) -> Iterator[None]:
    """Hold ``lock_file`` (a :mod:`filelock` lock) in another process for the block.

    As a process stuck mid-refresh would (stopped in a debugger, suspended with Ctrl-Z).
    """
    lock_file.parent.mkdir(parents=True, exist_ok=True)
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLDER, str(lock_file)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdin is not None and holder.stdout is not None
    try:
        if holder.stdout.readline().strip() != "held":
            raise RuntimeError(f"the lock holder did not take {lock_file}")
        yield
    finally:
        holder.stdin.close()
        try:
            holder.wait(timeout=10)
        except subprocess.TimeoutExpired:
            holder.kill()
            holder.wait()
        holder.stdout.close()
