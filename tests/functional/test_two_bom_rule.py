"""One byte-order mark is dropped before JSON is read, and a second is refused.

The reference reads a body with ``fetch``: WHATWG's UTF-8 decode drops one leading mark and
``JSON.parse`` refuses one in its text. ``test_json_bom_rule.py`` made one mark read as
JSON everywhere; two were read too: an error head (decoded with one mark dropped) was then
handed to ``json_loads``, which dropped the second, and a success body in bytes lost its
second mark to ``json.loads``' own ``utf-8-sig`` decode. Now a head is read by
``json_decode.decoded_json`` (no mark dropped again) and bytes led by a second mark are
refused, so two marks are quoted or refused as the reference's ``JSON.parse`` leaves them.

Each case is served by the loopback simulator, the successes from the real captures in
``../shared/fixtures``.
"""

import json
from collections.abc import Iterator
from typing import Any, Final

import pytest

from tests.conftest import read_capture
from tests.functional._sim_helpers import sim_client
from tests.zai_ids import pin_rpc_ids
from websearch_core.models import SearchToolResult
from websearch_core.providers._gemini_time_refusal import forget_refusals
from websearch_core.testing import Fault, Simulator

BOM: Final = "\ufeff"
JSON: Final = {"Content-Type": "application/json"}
ZAI_TOOL_TEXT: Final = "zai/web_search_prime_tool_result_content_json_shape_2026-10.txt"
MCP_READY: Final = {"jsonrpc": "2.0", "id": "1", "result": {"capabilities": {}}}


async def _run(provider_id: str, *faults: Fault) -> SearchToolResult:
    async with Simulator([provider_id]) as sim:
        sim[provider_id].enqueue(*faults)
        async with sim_client(sim) as ws:
            return await ws.run("two marks", provider=provider_id, use_cache=False)


HEADS: Final[list[tuple[str, Any, str]]] = [
    ("tavily", {"detail": {"error": "Bad key"}}, "Tavily API error"),
    ("kagi", {"error": [{"code": 1, "msg": "Bad key"}]}, "Kagi API error"),
    (
        "gemini",
        {"error": {"code": 400, "message": "User location is not supported"}},
        "Gemini Developer API error",
    ),
    ("zai", {"success": False, "code": 1214, "msg": "bad query"}, "Z.AI API error"),
    ("parallel", {"error": {"message": "Bad key"}}, "Parallel API error"),
]
"""Providers that read a message out of a 4xx JSON head, a documented body, the prefix."""


@pytest.mark.parametrize(("provider_id", "body", "prefix"), HEADS)
async def test_an_error_head_led_by_two_marks_is_quoted_not_read(
    provider_id: str, body: Any, prefix: str
) -> None:
    """Failed before: the message was read (each reader dropped a mark of its own)."""
    result = await _run(provider_id, Fault.http(400, 2 * BOM + json.dumps(body), JSON))

    assert result.text == f"Error: {prefix} (400): {BOM}{json.dumps(body)}"


@pytest.mark.parametrize(
    ("capture", "provider_id"),
    [
        ("brave/web_search_laravel_2024.json", "brave"),
        ("kagi/v0_search_doc_example_steve_jobs_2024.json", "kagi"),
    ],
)
async def test_a_success_body_led_by_two_marks_is_invalid_json(
    capture: str, provider_id: str
) -> None:
    """Failed before: ``json.loads`` skipped the second mark in its ``utf-8-sig`` decode."""
    text = read_capture(capture).decode("utf-8")

    one = await _run(provider_id, Fault.http(200, BOM + text, JSON))
    two = await _run(provider_id, Fault.http(200, 2 * BOM + text, JSON))

    assert one.error is None, one.error
    assert two.error is not None
    assert "invalid JSON" in two.text


@pytest.mark.parametrize("double_encoded", [False, True], ids=["json", "json-in-a-string"])
async def test_z_ai_s_tool_text_led_by_two_marks_is_not_json(
    double_encoded: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A guard (held before): the text path dropped one mark and ``json.loads`` refused
    the second, so the text is the answer and no source comes (one mark gives the sources:
    ``test_json_bom_rule.py``)."""
    pin_rpc_ids(monkeypatch, "1", "2")  # the ids the fixed replies answer
    text = 2 * BOM + read_capture(ZAI_TOOL_TEXT).decode("utf-8")
    if double_encoded:
        text = json.dumps(text)
    content = [{"type": "text", "text": text}]
    reply = {"jsonrpc": "2.0", "id": "2", "result": {"content": content}}
    ready = Fault.http(200, json.dumps(MCP_READY), JSON)

    result = await _run("zai", ready, Fault.http(202), Fault.http(200, json.dumps(reply), JSON))

    assert result.response is not None, result.error
    assert result.response.sources == ()
    assert result.response.answer is not None


@pytest.fixture
def _no_refusals(no_gemini_variables: None) -> Iterator[None]:
    forget_refusals()
    yield
    forget_refusals()  # the memory is the process's: no other test may inherit it


@pytest.mark.usefixtures("_no_refusals")
async def test_gemini_s_time_filter_refusal_led_by_one_mark_is_still_read() -> None:
    """A guard (held before): Gemini's refusal checks now read the head
    (``transport.body_head_text``, one mark dropped) where they read ``response.text()``
    (its mark kept, then dropped by ``json_loads``). The field is named through a JSON
    escape, so only the decoded message names it, not the raw text the check falls back to:
    with ``decoded_json`` alone the refusal was missed (checked)."""
    refusal = (
        '{"error": {"code": 400, "message": "Invalid value at '
        "'tools[0].google_search.time\\u005frange\\u005ffilter'\", "
        '"status": "INVALID_ARGUMENT"}}'
    )
    assert "time_range_filter" in json.loads(refusal)["error"]["message"]
    async with Simulator(["gemini"]) as sim:
        sim["gemini"].enqueue(Fault.http(400, BOM + refusal, JSON))
        async with sim_client(sim) as ws:
            response = await ws.search("python asyncio", provider="gemini", recency="year")
        requests = sim["gemini"].requests

    assert len(requests) == 2
    assert requests[1].json()["tools"] == [{"google_search": {}}]
    assert response.answer is not None


async def test_a_searxng_page_led_by_two_marks_is_not_told_as_html() -> None:
    """A guard (held before): ``transport.body_head_text`` drops one mark, so a page led by
    two starts with the second and is not read as HTML (nor as JSON), as the rule reads a
    head everywhere; with one mark the page is told (``test_bom_heads_and_ids.py``)."""
    page = (
        "<!DOCTYPE html><html><head><title>403 Forbidden</title></head>"
        "<body><h1>Forbidden</h1></body></html>"
    )
    html = {"Content-Type": "text/html; charset=utf-8"}

    one = await _run("searxng", Fault.http(403, BOM + page, html))
    two = await _run("searxng", Fault.http(403, 2 * BOM + page, html))

    assert "does not serve the JSON format" in one.text
    assert "does not serve the JSON format" not in two.text
