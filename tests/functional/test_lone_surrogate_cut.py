"""A lone surrogate in upstream text that a provider cuts does not cost the answer.

JSON may escape half a surrogate pair (``"\\ud800"``), which decodes to a lone surrogate.
The spec cuts Exa's snippet to 500 characters (reference 8.7) and every snippet the model
reads to 240 (§Outputs), counting UTF-16 code units as JavaScript does, where a lone
surrogate is one unit like any other. Exa's snippet and Brave's title are cut as they are
read, before cleaning drops such a character, and the cut encoded strictly: one escape in
a long field refused the whole answer as ``'utf-16-le' codec can't encode character``, and
past the length an error's text is cut to (about 8,000 units) the search raised that
``UnicodeEncodeError`` out of ``WebSearch.run``: cutting the failure's own text (which
quotes the field) raised again, where §Outputs says a failure is returned, never thrown.

Each search serves a real capture (read from the shared fixtures) with one field made
long around such an escape, through the loopback simulator, and reads what the model
gets; the last test cuts a response's snippet where the spec's own slice would.
"""

import json
from typing import Any

import pytest

from tests.conftest import read_capture
from tests.functional._sim_helpers import sim_client
from websearch_core.format import ELLIPSIS, SNIPPET_LIMIT, format_for_llm, utf16_len
from websearch_core.models import SearchResponse, SearchSource
from websearch_core.testing import Fault, Simulator

LONE = "\ud800"
"""Half a surrogate pair, as ``json.loads`` decodes the escape ``\\ud800``."""

JSON = {"Content-Type": "application/json"}


def _has_lone_surrogate(text: str) -> bool:
    return any("\ud800" <= char <= "\udfff" for char in text)


def _long_around_a_lone_surrogate(text: str, units: int) -> str:
    """``text``, the lone surrogate, then ``text`` again until past ``units`` units."""
    return text + LONE + text * (units // max(len(text), 1) + 2)


async def _search(provider_id: str, body: dict[str, Any]) -> Any:
    """The search forced to ``provider_id`` whose server answers ``body`` (JSON, escaped)."""
    async with Simulator([provider_id]) as sim:
        sim[provider_id].enqueue(Fault.http(200, json.dumps(body), JSON))
        async with sim_client(sim) as ws:
            return await ws.run("latest llm research", provider=provider_id, use_cache=False)


@pytest.mark.parametrize("field", ["summary", "text"])
async def test_exa_reads_a_long_field_holding_a_lone_surrogate(field: str) -> None:
    body = json.loads(read_capture("exa/search_doc_example_latest_llm_research.json"))
    first = body["results"][0]
    first[field] = _long_around_a_lone_surrogate(first[field], 600)
    if field == "text":
        del first["summary"]  # the snippet is the summary, else the text

    result = await _search("exa", body)

    assert result.error is None, result.error
    source = result.response.sources[0]
    assert source.url == first["url"]
    assert source.snippet is not None and source.snippet.endswith(ELLIPSIS)
    assert source.snippet.startswith(first[field].split(LONE)[0][:40])
    assert not _has_lone_surrogate(result.text)


async def test_a_field_longer_than_an_error_text_is_read_not_raised() -> None:
    body = json.loads(read_capture("exa/search_doc_example_latest_llm_research.json"))
    first = body["results"][0]
    first["summary"] = _long_around_a_lone_surrogate(first["summary"], 20_000)

    result = await _search("exa", body)

    assert result.error is None, result.error
    assert result.response.sources[0].url == first["url"]
    assert result.response.answer is not None
    assert not _has_lone_surrogate(result.text)


async def test_searxng_engine_reason_holding_a_lone_surrogate_keeps_the_results() -> None:
    """A long reason an engine did not answer is logged cut; cutting it raised before."""
    body = json.loads(read_capture("searxng/search_format_json_espresso_2026.json"))
    engine, reason = body["unresponsive_engines"][0]
    body["unresponsive_engines"][0] = [engine, _long_around_a_lone_surrogate(reason, 20_000)]

    result = await _search("searxng", body)

    assert result.error is None, result.error
    kept = [source.url for source in result.response.sources]
    assert kept and kept[0] == body["results"][0]["url"]


async def test_brave_reads_a_long_title_holding_a_lone_surrogate() -> None:
    body = json.loads(read_capture("brave/web_search_laravel_2024.json"))
    first = body["web"]["results"][0]
    first["title"] = _long_around_a_lone_surrogate(first["title"], 400)

    result = await _search("brave", body)

    assert result.error is None, result.error
    assert len(result.response.sources) == len(body["web"]["results"])
    assert result.response.sources[0].url == first["url"]
    title = result.response.sources[0].title
    assert title.startswith(first["title"].split(LONE)[0]) and title.endswith(ELLIPSIS)
    assert not _has_lone_surrogate(result.text)


def test_a_snippet_holding_a_lone_surrogate_is_cut_as_the_spec_slices_it() -> None:
    """§Outputs: the snippet line is ``truncateText(snippet, 240)``, JavaScript's slice.

    The lone surrogate counts one unit and stays where it stood, as it would there; only
    a provider's cleaning (which the search path runs) drops it.
    """
    snippet = "é" * 100 + LONE + "é" * 300
    response = SearchResponse(
        provider="brave",
        sources=(SearchSource(title="T", url="https://a.example/", snippet=snippet),),
    )

    line = format_for_llm(response).splitlines()[-1]

    assert line == "    " + snippet[: SNIPPET_LIMIT - 1] + ELLIPSIS
    assert utf16_len(line.strip()) == SNIPPET_LIMIT
