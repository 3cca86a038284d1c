"""Bodies a broken or hostile upstream may send: each ends in a typed error or an answer.

Found by fuzzing every provider's reader with mutated real captures. Before, each of these
escaped as a bare ``ValueError`` / ``UnicodeEncodeError`` (a user read Python's own words,
``invalid literal for int() with base 10: '²'``), or held the event loop for seconds.
"""

import json
from datetime import UTC, datetime

import pytest

from websearch_core.errors import SearchProviderError
from websearch_core.models import SearchParams
from websearch_core.providers._anthropic_parse import page_age_seconds, parse_messages
from websearch_core.providers._codex_parse import parse_body
from websearch_core.providers._codex_text import strip_openai_utm
from websearch_core.providers._common import MAX_DATE_TEXT, age_seconds_from_date, parse_date
from websearch_core.providers._gemini_interactions import parse_interaction
from websearch_core.providers._kagi_parse import http_status
from websearch_core.providers._zai_rpc import raise_for_rpc_error, rpc_message
from websearch_core.providers.kagi import KagiProvider
from websearch_core.sse import parse_sse
from websearch_core.transport import HttpResponse, SseResponse

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


def test_a_cited_url_with_a_lone_surrogate_is_kept_as_it_came() -> None:
    url = "https://a.example/p?x=\ud800&utm_source=openai"
    assert strip_openai_utm(url) == url  # the sanitiser drops it: no clean URL holds one


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
