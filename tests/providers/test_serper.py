"""Serper: request building and response parsing, pure (no server), plus the real capture."""

import json
from datetime import UTC, datetime
from typing import Any

import pytest

from tests.conftest import read_capture
from tests.providers._helpers import key_context, ok
from websearch_core.credentials import Credentials
from websearch_core.errors import (
    AuthorizationError,
    ProviderNotConfiguredError,
    ResponseParseError,
)
from websearch_core.format import format_for_llm
from websearch_core.models import SearchParams
from websearch_core.providers import SEARCH_PROVIDER_ORDER, get_provider
from websearch_core.providers.base import ProviderContext
from websearch_core.providers.serper import (
    INFO,
    SERPER_ENDPOINT,
    SerperProvider,
    dedupe_key,
    parse_answer,
    parse_related,
    parse_sources,
    request_body,
)
from websearch_core.settings import Settings
from websearch_core.transport import HttpResponse

CAPTURE = "serper/search_amazon_knowledge_graph_2023.json"
NOW = datetime(2023, 3, 12, tzinfo=UTC)


def context(key: str | None = "serper-test-key") -> ProviderContext:
    return key_context("serper", key)


# --- facts ------------------------------------------------------------------------------------


def test_registry_returns_the_serper_provider_with_its_facts() -> None:
    provider = get_provider("serper")
    assert isinstance(provider, SerperProvider)
    assert provider.info is INFO
    assert (INFO.id, INFO.label, INFO.kind) == ("serper", "Serper", "api")
    assert INFO.env_vars == ("SERPER_API_KEY",)
    assert (INFO.default_results, INFO.max_results, INFO.index) == (10, 100, "google")
    assert INFO.honours == {
        "query",
        "recency",
        "limit",
        "num_search_results",
        "country",
        "language",
    }
    assert INFO.description == "Requires SERPER_API_KEY"


def test_auto_order_puts_serper_right_after_brave() -> None:
    order = list(SEARCH_PROVIDER_ORDER)
    assert order.index("serper") == order.index("brave") + 1


# --- request ----------------------------------------------------------------------------------


def test_default_request_shape() -> None:
    request = SerperProvider().build_request(SearchParams(query="amazon"), context())
    assert request.method == "POST"
    assert request.url == SERPER_ENDPOINT == "https://google.serper.dev/search"
    assert dict(request.headers) == {
        "Content-Type": "application/json",
        "X-API-KEY": "serper-test-key",
    }
    assert request.json == {"q": "amazon", "num": 10}
    assert "serper-test-key" not in repr(request)


def test_missing_key_gives_the_spec_message() -> None:
    provider = SerperProvider()
    assert not provider.is_available(context(key=None))
    with pytest.raises(ProviderNotConfiguredError) as caught:
        provider.build_request(SearchParams(query="x"), context(key=None))
    assert caught.value.message == (
        "Serper credentials not found. Set SERPER_API_KEY or configure an API key "
        'for provider "serper".'
    )


def test_key_from_the_environment_variable() -> None:
    ctx = ProviderContext(
        transport=context().transport,
        settings=Settings(),
        credentials=Credentials(environ={"SERPER_API_KEY": "from-env"}),
    )
    request = SerperProvider().build_request(SearchParams(query="x"), ctx)
    assert request.headers["X-API-KEY"] == "from-env"


@pytest.mark.parametrize(
    ("fields", "num"),
    [
        ({}, 10),
        ({"limit": 1}, 1),
        ({"limit": 7}, 7),
        ({"limit": 100}, 100),
        ({"num_search_results": 30, "limit": 3}, 30),
        ({"num_search_results": 2}, 2),
    ],
)
def test_num_is_num_search_results_before_limit(fields: dict[str, int], num: int) -> None:
    assert request_body(SearchParams(query="x", **fields))["num"] == num


@pytest.mark.parametrize(
    ("recency", "tbs"),
    [("day", "qdr:d"), ("week", "qdr:w"), ("month", "qdr:m"), ("year", "qdr:y")],
)
def test_recency_maps_to_tbs(recency: str, tbs: str) -> None:
    params = SearchParams(query="x", recency=recency)
    assert request_body(params)["tbs"] == tbs


def test_country_and_language_become_gl_and_hl() -> None:
    body = request_body(SearchParams(query="x", country="BR", language="pt-BR"))
    assert body == {"q": "x", "num": 10, "gl": "br", "hl": "pt-br"}


# --- the real capture -------------------------------------------------------------------------


