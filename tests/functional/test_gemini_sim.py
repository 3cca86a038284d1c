"""Gemini end to end through ``WebSearch`` against the loopback simulator.

Every call forces ``provider="gemini"`` unless it tests the hand-over to the next provider.
The request loop's retry waits go through a recording sleep that does not actually sleep,
so the back-off schedule is asserted without slowing the suite; the tests of the attempt's
time limit sleep for real, count the waits they slept and end under a 30 s hang guard (a
wait the attempt should have refused takes long enough to hang to it), not under an
``elapsed`` bound a loaded machine could flip.
"""

import asyncio
import dataclasses
import json
import logging
import re
import sqlite3
import time
from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from tests.conftest import read_capture
from tests.functional._sim_helpers import (
    catalogue_bound_sign_in,
    credential_store,
    failure_after,
    sim_client,
)
from websearch_core import WebSearch
from websearch_core.credentials import OAuthToken
from websearch_core.errors import (
    AllProvidersFailedError,
    AuthorizationError,
    EmptyResponseError,
    ProviderConnectionError,
    ProviderNotConfiguredError,
    ProviderTimeoutError,
    ProviderUnavailableError,
    QuotaExhaustedError,
    RateLimitedError,
    ResponseParseError,
    SearchProviderError,
)
from websearch_core.prompts import SEARCH_SYSTEM_PROMPT
from websearch_core.providers.gemini import GeminiProvider
from websearch_core.settings import MAX_DEADLINE_SECONDS
from websearch_core.state import SQLiteStore
from websearch_core.testing import Fault, SimResult, Simulator
from websearch_core.testing.protocols.gemini import GeminiProtocol

QUERY = "python asyncio"
DEV_PATH = "/v1beta/models/gemini-3.5-flash-lite:streamGenerateContent"
CA_PATH = "/v1internal:streamGenerateContent"
MODELS_PATH = "/v1internal:fetchAvailableModels"
QUOTA_PATH = "/v1internal:retrieveUserQuota"
NOT_FOUND = json.dumps(
    {"error": {"code": 404, "message": "Requested entity was not found.", "status": "NOT_FOUND"}}
)
EVENT_STREAM = {"Content-Type": "text/event-stream"}
CAPTURED_STREAM = "gemini/stream_generate_content_google_search.sse"


pytestmark = pytest.mark.usefixtures("no_gemini_variables")


HANG_GUARD = 30.0
"""Seconds a search whose attempt waited a hint it should have refused may hang."""
RETRY_POLICY_MAX_DELAY = GeminiProvider.retry.max_delay
"""The longest hint Gemini's retry policy takes (300 s); a longer one is not the loop's."""


@pytest.fixture
def slept(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The request loop's retry waits, recorded and slept for real (the clock must move)."""
    from websearch_core import request_loop

    recorded: list[float] = []
    real_sleep = asyncio.sleep

    async def record_and_sleep(seconds: float) -> None:
        recorded.append(seconds)
        await real_sleep(seconds)

    monkeypatch.setattr(request_loop, "asyncio", SimpleNamespace(sleep=record_and_sleep))
    return recorded


@pytest.fixture
async def sim(sleeps: list[float]) -> AsyncIterator[Simulator]:
    async with Simulator(["gemini"]) as simulator:
        yield simulator


async def _failure(
    sim: Simulator, *faults: Fault | None, overrides: dict[str, Any] | None = None
) -> SearchProviderError:
    return await failure_after(sim, "gemini", QUERY, *faults, **(overrides or {}))


def _google_error(status: int, message: str, reason: str, **extra: Any) -> str:
    return json.dumps({"error": {"code": status, "message": message, "status": reason, **extra}})


# --- API-key mode -----------------------------------------------------------------------------


async def test_request_shape_and_grounded_answer(sim: Simulator) -> None:
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="gemini", limit=3, recency="day")

    (request,) = sim["gemini"].requests
    assert (request.method, request.path, request.query) == ("POST", DEV_PATH, (("alt", "sse"),))
    assert request.header("x-goog-api-key") == "sim-key-gemini"
    assert request.header("Authorization") is None
    assert request.header("Accept") == "text/event-stream"
    body = request.json()
    # The recency goes as the search tool's time window (test_gemini_time_filter.py).
    window = body["tools"][0]["google_search"].pop("timeRangeFilter")
    assert sorted(window) == ["endTime", "startTime"]
    assert body == {
        "contents": [{"role": "user", "parts": [{"text": QUERY}]}],
        "tools": [{"google_search": {}}],
        "systemInstruction": {"parts": [{"text": SEARCH_SYSTEM_PROMPT}]},
    }

    assert response.answer == (
        "Simulated grounded answer about python asyncio. Result 1 says: Snippet 1 about python "
        "asyncio. Result 2 says: Snippet 2 about python asyncio."
    )
    assert [(s.title, s.url) for s in response.sources] == [
        (f"site{i}.example.org", f"https://site{i}.example.org/python-asyncio") for i in (1, 2, 3)
    ]
    assert [(c.title, c.url, c.cited_text) for c in response.citations] == [
        (
            f"site{i}.example.org",
            f"https://site{i}.example.org/python-asyncio",
            f"Result {i} says: Snippet {i} about python asyncio.",
        )
        for i in (1, 2)
    ]
    assert response.search_queries == (QUERY,)
    assert response.usage is not None
    assert (response.usage.input_tokens, response.usage.output_tokens) == (17, 30)
    assert (response.model, response.auth_mode) == ("gemini-3.5-flash-lite", "api_key")
    assert response.request_id is not None


async def test_model_token_cap_and_temperature(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GEMINI_SEARCH_MODEL", "gemini-2.5-pro")
    async with sim_client(sim) as ws:
        response = await ws.search(
            QUERY, provider="gemini", max_tokens=400, temperature=0.3, num_search_results=5
        )
    (request,) = sim["gemini"].requests
    assert request.path == "/v1beta/models/gemini-2.5-pro:streamGenerateContent"
    assert request.json()["generationConfig"] == {"maxOutputTokens": 400, "temperature": 0.3}
    assert response.model == "gemini-2.5-pro"
    assert len(response.sources) == 5


async def test_num_search_results_is_the_count_before_limit(sim: Simulator) -> None:
    """Guard of spec Modes (Gemini): ``limit`` and ``num_search_results`` are collapsed.

    ``num_search_results`` first, as the other adapters collapse them: 4 sources, not
    ``limit``'s 2. It passes on main; with the parse step given ``limit`` alone it gave
    2 (stop 48).
    """
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="gemini", num_search_results=4, limit=2)
    assert len(response.sources) == 4


