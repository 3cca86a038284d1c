"""A query is blank as the spec's JavaScript ``trim()`` judges it, at every entry point.

The blank check used ``str.strip``, which keeps U+FEFF: a query of a byte-order mark
(the first character of a file saved with one, piped in as the query) was sent to the
provider as a search for nothing, where ``""`` and ``"  "`` are refused with the spec's
words before any request. ``trim()`` strips U+FEFF and keeps U+001C..U+001F and U+0085,
which ``str.strip`` strips; those are controls, refused by name as they were.
"""

from collections.abc import AsyncIterator
from typing import Any, Final

import pytest
from pydantic import ValidationError

from langchain_websearch import WebSearchTool
from llamaindex_websearch import create_web_search_tool
from tests.functional._sim_helpers import sim_client
from websearch_core.cli import EXIT_USAGE, main
from websearch_core.models import SearchParams
from websearch_core.testing import Simulator

BLANK: Final = "query must not be empty or only whitespace"
BOM_QUERIES: Final = ("\ufeff", " \ufeff\u3000", "\ufeff\n\ufeff\t")
"""Nothing but what ``trim()`` strips, a byte-order mark among it."""


@pytest.fixture
async def sim() -> AsyncIterator[Simulator]:
    async with Simulator(["brave"]) as simulator:
        yield simulator


def _query_error(error: ValidationError) -> str:
    (only,) = error.errors()
    assert only["loc"] == ("query",)
    return str(only["msg"])


@pytest.mark.parametrize("query", BOM_QUERIES)
async def test_a_query_of_a_bom_is_refused_before_any_request(sim: Simulator, query: str) -> None:
    """Failed before: the search went out and Brave was asked for ``"\\ufeff"``."""
    async with sim_client(sim) as ws:
        for call in (ws.search, ws.run):
            with pytest.raises(ValidationError) as caught:
                await call(query, provider="brave")
            assert _query_error(caught.value) == f"Value error, {BLANK}"
    assert sim["brave"].requests == []


async def test_the_tools_answer_the_model_in_the_spec_s_words(sim: Simulator) -> None:
    """Failed before: both tools searched for the mark and answered with Brave's results."""
    keys: dict[str, Any] = {"settings": sim.settings(), "api_keys": sim.api_keys()}
    texts = [
        str(await WebSearchTool(**keys).ainvoke({"query": "\ufeff"})),
        str(await create_web_search_tool(**keys).acall(query=" \ufeff ")),
    ]
    for text in texts:
        # The line names the field once (firstusers25: ``query: query must not ...``).
        said = BLANK.removeprefix("query ")
        assert text == f"Error: invalid web_search arguments: query: {said}", text
    assert sim["brave"].requests == []


def test_the_command_refuses_it_as_usage(
    sim: Simulator, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Failed before: ``websearch $'\\ufeff'`` searched and printed Brave's results."""
    monkeypatch.setenv("BRAVE_API_KEY", sim.api_keys()["brave"])
    monkeypatch.setenv("WEBSEARCH_BASE_URLS", f'{{"brave": "{sim["brave"].base_url}"}}')

    assert main(["\ufeff", "--provider", "brave"]) == EXIT_USAGE

    said = BLANK.removeprefix("query ")  # the field named once (firstusers25)
    assert capsys.readouterr().err == f"websearch: query: {said}\n"
    assert sim["brave"].requests == []


@pytest.mark.parametrize("query", ["\x1c", " \x1f\u3000", "\x85", "\ufeff\x1e"])
def test_a_separator_alone_is_named_as_a_control(query: str) -> None:
    """A guard (held before): ``str.strip`` took these for whitespace, ``trim()`` does not;
    either way they are controls no search reads, named with their place, not as blank."""
    with pytest.raises(ValidationError) as caught:
        SearchParams(query=query)

    message = _query_error(caught.value)
    assert message.startswith("Value error, query holds a control character (U+00")
    assert BLANK not in message


@pytest.mark.parametrize("query", ["\ufeffrust", "rust \ufeff", "\u200b"])
async def test_a_bom_beside_text_and_other_invisibles_are_sent_as_written(
    sim: Simulator, query: str
) -> None:
    """A guard (held before): the query is passed to providers unchanged; only a query
    with nothing but ``trim()``'s whitespace is blank (U+200B is none of it)."""
    async with sim_client(sim) as ws:
        await ws.run(query, provider="brave", use_cache=False)

    (request,) = sim["brave"].requests
    assert request.query_dict()["q"] == query


async def test_parallel_s_cut_keywords_lose_a_bom_the_objective_keeps() -> None:
    """Failed before: a query over Parallel's 200-character keyword limit was trimmed by
    ``str.strip`` before the cut, so the keyword form began with the BOM the blank check
    now calls whitespace; the objective is the query as written."""
    terms = " ".join(f"term{i:03d}" for i in range(60))  # 479 characters
    query = f"\ufeff {terms} \ufeff"
    async with Simulator(["parallel"]) as simulator:
        async with sim_client(simulator) as ws:
            await ws.run(query, provider="parallel", use_cache=False)
        body = simulator["parallel"].requests[0].json()

    assert body["objective"] == query
    assert body["search_queries"] == [" ".join(f"term{i:03d}" for i in range(25))]