@pytest.mark.conformance
def test_parse_real_capture_amazon_knowledge_graph() -> None:
    response = SerperProvider().parse_response(
        HttpResponse(
            status=200, body=read_capture(CAPTURE), headers={"X-Request-Id": "serper-req-1"}
        ),
        SearchParams(query="amazon"),
    )
    assert response.provider == "serper"
    assert response.request_id == "serper-req-1"
    assert response.auth_mode == "api_key"
    # No answer box: the knowledge graph description and its attributes are the answer.
    assert response.answer == (
        "Amazon.com, Inc. is an American multinational technology company focusing on "
        "e-commerce, cloud computing, online advertising, digital streaming, and artificial "
        "intelligence.\n"
        "CEO: Andy Jassy (Jul 5, 2021–)\n"
        "CFO: Brian T. Olsavsky\n"
        "Mascot: Peccy\n"
        "Founder: Jeff Bezos\n"
        "Founded: July 5, 1994, Bellevue, WA\n"
        "Revenue: 514 billion USD (2022)\n"
        "President: Andy Jassy"
    )
    # The knowledge graph's descriptionLink is organic result 3 already, so it is not repeated.
    assert [(s.title, s.url) for s in response.sources] == [
        ("Amazon.com", "https://www.amazon.com/"),
        (
            "Amazon.jobs: Help us build Earth's most customer-centric company.",
            "https://www.amazon.jobs/",
        ),
        ("Amazon (company) - Wikipedia", "https://en.wikipedia.org/wiki/Amazon_(company)"),
        ("About Amazon", "https://www.aboutamazon.com/"),
        ("Amazon.com | Seattle WA - Facebook", "https://facebook.com/Amazon/"),
    ]
    first = response.sources[0]
    assert first.snippet == (
        "Free shipping on millions of items. Get the best of Shopping and Entertainment with "
        "Prime. Enjoy low prices and great deals on the largest selection of ..."
    )
    assert response.sources[3].snippet == (
        "News announcements, original stories, and facts about Amazon."
    )
    assert all(s.published_date is None and s.age_seconds is None for s in response.sources)
    assert response.related_questions == (
        "Amazon jobs login",
        "www.amazon.jobs work from home",
        "Amazon de",
        "Amazon Prime login",
        "Amazon warehouse jobs",
        "Amazon seller",
        "Amazon force",
        "Amazon phone number",
    )


@pytest.mark.conformance
def test_capture_renders_answer_sources_and_related() -> None:
    data = json.loads(read_capture(CAPTURE))
    response = SerperProvider().parse_response(ok(data), SearchParams(query="amazon"))
    text = format_for_llm(response)
    assert text.startswith("Amazon.com, Inc. is an American multinational")
    assert "\n\n## Sources\n5 sources\n[1] Amazon.com\n    https://www.amazon.com/\n" in text
    assert text.endswith(
        "\n\n## Related\n8 questions\n" + "\n".join(f"- {q}" for q in response.related_questions)
    )


@pytest.mark.conformance
def test_capture_knowledge_graph_link_is_kept_when_organic_lacks_it() -> None:
    data = json.loads(read_capture(CAPTURE))
    data["organic"] = [r for r in data["organic"] if "wikipedia" not in r["link"]]
    sources = parse_sources(data)
    assert len(sources) == 5
    graph = sources[-1]
    assert graph.title == "Amazon.com"
    assert graph.url == "https://en.wikipedia.org/wiki/Amazon_(company)"
    assert graph.snippet is not None and graph.snippet.startswith("Amazon.com, Inc. is an")


# --- parsing rules ----------------------------------------------------------------------------


def test_answer_box_wins_and_its_title_comes_first() -> None:
    data = {
        "answerBox": {
            "title": "Eiffel Tower / Height",
            "answer": "330 m",
            "link": "https://www.toureiffel.paris/en",
        },
        "knowledgeGraph": {"description": "A tower in Paris."},
    }
    assert parse_answer(data) == "Eiffel Tower / Height\n330 m"


@pytest.mark.parametrize(
    ("box", "answer"),
    [
        ({"snippet": "Snippet text."}, "Snippet text."),
        ({"title": "T", "snippet": "S", "answer": " "}, "T\nS"),
        ({"title": "T", "snippetHighlighted": ["one", " ", "two"]}, "T\none\ntwo"),
        ({"title": "Same", "answer": "Same"}, "Same"),
        ({"title": "Only a title"}, None),
    ],
)
def test_answer_box_text_rules(box: dict[str, Any], answer: str | None) -> None:
    assert parse_answer({"answerBox": box}) == answer


