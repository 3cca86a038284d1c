"""Every answer engine's real capture, cut by a filter and a limit: what its answer cites.

Stop 55 (filters57) served each answer capture of ``../shared/fixtures`` through the
loopback simulator, once as it came and once with one cited page cut (``-site:`` of its
site, or a ``limit``), and compared what the answer says of its sources:

* Perplexity's ``[n]`` markers (the completion and the recorded stream) name, after a cut,
  the same pages they named before, the cut page's markers gone: its parsers and the
  filters' check already agreed (these are guards, passing before and after).
* Codex links its pages (``([site](url))``): no link to a page cut stays (guards).
* Anthropic, Gemini and xAI cite in blocks and mark nothing in their text: the answer
  stays as written (guards).
* OpenRouter's route to Perplexity answers with OpenAI-style ``url_citation`` pages, and
  the captured answer is the first page's URL alone (``https://github.com/pydantic/
  pydantic-ai``): ``-site:github.com`` kept the two ``pydantic.dev`` pages and the answer
  still named the GitHub page it no longer held. Perplexity now declares its answer may
  link its sources (``ProviderInfo.answer_links_sources``) as Codex does.

No capture holds Kimi's, Z.AI's or Exa's answer to a search: Kimi's provider calls Kimi
Code's search API (pages, no answer), Z.AI's MCP tool returns pages, and Exa's one
documented result makes its answer of its own summary.
"""

import json
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from urllib.parse import urlsplit

import pytest

from tests.conftest import read_capture
from tests.functional._sim_helpers import codex_sign_in, sim_client
from websearch_core import SearchResponse
from websearch_core.testing import Fault, Simulator

JSON = {"Content-Type": "application/json"}
EVENTS = {"Content-Type": "text/event-stream"}
_MARKER = re.compile(r"\[(\d+)\]")
_LINK = re.compile(r"\[[^\[\]]*\]\((https?://[^\s)]+)\)")
_URL = re.compile(r"https?://[^\s<>\"'`()\[\]]+")


@dataclass(frozen=True)
class Served:
    """One capture as its provider is served it, and the site of one page it cites."""

    provider: str
    capture: str
    site: str | None
    """A site of some of the answer's sources, not all: ``-site:`` it cuts a cited page
    (``None``: every source is on one site)."""
    limit: int
    """A limit below the sources the capture makes."""
    events: bool = False
    chunks: bool = False
    """Recorded one JSON chunk a line (the recorder stripped ``data:``): sent as the SSE."""
    keys: tuple[tuple[str, str], ...] | None = None

    @property
    def body(self) -> str:
        text = read_capture(self.capture).decode("utf-8")
        if self.chunks:
            return "".join(f"data: {line}\n\n" for line in text.splitlines() if line.strip())
        return text.replace("\r\n", "\n") if self.events else text


CAPTURES = (
    Served("perplexity", "perplexity/chat_completions_sonar_citations.json", "en.wikipedia.org", 4),
    Served(
        "perplexity",
        "perplexity/chat_completions_sonar_citations_stream.chunks.txt",
        "en.wikipedia.org",
        3,
        events=True,
        chunks=True,
    ),
    Served(
        "perplexity",
        "openrouter/chat_completions_web_search_url_citation.json",
        "github.com",
        2,
        keys=(("openrouter", "or-key"),),
    ),
    Served("codex", "openai/responses_web_search_verbatim_gpt4o_mini.json", "nippon.com", 1),
    Served("codex", "openai/responses_web_search_allowed_domains.json", None, 1),
    Served("anthropic", "anthropic/messages_web_search_tool_call1.json", "accuweather.com", 2),
    Served("anthropic", "anthropic/messages_web_search_tool_call2.json", "accuweather.com", 2),
    Served("gemini", "gemini/generate_content_google_search_call1.json", "weather.gov", 2),
    Served(
        "gemini", "gemini/stream_generate_content_google_search.sse", "weather.gov", 2, events=True
    ),
    Served("xai", "xai/responses_web_search_tool.json", "x.ai", 2),
)


