"""Perplexity: auth order, request bodies, stream merging and the captures, pure."""

import json
import time
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import read_capture
from tests.providers._helpers import stored_context
from websearch_core.credentials import Credentials, CredentialStore, OAuthToken
from websearch_core.errors import (
    AuthorizationError,
    ProviderConnectionError,
    ResponseParseError,
    SearchProviderError,
)
from websearch_core.filters import apply_plan, plan_filters
from websearch_core.filters.table import filter_cell
from websearch_core.models import SearchParams, SearchResponse
from websearch_core.prompts import SEARCH_SYSTEM_PROMPT
from websearch_core.providers import get_provider
from websearch_core.providers._perplexity_ask import (
    AskResult,
    ask_answer,
    ask_sources,
    merge_ask_events,
    parse_ask,
)
from websearch_core.providers._perplexity_parse import (
    events_json,
    parse_chat_chunks,
    parse_chat_completion,
)
from websearch_core.providers._perplexity_request import (
    OPENROUTER_ENDPOINT,
    AuthMethod,
    method_request,
)
from websearch_core.providers.base import ProviderContext
from websearch_core.providers.perplexity import (
    ASK_ENDPOINT,
    CHAT_ENDPOINT,
    INFO,
    PerplexityProvider,
    api_body,
    ask_body,
    ask_headers,
    auth_methods,
)
from websearch_core.settings import Settings
from websearch_core.sse import SseEvent
from websearch_core.transport import HttpRequest, SseResponse

NOW = datetime(2026, 1, 11, tzinfo=UTC)
STREAM = "perplexity/chat_completions_sonar_citations_stream.chunks.txt"
COMPLETION = "perplexity/chat_completions_sonar_citations.json"
USAGE = "perplexity/chat_completions_sonar_usage_cost_sanitized_2026.json"
OPENROUTER = "openrouter/chat_completions_web_search_url_citation.json"


