"""Bodies a broken or hostile upstream may send: each ends in a typed error or an answer.

Found by fuzzing every provider's reader with mutated real captures. Before, each of these
escaped as a bare ``ValueError`` / ``UnicodeEncodeError`` (a user read Python's own words,
``invalid literal for int() with base 10: '²'``), or held the event loop for seconds.
"""

import json
from datetime import UTC, datetime

import pytest

from websearch_core.errors import SearchProviderError
from websearch_core.filters.post import published_at
from websearch_core.models import SearchParams, SearchSource
from websearch_core.providers._anthropic_parse import page_age_seconds, parse_messages
from websearch_core.providers._codex_parse import parse_body
from websearch_core.providers._codex_text import strip_openai_utm
from websearch_core.providers._common import (
    MAX_DATE_TEXT,
    age_seconds_from_date,
    parse_date,
    strip_tags,
)
from websearch_core.providers._gemini_errors import retry_delay_hint
from websearch_core.providers._gemini_interactions import parse_interaction
from websearch_core.providers._google_parse import _MAX_CONTAINER_ELEMENTS
from websearch_core.providers._google_parse import parse_page as parse_google_page
from websearch_core.providers._kagi_parse import http_status
from websearch_core.providers._searxng_pages import _page_title
from websearch_core.providers._xai_parse import _context
from websearch_core.providers._zai_rpc import raise_for_rpc_error, rpc_message
from websearch_core.providers.kagi import KagiProvider
from websearch_core.sse import parse_sse
from websearch_core.transport import MAX_HINT_SECONDS, HttpResponse, SseResponse

FIVE_THOUSAND_NINES = "9" * 5000
"""Past the 4300 digits ``int()`` reads from text."""


@pytest.mark.parametrize("code", ["²", "٣", FIVE_THOUSAND_NINES, " 4O4 "])
def test_a_kagi_error_code_that_is_no_status_is_none(code: str) -> None:
    assert http_status(code) is None


@pytest.mark.parametrize("code", ["²", FIVE_THOUSAND_NINES])
def test_a_kagi_body_with_such_a_code_is_a_provider_error(code: str) -> None:
    body = json.dumps({"meta": {}, "data": None, "error": [{"code": code, "msg": "Bad"}]})
    with pytest.raises(SearchProviderError):
        KagiProvider().parse_response(
            HttpResponse(status=200, body=body.encode()), SearchParams(query="q")
        )


@pytest.mark.parametrize(
    "reply",
    [
        {"success": False, "msg": "m", "code": "²"},
        {"jsonrpc": "2.0", "id": 1, "error": {"code": FIVE_THOUSAND_NINES, "message": "m"}},
        {
            "jsonrpc": "2.0",
            "id": 1,
            "result": {
                "isError": True,
                "content": [{"type": "text", "text": f"MCP error -{FIVE_THOUSAND_NINES}: x"}],
            },
        },
    ],
)
def test_zai_replies_with_odd_codes_are_provider_errors(reply: dict[str, object]) -> None:
    with pytest.raises(SearchProviderError):
        raise_for_rpc_error(rpc_message(json.dumps(reply).encode()))


@pytest.mark.parametrize("value", ["²", "1" * 5000])
def test_an_sse_retry_that_is_no_number_is_ignored(value: str) -> None:
    (event,) = parse_sse(f"retry: {value}\ndata: {{}}\n\n".encode())
    assert (event.data, event.retry) == ("{}", None)


def test_many_small_sse_events_split_at_every_line_ending_all_arrive() -> None:
    # The reader keeps an offset into the buffer (it used to re-slice it per line).
    body = b"data: {}\r\n\r\n" * 20_000 + b"data: 1\n\ndata: 2\r\rdata: 3\r\n\r\n"
    events = parse_sse(body)
    assert len(events) == 20_003
    assert [event.data for event in events[-3:]] == ["1", "2", "3"]


def test_an_anthropic_page_age_of_thousands_of_digits_is_no_age() -> None:
    assert page_age_seconds(f"{FIVE_THOUSAND_NINES} days ago") is None
    message = {
        "id": "m",
        "type": "message",
        "model": "x",
        "stop_reason": "end_turn",
        "content": [
            {
                "type": "web_search_tool_result",
                "tool_use_id": "t",
                "content": [
                    {
                        "type": "web_search_result",
                        "url": "https://a.example/",
                        "title": "A",
                        "page_age": f"{FIVE_THOUSAND_NINES} days ago",
                    }
                ],
            },
            {"type": "text", "text": "answer"},
        ],
    }
    (source,) = parse_messages([message]).sources
    assert source.age_seconds is None


def test_a_codex_error_event_with_a_lone_surrogate_is_a_provider_error() -> None:
    event = '{"type": "error", "code": "server_error", "message": "bad \\ud800"}'
    body = f"event: error\ndata: {event}\n\n".encode()
    with pytest.raises(SearchProviderError):
        parse_body(SseResponse(status=200, body=body, events=tuple(parse_sse(body))))


