"""Kimi Code search: request building and response parsing, pure (no server)."""

import json
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest

from tests.conftest import read_capture
from tests.providers._helpers import key_context, ok
from websearch_core.credentials import Credentials
from websearch_core.errors import (
    AuthorizationError,
    ConfigurationError,
    CreditsSpentError,
    ProviderNotConfiguredError,
    ProviderUnavailableError,
    QuotaExhaustedError,
    ResponseParseError,
    SearchProviderError,
)
from websearch_core.models import SearchParams
from websearch_core.providers import SEARCH_PROVIDER_ORDER, get_provider
from websearch_core.providers.base import ProviderContext
from websearch_core.providers.kimi import (
    INFO,
    KIMI_ENDPOINT,
    MISSING_KEY_MESSAGE,
    KimiProvider,
    parse_results,
    request_body,
    search_url,
)
from websearch_core.transport import HttpResponse

NOW = datetime(2026, 4, 18, 12, 0, tzinfo=UTC)
CAPTURES = (
    "kimi/chat_completions_web_search_round1_builtin_tool_call_2026.json",
    "kimi/chat_completions_web_search_round2_final_answer_excerpted_2026.json",
)


@pytest.fixture(autouse=True)
def _no_url_override(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MOONSHOT_SEARCH_BASE_URL", raising=False)
    monkeypatch.delenv("KIMI_SEARCH_BASE_URL", raising=False)


def context(
    key: str | None = "kimi-test-key", environ: dict[str, str] | None = None
) -> ProviderContext:
    return key_context("kimi", key, environ=environ)


RESULT = {
    "site_name": "Python docs",
    "title": "asyncio — Asynchronous I/O",
    "url": "https://docs.python.org/3/library/asyncio.html",
    "snippet": "asyncio is a library to write concurrent code.",
    "content": "",
    "date": "2026-04-17",
    "icon": "https://docs.python.org/favicon.ico",
    "mime": "text/html",
}


# --- facts ------------------------------------------------------------------------------------


def test_registry_returns_the_kimi_provider_with_its_facts() -> None:
    provider = get_provider("kimi")
    assert isinstance(provider, KimiProvider)
    assert provider.info is INFO
    assert (INFO.id, INFO.label, INFO.kind) == ("kimi", "Kimi", "api")
    assert INFO.env_vars == ("MOONSHOT_SEARCH_API_KEY", "KIMI_SEARCH_API_KEY")
    assert (INFO.default_results, INFO.max_results) == (10, 20)
    assert INFO.honours == {"query", "limit", "num_search_results"}
    assert INFO.docs_url.startswith("https://")


def test_auto_order_puts_kimi_after_brave_and_serper() -> None:
    order = list(SEARCH_PROVIDER_ORDER)
    assert order.index("brave") < order.index("serper") < order.index("kimi")


# --- credentials ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["MOONSHOT_SEARCH_API_KEY", "KIMI_SEARCH_API_KEY"])
def test_key_from_either_search_variable(name: str) -> None:
    ctx = context(key=None, environ={name: " sk-kimi-1 "})
    assert KimiProvider().is_available(ctx)
    request = KimiProvider().build_request(SearchParams(query="x"), ctx)
    assert request.headers["Authorization"] == "Bearer sk-kimi-1"


def test_moonshot_search_key_wins_over_kimi_search_key() -> None:
    ctx = context(
        key=None, environ={"KIMI_SEARCH_API_KEY": "second", "MOONSHOT_SEARCH_API_KEY": "first"}
    )
    assert KimiProvider().api_key(ctx) == "first"


def test_moonshot_api_key_is_deliberately_not_accepted() -> None:
    ctx = context(key=None, environ={"MOONSHOT_API_KEY": "sk-open-platform"})
    provider = KimiProvider()
    assert not provider.is_available(ctx)
    assert not provider.is_explicitly_available(ctx)
    with pytest.raises(ProviderNotConfiguredError) as caught:
        provider.build_request(SearchParams(query="x"), ctx)
    assert caught.value.message == MISSING_KEY_MESSAGE


def test_missing_key_message() -> None:
    with pytest.raises(ProviderNotConfiguredError) as caught:
        KimiProvider().build_request(SearchParams(query="x"), context(key=None))
    assert caught.value.provider == "kimi"
    assert caught.value.message == (
        "Kimi search credentials not found. Kimi web search uses the Kimi Code service "
        "(api.kimi.com); set MOONSHOT_SEARCH_API_KEY / KIMI_SEARCH_API_KEY to a Kimi Code "
        "Console key, or run `websearch auth set kimi`. A Moonshot Open Platform key "
        "(MOONSHOT_API_KEY) is not accepted here."
    )


# --- request ----------------------------------------------------------------------------------


def test_default_request_shape() -> None:
    request = KimiProvider().build_request(SearchParams(query="asyncio"), context())
    assert request.method == "POST"
    assert request.url == KIMI_ENDPOINT == "https://api.kimi.com/coding/v1/search"
    assert dict(request.headers) == {
        "Accept": "application/json",
        "Content-Type": "application/json",
        "Authorization": "Bearer kimi-test-key",
    }
    assert request.json == {
        "text_query": "asyncio",
        "limit": 10,
        "enable_page_crawling": False,
        "timeout_seconds": 30,
    }
    assert "kimi-test-key" not in repr(request)


@pytest.mark.parametrize(
    ("fields", "limit"),
    [
        ({}, 10),
        ({"limit": 1}, 1),
        ({"limit": 20}, 20),
        ({"limit": 21}, 20),
        ({"limit": 100}, 20),
        ({"num_search_results": 15, "limit": 3}, 15),
        ({"num_search_results": 4}, 4),
    ],
)
def test_limit_is_num_search_results_before_limit_clamped_to_20(
    fields: dict[str, int], limit: int
) -> None:
    assert request_body(SearchParams(query="x", **fields))["limit"] == limit


def test_filters_it_cannot_honour_are_not_sent() -> None:
    body = request_body(
        SearchParams(query="x", recency="week", country="de", language="de", temperature=0.5)
    )
    assert set(body) == {"text_query", "limit", "enable_page_crawling", "timeout_seconds"}


def _env(values: dict[str, str]) -> Callable[[str], str | None]:
    """The environment reader a provider gets from its context, over ``values``."""
    return Credentials(environ=values).env


def test_full_url_overrides_in_precedence_order() -> None:
    assert search_url(_env({})) == KIMI_ENDPOINT
    assert search_url(_env({"KIMI_SEARCH_BASE_URL": "https://b.example/s"})) == (
        "https://b.example/s"
    )
    both = {
        "MOONSHOT_SEARCH_BASE_URL": " https://a.example/api/search ",
        "KIMI_SEARCH_BASE_URL": "https://b.example/s",
    }
    assert search_url(_env(both)) == "https://a.example/api/search"
    assert search_url(_env({"MOONSHOT_SEARCH_BASE_URL": "  "})) == KIMI_ENDPOINT


def test_build_request_reads_the_url_override_from_the_context() -> None:
    ctx = context(environ={"KIMI_SEARCH_BASE_URL": "http://127.0.0.1:9/v1/search"})
    request = KimiProvider().build_request(SearchParams(query="x"), ctx)
    assert request.url == "http://127.0.0.1:9/v1/search"


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("api.kimi.com/coding/v1/search", "Invalid Kimi search URL: expected an HTTP or HTTPS URL"),
        ("ftp://a.example/s", "Invalid Kimi search URL: expected an HTTP or HTTPS URL"),
        ("https://u:p@a.example/s", "Invalid Kimi search URL: URL credentials are not allowed"),
    ],
)
def test_an_invalid_override_is_a_configuration_error(url: str, message: str) -> None:
    with pytest.raises(ConfigurationError) as caught:
        search_url(_env({"MOONSHOT_SEARCH_BASE_URL": url}))
    assert str(caught.value) == message


