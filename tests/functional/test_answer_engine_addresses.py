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
"""

import base64
import json
import re
import time
from collections.abc import AsyncIterator

import pytest

from tests.conftest import read_capture
from tests.functional._sim_helpers import sim_client
from websearch_core import SearchResponse
from websearch_core.credentials import CredentialStore, OAuthToken
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
        CredentialStore(simulator.settings().resolved_credentials_file()).set_oauth(
            "codex",
            OAuthToken(
                access_token=_jwt(), refresh_token="refresh-1", expires_at=time.time() + 3600
            ),
        )
        yield simulator


def _jwt() -> str:
    """A token whose claims name a ChatGPT account, as Codex's sign-in leaves one."""
    claims = {"https://api.openai.com/auth": {"chatgpt_account_id": "acct-sim"}}
    payload = base64.urlsafe_b64encode(json.dumps(claims).encode()).decode().rstrip("=")
    return f"eyJhbGciOiJSUzI1NiJ9.{payload}.sig"


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
