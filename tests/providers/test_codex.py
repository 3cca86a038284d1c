"""Codex (label OpenAI): request building, the Responses stream and object parsers, no server."""

import base64
import json
import time
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import read_capture
from websearch_core.credentials import Credentials, CredentialStore, OAuthToken
from websearch_core.errors import (
    AuthorizationError,
    CreditsSpentError,
    ProviderNotConfiguredError,
    ProviderUnavailableError,
    QuotaExhaustedError,
    RateLimitedError,
    ResponseParseError,
    SearchProviderError,
)
from websearch_core.models import SearchParams, SearchUsage
from websearch_core.providers import get_provider
from websearch_core.providers._codex_text import snippet_around
from websearch_core.providers.base import ProviderContext
from websearch_core.providers.codex import (
    CODEX_ENDPOINT,
    DEFAULT_INSTRUCTIONS,
    DEFAULT_MODELS,
    INFO,
    CodexProvider,
    NoWebSearchError,
    account_claims,
    links_in_text,
    parse_body,
    parse_response_object,
    parse_stream,
    request_body,
    request_headers,
    strip_openai_utm,
)
from websearch_core.settings import Settings
from websearch_core.sse import SseEvent, parse_sse
from websearch_core.transport import HttpRequest, SseResponse


def jwt(claims: dict[str, Any]) -> str:
    def part(value: dict[str, Any]) -> str:
        return base64.urlsafe_b64encode(json.dumps(value).encode()).decode().rstrip("=")

    return f"{part({'alg': 'RS256'})}.{part(claims)}.signature"


TOKEN = jwt(
    {
        "https://api.openai.com/auth": {
            "chatgpt_account_id": "acct-123",
            "chatgpt_data_residency": "eu",
        }
    }
)


def capture(name: str) -> Any:
    return json.loads(read_capture(f"openai/{name}"))


def events(*payloads: dict[str, Any]) -> list[SseEvent]:
    return [SseEvent(data=json.dumps(p), event=str(p.get("type", "message"))) for p in payloads]


SEARCH_CALL = {
    "type": "web_search_call",
    "status": "completed",
    "action": {"type": "search", "query": "q"},
}


def message(text: str, annotations: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {
        "type": "message",
        "role": "assistant",
        "content": [{"type": "output_text", "text": text, "annotations": annotations or []}],
    }


# --- facts ------------------------------------------------------------------------------------


def test_registry_returns_the_codex_provider_with_its_facts() -> None:
    assert isinstance(get_provider("codex"), CodexProvider)
    assert (INFO.id, INFO.label, INFO.kind) == ("codex", "OpenAI", "answer")
    assert INFO.env_vars == ()
    assert INFO.honours == {"query", "limit", "num_search_results"}
    assert INFO.docs_url.startswith("https://platform.openai.com/")
    assert CODEX_ENDPOINT == "https://chatgpt.com/backend-api/codex/responses"


# --- request ----------------------------------------------------------------------------------


def test_request_body() -> None:
    params = SearchParams(
        query="latest rust release", recency="day", max_tokens=50, temperature=1.0
    )
    assert request_body(params, model="gpt-5.5", instructions="Cite sources.") == {
        "model": "gpt-5.5",
        "stream": True,
        "store": False,
        "instructions": "Cite sources.",
        "input": [
            {
                "type": "message",
                "role": "user",
                "content": [{"type": "input_text", "text": "latest rust release"}],
            }
        ],
        "tools": [{"type": "web_search", "search_context_size": "high"}],
        "tool_choice": {"type": "web_search"},
        "include": ["web_search_call.action.sources"],
        "parallel_tool_calls": True,
    }
    assert request_body(params, model="m")["instructions"] == DEFAULT_INSTRUCTIONS


def test_headers_carry_the_account_and_residency_claims() -> None:
    headers = request_headers(TOKEN)
    assert headers["Authorization"] == f"Bearer {TOKEN}"
    assert headers["chatgpt-account-id"] == "acct-123"
    assert headers["x-openai-internal-codex-residency"] == "eu"
    assert headers["Accept"] == "text/event-stream"
    assert headers["OpenAI-Beta"] == "responses=experimental"
    assert headers["originator"] == "websearch-tools"
    plain = request_headers("opaque-token")
    assert "chatgpt-account-id" not in plain and "x-openai-internal-codex-residency" not in plain


@pytest.mark.parametrize(
    ("token", "claims"),
    [
        (TOKEN, {"account_id": "acct-123", "residency": "eu"}),
        (
            jwt({"https://api.openai.com/auth": {"chatgpt_compute_residency": "us"}}),
            {"residency": "us"},
        ),
        (jwt({"sub": "x"}), {}),
        ("a.b@@.c", {}),
        ("a.e30.c", {}),
        ("only-one-part", {}),
    ],
)
def test_account_claims(token: str, claims: dict[str, str]) -> None:
    assert account_claims(token) == claims


# --- URL helpers ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://a.example/p?utm_source=openai", "https://a.example/p"),
        ("https://a.example/p?id=3&utm_source=openai", "https://a.example/p?id=3"),
        ("https://a.example/p?utm_source=news", "https://a.example/p?utm_source=news"),
        ("https://a.example/p", "https://a.example/p"),
    ],
)
def test_strip_openai_utm(url: str, expected: str) -> None:
    assert strip_openai_utm(url) == expected


