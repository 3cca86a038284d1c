"""A ``filetype:`` no filter can read is refused, naming the word, not sent as plain text.

Stop 50 (inputs50) refused a ``site:`` whose value the domain lists refuse, as engines read
it as their operator; ``filetype:`` had the same gap. A value that is no one extension
(``filetype:pdf,docx``, ``filetype:pdf/docx``, ``filetype:.tar.gz``) stayed plain text,
filtering nothing of ours, and the simulated Brave and DuckDuckGo, reading ``filetype:`` as
the real ones do, kept the search to an extension no page has: the search failed as the
engine's (``Brave returned no renderable search content``). Now it is refused before any
request; a quoted or negated word, ``filetype:`` with a space and ``ext:`` stay words.
"""

from collections.abc import AsyncIterator

import pytest
from pydantic import ValidationError

from tests.functional._sim_helpers import sim_client
from websearch_core.models import SearchParams
from websearch_core.testing import Simulator
from websearch_core.testing.simulator import SimResult

_REFUSED = [
    # (the query, the word named, the value named)
    ("report filetype:pdf,docx", "filetype:pdf,docx", "'pdf,docx'"),
    ("report filetype:pdf/docx", "filetype:pdf/docx", "'pdf/docx'"),
    ("report FILETYPE:.tar.gz", "FILETYPE:.tar.gz", "'.tar.gz'"),
    ("report NOT filetype:pdf,docx", "filetype:pdf,docx", "'pdf,docx'"),
    ('report filetype:"pdf,docx"', 'filetype:"pdf,docx"', "'pdf,docx'"),
    ("(filetype:pdf;docx OR rust)", "filetype:pdf;docx", "'pdf;docx'"),
]


@pytest.mark.parametrize(("query", "word", "value"), _REFUSED)
def test_a_filetype_no_filter_reads_is_refused_naming_the_word(
    query: str, word: str, value: str
) -> None:
    with pytest.raises(ValidationError) as caught:
        SearchParams(query=query)
    message = caught.value.errors()[0]["msg"]
    assert f"query: {word} keeps the search to no file type ({value} is not one " in message
    assert message.endswith(
        "joined with OR (filetype:pdf OR filetype:docx), or put the whole word in quotes "
        "to search it as text"
    )


@pytest.fixture
async def sim() -> AsyncIterator[Simulator]:
    async with Simulator(["brave", "duckduckgo"]) as simulator:
        for provider in ("brave", "duckduckgo"):
            simulator[provider].results = [  # read as the engine reads its filetype:
                SimResult("Page", "https://example.com/a", "One."),
                SimResult("Paper", "https://example.com/r.pdf", "Two."),
            ]
        yield simulator


@pytest.mark.parametrize("provider", ["brave", "duckduckgo"])
@pytest.mark.parametrize("typed", ["filetype:pdf,docx", "filetype:.tar.gz"])
async def test_no_engine_is_asked_a_filetype_the_search_cannot_keep(
    sim: Simulator, provider: str, typed: str
) -> None:
    # Before: failed as the engine's, which kept to an extension no page has.
    async with sim_client(sim) as ws:
        with pytest.raises(ValidationError, match=f"query: {typed} keeps"):
            await ws.search(f"report {typed}", provider=provider)
    assert not sim[provider].requests


@pytest.mark.parametrize(
    "query",
    [
        'report "filetype:pdf,docx"',
        "report -filetype:pdf,docx",
        "report filetype: pdf,docx",
        "report ext:pdf,docx",
    ],
)
async def test_guard_words_that_ask_no_filetype_are_still_searched(
    sim: Simulator, query: str
) -> None:
    """Guard: a phrase, a negation, a space and ``ext:`` were searched before too."""
    async with sim_client(sim) as ws:
        found = await ws.search(query, provider="brave")
    assert [source.title for source in found.sources] == ["Page", "Paper"]
    (request,) = sim["brave"].requests
    assert request.query_dict()["q"] == query


async def test_guard_one_extension_keeps_to_that_type(sim: Simulator) -> None:
    """Guard: ``filetype:PDF`` is the filter it was, the engine's and ours."""
    async with sim_client(sim) as ws:
        found = await ws.search("report filetype:PDF", provider="duckduckgo")
    assert [source.title for source in found.sources] == ["Paper"]
