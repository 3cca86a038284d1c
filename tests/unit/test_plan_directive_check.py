"""The plan's quick test for directives answers as its pattern does, searching it less.

``plan_filters`` runs on every search and first asks whether the query may hold a
directive or operator (``_MAY_HOLD_DIRECTIVE``). A query with none of the characters a
match needs and none of ``OR``, ``AND``, ``NOT`` is answered without searching the pattern;
the guard holds that the answer is the pattern's on every kind of query.
"""

import random
import re

import pytest

from websearch_core.filters import plan
from websearch_core.models import SearchParams
from websearch_core.providers.base import ProviderInfo

INFO = ProviderInfo(id="probe", label="Probe", kind="api", description="p", docs_url="https://x")


class _CountedPattern:
    """The directive pattern, counting its searches."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern
        self.searched: list[str] = []

    def search(self, text: str) -> re.Match[str] | None:
        self.searched.append(text)
        return self.pattern.search(text)


@pytest.mark.parametrize(
    "query", ["python asyncio tutorial", "rust borrow checker", "café crème brûlée", "a"]
)
def test_a_plain_query_is_planned_without_searching_the_pattern(
    query: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    counted = _CountedPattern(plan._MAY_HOLD_DIRECTIVE)
    monkeypatch.setattr(plan, "_MAY_HOLD_DIRECTIVE", counted)
    params = SearchParams(query=query)
    planned = plan.plan_filters(params, INFO)
    assert planned.params is params and not planned.ways and not planned.checks
    assert counted.searched == []


def _queries() -> list[str]:
    """Every character a match turns on, and its neighbours, at each place; then noise."""
    marks = ':"\u201c\u201d-+!|&'
    others = "ab \t\n\u00a0\u3000_.,;'/\\()[]{}<>=?*#%@$~`^0"
    words = ["OR", "AND", "NOT", "or", "and", "not", "ORB", "NOTE", "XOR", "BAND", "ORAND"]
    found = []
    for mark in marks + others:
        found += [
            mark,
            f"x{mark}",
            f"{mark}x",
            f"x {mark}y",
            f"x{mark} y",
            f"x\t{mark}",
            f" {mark}",
        ]
    for word in words:
        found += [word, f"a {word} b", f"a{word}b", f"{word} b", f"a {word}", f"({word})"]
    rng = random.Random(11)  # fixed: the same queries every run
    alphabet = marks + others + "ORANDT"
    found += ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 12))) for _ in range(3000)]
    return found


def test_the_quick_test_answers_as_the_pattern_on_every_query() -> None:
    """Guard: the quick test is a shortcut of the pattern, never another answer."""
    pattern = plan._MAY_HOLD_DIRECTIVE
    queries = _queries()
    assert any(pattern.search(query) for query in queries)  # both answers are met
    assert not all(pattern.search(query) for query in queries)
    for query in queries:
        assert plan._may_hold_directive(query) is (pattern.search(query) is not None), query
