"""What the filters check on answer engines' sources, and what the record and answer say.

Stop 53 (filters53) served real captures through the loopback simulator and found:

* a Gemini grounding redirect was judged on its title alone, though Google documents a
  ``domain`` beside it (``Domain of the (original) URI``); and any title shaped like a
  domain read as a host, ``Node.js`` and ``Vue.js`` among them, so ``site:nodejs.org``
  dropped the Node.js page (and, with no other source on the site, the answer);
* Perplexity's answer numbers its sources (``...data sources.[2][3][5][7]``): after a
  filter dropped the second source, ``[3]`` named the source shown fourth;
* ``inurl:`` and ``intitle:`` were sent to answer engines and trusted, recorded ``query``,
  while a source without the word asked stayed;
* a value of a filter that could not be decided (a path site on the host a redirect
  names) marked every value of the filter unchecked.

Stop 54 (filters55): a lower-case product name (``node.js``) still read as a host; a title
now names one only when it ends in a top-level domain, and every title of the three Gemini
captures (the Interactions API's included) still does.

Gemini's capture (``gemini/stream_generate_content_google_search.sse``) has no ``domain``
field: the tests that need one add it to a grounding chunk, as Vertex AI sends it.
"""

import json
import re
from collections.abc import AsyncIterator
from urllib.parse import urlsplit

import pytest

from tests.conftest import read_capture
from tests.functional._sim_helpers import sim_client
from websearch_core import SearchParams, SearchResponse
from websearch_core.filters import apply_plan, plan_filters
from websearch_core.filters.note import ignored_note
from websearch_core.filters.redirects import is_redirect, named_host
from websearch_core.providers._gemini_interactions import parse_interaction
from websearch_core.providers._gemini_parse import body_chunks, events_chunks, parse_chunks
from websearch_core.providers.gemini import INFO as GEMINI_INFO
from websearch_core.sse import parse_sse
from websearch_core.testing import Fault, SimResult, Simulator

GEMINI_CAPTURE = "gemini/stream_generate_content_google_search.sse"
PERPLEXITY_CAPTURE = "perplexity/chat_completions_sonar_citations.json"
EVENT_STREAM = {"Content-Type": "text/event-stream"}
JSON_BODY = {"Content-Type": "application/json"}
WEATHER = "weather in San Francisco"
POPULATION = "san francisco population"
_MARKER = re.compile(r"\[(\d+)\]")


@pytest.fixture(autouse=True)
def _no_sign_ins(monkeypatch: pytest.MonkeyPatch, no_gemini_variables: None) -> None:
    monkeypatch.delenv("PERPLEXITY_COOKIES", raising=False)


@pytest.fixture
async def sim() -> AsyncIterator[Simulator]:
    async with Simulator(["gemini", "perplexity", "anthropic"]) as simulator:
        yield simulator


def _gemini_events(title: str | None = None, domain: str | None = None) -> str:
    """The captured stream, weather.gov's grounding chunk retitled and given a ``domain``."""
    text = read_capture(GEMINI_CAPTURE).decode("utf-8").replace("\r\n", "\n")
    before = '"title": "weather.gov"'
    assert before in text
    after = f'"title": {json.dumps(title or "weather.gov")}'
    if domain is not None:
        after += f', "domain": {json.dumps(domain)}'
    text = text.replace(before, after)
    return "".join(f"{event}\n\n" for event in text.split("\n\n") if event.strip())


async def _gemini(
    sim: Simulator, query: str, title: str | None = None, domain: str | None = None
) -> SearchResponse:
    sim["gemini"].enqueue(Fault.http(200, _gemini_events(title, domain), EVENT_STREAM))
    async with sim_client(sim) as ws:
        return await ws.search(query, provider="gemini")


async def _perplexity(sim: Simulator, query: str) -> SearchResponse:
    body = read_capture(PERPLEXITY_CAPTURE).decode("utf-8")
    sim["perplexity"].enqueue(Fault.http(200, body, JSON_BODY))
    async with sim_client(sim) as ws:
        return await ws.search(query, provider="perplexity")


def _record(response: SearchResponse) -> dict[tuple[str, str], tuple[str, ...]]:
    return {(f.name, f.value): tuple(f.applied) for f in response.filters}


