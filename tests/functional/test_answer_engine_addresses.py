"""What an answer engine's own marks on its sources do to the filters and the answer.

Stop 53 (filters54) served real captures through the loopback simulator:

* OpenAI (Codex) appends ``utm_source=openai`` to every URL it cites
  (``openai/responses_web_search_url_citation_gpt5_2.json``,
  ``openai/responses_web_search_verbatim_gpt4o_mini.json``). The parser already took that
  pair out, so ``-inurl:openai`` kept every source; but it did so by decoding the query and
  encoding it again, which rewrote the rest of the page's address (``%20`` became ``+``,
  a bare ``?id`` became ``?id=``): the source named a URL the page never had.
* Perplexity's answer numbers its sources (``...data sources.[2][3][5][7]``); with
  ``limit=2`` the sources shown were cut to two, and ``[3]``, ``[5]``, ``[7]`` stayed,
  naming sources the answer no longer lists.

Stop 54 (filters55) added what the answers still said of sources they no longer held:

* OpenAI's answer links each page it cites (``([macrotrends.net](https://...))``); a
  filter or a ``limit`` took the source out and the link stayed.
* The sanitiser's cut (a URL it refuses, more than 100 sources) left Perplexity's markers
  numbering the sources as they were before it.
* Perplexity's markers number the list it sends (``citations``; the ask stream's
  ``web_results``), its parsers make a source of each web URL once: a URL listed twice, or
  an entry with no web URL, shifted every marker after it by one.

Stop 54 (filters56) made the lists agree with the answer:

* ``limit=1`` cut Codex's and Perplexity's sources and their marks in the answer, and left
  every citation: the text for the model listed one source and three citations (Codex's
  gpt-4o-mini capture) or seven (Perplexity's), the pages cut among them.
* ``intitle:`` (a check of no URL) dropped Codex's sources and left their citations.
* Codex's answer with no ``url_citation`` names its pages as bare URLs (its parser makes
  its sources of them): a URL cut from the sources stayed in the text.
"""

import json
import re
from collections.abc import AsyncIterator

import pytest

from tests.conftest import read_capture
from tests.functional._sim_helpers import codex_sign_in, sim_client
from websearch_core import SearchResponse
from websearch_core.errors import AllProvidersFailedError
from websearch_core.testing import Fault, Simulator

CODEX_CAPTURES = (
    "openai/responses_web_search_url_citation_gpt5_2.json",
    "openai/responses_web_search_verbatim_gpt4o_mini.json",
)
BRITANNICA = "https://www.britannica.com/place/Mount-Columbia"
PERPLEXITY_CAPTURE = "perplexity/chat_completions_sonar_citations.json"
JSON_BODY = {"Content-Type": "application/json"}
QUERY = "tallest mountain in Alberta"
POPULATION = "san francisco population"
_MARKER = re.compile(r"\[(\d+)\]")


@pytest.fixture(autouse=True)
def _no_sign_ins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PERPLEXITY_COOKIES", raising=False)


@pytest.fixture
async def sim() -> AsyncIterator[Simulator]:
    async with Simulator(["codex", "perplexity"]) as simulator:
        codex_sign_in(simulator)
        yield simulator


async def _codex(
    sim: Simulator, capture: str, query: str, old: str = "", new: str = ""
) -> SearchResponse:
    """The Codex answer to ``query``, served the capture (``old`` written as ``new``)."""
    body = read_capture(capture).decode("utf-8")
    if old:
        assert old in body
        body = body.replace(old, new)
    sim["codex"].enqueue(Fault.http(200, body, JSON_BODY))
    async with sim_client(sim) as ws:
        return await ws.search(query, provider="codex")


async def _perplexity(sim: Simulator, query: str, limit: int | None = None) -> SearchResponse:
    body = read_capture(PERPLEXITY_CAPTURE).decode("utf-8")
    sim["perplexity"].enqueue(Fault.http(200, body, JSON_BODY))
    async with sim_client(sim) as ws:
        return await ws.search(query, provider="perplexity", limit=limit)