def test_links_in_text() -> None:
    text = (
        "See [the docs](https://docs.example/a_(b)) and https://x.example/page). "
        "Also (https://y.example/q?x=1), https://z.example/end... and [bad](ftp://f.example) "
        "plus [spaced](https://s.example/a b)."
    )
    assert links_in_text(text) == [
        ("the docs", "https://docs.example/a_(b)"),
        ("", "https://x.example/page"),
        ("", "https://y.example/q?x=1"),
        ("", "https://z.example/end"),
        ("", "https://s.example/a"),
    ]


@pytest.mark.parametrize("bad", [7, True, 2.5])
def test_list_fields_that_are_not_lists_are_ignored(bad: Any) -> None:
    # A number in any of these fields used to raise TypeError, which ended the search
    # instead of failing over to the next provider.
    response = parse_response_object(
        {
            "output": [
                {
                    "type": "web_search_call",
                    "action": {"sources": bad, "results": [{"url": "https://a.example/"}]},
                    "results": bad,
                },
                {"type": "reasoning", "summary": bad},
                {"type": "message", "content": bad},
                {
                    "type": "message",
                    "content": [{"type": "output_text", "text": "Answer.", "annotations": bad}],
                },
            ]
        }
    )
    assert response.answer == "Answer."
    assert [source.url for source in response.sources] == ["https://a.example/"]
    assert response.citations == ()


# --- the real captures ------------------------------------------------------------------------


@pytest.mark.conformance
def test_capture_url_citation_gpt5_2() -> None:
    response = parse_response_object(capture("responses_web_search_url_citation_gpt5_2.json"))
    assert response.provider == "codex"
    assert response.auth_mode == "oauth"
    assert response.model == "gpt-5.2-2025-12-11"
    assert response.request_id == "resp_057daac88567bde400696c45fa056c81909529fd4ebb2a9760"
    assert response.answer == (
        "The tallest mountain in Alberta is **Mount Columbia**, which rises to "
        "**3,747 m (12,294 ft)** and is Alberta's highest point. "
        "([britannica.com](https://www.britannica.com/place/Mount-Columbia?utm_source=openai))"
    )
    (source,) = response.sources
    # The ±100 window starts inside "Alberta": the half word ("berta") is left out and
    # the cut start is marked.
    snippet = (
        "…is **Mount Columbia**, which rises to **3,747 m (12,294 ft)** and is Alberta's "
        "highest point. (britannica.com)"
    )
    assert (source.title, source.url, source.snippet) == (
        "Mount Columbia | mountain, Alberta, Canada | Britannica",
        "https://www.britannica.com/place/Mount-Columbia",
        snippet,
    )
    (citation,) = response.citations
    assert (citation.url, citation.title, citation.cited_text) == (
        source.url,
        source.title,
        snippet,
    )
    assert response.usage == SearchUsage(input_tokens=8530, output_tokens=98, total_tokens=8628)