# --- 1. Gemini's domain -------------------------------------------------------------------


async def test_a_redirect_is_judged_on_the_domain_gemini_names_beside_it(
    sim: Simulator,
) -> None:
    # Failed before: the domain was not read, the title named no host, and the source was
    # kept under `query, post, ignored` (wanted) or kept outright (kept out).
    retitled = "National Weather Service forecast"
    plain = await _gemini(sim, WEATHER, retitled, "weather.gov")
    (on_site,) = [s for s in plain.sources if s.title == retitled]
    assert on_site.domain == "weather.gov"
    wanted = await _gemini(sim, f"{WEATHER} site:weather.gov", retitled, "weather.gov")
    assert [s.url for s in wanted.sources] == [on_site.url]
    assert {c.url for c in wanted.citations} == {on_site.url}
    assert _record(wanted) == {("include_domains", "weather.gov"): ("query", "post")}
    shunned = await _gemini(sim, f"{WEATHER} -site:weather.gov", retitled, "weather.gov")
    assert on_site.url not in {s.url for s in shunned.sources}
    assert on_site.url not in {c.url for c in shunned.citations}
    assert len(shunned.sources) == len(plain.sources) - 1
    assert shunned.answer == plain.answer


async def test_the_domain_wins_over_a_title_naming_another_host(sim: Simulator) -> None:
    # Failed before: the title's weather.gov was read, and the source kept for it.
    response = await _gemini(sim, f"{WEATHER} -site:noaa.gov", "weather.gov", "nws.noaa.gov")
    assert "weather.gov" not in {s.title for s in response.sources}


# --- 2. A title shaped like a domain -------------------------------------------------------


@pytest.mark.parametrize(
    ("title", "query"),
    [
        ("Node.js", "site:nodejs.org"),
        ("Vue.js", "site:vuejs.org"),
        ("ASP.NET", "-site:asp.net"),
    ],
)
async def test_a_product_name_is_not_read_as_a_host(sim: Simulator, title: str, query: str) -> None:
    # Failed before: the name read as the host node.js (vue.js, asp.net) and the source was
    # dropped: for the wanted sites every source went and the search failed.
    name = "include_domains" if query.startswith("site:") else "exclude_domains"
    response = await _gemini(sim, f"{WEATHER} {query}", title)
    assert title in {s.title for s in response.sources}
    assert response.answer
    assert _record(response) == {(name, query.split(":", 1)[1]): ("query", "post", "ignored")}


async def test_a_product_name_titled_source_is_judged_on_its_domain(sim: Simulator) -> None:
    # Failed before: `Node.js` read as a host, every source dropped, the search failed.
    response = await _gemini(sim, f"{WEATHER} site:nodejs.org", "Node.js", "nodejs.org")
    assert [s.title for s in response.sources] == ["Node.js"]
    assert _record(response) == {("include_domains", "nodejs.org"): ("query", "post")}


async def test_a_lower_case_domain_title_is_still_read(sim: Simulator) -> None:
    """A guard: every redirect title of the captures is a lower-case domain, read as one."""
    response = await _gemini(sim, f"{WEATHER} site:accuweather.com")
    assert [s.title for s in response.sources] == ["accuweather.com"]
    assert _record(response) == {("include_domains", "accuweather.com"): ("query", "post")}


# --- 3. The answer's [n] markers ------------------------------------------------------------


def _cited(response: SearchResponse) -> list[str | None]:
    """The URL each ``[n]`` of the answer names among the sources shown, in order."""
    sources = response.sources
    return [
        sources[int(n) - 1].url if 0 < int(n) <= len(sources) else None
        for n in _MARKER.findall(response.answer or "")
    ]


async def test_perplexity_markers_name_the_sources_shown_after_a_drop(sim: Simulator) -> None:
    # Failed before: the markers kept the provider's numbers; with Wikipedia (the second)
    # dropped, [3] named the fourth source shown and [7] none.
    plain = await _perplexity(sim, POPULATION)
    dropped = "https://en.wikipedia.org/wiki/San_Francisco"
    assert dropped in {s.url for s in plain.sources}
    response = await _perplexity(sim, f"{POPULATION} -site:en.wikipedia.org")
    assert dropped not in {s.url for s in response.sources}
    assert len(response.sources) == len(plain.sources) - 1
    assert _cited(response) == [url for url in _cited(plain) if url != dropped]
    assert _MARKER.sub("", response.answer or "") == _MARKER.sub("", plain.answer or "")


