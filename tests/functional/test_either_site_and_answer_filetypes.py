"""Either of two sites is searched on both; answer engines' file types are checked here.

Stop 52 (inputs54) drove every provider through the simulator with ``python site:a.org OR
site:b.org`` (requests captured, the answer's text). Every provider was sent both sites
(``(site:a.org OR site:b.org)``, a domain list, or Jina's ``X-Site: a.org, b.org``) and
kept a result on either, but the HTML engines (SearXNG, DuckDuckGo, Startpage, Google,
Ecosia, Mojeek) were sent ``site:a.org/docs OR site:b.org`` as ``python a.org/docs
site:b.org``: the path site as a word, as reference 6.4 writes one, beside the other site's
operator, so the engine searched b.org alone and the answer held no a.org page while its
record said ``a.org/docs`` applied. Now the path site's host joins the ``site:`` group
there, and the path is checked here.

An answer engine (Perplexity, Gemini, Anthropic, OpenAI, xAI) was sent ``-filetype:pdf``
in its question and trusted: the PDF among its sources and citations stayed, the record
said ``query``. A URL ending ``.pdf`` names a PDF as surely as it names its host, and the
hosts are checked on these sources already, so the type kept out is checked too (``query +
post``), and the citations, listed with their URLs in the answer, are checked as the
sources are (a site kept out stayed there as well). A wanted ``filetype:`` stays trusted,
as before: judged on URLs it would drop every one naming no type (Gemini's grounding
redirects), and the answer with them.

``public`` recorded ``filetype: query`` (its own plan: passed on to each engine) though
Mojeek, which reads no ``filetype:``, was sent ``python`` and its share checked here. Its
record is now the ways its engines used: ``query, post``, or ``post`` with Mojeek alone.
"""

from collections.abc import AsyncIterator

import pytest

from tests.functional._sim_helpers import sim_client
from websearch_core import WebSearch
from websearch_core.providers import PROVIDER_REGISTRY
from websearch_core.testing import Simulator
from websearch_core.testing.simulator import SimResult

_HTML_ENGINES = ("searxng", "duckduckgo", "startpage", "google", "ecosia", "mojeek")
_ANSWER_ENGINES = ("perplexity", "gemini", "anthropic", "xai")
_PAGES = [
    SimResult("Docs page", "https://a.org/docs/intro", "Python docs."),
    SimResult("Blog page", "https://a.org/blog/post", "Python blog."),
    SimResult("Other site", "https://b.org/guide", "Python guide."),
    SimResult("Elsewhere", "https://c.net/page", "Python elsewhere."),
    SimResult("Paper", "https://b.org/paper.PDF", "Python, printed."),
]


@pytest.fixture
async def sim(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Simulator]:
    monkeypatch.setenv("WEBSEARCH_BROWSER", "off")  # the scrapers keep the plain fetch
    providers = [*_HTML_ENGINES, *_ANSWER_ENGINES]
    async with Simulator(providers) as simulator:
        for provider in providers:
            simulator[provider].results = list(_PAGES)
        yield simulator


@pytest.mark.parametrize("engine", _HTML_ENGINES)
async def test_an_html_engine_is_asked_both_sites_when_one_has_a_path(
    sim: Simulator, engine: str
) -> None:
    # Before: sent "python a.org/docs site:b.org"; the engine served b.org alone, and the
    # answer had no a.org/docs page though its record said that site applied.
    async with sim_client(sim) as ws:
        result = await ws.run(
            "python site:a.org/docs OR site:b.org", provider=engine, use_cache=False
        )
    sent = sim[engine].last_query()
    assert "site:a.org " in f"{sent} " and "site:b.org" in sent, sent
    assert "https://a.org/docs/intro" in result.text
    assert "https://b.org/guide" in result.text
    assert "https://a.org/blog/post" not in result.text  # the path is checked here
    assert [(f.value, f.applied) for f in result.response.filters] == [
        ("a.org/docs", ("query", "post")),
        ("b.org", ("query", "post")),
    ]


@pytest.mark.parametrize("engine", ["duckduckgo", "mojeek"])
async def test_guard_a_path_site_alone_still_goes_as_a_word(sim: Simulator, engine: str) -> None:
    """Guard (passes before and after): with no other site, the path site is the word
    reference 6.4 sends, no ``site:``, and the record says the check here applied it."""
    async with sim_client(sim) as ws:
        result = await ws.run("python site:a.org/docs", provider=engine, use_cache=False)
    assert sim[engine].last_query() == "python a.org/docs"
    assert [(f.value, f.applied) for f in result.response.filters] == [("a.org/docs", ("post",))]


