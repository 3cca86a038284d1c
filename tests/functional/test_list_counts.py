"""The text's counts of search queries and related questions are the provider's, not the kept.

§Outputs: ``Search queries: <n>`` (then the first 3) and ``## Related`` with its count.
The cleaning keeps at most ``MAX_LIST_ITEMS`` (20) of each, so the text said
``Search queries: 20`` for a provider that ran 25, and ``20 questions`` for 25. The lists
stay bounded; the counts left out are kept beside them, out of every dump (``--json``
keeps its shape), and the result cache stores them itself.

Real captures (read from the shared fixtures) made to hold 25 entries are served by the
loopback simulator: Gemini's grounding ``webSearchQueries``, Perplexity's
``related_questions``.
"""

import json
from typing import Any, Final

import pytest

from tests.conftest import read_capture
from tests.functional._sim_helpers import sim_client
from websearch_core.cache import dump_response, load_response
from websearch_core.sanitize import MAX_LIST_ITEMS
from websearch_core.testing import Fault, Simulator

ASKED: Final = 25
"""More than ``MAX_LIST_ITEMS``: what the provider sent."""

JSON: Final = {"Content-Type": "application/json"}


def _gemini_with_queries() -> str:
    body: dict[str, Any] = json.loads(
        read_capture("gemini/generate_content_google_search_call1.json")
    )
    grounding = body["candidates"][0]["groundingMetadata"]
    first = grounding["webSearchQueries"][0]
    grounding["webSearchQueries"] = [f"{first} {n}" for n in range(ASKED)]
    return json.dumps(body)


def _perplexity_with_questions() -> str:
    body: dict[str, Any] = json.loads(
        read_capture("perplexity/chat_completions_sonar_citations.json")
    )
    body["related_questions"] = [f"What else happened on day {n}?" for n in range(ASKED)]
    return json.dumps(body)


async def _runs(provider_id: str, body: str, times: int = 1) -> list[Any]:
    """``times`` searches, the first served ``body``; with the cache on, the rest read it."""
    async with Simulator([provider_id]) as sim:
        sim[provider_id].enqueue(Fault.http(200, body, JSON))
        async with sim_client(sim, rate_limit_wait_seconds=0) as ws:
            return [await ws.run("weather in san francisco") for _ in range(times)]


@pytest.mark.usefixtures("no_gemini_variables")
async def test_search_queries_count_is_the_providers() -> None:
    fresh, cached = await _runs("gemini", _gemini_with_queries(), times=2)

    for result in (fresh, cached):
        assert result.error is None, result.error
        assert f"Search queries: {ASKED}\n" in result.text
        assert len(result.response.search_queries) == MAX_LIST_ITEMS
        shown = result.text.split(f"Search queries: {ASKED}\n")[1].splitlines()
        assert len(shown) == 3 and all(line.startswith("- ") for line in shown)
    assert cached.response.cached


async def test_related_questions_count_is_the_providers() -> None:
    fresh, cached = await _runs("perplexity", _perplexity_with_questions(), times=2)

    for result in (fresh, cached):
        assert result.error is None, result.error
        assert f"\n## Related\n{ASKED} questions\n" in result.text
        assert len(result.response.related_questions) == MAX_LIST_ITEMS
        assert result.text.count("\n- What else happened on day") == MAX_LIST_ITEMS
    assert cached.response.cached


@pytest.mark.usefixtures("no_gemini_variables")
async def test_json_keeps_its_shape() -> None:
    """Guard: the counts are out of the public dump (``--json``), as ``notes_left_out`` is."""
    (result,) = await _runs("gemini", _gemini_with_queries())

    dumped = json.loads(result.response.model_dump_json())

    assert len(dumped["search_queries"]) == MAX_LIST_ITEMS
    assert not any(key.endswith("_left_out") for key in dumped)


@pytest.mark.usefixtures("no_gemini_variables")
async def test_a_row_written_before_the_counts_still_reads() -> None:
    """A cache row without the counts (an older release's) reads, its lists as kept, 0 cut."""
    (result,) = await _runs("gemini", _gemini_with_queries())
    row = json.loads(dump_response(result.response))
    row.pop("related_questions_left_out", None), row.pop("search_queries_left_out", None)

    loaded = load_response(json.dumps(row).encode())

    assert loaded is not None
    assert loaded.search_queries == result.response.search_queries
    assert loaded.search_queries_left_out == 0
