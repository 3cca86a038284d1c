"""A provider's error code is written into its error text as the reference writes it.

The reference builds these texts with JavaScript template literals, so a code that is not
the string or integer the docs promise reads by JavaScript's ``String``: ``true`` (not
Python's ``True``), the JSON number ``429.0`` as ``429`` (``JSON.parse`` keeps no point),
an object as ``[object Object]``, an array joined by commas. Ours wrote Python's ``str``:
``Codex error (True)``, ``Jina API response reported failure (401.0)``, and with no code at
all ``Codex error (None)`` and ``Z.AI API error (None)``, where the reference writes
``Codex error ()`` (``code ?? ""``) and ``Z.AI API error: <msg>`` (the parentheses only for
a numeric code). A Codex error event whose code was an object or an array failed the
search as ``unhashable type: 'dict'``.

Each case goes through ``WebSearch.run`` against the loopback simulator. The Z.AI and Codex
replies are hand-made in the services' shapes (no capture holds such a code).
"""

import json
import time
from typing import Any, Final

import pytest

from tests.functional._sim_helpers import failure_after, sim_client
from websearch_core.credentials import CredentialStore, OAuthToken
from websearch_core.errors import (
    AuthorizationError,
    CreditsSpentError,
    QuotaExhaustedError,
    RateLimitedError,
)
from websearch_core.testing import Fault, Simulator

QUERY: Final = "population of san francisco"
STREAM: Final = {"Content-Type": "text/event-stream"}
JSON: Final = {"Content-Type": "application/json"}


def _event(message: dict[str, Any]) -> str:
    """One message as an SSE event, named by its ``type`` where it has one."""
    return f"event: {message.get('type', 'message')}\ndata: {json.dumps(message)}\n\n"


async def _codex_text(event: dict[str, Any]) -> str:
    async with Simulator(["codex"]) as sim:
        CredentialStore(sim.settings().resolved_credentials_file()).set_oauth(
            "codex", OAuthToken(access_token="sim-token", expires_at=time.time() + 3600)
        )
        sim["codex"].always(Fault.http(200, _event(event), STREAM))
        async with sim_client(sim, rate_limit_wait_seconds=0, cache=False) as ws:
            return (await ws.run(QUERY, provider="codex")).text


CODEX: Final = [
    pytest.param({}, "Codex error (): boom", id="error-no-code"),
    pytest.param({"code": True}, "Codex error (true): boom", id="error-true"),
    pytest.param({"code": 429.0}, "Codex error (429): boom", id="error-429.0"),
    pytest.param({"code": {"a": 1}}, "Codex error ([object Object]): boom", id="error-object"),
    pytest.param({"code": [1, [2]]}, "Codex error (1,2): boom", id="error-array"),
]
"""An ``error`` event's code and the text it gives: each failed before (``(None)``,
``(True)``, ``(429.0)``, and ``unhashable type`` for the object and the array)."""


@pytest.mark.parametrize(("code", "text"), CODEX)
async def test_codex_s_error_event_writes_its_code_as_javascript(
    code: dict[str, Any], text: str
) -> None:
    """See :data:`CODEX`."""
    result = await _codex_text({"type": "error", "message": "boom", **code})

    assert result == f"Error: {text}"


@pytest.mark.parametrize(
    ("code", "text"),
    [
        pytest.param({"code": True}, "Codex request failed (true): boom", id="true"),
        pytest.param({"code": ["x"]}, "Codex request failed (x): boom", id="array"),
    ],
)
async def test_codex_s_failed_response_writes_its_code_as_javascript(
    code: dict[str, Any], text: str
) -> None:
    """Failed before: ``(True)``, and ``unhashable type: 'list'`` for the array."""
    failed = {"type": "response.failed", "response": {"error": {"message": "boom", **code}}}

    assert await _codex_text(failed) == f"Error: {text}"


async def test_codex_s_string_code_reads_as_before() -> None:
    """A guard (held before): a code in text is written as it came."""
    result = await _codex_text({"type": "error", "code": "server_error", "message": "boom"})

    assert result == "Error: Codex error (server_error): boom"


async def _zai_failure(message: dict[str, Any]) -> Exception:
    body = _event(message)
    async with Simulator(["zai"]) as sim:
        # Each argument shape is answered alike (a 400 tries the next).
        fault = Fault.http(200, body, STREAM)
        return await failure_after(sim, "zai", QUERY, None, None, fault, fault, fault)


ZAI: Final = [
    pytest.param({"success": False, "msg": "m"}, "Z.AI API error: m", id="envelope-no-code"),
    pytest.param(
        {"success": False, "msg": "m", "code": None}, "Z.AI API error: m", id="envelope-null"
    ),
    pytest.param(
        {"success": False, "msg": "m", "code": True}, "Z.AI API error: m", id="envelope-true"
    ),
    pytest.param(
        {"jsonrpc": "2.0", "id": None, "error": {"message": "m"}},
        "Z.AI MCP error: m",
        id="rpc-no-code",
    ),
    pytest.param(
        {"jsonrpc": "2.0", "id": None, "error": {"message": "m", "code": True}},
        "Z.AI MCP error (true): m",
        id="rpc-true",
    ),
    pytest.param(
        {"jsonrpc": "2.0", "id": None, "error": {"message": "m", "code": -32600.0}},
        "Z.AI MCP error (-32600): m",
        id="rpc-float",
    ),
]
"""A Z.AI reply and its error text: each failed before (``(None)``, ``(True)``,
``(-32600.0)``)."""


