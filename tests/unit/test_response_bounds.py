"""No field of a 200 body can fill the model's text, the ``--json`` output or the cache.

Stop 51 cut every one-line text (titles, dates, authors; ``test_line_limits``). What a
response carries besides was left whole: a megabyte of answer, of snippet or cited text
(cut to 240 in the model's text, kept whole in the details and the cache), of a note, or
of ``model`` / ``request_id`` went everywhere whole. :mod:`websearch_core.sanitize` now
bounds each by what it is, masking first. These searches serve a real capture from
``../shared/fixtures`` through the loopback simulator with one field grown to a megabyte,
and read the tool's text, the command's JSON and the row the cache stored.
"""

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

import pytest

from tests.conftest import read_capture
from tests.unit._served_bodies import Served, serve_body
from websearch_core.redaction import MASK
from websearch_core.utf16_text import utf16_len

MEGABYTE: Final = 1_000_000
BIG: Final = "M" * MEGABYTE
ANSWER_LIMIT: Final = 100_000
ANSWER_MARK: Final = "…\n\n[Answer cut: longer than 100,000 characters.]"
KEPT_SNIPPET_LIMIT: Final = 10_000
NOTE_LIMIT: Final = 1_000
ID_LIMIT: Final = 100
LONE: Final = "<lone surrogate>"
"""Stands for ``\\ud800`` escaped in the served JSON."""

Body = dict[str, Any]
Edit = Callable[[Body, str], None]


def _capture(relative: str) -> Body:
    data: Body = json.loads(read_capture(relative))
    return data


def _tavily_answer(body: Body, text: str) -> None:
    body["answer"] = text


def _perplexity_answer(body: Body, text: str) -> None:
    body["choices"][0]["message"]["content"] = text


def _anthropic_answer(body: Body, text: str) -> None:
    next(block for block in body["content"] if block.get("type") == "text")["text"] = text


def _xai_answer(body: Body, text: str) -> None:
    for item in body["output"]:
        for part in item.get("content") or []:
            if part.get("type") == "output_text":
                part["text"] = text


def _gemini_answer(body: Body, text: str) -> None:
    body["candidates"][0]["content"]["parts"][0]["text"] = text


def _gemini_title(body: Body, text: str) -> None:
    body["candidates"][0]["groundingMetadata"]["groundingChunks"][0]["web"]["title"] = text


def _gemini_cited_text(body: Body, text: str) -> None:
    body["candidates"][0]["groundingMetadata"]["groundingSupports"][0]["segment"]["text"] = text


def _xai_citation_title(body: Body, text: str) -> None:
    for item in body["output"]:
        for part in item.get("content") or []:
            for note in part.get("annotations") or []:
                note["title"] = text


def _searxng_reason(body: Body, text: str) -> None:
    body["unresponsive_engines"] = [["google", text]]


def _set(*path: str | int) -> Edit:
    """An edit writing the text at ``path`` (keys and list indexes) in the body."""

    def edit(body: Body, text: str) -> None:
        holder: Any = body
        for step in path[:-1]:
            holder = holder[step]
        holder[path[-1]] = text

    return edit


CAPTURES: Final = {
    "tavily": "tavily/search_basic_pydantic_ai.json",
    "perplexity": "perplexity/chat_completions_sonar_citations.json",
    "anthropic": "anthropic/messages_web_search_tool_call1.json",
    "xai": "xai/responses_web_search_tool.json",
    "gemini": "gemini/generate_content_google_search_call1.json",
    "exa": "exa/search_doc_example_latest_llm_research.json",
    "searxng": "searxng/search_format_json_espresso_2026.json",
}
"""The real capture each provider's 200 is served from."""
ANSWERS: Final[dict[str, Edit]] = {
    "tavily": _tavily_answer,
    "perplexity": _perplexity_answer,
    "anthropic": _anthropic_answer,
    "xai": _xai_answer,
    "gemini": _gemini_answer,
}
IDS: Final[list[tuple[str, str, Edit]]] = [
    ("tavily", "request_id", _set("request_id")),
    ("perplexity", "request_id", _set("id")),
    ("perplexity", "model", _set("model")),
    ("anthropic", "request_id", _set("id")),
    ("anthropic", "model", _set("model")),
    ("xai", "request_id", _set("id")),
    ("xai", "model", _set("model")),
    ("gemini", "request_id", _set("responseId")),
    ("gemini", "model", _set("modelVersion")),
    ("exa", "request_id", _set("requestId")),
]


async def _search(
    provider: str, edit: Edit, text: str, state: Path | None = None, key_in: bool = False
) -> Served:
    """Search ``provider`` answering its capture with ``edit(body, text)`` applied.

    Args:
        provider: The provider searched (its capture is :data:`CAPTURES`'s).
        edit: Where the text goes in the body.
        text: The text put there; with ``key_in``, ``{key}`` in it is the call's key.
        state: A directory for a SQLite store (the cache on); ``None``: no cache.
        key_in: Put the provider's key where ``text`` says ``{key}``.
    """

    def body_for(key: str) -> tuple[str, str]:
        body = _capture(CAPTURES[provider])
        edit(body, text.replace("{key}", key) if key_in else text)
        # A lone surrogate can only be sent escaped: JSON's \ud800, as an upstream may.
        served = json.dumps(body, ensure_ascii=False).replace(LONE, "\\ud800")
        if provider == "gemini":  # the Developer API streams (alt=sse)
            return f"data: {served}\n\n", "text/event-stream"
        return served, "application/json"

    return await serve_body(provider, body_for, state)