# --- 1. Codex's utm_source=openai ----------------------------------------------------------


@pytest.mark.parametrize("capture", CODEX_CAPTURES)
async def test_inurl_openai_judges_the_pages_address_not_openais_mark(
    sim: Simulator, capture: str
) -> None:
    """A guard: the parser takes out the mark it appended, so ``inurl:`` never reads it."""
    plain = await _codex(sim, capture, QUERY)
    assert plain.sources
    assert all("openai" not in s.url for s in plain.sources)
    shunned = await _codex(sim, capture, f"{QUERY} -inurl:openai")
    assert [s.url for s in shunned.sources] == [s.url for s in plain.sources]
    assert [c.url for c in shunned.citations] == [c.url for c in plain.citations]
    with pytest.raises(AllProvidersFailedError, match="in_url dropped"):
        await _codex(sim, capture, f"{QUERY} inurl:openai")


async def test_the_rest_of_a_cited_address_stays_as_the_page_wrote_it(sim: Simulator) -> None:
    # Failed before: the query was decoded and encoded again, so the source read
    # `?q=Mount+Columbia&id=` and `inurl:Mount%20Columbia` dropped the page.
    page = f"{BRITANNICA}?q=Mount%20Columbia&id"
    capture = CODEX_CAPTURES[0]
    old, new = f"{BRITANNICA}?utm_source=openai", f"{page}&utm_source=openai"
    response = await _codex(sim, capture, f"{QUERY} inurl:Mount%20Columbia", old, new)
    assert [s.url for s in response.sources] == [page]
    assert [c.url for c in response.citations] == [page]


# --- 2. Markers past a limit's cut ---------------------------------------------------------


async def test_markers_past_the_sources_a_limit_shows_are_taken_out(sim: Simulator) -> None:
    # Failed before: with two sources shown the answer still cited [3], [5], [6] and [7].
    plain = await _perplexity(sim, POPULATION)
    assert len(plain.sources) > 2
    response = await _perplexity(sim, POPULATION, limit=2)
    assert [s.url for s in response.sources] == [s.url for s in plain.sources[:2]]
    numbers = {int(n) for n in _MARKER.findall(response.answer or "")}
    assert numbers == {n for n in map(int, _MARKER.findall(plain.answer or "")) if n <= 2}
    assert _MARKER.sub("", response.answer or "") == _MARKER.sub("", plain.answer or "")


async def test_markers_after_a_drop_and_a_limit_name_the_sources_shown(sim: Simulator) -> None:
    # Failed before: the filter renumbered the two sources left of the three shown, and the
    # markers of the four cut off (up to [7]) stayed.
    plain = await _perplexity(sim, POPULATION)
    response = await _perplexity(sim, f"{POPULATION} -site:en.wikipedia.org", limit=3)
    shown = [s.url for s in plain.sources[:3] if "wikipedia" not in s.url]
    assert [s.url for s in response.sources] == shown
    numbers = {int(n) for n in _MARKER.findall(response.answer or "")}
    assert numbers == {1, 2}


async def test_a_limit_past_every_source_leaves_the_answer_alone(sim: Simulator) -> None:
    """A guard: nothing is cut, so every marker keeps its number."""
    plain = await _perplexity(sim, POPULATION)
    response = await _perplexity(sim, POPULATION, limit=len(plain.sources))
    assert response.answer == plain.answer


# --- 3. OpenAI's links to a source taken out (stop 54, filters55) -------------------------

TOKYO = "tokyo population"
_LINK = re.compile(r"\[([^\[\]]*)\]\((https?://[^\s)]+)\)")


def _linked_pages(answer: str | None) -> list[str]:
    """The pages the answer links, each without OpenAI's ``utm_source`` mark."""
    return [url.replace("?utm_source=openai", "") for _, url in _LINK.findall(answer or "")]