@pytest.fixture(autouse=True)
def _no_cookies(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PERPLEXITY_COOKIES", raising=False)


def context(
    tmp_path: Path | None = None,
    *,
    keys: dict[str, str] | None = None,
    environ: dict[str, str] | None = None,
    token: OAuthToken | None = None,
) -> ProviderContext:
    return stored_context(
        "perplexity",
        tmp_path,
        keys=keys,
        environ=environ,
        token=token,
        system_prompt=SEARCH_SYSTEM_PROMPT,
    )


def capture_chunks() -> list[dict[str, Any]]:
    text = read_capture(STREAM).decode("utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


# --- facts, availability and auth order -------------------------------------------------------


def test_registry_returns_the_perplexity_provider_with_its_facts() -> None:
    provider = get_provider("perplexity")
    assert isinstance(provider, PerplexityProvider)
    assert (INFO.id, INFO.label, INFO.kind) == ("perplexity", "Perplexity", "answer")
    assert INFO.env_vars == ("PERPLEXITY_API_KEY", "PPLX_API_KEY")
    assert INFO.honours == {
        "query",
        "recency",
        "limit",
        "num_search_results",
        "max_tokens",
        "temperature",
        "date_after",
        "date_before",
        "include_domains",
        "exclude_domains",
        "language",
        "country",
    }
    assert (INFO.default_results, INFO.max_results) == (20, None)


def test_availability(tmp_path: Path) -> None:
    provider = PerplexityProvider()
    assert not provider.is_available(context(tmp_path))
    assert provider.is_explicitly_available(context(tmp_path))
    assert provider.is_available(context(environ={"PERPLEXITY_COOKIES": "a=b"}))
    assert provider.is_available(context(environ={"PPLX_API_KEY": "pplx-1"}))
    assert provider.is_available(context(keys={"perplexity": "pplx-2"}))
    assert provider.is_available(context(tmp_path, token=OAuthToken(access_token="t")))
    # OpenRouter alone does not admit Perplexity to the auto chain.
    assert not provider.is_available(context(environ={"OPENROUTER_API_KEY": "or-1"}))


def test_auth_methods_order(tmp_path: Path) -> None:
    everything = context(
        tmp_path,
        environ={"PERPLEXITY_COOKIES": " a=b ", "OPENROUTER_API_KEY": "or-key"},
        token=OAuthToken(access_token="oauth-token"),
    )
    methods = auth_methods(everything, "pplx-key")
    assert [m.kind for m in methods] == ["cookies", "oauth", "api_key", "openrouter"]
    assert [m.secret for m in methods] == ["a=b", None, "pplx-key", "or-key"]
    assert "pplx-key" not in repr(methods)
    assert [m.kind for m in auth_methods(context(tmp_path / "empty"), None)] == ["anonymous"]
    only_openrouter = context(environ={"OPENROUTER_API_KEY": "or-key"})
    assert [m.kind for m in auth_methods(only_openrouter, None)] == ["openrouter"]


# --- request bodies ---------------------------------------------------------------------------


def test_api_body_defaults() -> None:
    assert api_body(SearchParams(query="rust async"), "SYSTEM") == {
        "model": "sonar-pro",
        "messages": [
            {"role": "system", "content": "SYSTEM"},
            {"role": "user", "content": "rust async"},
        ],
        "stream": True,
        "stream_options": {"include_usage": True},
        "max_tokens": 8192,
        "temperature": 0.2,
        "search_mode": "web",
        "num_search_results": 20,
        "web_search_options": {"search_type": "pro", "search_context_size": "high"},
        "enable_search_classifier": True,
        "reasoning_effort": "medium",
        "language_preference": "en",
        "return_related_questions": True,
    }


def test_api_body_with_every_parameter() -> None:
    params = SearchParams(
        query="q",
        recency="week",
        limit=3,
        max_tokens=500,
        temperature=0.0,
        num_search_results=7,
        include_domains=("docs.python.org",),
        exclude_domains=("www.w3schools.com",),
        language="pt-BR",
    )
    body = api_body(params, "S", "perplexity/sonar-pro")
    assert body["model"] == "perplexity/sonar-pro"
    assert (body["max_tokens"], body["temperature"], body["num_search_results"]) == (500, 0.0, 7)
    assert body["search_recency_filter"] == "week"
    assert body["search_domain_filter"] == ["docs.python.org"]  # one mode: the allowlist
    assert body["search_language_filter"] == ["pt"]
    dated = api_body(
        SearchParams(
            query="q", recency="day", date_after=date(2025, 3, 1), date_before=date(2025, 3, 31)
        ),
        "S",
    )
    assert dated["search_after_date_filter"] == "3/1/2025"
    assert dated["search_before_date_filter"] == "3/31/2025"
    assert "search_recency_filter" not in dated  # explicit dates win over recency


MANY = tuple(f"site{i}.example.org" for i in range(25))
MAX_DOMAINS = 20
"""https://docs.perplexity.ai/guides/search-domain-filters: "a maximum of 20 domains or URLs"."""


def _openrouter_body(params: SearchParams) -> dict[str, Any]:
    request = method_request(
        AuthMethod("openrouter", "or-key"), params, secret="or-key", system_prompt="S"
    )
    assert request.url == OPENROUTER_ENDPOINT and request.json is not None
    return request.json


def _ask_fields(params: SearchParams) -> dict[str, Any]:
    return ask_body(params, anonymous=True)["params"]


@pytest.mark.parametrize(
    "body",
    [lambda p: api_body(p, "S"), _openrouter_body, _ask_fields],
    ids=["api", "openrouter", "ask"],
)
def test_every_request_shape_sends_one_domain_mode_of_at_most_20(body: Any) -> None:
    mixed = SearchParams(query="x", include_domains=("docs.rs",), exclude_domains=("reddit.com",))
    assert body(mixed)["search_domain_filter"] == ["docs.rs"]
    denied = SearchParams(query="x", exclude_domains=("reddit.com", "quora.com"))
    assert body(denied)["search_domain_filter"] == ["-reddit.com", "-quora.com"]
    twenty = MANY[:MAX_DOMAINS]
    assert body(SearchParams(query="x", include_domains=twenty))["search_domain_filter"] == list(
        twenty
    )
    # A list over the cap is not sent at all (the plan asks for it in the question).
    assert "search_domain_filter" not in body(SearchParams(query="x", include_domains=MANY))
    too_many = SearchParams(query="x", include_domains=MANY, exclude_domains=("reddit.com",))
    assert body(too_many)["search_domain_filter"] == ["-reddit.com"]
    assert "search_domain_filter" not in body(SearchParams(query="x", exclude_domains=MANY))
    assert "search_domain_filter" not in body(SearchParams(query="x"))


@pytest.mark.parametrize("country", ["fr", "FR"])
def test_country_goes_as_user_location_in_every_mode(country: str) -> None:
    # https://docs.perplexity.ai/guides/user-location-filter-guide: web_search_options
    # .user_location.country, a two-letter ISO code ("US"); the API keeps its fixed options.
    params = SearchParams(query="q", country=country)
    assert api_body(params, "S")["web_search_options"] == {
        "search_type": "pro",
        "search_context_size": "high",
        "user_location": {"country": "FR"},
    }
    assert _openrouter_body(params)["web_search_options"]["user_location"] == {"country": "FR"}
    assert _ask_fields(params)["web_search_options"] == {"user_location": {"country": "FR"}}
    assert "web_search_options" not in _ask_fields(SearchParams(query="q"))
    (record,) = apply_plan(
        plan_filters(params, INFO), SearchResponse(provider="perplexity")
    ).filters
    assert (record.name, record.applied) == ("country", ("native",))


def test_ask_body() -> None:
    body = ask_body(
        SearchParams(query="rust", recency="month"), anonymous=False, timezone="Europe/Lisbon"
    )
    params = body["params"]
    assert body["query_str"] == "rust"
    assert params["query_str"] == "rust"
    fixed = {
        "search_focus": "internet",
        "mode": "copilot",
        "model_preference": "experimental",
        "sources": ["web"],
        "attachments": [],
        "version": "2.18",
        "language": "en-US",
        "timezone": "Europe/Lisbon",
        "search_recency_filter": "month",
        "is_incognito": True,
        "use_schematized_api": True,
        "skip_search_enabled": False,
        "always_search_override": True,
        "prompt_source": "user",
        "source": "default",
        "local_search_enabled": False,
        "should_ask_for_mcp_tool_confirmation": False,
        "supports_tool_approval_modal": False,
        "force_enable_browser_agent": False,
        "is_local_browser_available": False,
        "is_local_browser_allowed": False,
    }
    assert {key: params[key] for key in fixed} == fixed
    assert params["frontend_uuid"] != params["frontend_context_uuid"]
    assert "send_back_text_in_streaming_api" not in params
    # No system prompt, token cap, temperature or search breadth on the ask endpoint.
    assert not {"max_tokens", "temperature", "num_search_results", "messages"} & set(params)
    anonymous = ask_body(
        SearchParams(query="x", recency="day", date_after=date(2025, 1, 2)), anonymous=True
    )["params"]
    assert anonymous["send_back_text_in_streaming_api"] is True
    assert anonymous["search_recency_filter"] is None
    assert anonymous["search_after_date_filter"] == "1/2/2025"


def test_ask_headers() -> None:
    oauth = ask_headers("oauth", "tok", "rid")
    assert oauth["Cookie"] == "__Secure-next-auth.session-token=tok"
    assert oauth["User-Agent"] == "Perplexity/641 CFNetwork/1568 Darwin/25.2.0"
    assert oauth["X-Request-ID"] == "rid"
    assert (oauth["X-App-ApiClient"], oauth["X-App-ApiVersion"]) == ("default", "2.18")
    assert oauth["X-Perplexity-Request-Reason"] == "submit"
    assert "Authorization" not in oauth
    assert ask_headers("cookies", "a=b; c=d", "rid")["Cookie"] == "a=b; c=d"
    anonymous = ask_headers("anonymous", None, "rid")
    assert "Cookie" not in anonymous and "X-App-ApiClient" not in anonymous
    assert "Chrome/" in anonymous["User-Agent"]
    assert (anonymous["Origin"], anonymous["Referer"]) == (
        "https://www.perplexity.ai",
        "https://www.perplexity.ai/",
    )


# --- the captures -----------------------------------------------------------------------------

STREAM_CITATIONS = [
    "https://populationstat.com/united-states/san-francisco",
    "https://en.wikipedia.org/wiki/San_Francisco",
    "https://fred.stlouisfed.org/graph/?g=4K5j",
    "https://www.california-demographics.com/cities_by_population",
    "https://worldpopulationreview.com/us-cities/california/san-francisco",
    "https://worldpopulationreview.com/us-counties/california/san-francisco-county",
    "https://www.worldometers.info/world-population/us-population/",
]


def test_capture_stream_chunks() -> None:
    response = parse_chat_chunks(capture_chunks(), requested_model="sonar-pro")
    assert response.answer == "The current population of **[2][3]"
    assert response.model == "sonar"
    assert response.request_id == "58cb9740-f356-49e9-b71e-a02a1376c1b9"
    assert [s.url for s in response.sources] == STREAM_CITATIONS
    # No search_results in the capture: sources are titled by their URL, without snippets.
    assert [(s.title, s.snippet) for s in response.sources[:1]] == [(STREAM_CITATIONS[0], None)]
    assert [(c.url, c.title) for c in response.citations] == [(u, "") for u in STREAM_CITATIONS]
    assert response.usage is not None
    assert (response.usage.input_tokens, response.usage.output_tokens) == (10, 336)
    assert response.usage.total_tokens == 346
    assert response.auth_mode == "api_key"


def test_capture_stream_as_sse_events_with_limit() -> None:
    events = [SseEvent(data=json.dumps(chunk)) for chunk in capture_chunks()]
    events.append(SseEvent(data="[DONE]"))
    response = parse_chat_chunks(events_json(events), requested_model="sonar-pro", limit=2)
    assert [s.url for s in response.sources] == STREAM_CITATIONS[:2]
    # The citations of the sources cut go too (stop 54, filters56): the pages not shown.
    assert [c.url for c in response.citations] == STREAM_CITATIONS[:2]


def test_capture_completion() -> None:
    data = json.loads(read_capture(COMPLETION))
    response = parse_chat_completion(data, requested_model="sonar-pro")
    assert response.answer is not None
    assert response.answer.startswith(
        "The most recent estimates for San Francisco's city population (as of 2024-2026) range "
        "from **803,000 to 893,000**"
    )
    assert response.answer.endswith("check U.S. Census Bureau updates beyond 2024.")
    assert [s.url for s in response.sources] == [
        "https://populationstat.com/united-states/san-francisco",
        "https://en.wikipedia.org/wiki/San_Francisco",
        "https://www.california-demographics.com/cities_by_population",
        "https://wfin.com/fox-sports/pat-mcafee-says-san-francisco-wasnt-the-s-hole-he-thought-it-may-be-during-super-bowl-week/",
        "https://fred.stlouisfed.org/series/CASANF0POP",
        "https://worldpopulationreview.com/us-cities/california/san-francisco",
        "https://worldpopulationreview.com/us-counties/california/san-francisco-county",
    ]
    assert (response.model, response.request_id) == (
        "sonar",
        "702738a1-c1e0-4a7f-b9ab-0f6fe1b13514",
    )
    assert response.usage is not None and response.usage.total_tokens == 261


def test_capture_usage_cost_completion() -> None:
    data = json.loads(read_capture(USAGE))
    response = parse_chat_completion(data, requested_model="sonar-pro")
    assert response.answer == "OK"
    assert response.sources == () and response.citations == ()
    assert response.request_id == "sanitized-live-normal-response"
    assert response.usage is not None
    assert (response.usage.input_tokens, response.usage.output_tokens) == (6, 1)


def test_capture_openrouter_annotations() -> None:
    data = json.loads(read_capture(OPENROUTER))
    response = parse_chat_completion(data, requested_model="perplexity/sonar-pro")
    assert response.answer == "https://github.com/pydantic/pydantic-ai"
    assert response.model == "deepseek/deepseek-chat"
    assert response.request_id == "gen-1786680756-Fmq0SbiQ50hlHCCn30d5"
    assert [(s.title, s.url) for s in response.sources] == [
        ("AI Agent Framework, the Pydantic way", "https://github.com/pydantic/pydantic-ai"),
        ("https://pydantic.dev/pydantic-ai", "https://pydantic.dev/pydantic-ai"),
        ("v2.0.0 (2026-06-23)", "https://github.com/pydantic/pydantic-ai/releases/tag/v2.0.0"),
        ("Pydantic AI | Pydantic Docs", "https://pydantic.dev/docs/ai/overview/"),
        (
            "GitHub - pydantic/pydantic-ai at refs/tags/v1.44.0 · GitHub",
            "https://github.com/pydantic/pydantic-ai/tree/refs/tags/v1.44.0",
        ),
    ]
    assert response.sources[4].snippet == (
        "GitHub - pydantic/pydantic-ai at refs/tags/v1.44.0 · GitHub ... ### Pydantic AI is a "
        "Python agent framework designed to help you quickly, confidently, and painlessly build "
        "production grade applications and workflows with Generative AI."
    )
    assert [c.title for c in response.citations][:2] == ["AI Agent Framework, the Pydantic way", ""]
    assert response.usage is not None and response.usage.input_tokens == 2315


# --- chat parsing details ---------------------------------------------------------------------


def test_citations_are_enriched_from_search_results() -> None:
    chunk = {
        "id": "r1",
        "model": "sonar-pro",
        "citations": ["https://a.example/x", "https://b.example/y", "https://a.example/x"],
        "search_results": [
            {"title": "A page", "url": "https://a.example/x", "date": "2026-01-10", "snippet": "a"},
            {"title": "Unused", "url": "https://c.example/z", "snippet": "c"},
        ],
        "related_questions": ["Why?", "  "],
        "choices": [{"delta": {"content": "Answer [1]"}}],
    }
    response = parse_chat_chunks([chunk], requested_model="m", now=NOW)
    assert [(s.title, s.url, s.snippet) for s in response.sources] == [
        ("A page", "https://a.example/x", "a"),
        ("https://b.example/y", "https://b.example/y", None),
    ]
    assert response.sources[0].age_seconds == 86_400
    assert [(c.url, c.title) for c in response.citations] == [
        ("https://a.example/x", "A page"),
        ("https://b.example/y", ""),
    ]
    assert response.related_questions == ("Why?",)


def test_search_results_without_citations_are_the_sources() -> None:
    chunk = {
        "search_results": [{"title": "T", "url": "https://t.example/", "date": "someday"}],
        "choices": [{"delta": {"content": "x"}}],
    }
    response = parse_chat_chunks([chunk], requested_model="sonar-pro")
    assert [(s.title, s.published_date, s.age_seconds) for s in response.sources] == [
        ("T", "someday", None)
    ]
    assert response.citations == ()
    assert response.model == "sonar-pro"  # no model in the stream: the requested one
    assert response.usage is None


def test_stream_error_chunk() -> None:
    with pytest.raises(SearchProviderError) as caught:
        parse_chat_chunks([{"error": {"message": "overloaded", "code": 503}}], requested_model="m")
    assert (caught.value.message, caught.value.status) == (
        "Perplexity API error (503): overloaded",
        503,
    )
    with pytest.raises(SearchProviderError) as bare:
        parse_chat_chunks([{"error": {}}], requested_model="m")
    assert bare.value.message == "Perplexity API error (500): Perplexity API stream failed"


def test_non_completion_bodies_are_parse_errors() -> None:
    bodies: tuple[Any, ...] = ([], {"detail": "x"})
    for body in bodies:
        with pytest.raises(ResponseParseError):
            parse_chat_completion(body, requested_model="m")


# --- the ask stream ---------------------------------------------------------------------------

ASK_EVENTS: list[dict[str, Any]] = [
    {
        "uuid": "u-1",
        "status": "PENDING",
        "display_model": "turbo",
        "sources_list": [{"title": "Old", "url": "https://old.example/"}],
        "blocks": [
            {
                "intended_usage": "web_results",
                "web_result_block": {
                    "web_results": [
                        {"name": "First", "url": "https://a.example/p/", "snippet": "one"},
                        {"name": "Second", "url": "https://b.example/", "timestamp": "2026-01-10"},
                    ]
                },
            }
        ],
    },
    {
        "blocks": [
            {
                "intended_usage": "ask_text_0_markdown",
                "markdown_block": {"chunks": ["Hello ", "wor"], "chunk_starting_offset": 0},
            }
        ]
    },
    {
        "blocks": [
            {
                "intended_usage": "ask_text_0_markdown",
                "markdown_block": {"chunks": ["world."], "chunk_starting_offset": 1},
            },
            {
                "intended_usage": "web_results",
                "web_result_block": {
                    "web_results": [
                        {"name": "Second again", "url": "https://b.example/"},
                        {"name": "First, updated", "url": "https://A.example/p", "snippet": "1"},
                    ]
                },
            },
        ]
    },
    {"status": "COMPLETED", "final": True, "user_selected_model": "pplx_pro"},
    {"blocks": [{"intended_usage": "ask_text_0_markdown", "markdown_block": {"chunks": ["late"]}}]},
]


def test_ask_merge_answer_sources_and_model() -> None:
    request = AskResult(auth_mode="oauth", requested_model="experimental", request_id="sent-id")
    response = parse_ask(ASK_EVENTS, request, now=NOW)
    assert response.answer == "Hello world."
    # Positions from first sight, fields from the latest event; the trailing slash and host
    # case do not make a new source.
    assert [(s.title, s.url, s.snippet) for s in response.sources] == [
        ("Second again", "https://b.example/", None),
        ("First, updated", "https://A.example/p", "1"),
    ]
    assert (response.model, response.request_id, response.auth_mode) == ("pplx_pro", "u-1", "oauth")
    limited = parse_ask(ASK_EVENTS, request, limit=1)
    assert len(limited.sources) == 1


def test_ask_model_and_request_id_fallbacks() -> None:
    events = [{"display_model": "turbo", "text": "plain words"}]
    anonymous = AskResult(auth_mode="anonymous", requested_model="experimental", request_id="sent")
    response = parse_ask(events, anonymous)
    assert (response.model, response.request_id, response.answer) == (
        "turbo",
        "sent",
        "plain words",
    )
    signed_in = AskResult(auth_mode="oauth", requested_model="experimental", request_id="sent")
    assert parse_ask(events, signed_in).model == "experimental"


def test_ask_error_event() -> None:
    request = AskResult(auth_mode="oauth", requested_model="m", request_id="r")
    with pytest.raises(SearchProviderError) as caught:
        parse_ask([{"error_code": "RATE_LIMITED", "error_message": "Too many"}], request)
    assert (caught.value.message, caught.value.status) == (
        "Perplexity ask stream error: Too many",
        400,
    )
    with pytest.raises(SearchProviderError, match="ask stream error: QUOTA"):
        parse_ask([{"error_code": "QUOTA"}], request)


def test_ask_text_with_a_lone_surrogate_is_read_not_a_type_error() -> None:
    # A "\\ud800" escape leaves a lone surrogate in the decoded ask text; decoding that
    # text as JSON raised TypeError, which ended the search instead of failing over.
    text = json.dumps({"answer": "A\ud800 B"}, ensure_ascii=False)
    assert ask_answer(merge_ask_events([{"text": text}])) == "A\ud800 B"


def test_ask_text_fallbacks() -> None:
    structured = {"text": json.dumps({"structured_answer": [{"text": "A "}, {"text": "B"}]})}
    assert ask_answer(merge_ask_events([structured])) == "A B"
    chunks = {"text": json.dumps({"chunks": ["x", "y"]})}
    assert ask_answer(merge_ask_events([chunks])) == "xy"
    steps = [
        {
            "step_type": "SEARCH_RESULTS",
            "content": {"web_results": [{"title": "S", "url": "https://s.example/"}]},
        },
        {"step_type": "FINAL", "content": {"answer": json.dumps({"answer": "Final answer"})}},
    ]
    merged = merge_ask_events([{"text": json.dumps(steps)}])
    assert ask_answer(merged) == "Final answer"
    assert [(s.title, s.url) for s in ask_sources(merged)] == [("S", "https://s.example/")]
    ask_text = {"blocks": [{"intended_usage": "ask_text", "markdown_block": {"answer": "Z"}}]}
    assert ask_answer(merge_ask_events([ask_text])) == "Z"
    assert ask_answer(merge_ask_events([])) is None
    only_list = merge_ask_events(
        [{"sources_list": [{"title": "L", "url": "https://l.example/"}]}, {}]
    )
    assert [s.url for s in ask_sources(only_list)] == ["https://l.example/"]


async def test_expired_oauth_token_without_hook_falls_back_to_the_api_key(tmp_path: Path) -> None:
    """Every method is tried; with no transport reachable each fails and the last error wins."""

    class NoNetwork:
        async def send_sse(self, *args: Any, **kwargs: Any) -> Any:
            raise SearchProviderError("perplexity", "network unreachable", 503)

    expired = OAuthToken(access_token="old", expires_at=time.time() - 5)
    ctx = context(tmp_path, token=expired, keys={"perplexity": "pplx-key"})
    ctx = ProviderContext(
        transport=NoNetwork(),  # type: ignore[arg-type]
        settings=ctx.settings,
        credentials=ctx.credentials,
        system_prompt=ctx.system_prompt,
    )
    with pytest.raises(SearchProviderError) as caught:
        await PerplexityProvider().search(SearchParams(query="x"), ctx)
    assert caught.value.message == "network unreachable"


# --- the auth methods as steps of the core's request loop --------------------------------------


class Scripted:
    """A transport that answers each streamed request with the next step, or raises it."""

    def __init__(self, *steps: SseResponse | SearchProviderError) -> None:
        self.steps = list(steps)
        self.sent: list[HttpRequest] = []

    async def send_sse(self, provider: str, label: str, request: HttpRequest) -> SseResponse:
        assert (provider, label, request.stream) == ("perplexity", "Perplexity", True)
        self.sent.append(request)
        step = self.steps.pop(0)
        if isinstance(step, SearchProviderError):
            raise step
        return step


def ask_ok() -> SseResponse:
    events = tuple(SseEvent(data=json.dumps(event)) for event in ASK_EVENTS)
    return SseResponse(status=200, body=b"data: ...", events=events)


def api_ok() -> SseResponse:
    events = tuple(SseEvent(data=json.dumps(chunk)) for chunk in capture_chunks())
    return SseResponse(status=200, body=b"data: ...", events=events)


def refused(status: int, body: str = "no") -> SseResponse:
    return SseResponse(status=status, body=body.encode())


def scripted_context(
    tmp_path: Path,
    transport: Scripted,
    *,
    cookies: bool = False,
    token: OAuthToken | None = None,
    key: str | None = None,
    refreshed: list[str] | None = None,
) -> ProviderContext:
    async def refresh(provider: str, old: OAuthToken) -> OAuthToken:
        assert refreshed is not None
        refreshed.append(old.access_token)
        return OAuthToken(access_token=f"new-{len(refreshed)}", expires_at=time.time() + 3600)

    store = CredentialStore(tmp_path / "credentials.json")
    if token is not None:
        store.set_oauth("perplexity", token)
    return ProviderContext(
        transport=transport,  # type: ignore[arg-type]
        settings=Settings(),
        credentials=Credentials(
            explicit={"perplexity": key} if key else {},
            environ={"PERPLEXITY_COOKIES": "c=1"} if cookies else {},
            store=store,
            refreshers={"perplexity": refresh} if refreshed is not None else None,
        ),
        system_prompt=SEARCH_SYSTEM_PROMPT,
    )


def session_cookies(transport: Scripted) -> list[str | None]:
    return [request.headers.get("Cookie") for request in transport.sent]


async def test_oauth_refresh_after_a_failed_cookie_step_resends_the_oauth_step(
    tmp_path: Path,
) -> None:
    transport = Scripted(refused(500), refused(403), ask_ok())
    refreshed: list[str] = []
    ctx = scripted_context(
        tmp_path, transport, cookies=True, token=OAuthToken(access_token="old"), refreshed=refreshed
    )
    response = await PerplexityProvider().search(SearchParams(query="q"), ctx)
    assert session_cookies(transport) == [
        "c=1",
        "__Secure-next-auth.session-token=old",
        "__Secure-next-auth.session-token=new-1",
    ]
    assert refreshed == ["old"]
    assert response.auth_mode == "oauth"


async def test_a_refused_cookie_step_never_refreshes_the_oauth_token(tmp_path: Path) -> None:
    transport = Scripted(refused(401), ask_ok())
    refreshed: list[str] = []
    ctx = scripted_context(
        tmp_path, transport, cookies=True, token=OAuthToken(access_token="tok"), refreshed=refreshed
    )
    await PerplexityProvider().search(SearchParams(query="q"), ctx)
    assert session_cookies(transport) == ["c=1", "__Secure-next-auth.session-token=tok"]
    assert refreshed == []


async def test_a_resent_ask_step_refreshed_after_401_is_rebuilt_with_the_new_token(
    tmp_path: Path,
) -> None:
    reset = ProviderConnectionError("perplexity", "Perplexity connection reset", 503)
    transport = Scripted(reset, refused(401), ask_ok())
    refreshed: list[str] = []
    ctx = scripted_context(
        tmp_path, transport, token=OAuthToken(access_token="tok"), refreshed=refreshed
    )
    await PerplexityProvider().search(SearchParams(query="q"), ctx)
    assert transport.sent[0] is transport.sent[1]  # the same request, sent once more
    assert session_cookies(transport)[2] == "__Secure-next-auth.session-token=new-1"


async def test_a_refused_answer_that_cannot_be_read_falls_through(tmp_path: Path) -> None:
    no_stream = SseResponse(status=200, body=b"<html>login</html>")
    transport = Scripted(no_stream, api_ok())
    ctx = scripted_context(tmp_path, transport, cookies=True, key="pplx-key")
    response = await PerplexityProvider().search(SearchParams(query="q"), ctx)
    assert [request.url for request in transport.sent] == [ASK_ENDPOINT, CHAT_ENDPOINT]
    assert response.auth_mode == "api_key"


async def test_an_unusable_oauth_token_is_the_error_when_its_method_is_last(
    tmp_path: Path,
) -> None:
    expired = OAuthToken(access_token="old", expires_at=time.time() - 5)
    transport = Scripted(refused(500, "cookie side down"))
    ctx = scripted_context(tmp_path, transport, cookies=True, token=expired)
    with pytest.raises(AuthorizationError, match="no refresh hook is configured"):
        await PerplexityProvider().search(SearchParams(query="q"), ctx)
    assert len(transport.sent) == 1


async def test_each_mode_names_its_endpoint_in_errors(tmp_path: Path) -> None:
    ask = Scripted(refused(502, "bad gateway"))
    with pytest.raises(SearchProviderError) as caught:
        await PerplexityProvider().search(
            SearchParams(query="q"), scripted_context(tmp_path, ask, cookies=True)
        )
    assert caught.value.message == "Perplexity ask API error (502): bad gateway"
    api = Scripted(refused(418, "teapot"))
    with pytest.raises(SearchProviderError) as caught:
        await PerplexityProvider().search(
            SearchParams(query="q"), scripted_context(tmp_path, api, key="pplx-key")
        )
    assert caught.value.message == "Perplexity API error (418): teapot"


# --- domain filters: one mode, at most 20, the rest in the question ---------------------------


def test_a_list_over_20_is_asked_in_the_question_and_recorded_so() -> None:
    includes = tuple(f"site{i}.com" for i in range(21))
    plan = plan_filters(SearchParams(query="rust -site:reddit.com", include_domains=includes), INFO)
    # The 21 included domains do not fit: they go in the question, and the denylist out.
    assert plan.params.query == "rust (" + " OR ".join(f"site:{d}" for d in includes) + ")"
    assert _openrouter_body(plan.params)["search_domain_filter"] == ["-reddit.com"]
    records = {
        (f.name, f.value): f.applied
        for f in apply_plan(plan, SearchResponse(provider="perplexity")).filters
    }
    assert records[("include_domains", "site0.com")] == ("query", "post")
    assert records[("include_domains", "site20.com")] == ("query", "post")
    assert records[("exclude_domains", "reddit.com")] == ("native", "post")


def test_with_both_lists_the_denylist_is_asked_in_the_question() -> None:
    plan = plan_filters(SearchParams(query="rust site:docs.rs -site:reddit.com"), INFO)
    # site:docs.rs goes out as the allowlist; -site:reddit.com stays for the model to read.
    assert plan.params.query == "rust -site:reddit.com"
    assert _openrouter_body(plan.params)["search_domain_filter"] == ["docs.rs"]
    records = {
        f.name: f.applied for f in apply_plan(plan, SearchResponse(provider="perplexity")).filters
    }
    assert records == {
        "include_domains": ("native", "post"),
        "exclude_domains": ("query", "post"),
    }


def test_the_table_says_when_a_domain_list_is_not_sent() -> None:
    support = INFO.filters
    assert filter_cell("include_domains", support) == "native + post (over 20: query + post)"
    assert filter_cell("exclude_domains", support) == (
        "native + post (over 20 or with include_domains: query + post)"
    )
    assert filter_cell("date_after", support) == "native"


def test_a_search_result_without_a_date_is_dated_by_its_last_update() -> None:
    """A guard: a result's ``last_updated`` stands in for a missing ``date``.

    The reference lists both fields; every test result had a ``date`` or neither, so
    dropping the fallback passed every Perplexity test (stop 50's wire mutations).
    """
    chunk = {
        "search_results": [
            {"title": "T", "url": "https://t.example/", "last_updated": "2026-01-10"},
            {"title": "U", "url": "https://u.example/", "date": "2026-01-09", "last_updated": "x"},
        ],
        "choices": [{"delta": {"content": "x"}}],
    }
    response = parse_chat_chunks([chunk], requested_model="sonar-pro", now=NOW)
    assert [s.published_date for s in response.sources] == ["2026-01-10", "2026-01-09"]
    assert response.sources[0].age_seconds == 86_400