async def test_tool_text_for_the_model(sim: Simulator) -> None:
    sim["gemini"].results = [
        SimResult(
            title="Tasks",
            url="https://docs.python.org/3/library/asyncio-task.html",
            snippet="Tasks run coroutines.",
        )
    ]
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="gemini")
    assert result.text == (
        "Simulated grounded answer about python asyncio. Result 1 says: Tasks run coroutines.\n"
        "\n## Sources\n"
        "1 source\n"
        "[1] docs.python.org\n"
        "    https://docs.python.org/3/library/asyncio-task.html\n"
        "\n## Citations\n"
        "1 citation\n"
        "[1] docs.python.org\n"
        "    https://docs.python.org/3/library/asyncio-task.html\n"
        "    Result 1 says: Tasks run coroutines.\n"
        "Search queries: 1\n"
        "- python asyncio"
    )


async def test_a_json_array_answer_is_read_too(sim: Simulator) -> None:
    chunk = {
        "candidates": [
            {
                "content": {"parts": [{"text": "Plain."}]},
                "groundingMetadata": {
                    "groundingChunks": [{"web": {"uri": "https://a.example.org/", "title": "a"}}]
                },
            }
        ]
    }
    sim["gemini"].enqueue(
        Fault.http(200, json.dumps([chunk]), {"Content-Type": "application/json"})
    )
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="gemini")
    assert response.answer == "Plain."
    assert [s.url for s in response.sources] == ["https://a.example.org/"]


# --- OAuth mode (Cloud Code Assist) -----------------------------------------------------------


async def test_oauth_discovers_the_project_and_wraps_the_request(sim: Simulator) -> None:
    credential_store(sim).set_oauth(
        "gemini", OAuthToken(access_token="ya29.token", expires_at=time.time() + 3600)
    )
    async with sim_client(sim, api_keys={}) as ws:
        response = await ws.search(QUERY, provider="gemini", temperature=0.5)
    lookup, call = sim["gemini"].requests
    assert lookup.path == "/v1internal:loadCodeAssist"
    assert lookup.json() == {
        "metadata": {
            "ideType": "IDE_UNSPECIFIED",
            "platform": "PLATFORM_UNSPECIFIED",
            "pluginType": "GEMINI",
        }
    }
    assert (call.path, call.query) == (CA_PATH, (("alt", "sse"),))
    for request in (lookup, call):
        assert request.header("Authorization") == "Bearer ya29.token"
        assert (request.header("User-Agent") or "").startswith("antigravity/hub/")
        assert request.header("x-goog-api-key") is None
    body = call.json()
    assert (body["project"], body["model"]) == ("sim-project-0001", "gemini-3.5-flash-lite")
    assert (body["requestType"], body["userAgent"]) == ("agent", "antigravity")
    assert body["requestId"].startswith("agent-")
    assert body["request"]["systemInstruction"] == {
        "role": "user",
        "parts": [{"text": SEARCH_SYSTEM_PROMPT}],
    }
    assert body["request"]["generationConfig"] == {"temperature": 0.5}
    assert response.auth_mode == "oauth"
    assert len(response.sources) == 10
    assert response.answer is not None and response.answer.startswith("Simulated grounded")