def test_a_cited_url_with_a_lone_surrogate_loses_only_the_mark() -> None:
    # The mark is taken out as text, nothing encoded, so a lone surrogate raises nothing;
    # the URL still holds it, and the sanitiser drops it: no clean URL holds one.
    url = "https://a.example/p?x=\ud800&utm_source=openai"
    assert strip_openai_utm(url) == "https://a.example/p?x=\ud800"


def test_a_gemini_interaction_with_a_lone_surrogate_is_read() -> None:
    step = {
        "type": "model_output",
        "content": [{"type": "text", "text": "ans\ud800wer", "annotations": []}],
    }
    assert parse_interaction({"steps": [step]}).answer is not None


def test_a_date_text_longer_than_any_written_date_is_not_read() -> None:
    # dateutil reads any length at ~9 us a character (a 2 MB publishedDate held the loop
    # for seconds); this one it would read as 2024-01-01.
    padded = "Monday, " * 12 + "January 1, 2024"
    assert len(padded) > MAX_DATE_TEXT
    assert parse_date(padded, default=datetime(2026, 1, 1)) is None
    assert age_seconds_from_date(padded, now=datetime(2026, 1, 1, tzinfo=UTC)) is None
    assert parse_date("Monday, January 1, 2024", default=datetime(2026, 1, 1)) == datetime(
        2024, 1, 1
    )


NINES = "9" * 400
"""A number ``float`` reads as infinity."""


@pytest.mark.parametrize(
    ("headers", "body"),
    [
        ({}, json.dumps({"error": {"details": [{"retryDelay": f"{NINES}s"}]}})),
        ({"retry-after-ms": NINES}, ""),
        ({"x-ratelimit-reset-after": NINES}, ""),
        ({}, f"Too many requests, please retry in {NINES}s"),
        ({}, f"Your quota will reset after {NINES}h0m0s"),
    ],
)
def test_a_gemini_wait_hint_is_bounded_as_retry_after_is(
    headers: dict[str, str], body: str
) -> None:
    # Unbounded, an infinite hint crashed marking the provider (non-finite timestamp).
    assert retry_delay_hint(headers, body) == MAX_HINT_SECONDS


def test_gemini_hints_that_are_no_number_are_none() -> None:
    assert retry_delay_hint({"retry-after-ms": "nan"}, "") is None


def test_an_age_past_the_calendars_edge_has_no_publication_instant() -> None:
    # 0001-01-01T00:00:00+14:00 is an instant before datetime's first: its age is readable,
    # the instant it points back to is not.
    now = datetime(2026, 1, 1, tzinfo=UTC)
    age = age_seconds_from_date("0001-01-01T00:00:00+14:00", now=now)
    assert age is not None
    source = SearchSource(title="t", url="https://a.example/", age_seconds=age)
    assert published_at(source, now) is None


def test_a_citation_over_a_whole_long_answer_is_read_from_a_bounded_window() -> None:
    text = "[a](" * 20_000
    assert len(_context(text, 0, len(text)) or "") <= 300


def test_a_page_title_among_thousands_of_title_tags_is_the_first() -> None:
    assert _page_title("<title>" * 5000) is None
    assert _page_title("<html><TITLE lang=en> Bad  gateway </title><title>x</title>") == (
        "Bad gateway"
    )


def test_a_tag_never_spans_another_tags_opening() -> None:
    assert strip_tags("<b>bold</b> and <i>it</i>") == "bold and it"
    assert strip_tags("a <" * 5 + "b>c") == "a <a <a <a <a c"


def _google_result(padding: int) -> str:
    """One Google result whose snippet follows ``padding`` empty elements in its container."""
    return (
        '<div id="search"><div class="MjjYud"><div class="tF2Cxc">'
        '<a href="https://a.example/"><h3>A</h3></a>'
        + "<div></div>" * padding
        + '<div class="VwiC3b">The snippet</div></div></div></div>'
    )


def test_a_google_result_reads_its_container_up_to_a_bound() -> None:
    # A container is an ancestor of its heading: a page of thousands of headings in one
    # container had each of them read all of it (27 s for a 7 MB page).
    (near,) = parse_google_page(_google_result(10))
    assert near.snippet == "The snippet"
    (far,) = parse_google_page(_google_result(_MAX_CONTAINER_ELEMENTS))
    assert far.snippet is None


def test_an_error_quoting_only_8_bit_csi_sequences_loses_them_whole() -> None:
    # C1 CSI (0x9b) starts a sequence as ESC [ does, with no ESC anywhere in the body: the
    # parameters must go with it, not stay behind as ``2J`` and ``31m``.
    error = SearchProviderError("brave", "Brave API error (500): \x9b2Jcleared \x9b31mred")
    assert error.message == "Brave API error (500): cleared red"
    assert str(error) == error.message