# --- parsing ----------------------------------------------------------------------------------


def test_parse_search_results() -> None:
    second = {
        "site_name": "",
        "title": "",
        "url": "https://example.org/page",
        "snippet": "",
        "content": "  Crawled page text.  ",
        "date": "yesterday",
    }
    response = KimiProvider().parse_response(
        ok({"search_results": [RESULT, second]}, {"X-Msh-Request-Id": "msh-42"}),
        SearchParams(query="asyncio"),
    )
    assert response.provider == "kimi"
    assert response.request_id == "msh-42"
    assert response.auth_mode == "api_key"
    first, other = response.sources
    assert first.title == "asyncio — Asynchronous I/O"
    assert first.url == "https://docs.python.org/3/library/asyncio.html"
    assert first.snippet == "asyncio is a library to write concurrent code."
    assert first.author == "Python docs"
    assert first.published_date == "2026-04-17"
    assert first.age_seconds is not None
    # snippet falls back to content; title to the URL; unparseable dates give no age
    assert (other.title, other.snippet, other.author) == (
        "https://example.org/page",
        "Crawled page text.",
        None,
    )
    assert other.published_date == "yesterday" and other.age_seconds is None


def test_snippet_wins_over_crawled_content() -> None:
    item = {**RESULT, "content": "Full crawled page text."}
    (source,) = parse_results({"search_results": [item]})
    assert source.snippet == "asyncio is a library to write concurrent code."