def test_answer_box_answer_wins_over_its_snippet() -> None:
    """Guard: a box with both ``answer`` and ``snippet`` gives the ``answer``.

    The behaviour reference (Appendix C) reads ``answer | snippet``; no case above held
    both, so reading the snippet first passed every Serper test (wire audit, stop 49).
    """
    box = {"title": "Eiffel Tower / Height", "answer": "330 m", "snippet": "The tower is tall."}
    assert parse_answer({"answerBox": box}) == "Eiffel Tower / Height\n330 m"


def test_no_answer_box_and_no_graph_description_gives_no_answer() -> None:
    assert parse_answer({"knowledgeGraph": {"title": "X", "attributes": {"A": "b"}}}) is None
    assert parse_answer({"organic": []}) is None


def test_organic_first_then_answer_box_link_each_url_once() -> None:
    data = {
        "answerBox": {"title": "Box", "snippet": "Box text", "link": "https://box.example/a"},
        "knowledgeGraph": {
            "title": "Graph",
            "description": "Graph text",
            "website": "http://www.one.example/",
        },
        "organic": [
            {"title": "One", "link": "https://one.example", "snippet": "1", "date": "Mar 9, 2023"},
            {"title": "One again", "link": "https://www.one.example/#frag", "snippet": "dup"},
            {"title": "Mobile", "link": "https://en.m.wikipedia.org/wiki/Tower", "snippet": "w"},
            {"title": "Desktop", "link": "https://en.wikipedia.org/wiki/Tower/", "snippet": "d"},
            {"title": "", "link": "ftp://nope.example/", "snippet": "x"},
            "junk",
        ],
    }
    sources = parse_sources(data, now=NOW)
    assert [(s.title, s.url, s.snippet) for s in sources] == [
        ("One", "https://one.example", "1"),
        ("Mobile", "https://en.wikipedia.org/wiki/Tower", "w"),
        ("Box", "https://box.example/a", "Box text"),
    ]
    assert sources[0].published_date == "Mar 9, 2023"
    assert sources[0].age_seconds == 3 * 86400


def test_relative_dates_give_no_age() -> None:
    (source,) = parse_sources(
        {"organic": [{"title": "t", "link": "https://a.example/", "date": "3 days ago"}]}
    )
    assert source.published_date == "3 days ago" and source.age_seconds is None


def test_related_questions_from_people_also_ask_then_related_searches() -> None:
    data = {
        "peopleAlsoAsk": [
            {"question": "What is X?", "snippet": "s", "link": "https://a.example/"},
            {"question": " "},
            "junk",
        ],
        "relatedSearches": [{"query": "x tutorial"}, {"query": "What is X?"}, {}],
    }
    assert parse_related(data) == ("What is X?", "x tutorial")


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("http://www.amazon.com/", "https://amazon.com", True),
        ("https://A.example/p/?q=1#x", "https://a.example/p?q=1", True),
        ("https://a.example/p?q=1", "https://a.example/p?q=2", False),
        ("https://a.example:8443/", "https://a.example/", False),
    ],
)
def test_dedupe_key(a: str, b: str, same: bool) -> None:
    assert (dedupe_key(a) == dedupe_key(b)) is same


@pytest.mark.parametrize(
    "data",
    [[], "x", {"organic": {"a": 1}}, {"organic": "x"}, {"peopleAlsoAsk": {}}],
)
def test_a_body_of_the_wrong_shape_is_a_parse_error(data: Any) -> None:
    with pytest.raises(ResponseParseError) as caught:
        SerperProvider().parse_response(ok(data), SearchParams(query="x"))
    assert caught.value.message.startswith("Serper API returned an unexpected response shape")


def test_empty_body_parses_to_nothing() -> None:
    response = SerperProvider().parse_response(ok({}), SearchParams(query="x"))
    assert (response.answer, response.sources, response.related_questions) == (None, (), ())
    assert not response.has_renderable_content()


def test_invalid_json_is_a_parse_error() -> None:
    with pytest.raises(ResponseParseError) as caught:
        SerperProvider().parse_response(
            HttpResponse(status=200, body=b"<html>"), SearchParams(query="x")
        )
    assert caught.value.message == "Serper API returned invalid JSON"


# --- status handling --------------------------------------------------------------------------


def _status(status: int, body: str, headers: dict[str, str] | None = None) -> HttpResponse:
    return HttpResponse(status=status, body=body.encode(), headers=headers or {})


def test_403_unauthorized_is_an_authorization_error() -> None:
    with pytest.raises(AuthorizationError) as caught:
        SerperProvider().check(_status(403, '{"message":"Unauthorized.","statusCode":403}'))
    assert (caught.value.status, caught.value.message) == (403, "serper: 403 forbidden")