@pytest.mark.conformance
def test_capture_verbatim_gpt4o_mini_three_citations() -> None:
    response = parse_response_object(capture("responses_web_search_verbatim_gpt4o_mini.json"))
    assert [(s.title, s.url) for s in response.sources] == [
        ("Demographics of Tokyo", "https://en.wikipedia.org/wiki/Demographics_of_Tokyo"),
        (
            "Tokyo, Japan Metro Area Population (1950-2025) | MacroTrends",
            "https://www.macrotrends.net/cities/21671/tokyo/population",
        ),
        (
            "Tokyo Third in UN Ranking of Global Megacities at 33.4 Million | Nippon.com",
            "https://www.nippon.com/en/japan-data/h02639/"
            "tokyo-third-in-un-ranking-of-global-megacities-at-33-4-million.html",
        ),
    ]
    # The ±100 windows end inside "about" and "Dhaka" (and the second starts inside
    # "Tokyo"): whole words only, a cut end or start marked with "…".
    assert [s.snippet for s in response.sources[:2]] == [
        "As of 2025, Tokyo's population is approximately 14.2 million. (en.wikipedia.org) "
        "However, the Tokyo metropolitan area, which includes surrounding prefectures, has a "
        "population of…",
        "…metropolitan area, which includes surrounding prefectures, has a population of about "
        "37 million. (macrotrends.net) In 2025, Tokyo was the third most populous urban "
        "agglomeration globally, following Jakarta and…",
    ]
    assert response.sources[2].snippet == (
        "…2025, Tokyo was the third most populous urban agglomeration globally, following Jakarta "
        "and Dhaka. (nippon.com)"
    )
    assert [c.url for c in response.citations] == [s.url for s in response.sources]
    assert response.answer is not None and response.answer.startswith(
        "As of 2025, Tokyo's population"
    )
    limited = parse_response_object(
        capture("responses_web_search_verbatim_gpt4o_mini.json"), SearchParams(query="x", limit=1)
    )
    assert [s.title for s in limited.sources] == ["Demographics of Tokyo"]
    # The citations of the pages cut go with their links (stop 54, filters56).
    assert [c.url for c in limited.citations] == [limited.sources[0].url]


@pytest.mark.conformance
@pytest.mark.parametrize(
    ("name", "answer", "usage", "request_id"),
    [
        (
            "responses_web_search_tool_call1.json",
            "Today (Tuesday, September 16, 2025) in San Francisco: mostly sunny and pleasant. "
            "It’s around 73°F now, with a high near 74°F and a low around 58°F tonight.",
            SearchUsage(input_tokens=851, output_tokens=577, total_tokens=9876),
            "resp_028829e50fbcad090068c9c82e1e0081958ddc581008b39428",
        ),
        (
            "responses_web_search_tool_call2.json",
            "Today (Tuesday, September 16, 2025) in Mexico City: mostly cloudy, around 73°F (23°C) "
            "now. High near 74°F (23°C), low around 57°F (14°C) tonight.",
            SearchUsage(input_tokens=930, output_tokens=439, total_tokens=9945),
            "resp_028829e50fbcad090068c9c83b9fb88195b6b84a32e1fc83c0",
        ),
    ],
)
def test_captures_without_citations(
    name: str, answer: str, usage: SearchUsage, request_id: str
) -> None:
    response = parse_response_object(capture(name))
    assert response.answer == answer
    assert response.sources == () and response.citations == ()
    assert response.usage == usage  # input tokens exclude the cached ones
    assert response.request_id == request_id
    assert response.model == "gpt-5-2025-08-07"


