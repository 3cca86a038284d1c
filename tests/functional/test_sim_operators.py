"""The simulated engines apply the ``site:`` and ``filetype:`` they read, as the real ones do.

A real engine asked ``filetype:pdf`` answers with PDFs when it reads the operator
(DuckDuckGo, Bing, Google and the engines serving their indexes) and with whatever matches
the words when it does not (Mojeek): the core sends the operator to the first and trusts
it, and checks the second's results itself. Before, every simulated engine served every
result, so a ``filetype:`` the core trusts an engine with came back with HTML pages in
the tests, an answer no real engine gives. The expectations below are written out per
engine, not read from the simulator's data, so a wrong declaration on either side shows.
"""

from collections.abc import AsyncIterator
from urllib.parse import unquote_plus

import pytest

from websearch_core import WebSearch
from websearch_core.providers import get_provider
from websearch_core.providers.public import ENGINE_ORDER
from websearch_core.testing import RecordedRequest, SimResult, Simulator
from websearch_core.testing.protocols.searxng import SearxngProtocol

ENGINES = (*ENGINE_ORDER, "searxng")
PDF = SimResult("Guide", "https://docs.example.com/guide.pdf", "The guide.", "2026-01-02")
PAGES = [
    PDF,
    SimResult("Page", "https://docs.example.com/page.html", "A page.", "2026-01-03"),
    SimResult("Post", "https://blog.example.net/post", "A post.", "2026-01-04"),
]
READS_FILETYPE = frozenset({"duckduckgo", "bing", "yahoo", "startpage", "google", "ecosia"})
"""The engines whose real counterparts read ``filetype:``; Mojeek takes it as words, and
the core checks SearXNG's results itself, its engines reading it unevenly."""


@pytest.fixture
async def sim(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Simulator]:
    monkeypatch.setenv("WEBSEARCH_BROWSER", "off")
    async with Simulator(ENGINES) as simulator:
        for engine_id in ENGINES:
            simulator[engine_id].results = list(PAGES)
        searxng = simulator["searxng"].protocol
        assert isinstance(searxng, SearxngProtocol)
        searxng.suggests = False  # its suggestions alone would make an answer
        yield simulator


def _sent(request: RecordedRequest) -> str:
    """The query text an engine's request carried, wherever its protocol puts it."""
    fields = dict(request.query)
    if request.method == "POST":
        fields.update(request.form())
    return unquote_plus(fields.get("q") or fields.get("p") or fields.get("query") or "")


@pytest.mark.parametrize("engine_id", ENGINES)
async def test_an_engine_that_reads_filetype_answers_with_files_of_that_type(
    sim: Simulator, engine_id: str
) -> None:
    async with WebSearch(sim.settings()) as ws:
        result = await ws.run("guide filetype:pdf", provider=engine_id, use_cache=False)
    assert result.error is None, result.error
    assert [s.url for s in result.response.sources] == [PDF.url]
    (record,) = result.response.filters
    sent = _sent(sim[engine_id].requests[-1])
    if engine_id in READS_FILETYPE:
        # Sent and trusted: the engine itself left the HTML pages out.
        assert "filetype:pdf" in sent
        assert record.applied == ("query",)
    else:
        # Not sent (it would be two words): the engine served every page, our check kept one.
        assert "filetype" not in sent
        assert record.applied == ("post",)


@pytest.mark.parametrize("engine_id", ENGINES)
async def test_nothing_of_the_type_found_reads_empty_or_as_the_filters_dropping_it(
    sim: Simulator, engine_id: str
) -> None:
    # Where our behaviour differs: an engine that read filetype: answers with an empty
    # page, which is "no renderable search content"; one that did not answers with pages
    # our check drops, which names the filter to loosen.
    for pid in ENGINES:
        sim[pid].results = PAGES[1:]
    async with WebSearch(sim.settings()) as ws:
        result = await ws.run("guide filetype:pdf", provider=engine_id, use_cache=False)
    label = get_provider(engine_id).info.label
    if engine_id in READS_FILETYPE:
        assert result.error == f"{label} returned no renderable search content."
    else:
        # Every page served is not a PDF: the check dropped each.
        dropped = f"filetype dropped {len(PAGES[1:])}"
        assert result.error == f"{label} returned no results matching the filters ({dropped})."


@pytest.mark.parametrize("engine_id", ENGINES)
async def test_every_engine_reads_site_and_an_engine_that_leaks_is_caught(
    sim: Simulator, engine_id: str
) -> None:
    # Every engine here reads site: (Mojeek too), so nothing off the site is served; one
    # that leaks anyway (honour_operators off) is caught by our own check, and the error
    # names the site.
    for pid in ENGINES:
        sim[pid].results = PAGES[2:]
    label = get_provider(engine_id).info.label
    async with WebSearch(sim.settings()) as ws:
        honoured = await ws.run("guide site:docs.example.com", provider=engine_id, use_cache=False)
        sim[engine_id].honour_operators = False
        leaked = await ws.run("guide site:docs.example.com", provider=engine_id, use_cache=False)
    assert honoured.error == f"{label} returned no renderable search content."
    dropped = f"include_domains dropped {len(PAGES[2:])}"  # every page served is off the site
    assert leaked.error == f"{label} returned no results matching the filters ({dropped})."


async def test_a_site_typed_and_passed_as_a_field_goes_to_each_engine_once(
    sim: Simulator,
) -> None:
    # The same domain written in the query and passed as include_domains is one filter:
    # one site: in each engine's query, one record, one check.
    engines = list(ENGINE_ORDER)
    async with WebSearch(sim.settings(exclude=("searxng",))) as ws:
        result = await ws.run(
            "guide site:docs.example.com",
            provider="public",
            include_domains=["docs.example.com"],
            use_cache=False,
        )
    assert result.error is None, result.error
    for engine_id in engines:
        sent = _sent(sim[engine_id].requests[-1])
        assert sent.count("site:") == 1, (engine_id, sent)
    assert [(f.name, f.value) for f in result.response.filters] == [
        ("include_domains", "docs.example.com")
    ]
    assert {s.url for s in result.response.sources} == {PAGES[0].url, PAGES[1].url}


@pytest.mark.parametrize("engine_id", sorted(READS_FILETYPE))
async def test_a_filetype_typed_twice_is_sent_once(sim: Simulator, engine_id: str) -> None:
    # filetype:pdf and ext:.PDF are one filter: before, both went out in the query.
    async with WebSearch(sim.settings()) as ws:
        result = await ws.run(
            "guide filetype:pdf ext:.PDF filetype:pdf", provider=engine_id, use_cache=False
        )
    assert result.error is None, result.error
    sent = _sent(sim[engine_id].requests[-1])
    assert sent.casefold().count("pdf") == 1, sent
    assert [(f.name, f.value) for f in result.response.filters] == [("filetype", "pdf")]