async def test_an_answer_is_left_alone_when_no_source_is_dropped(sim: Simulator) -> None:
    """A guard: every source passes, so every marker keeps its number."""
    plain = await _perplexity(sim, POPULATION)
    response = await _perplexity(sim, f"{POPULATION} -site:example.com")
    assert response.answer == plain.answer


async def test_gemini_answer_without_markers_is_left_alone(sim: Simulator) -> None:
    """A guard: Gemini's answer names no source by number (its supports carry indices)."""
    plain = await _gemini(sim, WEATHER)
    response = await _gemini(sim, f"{WEATHER} -site:weather.gov")
    assert len(response.sources) < len(plain.sources)
    assert response.answer == plain.answer


# --- 4. inurl: and intitle: ----------------------------------------------------------------


async def test_inurl_is_checked_on_an_answer_engines_sources_and_citations(
    sim: Simulator,
) -> None:
    # Failed before: all seven sources and citations kept, recorded `query` alone.
    plain = await _perplexity(sim, POPULATION)
    response = await _perplexity(sim, f"{POPULATION} -inurl:worldpopulationreview")
    kept = [s.url for s in plain.sources if "worldpopulationreview" not in s.url]
    assert len(kept) < len(plain.sources)
    assert [s.url for s in response.sources] == kept
    assert all("worldpopulationreview" not in c.url for c in response.citations)
    assert _record(response) == {("exclude_in_url", "worldpopulationreview"): ("query", "post")}


async def test_intitle_on_sources_titled_by_their_url_is_recorded_not_checked(
    sim: Simulator,
) -> None:
    # Failed before: recorded `query`, as if the engine had applied it. The capture has no
    # search_results, so every source is titled by its URL: nothing to check.
    plain = await _perplexity(sim, POPULATION)
    response = await _perplexity(sim, f"{POPULATION} -intitle:population")
    assert [s.url for s in response.sources] == [s.url for s in plain.sources]
    assert _record(response) == {("exclude_in_title", "population"): ("query", "post", "ignored")}
    note = "Filters not applied: exclude_in_title=population (some results unchecked)."
    assert ignored_note(response) == note


async def test_intitle_is_checked_on_an_answer_engines_titled_sources(sim: Simulator) -> None:
    # Failed before: the page titled "Laravel guide" stayed, recorded `query`.
    sim["anthropic"].results = [
        SimResult("Laravel", "https://laravel.com/docs", "The PHP framework."),
        SimResult("Laravel guide", "https://builtin.com/laravel", "A guide."),
    ]
    async with sim_client(sim) as ws:
        response = await ws.search("laravel -intitle:guide", provider="anthropic")
    assert [s.title for s in response.sources] == ["Laravel"]
    assert _record(response) == {("exclude_in_title", "guide"): ("query", "post")}


# --- 5. Each value recorded as applied ------------------------------------------------------


async def test_an_undecided_path_site_marks_only_its_own_value(sim: Simulator) -> None:
    # Failed before: both values read `query, post, ignored`, though accuweather.com was
    # decided on every source (its host named) and only the path under weather.gov was not.
    response = await _gemini(sim, f"{WEATHER} site:weather.gov/forecast site:accuweather.com")
    assert sorted(s.title for s in response.sources) == ["accuweather.com", "weather.gov"]
    assert _record(response) == {
        ("include_domains", "weather.gov/forecast"): ("query", "post", "ignored"),
        ("include_domains", "accuweather.com"): ("query", "post"),
    }


# --- 6. A lower-case product name (stop 54, filters55) --------------------------------------

GEMINI_REDIRECT_CAPTURES = (
    "gemini/generate_content_google_search_call1.json",
    "gemini/stream_generate_content_google_search.sse",
    "gemini/interactions_api_google_search.json",
)


