"""Public Web's counts when several engines each report theirs, through the simulator.

Public Web sums what its engines say: each engine's notes (its engines that did not
answer, for a SearXNG-like engine) are kept within the one bound of 20, and the counts of
those each engine's own cut left out are added to what the merge leaves out, said once,
last. Its answer is ``{provider, sources}`` (reference 8.23): an engine's related questions
and search queries are not merged, so no ``## Related`` or ``Search queries: <n>`` count
appears, however many each engine had.

No built-in credential-free engine sends notes or lists, so the engines here are two
SearXNG engines (the real adapter, the second under its own id on its own simulated
server), each serving SearXNG's real capture from ``../shared/fixtures`` with its
unresponsive engines and suggestions made many. A: 200 engines that did not answer and 25
suggestions; B: 150 and 30.
"""

import json
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Any, Final
from urllib.parse import urlsplit

import pytest

from tests.conftest import read_capture
from websearch_core import SearchToolResult, WebSearch
from websearch_core import providers as registry
from websearch_core.models import SearchParams
from websearch_core.note_bound import MAX_NOTES, notes_left_out
from websearch_core.providers.base import HttpRequest, ProviderContext
from websearch_core.providers.public import PublicProvider
from websearch_core.providers.searxng import SearxngProvider
from websearch_core.testing import Fault, SimulatedProvider, Simulator
from websearch_core.testing.protocols.searxng import SearxngProtocol

CAPTURE: Final = "searxng/search_format_json_espresso_2026.json"
QUERY: Final = "espresso grind size"
OTHER: Final = "searxng-b"
JSON: Final = {"Content-Type": "application/json"}
DID_NOT_ANSWER: Final = "SearXNG engine did not answer: "

_ORIGINS: dict[str, str] = {}
"""The second engine's simulated server, set by the fixture (no ``base_urls`` entry may
name an id that is not registered, so it sends there itself)."""


class _OtherSearxng(SearxngProvider):
    """The real SearXNG adapter under another id, sending to its own simulated server."""

    info = replace(SearxngProvider.info, id=OTHER, label="SearXNG B")

    def build_request(self, params: SearchParams, context: ProviderContext) -> HttpRequest:
        request = super().build_request(params, context)
        return replace(request, url=_ORIGINS[OTHER] + urlsplit(request.url).path)


def _body(unanswered: int, suggestions: int, tag: str) -> str:
    body: dict[str, Any] = json.loads(read_capture(CAPTURE))
    body["unresponsive_engines"] = [[f"{tag}{n}", "timeout"] for n in range(unanswered)]
    body["suggestions"] = [f"{tag} suggestion {n}" for n in range(suggestions)]
    return json.dumps(body)


@pytest.fixture
async def sim(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Simulator]:
    simulator = Simulator(["searxng"])
    simulator.providers[OTHER] = SimulatedProvider(OTHER, SearxngProtocol())
    async with simulator:
        _ORIGINS[OTHER] = simulator[OTHER].base_url
        simulator["searxng"].always(Fault.http(200, _body(200, 25, "a"), JSON))
        simulator[OTHER].always(Fault.http(200, _body(150, 30, "b"), JSON))
        engines = [registry.get_provider("searxng"), _OtherSearxng()]
        public = PublicProvider(soft_deadline_seconds=5, hard_deadline_seconds=10, engines=engines)
        monkeypatch.setitem(registry._instances, "public", public)
        yield simulator
    _ORIGINS.clear()


async def _public(sim: Simulator, **params: Any) -> SearchToolResult:
    urls = {pid: url for pid, url in sim.base_urls().items() if pid != OTHER}
    settings = sim.settings(base_urls=urls, rate_limit_wait_seconds=0)
    async with WebSearch(settings) as search:
        return await search.run(QUERY, provider="public", use_cache=False, **params)


async def test_each_engine_s_left_out_notes_are_summed_once_last(sim: Simulator) -> None:
    """A guard (held before): 350 notes in all, 19 kept, ``331 more notes were left out.``"""
    result = await _public(sim)

    assert result.error is None, result.text[:300]
    notes = result.response.notes
    assert len(notes) == MAX_NOTES
    assert notes[:-1] == tuple(f"{DID_NOT_ANSWER}a{n}: timeout" for n in range(MAX_NOTES - 1))
    assert notes[-1] == notes_left_out(200 + 150 - (MAX_NOTES - 1))
    assert result.response.notes_left_out == 331
    said = result.to_metadata()["response"]["notes"]
    assert sum(note.endswith(" more notes were left out.") for note in said) == 1


async def test_engines_lists_and_their_counts_are_not_merged(sim: Simulator) -> None:
    """A guard (held before): 25 and 30 suggestions, no ``## Related`` and no count.

    Reference 8.23: Public Web's output is ``{provider, sources}``; an engine's related
    questions (SearXNG's suggestions) are its own, and no count of them is said.
    """
    result = await _public(sim)

    response = result.response
    assert response.related_questions == () and response.related_questions_left_out == 0
    assert response.search_queries == () and response.search_queries_left_out == 0
    assert "## Related" not in result.text and "Search queries:" not in result.text
    assert " suggestion " not in result.text


async def test_a_filter_s_empty_answer_says_the_notes_within_the_bound_and_the_sum(
    sim: Simulator,
) -> None:
    """Failed before: the error listed 38 engines' notes and none of the 312 left out.

    Every result fails ``include_domains``; the error says so, then the notes as an answer
    would hold them: 19 of them, then the count of the rest, summed over both engines'
    cuts (181 and 131) and what the merge leaves out (19), as a single SearXNG says its own.
    """
    result = await _public(sim, include_domains=["nowhere.example"])

    assert result.error is not None
    head, _, reasons = result.text.partition("include_domains dropped ")
    assert head == "Error: Public Web returned no results matching the filters ("
    sentences = reasons.split(". ")
    unanswered = [s for s in sentences if s.startswith(DID_NOT_ANSWER)]
    assert unanswered == [f"{DID_NOT_ANSWER}a{n}: timeout" for n in range(MAX_NOTES - 1)]
    assert result.text.endswith(f" {notes_left_out(331)}")
    assert result.text.count(" more notes were left out.") == 1


async def test_an_engine_that_failed_is_noted_first_and_the_rest_counted(
    sim: Simulator,
) -> None:
    """A guard (held before): B fails; its note first, 18 of A's, the other 182 counted."""
    sim[OTHER].always(Fault.server_error())

    result = await _public(sim)

    assert result.error is None, result.text[:300]
    notes = result.response.notes
    assert result.response.partial and len(notes) == MAX_NOTES
    assert notes[0].startswith(f"Engines that did not answer: {OTHER}: ")
    assert notes[1:-1] == tuple(f"{DID_NOT_ANSWER}a{n}: timeout" for n in range(MAX_NOTES - 2))
    assert notes[-1] == notes_left_out(200 - (MAX_NOTES - 2))