@pytest.mark.conformance
def test_capture_allowed_domains_open_page_actions_are_sources() -> None:
    response = parse_response_object(capture("responses_web_search_allowed_domains.json"))
    assert response.answer == "14195730"
    assert [(s.title, s.url) for s in response.sources] == [
        (
            "https://en.wikipedia.org/wiki/List_of_Japanese_prefectures_by_population",
            "https://en.wikipedia.org/wiki/List_of_Japanese_prefectures_by_population",
        ),
        (
            "https://en.wikipedia.org/wiki/Demographics_of_Tokyo",
            "https://en.wikipedia.org/wiki/Demographics_of_Tokyo",
        ),
    ]
    assert response.usage == SearchUsage(input_tokens=22013, output_tokens=1737, total_tokens=23750)


@pytest.mark.conformance
def test_capture_stream() -> None:
    response = parse_stream(parse_sse(read_capture("openai/responses_web_search_tool_stream.sse")))
    assert response.answer == (
        "San Francisco weather today (Tuesday, September 16, 2025): Mostly sunny and pleasant. "
        "Current conditions around 71°F; expected high near 73°F and low around 58°F. A light "
        "jacket is useful for the cooler evening."
    )
    # The recorder did not ask for sources: the only one is {"type": "api"} without a URL.
    assert response.sources == ()
    assert response.request_id == "resp_00a60507bf41223d0068c9d2fbf93481a0ba2a7796ae2cab4c"
    assert response.model == "gpt-5-2025-08-07"
    assert response.usage == SearchUsage(input_tokens=1143, output_tokens=582, total_tokens=10045)


@pytest.mark.conformance
def test_chat_completions_capture_is_a_different_api_and_refused() -> None:
    with pytest.raises(ResponseParseError) as caught:
        parse_response_object(capture("chat_completions_search_preview.json"))
    assert caught.value.message.startswith("Codex API returned an unexpected response shape")


# --- stream rules -----------------------------------------------------------------------------


def test_sources_from_search_actions_merge_with_citations() -> None:
    call = {
        "type": "web_search_call",
        "action": {
            "type": "search",
            "sources": [
                {"type": "url", "url": "https://a.example/x?utm_source=openai"},
                {"type": "url", "url": "https://b.example/"},
                {"type": "api", "name": "oai-weather"},
            ],
        },
        "results": [{"source_website_url": "https://c.example/r", "caption": "C caption"}],
    }
    text = "Alpha is first ([a](https://a.example/x?utm_source=openai))."
    note = {
        "type": "url_citation",
        "start_index": 15,
        "end_index": len(text) - 1,
        "title": "A title",
        "url": "https://a.example/x?utm_source=openai",
    }
    response = parse_stream(
        events(
            {"type": "response.created", "response": {"id": "resp_1", "model": "gpt-5"}},
            {"type": "response.output_item.done", "item": call},
            {"type": "response.output_item.done", "item": message(text, [note])},
            {
                "type": "response.completed",
                "response": {"id": "resp_1", "usage": {"input_tokens": 10, "output_tokens": 2}},
            },
        )
    )
    assert [(s.title, s.url, s.snippet) for s in response.sources] == [
        ("A title", "https://a.example/x", "Alpha is first (a)."),
        ("https://b.example/", "https://b.example/", None),
        ("C caption", "https://c.example/r", None),
    ]
    assert [(c.url, c.title, c.cited_text) for c in response.citations] == [
        ("https://a.example/x", "A title", "Alpha is first (a).")
    ]
    assert (response.request_id, response.model) == ("resp_1", "gpt-5")
    assert response.usage == SearchUsage(input_tokens=10, output_tokens=2)


@pytest.mark.parametrize(("start", "end"), [(500, 600), (110, 120)])  # window past the text
def test_citation_indices_past_the_text_give_no_snippet(start: int, end: int) -> None:
    note = {
        "type": "url_citation",
        "start_index": start,
        "end_index": end,
        "title": "T",
        "url": "https://a.example/",
    }
    response = parse_response_object({"output": [SEARCH_CALL, message("short text", [note])]})
    assert [(s.url, s.snippet) for s in response.sources] == [("https://a.example/", None)]


