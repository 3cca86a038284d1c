"""xAI: request building, filter records, Responses parsing and the stream fold, no server."""

import json
from datetime import date
from typing import Any

import pytest

from tests.conftest import read_capture
from tests.providers._helpers import key_context
from websearch_core.errors import (
    AuthorizationError,
    ProviderNotConfiguredError,
    QuotaExhaustedError,
    RateLimitedError,
    ResponseParseError,
    SearchProviderError,
)
from websearch_core.filters import apply_plan, ignored_note, plan_filters
from websearch_core.models import SearchParams, SearchResponse, SearchUsage
from websearch_core.providers import get_provider
from websearch_core.providers.base import ProviderContext
from websearch_core.providers.xai import (
    DEFAULT_MODEL,
    INFO,
    XAI_ENDPOINT,
    XaiProvider,
    parse_response_object,
    request_body,
    response_cap,
    response_from_events,
)
from websearch_core.transport import HttpRequest, HttpResponse

JSON_CAPTURE = "xai/responses_web_search_tool.json"
STREAM_CAPTURE = "xai/responses_web_search_tool_stream.chunks.txt"


def capture_json() -> Any:
    return json.loads(read_capture(JSON_CAPTURE))


def capture_events() -> list[dict[str, Any]]:
    lines = read_capture(STREAM_CAPTURE).decode("utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def context(
    key: str | None = "xai-key", transport: Any = None, environ: dict[str, str] | None = None
) -> ProviderContext:
    return key_context(
        "xai", key, transport=transport, environ=environ, system_prompt="Cite everything."
    )


# --- facts ------------------------------------------------------------------------------------


def test_registry_returns_the_xai_provider_with_its_facts() -> None:
    assert isinstance(get_provider("xai"), XaiProvider)
    assert (INFO.id, INFO.label, INFO.kind) == ("xai", "xAI", "answer")
    assert INFO.env_vars == ("XAI_API_KEY",)
    assert (INFO.default_results, INFO.max_results) == (10, 30)
    assert INFO.honours == {
        "query",
        "limit",
        "num_search_results",
        "max_tokens",
        "temperature",
        "include_domains",
        "exclude_domains",
    }
    assert DEFAULT_MODEL == "grok-4.3"
    assert XAI_ENDPOINT == "https://api.x.ai/v1/responses"


# --- request ----------------------------------------------------------------------------------


def test_default_body() -> None:
    assert request_body(SearchParams(query="grok news"), system_prompt="Be brief.") == {
        "model": "grok-4.3",
        "input": [
            {"role": "system", "content": "Be brief."},
            {"role": "user", "content": "grok news"},
        ],
        "tools": [{"type": "web_search"}],
    }
    assert request_body(SearchParams(query="q"))["input"] == [{"role": "user", "content": "q"}]


@pytest.mark.parametrize(
    "fields",
    [
        {"limit": 5},
        {"num_search_results": 50},
        {"recency": "day"},
        {"recency": "year", "limit": 3},
        {"date_after": date(2025, 1, 1), "date_before": date(2025, 6, 30), "limit": 4},
    ],
)
def test_no_live_search_parameters_are_sent(fields: dict[str, Any]) -> None:
    # xAI answers search_parameters with 410 Gone: neither the count nor a date goes out.
    body = request_body(SearchParams(query="q", **fields))
    assert "search_parameters" not in body
    assert set(body) == {"model", "input", "tools"}
    assert body["tools"] == [{"type": "web_search"}]


def domains(n: int, stem: str = "s") -> tuple[str, ...]:
    return tuple(f"{stem}{i}.example" for i in range(n))


DOMAIN_CASES: list[tuple[tuple[str, ...], tuple[str, ...], dict[str, list[str]]]] = [
    # include_domains, exclude_domains, the tool's "filters" object ({}: no filters)
    (("x.ai",), (), {"allowed_domains": ["x.ai"]}),
    (domains(5), (), {"allowed_domains": list(domains(5))}),
    (domains(6), (), {}),
    ((), ("a.com", "b.com"), {"excluded_domains": ["a.com", "b.com"]}),
    ((), domains(5, "e"), {"excluded_domains": list(domains(5, "e"))}),
    ((), domains(6, "e"), {}),
    (("x.ai",), ("a.com",), {"allowed_domains": ["x.ai"]}),
    (domains(6), ("a.com",), {"excluded_domains": ["a.com"]}),
    (domains(6), domains(6, "e"), {}),
]


