"""Gemini's grounding sources are redirects: a filter reads the host their titles name.

Stop 52 (inputs54) replayed the real grounded stream
(``fixtures/gemini/stream_generate_content_google_search.sse``) through the filters: four of
its five sources are ``vertexaisearch.cloud.google.com/grounding-api-redirect/...`` URLs
titled with their site's domain (``weather.gov``, ``accuweather.com``). Judged on the URL,
``site:weather.gov`` dropped all five and the answer with them (``no results matching the
filters``), while ``-site:weather.gov`` and ``-filetype:pdf`` kept all five and their
citations under a record of ``query + post``, as if checked. The checks now read a
redirect's host from its title, keep the URL as Gemini sent it, and keep (recorded as not
checked on it, ``ignored``) a source whose host or type nothing names.

Each test serves the capture itself through the loopback simulator's Gemini endpoint; one
retitles a source in it to a page's words, a title naming no host.
"""

from collections.abc import AsyncIterator
from urllib.parse import urlsplit

import pytest

from tests.conftest import SHARED_FIXTURES, read_capture
from tests.functional._sim_helpers import only_failure, sim_client
from websearch_core import SearchResponse
from websearch_core.filters.note import ignored_note
from websearch_core.filters.redirects import is_redirect
from websearch_core.testing import Fault, Simulator
from websearch_core.testing.simulator import SimResult

pytestmark = pytest.mark.usefixtures("no_gemini_variables")

CAPTURE = "gemini/stream_generate_content_google_search.sse"
EVENT_STREAM = {"Content-Type": "text/event-stream"}
QUERY = "weather in San Francisco"


def _capture_events(retitle: tuple[str, str] | None = None) -> str:
    """The captured stream's events, a grounding chunk's title swapped when asked."""
    text = read_capture(CAPTURE).decode("utf-8").replace("\r\n", "\n")
    if retitle is not None:
        before, after = (f'"title": "{title}"' for title in retitle)
        assert before in text
        text = text.replace(before, after)
    return "".join(f"{event}\n\n" for event in text.split("\n\n") if event.strip())


@pytest.fixture
async def sim() -> AsyncIterator[Simulator]:
    async with Simulator(["gemini"]) as simulator:
        yield simulator


async def _search(
    sim: Simulator, query: str, retitle: tuple[str, str] | None = None
) -> SearchResponse:
    sim["gemini"].enqueue(Fault.http(200, _capture_events(retitle), EVENT_STREAM))
    async with sim_client(sim) as ws:
        return await ws.search(query, provider="gemini")


def _record(response: SearchResponse) -> dict[str, tuple[str, ...]]:
    return {f.name: tuple(f.applied) for f in response.filters}


async def test_a_wanted_site_keeps_the_source_its_title_names_and_the_answer(
    sim: Simulator,
) -> None:
    # Failed before: all five sources dropped, "no results matching the filters".
    plain = await _search(sim, QUERY)
    response = await _search(sim, f"{QUERY} site:weather.gov")
    assert response.answer == plain.answer
    assert [s.title for s in response.sources] == ["weather.gov"]
    (on_site,) = [s for s in plain.sources if s.title == "weather.gov"]
    assert response.sources[0].url == on_site.url  # the redirect, as Gemini sent it
    assert response.citations
    assert {c.url for c in response.citations} == {on_site.url}
    assert _record(response) == {"include_domains": ("query", "post")}


async def test_an_excluded_site_drops_the_source_its_title_names(sim: Simulator) -> None:
    # Failed before: weather.gov's source and its citations stayed, recorded as checked.
    plain = await _search(sim, QUERY)
    response = await _search(sim, f"{QUERY} -site:weather.gov")
    titles = [s.title for s in plain.sources if s.title != "weather.gov"]
    assert [s.title for s in response.sources] == titles
    assert "weather.gov" not in {c.title for c in response.citations}
    assert len(response.citations) < len(plain.citations)
    assert response.answer == plain.answer
    assert _record(response) == {"exclude_domains": ("query", "post")}


async def test_an_excluded_file_type_is_recorded_as_not_checked_on_redirects(
    sim: Simulator,
) -> None:
    # Failed before: recorded ("query", "post"), though no redirect's URL names a type.
    plain = await _search(sim, QUERY)
    response = await _search(sim, f"{QUERY} -filetype:pdf")
    assert [s.url for s in response.sources] == [s.url for s in plain.sources]
    assert _record(response) == {"exclude_filetype": ("query", "post", "ignored")}
    note = "Filters not applied: exclude_filetype=pdf (some results unchecked)."
    assert ignored_note(response) == note  # the line the model reads under the sources


