"""A provider's error message, code and request id are trimmed by the one field rule.

The readers of a message in an error body (Tavily's ``detail|error|message``, Kagi's
``error``, Firecrawl's ``error``, Z.AI's ``msg``, Gemini's ``error.message``, Exa's MCP
error), of an error code (Kagi's, Z.AI's, Codex's) and of Z.AI's request id used
``str.strip``, which keeps U+FEFF where the spec's ``trim()`` strips it: a message of a
lone byte-order mark was taken as the message, so the error read ``... (400): `` and
nothing, and a BOM at a message's ends stayed in the text a model reads. Kagi's other
messages and the other providers' ids were already read by the field rule
(:func:`websearch_core.js_trim.trim`), which these now share.

Each failure is served by the loopback simulator with the provider's documented error
shape; the request id by Z.AI's real documentation capture in ``../shared/fixtures``.
"""

import json
from typing import Any, Final

import pytest

from tests.conftest import read_capture
from tests.functional._sim_helpers import codex_sign_in, failure_after, sim_client
from tests.zai_ids import pin_rpc_ids
from websearch_core.errors import CreditsSpentError
from websearch_core.models import SearchToolResult
from websearch_core.testing import Fault, Simulator

BOM: Final = "\ufeff"
JSON: Final = {"Content-Type": "application/json"}
MCP_READY: Final = {"jsonrpc": "2.0", "id": "1", "result": {"capabilities": {}}}
"""Z.AI's ``initialize`` reply; the session then takes ``notifications/initialized``."""


@pytest.fixture(autouse=True)
def _zai_ids_match_the_replies(monkeypatch: pytest.MonkeyPatch) -> None:
    """Z.AI's calls go with the ids its fixed replies answer (it reads its own id's reply)."""
    pin_rpc_ids(monkeypatch, "1", "2")


def _json(status: int, body: Any) -> Fault:
    return Fault.http(status, json.dumps(body), JSON)


async def _run(provider_id: str, *faults: Fault, keyless: bool = False) -> SearchToolResult:
    async with Simulator([provider_id]) as sim:
        sim[provider_id].enqueue(*faults)
        keys: dict[str, Any] = {"api_keys": {}} if keyless else {}
        async with sim_client(sim, **keys) as ws:
            return await ws.run("trim rule", provider=provider_id, use_cache=False)


async def _zai_reply(reply: dict[str, Any]) -> SearchToolResult:
    """Z.AI's answer when its ``tools/call`` reply (plain JSON) is ``reply``."""
    return await _run("zai", _json(200, MCP_READY), Fault.http(202), _json(200, reply))


ERROR_TEXTS: Final[list[tuple[str, int, Any, str]]] = [
    ("tavily", 400, {"detail": {"error": f"{BOM}Bad key{BOM}"}}, "Tavily API error (400): Bad key"),
    (
        "tavily",
        400,
        {"detail": BOM, "message": "Invalid country"},
        "Tavily API error (400): Invalid country",
    ),
    ("kagi", 400, {"error": f"{BOM}Bad key\n"}, "Kagi API error (400): Bad key"),
    ("kagi", 400, {"error": [{"code": f"{BOM}7", "msg": ""}]}, "Kagi API error (400): 7"),
    ("firecrawl", 200, {"success": False, "error": f"{BOM}Nope{BOM}"}, "Nope"),
    ("firecrawl", 200, {"success": False, "error": BOM}, "Firecrawl request failed"),
    (
        "gemini",
        400,
        {"error": {"code": 400, "message": f"{BOM}User location is not supported{BOM}"}},
        "Gemini Developer API error (400): User location is not supported",
    ),
]
"""Provider, status, body, and the error text it must give."""


@pytest.mark.parametrize(("provider_id", "status", "body", "expected"), ERROR_TEXTS)
async def test_a_message_is_trimmed_and_a_bom_alone_is_no_message(
    provider_id: str, status: int, body: Any, expected: str
) -> None:
    """Failed before: the BOMs stayed in the text, or a lone one was the whole message."""
    result = await _run(provider_id, _json(status, body))

    assert result.text == f"Error: {expected}"