def test_domains_go_in_the_tool_filters_within_the_documented_limits() -> None:
    # https://docs.x.ai/developers/tools/web-search: the REST examples nest the lists as
    # {"type": "web_search", "filters": {"allowed_domains": [...]}}; at most five per list,
    # never both lists: five go, six do not, and with both the included one goes when it can.
    for include, exclude, filters in DOMAIN_CASES:
        params = SearchParams(query="q", include_domains=include, exclude_domains=exclude)
        (tool,) = request_body(params)["tools"]
        expected = {"type": "web_search", "filters": filters} if filters else {"type": "web_search"}
        assert tool == expected, (include, exclude)
        assert "allowed_domains" not in tool and "excluded_domains" not in tool


def test_token_cap_and_temperature_pass_through_other_fields_do_not() -> None:
    params = SearchParams(query="q", max_tokens=700, temperature=0.0, country="us")
    body = request_body(params, model="grok-4-fast")
    assert (body["model"], body["max_output_tokens"], body["temperature"]) == (
        "grok-4-fast",
        700,
        0.0,
    )
    assert set(body) == {"model", "input", "tools", "max_output_tokens", "temperature"}


# --- the filter record --------------------------------------------------------------------------


def planned(params: SearchParams) -> tuple[dict[str, Any], SearchResponse]:
    """The body the plan's params build, and the capture's answer with the plan's record."""
    plan = plan_filters(params, INFO)
    body = request_body(plan.params)
    return body, apply_plan(plan, parse_response_object(capture_json(), plan.params))


def record(response: SearchResponse) -> dict[str, tuple[str, ...]]:
    return {f"{f.name}={f.value}": f.applied for f in response.filters}


@pytest.mark.conformance
@pytest.mark.parametrize("recency", ["day", "week", "month", "year"])
def test_recency_is_recorded_ignored_never_native(recency: str) -> None:
    body, response = planned(SearchParams(query="what is xAI", recency=recency))
    assert "search_parameters" not in body
    assert record(response) == {f"recency={recency}": ("ignored",)}
    assert ignored_note(response) == f"Filters not applied: recency={recency}."
    assert len(response.sources) == 5  # nothing was checked away on a recency


@pytest.mark.conformance
def test_dates_stay_in_the_question_and_are_recorded_query() -> None:
    params = SearchParams(
        query="what is xAI before:2025-06-30", date_after=date(2025, 1, 1), limit=3
    )
    body, response = planned(params)
    assert "search_parameters" not in body
    assert body["input"][-1]["content"] == "what is xAI after:2025-01-01 before:2025-06-30"
    assert record(response) == {
        "date_after=2025-01-01": ("query",),
        "date_before=2025-06-30": ("query",),
    }
    assert ignored_note(response) is None
    assert len(response.sources) == 3


@pytest.mark.conformance
def test_domains_sent_in_the_tool_are_recorded_native_and_still_checked() -> None:
    body, response = planned(SearchParams(query="what is xAI site:x.ai -site:ibm.com"))
    # Only one list per request: the included one goes, the excluded one is asked in text.
    assert body["tools"] == [{"type": "web_search", "filters": {"allowed_domains": ["x.ai"]}}]
    assert body["input"][-1]["content"] == "what is xAI -site:ibm.com"
    assert record(response) == {
        "include_domains=x.ai": ("native", "post"),
        "exclude_domains=ibm.com": ("query", "post"),
    }
    assert [s.url for s in response.sources] == ["https://x.ai/company", "https://x.ai/"]


@pytest.mark.conformance
def test_more_domains_than_the_tool_takes_are_asked_in_the_question() -> None:
    five = ("x.ai", "ibm.com", "wikipedia.org", "owkin.com", "a.example")
    body, response = planned(SearchParams(query="what is xAI", include_domains=five))
    assert body["tools"] == [{"type": "web_search", "filters": {"allowed_domains": list(five)}}]
    assert body["input"][-1]["content"] == "what is xAI"
    assert set(record(response).values()) == {("native", "post")}
    include = (*five, "b.example")
    body, response = planned(SearchParams(query="what is xAI", include_domains=include))
    assert body["tools"] == [{"type": "web_search"}]
    assert (
        body["input"][-1]["content"]
        == "what is xAI (" + " OR ".join(f"site:{d}" for d in include) + ")"
    )
    assert set(record(response).values()) == {("query", "post")}
    assert len(response.sources) == 5  # every capture source is on one of the six


@pytest.mark.parametrize(
    ("fields", "cap"),
    [
        ({}, 10),
        ({"limit": 3}, 3),
        ({"limit": 90}, 30),
        ({"num_search_results": 12, "limit": 2}, 12),
    ],
)
def test_local_cap(fields: dict[str, int], cap: int) -> None:
    assert response_cap(SearchParams(query="q", **fields)) == cap


