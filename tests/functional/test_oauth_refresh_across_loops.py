"""One OAuth refresh for a sign-in shared by threads and processes, through the store's lock.

The in-loop single flight (:mod:`websearch_core.single_flight`) made searches of one event
loop share a refresh, but the synchronous API's calls in two threads (each its own loop) and
two processes on one credential store each still asked Google's token endpoint: two tokens
issued for one expired sign-in. The refresh now runs under the credential store's file lock
and re-reads the entry there, so the second one finds the token the first stored.

Google's token endpoint (the simulator's ``/token``) answers slowly here, so both callers
have read the expired token before the first refresh is written back. The callers (two
threads, two processes, a process holding the lock) are :mod:`tests.sign_in_refresh`'s,
shared with the sign-ins a hook renews (``test_hooked_refresh_across_loops.py``).
"""

import logging
import time
from collections.abc import AsyncIterator, Iterator

import pytest

from tests.functional._sim_helpers import credential_store, gemini_protocol
from tests.sign_in_refresh import (
    HANG_BOUND_SECONDS,
    lock_held_by_another_process,
    sent_with,
    slow_token_endpoint,
    store_lock_file,
    token_endpoint_held_until,
    two_processes_search,
    two_threads_search,
)
from websearch_core import WebSearch
from websearch_core.credentials import OAuthToken
from websearch_core.errors import AllProvidersFailedError, ProviderUnavailableError
from websearch_core.models import SearchResponse
from websearch_core.testing import Simulator

TOKEN_PATH = "/token"
STREAM_PATH = "/v1internal:streamGenerateContent"
OLD_ACCESS = "ya29.a0old-cli-access"
REFRESH = "1//0cli-refresh-token"
NEW_ACCESS = "ya29.sim-access-1"


pytestmark = pytest.mark.usefixtures("gemini_default_model")


def _slow_tokens(sim: Simulator, monkeypatch: pytest.MonkeyPatch) -> None:
    slow_token_endpoint(sim["gemini"].protocol, TOKEN_PATH, monkeypatch)


def _sign_in_expired(sim: Simulator) -> None:
    token = OAuthToken(access_token=OLD_ACCESS, refresh_token=REFRESH, expires_at=time.time() - 60)
    credential_store(sim).set_oauth("gemini-cli", token)


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


@pytest.fixture
def threaded_sim_held(monkeypatch: pytest.MonkeyPatch) -> Iterator[Simulator]:
    """A simulator whose token endpoint answers once both threads' tokens were refused.

    Each thread has then read the refused token before the first refresh is stored, as the
    test needs, however late a loaded machine starts the second (a fixed 2 s delay did not
    always cover it: the second thread then read the new token and sent it straight away).
    """
    simulator = Simulator(["gemini"])
    with simulator.running_in_thread():
        refused = sent_with(simulator, "gemini", "Authorization", f"Bearer {OLD_ACCESS}")
        held = token_endpoint_held_until
        held(simulator, "gemini", TOKEN_PATH, monkeypatch, lambda: refused() >= 2)
        yield simulator


def _two_threads_search(sim: Simulator, timeout: float = 5.0) -> list[object]:
    return two_threads_search(
        WebSearch(sim.settings(timeout_seconds=timeout), api_keys={}), "gemini"
    )


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
    stored = credential_store(sim).get_oauth("gemini-cli")
    assert stored is not None and stored.access_token == NEW_ACCESS


def test_two_threads_refused_with_one_token_renew_it_once(threaded_sim_held: Simulator) -> None:
    # No expiry stored: Cloud Code's 401 to each thread says the hour is over; the second
    # thread's forced refresh read the refused token still stored and asked Google again.
    sim = threaded_sim_held
    token = OAuthToken(access_token=OLD_ACCESS, refresh_token=REFRESH, expires_at=None)
    credential_store(sim).set_oauth("gemini-cli", token)
    protocol = gemini_protocol(sim)
    protocol.expired.add(OLD_ACCESS)
    # The first refresh waits for the second thread however late it starts: the attempt's
    # time only bounds a hang.
    outcomes = _two_threads_search(sim, timeout=HANG_BOUND_SECONDS)
    assert [type(o) for o in outcomes] == [SearchResponse, SearchResponse], outcomes
    assert _paths(sim).count(TOKEN_PATH) == 1
    assert _bearers(sim) == [f"Bearer {OLD_ACCESS}"] * 2 + [f"Bearer {NEW_ACCESS}"] * 2


