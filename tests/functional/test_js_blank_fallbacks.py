"""A field that JavaScript's ``trim()`` empties takes the fallback, as in the spec's reference.

Every parser falls back on a blank field: a title to the result's URL, a snippet to the
next text or to none (reference 8.7 Exa, 8.9 Jina, SearXNG, Brave, Parallel, Z.AI). The
reference decides blank with ``trim()``, which strips U+FEFF; the parsers decided it with
``str.strip``, which keeps it, so a title of a lone byte-order mark stayed the title (a
``[1]`` line that reads as nothing, where the URL belongs) and such a snippet stayed the
snippet instead of the next text.

Each search serves a real capture (read from the shared fixtures) with one field made a
BOM, through the loopback simulator, and reads what the model gets; Z.AI's REST body is
read by its pure parser, as its search path serves it over MCP.
"""

import json
from collections.abc import Callable
from typing import Any

import pytest

from tests.conftest import read_capture
from tests.functional._sim_helpers import sim_client
from websearch_core.models import SearchSource
from websearch_core.providers._codex_parse import parse_response_object
from websearch_core.providers._mojeek_parse import parse_page as parse_mojeek_page
from websearch_core.providers._xai_parse import parse_response_object as parse_xai_response
from websearch_core.providers._zai_parse import parse_payload
from websearch_core.testing import Fault, Simulator

BOM = "\ufeff"
"""What ``trim()`` strips and ``str.strip`` keeps: blank to the spec, text to Python."""

JSON = {"Content-Type": "application/json"}

_Pick = Callable[[dict[str, Any]], dict[str, Any]]

CAPTURES: dict[str, tuple[str, _Pick]] = {
    "exa": ("exa/search_doc_example_latest_llm_research.json", lambda b: b["results"][0]),
    "jina": ("jina/s_jina_ai_search_doc_example.json", lambda b: b["data"][0]),
    "brave": ("brave/web_search_laravel_2024.json", lambda b: b["web"]["results"][0]),
    "searxng": ("searxng/search_format_json_espresso_2026.json", lambda b: b["results"][0]),
    "parallel": ("parallel/v1_search_doc_example.json", lambda b: b["results"][0]),
}
"""Each provider's capture and how to reach its first result object."""


async def _first_source(provider_id: str, field: str, value: str) -> tuple[SearchSource, str]:
    """The first source when ``field`` of the capture's first result is ``value``, its URL."""
    capture, pick = CAPTURES[provider_id]
    body = json.loads(read_capture(capture))
    first = pick(body)
    assert field in first, f"{capture} has no {field}"
    first[field] = value
    async with Simulator([provider_id]) as sim:
        sim[provider_id].enqueue(Fault.http(200, json.dumps(body), JSON))
        async with sim_client(sim) as ws:
            result = await ws.run("latest llm research", provider=provider_id, use_cache=False)
    assert result.error is None, result.error
    source = result.response.sources[0]
    assert source.url == first["url"].strip()
    return source, result.text


@pytest.mark.parametrize("provider_id", sorted(CAPTURES))
@pytest.mark.parametrize("blank", [BOM, f" {BOM}\u3000{BOM}\n"])
async def test_a_blank_title_shows_the_url(provider_id: str, blank: str) -> None:
    source, text = await _first_source(provider_id, "title", blank)

    assert source.title == source.url
    assert any(line.startswith(f"[1] {source.url}") for line in text.splitlines())


@pytest.mark.parametrize(
    ("provider_id", "field", "next_field"),
    [
        ("exa", "summary", "text"),  # summary || text || highlights
        ("jina", "description", "content"),  # description.trim() || content.trim()
        ("brave", "description", None),
        ("searxng", "content", None),  # (content ?? snippet).trim()
    ],
)
async def test_a_blank_snippet_falls_back(
    provider_id: str, field: str, next_field: str | None
) -> None:
    source, _ = await _first_source(provider_id, field, BOM)

    if next_field is None:
        assert source.snippet is None
    else:
        capture, pick = CAPTURES[provider_id]
        following = pick(json.loads(read_capture(capture)))[next_field].strip()
        assert source.snippet is not None and following.startswith(source.snippet[:40])


async def test_exa_answer_names_a_blank_titled_summary_by_its_url() -> None:
    """Reference 8.7: each answer part is ``**<title.trim()|url|"Untitled">**: <summary>``."""
    source, text = await _first_source("exa", "title", BOM)

    assert f"**{source.url}**: " in text


def test_zai_blank_title_and_content_fall_back() -> None:
    body = json.loads(read_capture("zai/web_search_api_doc_example_2025.json"))
    first = body["search_result"][0]
    first["title"], first["content"], first["media"] = BOM, BOM, BOM

    source = parse_payload(body).sources[0]

    assert source.title == source.url == first["link"]
    assert source.snippet is None and source.author is None


def test_a_bom_before_a_letter_is_trimmed_as_trim_does_the_text_kept() -> None:
    """Only a field ``trim()`` empties falls back; a BOM before text is trimmed, as by it.

    Failed before stop 55 (outputs57): ``str.strip`` kept the BOM at the title's start.
    """
    body = json.loads(read_capture("zai/web_search_api_doc_example_2025.json"))
    first = body["search_result"][0]
    title = first["title"]
    first["title"] = f"{BOM}{title}{BOM}"

    source = parse_payload(body).sources[0]

    assert source.title == title != source.url


@pytest.mark.usefixtures("no_gemini_variables")
async def test_gemini_blank_grounding_title_shows_the_url() -> None:
    body = json.loads(read_capture("gemini/generate_content_google_search_call1.json"))
    chunk = body["candidates"][0]["groundingMetadata"]["groundingChunks"][0]["web"]
    chunk["title"] = BOM
    async with Simulator(["gemini"]) as sim:
        sim["gemini"].enqueue(Fault.http(200, json.dumps(body), JSON))
        async with sim_client(sim, rate_limit_wait_seconds=0) as ws:
            result = await ws.run("weather in san francisco", provider="gemini", use_cache=False)

    assert result.error is None, result.error
    source = result.response.sources[0]  # the capture's one grounding chunk
    assert source.title == source.url
    assert source.url.startswith("https://www.google.com/search?q=weather")


def test_codex_blank_citation_title_shows_the_url() -> None:
    body = json.loads(read_capture("openai/responses_web_search_url_citation_gpt5_2.json"))
    (message,) = [item for item in body["output"] if item.get("type") == "message"]
    note = message["content"][0]["annotations"][0]
    note["title"] = BOM

    sources = parse_response_object(body).sources

    assert sources and sources[0].title == sources[0].url
    assert sources[0].url in note["url"]


def test_xai_blank_citation_title_shows_the_url() -> None:
    body = json.loads(read_capture("xai/responses_web_search_tool.json"))
    (message,) = [item for item in body["output"] if item.get("type") == "message"]
    note = message["content"][0]["annotations"][0]
    note["title"] = BOM

    sources = parse_xai_response(body).sources

    assert sources and sources[0].url == note["url"]
    assert sources[0].title == sources[0].url


def test_mojeek_blank_title_shows_the_url() -> None:
    """A scraper's title goes through ``collapse_whitespace`` and falls back the same way."""
    page = read_capture("mojeek/serp_javascript_tutorial_2026.html").decode()
    title = ">The Modern JavaScript Tutorial</a"
    assert page.count(title) == 1

    sources = parse_mojeek_page(page.replace(title, ">\n  &#xFEFF; </a"))

    assert sources[0].url == "https://javascript.info/"
    assert sources[0].title == sources[0].url
