"""What the core does to every response: caps, clean text, clean URLs, masked secrets."""

import base64
import json
from urllib.parse import quote, quote_plus

import pytest

from websearch_core.content.models import PageContent, provided_page
from websearch_core.format import format_for_llm
from websearch_core.models import SearchCitation, SearchParams, SearchResponse, SearchSource
from websearch_core.redaction import Redactor, proxy_secrets, redact
from websearch_core.sanitize import clean_response, clean_text, is_clean_url, source_cap

KEY = "tvly-0123456789abcdefXYZ"


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("\x1b]0;owned\x07Title", "Title"),
        ("a\x1b[2Jb\x1b[31mc", "abc"),
        ("left\u202eright\u2066x\u2069", "leftrightx"),
        ("nul\x00 and bell\x07", "nul and bell"),
        ("c1\x9b31mcsi", "c1csi"),
        ("tab\tand\nline", "tabandline"),
    ],
)
def test_titles_lose_escapes_controls_and_overrides(raw: str, clean: str) -> None:
    assert clean_text(raw) == clean


def test_snippets_keep_line_breaks_and_tabs() -> None:
    assert clean_text("a\tb\nc\r\nd\x1b[0m", multiline=True) == "a\tb\nc\r\nd"


def test_links_in_text_lose_their_userinfo() -> None:
    text = "see [x](https://user:pw@example.org/a) and http://u@h.org"
    assert clean_text(text, multiline=True) == "see [x](https://example.org/a) and http://h.org"


@pytest.mark.parametrize(
    ("url", "ok"),
    [
        ("https://example.org/a?b=c#d", True),
        ("http://127.0.0.1:8080/", True),
        ("https://user:pw@example.org/", False),
        ("https://user@example.org/", False),
        ("\x00https://example.org/", False),
        (" https://example.org/", False),
        ("https://example.org/\u202egpj.exe", False),
        ("https://exa mple.org/", False),
        ("javascript:alert(1)", False),
        ("/relative", False),
        ("https://example.org:99999/", False),
        ("https:///nohost", False),
    ],
)
def test_only_clean_absolute_http_urls_pass(url: str, ok: bool) -> None:
    assert is_clean_url(url) is ok


@pytest.mark.parametrize(
    ("params", "provider_max", "cap"),
    [
        ({}, None, 100),
        ({}, 20, 20),
        ({"limit": 3}, 20, 3),
        ({"limit": 3, "num_search_results": 12}, 20, 12),
        ({"num_search_results": 50}, 20, 20),
        ({}, 150, 100),
        ({"limit": 7}, None, 7),
    ],
)
def test_the_source_cap_is_the_collapsed_count_within_the_provider_max(
    params: dict[str, int], provider_max: int | None, cap: int
) -> None:
    assert source_cap(SearchParams(query="q", **params), provider_max) == cap


def test_a_response_is_capped_cleaned_and_masked() -> None:
    response = SearchResponse(
        provider="p",
        answer=f"the key {KEY.lower()} \x1b[2J",
        sources=(
            *(
                SearchSource(title=f"t{i}\x07", url=f"https://e{i}.org/", snippet=f"s {KEY}")
                for i in range(50)
            ),
            SearchSource(title="bad", url="https://a:b@x.org/"),
        ),
        citations=(SearchCitation(url=f"https://c.org/?k={KEY}"),),
        related_questions=tuple(f"q{i}" for i in range(40)),
    )
    cleaned = clean_response(response, cap=5, redactor=Redactor([KEY]))
    assert [s.title for s in cleaned.sources] == ["t0", "t1", "t2", "t3", "t4"]
    assert all(s.snippet == "s ***" for s in cleaned.sources)
    assert cleaned.answer == "the key *** "
    assert cleaned.citations == ()  # a URL carrying the key is dropped, not rewritten
    assert len(cleaned.related_questions) == 20


@pytest.mark.parametrize("dirty", [False, True])
def test_at_most_a_hundred_citations_are_kept(dirty: bool) -> None:
    # However many an upstream sends, on the quick path (clean text) and the full pass.
    title = "t\x07" if dirty else "t"
    response = SearchResponse(
        provider="p",
        citations=tuple(SearchCitation(url=f"https://c{i}.org/", title=title) for i in range(130)),
    )
    cleaned = clean_response(response, cap=5)
    assert [c.url for c in cleaned.citations] == [f"https://c{i}.org/" for i in range(100)]


def test_the_model_and_request_id_an_upstream_reports_are_cleaned_and_masked() -> None:
    # Both reach the tool's metadata, --json and the result cache: a hostile or
    # misconfigured upstream echoing the key there must not carry it out.
    response = SearchResponse(
        provider="p",
        answer="a",
        model=f"grok {KEY}\x1b[31m",
        request_id=f"req-{KEY}",
    )
    cleaned = clean_response(response, cap=10, redactor=Redactor([KEY]))
    assert (cleaned.model, cleaned.request_id) == ("grok ***", "req-***")
    assert KEY not in cleaned.model_dump_json()