def test_date_becomes_an_age() -> None:
    (source,) = parse_results({"search_results": [RESULT]}, now=NOW)
    assert source.age_seconds == 36 * 3600


def test_x_request_id_wins_over_x_msh_request_id() -> None:
    response = KimiProvider().parse_response(
        ok({"search_results": []}, {"x-request-id": "a", "x-msh-request-id": "b"}),
        SearchParams(query="x"),
    )
    assert response.request_id == "a"
    assert response.sources == ()


@pytest.mark.parametrize("url", [None, "", "/relative", "ftp://a.example/x", 7])
def test_results_without_an_http_url_are_dropped(url: Any) -> None:
    assert parse_results({"search_results": [{**RESULT, "url": url}, None, "x"]}) == ()


@pytest.mark.parametrize(
    "data",
    [
        {},
        [],
        "search_results",
        {"search_results": None},
        {"search_results": {"a": 1}},
        {"error": {"message": "Invalid Authentication", "type": "invalid_authentication_error"}},
    ],
)
def test_a_body_without_a_search_results_list_is_a_parse_error(data: Any) -> None:
    with pytest.raises(ResponseParseError) as caught:
        parse_results(data)
    assert caught.value.message == "Kimi search API returned an unexpected response shape"


def test_invalid_json_is_a_parse_error() -> None:
    with pytest.raises(ResponseParseError) as caught:
        KimiProvider().parse_response(
            HttpResponse(status=200, body=b"<html>"), SearchParams(query="x")
        )
    assert caught.value.message == "Kimi API returned invalid JSON"


# --- the captures of Moonshot's *other* API ---------------------------------------------------


@pytest.mark.conformance
@pytest.mark.parametrize("capture", CAPTURES)
def test_chat_completions_captures_are_refused_not_read_as_empty(capture: str) -> None:
    """The fixtures are ``/v1/chat/completions`` + ``$web_search`` bodies, not search bodies.

    This provider never calls that API; if such a body ever came back from the search URL
    (a misconfigured override pointing at the chat endpoint), it must fail loudly rather
    than look like a search with no results.
    """
    body = read_capture(capture)
    data = json.loads(body)
    assert data["object"] == "chat.completion" and "search_results" not in data
    with pytest.raises(ResponseParseError) as caught:
        KimiProvider().parse_response(
            HttpResponse(status=200, body=body), SearchParams(query="Kimi K2.6")
        )
    assert caught.value.provider == "kimi"
    assert caught.value.message == "Kimi search API returned an unexpected response shape"


# --- status handling --------------------------------------------------------------------------


def _status(status: int, body: str, headers: dict[str, str] | None = None) -> HttpResponse:
    return HttpResponse(status=status, body=body.encode(), headers=headers or {})


def test_401_is_an_authorization_error() -> None:
    body = '{"error":{"message":"Invalid Authentication","type":"invalid_authentication_error"}}'
    with pytest.raises(AuthorizationError) as caught:
        KimiProvider().check(_status(401, body))
    assert (caught.value.status, caught.value.message) == (401, "kimi: 401 unauthorized")


