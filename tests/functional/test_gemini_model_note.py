"""A new client starts Gemini's searches with the model a note in the state store names.

A Gemini CLI account without preview access is refused ``gemini-3-flash-preview``; a search
then reads the account's quota list and searches with its stable Flash, and keeps that pick
as a note in the state store (:mod:`websearch_core.provider_notes`). Every new client (each
CLI run is one) still sent the refused request and the list's request first, although the
note on the same store already named the pick. The note is now read before the first
request, keyed by the sign-in's fingerprint and the Cloud project set for it, and its pick
asked first; a pick refused or a note expired leads back to the default, then the list.

Driven end to end through ``WebSearch`` against the loopback simulator, whose Cloud Code
serves a Gemini CLI account only the models its quota buckets list.
"""

import sqlite3
import time
from contextlib import closing
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.functional._sim_helpers import catalogue_bound_sign_in, sim_client
from websearch_core import WebSearch, provider_notes
from websearch_core.errors import ProviderNotConfiguredError
from websearch_core.providers import _gemini_catalog
from websearch_core.providers._gemini_catalog import REPLACEMENT_NOTE_LIFETIME
from websearch_core.testing import Simulator
from websearch_core.testing.protocols.gemini import GeminiProtocol

from ._sim_helpers import only_failure, simulator_fixture

sim = simulator_fixture("gemini")

STREAM = "/v1internal:streamGenerateContent"
QUOTA = "/v1internal:retrieveUserQuota"
LOAD = "/v1internal:loadCodeAssist"
PREVIEW = "gemini-3-flash-preview"
FLASH = "gemini-2.5-flash"
FIRST_CLIENT = [f"{STREAM} {PREVIEW}", QUOTA, f"{STREAM} {FLASH}"]
"""What a client that knows nothing sends: the refused default, the list, the pick."""


pytestmark = pytest.mark.usefixtures("no_gemini_variables")


def _account(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch, project: str | None
) -> GeminiProtocol:
    """A Gemini CLI sign-in without preview access (its quota lists 2.5 models only)."""
    if project is not None:
        monkeypatch.setenv("GOOGLE_CLOUD_PROJECT", project)
    return catalogue_bound_sign_in(sim, "gemini-cli", "ya29.cli-token")


def _client(sim: Simulator, tmp_path: Path) -> WebSearch:
    """A new client on the simulator and one SQLite state store (a new process's view)."""
    return sim_client(sim, api_keys={}, state_backend="sqlite", state_dir=tmp_path)


async def _search(sim: Simulator, tmp_path: Path, query: str) -> tuple[str, list[str]]:
    """Search with a new client; the answer's model and what the client sent Cloud Code."""
    before = len(sim["gemini"].requests)
    async with _client(sim, tmp_path) as ws:
        response = await ws.search(query, provider="gemini")
    sent = [
        f"{r.path} {r.json()['model']}" if r.path == STREAM else r.path
        for r in sim["gemini"].requests[before:]
    ]
    return response.model or "", sent


def _note_expiries(tmp_path: Path) -> list[float]:
    """When each note in the SQLite store expires (epoch seconds)."""
    with closing(sqlite3.connect(tmp_path / "state.sqlite3")) as conn:
        return [row[0] for row in conn.execute("SELECT until FROM notes")]


@pytest.mark.parametrize("project", ["project-a", None], ids=["set-project", "assigned-project"])
async def test_a_new_client_asks_the_noted_model_first(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, project: str | None
) -> None:
    # Before: every new client sent the refused preview request and the quota request
    # again, three requests for one search, although the store's note named the pick.
    _account(sim, monkeypatch, project)
    load = [] if project is not None else [LOAD]
    assert await _search(sim, tmp_path, "first") == (FLASH, load + FIRST_CLIENT)
    assert await _search(sim, tmp_path, "second") == (FLASH, [*load, f"{STREAM} {FLASH}"])