@pytest.mark.parametrize(("message", "text"), ZAI)
async def test_zai_s_error_writes_its_code_as_the_reference(
    message: dict[str, Any], text: str
) -> None:
    """See :data:`ZAI`."""
    failure = await _zai_failure(message)

    assert str(failure) == text


async def test_zai_s_whole_float_business_code_is_that_code() -> None:
    """Failed before: ``1113.0`` (a spent balance, as 1113) read ``Z.AI API error (1113.0)``
    and typed by no business code."""
    failure = await _zai_failure({"success": False, "msg": "Insufficient", "code": 1113.0})

    assert isinstance(failure, CreditsSpentError)
    assert str(failure) == "Z.AI API error (1113): Insufficient"


async def test_zai_s_numeric_code_reads_as_before() -> None:
    """A guard (held before): an integer code is written as it came, typed as before."""
    failure = await _zai_failure({"success": False, "msg": "Slow down", "code": 429})

    assert isinstance(failure, RateLimitedError)
    assert str(failure) == "Z.AI API error (429): Slow down"


async def _jina_failure(code: Any) -> Exception:
    body = json.dumps({"code": code, "status": code, "data": []})
    async with Simulator(["jina"]) as sim:
        fault = Fault.http(200, body, JSON)
        return await failure_after(sim, "jina", QUERY, fault, always=True, cache=False)


async def test_jina_s_reported_failure_writes_true_as_javascript() -> None:
    """Failed before: ``Jina API response reported failure (True)``."""
    failure = await _jina_failure(True)

    assert str(failure) == "Jina API response reported failure (true)"


async def test_jina_s_whole_float_status_code_is_that_status() -> None:
    """Failed before (a plain failure, ``reported failure (401.0)``): JSON's ``401.0`` is
    the number 401, so it fails as the integer code does (a guard beside it: that text)."""
    failure = await _jina_failure(401.0)

    assert isinstance(failure, AuthorizationError)
    assert str(failure) == str(await _jina_failure(401))


async def _ask_failure(event: dict[str, Any]) -> Exception:
    async with Simulator(["perplexity"]) as sim:
        fault = Fault.http(200, _event(event), STREAM)
        return await failure_after(sim, "perplexity", QUERY, fault, api_keys={}, cache=False)


@pytest.mark.parametrize(
    ("code", "text"),
    [pytest.param(429.0, "429", id="429.0"), pytest.param(True, "true", id="true")],
)
async def test_perplexity_ask_s_error_code_without_a_message_reads_as_javascript(
    code: Any, text: str
) -> None:
    """Failed before: ``Perplexity ask stream error: 429.0`` / ``True``; the reference
    writes ``error_message ?? error_code`` into its text."""
    failure = await _ask_failure({"error_code": code})

    assert str(failure) == f"Perplexity ask stream error: {text}"


async def test_perplexity_ask_s_text_code_reads_as_before() -> None:
    """A guard (held before): a code in text, no message, is written as it came."""
    failure = await _ask_failure({"error_code": "QUERY_BLOCKED"})

    assert str(failure) == "Perplexity ask stream error: QUERY_BLOCKED"


async def _zai_http_failure(code: Any) -> Exception:
    body = json.dumps({"error": {"code": code, "message": "Account check"}})
    async with Simulator(["zai"]) as sim:
        return await failure_after(sim, "zai", QUERY, Fault.http(429, body))


async def test_zai_s_http_body_whole_float_business_code_is_that_code() -> None:
    """Failed before: an HTTP 429 body's code ``1113.0`` matched no business code, so a
    spent balance read as a rate limit; JSON's ``1113.0`` is 1113, typed as 1113 is."""
    failure = await _zai_http_failure(1113.0)

    assert type(failure) is type(await _zai_http_failure(1113))
    assert isinstance(failure, QuotaExhaustedError)


async def _perplexity_stream_failure(code: Any) -> Exception:
    error = {"error": {"code": code, "message": "slow down"}}
    async with Simulator(["perplexity"]) as sim:
        fault = Fault.http(200, _event(error), STREAM)
        return await failure_after(sim, "perplexity", QUERY, fault, always=True, cache=False)


async def test_perplexity_s_stream_error_whole_float_code_is_its_status() -> None:
    """Failed before: ``Perplexity API error (500): slow down``; ``429.0`` is the number
    429 to the reference, so the status the error carries is 429, as for ``429``."""
    failure = await _perplexity_stream_failure(429.0)

    assert str(failure) == "Perplexity API error (429): slow down"
    assert str(failure) == str(await _perplexity_stream_failure(429))