def test_a_refused_refresh_fails_both_threads_and_is_not_stored(threaded_sim: Simulator) -> None:
    # Google refuses the refresh token (signed out): each thread fails saying so. The second
    # found the entry unchanged under the lock and asked once more (2 requests); Google's
    # invalid_grant is final, so it is now kept beside the token and the second thread
    # fails with the same text without asking. The hooked sign-ins do the same.
    sim = threaded_sim
    _sign_in_expired(sim)
    protocol = gemini_protocol(sim)
    protocol.revoked.add(REFRESH)
    outcomes = _two_threads_search(sim)
    assert [type(o) for o in outcomes] == [AllProvidersFailedError] * 2
    for outcome in outcomes:
        assert isinstance(outcome, AllProvidersFailedError)
        (failure,) = outcome.failures
        assert failure.message.startswith(
            "gemini-cli: refreshing the Gemini CLI sign-in: Google refused the sign-in "
            "(invalid_grant: "
        )
    said = {o.failures[0].message for o in outcomes if isinstance(o, AllProvidersFailedError)}
    assert len(said) == 1  # the same text for the thread that did not ask
    assert _paths(sim).count(TOKEN_PATH) == 1
    assert _bearers(sim) == []
    stored = credential_store(sim).get_oauth("gemini-cli")
    assert stored is not None and stored.access_token == OLD_ACCESS


@pytest.fixture
async def sim(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Simulator]:
    async with Simulator(["gemini"]) as simulator:
        _slow_tokens(simulator, monkeypatch)
        yield simulator


async def test_two_processes_on_one_store_renew_one_expired_token_once(sim: Simulator) -> None:
    # Two programs (two agents, a CLI beside an agent) on one credential store each posted
    # the refresh token: 2 token requests, two tokens issued, and the last write won.
    _sign_in_expired(sim)
    assert await two_processes_search(sim, "gemini") == [{"answered": True}] * 2
    assert _paths(sim).count(TOKEN_PATH) == 1
    assert _bearers(sim) == [f"Bearer {NEW_ACCESS}"] * 2


async def test_a_refused_refresh_fails_both_processes_asking_once(sim: Simulator) -> None:
    # The second process found the entry unchanged under the lock and asked again; the
    # first now keeps Google's invalid_grant beside the token before letting go of it.
    _sign_in_expired(sim)
    protocol = gemini_protocol(sim)
    protocol.revoked.add(REFRESH)
    reports = await two_processes_search(sim, "gemini")
    assert [report.get("failed") for report in reports] == ["AllProvidersFailedError"] * 2
    assert reports[0] == reports[1]
    assert "Google refused the sign-in (invalid_grant: " in str(reports[0]["message"])
    assert _paths(sim).count(TOKEN_PATH) == 1
    assert _bearers(sim) == []
    stored = credential_store(sim).get_oauth("gemini-cli")
    assert stored is not None and stored.access_token == OLD_ACCESS


async def test_a_lock_held_past_the_time_left_fails_the_search_clearly_without_refreshing(
    sim: Simulator, caplog: pytest.LogCaptureFixture
) -> None:
    # A process stuck while holding the store's lock (stopped mid-refresh) must not hang the
    # search, nor have it spend the refresh token the stuck one may be spending.
    caplog.set_level(logging.DEBUG, logger="websearch_core")
    _sign_in_expired(sim)
    lock_file = store_lock_file(sim)
    with lock_held_by_another_process(lock_file):
        async with WebSearch(sim.settings(timeout_seconds=1.0), api_keys={}) as ws:
            started = time.monotonic()
            with pytest.raises(AllProvidersFailedError) as caught:
                await ws.search("python asyncio", provider="gemini")
            took = time.monotonic() - started
    (failure,) = caught.value.failures
    assert isinstance(failure, ProviderUnavailableError)
    assert failure.message.startswith(
        "gemini-cli: not refreshed: another process or thread held the credential store's"
        f" lock {lock_file.name} for the"
    )
    assert "try again" in failure.message
    assert took < 3.0
    assert TOKEN_PATH not in _paths(sim)
    for secret in (OLD_ACCESS, REFRESH):
        assert secret not in failure.message + caplog.text