def _name(served: Served) -> str:
    return served.capture.rsplit("/", 1)[-1].split(".")[0]


@pytest.fixture(autouse=True)
def _no_sign_ins(monkeypatch: pytest.MonkeyPatch, no_gemini_variables: None) -> None:
    monkeypatch.delenv("PERPLEXITY_COOKIES", raising=False)


@pytest.fixture
async def sim() -> AsyncIterator[Simulator]:
    async with Simulator(sorted({served.provider for served in CAPTURES})) as simulator:
        codex_sign_in(simulator)
        yield simulator


async def _answer(
    sim: Simulator, served: Served, query: str, limit: int | None = None
) -> SearchResponse:
    sim[served.provider].enqueue(Fault.http(200, served.body, EVENTS if served.events else JSON))
    keys = dict(served.keys) if served.keys is not None else None
    async with sim_client(sim, api_keys=keys) as ws:
        return await ws.search(query, provider=served.provider, limit=limit, use_cache=False)


def _marked(response: SearchResponse) -> list[str]:
    """The page each ``[n]`` marker of the answer names among the sources, in order."""
    urls = [source.url for source in response.sources]
    return [urls[int(n) - 1] if int(n) <= len(urls) else f"none [{n}]" for n in _numbers(response)]


def _numbers(response: SearchResponse) -> list[str]:
    return _MARKER.findall(response.answer or "")


def _page(url: str) -> str:
    """``url`` without OpenAI's mark, a fragment or a sentence's full stop."""
    return url.replace("?utm_source=openai", "").split("#")[0].rstrip(".")


def _named(response: SearchResponse) -> set[str]:
    """Every page the answer names by a link or a URL."""
    text = response.answer or ""
    return {_page(url) for url in _LINK.findall(text) + _URL.findall(text)}


def _site(response: SearchResponse, site: str) -> list[str]:
    """The sources on ``site``: by host, or by the title a redirect names its site with."""
    return [
        source.url
        for source in response.sources
        if (urlsplit(source.url).hostname or "").removeprefix("www.").endswith(site)
        or source.title == site
    ]


def _agree(plain: SearchResponse, cut: SearchResponse, kept: list[str]) -> None:
    """``cut``'s answer cites what ``plain``'s did of the ``kept`` pages, nothing else."""
    assert [source.url for source in cut.sources] == kept
    assert _marked(cut) == [url for url in _marked(plain) if url in kept]
    gone = {_page(source.url) for source in plain.sources} - {_page(url) for url in kept}
    assert not _named(cut) & gone
    if not _numbers(plain) and not _named(plain) & gone:
        assert cut.answer == plain.answer  # nothing it cites went: the answer as written


@pytest.mark.parametrize("served", [served for served in CAPTURES if served.site], ids=_name)
async def test_a_site_cut_leaves_the_answer_citing_the_pages_it_holds(
    sim: Simulator, served: Served
) -> None:
    """A guard on every capture but OpenRouter's (which failed before: see the module)."""
    assert served.site is not None
    plain = await _answer(sim, served, "search")
    dropped = _site(plain, served.site)
    assert 0 < len(dropped) < len(plain.sources)
    cut = await _answer(sim, served, f"search -site:{served.site}")
    _agree(plain, cut, [source.url for source in plain.sources if source.url not in dropped])


@pytest.mark.parametrize("served", CAPTURES, ids=_name)
async def test_a_limit_leaves_the_answer_citing_the_pages_it_shows(
    sim: Simulator, served: Served
) -> None:
    """A guard: the parsers' and the sanitiser's cuts already agreed on every capture."""
    plain = await _answer(sim, served, "search")
    assert len(plain.sources) > served.limit
    cut = await _answer(sim, served, "search", limit=served.limit)
    _agree(plain, cut, [source.url for source in plain.sources[: served.limit]])