def test_a_long_cited_span_is_cut_at_a_word_within_the_limit() -> None:
    text = "word " * 100 + "Tail."
    note = {
        "type": "url_citation",
        "start_index": 0,
        "end_index": len(text),
        "title": "T",
        "url": "https://a.example/",
    }
    response = parse_response_object({"output": [SEARCH_CALL, message(text, [note])]})
    snippet = response.sources[0].snippet
    assert snippet is not None
    assert snippet == "word " * 59 + "word…"  # 300 characters, not "wo..."
    assert len(snippet) <= 300


_LEAD = "Lead " * 20  # 100 characters before the cited words
_CITED = "Alpha Bravo Charlie Delta."


@pytest.mark.parametrize(
    ("text", "start", "expected"),
    [
        # The ±100 window starts inside a "Lead": that half word goes, "…" marks the cut.
        (_LEAD + _CITED, 112, "…" + "Lead " * 17 + _CITED),
        # The window starts at a word: the words before it are still cut off.
        (_LEAD + _CITED, 110, "…" + "Lead " * 18 + _CITED),
        # Only spaces lie before the window, or nothing: no cut to mark.
        (" " * 150 + _CITED, 150, _CITED),
        (_CITED, 0, _CITED),
    ],
)
def test_a_snippet_cut_at_its_start_opens_with_an_ellipsis(
    text: str, start: int, expected: str
) -> None:
    assert snippet_around(text, start, start + 7) == expected


def test_a_snippet_cut_at_both_ends_and_the_limit_keeps_whole_words() -> None:
    text = "word " * 200
    snippet = snippet_around(text, 252, 702)  # ±100 from inside a word, longer than 300
    assert snippet is not None
    assert snippet.startswith("…") and snippet.endswith("…")
    assert set(snippet.strip("…").split(" ")) == {"word"}  # no half word at either end
    assert len(snippet) <= 300


def test_without_url_citations_links_in_the_answer_are_sources() -> None:
    text = "Read [the guide](https://g.example/guide?utm_source=openai) or https://h.example/faq."
    response = parse_response_object(
        {"output": [SEARCH_CALL, message(text)]}, SearchParams(query="q", limit=5)
    )
    assert [(s.title, s.url) for s in response.sources] == [
        ("the guide", "https://g.example/guide"),
        ("https://h.example/faq", "https://h.example/faq"),
    ]
    assert response.citations == ()


def test_limit_cuts_sources() -> None:
    text = " ".join(f"https://s{i}.example/" for i in range(6))
    response = parse_response_object(
        {"output": [SEARCH_CALL, message(text)]},
        SearchParams(query="q", num_search_results=2, limit=5),
    )
    assert [s.url for s in response.sources] == ["https://s0.example/", "https://s1.example/"]


def test_answer_falls_back_to_reasoning_summaries_then_deltas() -> None:
    reasoning = {"type": "reasoning", "summary": [{"type": "summary_text", "text": " Summary. "}]}
    from_summary = parse_response_object({"output": [SEARCH_CALL, reasoning]})
    assert from_summary.answer == "Summary."
    from_deltas = parse_stream(
        events(
            {"type": "response.web_search_call.searching"},
            {"type": "response.output_text.delta", "delta": "Hello "},
            {"type": "response.output_text.delta", "delta": "world. "},
        )
    )
    assert from_deltas.answer == "Hello world."


def test_search_events_alone_count_as_searching() -> None:
    response = parse_stream(
        events(
            {"type": "response.web_search_call.completed"},
            {"type": "response.output_item.done", "item": message("Yes.")},
        )
    )
    assert response.answer == "Yes."


def test_completed_output_is_used_when_items_were_not_streamed() -> None:
    response = parse_stream(
        events(
            {
                "type": "response.completed",
                "response": {"id": "r", "output": [SEARCH_CALL, message("From completed.")]},
            }
        )
    )
    assert response.answer == "From completed."