async def test_oauth_project_from_the_environment(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GOOGLE_CLOUD_PROJECT", "my-project")
    credential_store(sim).set_oauth("gemini", OAuthToken(access_token="tok"))
    async with sim_client(sim, api_keys={}) as ws:
        await ws.search(QUERY, provider="gemini")
    (call,) = sim["gemini"].requests
    assert call.json()["project"] == "my-project"


async def test_oauth_refreshes_once_after_a_401(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GOOGLE_CLOUD_PROJECT", "p")
    credential_store(sim).set_oauth("gemini", OAuthToken(access_token="old", refresh_token="r"))
    refreshed: list[str] = []

    async def refresh(provider: str, token: OAuthToken) -> OAuthToken:
        refreshed.append(token.access_token)
        return OAuthToken(access_token=f"new-{len(refreshed)}", refresh_token="r")

    body = _google_error(401, "Request had invalid authentication credentials.", "UNAUTHENTICATED")
    sim["gemini"].enqueue(Fault.unauthorized(body))
    async with WebSearch(sim.settings(), api_keys={}, oauth_refreshers={"gemini": refresh}) as ws:
        response = await ws.search(QUERY, provider="gemini")
    first, second = sim["gemini"].requests
    assert (first.header("Authorization"), second.header("Authorization")) == (
        "Bearer old",
        "Bearer new-1",
    )
    assert refreshed == ["old"] and response.auth_mode == "oauth"

    # A second refusal after the refresh is final: one refresh per search.
    sim["gemini"].enqueue(Fault.unauthorized(body), Fault.forbidden())
    async with WebSearch(sim.settings(), api_keys={}, oauth_refreshers={"gemini": refresh}) as ws:
        result = await ws.run(QUERY, provider="gemini")
    assert result.text == "Error: Gemini authorization failed (403). Check API key or base URL."
    assert len(sim["gemini"].requests) == 4


async def test_oauth_400_invalid_credentials_also_refreshes(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GOOGLE_CLOUD_PROJECT", "p")
    credential_store(sim).set_oauth("gemini", OAuthToken(access_token="old"))

    async def refresh(provider: str, token: OAuthToken) -> OAuthToken:
        return OAuthToken(access_token="new")

    body = _google_error(400, "Invalid authentication credentials", "INVALID_ARGUMENT")
    sim["gemini"].enqueue(Fault.http(400, body))
    async with WebSearch(sim.settings(), api_keys={}, oauth_refreshers={"gemini": refresh}) as ws:
        await ws.search(QUERY, provider="gemini")
    assert [r.header("Authorization") for r in sim["gemini"].requests] == [
        "Bearer old",
        "Bearer new",
    ]


async def test_oauth_expired_token_without_a_hook_or_a_refresh_token(sim: Simulator) -> None:
    # Antigravity's sign-in renews itself, but only from a refresh token: none, none sent.
    credential_store(sim).set_oauth(
        "gemini", OAuthToken(access_token="old", expires_at=time.time() - 60)
    )
    async with sim_client(sim, api_keys={}) as ws:
        with pytest.raises(AllProvidersFailedError) as caught:
            await ws.search(QUERY, provider="gemini")
    (failure,) = caught.value.failures
    assert isinstance(failure, AuthorizationError)
    assert failure.message == (
        "gemini: OAuth token expired and holds no refresh token; sign in to Antigravity"
        " again, then store its new token in the `gemini` entry (`CredentialStore.set_oauth`)"
    )
    assert sim["gemini"].requests == []


async def test_oauth_a_failed_refresh_hook_is_named_not_the_key_or_base_url(
    sim: Simulator,
) -> None:
    # No server refused anything: the spec's "Check API key or base URL" sent the user to
    # a key and a URL that were never the problem, while their own hook had failed.
    credential_store(sim).set_oauth(
        "gemini-cli",
        OAuthToken(access_token="cli-old", refresh_token="cli-r", expires_at=time.time() - 60),
    )

    async def refresh(entry: str, token: OAuthToken) -> OAuthToken:
        raise ValueError("cli-r was revoked")

    hooks = {"gemini-cli": refresh}
    async with WebSearch(sim.settings(), api_keys={}, oauth_refreshers=hooks) as ws:
        result = await ws.run(QUERY, provider="gemini")
    assert result.text == (
        "Error: gemini-cli: OAuth token refresh failed: its refresh hook raised ValueError"
    )
    assert sim["gemini"].requests == []


async def test_oauth_a_hook_failing_after_a_401_is_logged_beside_the_spec_text(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # The server did refuse the token, so the tool keeps the spec's 401 text; the log
    # says why it was not refreshed, which that text cannot.
    monkeypatch.setenv("GOOGLE_CLOUD_PROJECT", "p")
    credential_store(sim).set_oauth(
        "gemini", OAuthToken(access_token="ag-old", refresh_token="ag-r")
    )

    async def refresh(entry: str, token: OAuthToken) -> OAuthToken:
        raise ValueError("ag-r was revoked")

    sim["gemini"].enqueue(Fault.unauthorized(), Fault.unauthorized())
    async with WebSearch(sim.settings(), api_keys={}, oauth_refreshers={"gemini": refresh}) as ws:
        result = await ws.run(QUERY, provider="gemini")
    assert result.text == "Error: Gemini authorization failed (401). Check API key or base URL."
    assert (
        "web search provider gemini answered 401 and no fresh OAuth token could be had: "
        "gemini: OAuth token refresh failed: its refresh hook raised ValueError"
    ) in caplog.text
    assert "ag-r" not in caplog.text and "ag-old" not in caplog.text


async def test_oauth_moves_to_the_second_endpoint(
    sim: Simulator, sleeps: list[float], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GOOGLE_CLOUD_PROJECT", "p")
    credential_store(sim).set_oauth("gemini", OAuthToken(access_token="tok"))
    sim["gemini"].enqueue(*[Fault.server_error(503)] * 4)
    async with sim_client(sim, api_keys={}) as ws:
        response = await ws.search(QUERY, provider="gemini")
    # One attempt at the first endpoint, then the second with its own retries (the
    # simulator serves both; tests/providers/test_gemini.py shows which URL each went to).
    assert len(sim["gemini"].requests) == 5
    assert sleeps == [1.0, 2.0, 4.0]
    assert response.auth_mode == "oauth"


# --- OAuth: which sign-in (Gemini CLI before Antigravity) ----------------------------------

GEMINI_CLI_REQUEST_ID = re.compile(r"websearch-tools-\d{13}-[0-9a-z]{9}")


def _gemini_cli_user_agent(model: str) -> re.Pattern[str]:
    return re.compile(rf"GeminiCLI/0\.46\.0/{re.escape(model)} \([a-z0-9]+; [a-z0-9_]+; terminal\)")


async def test_oauth_a_gemini_cli_sign_in_speaks_the_gemini_cli_wire(sim: Simulator) -> None:
    credential_store(sim).set_oauth(
        "gemini-cli", OAuthToken(access_token="ya29.cli-token", expires_at=time.time() + 3600)
    )
    async with sim_client(sim, api_keys={}) as ws:
        response = await ws.search(QUERY, provider="gemini", temperature=0.5)
    lookup, call = sim["gemini"].requests
    assert lookup.path == "/v1internal:loadCodeAssist"
    assert (call.path, call.query) == (CA_PATH, (("alt", "sse"),))
    for request in (lookup, call):
        assert request.header("Authorization") == "Bearer ya29.cli-token"
        assert _gemini_cli_user_agent("gemini-3-flash-preview").fullmatch(
            request.header("User-Agent") or ""
        )
        assert request.header("Client-Metadata") == (
            "ideType=IDE_UNSPECIFIED,platform=PLATFORM_UNSPECIFIED,pluginType=GEMINI"
        )
    body = call.json()
    # The Gemini CLI's web-search model; our product where the body names the caller.
    assert (body["project"], body["model"]) == ("sim-project-0001", "gemini-3-flash-preview")
    assert body["userAgent"] == "websearch-tools/0.1.0"
    assert GEMINI_CLI_REQUEST_ID.fullmatch(body["requestId"])
    assert "requestType" not in body
    assert body["request"]["systemInstruction"] == {"parts": [{"text": SEARCH_SYSTEM_PROMPT}]}
    assert body["request"]["tools"] == [{"google_search": {}}]
    assert body["request"]["generationConfig"] == {"temperature": 0.5}
    assert "omp" not in json.dumps(body)
    assert (response.model, response.auth_mode) == ("gemini-3-flash-preview", "oauth")
    assert response.answer is not None and response.sources


@pytest.mark.parametrize(
    ("entries", "bearer", "gemini_cli"),
    [
        pytest.param(("gemini-cli", "gemini"), "Bearer cli", True, id="both-gemini-cli-first"),
        pytest.param(("gemini-cli",), "Bearer cli", True, id="only-gemini-cli"),
        pytest.param(("gemini",), "Bearer antigravity", False, id="only-gemini-as-before"),
    ],
)
async def test_oauth_the_first_sign_in_with_a_token_is_used(
    sim: Simulator,
    monkeypatch: pytest.MonkeyPatch,
    entries: tuple[str, ...],
    bearer: str,
    gemini_cli: bool,
) -> None:
    monkeypatch.setenv("GOOGLE_CLOUD_PROJECT", "p")
    tokens = {"gemini-cli": "cli", "gemini": "antigravity"}
    for entry in entries:
        credential_store(sim).set_oauth(entry, OAuthToken(access_token=tokens[entry]))
    async with sim_client(sim, api_keys={}) as ws:
        await ws.search(QUERY, provider="gemini")
    (call,) = sim["gemini"].requests
    body = call.json()
    agent = call.header("User-Agent") or ""
    assert call.header("Authorization") == bearer
    if gemini_cli:
        assert _gemini_cli_user_agent("gemini-3-flash-preview").fullmatch(agent)
        assert call.header("Client-Metadata") is not None
        assert (body["model"], body["userAgent"]) == (
            "gemini-3-flash-preview",
            "websearch-tools/0.1.0",
        )
    else:  # a token stored under "gemini" is Antigravity's, exactly as before
        assert agent.startswith("antigravity/hub/")
        assert call.header("Client-Metadata") is None
        assert (body["model"], body["requestType"], body["userAgent"]) == (
            "gemini-3.5-flash-lite",
            "agent",
            "antigravity",
        )
        assert body["requestId"].startswith("agent-")


async def test_oauth_a_gemini_cli_token_is_refreshed_through_its_own_hook(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("GOOGLE_CLOUD_PROJECT", "p")
    caplog.set_level(logging.DEBUG, logger="websearch_core")
    credential_store(sim).set_oauth(
        "gemini-cli", OAuthToken(access_token="cli-old", refresh_token="cli-r")
    )
    credential_store(sim).set_oauth(
        "gemini", OAuthToken(access_token="ag-token", refresh_token="ag-r")
    )
    calls: list[tuple[str, str]] = []

    async def refresh(entry: str, token: OAuthToken) -> OAuthToken:
        calls.append((entry, token.access_token))
        return OAuthToken(access_token=f"cli-new-{len(calls)}", refresh_token="cli-r")

    async def wrong_hook(entry: str, token: OAuthToken) -> OAuthToken:
        raise AssertionError("the Antigravity hook refreshed a Gemini CLI token")

    hooks = {"gemini-cli": refresh, "gemini": wrong_hook}
    body = _google_error(401, "Request had invalid authentication credentials.", "UNAUTHENTICATED")
    sim["gemini"].enqueue(Fault.unauthorized(body))
    async with WebSearch(sim.settings(), api_keys={}, oauth_refreshers=hooks) as ws:
        response = await ws.search(QUERY, provider="gemini")
    assert [r.header("Authorization") for r in sim["gemini"].requests] == [
        "Bearer cli-old",
        "Bearer cli-new-1",
    ]
    assert calls == [("gemini-cli", "cli-old")] and response.auth_mode == "oauth"
    # The fresh token went back to its own entry; Antigravity's was left alone.
    cli_token, antigravity_token = (
        credential_store(sim).get_oauth(e) for e in ("gemini-cli", "gemini")
    )
    assert cli_token is not None and cli_token.access_token == "cli-new-1"
    assert antigravity_token is not None and antigravity_token.access_token == "ag-token"

    # Refused again after the refresh: the error names the provider, never a token.
    sim["gemini"].enqueue(Fault.unauthorized(body), Fault.unauthorized(body))
    async with WebSearch(sim.settings(), api_keys={}, oauth_refreshers=hooks) as ws:
        result = await ws.run(QUERY, provider="gemini")
    assert result.text.startswith("Error: Gemini")
    for secret in ("cli-old", "cli-new", "cli-r", "ag-token", "ag-r"):
        assert secret not in result.text
        assert secret not in caplog.text


async def test_oauth_an_expired_gemini_cli_token_without_its_hook(sim: Simulator) -> None:
    credential_store(sim).set_oauth(
        "gemini-cli", OAuthToken(access_token="cli-old", expires_at=time.time() - 60)
    )
    credential_store(sim).set_oauth("gemini", OAuthToken(access_token="ag-token"))

    async def refresh(entry: str, token: OAuthToken) -> OAuthToken:
        raise AssertionError("a hook for another entry was used")

    async with WebSearch(sim.settings(), api_keys={}, oauth_refreshers={"gemini": refresh}) as ws:
        with pytest.raises(AllProvidersFailedError) as caught:
            await ws.search(QUERY, provider="gemini")
    (failure,) = caught.value.failures
    assert isinstance(failure, AuthorizationError) and failure.provider == "gemini"
    # Without a refresh token the sign-in's own refresh has nothing to trade: sign in again.
    assert failure.message == (
        "gemini-cli: OAuth token expired and holds no refresh token; sign in again (run"
        " `gemini` and choose Login with Google), then run `websearch auth import gemini-cli`"
    )
    assert "cli-old" not in failure.message
    assert sim["gemini"].requests == []


def _gemini_cli(sim: Simulator, monkeypatch: pytest.MonkeyPatch) -> GeminiProtocol:
    """A Gemini CLI sign-in whose account has no preview access (its quota lists 2.5 only)."""
    monkeypatch.setenv("GOOGLE_CLOUD_PROJECT", "p")
    return catalogue_bound_sign_in(sim, "gemini-cli", "ya29.cli-token")


async def test_oauth_a_gemini_cli_account_without_preview_access_searches_with_stable_flash(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    _gemini_cli(sim, monkeypatch)
    caplog.set_level(logging.INFO, logger="websearch_core")
    async with sim_client(sim, api_keys={}) as ws:
        response = await ws.search(QUERY, provider="gemini")
        # Antigravity's catalogue is never asked: the Gemini CLI's own quota call is.
        assert _models(sim) == [
            f"{CA_PATH} gemini-3-flash-preview",
            QUOTA_PATH,
            f"{CA_PATH} gemini-2.5-flash",
        ]
        lookup, retry = sim["gemini"].requests[1:]
        assert lookup.json() == {"project": "p"}
        assert lookup.header("Authorization") == "Bearer ya29.cli-token"
        assert _gemini_cli_user_agent("gemini-3-flash-preview").fullmatch(
            lookup.header("User-Agent") or ""
        )
        assert _gemini_cli_user_agent("gemini-2.5-flash").fullmatch(
            retry.header("User-Agent") or ""
        )
        assert response.model == "gemini-2.5-flash"
        assert response.answer is not None and response.sources
        (note,) = response.notes
        assert note == (
            "gemini: the default model 'gemini-3-flash-preview' is not served to this account"
            " (Cloud Code answered 404), so 'gemini-2.5-flash', a non-preview Flash model the"
            " account has quota for (retrieveUserQuota), was used instead"
        )
        assert note in caplog.text and "ya29" not in caplog.text

        # The client remembers the list: its next search starts with the stable Flash.
        again = await ws.search("another query", provider="gemini")
        assert _models(sim)[3:] == [f"{CA_PATH} gemini-2.5-flash"]
        assert again.notes == (note.replace("Cloud Code answered 404", "found earlier"),)


async def _gemini_row(ws: WebSearch) -> str:
    return next(s.reason for s in await ws.provider_status() if s.id == "gemini")


REPLACED_ROW = (
    "ready (Gemini CLI sign-in); searches with 'gemini-2.5-flash': the default model"
    " 'gemini-3-flash-preview' is not served to this account"
)


@pytest.mark.parametrize("backend", ["memory", "sqlite"])
async def test_oauth_the_providers_table_names_the_model_a_search_put_in_place_of_the_default(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, backend: str
) -> None:
    # The row read "ready (Gemini CLI sign-in)" after the pick as before it: nothing said
    # which model the client's searches now use.
    _gemini_cli(sim, monkeypatch)
    settings = {"state_backend": backend, "state_dir": tmp_path}
    async with sim_client(sim, api_keys={}, **settings) as ws:
        assert await _gemini_row(ws) == "ready (Gemini CLI sign-in)"
        await ws.search(QUERY, provider="gemini")
        assert await _gemini_row(ws) == REPLACED_ROW
        rows = {s.id: s for s in await ws.provider_status()}
        assert rows["gemini"].note == REPLACED_ROW.split("; ", 1)[1]


async def _a_client_searched(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> dict[str, Any]:
    """The state settings a Gemini CLI sign-in's client searched with once, then closed.

    Its search picked a model in place of the default and left a note of it in the
    store, for the next client on these settings to read.
    """
    _gemini_cli(sim, monkeypatch)
    settings: dict[str, Any] = {"state_backend": "sqlite", "state_dir": tmp_path}
    async with sim_client(sim, api_keys={}, **settings) as ws:
        await ws.search(QUERY, provider="gemini")
    return settings


async def test_oauth_a_new_client_on_the_same_state_store_shows_the_replacement_too(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # The pick lived in the searching client's memory only, so a client that had not
    # searched (every `websearch providers` command is one) read "ready" alone. It is now
    # a note in the state store, under the sign-in's fingerprint, never a token.
    settings = await _a_client_searched(sim, monkeypatch, tmp_path)
    async with sim_client(sim, api_keys={}, **settings) as ws:
        assert await _gemini_row(ws) == REPLACED_ROW
        store = await ws.state()
        await ws.reset_provider("gemini")  # reset forgets the note with the marks
        assert await _gemini_row(ws) == "ready (Gemini CLI sign-in)"
        assert isinstance(store, SQLiteStore)
    dump = "\n".join(sqlite3.connect(tmp_path / "state.sqlite3").iterdump())
    assert "ya29" not in dump


async def test_oauth_the_note_belongs_to_its_sign_in_and_the_default_it_replaced(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    settings = await _a_client_searched(sim, monkeypatch, tmp_path)
    # A model the user chose is never replaced: the table says nothing of the default's.
    monkeypatch.setenv("GEMINI_SEARCH_MODEL", "gemini-2.5-pro")
    async with sim_client(sim, api_keys={}, **settings) as ws:
        assert await _gemini_row(ws) == "ready (Gemini CLI sign-in)"
    monkeypatch.delenv("GEMINI_SEARCH_MODEL")
    # Another account signed in (another refresh token, so another fingerprint).
    credential_store(sim).set_oauth(
        "gemini-cli", OAuthToken(access_token="ya29.other", refresh_token="1//other-account")
    )
    async with sim_client(sim, api_keys={}, **settings) as ws:
        assert await _gemini_row(ws) == "ready (Gemini CLI sign-in)"


async def test_oauth_another_account_imported_under_the_entry_is_not_given_the_old_list(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The list a client kept was keyed by the entry and project only: an account imported
    # into the same entry while the client ran (`websearch auth import gemini-cli` in
    # another terminal) started with the first account's pick, never asking for its own
    # default, which it may be served.
    protocol = _gemini_cli(sim, monkeypatch)
    async with sim_client(sim, api_keys={}) as ws:
        assert (await ws.search(QUERY, provider="gemini")).model == "gemini-2.5-flash"
        credential_store(sim).set_oauth(
            "gemini-cli", OAuthToken(access_token="ya29.other", refresh_token="1//other-account")
        )
        protocol.quota["buckets"].append({"modelId": "gemini-3-flash-preview"})
        before = len(sim["gemini"].requests)
        response = await ws.search("another account", provider="gemini")
    assert _models(sim)[before:] == [f"{CA_PATH} gemini-3-flash-preview"]
    assert (response.model, response.notes) == ("gemini-3-flash-preview", ())


async def test_oauth_a_gemini_cli_account_with_preview_access_keeps_the_default(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    protocol = _gemini_cli(sim, monkeypatch)
    protocol.quota["buckets"].append({"modelId": "gemini-3-flash-preview"})
    async with sim_client(sim, api_keys={}) as ws:
        response = await ws.search(QUERY, provider="gemini")
    assert _models(sim) == [f"{CA_PATH} gemini-3-flash-preview"]
    assert (response.model, response.notes) == ("gemini-3-flash-preview", ())


@pytest.mark.parametrize(
    "quota_answer",
    [
        pytest.param(Fault.http(200, '{"buckets": "none"}'), id="a-reply-without-buckets"),
        pytest.param(Fault.http(403, "Forbidden"), id="a-failed-quota-request"),
    ],
)
async def test_oauth_a_gemini_cli_404_stands_when_its_quota_cannot_be_read(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch, quota_answer: Fault
) -> None:
    _gemini_cli(sim, monkeypatch)
    sim["gemini"].enqueue(None, quota_answer)
    async with sim_client(sim, api_keys={}) as ws:
        with pytest.raises(AllProvidersFailedError) as caught:
            await ws.search(QUERY, provider="gemini")
    (failure,) = caught.value.failures
    assert type(failure) is SearchProviderError and failure.status == 404
    assert failure.message == "Gemini Cloud Code API error (404): Requested entity was not found."
    assert "ya29" not in failure.message
    assert _models(sim) == [f"{CA_PATH} gemini-3-flash-preview", QUOTA_PATH]


async def test_oauth_a_gemini_cli_model_the_user_chose_is_never_replaced(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    _gemini_cli(sim, monkeypatch)
    monkeypatch.setenv("GEMINI_SEARCH_MODEL", "gemini-3-pro-preview")
    async with sim_client(sim, api_keys={}) as ws:
        with pytest.raises(AllProvidersFailedError) as caught:
            await ws.search(QUERY, provider="gemini")
    (failure,) = caught.value.failures
    assert isinstance(failure, ProviderNotConfiguredError) and failure.status == 404
    assert failure.message == (
        "Gemini Cloud Code API error (404): 'gemini-3-pro-preview' is not served to this"
        " account; the account is offered: gemini-2.5-pro, gemini-2.5-flash,"
        " gemini-2.5-flash-lite. Set GEMINI_SEARCH_MODEL (or the gemini_model setting) to"
        " one of them."
    )
    assert _models(sim) == [f"{CA_PATH} gemini-3-pro-preview", QUOTA_PATH]


# --- OAuth: the account's model catalogue --------------------------------------------------


def _antigravity(sim: Simulator, monkeypatch: pytest.MonkeyPatch) -> GeminiProtocol:
    """An OAuth sign-in whose Cloud Code host serves only its catalogue's models."""
    monkeypatch.setenv("GOOGLE_CLOUD_PROJECT", "p")
    return catalogue_bound_sign_in(sim, "gemini", "ya29.secret-token")


def _models(sim: Simulator) -> list[str]:
    """Each request's path, with the model a stream asked for."""
    return [
        f"{r.path} {r.json()['model']}" if r.path == CA_PATH else r.path
        for r in sim["gemini"].requests
    ]


async def test_oauth_default_model_not_served_gives_way_to_the_accounts_search_model(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    _antigravity(sim, monkeypatch)
    caplog.set_level(logging.INFO, logger="websearch_core")
    async with sim_client(sim, api_keys={}) as ws:
        response = await ws.search(QUERY, provider="gemini")
        assert _models(sim) == [
            f"{CA_PATH} gemini-3.5-flash-lite",
            MODELS_PATH,
            f"{CA_PATH} gemini-3.5-flash-low",
        ]
        lookup = sim["gemini"].requests[1]
        assert lookup.json() == {"project": "p"}
        assert lookup.header("Authorization") == "Bearer ya29.secret-token"
        assert response.model == "gemini-3.5-flash-low"
        assert response.answer is not None and response.sources
        (note,) = response.notes
        assert note == (
            "gemini: the default model 'gemini-3.5-flash-lite' is not served to this account"
            " (Cloud Code answered 404), so 'gemini-3.5-flash-low', the account's web-search"
            " model (fetchAvailableModels), was used instead"
        )
        assert note in caplog.text
        assert "secret-token" not in caplog.text

        # The client remembers the catalogue: its next search starts with the account's model.
        await ws.search("another query", provider="gemini")
        assert _models(sim)[3:] == [f"{CA_PATH} gemini-3.5-flash-low"]

    # Another client asks the catalogue again (it is kept for a client's life only).
    async with sim_client(sim, api_keys={}) as ws:
        await ws.search("a third query", provider="gemini")
    assert _models(sim)[4:] == [
        f"{CA_PATH} gemini-3.5-flash-lite",
        MODELS_PATH,
        f"{CA_PATH} gemini-3.5-flash-low",
    ]


async def test_oauth_a_chosen_model_is_never_replaced(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    _antigravity(sim, monkeypatch)
    monkeypatch.setenv("GEMINI_SEARCH_MODEL", "gemini-2.5-flash")
    async with sim_client(sim, api_keys={}) as ws:
        with pytest.raises(AllProvidersFailedError) as caught:
            await ws.search(QUERY, provider="gemini")
    (failure,) = caught.value.failures
    assert isinstance(failure, ProviderNotConfiguredError)
    assert failure.status == 404
    assert failure.message == (
        "Gemini Cloud Code API error (404): 'gemini-2.5-flash' is not served to this account;"
        " the account is offered: gemini-3.5-flash-low, gemini-3.5-flash-high. Set"
        " GEMINI_SEARCH_MODEL (or the gemini_model setting) to one of them."
    )
    assert _models(sim) == [f"{CA_PATH} gemini-2.5-flash", MODELS_PATH]


async def test_oauth_default_without_a_replacement_names_what_is_offered(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    protocol = _antigravity(sim, monkeypatch)
    protocol.catalog = {"models": {"gemini-3.5-flash-high": {}}, "webSearchModelIds": []}
    async with sim_client(sim, api_keys={}) as ws:
        with pytest.raises(AllProvidersFailedError) as caught:
            await ws.search(QUERY, provider="gemini")
    (failure,) = caught.value.failures
    assert isinstance(failure, ProviderNotConfiguredError)
    assert "the default model 'gemini-3.5-flash-lite' is not served" in failure.message
    assert "names no web-search model" in failure.message
    assert "offered: gemini-3.5-flash-high." in failure.message
    assert _models(sim) == [f"{CA_PATH} gemini-3.5-flash-lite", MODELS_PATH]


@pytest.mark.parametrize(
    "catalog_answer",
    [
        pytest.param(None, id="the-catalogue-offers-the-model"),
        pytest.param(Fault.http(200, "<html>not json</html>"), id="an-unreadable-catalogue"),
        pytest.param(Fault.http(404, "Method not found."), id="a-failed-catalogue-request"),
    ],
)
async def test_oauth_the_404_stands_when_the_catalogue_does_not_explain_it(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch, catalog_answer: Fault | None
) -> None:
    protocol = _antigravity(sim, monkeypatch)
    protocol.catalog["models"]["gemini-3.5-flash-lite"] = {"displayName": "Flash-Lite"}
    sim["gemini"].enqueue(Fault.http(404, NOT_FOUND), catalog_answer)
    async with sim_client(sim, api_keys={}) as ws:
        with pytest.raises(AllProvidersFailedError) as caught:
            await ws.search(QUERY, provider="gemini")
    (failure,) = caught.value.failures
    assert type(failure) is SearchProviderError
    assert failure.message == "Gemini Cloud Code API error (404): Requested entity was not found."
    assert _models(sim) == [f"{CA_PATH} gemini-3.5-flash-lite", MODELS_PATH]


MODEL_400 = ("You don't have access to this model or the model name is invalid", "Antigravity")
"""Antigravity's 400 for a model id it does not serve the account (antigravity2api-nodejs
issue #16)."""


@pytest.mark.parametrize("sign_in", ["antigravity", "gemini-cli"])
async def test_oauth_a_400_naming_the_model_is_handled_like_the_404(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch, sign_in: str
) -> None:
    protocol = (_antigravity if sign_in == "antigravity" else _gemini_cli)(sim, monkeypatch)
    protocol.unknown_model = (400, MODEL_400[0], "INVALID_ARGUMENT")
    async with sim_client(sim, api_keys={}) as ws:
        response = await ws.search(QUERY, provider="gemini")
    default, lookup, pick = (
        ("gemini-3.5-flash-lite", MODELS_PATH, "gemini-3.5-flash-low")
        if sign_in == "antigravity"
        else ("gemini-3-flash-preview", QUOTA_PATH, "gemini-2.5-flash")
    )
    assert _models(sim) == [f"{CA_PATH} {default}", lookup, f"{CA_PATH} {pick}"]
    assert response.model == pick
    (note,) = response.notes
    assert f"default model {default!r} is not served" in note
    assert "(Cloud Code answered 400)" in note and f"so {pick!r}" in note


async def test_oauth_a_chosen_model_refused_with_a_400_is_named_with_its_status(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    protocol = _antigravity(sim, monkeypatch)
    protocol.unknown_model = (400, MODEL_400[0], "INVALID_ARGUMENT")
    monkeypatch.setenv("GEMINI_SEARCH_MODEL", "gemini-2.5-flash")
    async with sim_client(sim, api_keys={}) as ws:
        with pytest.raises(AllProvidersFailedError) as caught:
            await ws.search(QUERY, provider="gemini")
    (failure,) = caught.value.failures
    assert isinstance(failure, ProviderNotConfiguredError) and failure.status == 400
    assert failure.message.startswith(
        "Gemini Cloud Code API error (400): 'gemini-2.5-flash' is not served to this account;"
    )


@pytest.mark.parametrize(
    "message",
    [
        pytest.param("Request contains an invalid argument.", id="names-nothing"),
        pytest.param(
            'Invalid JSON payload received. Unknown name "requestType": Cannot find field.',
            id="an-unknown-body-field",
        ),
    ],
)
async def test_oauth_a_400_not_naming_the_model_keeps_its_outcome(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch, message: str
) -> None:
    _antigravity(sim, monkeypatch)
    sim["gemini"].enqueue(Fault.http(400, _google_error(400, message, "INVALID_ARGUMENT")))
    async with sim_client(sim, api_keys={}) as ws:
        with pytest.raises(AllProvidersFailedError) as caught:
            await ws.search(QUERY, provider="gemini")
    (failure,) = caught.value.failures
    assert type(failure) is SearchProviderError and failure.status == 400
    assert failure.message == f"Gemini Cloud Code API error (400): {message}"
    assert _models(sim) == [f"{CA_PATH} gemini-3.5-flash-lite"]  # no list was asked


# --- retries ----------------------------------------------------------------------------------


async def test_server_errors_are_retried_with_exponential_backoff(
    sim: Simulator, sleeps: list[float]
) -> None:
    sim["gemini"].enqueue(Fault.server_error(503), Fault.server_error(500))
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="gemini")
    assert len(sim["gemini"].requests) == 3
    assert sleeps == [1.0, 2.0]
    assert response.answer is not None


async def test_retries_end_after_four_attempts(sim: Simulator, sleeps: list[float]) -> None:
    sim["gemini"].always(Fault.server_error(503, _google_error(503, "Overloaded", "UNAVAILABLE")))
    failure = await _failure(sim)
    assert isinstance(failure, ProviderUnavailableError)
    assert failure.message == "Gemini Developer API error (503): Overloaded"
    assert len(sim["gemini"].requests) == 4
    assert sleeps == [1.0, 2.0, 4.0]


async def test_a_shorter_base_delay(
    sim: Simulator, sleeps: list[float], monkeypatch: pytest.MonkeyPatch
) -> None:
    shorter = dataclasses.replace(GeminiProvider.retry, base_delay=0.01)
    monkeypatch.setattr(GeminiProvider, "retry", shorter)
    sim["gemini"].enqueue(Fault.server_error(), Fault.server_error())
    async with sim_client(sim) as ws:
        await ws.search(QUERY, provider="gemini")
    assert sleeps == [0.01, 0.02]


async def test_rate_limit_waits_for_the_servers_hint(sim: Simulator, sleeps: list[float]) -> None:
    sim["gemini"].enqueue(Fault.rate_limited(retry_after=1))
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="gemini")
    assert sleeps == [1.0]
    assert len(sim["gemini"].requests) == 2
    assert response.answer is not None


async def test_retry_info_in_the_body(sim: Simulator, sleeps: list[float]) -> None:
    body = _google_error(
        429,
        "Resource has been exhausted (e.g. check quota).",
        "RESOURCE_EXHAUSTED",
        details=[{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "7s"}],
    )
    sim["gemini"].enqueue(Fault.http(429, body))
    async with sim_client(sim, timeout_seconds=30) as ws:
        await ws.search(QUERY, provider="gemini")
    assert sleeps == [7.0]


async def test_a_hint_past_the_budget_ends_the_retries(sim: Simulator, sleeps: list[float]) -> None:
    body = _google_error(
        429,
        "You exceeded your current quota, please check your plan and billing details.",
        "RESOURCE_EXHAUSTED",
        details=[{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "400s"}],
    )
    failure = await _failure(sim, Fault.http(429, body))
    assert isinstance(failure, QuotaExhaustedError)
    assert failure.reset_at is not None  # back when the server said, not next month
    assert sleeps == [] and len(sim["gemini"].requests) == 1


async def test_a_hint_past_the_attempts_time_is_not_waited(
    sim: Simulator, sleeps: list[float]
) -> None:
    sim["gemini"].always(Fault.rate_limited(retry_after=20))
    failure = await _failure(sim, overrides={"timeout_seconds": 10})
    assert isinstance(failure, RateLimitedError)
    assert failure.retry_after == 20.0
    assert sleeps == [] and len(sim["gemini"].requests) == 1


async def test_waits_never_outlast_the_attempt(slept: list[float]) -> None:
    """Real sleeps: a 2.5 s hint fits a 4 s attempt once, a second one no longer does.

    The hint is over the chain's own 2 s rate-limit wait, so the chain does not retry and
    every request counted here belongs to the one attempt. One wait slept, and the
    second hint refused (not waited and then cut off by the attempt's time, which would
    end as a timeout): the waits are counted, under a hang guard, not timed.
    """
    async with Simulator(["gemini"]) as sim:
        sim["gemini"].always(Fault.rate_limited(retry_after=2.5))
        started = time.monotonic()
        async with asyncio.timeout(HANG_GUARD):
            failure = await _failure(sim, overrides={"timeout_seconds": 4})
        elapsed = time.monotonic() - started
    assert isinstance(failure, RateLimitedError) and failure.retry_after == 2.5
    assert slept == [2.5]  # the first hint fitted the 4 s; the second no longer did
    assert len(sim["gemini"].requests) == 2
    assert elapsed >= 2.5  # the one wait was real (a timer only ends late)


async def test_rate_limited_forever_hands_over_within_the_attempts_time(
    slept: list[float],
) -> None:
    """429 ``Retry-After: 300`` forever with a 240 s attempt: the next provider answers.

    The hint is within Gemini's 300 s retry policy, so only the loop's check against the
    attempt's remaining time refuses it. The hint and the attempt's time are both far
    past the 30 s hang guard, so a search that waited either hangs to it; none is slept.
    """
    async with Simulator(["gemini", "anthropic"]) as sim:
        sim["gemini"].always(Fault.rate_limited(retry_after=RETRY_POLICY_MAX_DELAY))
        overrides = {"timeout_seconds": 240.0, "deadline_seconds": MAX_DEADLINE_SECONDS}
        async with sim_client(sim, **overrides) as ws:
            async with asyncio.timeout(HANG_GUARD):  # waited the hint or the attempt's time
                response = await ws.search(QUERY)
    assert response.provider == "anthropic"
    assert [a.provider for a in response.attempts][:2] == ["gemini", "anthropic"]
    assert (response.attempts[0].outcome, response.attempts[0].status) == ("failed", 429)
    assert len(sim["gemini"].requests) == 1 and len(sim["anthropic"].requests) == 1
    assert slept == []  # the 300 s the server asked for is past the attempt: not waited


# --- faults -----------------------------------------------------------------------------------


async def test_unauthorized_is_not_retried(sim: Simulator) -> None:
    sim["gemini"].enqueue(Fault.unauthorized())
    async with sim_client(sim) as ws:
        result = await ws.run(QUERY, provider="gemini")
    assert result.text == "Error: Gemini authorization failed (401). Check API key or base URL."
    assert len(sim["gemini"].requests) == 1


async def test_invalid_api_key(sim: Simulator) -> None:
    body = _google_error(
        400,
        "API key not valid. Please pass a valid API key.",
        "INVALID_ARGUMENT",
        details=[{"reason": "API_KEY_INVALID", "domain": "googleapis.com"}],
    )
    failure = await _failure(sim, Fault.http(400, body))
    assert isinstance(failure, AuthorizationError)
    assert (failure.status, failure.message) == (
        400,
        "Gemini Developer API error (400): API key not valid. Please pass a valid API key.",
    )
    assert len(sim["gemini"].requests) == 1  # a static key is not refreshed


async def test_hang_is_not_retried(sim: Simulator) -> None:
    failure = await _failure(sim, Fault.hang(seconds=10), overrides={"timeout_seconds": 0.5})
    assert isinstance(failure, ProviderTimeoutError)
    assert failure.message == "Gemini search timed out after 0.5s"
    assert len(sim["gemini"].requests) == 1


async def test_connection_reset_is_retried(sim: Simulator, sleeps: list[float]) -> None:
    sim["gemini"].enqueue(Fault.reset())
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="gemini")
    assert len(sim["gemini"].requests) == 2 and sleeps == [1.0]  # resent after a back-off
    assert response.answer is not None
    sim["gemini"].always(Fault.reset())
    failure = await _failure(sim)
    assert isinstance(failure, ProviderConnectionError)
    assert len(sim["gemini"].requests) == 2 + 4


async def test_malformed_stream(sim: Simulator) -> None:
    failure = await _failure(sim, Fault.malformed())
    assert isinstance(failure, ResponseParseError)
    assert failure.message == "Gemini API returned a stream with no readable chunk"
    assert len(sim["gemini"].requests) == 1


async def test_stream_cut_mid_event_is_retried(sim: Simulator) -> None:
    cut = Fault.http(
        200, 'data: {"candidates": [{"content": {"parts": [{"text": "Hal', EVENT_STREAM
    )
    async with sim_client(sim) as ws:
        sim["gemini"].enqueue(cut)
        response = await ws.search(QUERY, provider="gemini")
    assert response.answer is not None and len(sim["gemini"].requests) == 2
    sim["gemini"].always(cut)
    failure = await _failure(sim)
    assert isinstance(failure, ProviderConnectionError)
    assert failure.message.startswith("Gemini ")
    assert failure.message.endswith("stream ended in the middle of an event")


async def test_empty_grounded_response(sim: Simulator) -> None:
    body = 'data: {"candidates": [{"finishReason": "SAFETY", "index": 0}]}\n\n'
    failure = await _failure(sim, Fault.http(200, body, EVENT_STREAM))
    assert isinstance(failure, EmptyResponseError)
    assert (failure.message, failure.status) == (
        "Gemini API returned an empty grounded response",
        502,
    )


def _captured_events(count: int | None = None) -> str:
    """The real capture's first ``count`` events (all of them by default)."""
    text = read_capture(CAPTURED_STREAM).decode("utf-8").replace("\r\n", "\n")
    events = [chunk for chunk in text.split("\n\n") if chunk.strip()][:count]
    return "".join(f"{event}\n\n" for event in events)


async def test_a_stream_ended_before_its_last_chunk_is_a_failure(sim: Simulator) -> None:
    # The body closes cleanly after five of the capture's ten chunks: half an answer with
    # none of its sources (the last chunk carries them), never to be read as the whole.
    # Failed before (the five chunks' text was the answer).
    failure = await _failure(sim, Fault.http(200, _captured_events(5), EVENT_STREAM))
    assert isinstance(failure, ProviderUnavailableError)
    assert (failure.message, failure.status) == (
        "Gemini API stream ended before its last chunk",
        500,
    )
    assert len(sim["gemini"].requests) == 1  # a reply, not a broken connection: not resent


async def test_the_whole_captured_stream_answers(sim: Simulator) -> None:
    # Guard (passes before and after): the capture's last chunk names its finishReason.
    sim["gemini"].enqueue(Fault.http(200, _captured_events(), EVENT_STREAM))
    async with sim_client(sim) as ws:
        response = await ws.search(QUERY, provider="gemini")
    assert response.answer and response.sources


async def test_an_empty_200_body(sim: Simulator) -> None:
    failure = await _failure(sim, Fault.http(200, ""))
    assert isinstance(failure, ProviderUnavailableError)
    assert failure.message == "Gemini API returned no response body"