def _words(answer: str | None) -> str:
    """The answer without its links and their parentheses: the words it says."""
    return " ".join(re.sub(r"\(?\[[^\[\]]*\]\([^\s)]+\)\)?", " ", answer or "").split())


@pytest.mark.parametrize(
    "directive", ["-site:macrotrends.net", "site:nippon.com", "-inurl:Demographics"]
)
async def test_a_filtered_answer_links_only_the_sources_it_holds(
    sim: Simulator, directive: str
) -> None:
    # Failed before: the answer still linked every page of the capture, the dropped too.
    plain = await _codex(sim, CODEX_CAPTURES[1], TOKYO)
    assert _linked_pages(plain.answer) == [s.url for s in plain.sources]
    response = await _codex(sim, CODEX_CAPTURES[1], f"{TOKYO} {directive}")
    assert 0 < len(response.sources) < len(plain.sources)
    assert _linked_pages(response.answer) == [s.url for s in response.sources]
    assert _words(response.answer) == _words(plain.answer)


async def test_a_limit_takes_the_links_of_the_pages_it_cuts(sim: Simulator) -> None:
    # Failed before: one source shown, three linked.
    plain = await _codex(sim, CODEX_CAPTURES[1], TOKYO)
    async with sim_client(sim) as ws:
        sim["codex"].enqueue(Fault.http(200, read_capture(CODEX_CAPTURES[1]).decode(), JSON_BODY))
        response = await ws.search(TOKYO, provider="codex", limit=1)
    assert [s.url for s in response.sources] == [s.url for s in plain.sources[:1]]
    assert _linked_pages(response.answer) == [plain.sources[0].url]
    assert _words(response.answer) == _words(plain.answer)


async def test_a_link_written_in_the_text_keeps_its_words(sim: Simulator) -> None:
    # Failed before: the link to the dropped page stayed. The capture's citation, written
    # as a link in the sentence rather than after it, as Kimi's answers write theirs.
    old = "Dhaka. ([nippon.com]("
    response = await _codex(sim, CODEX_CAPTURES[1], f"{TOKYO} -site:nippon.com", old, "[Dhaka](")
    assert "nippon" not in (response.answer or "")
    assert "following Jakarta and Dhaka)" in (response.answer or "")


async def test_an_unfiltered_answer_keeps_every_link(sim: Simulator) -> None:
    """A guard: nothing dropped, the answer is the capture's text."""
    body = json.loads(read_capture(CODEX_CAPTURES[1]))
    written = next(
        part["text"]
        for item in body["output"]
        if item["type"] == "message"
        for part in item["content"]
    )
    plain = await _codex(sim, CODEX_CAPTURES[1], TOKYO)
    assert plain.answer == written.strip()


# --- 4. Markers past the sanitiser's cut (stop 54, filters55) -----------------------------

REFUSED = "https://www.california-demographics.com/cities_by_population"


def _marked_pages(response: SearchResponse) -> list[str]:
    """The URL each ``[n]`` marker of the answer names among the sources, in order."""
    urls = [s.url for s in response.sources]
    return [urls[int(n) - 1] for n in _MARKER.findall(response.answer or "")]


async def test_a_source_the_sanitiser_refuses_takes_its_markers(sim: Simulator) -> None:
    # Failed before: the third citation's URL names a user, the sanitiser dropped it, and
    # [4]..[7] named the source after the one meant ([7] none at all: IndexError).
    plain = await _perplexity(sim, POPULATION)
    body = read_capture(PERPLEXITY_CAPTURE).decode("utf-8")
    assert REFUSED in body
    sim["perplexity"].enqueue(
        Fault.http(200, body.replace(REFUSED, REFUSED.replace("www.", "user@www.")), JSON_BODY)
    )
    async with sim_client(sim) as ws:
        response = await ws.search(POPULATION, provider="perplexity")
    assert [s.url for s in response.sources] == [s.url for s in plain.sources if s.url != REFUSED]
    assert _marked_pages(response) == [url for url in _marked_pages(plain) if url != REFUSED]


