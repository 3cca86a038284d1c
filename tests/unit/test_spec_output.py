"""Spec §Outputs: the order of the text's sections, all present at once.

The format tests each show two or three sections; the spec also fixes their order when all
five are there (answer, sources, citations, related, search queries), and that sources,
related questions and search queries keep their layout without an answer.
"""

from websearch_core.format import format_for_llm
from websearch_core.models import SearchCitation, SearchResponse, SearchSource


def test_all_five_sections_come_in_the_spec_order() -> None:
    """Guard: passes on main; it failed with citations moved after Related (scratch edit)."""
    response = SearchResponse(
        provider="perplexity",
        answer="The answer.",
        sources=(SearchSource(title="S", url="https://s.example/", snippet="s"),),
        citations=(SearchCitation(url="https://c.example/", title="C", cited_text="c"),),
        related_questions=("next?",),
        search_queries=("q1",),
    )
    assert format_for_llm(response).split("\n") == [
        "The answer.",
        "",
        "## Sources",
        "1 source",
        "[1] S",
        "    https://s.example/",
        "    s",
        "",
        "## Citations",
        "1 citation",
        "[1] C",
        "    https://c.example/",
        "    c",
        "",
        "## Related",
        "1 question",
        "- next?",
        "Search queries: 1",
        "- q1",
    ]


def test_without_an_answer_only_the_sources_header_goes() -> None:
    """Guard: the Sources header needs an answer; Related and the queries do not."""
    response = SearchResponse(
        provider="kagi",
        sources=(SearchSource(title="S", url="https://s.example/"),),
        related_questions=("next?",),
        search_queries=("q1", "q2"),
    )
    assert format_for_llm(response).split("\n") == [
        "[1] S",
        "    https://s.example/",
        "",
        "## Related",
        "1 question",
        "- next?",
        "Search queries: 2",
        "- q1",
        "- q2",
    ]
