"""Page text that search providers send with their results becomes ``SearchSource.content``.

Read from the real captures: Firecrawl's scraped Markdown, Exa's ``text`` and Jina's
``content`` are there; Tavily's captures carry ``raw_content: null``, so one test fills it
in on a copy of a capture to show the field is read when it is present.
"""

import json
import subprocess
import sys
from typing import Any

from tests.conftest import read_capture
from websearch_core.content.models import PageContent, provided_page
from websearch_core.providers import _exa_parse, firecrawl, jina, tavily


def _capture(relative: str) -> Any:
    return json.loads(read_capture(relative))


def test_firecrawl_scraped_markdown_is_the_page() -> None:
    data = _capture("firecrawl/v2_search_firecrawl_with_markdown.json")
    sources = firecrawl.parse_results(data)
    by_url = {item["url"]: item for item in data["data"]["web"]}
    scraped = [source for source in sources if by_url[source.url].get("markdown")]
    assert [source.url for source in scraped] == [
        "https://www.firecrawl.dev/",
        "https://github.com/firecrawl/firecrawl",
        "https://github.com/firecrawl",
    ]
    first = scraped[0].content
    assert first is not None
    assert first.url == "https://www.firecrawl.dev/"
    assert first.title == "Firecrawl - The Web Data API for AI"
    assert first.markdown == by_url["https://www.firecrawl.dev/"]["markdown"].strip()
    assert "# Turn websites into   LLM-ready data" in first.markdown
    assert first.text == first.markdown
    assert first.fetched_with is None  # not fetched by us
    unscraped = [source for source in sources if source not in scraped]
    assert [source.url for source in unscraped] == [
        "https://x.com/firecrawl_dev?lang=en",
        "https://www.linkedin.com/company/firecrawl",
    ]
    assert all(source.content is None for source in unscraped)


def test_exa_text_is_the_page() -> None:
    data = _capture("exa/search_doc_example_latest_llm_research.json")
    (source,) = _exa_parse.parse_results(data)
    assert source.content == PageContent(
        url="https://arxiv.org/pdf/2307.06435.pdf",
        title="A Comprehensive Overview of Large Language Models",
        text="Abstract Large Language Models (LLMs) have recently demonstrated remarkable "
        "capabilities...",
        markdown="Abstract Large Language Models (LLMs) have recently demonstrated remarkable "
        "capabilities...",
    )


def test_exa_listing_text_is_the_page() -> None:
    listing = (
        "Title: One\nURL: https://one.example/\nText: First line.\nSecond line.\n\n"
        "Title: Two\nURL: https://two.example/\n"
    )
    one, two = _exa_parse.parse_plain_text(listing)
    assert one.content is not None
    assert one.content.text == "First line.\nSecond line."
    assert two.content is None


def test_jina_content_is_the_page() -> None:
    data = _capture("jina/s_jina_ai_search_doc_example.json")
    sources = jina.parse_sources(data)
    assert [(s.url, s.content.markdown if s.content else None) for s in sources] == [
        ("https://jina.ai/", "Jina AI - Your Search Foundation, Supercharged..."),
        ("https://www.cbinsights.com/company/jina-ai/people", "Jina AI Management Team..."),
    ]
    assert sources[0].content is not None
    assert sources[0].content.title == "Jina AI - Your Search Foundation, Supercharged."


def test_tavily_raw_content_is_the_page_when_present() -> None:
    data = _capture("tavily/search_basic_pydantic_ai.json")
    assert all(item["raw_content"] is None for item in data["results"])
    assert all(source.content is None for source in tavily.parse_results(data))

    data["results"][1]["raw_content"] = "  # Page\n\nThe whole page.  "
    sources = tavily.parse_results(data)
    assert sources[1].content is not None
    assert sources[1].content.markdown == "# Page\n\nThe whole page."
    assert sources[1].content.url == data["results"][1]["url"].strip()
    assert [index for index, s in enumerate(sources) if s.content is not None] == [1]


def test_blank_or_odd_bodies_give_no_page() -> None:
    for body in (None, "", "  \n", 5, ["text"], {"text": "x"}):
        assert provided_page("https://a.example/", "A", body) is None
    page = provided_page("https://a.example/", "", "Body")
    assert page is not None and page.title is None


def test_the_models_import_no_cycle() -> None:
    # websearch_core.models imports the content package; each must import first, alone.
    for module in ("websearch_core.models", "websearch_core.content", "websearch_core.cache"):
        completed = subprocess.run(
            [sys.executable, "-c", f"import {module}"], capture_output=True, text=True, check=False
        )
        assert completed.returncode == 0, completed.stderr