async def test_markers_past_the_hundredth_source_are_taken_out(sim: Simulator) -> None:
    # Failed before: 105 citations were cut to 100 sources and [104] stayed in the answer.
    body = json.loads(read_capture(PERPLEXITY_CAPTURE))
    real = list(body["citations"])
    body["citations"] = real + [f"{real[0]}?page={n}" for n in range(len(real) + 1, 106)]
    message = body["choices"][0]["message"]
    message["content"] += " Older counts differ.[104][100]"
    sim["perplexity"].enqueue(Fault.http(200, json.dumps(body), JSON_BODY))
    async with sim_client(sim) as ws:
        response = await ws.search(POPULATION, provider="perplexity")
    assert len(response.sources) == 100
    assert (response.answer or "").endswith("Older counts differ.[100]")


# --- 5. Markers of a list with a repeated or non-web entry (stop 54, filters55) -----------

_EVENTS = {"Content-Type": "text/event-stream"}


def _listed_again(
    listed: list[str], extra: str | None, at: int, content: str
) -> tuple[list[str | None], str]:
    """``listed`` with ``extra`` put in at place ``at``, and ``content``'s markers as
    Perplexity would have numbered that list (each from ``at`` on one higher)."""

    def shifted(match: re.Match[str]) -> str:
        number = int(match[1])
        return f"[{number + 1 if number >= at else number}]"

    return [*listed[: at - 1], extra, *listed[at - 1 :]], _MARKER.sub(shifted, content)


@pytest.mark.parametrize("extra", ["repeat", "not-web", "blank", "null"])
async def test_api_markers_number_the_sources_made_of_the_list(sim: Simulator, extra: str) -> None:
    # Failed before: a citation listed twice (or one with no web URL) made no second
    # source, and every marker after it named the source after the one it meant. Stop 54
    # (filters56): so did a blank or null entry (the reader skipped it as no entry at all).
    plain = await _perplexity(sim, POPULATION)
    body = json.loads(read_capture(PERPLEXITY_CAPTURE))
    citations, message = body["citations"], body["choices"][0]["message"]
    entries = {"repeat": citations[1], "not-web": "urn:isbn:0451450523", "blank": " "}
    added = entries.get(extra)
    body["citations"], message["content"] = _listed_again(citations, added, 3, message["content"])
    sim["perplexity"].enqueue(Fault.http(200, json.dumps(body), JSON_BODY))
    async with sim_client(sim) as ws:
        response = await ws.search(POPULATION, provider="perplexity")
    assert [s.url for s in response.sources] == [s.url for s in plain.sources]
    assert response.answer == plain.answer


async def test_ask_markers_number_the_sources_made_of_the_web_results(sim: Simulator) -> None:
    # Failed before: as the API's. No ask stream is captured; this one carries the API
    # capture's pages and words as the ask endpoint's blocks carry them (web_results, then
    # the answer's markdown), a page listed twice, as clients of the live endpoint read it.
    plain = await _perplexity(sim, POPULATION)
    body = json.loads(read_capture(PERPLEXITY_CAPTURE))
    urls, answer = _listed_again(
        body["citations"], body["citations"][0], 4, body["choices"][0]["message"]["content"]
    )
    results = [{"name": url, "url": url} for url in urls]
    sim["perplexity"].enqueue(Fault.http(200, _ask_stream(results, answer), _EVENTS))
    async with sim_client(sim, api_keys={}) as ws:
        response = await ws.search(POPULATION, provider="perplexity")
    assert [s.url for s in response.sources] == [s.url for s in plain.sources]
    assert response.answer == plain.answer


def _ask_stream(results: list[dict[str, str]], answer: str) -> str:
    """The ask endpoint's stream: the web results first, then the final answer."""
    snapshots = [
        {"status": "PENDING", "blocks": [_block("web_results", web_results=results)]},
        {
            "status": "COMPLETED",
            "final": True,
            "blocks": [_block("ask_text_0_markdown", answer=answer)],
        },
    ]
    return "".join(f"event: message\ndata: {json.dumps(item)}\n\n" for item in snapshots)


