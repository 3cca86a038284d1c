"""One trim for every field trimmed for output or judged blank: the spec's, as shown.

The reference trims with JavaScript's ``trim()``; the parsers trimmed with ``str.strip``,
and the two disagree at a field's ends on U+FEFF (``trim()`` strips it, Python keeps it)
and on U+001C..U+001F and U+0085 (Python strips them, ``trim()`` keeps them). The blank
test that decides a fallback and renderability was ``trim()``'s, the trim itself Python's.
Now :func:`websearch_core.js_trim.trim` is the one rule: ``trim()``'s whitespace, and the
five separators too, because no output keeps them (the cleaning drops every C0 and C1
control), so ``trim()`` of the text as shown is this trim of the text as read.

Each search serves a real capture from ``../shared/fixtures`` through the loopback
simulator with one field changed, and reads what the model gets.
"""

import json
from collections.abc import Callable
from typing import Any, Final

import pytest

from tests.conftest import read_capture
from tests.functional._sim_helpers import sim_client
from websearch_core.js_trim import is_blank
from websearch_core.models import SearchToolResult
from websearch_core.testing import Fault, Simulator

BOM: Final = "\ufeff"
SEPARATORS: Final = ("\x1c", "\x1d", "\x1e", "\x1f", "\x85")
"""The characters ``str.strip`` strips and JavaScript's ``trim()`` keeps."""
JSON: Final = {"Content-Type": "application/json"}
TITLE: Final = "A title"

_Pick = Callable[[dict[str, Any]], dict[str, Any]]

CAPTURES: Final[dict[str, tuple[str, _Pick]]] = {
    "brave": ("brave/web_search_laravel_2024.json", lambda b: b["web"]["results"][0]),
    "exa": ("exa/search_doc_example_latest_llm_research.json", lambda b: b["results"][0]),
    "jina": ("jina/s_jina_ai_search_doc_example.json", lambda b: b["data"][0]),
    "parallel": ("parallel/v1_search_doc_example.json", lambda b: b["results"][0]),
    "searxng": ("searxng/search_format_json_espresso_2026.json", lambda b: b["results"][0]),
}
PERPLEXITY: Final = "perplexity/chat_completions_sonar_citations.json"


async def _served(provider_id: str, body: dict[str, Any]) -> SearchToolResult:
    async with Simulator([provider_id]) as sim:
        sim[provider_id].enqueue(Fault.http(200, json.dumps(body), JSON))
        async with sim_client(sim) as ws:
            result = await ws.run("trim rule", provider=provider_id, use_cache=False)
    assert result.error is None, result.error
    return result


async def _first_title(provider_id: str, title: str) -> tuple[str, str]:
    """The first source's title when the capture's first title is ``title``, and its URL."""
    capture, pick = CAPTURES[provider_id]
    body = json.loads(read_capture(capture))
    pick(body)["title"] = title
    source = (await _served(provider_id, body)).response.sources[0]
    return source.title, source.url


@pytest.mark.parametrize("separator", SEPARATORS)
def test_the_rule_trims_the_separators_and_a_bom_and_judges_them_blank(separator: str) -> None:
    """Failed before (``is_blank`` was ``trim()``'s alone): a separator is shown as nothing."""
    from websearch_core.js_trim import trim  # the rule's one function, new in stop 55

    assert trim(f"{BOM}{separator} {TITLE} {separator}{BOM}") == TITLE
    assert is_blank(separator) and is_blank(f" {BOM}{separator}\u3000")
    assert trim(f"a{separator}b") == f"a{separator}b"  # inner text is not the rule's


@pytest.mark.parametrize("provider_id", sorted(CAPTURES))
@pytest.mark.parametrize("separator", ["\x1c", "\x85"])
async def test_a_title_s_ends_lose_a_bom_and_the_separators(
    provider_id: str, separator: str
) -> None:
    """Failed before: ``str.strip`` stopped at the BOM, so ``[1]`` began with it."""
    title, _ = await _first_title(provider_id, f"{BOM}{separator} {TITLE} {separator}{BOM}")

    assert title == TITLE


@pytest.mark.parametrize("separator", SEPARATORS)
async def test_a_title_of_a_separator_alone_shows_the_url(separator: str) -> None:
    """A guard (held before): a title the output would show as nothing falls back.

    ``trim()`` alone would keep ``"\\x1f"`` as the title and the cleaning would then print
    an empty ``[1]`` line where the URL belongs.
    """
    title, url = await _first_title("brave", f" {separator} ")

    assert title == url


@pytest.mark.parametrize("separator", SEPARATORS)
async def test_exa_s_separator_summary_falls_back_to_its_text(separator: str) -> None:
    """A guard (held before): Exa's ``summary || text`` moves on past a blank summary."""
    capture, pick = CAPTURES["exa"]
    body = json.loads(read_capture(capture))
    first = pick(body)
    first["summary"] = f"{BOM}{separator}"

    source = (await _served("exa", body)).response.sources[0]

    assert source.snippet is not None
    assert first["text"].strip().startswith(source.snippet[:40])


async def test_an_answer_s_ends_lose_a_bom_and_the_separators() -> None:
    """Failed before: Perplexity's answer began with the BOM ``str.strip`` kept."""
    body = json.loads(read_capture(PERPLEXITY))
    message = body["choices"][0]["message"]
    answer = message["content"]
    message["content"] = f"{BOM}\x1e\n{answer}\x85{BOM}"

    result = await _served("perplexity", body)

    assert result.response.answer is not None
    assert result.response.answer.startswith(answer.strip()[:60])
    assert result.text.startswith(answer[:60])
    assert not result.response.answer.endswith(BOM)


async def test_a_provider_s_page_text_is_trimmed_by_the_rule() -> None:
    """Failed before: Jina's page (its ``content``) kept the BOMs at its ends."""
    capture, pick = CAPTURES["jina"]
    body = json.loads(read_capture(capture))
    first = pick(body)
    content = first["content"]
    first["content"] = f"{BOM}\x1d\n{content}\n\x85{BOM}"

    source = (await _served("jina", body)).response.sources[0]

    assert source.content is not None
    assert source.content.text == content.strip()