@pytest.mark.parametrize(
    ("title", "site"),
    [("node.js", "nodejs.org"), ("vue.js", "vuejs.org"), ("three.js", "threejs.org")],
)
async def test_a_lower_case_product_name_is_not_read_as_a_host(
    sim: Simulator, title: str, site: str
) -> None:
    # Failed before: `node.js` in lower case read as the host node.js, every source was
    # dropped for `site:nodejs.org` and the search failed (no results matching).
    response = await _gemini(sim, f"{WEATHER} site:{site}", title)
    assert [s.title for s in response.sources] == [title]
    assert response.answer
    assert _record(response) == {("include_domains", site): ("query", "post", "ignored")}


@pytest.mark.parametrize("name", ["socket.io", "asp.net"])
async def test_a_product_named_as_its_own_site_is_still_read(sim: Simulator, name: str) -> None:
    """A guard: ``socket.io`` and ``asp.net`` end in a top-level domain and are hosts.

    Stop 54 (filters56) left ``asp.net`` read so on purpose: Gemini titles each source with
    its site's domain in lower case (all eight sites of the three captures), both names
    are their products' own sites, and a list of product names refused would refuse a
    real host and age as names are registered. A ``domain`` given beside the title wins
    over it (:func:`test_the_domain_wins_over_a_title_naming_another_host`); capitals or a
    space (``ASP.NET``, a page's words) already name none.
    """
    response = await _gemini(sim, f"{WEATHER} -site:{name}", name)
    assert name not in {s.title for s in response.sources}
    assert _record(response) == {("exclude_domains", name): ("query", "post")}


async def test_every_site_a_capture_titles_is_still_read_as_its_host(sim: Simulator) -> None:
    """A guard: ``site:`` each title of the streamed capture keeps that site's sources."""
    plain = await _gemini(sim, WEATHER)
    titles = {s.title for s in plain.sources if " " not in s.title}  # not a page's words
    assert len(titles) == 4
    for title in sorted(titles):
        response = await _gemini(sim, f"{WEATHER} site:{title}")
        assert {s.title for s in response.sources} == {title}
        assert _record(response) == {("include_domains", title): ("query", "post")}


async def test_a_site_on_a_top_level_domain_delegated_since_2023_is_read(sim: Simulator) -> None:
    # Failed before (stop 55, filters57): the table was the 2023 list's, `.hotel` (delegated
    # 2024) was no top-level domain, and `site:marriott.hotel` kept every source, recorded
    # as not checked on the one titled so.
    response = await _gemini(sim, f"{WEATHER} site:marriott.hotel", "marriott.hotel")
    assert [s.title for s in response.sources] == ["marriott.hotel"]
    assert _record(response) == {("include_domains", "marriott.hotel"): ("query", "post")}


@pytest.mark.parametrize("capture", GEMINI_REDIRECT_CAPTURES)
def test_every_redirect_title_of_the_captures_names_its_host(capture: str) -> None:
    """A guard: each capture's redirected sources, read by the provider's parsers (the
    Interactions API's too), still name a host by their titles, and the same one."""
    body = read_capture(capture)
    if capture.endswith(".sse"):
        chunks = events_chunks(parse_sse(body))[0]
        sources = parse_chunks(chunks, requested_model="m", auth_mode="k")
    elif "interactions" in capture:
        sources = parse_interaction(json.loads(body))
    else:
        sources = parse_chunks(body_chunks(body), requested_model="m", auth_mode="k")
    redirected = [s for s in sources.sources if is_redirect(urlsplit(s.url))]
    assert redirected
    assert [named_host(s.title) for s in redirected] == [s.title for s in redirected]


@pytest.mark.parametrize(
    ("directive", "titles"),
    [
        ("site:sap.com", {"sap.com"}),
        ("-site:youtube.com", {"marketingprofs.com", "sap.com", "etcjournal.com"}),
    ],
)
def test_the_interactions_api_sources_are_judged_on_their_sites(
    directive: str, titles: set[str]
) -> None:
    """A guard: the Interactions API's ``url_citation`` has no ``domain`` to read (Google's
    types: ``url``, ``title``, ``start_index``, ``end_index``), and its redirects are judged
    on their titles, each a site in lower case, as generateContent's are."""
    found = parse_interaction(json.loads(read_capture(GEMINI_REDIRECT_CAPTURES[2])))
    plan = plan_filters(SearchParams(query=f"AI news {directive}"), GEMINI_INFO)
    checked = apply_plan(plan, found)
    assert {s.title for s in checked.sources} == titles
    assert {c.title for c in checked.citations} == titles