@pytest.mark.parametrize(
    "body",
    [
        '{"error":{"message":"You\'ve reached your usage limit for this billing cycle. '
        'Your quota will be refreshed in the next cycle.","type":"access_terminated_error"}}',
        '{"error":{"message":"You\'ve reached your usage limit for this billing cycle.",'
        '"type":"permission_error"}}',
    ],
    ids=["with-quota-sentence", "first-sentence"],
)
def test_403_for_a_spent_billing_cycle_is_credits_spent(body: str) -> None:
    """Kimi Code's documented 403 keyword for a spent cycle (its error reference): the
    subscription's cycle ends on its own date, so the mark is re-checked, not kept a month.
    The spec's display text for a 403 stays the authorization one (format_error)."""
    with pytest.raises(CreditsSpentError) as caught:
        KimiProvider().check(_status(403, body))
    assert caught.value.status == 403
    assert caught.value.message == f"Kimi search API error (403): {body}"


def test_guard_403_naming_no_billing_cycle_stays_an_authorization_error() -> None:
    """Guard (passes before and after): the other documented 403 is a key refused."""
    body = (
        '{"error":{"message":"Kimi For Coding is currently only available for Coding Agents",'
        '"type":"access_terminated_error"}}'
    )
    with pytest.raises(AuthorizationError) as caught:
        KimiProvider().check(_status(403, body))
    assert caught.value.message == "kimi: 403 forbidden"


@pytest.mark.parametrize(
    ("body", "window"),
    [
        (
            '{"error":{"message":"You\'ve reached your 5-hour usage limit. Your quota will reset '
            'when the current 5-hour window ends.","type":"forbidden"}}',
            5 * 3600.0,
        ),
        ('{"error":{"message":"You\'ve reached your 5-hour usage limit."}}', 5 * 3600.0),
        (
            '{"error":{"message":"You\'ve reached your weekly (7-day) usage limit. Your quota '
            'will reset when the current 7-day window ends.","type":"access_terminated_error"}}',
            7 * 86400.0,
        ),
        (
            '{"error":{"message":"You\'ve reached your weekly (7-day) usage limit.",'
            '"type":"permission_error"}}',
            7 * 86400.0,
        ),
    ],
    ids=["5-hour", "5-hour-first-sentence", "weekly", "weekly-first-sentence"],
)
def test_403_naming_a_used_up_window_is_a_quota_until_the_window_ends(
    body: str, window: float
) -> None:
    """Kimi Code's 5-hour and weekly limits (bodies in tests/functional/
    test_kimi_usage_windows.py): spent until the window's whole length from now, the latest
    it can end. Fails before the fix (a refused key, or a quota without a reset time)."""
    before = datetime.now(UTC).timestamp()
    with pytest.raises(QuotaExhaustedError) as caught:
        KimiProvider().check(_status(403, body))
    assert type(caught.value) is QuotaExhaustedError
    assert caught.value.message == f"Kimi search API error (403): {body}"
    assert caught.value.reset_at is not None
    end = caught.value.reset_at.timestamp()
    assert before + window <= end <= datetime.now(UTC).timestamp() + window


def test_a_window_refusal_with_retry_after_ends_when_the_header_says() -> None:
    body = '{"error":{"message":"You\'ve reached your 5-hour usage limit."}}'
    before = datetime.now(UTC).timestamp()
    with pytest.raises(QuotaExhaustedError) as caught:
        KimiProvider().check(_status(403, body, {"Retry-After": "120"}))
    assert caught.value.reset_at is not None
    end = caught.value.reset_at.timestamp()
    assert before + 120 <= end <= datetime.now(UTC).timestamp() + 120


def test_quota_text_in_a_429_body_is_quota() -> None:
    body = '{"error":{"message":"Your account quota is exceeded","type":"quota_error"}}'
    with pytest.raises(QuotaExhaustedError):
        KimiProvider().check(_status(429, body))


def test_5xx_is_unavailable_and_an_empty_body_keeps_the_status() -> None:
    with pytest.raises(ProviderUnavailableError) as caught:
        KimiProvider().check(_status(500, "  "))
    assert caught.value.message == "Kimi search API error (500)"


def test_other_4xx_is_a_plain_provider_error() -> None:
    with pytest.raises(SearchProviderError) as caught:
        KimiProvider().check(_status(400, '{"error":{"message":"bad"}}'))
    assert type(caught.value) is SearchProviderError
    assert caught.value.message == 'Kimi search API error (400): {"error":{"message":"bad"}}'
