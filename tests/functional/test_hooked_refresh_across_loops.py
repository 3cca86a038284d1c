"""One refresh for the sign-ins a hook renews, shared by threads and processes on one store.

Codex, Anthropic (OAuth) and Perplexity renew an expired sign-in through the refresh hook a
program passes (``WebSearch(oauth_refreshers=...)``): they have no refresh of their own, so
here the hook (:mod:`tests.token_hook`) asks the simulator's token endpoint, which rotates
refresh tokens as the ChatGPT and Claude sign-ins do. The refresh runs under the credential
store's lock as Gemini's does (``test_oauth_refresh_across_loops.py``, whose callers these
tests share through :mod:`tests.sign_in_refresh`): these prove it end to end for each of the
three, through each one's own way of asking for the token.
"""

import logging
import sys
import time
import types
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, replace

import filelock
import pytest

from tests.functional._sim_helpers import credential_store, sim_client
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
from tests.token_hook import refresher
from websearch_core import WebSearch
from websearch_core.credentials import OAuthToken
from websearch_core.errors import AllProvidersFailedError, ProviderUnavailableError
from websearch_core.models import SearchResponse
from websearch_core.testing import Simulator
from websearch_core.testing.protocols._oauth_refresh import TOKEN_PATH, RefreshGrant


@dataclass(frozen=True)
class HookedSignIn:
    """A sign-in renewed by a hook: its provider and how its searches carry the token."""

    provider: str
    header: str
    sent_as: str
    """The header's value with ``{}`` for the access token."""


SIGN_INS = (
    HookedSignIn("codex", "Authorization", "Bearer {}"),
    HookedSignIn("anthropic", "Authorization", "Bearer {}"),
    HookedSignIn("perplexity", "Cookie", "__Secure-next-auth.session-token={}"),
)


