import pytest

from websearch_core.errors import (
    AuthorizationError,
    ChallengeError,
    SearchProviderError,
)
from websearch_core.format import (
    format_age,
    format_count,
    format_failures,
    format_for_llm,
    format_provider_failure,
    truncate_text,
)
from websearch_core.models import SearchCitation, SearchResponse, SearchSource

DAY = 86_400


def test_spec_example_layout_with_answer_sources_and_related() -> None:
    response = SearchResponse(
        provider="perplexity",
        answer="<answer text>",
        sources=(
            SearchSource(
                title="Title A",
                url="https://a.example/x",
                snippet="snippet A…",
                age_seconds=3 * DAY,
            ),
            SearchSource(
                title="Title B", url="https://b.example/y", published_date="April 30, 2025"
            ),
        ),
        related_questions=("follow-up?",),
    )
    text = format_for_llm(
        response, notes=["no results matched `site:nowhere.example`; the constraint was relaxed"]
    )
    assert text == (
        "Note: no results matched `site:nowhere.example`; the constraint was relaxed\n"
        "<answer text>\n"
        "\n"
        "## Sources\n"
        "2 sources\n"
        "[1] Title A (3d ago)\n"
        "    https://a.example/x\n"
        "    snippet A…\n"
        "[2] Title B (April 30, 2025)\n"
        "    https://b.example/y\n"
        "\n"
        "## Related\n"
        "1 question\n"
        "- follow-up?"
    )


def test_sources_without_answer_have_no_header_or_count() -> None:
    response = SearchResponse(
        provider="brave",
        sources=(SearchSource(title="Only", url="https://only.example/", snippet="s"),),
    )
    assert format_for_llm(response) == "[1] Only\n    https://only.example/\n    s"


def test_answer_without_sources_has_no_sources_header() -> None:
    assert format_for_llm(SearchResponse(provider="x", answer="Just this.")) == "Just this."


def test_citations_and_search_queries_sections() -> None:
    long_query = "q" * 130
    response = SearchResponse(
        provider="anthropic",
        answer="A",
        citations=(
            SearchCitation(url="https://c.example/1", title="", cited_text="x" * 300),
            SearchCitation(url="https://c.example/2", title="Two"),
        ),
        search_queries=("one", long_query, "three", "four"),
    )
    lines = format_for_llm(response).split("\n")
    assert lines[:4] == ["A", "", "## Citations", "2 citations"]
    assert lines[4] == "[1] https://c.example/1"
    assert lines[5] == "    https://c.example/1"
    assert lines[6] == "    " + "x" * 239 + "…"
    assert lines[7:9] == ["[2] Two", "    https://c.example/2"]
    # No blank line and no "##" before the search queries; at most three, cut to 120.
    assert lines[9] == "Search queries: 4"
    assert lines[10:] == ["- one", "- " + "q" * 119 + "…", "- three"]


def test_snippet_truncated_to_240_code_units() -> None:
    snippet = "é" * 300
    response = SearchResponse(
        provider="brave",
        sources=(SearchSource(title="t", url="https://u.example/", snippet=snippet),),
    )
    last = format_for_llm(response).split("\n")[-1]
    assert last == "    " + "é" * 239 + "…"


def test_a_very_long_snippet_and_cited_text_are_cut_not_dropped() -> None:
    """Guard (spec, Outputs): the snippet and the cited text are "truncated to 240 chars".

    Every other test's text is a few hundred characters at most; this pins that text many
    times the limit (a page's whole body as its snippet) is still cut to 240 units rather
    than left out. It failed with ``if source.snippet and len(source.snippet) < 1000``
    (and so for the cited text), which the unit, contract and boundary tests let through.
    """
    long_text = "word " * 2000
    response = SearchResponse(
        provider="exa",
        sources=(SearchSource(title="t", url="https://u.example/", snippet=long_text),),
        citations=(SearchCitation(url="https://c.example/", title="c", cited_text=long_text),),
    )
    cut = "    " + long_text[:239] + "…"
    assert format_for_llm(response).split("\n") == [
        "[1] t",
        "    https://u.example/",
        cut,
        "",
        "## Citations",
        "1 citation",
        "[1] c",
        "    https://c.example/",
        cut,
    ]