async def test_perplexity_s_markers_are_checked_on_its_captures(sim: Simulator) -> None:
    """A guard that the sweep has markers to check: the completion's cut loses some."""
    served = CAPTURES[0]
    plain = await _answer(sim, served, "search")
    cut = await _answer(sim, served, f"search -site:{served.site}", limit=served.limit)
    assert len(_numbers(plain)) > len(_numbers(cut)) > 0
    assert _marked(cut) == [url for url in _marked(plain) if url in _marked(cut)]
    assert "en.wikipedia.org/wiki/San_Francisco" in " ".join(_marked(plain))
    assert "wikipedia" not in " ".join(_marked(cut))


async def test_openrouter_s_answer_names_no_page_a_filter_cut(sim: Simulator) -> None:
    # Failed before: the answer, the GitHub page's URL alone, stayed beside the two
    # pydantic.dev sources `-site:github.com` left.
    served = CAPTURES[2]
    plain = await _answer(sim, served, "pydantic ai")
    assert plain.answer == "https://github.com/pydantic/pydantic-ai"
    cut = await _answer(sim, served, "pydantic ai -site:github.com")
    assert [source.url for source in cut.sources] == [
        "https://pydantic.dev/pydantic-ai",
        "https://pydantic.dev/docs/ai/overview/",
    ]
    assert cut.answer is None  # nothing of it is left: no answer, not an empty one


async def test_openrouter_s_answer_reads_on_once_a_bare_url_is_cut(sim: Simulator) -> None:
    # Failed before: `-site:github.com` left `framework (see for details), released as
    # v2.0.0 <>.` (the answer's words for the pages cut) beside the pydantic.dev sources.
    # The capture's answer written as a sentence, its URLs bare and in Markdown's `<url>`.
    served = CAPTURES[2]
    body = json.loads(served.body)
    body["choices"][0]["message"]["content"] = (
        "Pydantic AI is an agent framework (see https://github.com/pydantic/pydantic-ai "
        "for details), released as v2.0.0 <https://github.com/pydantic/pydantic-ai/"
        "releases/tag/v2.0.0>. Docs: https://pydantic.dev/docs/ai/overview/."
    )
    sim["perplexity"].enqueue(Fault.http(200, json.dumps(body), JSON))
    async with sim_client(sim, api_keys={"openrouter": "or-key"}) as ws:
        cut = await ws.search("pydantic ai -site:github.com", provider="perplexity")
    assert cut.answer == (
        "Pydantic AI is an agent framework, released as v2.0.0. "
        "Docs: https://pydantic.dev/docs/ai/overview/."
    )


@pytest.mark.parametrize(
    "served",
    [served for served in CAPTURES if served.provider in ("anthropic", "gemini")],
    ids=_name,
)
async def test_a_limit_leaves_anthropic_s_and_gemini_s_block_citations(
    sim: Simulator, served: Served
) -> None:
    """A guard on stop 54's choice, read against the reference (stop 56, filters59).

    The spec's ``limit`` is "Max results to return"; the reference says of Anthropic and of
    Gemini "``numSearchResults ?? limit`` slices the sources", of nothing else. Their
    citations mark no text of the answer: each is the only word of where a sentence came
    from, and stays though its page is no longer a source shown.
    """
    plain = await _answer(sim, served, "search")
    cut = await _answer(sim, served, "search", limit=served.limit)
    assert cut.citations == plain.citations
    shown = {source.url for source in cut.sources}
    assert any(citation.url not in shown for citation in cut.citations)


async def test_a_limit_cuts_xai_s_citations_with_its_sources(sim: Simulator) -> None:
    """A guard: the reference's xAI cap "applies to both sources and citations"."""
    served = next(served for served in CAPTURES if served.provider == "xai")
    plain = await _answer(sim, served, "search")
    cut = await _answer(sim, served, "search", limit=served.limit)
    assert len(plain.citations) > served.limit
    assert [citation.url for citation in cut.citations] == [s.url for s in cut.sources]
    assert len(cut.citations) == served.limit