async def test_a_redirect_whose_title_names_no_host_is_kept_and_not_checked(
    sim: Simulator,
) -> None:
    # Failed before: every source dropped and the answer with them.
    retitle = ("weather.gov", "National Weather Service forecast")
    response = await _search(sim, f"{QUERY} site:nws.noaa.gov", retitle)
    assert [s.title for s in response.sources] == [retitle[1]]
    assert response.answer
    assert _record(response) == {"include_domains": ("query", "post", "ignored")}


@pytest.mark.parametrize(
    ("query", "name"),
    [("site:weather.gov/forecast", "include_domains"), ("-site:weather.gov/x", "exclude_domains")],
)
async def test_a_path_site_on_the_host_a_title_names_is_kept_and_not_checked(
    sim: Simulator, query: str, name: str
) -> None:
    # The host is named, the page's path is not: on weather.gov, under /forecast or /x is
    # unknown. Failed before (site: dropped every source; -site: recorded it as checked).
    plain = await _search(sim, QUERY)
    response = await _search(sim, f"{QUERY} {query}")
    kept = {s.title for s in response.sources}
    assert "weather.gov" in kept
    assert kept == (
        {"weather.gov"} if name == "include_domains" else {s.title for s in plain.sources}
    )
    assert _record(response) == {name: ("query", "post", "ignored")}


async def test_a_redirect_titled_with_its_own_host_is_kept_and_not_checked(
    sim: Simulator,
) -> None:
    # The simulator titles a chunk with its URL's host, as a title missing from a chunk
    # would leave a URL: the redirect's host names no page's. Failed before (dropped).
    redirect = "https://vertexaisearch.cloud.google.com/grounding-api-redirect/AUZsim"
    sim["gemini"].results = [
        SimResult("Redirected", redirect, "Weather, redirected."),
        SimResult("Other", "https://b.org/weather", "Weather elsewhere."),
    ]
    async with sim_client(sim) as ws:
        response = await ws.search(f"{QUERY} site:a.org", provider="gemini")
    assert [s.url for s in response.sources] == [redirect]
    assert response.answer
    assert _record(response) == {"include_domains": ("query", "post", "ignored")}


async def test_guard_a_site_no_title_names_still_drops_every_source(sim: Simulator) -> None:
    """Guard (passes before and after): every host read, none asked: the answer goes."""
    sim["gemini"].enqueue(Fault.http(200, _capture_events(), EVENT_STREAM))
    async with sim_client(sim) as ws:
        failure = await only_failure(ws, "gemini", f"{QUERY} site:python.org")
    assert "no results matching the filters" in failure.message


_ANSWER_ENGINES = ("perplexity", "anthropic", "xai", "openai", "zai", "kimi")


@pytest.mark.parametrize("engine", _ANSWER_ENGINES)
def test_guard_no_other_answer_engine_capture_holds_a_known_redirect(engine: str) -> None:
    """Guard: the other answer engines' captures give pages' own URLs (none redirected).

    Only Gemini's are listed in ``REDIRECTS``; a capture of another engine holding one of
    them would mean its sources need the same reading.
    """
    folder = SHARED_FIXTURES / engine
    captures = sorted(p for p in folder.iterdir() if p.is_file()) if folder.is_dir() else []
    if not captures:
        pytest.skip(f"no capture of {engine}")
    for path in captures:
        text = read_capture(f"{engine}/{path.name}").decode("utf-8", "replace")
        urls = [word.strip("\"',)]}>\\") for word in text.replace('"', " ").split()]
        redirected = [u for u in urls if u.startswith("http") and is_redirect(urlsplit(u))]
        assert redirected == [], path.name


async def test_guard_the_gemini_capture_is_of_redirects(sim: Simulator) -> None:
    """Guard: the shape the reading is for is the capture's (4 of 5 sources redirected)."""
    plain = await _search(sim, QUERY)
    redirected = [s.title for s in plain.sources if is_redirect(urlsplit(s.url))]
    assert redirected == ["timeanddate.com", "weather.gov", "wunderground.com", "accuweather.com"]