@pytest.mark.parametrize("provider", sorted(ANSWERS))
async def test_a_megabyte_answer_is_cut_and_the_cut_is_said(provider: str, tmp_path: Path) -> None:
    served = await _search(provider, ANSWERS[provider], BIG, tmp_path)
    answer = served.result.response.answer
    assert answer is not None
    assert utf16_len(answer) == ANSWER_LIMIT
    assert answer.endswith(ANSWER_MARK)
    assert answer.startswith("M" * 1000)
    assert f"M{ANSWER_MARK}" in served.text  # the model reads the mark too
    # Each a megabyte and more before.
    assert len(served.text) < ANSWER_LIMIT + 10_000
    assert len(served.json) < ANSWER_LIMIT + 10_000
    assert served.cache_rows and max(served.cache_rows) < ANSWER_LIMIT + 10_000


async def test_an_answer_at_the_limit_is_kept_whole() -> None:
    """A guard: an answer of exactly the limit is not touched (passes before and after)."""
    answer = "A" * (ANSWER_LIMIT - 2) + "😀"
    served = await _search("tavily", _tavily_answer, answer)
    assert served.result.response.answer == answer


async def test_the_answer_cut_counts_utf16_units() -> None:
    served = await _search("tavily", _tavily_answer, "😀" * (MEGABYTE // 4))
    answer = served.result.response.answer
    assert answer is not None and answer.endswith(ANSWER_MARK)
    assert utf16_len(answer) <= ANSWER_LIMIT
    assert answer.removesuffix(ANSWER_MARK).strip("😀") == ""


async def test_a_key_across_the_answer_s_cut_is_masked_whole() -> None:
    head = ANSWER_LIMIT - utf16_len(ANSWER_MARK) - 5
    served = await _search("tavily", _tavily_answer, "a" * head + "{key}" + BIG, key_in=True)
    answer = served.result.response.answer
    assert answer is not None and answer.endswith(ANSWER_MARK)
    assert answer.startswith("a" * head + MASK + "M")  # masked whole, then cut
    assert served.key[:4] not in answer


async def test_a_megabyte_snippet_is_cut_in_the_details_and_the_cache(tmp_path: Path) -> None:
    edit = _set("results", 0, "content")
    served = await _search("tavily", edit, BIG, tmp_path)
    snippet = served.result.response.sources[0].snippet
    assert snippet == "M" * (KEPT_SNIPPET_LIMIT - 1) + "…"
    assert f"    {'M' * 239}…\n" in served.text  # the model's cut, as before
    assert len(served.json) < KEPT_SNIPPET_LIMIT + 10_000
    assert served.cache_rows and max(served.cache_rows) < KEPT_SNIPPET_LIMIT + 10_000


async def test_a_megabyte_cited_text_is_cut_in_the_details() -> None:
    served = await _search("gemini", _gemini_cited_text, BIG)
    cited = [c.cited_text for c in served.result.response.citations if c.cited_text]
    assert "M" * (KEPT_SNIPPET_LIMIT - 1) + "…" in cited
    assert max(map(len, cited)) == KEPT_SNIPPET_LIMIT
    assert len(served.json) < 4 * KEPT_SNIPPET_LIMIT


@pytest.mark.parametrize(("provider", "field", "edit"), IDS, ids=[f"{p}-{f}" for p, f, _ in IDS])
async def test_a_megabyte_model_or_request_id_is_cut_small(
    provider: str, field: str, edit: Edit
) -> None:
    served = await _search(provider, edit, BIG)
    assert getattr(served.result.response, field) == "M" * (ID_LIMIT - 1) + "…"
    assert len(served.json) < 20_000


async def test_a_key_across_the_request_id_s_cut_is_masked_whole() -> None:
    served = await _search(
        "tavily", _set("request_id"), "r" * 95 + "{key}" + "x" * 1000, key_in=True
    )
    request_id = served.result.response.request_id
    assert request_id is not None
    assert request_id == "r" * 95 + MASK + "x…"  # masked whole, then cut
    assert served.key[:4] not in request_id


async def test_a_megabyte_engine_reason_is_cut_in_the_note() -> None:
    served = await _search("searxng", _searxng_reason, BIG)
    (note,) = served.result.response.notes
    assert note.startswith("SearXNG engine did not answer: google: MMM")
    assert utf16_len(note) == NOTE_LIMIT
    assert note.endswith("M…")
    assert len(served.json) < 20_000


@pytest.mark.parametrize("edit", [_gemini_title, _xai_citation_title])
async def test_gemini_s_and_xai_s_served_titles_are_cut(edit: Edit) -> None:
    """A guard: stop 51's line cut reaches Gemini's grounding and xAI's citation titles."""
    provider = "gemini" if edit is _gemini_title else "xai"
    served = await _search(provider, edit, BIG)
    titles = [line for line in served.text.split("\n") if line.startswith("[")]
    assert any(f"{'M' * 299}…" in line for line in titles), served.text[:500]
    assert "M" * 300 not in served.text
    assert len(served.json) < 20_000


@pytest.mark.parametrize(
    ("edit", "field"),
    [(_set("request_id"), "request_id"), (_set("results", 0, "title"), "title")],
    ids=["request_id", "title"],
)
async def test_a_lone_surrogate_in_a_long_field_is_dropped_not_fatal(
    edit: Edit, field: str
) -> None:
    """Lengths are measured before cleaning drops a lone surrogate; measuring one raised."""
    served = await _search("tavily", edit, "x" * 200 + LONE)
    response = served.result.response
    kept = response.request_id if field == "request_id" else response.sources[0].title
    assert kept == ("x" * (ID_LIMIT - 1) + "…" if field == "request_id" else "x" * 200)
