"""One OAuth refresh for a sign-in shared by threads and processes, through the store's lock.

The in-loop single flight (:mod:`websearch_core.single_flight`) made searches of one event
loop share a refresh, but the synchronous API's calls in two threads (each its own loop) and
two processes on one credential store each still asked Google's token endpoint: two tokens
issued for one expired sign-in. The refresh now runs under the credential store's file lock
and re-reads the entry there, so the second one finds the token the first stored.

Google's token endpoint (the simulator's ``/token``) answers slowly here, so both callers
have read the expired token before the first refresh is written back; without that, the
second could start late enough to read the new token anyway, and the test would prove
nothing.
"""

import asyncio
import json
import logging
import os
import sys
import threading
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from filelock import FileLock

from websearch_core import WebSearch
from websearch_core.credentials import CredentialStore, OAuthToken
from websearch_core.errors import AllProvidersFailedError, ProviderUnavailableError
from websearch_core.models import SearchResponse
from websearch_core.testing import RecordedRequest, Simulator
from websearch_core.testing.protocols.gemini import GeminiProtocol

TOKEN_PATH = "/token"
STREAM_PATH = "/v1internal:streamGenerateContent"
OLD_ACCESS = "ya29.a0old-cli-access"
REFRESH = "1//0cli-refresh-token"
NEW_ACCESS = "ya29.sim-access-1"
SLOW_TOKEN_SECONDS = 0.6
"""How long the simulated token endpoint takes: longer than two callers started together
take to read the store, short beside the 5 s attempt timeout."""


