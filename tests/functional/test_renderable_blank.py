"""§Flow 6: an answer or question that JavaScript's ``trim()`` empties is nothing to render.

The spec rejects a response with no renderable content as a 204 so the loop moves on; the
reference's test is ``answer.trim()`` non-empty, or a related question or search query
non-blank. ``String.prototype.trim`` strips U+FEFF (ZERO WIDTH NO-BREAK SPACE, a stray
byte-order mark), which Python's ``str.strip`` keeps: an answer of a lone BOM was taken
as the search's answer, a text that reads as nothing, and the next provider never asked.

Each body is a real capture (read from the shared fixtures) with its results taken out
and one field left holding only such characters, served by the loopback simulator.
"""

import json
from typing import Any

import pytest

from tests.conftest import read_capture
from tests.functional._sim_helpers import sim_client
from websearch_core.testing import Fault, Simulator

JSON = {"Content-Type": "application/json"}
BOM = "\ufeff"


def _tavily_answering(answer: str) -> dict[str, Any]:
    """Tavily's real capture with no results and ``answer`` as its only content."""
    body = json.loads(read_capture("tavily/search_basic_pydantic_ai.json"))
    body["results"] = []
    body["answer"] = answer
    return dict(body)


async def test_an_answer_of_a_lone_bom_is_no_content_and_the_chain_moves_on() -> None:
    async with Simulator(["tavily", "brave"]) as sim:
        sim["tavily"].enqueue(Fault.http(200, json.dumps(_tavily_answering(BOM)), JSON))
        async with sim_client(sim, providers=["tavily", "brave"]) as ws:
            result = await ws.run("what is pydantic ai", use_cache=False)

    assert result.error is None, result.error
    assert result.response.provider == "brave"
    assert [a.provider for a in result.response.attempts] == ["tavily", "brave"]
    assert result.response.attempts[0].status == 204


async def test_an_answer_of_a_lone_bom_alone_is_the_spec_no_content_text() -> None:
    async with Simulator(["tavily"]) as sim:
        sim["tavily"].enqueue(Fault.http(200, json.dumps(_tavily_answering(f" {BOM}\n")), JSON))
        async with sim_client(sim) as ws:
            result = await ws.run("what is pydantic ai", provider="tavily", use_cache=False)

    assert result.text == "Error: Tavily returned no renderable search content."


async def test_related_questions_of_a_lone_bom_are_no_content() -> None:
    body = json.loads(read_capture("searxng/search_format_json_espresso_2026.json"))
    body["results"] = []
    body["unresponsive_engines"] = []  # else that is the failure, before the 204
    body["suggestions"] = [BOM, f"{BOM} {BOM}"]
    async with Simulator(["searxng"]) as sim:
        sim["searxng"].enqueue(Fault.http(200, json.dumps(body), JSON))
        async with sim_client(sim) as ws:
            result = await ws.run("espresso grind size", provider="searxng", use_cache=False)

    assert result.text == "Error: SearXNG returned no renderable search content."


@pytest.mark.parametrize("answer", ["\u200b", f"{BOM}x"])
async def test_guard_an_answer_trim_leaves_something_of_is_content(answer: str) -> None:
    """Guard: JavaScript's ``trim()`` keeps U+200B (not white space there) and any letter."""
    async with Simulator(["tavily"]) as sim:
        sim["tavily"].enqueue(Fault.http(200, json.dumps(_tavily_answering(answer)), JSON))
        async with sim_client(sim) as ws:
            result = await ws.run("what is pydantic ai", provider="tavily", use_cache=False)

    assert result.error is None, result.error
    assert result.response.answer is not None and answer.strip(BOM) in result.response.answer
