"""JSON text led by a byte-order mark is read as JSON, wherever it reaches the decoder.

``json.loads`` skips a UTF-8 byte-order mark in bytes and refuses one in text, so a
provider's success body (read from bytes) was read, but the same JSON was not where it is
text first: the head of a 4xx body, decoded to be quoted, lost the message the error text
names (``Tavily API error (400): \\ufeff{"detail": ...}``), and Z.AI's tool text (JSON inside
a JSON string) was taken for prose. The mark is now dropped where the bytes or the text are
decoded (``json_decode.json_loads``, ``transport.error_head``), as the reference's ``fetch``
drops it and as RFC 8259 lets a parser do.

Kagi's ``meta.id`` and Exa's ``requestId`` were passed on untrimmed, where every other
provider's id is read by the field rule. (Kagi's code in a 2xx error entry, read as an HTTP
status after ``str.strip``, which keeps the mark, is driven in ``test_bom_heads_and_ids.py``
beside its label.) Each case is served by the loopback simulator, the successes from the
real captures in ``../shared/fixtures``.
"""

import json
from typing import Any, Final

import pytest

from tests.conftest import read_capture
from tests.functional._sim_helpers import sim_client
from tests.zai_ids import pin_rpc_ids
from websearch_core.models import SearchToolResult
from websearch_core.testing import Fault, Simulator

BOM: Final = "\ufeff"
JSON: Final = {"Content-Type": "application/json"}
MCP_READY: Final = {"jsonrpc": "2.0", "id": "1", "result": {"capabilities": {}}}
"""Z.AI's ``initialize`` reply; the session then takes ``notifications/initialized``."""
ZAI_TOOL_TEXT: Final = "zai/web_search_prime_tool_result_content_json_shape_2026-10.txt"
KAGI: Final = "kagi/v0_search_doc_example_steve_jobs_2024.json"
EXA: Final = "exa/search_doc_example_latest_llm_research.json"


def _bom_json(status: int, body: Any) -> Fault:
    """``body`` as JSON led by the mark (sent as its UTF-8 bytes, EF BB BF)."""
    return Fault.http(status, BOM + json.dumps(body), JSON)


async def _run(provider_id: str, *faults: Fault, keyless: bool = False) -> SearchToolResult:
    async with Simulator([provider_id]) as sim:
        sim[provider_id].enqueue(*faults)
        keys: dict[str, Any] = {"api_keys": {}} if keyless else {}
        async with sim_client(sim, **keys) as ws:
            return await ws.run("bom rule", provider=provider_id, use_cache=False)


MESSAGES: Final[list[tuple[str, int, Any, str]]] = [
    ("tavily", 400, {"detail": {"error": "Bad key"}}, "Tavily API error (400): Bad key"),
    ("kagi", 400, {"error": [{"code": 1, "msg": "Bad key"}]}, "Kagi API error (400): Bad key"),
    (
        "gemini",
        400,
        {"error": {"code": 400, "message": "User location is not supported"}},
        "Gemini Developer API error (400): User location is not supported",
    ),
    (
        "zai",
        400,
        {"success": False, "code": 1214, "msg": "bad query"},
        "Z.AI API error (400): bad query",
    ),
    ("parallel", 400, {"error": {"message": "Bad key"}}, "Parallel API error (400): Bad key"),
]
"""Provider, status, a documented error body, and the error text it must give."""


@pytest.mark.parametrize(("provider_id", "status", "body", "expected"), MESSAGES)
async def test_an_error_body_led_by_a_bom_gives_its_message(
    provider_id: str, status: int, body: Any, expected: str
) -> None:
    """Failed before: the message was not found and the raw body, mark first, was quoted."""
    result = await _run(provider_id, _bom_json(status, body))

    assert result.text == f"Error: {expected}"


QUOTED: Final[list[tuple[str, str]]] = [
    ("brave", "Brave API error (400): "),
    ("firecrawl", "Firecrawl API error (400): "),
    ("serper", "Serper API error (400): "),
]
"""Providers that quote a 4xx JSON body whole, and the text before the quote."""


@pytest.mark.parametrize(("provider_id", "prefix"), QUOTED)
async def test_a_quoted_error_body_does_not_start_with_the_mark(
    provider_id: str, prefix: str
) -> None:
    """Failed before: the quote began with the invisible U+FEFF."""
    body = {"error": "Bad key"}

    result = await _run(provider_id, _bom_json(400, body))

    assert result.text == f"Error: {prefix}{json.dumps(body)}"


@pytest.mark.parametrize("double_encoded", [False, True], ids=["json", "json-in-a-string"])
async def test_z_ai_s_tool_text_led_by_a_bom_gives_its_results(
    double_encoded: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Failed before: the text was not JSON, so it became the answer and no source came."""
    pin_rpc_ids(monkeypatch, "1", "2")  # the ids the fixed replies answer
    text = BOM + read_capture(ZAI_TOOL_TEXT).decode("utf-8")
    if double_encoded:
        text = BOM + json.dumps(text)
    content = [{"type": "text", "text": text}]
    reply = {"jsonrpc": "2.0", "id": "2", "result": {"content": content}}
    ready = Fault.http(200, json.dumps(MCP_READY), JSON)

    result = await _run("zai", ready, Fault.http(202), Fault.http(200, json.dumps(reply), JSON))

    assert result.error is None, result.error
    urls = [source.url for source in result.response.sources]
    assert urls[:2] == [
        "https://www.safe.gov.cn/AppStructured/hlw/RMBQuery.do",
        "https://chl.cn/huilv/?usd",
    ]
    assert result.response.answer is None


@pytest.mark.parametrize("wrap", [" {} ", f"{BOM}{{}}{BOM}", "\u3000{}\n"])
async def test_kagi_s_and_exa_s_request_ids_are_trimmed(wrap: str) -> None:
    """Failed before: the id went on with its spaces or marks (``--json``, the details)."""
    kagi = json.loads(read_capture(KAGI))
    kagi_id = kagi["meta"]["id"]
    kagi["meta"]["id"] = wrap.format(kagi_id)
    exa = json.loads(read_capture(EXA))
    exa_id = exa["requestId"]
    exa["requestId"] = wrap.format(exa_id)

    kagi_result = await _run("kagi", Fault.http(200, json.dumps(kagi), JSON))
    exa_result = await _run("exa", Fault.http(200, json.dumps(exa), JSON))

    assert kagi_result.response.request_id == kagi_id
    assert exa_result.response.request_id == exa_id


async def test_a_success_body_led_by_a_bom_was_already_read() -> None:
    """A guard (held before): a body read from bytes skipped the mark (``json.loads``)."""
    capture = read_capture("brave/web_search_laravel_2024.json").decode("utf-8")
    plain = await _run("brave", Fault.http(200, capture, JSON))

    marked = await _run("brave", Fault.http(200, BOM + capture, JSON))

    assert plain.error is None, plain.error
    assert marked.text == plain.text