def _block(usage: str, **content: object) -> dict[str, object]:
    """An ask stream block: ``web_results`` in a ``web_result_block``, else a markdown one."""
    holder = "web_result_block" if usage == "web_results" else "markdown_block"
    return {"intended_usage": usage, holder: {"progress": "DONE", **content}}


# --- 6. Citations and bare URLs of the sources cut (stop 54, filters56) -------------------

_URL = re.compile(r"https?://[^\s<>\"'`()\[\]]+")


def _pages(text: str) -> set[str]:
    """Every page ``text`` names, without OpenAI's mark or a sentence's full stop."""
    return {url.replace("?utm_source=openai", "").rstrip(".") for url in _URL.findall(text)}


@pytest.mark.parametrize(
    ("provider", "capture", "query"),
    [("codex", CODEX_CAPTURES[1], TOKYO), ("perplexity", PERPLEXITY_CAPTURE, POPULATION)],
)
async def test_a_limit_leaves_no_citation_of_a_page_it_cut(
    sim: Simulator, provider: str, capture: str, query: str
) -> None:
    # Failed before: one source shown, and three citations (Codex) or seven (Perplexity)
    # in the details and the text for the model, the pages cut among them.
    body = read_capture(capture).decode("utf-8")
    async with sim_client(sim) as ws:
        sim[provider].enqueue(Fault.http(200, body, JSON_BODY))
        plain = await ws.run(query, provider=provider)
        sim[provider].enqueue(Fault.http(200, body, JSON_BODY))
        result = await ws.run(query, provider=provider, limit=1)
    everything = [s.url for s in plain.response.sources]
    assert len(everything) > 1
    assert len(plain.response.citations) == len(everything)
    assert [s.url for s in result.response.sources] == everything[:1]
    assert [c.url for c in result.response.citations] == everything[:1]
    details = json.dumps(result.to_metadata())
    assert _pages(result.text) == _pages(details) == {everything[0]}
    assert "1 citation" in result.text


async def test_a_title_filter_takes_the_citations_of_the_pages_it_drops(sim: Simulator) -> None:
    # Failed before: `intitle:` judged the sources on their titles and the citations, on
    # URLs alone, not at all: one source shown beside three citations.
    response = await _codex(sim, CODEX_CAPTURES[1], f"{TOKYO} intitle:Demographics")
    assert [s.title for s in response.sources] == ["Demographics of Tokyo"]
    assert [c.url for c in response.citations] == [s.url for s in response.sources]
    assert _linked_pages(response.answer) == [s.url for s in response.sources]


def _bare(layout: str) -> str:
    """The gpt-4o-mini capture as an answer with no ``url_citation`` writes its pages.

    ``parentheses``: each ``([site](url))`` written ``(url)``; ``list``: the links taken
    out and the URLs listed under the answer, one a line.
    """
    body = json.loads(read_capture(CODEX_CAPTURES[1]))
    part = next(p for item in body["output"] if item["type"] == "message" for p in item["content"])
    text, part["annotations"] = part["text"], []
    cited = re.compile(r" ?\(\[[^\[\]]*\]\((https://[^\s)]+)\)\)")
    if layout == "parentheses":
        part["text"] = cited.sub(r" (\1)", text)
    else:
        pages = "".join(f"\n- {url}" for url in cited.findall(text))
        part["text"] = f"{cited.sub('', text).strip()}\n\nSources:{pages}"
    return json.dumps(body)