@pytest.mark.parametrize("engine", _ANSWER_ENGINES)
async def test_an_answer_engine_is_checked_for_a_file_type_kept_out(
    sim: Simulator, engine: str
) -> None:
    # Before: the question said -filetype:pdf, the PDF stayed among the sources and the
    # citations, and the record said "query" alone.
    sim[engine].honour_operators = False  # an engine that cites a PDF all the same
    async with sim_client(sim) as ws:
        result = await ws.run("python -filetype:pdf", provider=engine, use_cache=False)
    assert sim[engine].last_query() == "python -filetype:pdf"
    assert "paper.PDF" not in result.text
    assert "https://b.org/guide" in result.text
    assert [(f.name, f.applied) for f in result.response.filters] == [
        ("exclude_filetype", ("query", "post"))
    ]


@pytest.mark.parametrize("engine", _ANSWER_ENGINES)
async def test_an_answer_engines_citations_are_checked_as_its_sources(
    sim: Simulator, engine: str
) -> None:
    # Before: a.org left the sources, yet its pages stayed listed under "Citations" (each
    # simulated engine cites its first results, a.org's two among them).
    sim[engine].honour_operators = False
    async with sim_client(sim) as ws:
        result = await ws.run("python -site:a.org", provider=engine, use_cache=False)
    assert "a.org" not in " ".join(citation.url for citation in result.response.citations)
    assert "https://a.org/" not in result.text
    assert "https://b.org/guide" in result.text  # the answer and its other sources stay


@pytest.mark.parametrize("engine", ["perplexity", "anthropic"])
async def test_guard_a_wanted_file_type_stays_trusted_to_an_answer_engine(
    sim: Simulator, engine: str
) -> None:
    """Guard (passes before and after): ``filetype:pdf`` is asked in the question and not
    checked, since a URL naming no type (Gemini's grounding redirects) would drop it."""
    sim[engine].honour_operators = False
    async with sim_client(sim) as ws:
        result = await ws.run("python filetype:pdf", provider=engine, use_cache=False)
    assert "https://b.org/guide" in result.text
    assert [(f.name, f.applied) for f in result.response.filters] == [("filetype", ("query",))]


@pytest.mark.parametrize(
    ("engines", "applied"), [(("bing", "mojeek"), ("query", "post")), (("mojeek",), ("post",))]
)
async def test_public_records_the_file_type_as_its_engines_applied_it(
    monkeypatch: pytest.MonkeyPatch, engines: tuple[str, ...], applied: tuple[str, ...]
) -> None:
    # Before: ("query",) both times, though Mojeek's share was checked here.
    await _public_file_type(monkeypatch, engines, applied)


async def test_guard_public_with_engines_that_read_the_file_type_says_query(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Guard (passes before and after): Bing alone reads ``filetype:``: ``query``."""
    await _public_file_type(monkeypatch, ("bing",), ("query",))


async def _public_file_type(
    monkeypatch: pytest.MonkeyPatch, engines: tuple[str, ...], applied: tuple[str, ...]
) -> None:
    """Public Web over ``engines`` asked ``python filetype:pdf``: what each is sent, what
    comes back, and the record ``applied``."""
    monkeypatch.setenv("WEBSEARCH_BROWSER", "off")
    async with Simulator(list(engines)) as public_sim:
        for engine in engines:
            public_sim[engine].results = [
                SimResult("Page", f"https://{engine}.example/a", "Python tips."),
                SimResult("Paper", f"https://{engine}.example/r.pdf", "Python, printed."),
            ]
        others = tuple(pid for pid in PROVIDER_REGISTRY if pid not in (*engines, "public"))
        async with WebSearch(public_sim.settings(exclude=others)) as ws:
            result = await ws.run("python filetype:pdf", provider="public", use_cache=False)
        sent = {engine: public_sim[engine].last_query() for engine in engines}
    assert result.error is None, result.error
    rows = {"bing": "python filetype:pdf", "mojeek": "python"}  # Mojeek reads no filetype:
    assert sent == {engine: rows[engine] for engine in engines}
    assert [s.url for s in result.response.sources] == [
        f"https://{engine}.example/r.pdf" for engine in engines
    ]
    assert [(f.name, f.applied) for f in result.response.filters] == [("filetype", applied)]