# --- the real captures ------------------------------------------------------------------------

CAPTURE_URLS = [
    "https://www.ibm.com/think/topics/explainable-ai",
    "https://x.ai/company",
    "https://en.wikipedia.org/wiki/XAI_%28company%29",
    "https://x.ai/",
    "https://www.owkin.com/a-z-of-ai-for-healthcare/xai",
]


@pytest.mark.conformance
def test_capture_json() -> None:
    response = parse_response_object(capture_json())
    assert response.provider == "xai"
    assert response.auth_mode == "api_key"
    assert response.model == "grok-4-fast-reasoning"
    assert response.request_id == "25de2f84-163c-6e9e-e42e-cd1dbd6f9ed0"
    assert response.usage == SearchUsage(input_tokens=1941, output_tokens=583, total_tokens=2524)
    assert response.answer is not None
    assert response.answer.startswith(
        "xAI is an American artificial intelligence company founded by Elon Musk in July 2023."
    )
    assert response.answer.endswith(
        "(a field of AI research aimed at making machine learning models more transparent and "
        "interpretable), let me know for more details on that!"
    )
    assert (
        "\n\nxAI has raised significant funding, including a $6 billion Series B" in response.answer
    )
    # The annotations carry only a URL: the title is the URL and there is no snippet.
    assert [(s.title, s.url, s.snippet) for s in response.sources] == [
        (u, u, None) for u in CAPTURE_URLS
    ]
    assert [(c.url, c.title, c.cited_text) for c in response.citations] == [
        (u, u, None) for u in CAPTURE_URLS
    ]
    assert response.search_queries == ()


@pytest.mark.conformance
def test_capture_stream_folds_into_the_same_shape() -> None:
    folded = response_from_events(capture_events())
    response = parse_response_object(folded, SearchParams(query="what is xAI", limit=3))
    assert response.request_id == "98a8d4aa-fc8b-fd93-e673-d5a8f1c9cee8"
    assert response.model == "grok-4-fast-reasoning"
    assert response.usage == SearchUsage(input_tokens=1875, output_tokens=695, total_tokens=2570)
    assert [s.url for s in response.sources] == [
        "https://en.wikipedia.org/wiki/XAI_%28company%29",
        "https://x.ai/company",
        "https://www.ibm.com/think/topics/explainable-ai",
    ]
    assert len(response.citations) == 3
    assert response.answer is not None
    assert response.answer.startswith(
        "xAI is an American artificial intelligence company founded by Elon Musk"
    )
    assert response.answer.endswith(
        "If that's what you meant, let me know for more details! "
        "For the latest updates, check x.ai."
    )
    # Without response.completed, the streamed items rebuild the same response.
    partial = [e for e in capture_events() if e["type"] != "response.completed"]
    rebuilt = parse_response_object(response_from_events(partial), SearchParams(query="q", limit=3))
    assert rebuilt.answer == response.answer
    assert rebuilt.sources == response.sources
    assert rebuilt.request_id == response.request_id and rebuilt.usage is None


@pytest.mark.conformance
def test_stream_deltas_stand_in_for_a_missing_message() -> None:
    deltas = [
        e
        for e in capture_events()
        if e["type"] in ("response.created", "response.output_text.delta")
    ]
    response = parse_response_object(response_from_events(deltas))
    assert response.answer is not None and response.answer.startswith("xAI is an American")
    assert response.sources == ()


@pytest.mark.conformance
def test_stream_values_that_are_not_objects_are_skipped() -> None:
    events = list(capture_events())
    junk: list[object] = [None, 7, "[DONE]", ["response.completed"], {"type": 3}]
    mixed = [value for pair in zip(junk * 40, events, strict=False) for value in pair]
    mixed += events[len(junk) * 40 :]
    assert response_from_events(mixed) == response_from_events(events)


@pytest.mark.parametrize("snapshot", ["oops", 5, ["error"], None])
def test_stream_error_event_with_a_response_that_is_not_an_object(snapshot: object) -> None:
    with pytest.raises(SearchProviderError, match=r"xAI stream error: response\.failed$"):
        response_from_events([{"type": "response.failed", "response": snapshot}])


# --- parsing rules ----------------------------------------------------------------------------