def test_truncate_counts_utf16_units_like_the_spec() -> None:
    # An emoji is two UTF-16 code units, so only 4 fit before the ellipsis in 10 units.
    assert truncate_text("😀" * 10, 10) == "😀" * 4 + "…"
    assert truncate_text("short", 10) == "short"
    assert truncate_text("x" * 10, 10) == "x" * 10
    assert truncate_text("x" * 11, 10) == "x" * 9 + "…"


def test_truncate_at_word_leaves_out_the_cut_word() -> None:
    # Cut at 10 units, "alpha beta gamma" would keep "alpha bet"; at_word drops "bet".
    assert truncate_text("alpha beta gamma", 10) == "alpha bet…"
    assert truncate_text("alpha beta gamma", 10, at_word=True) == "alpha…"
    # A cut that falls on a space keeps the whole word before it, without the space.
    assert truncate_text("alpha beta gamma", 12, at_word=True) == "alpha beta…"
    # One unbroken word is cut where the limit falls, so something is left.
    assert truncate_text("x" * 11, 10, at_word=True) == "x" * 9 + "…"
    # Non-ASCII text counts UTF-16 units the same way.
    assert truncate_text("été " * 5, 10, at_word=True) == "été été…"
    assert truncate_text("short", 10, at_word=True) == "short"


@pytest.mark.parametrize(
    ("seconds", "expected"),
    [
        (None, ""),
        (0, ""),
        (30, "just now"),
        (-500, "just now"),
        (60, "1m ago"),
        (3599, "59m ago"),
        (3600, "1h ago"),
        (DAY, "1d ago"),
        (6 * DAY, "6d ago"),
        (7 * DAY, "1w ago"),
        (29 * DAY, "4w ago"),
        (30 * DAY, "1mo ago"),
        (400 * DAY, "13mo ago"),
    ],
)
def test_format_age(seconds: int | None, expected: str) -> None:
    assert format_age(seconds) == expected


def test_format_count_pluralises() -> None:
    assert format_count("source", 1) == "1 source"
    assert format_count("source", 0) == "0 sources"
    assert format_count("question", 3) == "3 questions"


def test_failure_text_rules() -> None:
    assert (
        format_provider_failure(SearchProviderError("anthropic", "nope", 404), "Anthropic")
        == "Anthropic web search returned 404 (model or endpoint not found)."
    )
    assert (
        format_provider_failure(
            AuthorizationError("codex", "codex: 401 unauthorized", 401), "OpenAI"
        )
        == "OpenAI authorization failed (401). Check API key or base URL."
    )
    assert (
        format_provider_failure(AuthorizationError("brave", "brave: 403 forbidden", 403), "Brave")
        == "Brave authorization failed (403). Check API key or base URL."
    )
    zai = AuthorizationError("zai", "Z.AI says no", 401)
    assert format_provider_failure(zai, "Z.AI") == "Z.AI says no"
    challenge = ChallengeError("duckduckgo", "DuckDuckGo blocked the request")
    assert format_provider_failure(challenge, "DuckDuckGo") == "DuckDuckGo blocked the request"
    assert format_provider_failure(RuntimeError("boom"), "Brave") == "boom"
    assert format_provider_failure(RuntimeError(), "Brave") == "Unknown error from Brave"


def test_failure_summary() -> None:
    assert format_failures([]) == "No web search provider configured."
    assert (
        format_failures([("brave", "brave: 402 credits exhausted")])
        == "brave: 402 credits exhausted"
    )
    assert format_failures([("brave", "a"), ("tavily", "b")]) == (
        "All web search providers failed: brave: a; tavily: b"
    )


def test_an_ignored_filter_is_one_line_after_the_sources_and_nothing_else_changes() -> None:
    from websearch_core.models import AppliedFilter

    source = SearchSource(title="T", url="https://e.org/", snippet="s")
    applied = AppliedFilter(name="include_domains", value="e.org", applied=("post",))
    ignored = AppliedFilter(name="language", value="de", applied=("ignored",))
    plain = SearchResponse(provider="bing", sources=(source,), filters=(applied,))
    noted = plain.model_copy(update={"filters": (applied, ignored)})
    assert format_for_llm(plain) == "[1] T\n    https://e.org/\n    s"
    assert format_for_llm(noted) == (
        "[1] T\n    https://e.org/\n    s\nFilters not applied: language=de."
    )