@pytest.fixture(autouse=True)
def _no_other_credentials(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PERPLEXITY_COOKIES", raising=False)  # would be tried before the token


@pytest.fixture(params=SIGN_INS, ids=lambda sign_in: sign_in.provider)
def sign_in(request: pytest.FixtureRequest) -> HookedSignIn:
    signed_in: HookedSignIn = request.param
    return signed_in


@pytest.fixture
def threaded_sim(sign_in: HookedSignIn, monkeypatch: pytest.MonkeyPatch) -> Iterator[Simulator]:
    simulator = Simulator([sign_in.provider])
    with simulator.running_in_thread():
        slow_token_endpoint(simulator[sign_in.provider].protocol, TOKEN_PATH, monkeypatch)
        yield simulator


@pytest.fixture
def refused_sim(sign_in: HookedSignIn, monkeypatch: pytest.MonkeyPatch) -> Iterator[Simulator]:
    """A simulator whose token endpoint answers once :func:`_refused`'s token was refused twice.

    Each of two threads has then read the refused token before the first refresh is
    stored, as the test needs, however late a loaded machine starts the second (a 2 s delay
    in the hook did not always cover it: the second then read the new token and sent it).
    """
    simulator = Simulator([sign_in.provider])
    with simulator.running_in_thread():
        refused_value = sign_in.sent_as.format(_refused(sign_in).access_token)
        refused = sent_with(simulator, sign_in.provider, sign_in.header, refused_value)
        token_endpoint_held_until(
            simulator, sign_in.provider, TOKEN_PATH, monkeypatch, lambda: refused() >= 2
        )
        yield simulator


@pytest.fixture
async def sim(sign_in: HookedSignIn, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Simulator]:
    async with Simulator([sign_in.provider]) as simulator:
        slow_token_endpoint(simulator[sign_in.provider].protocol, TOKEN_PATH, monkeypatch)
        yield simulator


def _old(sign_in: HookedSignIn) -> OAuthToken:
    return OAuthToken(
        access_token=f"sim-{sign_in.provider}-old-access",
        refresh_token=f"sim-{sign_in.provider}-old-refresh",
        expires_at=time.time() - 60,
    )


def _refused(sign_in: HookedSignIn) -> OAuthToken:
    """:func:`_old` with no expiry stored: only the API's 401 says it is over."""
    return replace(_old(sign_in), expires_at=None)


def _sign_in_expired(sim: Simulator, sign_in: HookedSignIn) -> None:
    credential_store(sim).set_oauth(sign_in.provider, _old(sign_in))


def _endpoint(sim: Simulator, sign_in: HookedSignIn) -> RefreshGrant:
    grant = getattr(sim[sign_in.provider].protocol, "sign_in", None)
    assert isinstance(grant, RefreshGrant)
    return grant


def _token_url(sim: Simulator, sign_in: HookedSignIn) -> str:
    return f"{sim[sign_in.provider].base_url}{TOKEN_PATH}"


def _client(sim: Simulator, sign_in: HookedSignIn, timeout: float = 5.0) -> WebSearch:
    hooks = {sign_in.provider: refresher(_token_url(sim, sign_in))}
    return sim_client(sim, api_keys={}, oauth_refreshers=hooks, timeout_seconds=timeout)


def _token_requests(sim: Simulator, sign_in: HookedSignIn) -> int:
    return [r.path for r in sim[sign_in.provider].requests].count(TOKEN_PATH)


def _sent(sim: Simulator, sign_in: HookedSignIn) -> list[str | None]:
    """The credential header of each search request (every request but the refreshes)."""
    searches = [r for r in sim[sign_in.provider].requests if r.path != TOKEN_PATH]
    return [r.header(sign_in.header) for r in searches]


def test_two_threads_of_the_sync_api_renew_one_expired_sign_in_once(
    threaded_sim: Simulator, sign_in: HookedSignIn
) -> None:
    sim = threaded_sim
    _sign_in_expired(sim, sign_in)
    outcomes = two_threads_search(_client(sim, sign_in), sign_in.provider)
    assert [type(o) for o in outcomes] == [SearchResponse, SearchResponse], outcomes
    assert _token_requests(sim, sign_in) == 1
    new = f"sim-{sign_in.provider}-access-1"
    assert _sent(sim, sign_in) == [sign_in.sent_as.format(new)] * 2
    stored = credential_store(sim).get_oauth(sign_in.provider)
    assert stored is not None
    assert (stored.access_token, stored.refresh_token) == (new, f"sim-{sign_in.provider}-refresh-1")


def test_two_threads_refused_with_one_token_renew_it_once(
    refused_sim: Simulator, sign_in: HookedSignIn
) -> None:
    # No expiry stored: the API's 401 to each thread says the token is over; each thread
    # refreshes by force, and the second must find the token the first stored.
    sim = refused_sim
    old = _refused(sign_in)
    credential_store(sim).set_oauth(sign_in.provider, old)
    _endpoint(sim, sign_in).expired.add(old.access_token)
    # The attempt's time only bounds a hang: the first refresh waits for the second thread.
    ws = _client(sim, sign_in, timeout=HANG_BOUND_SECONDS)
    outcomes = two_threads_search(ws, sign_in.provider)
    assert [type(o) for o in outcomes] == [SearchResponse, SearchResponse], outcomes
    assert _token_requests(sim, sign_in) == 1
    sent = _sent(sim, sign_in)
    assert sent[:2] == [sign_in.sent_as.format(old.access_token)] * 2
    assert sent[2:] == [sign_in.sent_as.format(f"sim-{sign_in.provider}-access-1")] * 2


async def test_two_processes_on_one_store_renew_one_expired_sign_in_once(
    sim: Simulator, sign_in: HookedSignIn
) -> None:
    # The endpoint rotates refresh tokens: a second refresh from the entry both processes
    # read first would be refused, and fail that process's search.
    _sign_in_expired(sim, sign_in)
    reports = await two_processes_search(sim, sign_in.provider, _token_url(sim, sign_in))
    assert reports == [{"answered": True}] * 2
    assert _token_requests(sim, sign_in) == 1
    new = f"sim-{sign_in.provider}-access-1"
    assert _sent(sim, sign_in) == [sign_in.sent_as.format(new)] * 2


def test_a_refused_refresh_fails_both_threads_and_is_not_stored(
    threaded_sim: Simulator, sign_in: HookedSignIn
) -> None:
    sim = threaded_sim
    _sign_in_expired(sim, sign_in)
    _endpoint(sim, sign_in).revoked.add(_old(sign_in).refresh_token or "")
    outcomes = two_threads_search(_client(sim, sign_in), sign_in.provider)
    assert [type(o) for o in outcomes] == [AllProvidersFailedError] * 2, outcomes
    for outcome in outcomes:
        assert isinstance(outcome, AllProvidersFailedError)
        (failure,) = outcome.failures
        assert failure.message == (
            f"{sign_in.provider}: OAuth token refresh failed: its refresh hook raised "
            "RefreshRefusedError"
        )
    assert _sent(sim, sign_in) == []  # the expired token was never sent
    stored = credential_store(sim).get_oauth(sign_in.provider)
    assert stored is not None and stored.access_token == _old(sign_in).access_token
    # Asked once: the hook said the refusal is final (SignInRefusedError), so it is kept
    # beside the token under the lock and the second thread fails with its text. Each
    # thread asked once before (2 requests): the entry looked unchanged under the lock.
    assert _token_requests(sim, sign_in) == 1


async def test_a_refused_refresh_fails_both_processes_and_is_not_stored(
    sim: Simulator, sign_in: HookedSignIn
) -> None:
    _sign_in_expired(sim, sign_in)
    _endpoint(sim, sign_in).revoked.add(_old(sign_in).refresh_token or "")
    reports = await two_processes_search(sim, sign_in.provider, _token_url(sim, sign_in))
    refused = (
        f"{sign_in.provider}: OAuth token refresh failed: its refresh hook raised "
        "RefreshRefusedError"
    )
    assert reports == [{"failed": "AllProvidersFailedError", "message": refused}] * 2
    assert _sent(sim, sign_in) == []
    assert _token_requests(sim, sign_in) == 1  # one for both, as for the threads above
    stored = credential_store(sim).get_oauth(sign_in.provider)
    assert stored is not None and stored.access_token == _old(sign_in).access_token


async def test_a_lock_held_by_another_process_fails_the_search_clearly_without_refreshing(
    sim: Simulator, sign_in: HookedSignIn, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="websearch_core")
    _sign_in_expired(sim, sign_in)
    lock_file = store_lock_file(sim)
    with lock_held_by_another_process(lock_file):
        async with _client(sim, sign_in, timeout=1.0) as ws:
            started = time.monotonic()
            with pytest.raises(AllProvidersFailedError) as caught:
                await ws.search("python asyncio", provider=sign_in.provider)
            took = time.monotonic() - started
    (failure,) = caught.value.failures
    assert isinstance(failure, ProviderUnavailableError), failure
    assert failure.message.startswith(
        f"{sign_in.provider}: not refreshed: another process or thread held the credential"
        f" store's lock {lock_file.name} for the"
    )
    assert "try again" in failure.message
    assert took < 3.0
    assert _token_requests(sim, sign_in) == 0
    assert _sent(sim, sign_in) == []
    old = _old(sign_in)
    for secret in (old.access_token, old.refresh_token or ""):
        assert secret not in failure.message + caplog.text


class _AsyncLockSlowToLoad(types.ModuleType):
    """:mod:`filelock` as a loaded machine's first refresh meets it: its asynchronous lock
    (some thirty modules, imported by the first refresh) takes half a second to come."""

    def __init__(self, real: types.ModuleType) -> None:
        super().__init__(real.__name__)
        self._real = real

    def __getattr__(self, name: str) -> object:
        if name == "AsyncFileLock":
            time.sleep(0.5)  # on the loop's thread, as an import is
        return getattr(self._real, name)


async def test_a_slow_first_import_of_the_lock_still_fails_the_search_saying_the_lock_was_held(
    sim: Simulator, sign_in: HookedSignIn, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The refresh sized its wait for the lock (the attempt's time left, less 0.05 s to
    # report) before its first use imported filelock's asynchronous lock, then waited that
    # long from after the import: under load 16 the attempt's hard stop came first, and
    # the search failed as "OpenAI search timed out after 1s". The wait now ends when it
    # was sized to, whatever came before it.
    _sign_in_expired(sim, sign_in)
    lock_file = store_lock_file(sim)
    with lock_held_by_another_process(lock_file):
        monkeypatch.setitem(sys.modules, "filelock", _AsyncLockSlowToLoad(filelock))
        async with _client(sim, sign_in, timeout=1.0) as ws:
            with pytest.raises(AllProvidersFailedError) as caught:
                await ws.search("python asyncio", provider=sign_in.provider)
    (failure,) = caught.value.failures
    assert failure.message.startswith(
        f"{sign_in.provider}: not refreshed: another process or thread held the credential"
        f" store's lock {lock_file.name} for the"
    ), failure.message
    assert _token_requests(sim, sign_in) == 0