async def test_another_projects_note_is_not_used(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Two projects of one account may be allowed different models: project A's pick is
    # never project B's first request, nor its providers-table row.
    _account(sim, monkeypatch, "project-a")
    await _search(sim, tmp_path, "in a")
    monkeypatch.setenv("GOOGLE_CLOUD_PROJECT", "project-b")
    async with _client(sim, tmp_path) as ws:
        row = next(s for s in await ws.provider_status() if s.id == "gemini")
    assert row.note is None
    assert await _search(sim, tmp_path, "in b") == (FLASH, FIRST_CLIENT)
    monkeypatch.setenv("GOOGLE_CLOUD_PROJECT", "project-a")  # A's note still stands
    assert await _search(sim, tmp_path, "in a again") == (FLASH, [f"{STREAM} {FLASH}"])


async def test_an_expired_note_is_not_used_and_is_written_again(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _account(sim, monkeypatch, "p")
    await _search(sim, tmp_path, "today")
    later = time.time() + REPLACEMENT_NOTE_LIFETIME + 60.0
    clock = SimpleNamespace(time=lambda: later, monotonic=time.monotonic)
    monkeypatch.setattr(provider_notes, "time", clock)  # the notes' clock, a day on
    assert await _search(sim, tmp_path, "tomorrow") == (FLASH, FIRST_CLIENT)
    # The refusal seen again wrote the note again, so the next client skips it.
    assert await _search(sim, tmp_path, "after") == (FLASH, [f"{STREAM} {FLASH}"])


async def test_a_refused_noted_model_falls_back_to_the_default_then_the_list(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # The account lost the noted model: the search tries the default and the list again,
    # as a client without a note does, and the list's new pick becomes the note.
    protocol = _account(sim, monkeypatch, "p")
    await _search(sim, tmp_path, "before")
    protocol.quota["buckets"] = [{"modelId": "gemini-3-flash"}]
    assert await _search(sim, tmp_path, "lost") == (
        "gemini-3-flash",
        [f"{STREAM} {FLASH}", f"{STREAM} {PREVIEW}", QUOTA, f"{STREAM} gemini-3-flash"],
    )
    assert await _search(sim, tmp_path, "next") == ("gemini-3-flash", [f"{STREAM} gemini-3-flash"])


@pytest.mark.parametrize("chosen", [PREVIEW, "gemini-2.5-pro"], ids=["the-default", "another"])
async def test_a_model_set_explicitly_wins_over_the_note(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, chosen: str
) -> None:
    # Even the refused default itself, once set in GEMINI_SEARCH_MODEL: the user's model is
    # asked, and never replaced by the note's pick.
    _account(sim, monkeypatch, "p")
    await _search(sim, tmp_path, "noted")
    monkeypatch.setenv("GEMINI_SEARCH_MODEL", chosen)
    before = len(sim["gemini"].requests)
    async with _client(sim, tmp_path) as ws:
        if chosen == PREVIEW:
            failure = await only_failure(ws, "gemini", "chosen")
            assert isinstance(failure, ProviderNotConfiguredError)
            assert f"{PREVIEW!r} is not served to this account" in failure.message
        else:
            assert (await ws.search("chosen", provider="gemini")).model == chosen
    assert sim["gemini"].requests[before].json()["model"] == chosen
    assert all(r.json().get("model") != FLASH for r in sim["gemini"].requests[before:])


async def test_a_search_with_the_noted_model_does_not_renew_the_note(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Only a refusal a client saw renews the note; clients that merely trusted it do not,
    # so a pick is asked for again a lifetime after the last refusal, not never.
    _account(sim, monkeypatch, "p")
    await _search(sim, tmp_path, "refused")
    written = _note_expiries(tmp_path)
    await _search(sim, tmp_path, "trusted")
    assert len(written) == 1 and _note_expiries(tmp_path) == written


async def test_the_note_is_kept_in_redis_and_read_by_a_new_client_from_there(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch, redis_url: str
) -> None:
    # Every test above keeps the note in SQLite; processes that share a ledger through
    # Redis share the note there too: one key (under ``note:gemini:``) that holds the
    # pick, never a token, and expires with the note.
    import redis

    server = redis.Redis.from_url(redis_url)
    server.flushdb()
    _account(sim, monkeypatch, "p")
    settings = sim.settings(state_backend="redis", redis_url=redis_url)

    async def search(query: str) -> tuple[str, list[str]]:
        before = len(sim["gemini"].requests)
        async with WebSearch(settings, api_keys={}) as ws:
            response = await ws.search(query, provider="gemini")
        sent = [
            f"{r.path} {r.json()['model']}" if r.path == STREAM else r.path
            for r in sim["gemini"].requests[before:]
        ]
        return response.model or "", sent

    assert await search("first") == (FLASH, FIRST_CLIENT)
    (key,) = server.keys("*note:gemini:*")
    kept = server.get(key)
    assert kept is not None and FLASH.encode() in kept and b"ya29" not in kept + key
    assert 0 < server.pttl(key) <= REPLACEMENT_NOTE_LIFETIME * 1000
    assert await search("second") == (FLASH, [f"{STREAM} {FLASH}"])
    async with WebSearch(settings, api_keys={}) as ws:
        row = next(s for s in await ws.provider_status() if s.id == "gemini")
    assert row.note is not None and FLASH in row.note


async def _search_with(ws: WebSearch, sim: Simulator, query: str) -> tuple[str, list[str]]:
    """Search with a client that keeps running; the answer's model and what it sent."""
    before = len(sim["gemini"].requests)
    response = await ws.search(query, provider="gemini", use_cache=False)
    sent = [
        f"{r.path} {r.json()['model']}" if r.path == STREAM else r.path
        for r in sim["gemini"].requests[before:]
    ]
    return response.model or "", sent


async def test_a_long_running_client_whose_pick_is_retired_asks_the_list_again(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Before: the client's own list said the default is not served and named the pick,
    # so once Google stopped serving the pick every search of that client failed with
    # its 404, until the process restarted (a new client went back to the list).
    protocol = _account(sim, monkeypatch, "p")
    async with _client(sim, tmp_path) as ws:
        assert await _search_with(ws, sim, "before") == (FLASH, FIRST_CLIENT)
        protocol.quota["buckets"] = [{"modelId": "gemini-3-flash"}]
        assert await _search_with(ws, sim, "retired") == (
            "gemini-3-flash",
            [f"{STREAM} {FLASH}", f"{STREAM} {PREVIEW}", QUOTA, f"{STREAM} gemini-3-flash"],
        )
        assert await _search_with(ws, sim, "after") == (
            "gemini-3-flash",
            [f"{STREAM} gemini-3-flash"],
        )
    async with _client(sim, tmp_path) as ws:  # the note names the new pick
        row = next(s for s in await ws.provider_status() if s.id == "gemini")
    assert row.note is not None and "'gemini-3-flash'" in row.note


async def test_a_long_running_client_asks_the_default_again_once_its_note_expires(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Before: a client that read the list once renewed the note every 12 h from that
    # same list, and searched with its pick forever: an account given preview access
    # since was never asked the default again. Its list now holds 12 h, after which it
    # trusts the note as a new client does, without renewing it.
    protocol = _account(sim, monkeypatch, "p")
    async with _client(sim, tmp_path) as ws:
        assert await _search_with(ws, sim, "today") == (FLASH, FIRST_CLIENT)
        written = _note_expiries(tmp_path)
        protocol.quota["buckets"].append({"modelId": PREVIEW})  # preview access, later
        half = REPLACEMENT_NOTE_LIFETIME / 2 + 60.0
        _shift_clocks(monkeypatch, half)
        assert await _search_with(ws, sim, "in 12 h") == (FLASH, [f"{STREAM} {FLASH}"])
        assert _note_expiries(tmp_path) == written  # trusted, not renewed
        _shift_clocks(monkeypatch, REPLACEMENT_NOTE_LIFETIME + 120.0)
        assert await _search_with(ws, sim, "in a day") == (PREVIEW, [f"{STREAM} {PREVIEW}"])


def _shift_clocks(monkeypatch: pytest.MonkeyPatch, seconds: float) -> None:
    """Move the clocks of the client's kept lists and of the store's notes ``seconds`` on."""
    clock = SimpleNamespace(
        time=lambda: time.time() + seconds, monotonic=lambda: time.monotonic() + seconds
    )
    monkeypatch.setattr(provider_notes, "time", clock)
    monkeypatch.setattr(_gemini_catalog, "time", clock, raising=False)