def test_sources_in_the_reference_order_with_snippets() -> None:
    text = "Grok is a model [docs](https://docs.x.ai/grok) made by xAI."
    data = {
        "id": "r1",
        "annotations": [
            {
                "type": "url_citation",
                "url": "https://top.example/",
                "title": " Top ",
                "cited_text": " cited ",
            }
        ],
        "output": [
            {
                "type": "message",
                "annotations": [
                    {"type": "url_citation", "url": "https://item.example/", "text": "item text"}
                ],
                "content": [
                    {
                        "type": "output_text",
                        "text": text,
                        "annotations": [
                            {
                                "type": "url_citation",
                                "url": "https://docs.x.ai/grok",
                                "start_index": 16,
                                "end_index": 46,
                            },
                            {"type": "file_citation", "url": "https://ignored.example/"},
                            {"type": "url_citation", "url": "https://top.example/"},
                        ],
                    }
                ],
            },
            {
                "type": "web_search_call",
                "action": {"sources": [{"url": "https://action.example/", "title": "Action"}]},
                "results": [{"url": "https://result.example/"}, {"url": "not a url"}],
            },
        ],
        "citations": ["https://plain.example/", "https://item.example/", 7],
        "usage": {"inputTokens": 5, "outputTokens": 6, "totalTokens": 11},
    }
    response = parse_response_object(data)
    assert [(s.url, s.title, s.snippet) for s in response.sources] == [
        ("https://top.example/", "Top", "cited"),
        ("https://item.example/", "https://item.example/", "item text"),
        ("https://docs.x.ai/grok", "https://docs.x.ai/grok", "Grok is a model docs made by xAI."),
        ("https://action.example/", "Action", None),
        ("https://result.example/", "https://result.example/", None),
        ("https://plain.example/", "https://plain.example/", None),
    ]
    assert response.answer == text
    assert response.usage == SearchUsage(input_tokens=5, output_tokens=6, total_tokens=11)


def test_local_cap_applies_to_sources_and_citations() -> None:
    notes = [{"type": "url_citation", "url": f"https://s{i}.example/"} for i in range(40)]
    data = {
        "output": [
            {
                "type": "message",
                "content": [{"type": "output_text", "text": "A.", "annotations": notes}],
            }
        ]
    }
    assert len(parse_response_object(data).sources) == 10
    assert len(parse_response_object(data, SearchParams(query="q")).citations) == 10
    capped = parse_response_object(data, SearchParams(query="q", num_search_results=100))
    assert (len(capped.sources), len(capped.citations)) == (30, 30)
    two = parse_response_object(data, SearchParams(query="q", limit=2))
    assert [c.url for c in two.citations] == ["https://s0.example/", "https://s1.example/"]


def test_answer_prefers_output_text_then_joins_parts() -> None:
    parts = {
        "type": "message",
        "content": [
            {"type": "output_text", "text": " One. "},
            {"type": "output_text", "text": "Two."},
        ],
    }
    assert parse_response_object({"output": [parts]}).answer == "One.\nTwo."
    assert parse_response_object({"output_text": "  Top.  ", "output": [parts]}).answer == "Top."


def test_nothing_found_is_a_502() -> None:
    with pytest.raises(SearchProviderError) as caught:
        parse_response_object({"output": [{"type": "web_search_call"}]})
    assert (caught.value.message, caught.value.status) == (
        "xAI web_search returned no answer or sources",
        502,
    )


@pytest.mark.parametrize("bad", [[], "x", {"output": "text"}])
def test_wrong_shape_is_a_parse_error(bad: Any) -> None:
    with pytest.raises(ResponseParseError):
        parse_response_object(bad)


def test_stream_error_events_raise() -> None:
    with pytest.raises(SearchProviderError, match="xAI stream error: model overloaded"):
        response_from_events(
            [{"type": "response.failed", "response": {"error": {"message": "model overloaded"}}}]
        )
    with pytest.raises(SearchProviderError, match="xAI stream error: error"):
        response_from_events([{"type": "error"}])


# --- errors and the search loop -----------------------------------------------------------------


def test_a_wrong_key_400_is_an_authorization_error() -> None:
    body = (
        b'{"code":"Client specified an invalid argument","error":"Incorrect API key provided: '
        b'xa***yz. You can obtain an API key from https://console.x.ai."}'
    )
    with pytest.raises(AuthorizationError) as caught:
        XaiProvider().check_response(HttpResponse(status=400, body=body))
    assert caught.value.status == 400
    assert caught.value.message.startswith("xAI Responses API error (400): {")
    with pytest.raises(SearchProviderError) as other:
        XaiProvider().check_response(HttpResponse(status=400, body=b'{"error": "Bad model"}'))
    assert type(other.value) is SearchProviderError
    with pytest.raises(SearchProviderError) as not_json:
        XaiProvider().check_response(HttpResponse(status=400, body=b"Incorrect API key provided"))
    assert type(not_json.value) is SearchProviderError