@pytest.mark.parametrize("field", ["model", "request_id"])
def test_a_key_in_the_model_or_request_id_alone_is_masked(field: str) -> None:
    # Every other text clean: the one field must still send the response through the
    # full pass, not be waved through as clean.
    response = SearchResponse(provider="p", answer="a", **{field: f"echo {KEY}\x07"})
    cleaned = clean_response(response, cap=10, redactor=Redactor([KEY]))
    assert getattr(cleaned, field) == "echo ***"


def test_the_page_a_provider_sent_with_a_result_is_cleaned_and_masked() -> None:
    # Tavily's raw_content, Exa's text, Firecrawl's markdown, Jina's content.
    page = provided_page("https://e.org/", "T", f"# T\n\nkey {KEY}\x1b]0;x\x07 end\tok")
    response = SearchResponse(
        provider="p",
        sources=(SearchSource(title="t", url="https://e.org/", snippet="s", content=page),),
    )
    cleaned = clean_response(response, cap=10, redactor=Redactor([KEY]))
    content = cleaned.sources[0].content
    assert content is not None
    assert content.text == content.markdown == "# T\n\nkey *** end\tok"
    assert KEY not in cleaned.model_dump_json()


def test_a_page_title_with_a_control_character_is_cleaned_without_a_secret() -> None:
    page = PageContent(url="https://e.org/", title="T\x1b[2J", text="body", markdown="body")
    response = SearchResponse(
        provider="p", sources=(SearchSource(title="t", url="https://e.org/", content=page),)
    )
    content = clean_response(response, cap=10).sources[0].content
    assert content is not None
    assert (content.title, content.text) == ("T", "body")


def test_lone_surrogates_from_json_escapes_are_removed_and_their_urls_dropped() -> None:
    # json.loads decodes '"\\ud800"' to a lone surrogate, which no encoding can write: the
    # model text (UTF-16 counts), a terminal and the cache would all fail on it.
    response = SearchResponse(
        provider="p",
        answer="an\ud800swer",
        sources=(
            SearchSource(
                title="ti\udc00tle \u00e9", url="https://a.org/", snippet="sn\ud83dip" * 200
            ),
            SearchSource(title="t", url="https://b.org/\ud800"),
        ),
        related_questions=("q\udfff",),
    )
    cleaned = clean_response(response, cap=10)
    assert cleaned.answer == "answer"
    assert [(s.title, s.url) for s in cleaned.sources] == [("title \u00e9", "https://a.org/")]
    assert cleaned.sources[0].snippet == "snip" * 200
    assert cleaned.related_questions == ("q",)
    assert "snip" in format_for_llm(cleaned, [])
    assert not is_clean_url("https://b.org/\ud800")


def test_a_clean_response_is_returned_as_is() -> None:
    response = SearchResponse(
        provider="p", sources=(SearchSource(title="t", url="https://e.org/", snippet="s"),)
    )
    assert clean_response(response, cap=10, redactor=Redactor([KEY])) is response


@pytest.mark.parametrize(
    "shape",
    [
        KEY,
        KEY.lower(),
        KEY.upper(),
        quote(KEY + "/+", safe=""),
        quote_plus(KEY + " x"),
        base64.b64encode(KEY.encode()).decode(),
        base64.urlsafe_b64encode(KEY.encode()).decode().rstrip("="),
        KEY[:8],
        KEY[:15] + "...",
        json.dumps(KEY + "/+")[1:-1].replace("/", "\\/"),  # PHP's json_encode
        "".join(f"\\u{ord(char):04X}" for char in KEY),  # every character escaped
        "".join(f"\\u{ord(char):04x}" for char in KEY + " x"),
    ],
)
def test_every_shape_of_a_key_is_masked(shape: str) -> None:
    redactor = Redactor([KEY, KEY + "/+", KEY + " x"])
    assert "***" in redactor(f"echo: {shape} end")
    assert KEY[:8].lower() not in redactor(f"echo: {shape} end").lower()


def test_basic_credentials_of_a_proxy_are_masked() -> None:
    secrets = proxy_secrets("http://alice:s3cr3t-pass@proxy.internal:3128")
    header = "Basic " + base64.b64encode(b"alice:s3cr3t-pass").decode()
    assert redact(f"Proxy-Authorization: {header}", secrets) == "Proxy-Authorization: Basic ***"
    assert "s3cr3t-pass" not in redact("password s3cr3t-pass", secrets)


def test_short_values_and_url_shaped_secrets_do_not_mangle_text() -> None:
    redactor = Redactor(["abc", "http://alice:pw-long-enough@proxy:3128"])
    text = "abc http://alice.example.org/ https://unicode.org"
    assert redactor(text) == text