@pytest.mark.parametrize("layout", ["parentheses", "list"])
async def test_a_bare_url_goes_with_the_source_a_limit_cuts(sim: Simulator, layout: str) -> None:
    # Failed before: the sources were cut to one and the answer still named all three pages.
    body = _bare(layout)
    async with sim_client(sim) as ws:
        sim["codex"].enqueue(Fault.http(200, body, JSON_BODY))
        plain = await ws.search(TOKYO, provider="codex")
        sim["codex"].enqueue(Fault.http(200, body, JSON_BODY))
        response = await ws.search(TOKYO, provider="codex", limit=1)
    assert _pages(plain.answer or "") == {s.url for s in plain.sources}
    assert len(plain.sources) == 3
    assert [s.url for s in response.sources] == [s.url for s in plain.sources[:1]]
    answer = response.answer or ""
    assert _pages(answer) == {plain.sources[0].url}
    assert "Dhaka." in answer and "about 37 million." in answer
    assert "()" not in answer and "  " not in answer and "\n- \n" not in answer
    assert " ." not in answer


async def test_a_bare_url_goes_with_the_source_a_filter_drops(sim: Simulator) -> None:
    # Failed before: `-site:nippon.com` dropped the source and its URL stayed in the text.
    sim["codex"].enqueue(Fault.http(200, _bare("parentheses"), JSON_BODY))
    async with sim_client(sim) as ws:
        response = await ws.search(f"{TOKYO} -site:nippon.com", provider="codex")
    answer = response.answer or ""
    assert "nippon" not in answer
    assert _pages(answer) == {s.url for s in response.sources}
    assert answer.endswith("following Jakarta and Dhaka.")


async def test_a_bare_url_of_a_source_shown_stays(sim: Simulator) -> None:
    """A guard: nothing cut, the answer names its pages as written."""
    body = _bare("list")
    written = next(
        p["text"]
        for item in json.loads(body)["output"]
        if item["type"] == "message"
        for p in item["content"]
    )
    sim["codex"].enqueue(Fault.http(200, body, JSON_BODY))
    async with sim_client(sim) as ws:
        response = await ws.search(TOKYO, provider="codex", limit=3)
    assert response.answer == written.strip()


# --- 7. Markers past the entries a parser reads (stop 54, filters56) ----------------------

_READ = 200
"""The entries of a list a parser reads (``MAX_RESULT_ITEMS``): a body of 250 goes past it."""


def _long_list(listed: list[str]) -> list[str]:
    """``listed`` and pages of its first site after it, 250 entries in all."""
    return listed + [f"{listed[0]}?page={n}" for n in range(len(listed) + 1, 251)]


async def test_api_markers_past_the_entries_read_are_taken_out(sim: Simulator) -> None:
    # Failed before: [230] numbered an entry the parser never read and stayed, beside 100
    # sources. [7] is the capture's own; [300] is past every entry sent, no marker of ours.
    body = json.loads(read_capture(PERPLEXITY_CAPTURE))
    body["citations"] = _long_list(list(body["citations"]))
    message = body["choices"][0]["message"]
    message["content"] += " Older counts differ.[230][7] See table [300]."
    sim["perplexity"].enqueue(Fault.http(200, json.dumps(body), JSON_BODY))
    async with sim_client(sim) as ws:
        response = await ws.search(POPULATION, provider="perplexity")
    assert len(response.sources) == 100
    assert (response.answer or "").endswith("Older counts differ.[7] See table [300].")


async def test_ask_markers_past_the_results_read_are_taken_out(sim: Simulator) -> None:
    # Failed before: as the API's, over the ask stream's web_results.
    body = json.loads(read_capture(PERPLEXITY_CAPTURE))
    results = [{"name": url, "url": url} for url in _long_list(list(body["citations"]))]
    answer = body["choices"][0]["message"]["content"] + " Older counts differ.[230][7]"
    sim["perplexity"].enqueue(Fault.http(200, _ask_stream(results, answer), _EVENTS))
    async with sim_client(sim, api_keys={}) as ws:
        response = await ws.search(POPULATION, provider="perplexity")
    assert len(results) > _READ
    assert (response.answer or "").endswith("Older counts differ.[7]")