def test_done_marker_is_skipped_and_bad_json_refused() -> None:
    with pytest.raises(ResponseParseError) as caught:
        parse_stream([SseEvent(data="{nope")])
    assert caught.value.message == "Codex stream carried invalid JSON"
    with pytest.raises(ResponseParseError):
        parse_stream([SseEvent(data="[1, 2]")])
    response = parse_stream(
        [
            *events(
                {"type": "response.output_item.done", "item": SEARCH_CALL},
                {"type": "response.output_item.done", "item": message("Ok.")},
            ),
            SseEvent(data="[DONE]"),
        ]
    )
    assert response.answer == "Ok."


def test_no_web_search_is_refused() -> None:
    with pytest.raises(NoWebSearchError) as caught:
        parse_response_object({"output": [message("From memory.")]})
    assert caught.value.status == 502
    assert caught.value.message == (
        "Codex returned a completion without running web search (no web_search_call event); "
        "refusing to treat a non-search answer as a search result"
    )


@pytest.mark.parametrize(
    "placeholder",
    ["See attached image.", "**[see the attached image]**", "Image below:", "'image above'"],
)
def test_image_placeholders_are_empty_answers(placeholder: str) -> None:
    with pytest.raises(SearchProviderError) as caught:
        parse_response_object({"output": [SEARCH_CALL, message(placeholder)]})
    assert (caught.value.message, caught.value.status) == (
        "Codex returned image-only response",
        502,
    )
    call = {"type": "web_search_call", "action": {"type": "open_page", "url": "https://p.example/"}}
    response = parse_response_object({"output": [call, message(placeholder)]})
    assert response.answer is None
    assert [s.url for s in response.sources] == ["https://p.example/"]


@pytest.mark.parametrize(
    ("payload", "error_type", "message"),
    [
        (
            {
                "type": "error",
                "code": "rate_limit_exceeded",
                "message": "Rate limit reached for gpt-5",
            },
            RateLimitedError,
            "Codex error (rate_limit_exceeded): Rate limit reached for gpt-5",
        ),
        (
            {"type": "error", "error": {"message": "You exceeded your current quota"}},
            QuotaExhaustedError,
            "codex: credits exhausted",
        ),
        (
            {"type": "error", "code": "credit_balance_exhausted", "message": "No credits"},
            CreditsSpentError,
            "Codex error (credit_balance_exhausted): No credits",
        ),
        (
            {
                "type": "response.failed",
                "response": {
                    "error": {
                        "code": "project_spend_limit_exceeded",
                        "message": "You exceeded your current quota",
                    }
                },
            },
            CreditsSpentError,
            "Codex request failed (project_spend_limit_exceeded): You exceeded your current quota",
        ),
        ({"type": "error"}, ProviderUnavailableError, "Codex error (): Unknown error"),
        (
            {
                "type": "response.failed",
                "response": {"error": {"code": "server_error", "message": "Boom"}},
            },
            ProviderUnavailableError,
            "Codex request failed (server_error): Boom",
        ),
        (
            {"type": "response.failed", "response": {}},
            ProviderUnavailableError,
            "Codex request failed: Request failed",
        ),
        (
            {"type": "response.failed", "error": {"message": "Unauthorized"}},
            AuthorizationError,
            "codex: 401 unauthorized",
        ),
        (
            {"type": "error", "message": "Request timed out"},
            ProviderUnavailableError,
            "Codex error (): Request timed out",
        ),
    ],
)
def test_error_events_are_classified(
    payload: dict[str, Any], error_type: type, message: str
) -> None:
    with pytest.raises(SearchProviderError) as caught:
        parse_stream(events({"type": "response.created", "response": {"id": "r"}}, payload))
    assert type(caught.value) is error_type
    assert caught.value.message == message