@pytest.fixture(autouse=True)
def _project(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GEMINI_SEARCH_MODEL", raising=False)
    monkeypatch.setenv("GOOGLE_CLOUD_PROJECT", "p")


def _slow_tokens(sim: Simulator, monkeypatch: pytest.MonkeyPatch) -> None:
    protocol = sim["gemini"].protocol
    assert isinstance(protocol, GeminiProtocol)
    answer = protocol.answer

    def slow(request: RecordedRequest, results: list[Any]) -> Any:
        if request.path == TOKEN_PATH:
            time.sleep(SLOW_TOKEN_SECONDS)  # holds the simulator's loop: the reply comes late
        return answer(request, results)

    monkeypatch.setattr(protocol, "answer", slow)


def _store(sim: Simulator) -> CredentialStore:
    return CredentialStore(sim.settings().resolved_credentials_file())


def _sign_in_expired(sim: Simulator) -> None:
    token = OAuthToken(access_token=OLD_ACCESS, refresh_token=REFRESH, expires_at=time.time() - 60)
    _store(sim).set_oauth("gemini-cli", token)


def _paths(sim: Simulator) -> list[str]:
    return [request.path for request in sim["gemini"].requests]


def _bearers(sim: Simulator) -> list[str | None]:
    streams = [r for r in sim["gemini"].requests if r.path == STREAM_PATH]
    return [r.header("Authorization") for r in streams]


@pytest.fixture
def threaded_sim(monkeypatch: pytest.MonkeyPatch) -> Iterator[Simulator]:
    simulator = Simulator(["gemini"])
    with simulator.running_in_thread():
        _slow_tokens(simulator, monkeypatch)
        yield simulator


def _two_threads_search(sim: Simulator) -> list[object]:
    ws = WebSearch(sim.settings(), api_keys={})
    start = threading.Barrier(2)
    outcomes: list[object] = []

    def search(query: str) -> None:
        start.wait()
        try:
            outcomes.append(ws.search_sync(query, provider="gemini"))
        except Exception as exc:  # kept to be named by the assertion below
            outcomes.append(exc)

    threads = [threading.Thread(target=search, args=(q,)) for q in ("python asyncio", "tokio")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return outcomes


def test_two_threads_of_the_sync_api_renew_one_expired_token_once(
    threaded_sim: Simulator,
) -> None:
    # Each thread's search_sync runs its own event loop: the in-loop single flight did not
    # see the other, and each thread posted the refresh token (2 token requests).
    sim = threaded_sim
    _sign_in_expired(sim)
    outcomes = _two_threads_search(sim)
    assert [type(o) for o in outcomes] == [SearchResponse, SearchResponse]
    assert _paths(sim).count(TOKEN_PATH) == 1
    assert _bearers(sim) == [f"Bearer {NEW_ACCESS}"] * 2
    stored = _store(sim).get_oauth("gemini-cli")
    assert stored is not None and stored.access_token == NEW_ACCESS


def test_two_threads_refused_with_one_token_renew_it_once(threaded_sim: Simulator) -> None:
    # No expiry stored: Cloud Code's 401 to each thread says the hour is over; the second
    # thread's forced refresh read the refused token still stored and asked Google again.
    sim = threaded_sim
    token = OAuthToken(access_token=OLD_ACCESS, refresh_token=REFRESH, expires_at=None)
    _store(sim).set_oauth("gemini-cli", token)
    protocol = sim["gemini"].protocol
    assert isinstance(protocol, GeminiProtocol)
    protocol.expired.add(OLD_ACCESS)
    outcomes = _two_threads_search(sim)
    assert [type(o) for o in outcomes] == [SearchResponse, SearchResponse]
    assert _paths(sim).count(TOKEN_PATH) == 1
    assert _bearers(sim)[2:] == [f"Bearer {NEW_ACCESS}"] * 2


CHILD = r"""
import json, sys
from websearch_core import WebSearch
from websearch_core.settings import Settings

ws = WebSearch(Settings(**json.loads(sys.argv[1])), api_keys={})
print("ready", flush=True)
sys.stdin.readline()
try:
    response = ws.search_sync(sys.argv[2], provider="gemini")
    print(json.dumps({"answered": bool(response.answer)}), flush=True)
except Exception as exc:
    print(json.dumps({"failed": type(exc).__name__}), flush=True)
"""


@pytest.fixture
async def sim(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Simulator]:
    async with Simulator(["gemini"]) as simulator:
        _slow_tokens(simulator, monkeypatch)
        yield simulator


async def test_two_processes_on_one_store_renew_one_expired_token_once(sim: Simulator) -> None:
    # Two programs (two agents, a CLI beside an agent) on one credential store each posted
    # the refresh token: 2 token requests, two tokens issued, and the last write won.
    _sign_in_expired(sim)
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
            CHILD,
            config,
            query,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
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
    assert [json.loads(out) for out, _ in outputs] == [{"answered": True}] * 2
    assert _paths(sim).count(TOKEN_PATH) == 1
    assert _bearers(sim) == [f"Bearer {NEW_ACCESS}"] * 2


async def test_a_lock_held_past_the_time_left_fails_the_search_clearly_without_refreshing(
    sim: Simulator, caplog: pytest.LogCaptureFixture
) -> None:
    # A process stuck while holding the store's lock (stopped mid-refresh) must not hang the
    # search, nor have it spend the refresh token the stuck one may be spending.
    caplog.set_level(logging.DEBUG, logger="websearch_core")
    _sign_in_expired(sim)
    target = Path(os.path.realpath(sim.settings().resolved_credentials_file()))
    with FileLock(target.with_name(f"{target.name}.lock")):
        async with WebSearch(sim.settings(timeout_seconds=1.0), api_keys={}) as ws:
            started = time.monotonic()
            with pytest.raises(AllProvidersFailedError) as caught:
                await ws.search("python asyncio", provider="gemini")
            took = time.monotonic() - started
    (failure,) = caught.value.failures
    assert isinstance(failure, ProviderUnavailableError)
    assert failure.message.startswith(
        "gemini-cli: not refreshed: another process or thread held the credential store's"
        f" lock {target.name}.lock for the"
    )
    assert "try again" in failure.message
    assert took < 3.0
    assert TOKEN_PATH not in _paths(sim)
    for secret in (OLD_ACCESS, REFRESH):
        assert secret not in failure.message + caplog.text
