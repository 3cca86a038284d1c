"""Texts joined with ``; `` read as one sentence: no clause's own full stop before the join.

Before, each place glued whole sentences together as they were: ``Public Web returned no
renderable search content.; tavily: ...``, ``... failed: boom.; bing: ...``, ``... I/O
error.; brave's cooldowns ... were not cleared``. One helper now joins them all.
"""

import pytest

from websearch_core.clauses import join_clauses
from websearch_core.errors import RateLimitedError, SearchProviderError
from websearch_core.format import format_failures, format_not_configured
from websearch_core.orchestration.engine_failures import engines_failed_text
from websearch_core.state.base import StateStoreError
from websearch_core.status import not_cleared

EMPTY = "Public Web returned no renderable search content."


@pytest.mark.parametrize(
    ("clauses", "joined"),
    [
        ([EMPTY, "tavily: down"], f"{EMPTY[:-1]}; tavily: down"),
        (["a.", "b.", "c."], "a; b; c."),  # the last keeps its own full stop
        (["a", None, "", "b"], "a; b"),  # optional parts left out
        (["wait...", "b"], "wait...; b"),  # an ellipsis is not a full stop
        (["only."], "only."),
        ([None, ""], ""),
    ],
)
def test_each_clause_but_the_last_gives_up_its_full_stop(
    clauses: list[str | None], joined: str
) -> None:
    assert join_clauses(clauses) == joined


def test_the_all_failed_message_drops_each_failures_stop_but_the_last() -> None:
    failures = [("public", EMPTY), ("brave", "Brave API error (503).")]
    assert format_failures(failures) == (
        "All web search providers failed: public: Public Web returned no renderable search "
        "content; brave: Brave API error (503)."
    )
    # One failure is its own text, full stop and all (spec).
    assert format_failures(failures[:1]) == EMPTY


def test_the_not_configured_text_keeps_the_spec_text_and_ends_with_one_stop() -> None:
    reasons = [("brave", "Set BRAVE_API_KEY."), ("kimi", "Set KIMI_API_KEY.")]
    assert format_not_configured(reasons) == (
        "No web search provider configured. brave: Set BRAVE_API_KEY; kimi: Set KIMI_API_KEY."
    )


def test_an_engines_own_words_end_without_their_stop_before_the_next_engine() -> None:
    own = SearchProviderError("mojeek", "Mojeek search failed: connection refused.")
    slow = RateLimitedError("bing", "Bing HTML error (429)", 429)
    assert engines_failed_text([("mojeek", own), ("bing", slow)]) == (
        "mojeek: failed: Mojeek search failed: connection refused; bing: rate limited (HTTP 429)"
    )


def test_a_reset_not_cleared_reads_the_stores_sentence_then_what_was_not_cleared() -> None:
    failed = StateStoreError("SQLite state store 'x' failed: disk I/O error.")
    assert not_cleared(failed, "brave") == (
        "SQLite state store 'x' failed: disk I/O error; "
        "brave's cooldowns, quota marks and usage counters were not cleared"
    )