def test_a_429_saying_the_team_spent_its_credits_is_spent_credits() -> None:
    # xAI's answer to a team out of credits or over its monthly spending limit, as quoted
    # from live answers in continuedev/continue issues #10373 and #10740.
    body = json.dumps(
        {
            "code": "Some resource has been exhausted",
            "error": "Your team 0000 has either used all available credits or reached its "
            "monthly spending limit. To continue making API requests, please purchase more "
            "credits or raise your spending limit.",
        }
    ).encode()
    with pytest.raises(QuotaExhaustedError) as caught:
        XaiProvider().check_response(HttpResponse(status=429, body=body))
    assert caught.value.status == 429
    assert caught.value.message == f"xAI Responses API error (429): {body.decode()}"


def test_a_plain_429_stays_a_rate_limit() -> None:
    # Guard (passes before and after): a 429 without those words is still a rate limit.
    body = b'{"code": "Too many requests", "error": "Rate limit exceeded, retry shortly."}'
    with pytest.raises(RateLimitedError):
        XaiProvider().check_response(HttpResponse(status=429, body=body))


class ScriptedTransport:
    def __init__(self, *responses: HttpResponse) -> None:
        self.responses = list(responses)
        self.sent: list[HttpRequest] = []

    async def send(self, provider: str, label: str, request: HttpRequest) -> HttpResponse:
        assert (provider, label) == ("xai", "xAI")
        self.sent.append(request)
        return self.responses.pop(0)


GONE = HttpResponse(status=410, body=b'{"code":"Gone","error":"Live search is deprecated."}')
FOUND = HttpResponse(status=200, body=json.dumps({"id": "r", "output_text": "Found."}).encode())


async def test_search_request() -> None:
    transport = ScriptedTransport(FOUND)
    ctx = context(transport=transport, environ={"XAI_SEARCH_MODEL": "grok-4-fast"})
    response = await XaiProvider().search(SearchParams(query="q", limit=4), ctx)
    assert response.answer == "Found."
    (request,) = transport.sent
    assert (request.method, request.url) == ("POST", XAI_ENDPOINT)
    assert dict(request.headers) == {
        "Accept": "application/json",
        "Content-Type": "application/json",
        "Authorization": "Bearer xai-key",
    }
    assert request.json["model"] == "grok-4-fast"
    assert request.json["input"][0] == {"role": "system", "content": "Cite everything."}
    assert "search_parameters" not in request.json


async def test_a_search_with_a_limit_and_recency_is_one_request() -> None:
    transport = ScriptedTransport(FOUND, FOUND)
    params = SearchParams(query="q", limit=3, recency="day", date_after=date(2025, 1, 1))
    response = await XaiProvider().search(params, context(transport=transport))
    assert response.answer == "Found."
    (request,) = transport.sent
    assert "search_parameters" not in request.json


async def test_a_410_is_an_error_not_retried() -> None:
    transport = ScriptedTransport(GONE, FOUND)
    with pytest.raises(SearchProviderError) as caught:
        await XaiProvider().search(SearchParams(query="q", limit=3), context(transport=transport))
    assert caught.value.status == 410
    assert (
        caught.value.message
        == 'xAI Responses API error (410): {"code":"Gone","error":"Live search is deprecated."}'
    )
    assert len(transport.sent) == 1


async def test_invalid_json_message() -> None:
    transport = ScriptedTransport(HttpResponse(status=200, body=b"<html>"))
    with pytest.raises(ResponseParseError) as caught:
        await XaiProvider().search(SearchParams(query="q"), context(transport=transport))
    assert caught.value.message == "xAI Responses API returned invalid JSON: Expecting value"


async def test_missing_key_is_the_spec_message() -> None:
    with pytest.raises(ProviderNotConfiguredError) as caught:
        await XaiProvider().search(SearchParams(query="q"), context(key=None))
    assert caught.value.message == (
        'xAI credentials not found. Set XAI_API_KEY or configure an API key for provider "xai".'
    )


@pytest.mark.parametrize("bad", [7, True, 2.5])
def test_list_fields_that_are_not_lists_are_ignored(bad: Any) -> None:
    # A number here used to raise TypeError, which ended the search instead of failing over.
    answer = {"type": "message", "content": [{"type": "output_text", "text": "A."}]}
    call = {"type": "web_search_call", "action": {"sources": bad}, "results": bad}
    response = parse_response_object({"output": [call, answer], "citations": bad})
    assert response.answer == "A."
    assert response.sources == ()