def test_timeout_error_event_has_status_504() -> None:
    with pytest.raises(ProviderUnavailableError) as caught:
        parse_stream(events({"type": "error", "message": "upstream timed out"}))
    assert caught.value.status == 504


def test_parse_body_accepts_plain_json_and_refuses_an_empty_body() -> None:
    body = json.dumps({"object": "response", "output": [SEARCH_CALL, message("Plain.")]}).encode()
    assert parse_body(SseResponse(status=200, body=body)).answer == "Plain."
    with pytest.raises(ResponseParseError) as caught:
        parse_body(SseResponse(status=200, body=b"  "))
    assert caught.value.message == "Codex API returned an empty response"
    with pytest.raises(ResponseParseError):
        parse_body(SseResponse(status=200, body=b"<html>"))


# --- search with a scripted transport ----------------------------------------------------------


class ScriptedTransport:
    def __init__(self, *responses: SseResponse) -> None:
        self.responses = list(responses)
        self.sent: list[HttpRequest] = []

    async def send_sse(self, provider: str, label: str, request: HttpRequest) -> SseResponse:
        assert (provider, label) == ("codex", "OpenAI")
        self.sent.append(request)
        return self.responses.pop(0)


def streamed(text: str = "Answer.", search: bool = True) -> SseResponse:
    items = [SEARCH_CALL, message(text)] if search else [message(text)]
    payloads = [{"type": "response.output_item.done", "item": item} for item in items]
    finished = {"type": "response.completed", "response": {}}  # as every real stream ends
    return SseResponse(status=200, body=b"...", events=tuple(events(*payloads, finished)))


def refused(status: int, detail: str) -> SseResponse:
    return SseResponse(status=status, body=json.dumps({"detail": detail}).encode())


def make_context(
    tmp_path: Path,
    transport: Any,
    environ: dict[str, str] | None = None,
    refreshers: Any = None,
    token: str | None = TOKEN,
    expires: float | None = None,
) -> ProviderContext:
    store = CredentialStore(tmp_path / "creds.json")
    if token is not None:
        store.set_oauth(
            "codex", OAuthToken(access_token=token, refresh_token="r", expires_at=expires)
        )
    return ProviderContext(
        transport=transport,
        settings=Settings(),
        credentials=Credentials(
            explicit={"codex": "ignored-api-key"},
            environ=environ or {},
            store=store,
            refreshers=refreshers,
        ),
        system_prompt="Prompt.",
    )


async def test_search_request_and_availability(tmp_path: Path) -> None:
    transport = ScriptedTransport(streamed())
    ctx = make_context(tmp_path, transport)
    assert CodexProvider().is_available(ctx)
    response = await CodexProvider().search(SearchParams(query="q"), ctx)
    assert response.answer == "Answer." and response.auth_mode == "oauth"
    (request,) = transport.sent
    assert request.url == CODEX_ENDPOINT
    assert request.json["model"] == DEFAULT_MODELS[0] == "gpt-5.5"
    assert request.json["instructions"] == "Prompt."
    assert request.headers["Authorization"] == f"Bearer {TOKEN}"  # never the API key
    assert not CodexProvider().is_available(make_context(tmp_path / "none", transport, token=None))


async def test_no_token_is_not_configured(tmp_path: Path) -> None:
    with pytest.raises(ProviderNotConfiguredError, match="No Codex OAuth credentials found"):
        await CodexProvider().search(
            SearchParams(query="q"), make_context(tmp_path, None, token=None)
        )


async def test_unsupported_models_are_skipped_in_order(tmp_path: Path) -> None:
    unsupported = "The 'gpt-5.5' model is not supported when using Codex with a ChatGPT account."
    transport = ScriptedTransport(
        refused(400, unsupported), refused(400, unsupported), streamed("Third.")
    )
    response = await CodexProvider().search(
        SearchParams(query="q"), make_context(tmp_path, transport)
    )
    assert response.answer == "Third."
    assert [r.json["model"] for r in transport.sent] == list(DEFAULT_MODELS[:3])