async def test_z_ai_s_refusal_keeps_its_words_without_the_marks() -> None:
    """Failed before: ``Z.AI API error (401): \\ufefftoken expired``."""
    body = json.dumps({"success": False, "code": 401, "msg": f"{BOM}token expired{BOM}"})

    result = await _run("zai", Fault.unauthorized(body))

    assert result.text == "Error: Z.AI API error (401): token expired"


async def test_z_ai_s_in_band_failure_moves_past_a_bom_to_its_message() -> None:
    """Failed before: the reply's ``msg`` of a BOM was taken over its ``message``."""
    reply = {"jsonrpc": "2.0", "id": "2", "success": False, "code": 500, "msg": BOM}

    result = await _zai_reply({**reply, "message": "Upstream busy"})

    assert result.text == "Error: Z.AI API error (500): Upstream busy"


async def test_exa_s_mcp_error_of_a_bom_shows_the_error_object() -> None:
    """Failed before: ``MCP error: `` and the invisible mark, no words at all."""
    reply = {"jsonrpc": "2.0", "id": "x", "error": {"code": -32000, "message": BOM}}

    result = await _run("exa", _json(200, reply), keyless=True)

    assert result.text == 'Error: MCP error: {"code": -32000, "message": "\\ufeff"}'


async def test_a_tool_error_s_text_loses_the_marks() -> None:
    """Failed before: Exa's and Z.AI's ``isError`` tool text kept a BOM at its ends."""
    content = [{"type": "text", "text": f"{BOM}Tool failed\n{BOM}"}]
    result = {"isError": True, "content": content}

    exa = await _run(
        "exa", _json(200, {"jsonrpc": "2.0", "id": "x", "result": result}), keyless=True
    )
    replies = [_json(200, {"jsonrpc": "2.0", "id": "2", "result": result})] * 3
    zai = await _run("zai", _json(200, MCP_READY), Fault.http(202), *replies)  # each shape

    assert (exa.text, zai.text) == ("Error: Tool failed", "Error: Tool failed")


async def test_z_ai_s_arrears_code_is_read_past_a_bom() -> None:
    """Failed before: the business code kept its BOM, so 1113 (an account in arrears, a
    spent balance) was not known and the 429 was a rate limit, asked again."""
    error = {"code": f"{BOM}1113", "message": "Your account is in arrears, please recharge"}
    async with Simulator(["zai"]) as sim:
        failure = await failure_after(
            sim, "zai", "trim rule", _json(429, {"error": error}), cache=False
        )

    assert isinstance(failure, CreditsSpentError)


async def test_z_ai_s_request_id_loses_the_marks() -> None:
    """Failed before: ``request_id`` (in ``--json`` and the details) began with the BOM."""
    capture = json.loads(read_capture("zai/web_search_api_doc_example_2025.json"))
    request_id = capture["request_id"]
    capture["request_id"] = f"{BOM}{request_id}{BOM}"
    content = [{"type": "text", "text": json.dumps(capture)}]

    result = await _zai_reply({"jsonrpc": "2.0", "id": "2", "result": {"content": content}})

    assert result.error is None, result.error
    assert result.response.request_id == request_id


async def test_codex_s_spent_balance_code_is_read_past_a_bom() -> None:
    """Failed before: the code kept its BOM and matched no billing code, so the spent
    balance was a plain exhausted quota (``QuotaExhaustedError``), never re-checked."""
    code = f"{BOM}credit_balance_exhausted"
    body = json.dumps({"error": {"code": code, "message": "You exceeded your quota."}})
    async with Simulator(["codex"]) as sim:
        codex_sign_in(sim, refresh_token=None)
        error = await failure_after(
            sim, "codex", "trim rule", Fault.http(429, body), always=True, cache=False
        )

    assert isinstance(error, CreditsSpentError)


async def test_kagi_s_listed_message_was_already_trimmed() -> None:
    """A guard (held before): Kagi's ``[{msg}]`` was read by the field rule already."""
    result = await _run("kagi", _json(400, {"error": [{"code": 1, "msg": f"{BOM}Bad{BOM}"}]}))

    assert result.text == "Error: Kagi API error (400): Bad"