async def test_other_400s_and_the_last_model_are_not_skipped(tmp_path: Path) -> None:
    transport = ScriptedTransport(refused(400, "Invalid input"))
    with pytest.raises(SearchProviderError) as caught:
        await CodexProvider().search(SearchParams(query="q"), make_context(tmp_path, transport))
    assert caught.value.message == 'Codex API error (400): {"detail": "Invalid input"}'
    assert len(transport.sent) == 1


async def test_a_pinned_model_is_tried_alone(tmp_path: Path) -> None:
    transport = ScriptedTransport(refused(400, "requested model is not supported"))
    ctx = make_context(tmp_path, transport, environ={"CODEX_SEARCH_MODEL": "gpt-9"})
    with pytest.raises(SearchProviderError):
        await CodexProvider().search(SearchParams(query="q"), ctx)
    assert [r.json["model"] for r in transport.sent] == ["gpt-9"]


async def test_an_answer_without_search_moves_to_the_next_model(tmp_path: Path) -> None:
    transport = ScriptedTransport(streamed(search=False), streamed("Searched."))
    response = await CodexProvider().search(
        SearchParams(query="q"), make_context(tmp_path, transport)
    )
    assert response.answer == "Searched."
    assert len(transport.sent) == 2
    never = ScriptedTransport(*(streamed(search=False) for _ in DEFAULT_MODELS))
    with pytest.raises(NoWebSearchError):
        await CodexProvider().search(SearchParams(query="q"), make_context(tmp_path, never))
    assert len(never.sent) == len(DEFAULT_MODELS)


async def test_401_refreshes_the_token_once(tmp_path: Path) -> None:
    async def refresh(provider: str, token: OAuthToken) -> OAuthToken:
        return OAuthToken(
            access_token="fresh-token", refresh_token="r2", expires_at=time.time() + 3600
        )

    transport = ScriptedTransport(refused(401, "expired"), streamed())
    await CodexProvider().search(
        SearchParams(query="q"), make_context(tmp_path, transport, refreshers={"codex": refresh})
    )
    assert [r.headers["Authorization"] for r in transport.sent] == [
        f"Bearer {TOKEN}",
        "Bearer fresh-token",
    ]


async def test_401_without_a_hook_is_an_authorization_failure(tmp_path: Path) -> None:
    """The core's loop tries its one refresh; without a hook the server's 401 stands."""
    transport = ScriptedTransport(refused(401, "expired"))
    with pytest.raises(AuthorizationError) as caught:
        await CodexProvider().search(SearchParams(query="q"), make_context(tmp_path, transport))
    assert caught.value.status == 401
    assert caught.value.message == "codex: 401 unauthorized"
    assert len(transport.sent) == 1


async def test_an_expired_token_is_refreshed_before_sending(tmp_path: Path) -> None:
    async def refresh(provider: str, token: OAuthToken) -> OAuthToken:
        return OAuthToken(access_token="renewed", expires_at=time.time() + 3600)

    transport = ScriptedTransport(streamed())
    ctx = make_context(tmp_path, transport, refreshers={"codex": refresh}, expires=time.time() - 5)
    await CodexProvider().search(SearchParams(query="q"), ctx)
    assert transport.sent[0].headers["Authorization"] == "Bearer renewed"


def test_a_stream_closed_by_response_incomplete_is_not_cut_short() -> None:
    """A guard: ``response.incomplete`` closes a response as ``response.completed`` does.

    Every test stream closed with ``response.completed`` or ``response.done``, so leaving
    ``response.incomplete`` out of the closing events passed every Codex test (stop 50's
    wire mutations); such a stream would be refused as cut and retried.
    """
    streamed = events(
        {"type": "response.output_item.done", "item": SEARCH_CALL},
        {"type": "response.output_item.done", "item": message("Partial.")},
        {"type": "response.incomplete", "response": {"id": "r"}},
    )
    response = parse_body(SseResponse(status=200, body=b"", events=tuple(streamed)))
    assert response.answer == "Partial."
