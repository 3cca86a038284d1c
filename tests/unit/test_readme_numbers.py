"""Numbers the README's prose states outside the settings are the constants that make them.

``test_readme_defaults`` holds each setting's stated default to the settings model; these
are the limits no setting carries (a retriever's ``k``, the Public Web's timers, a mark's
kept text, redirects, the cache's size, the credit re-check, page counts, the credential
lock's wait, token renewal margins, the result items a parser reads). Each was checked by
hand against the code in the docs review and had no test; each check here finds the
sentence and compares its number with the constant, so a changed constant fails until the
prose follows. All but the circuit breaker's are guards: they passed on the code and README
they were written against; the breaker's numbers entered the README with their check.
"""

import re
from pathlib import Path

import pytest

from langchain_websearch.retriever import MAX_K as LANGCHAIN_MAX_K
from langchain_websearch.retriever import WebSearchRetriever as LangChainRetriever
from llamaindex_websearch.retriever import MAX_K as LLAMAINDEX_MAX_K
from websearch_core.content.enrich import DEFAULT_CONTENT_SOURCES, check_content_limit
from websearch_core.content.fetch import MAX_REDIRECTS as FETCH_MAX_REDIRECTS
from websearch_core.credentials import EXPIRY_SKEW_SECONDS
from websearch_core.orchestration.credit_probe import CREDIT_RECHECK_SECONDS
from websearch_core.orchestration.quota import REASON_LIMIT, FailurePolicy
from websearch_core.providers._common import MAX_RESULT_ITEMS
from websearch_core.providers.perplexity import OAUTH_MIN_LIFETIME
from websearch_core.providers.public import HARD_DEADLINE_SECONDS, SOFT_DEADLINE_SECONDS
from websearch_core.state.base import DEFAULT_MAX_CACHE_ENTRIES, FAILURE_WINDOW
from websearch_core.store_lock import LOCK_WAIT_SECONDS
from websearch_core.transport import MAX_REDIRECTS

README = Path(__file__).resolve().parents[2] / "README.md"
WORDS = {"six": 6}
"""Numbers the prose spells out."""


def _prose() -> str:
    """The README with its line breaks and runs of spaces joined."""
    return " ".join(README.read_text(encoding="utf-8").split())


def _numbers(pattern: str) -> list[float]:
    """Every number ``pattern``'s group ``n`` captures in the prose (at least one)."""
    found = [match["n"] for match in re.finditer(pattern, _prose())]
    assert found, f"the README no longer says {pattern!r}: update this check with it"
    return [float(WORDS.get(n.lower(), n.replace(",", ""))) for n in found]


@pytest.mark.parametrize(
    ("pattern", "value"),
    [
        (r"`k` of them \(1-(?P<n>\d+), default \d+\)", LANGCHAIN_MAX_K),
        (r"`k` of them \(1-(?P<n>\d+), default \d+\)", LLAMAINDEX_MAX_K),
        (
            r"`k` of them \(1-\d+, default (?P<n>\d+)\)",
            LangChainRetriever.model_fields["k"].default,
        ),
        (r"at (?P<n>\d+) s once one has found something", SOFT_DEADLINE_SECONDS),
        (r"or at its hard cap \((?P<n>\d+) s", HARD_DEADLINE_SECONDS),
        (r"A mark keeps the first (?P<n>\d+) characters", REASON_LIMIT),
        (r"the (?P<n>\d+) characters a mark keeps", REASON_LIMIT),
        (r"followed by us, at most (?P<n>\d+) hops", MAX_REDIRECTS),
        (r"on every redirect \(at most (?P<n>\d+)\)", FETCH_MAX_REDIRECTS),
        (r"The SQLite cache keeps the latest (?P<n>[\d,]+) entries", DEFAULT_MAX_CACHE_ENTRIES),
        (r"(?P<n>\w+) hours after the mark was set", CREDIT_RECHECK_SECONDS / 3600),
        (r"renews it for another (?P<n>\w+) hours", CREDIT_RECHECK_SECONDS / 3600),
        (r"`content_limit`, default (?P<n>\d+)", DEFAULT_CONTENT_SOURCES),
        (r"also the top (?P<n>\d+) results' pages", DEFAULT_CONTENT_SOURCES),
        (r"attempt has left \(at most (?P<n>\d+) s\)", LOCK_WAIT_SECONDS),
        (r"within (?P<n>\d+) s of expiry", EXPIRY_SKEW_SECONDS),
        (r"\(Perplexity: (?P<n>\d+) minutes", OAUTH_MIN_LIFETIME / 60),
        (r"looks at the first (?P<n>\d+) result items", MAX_RESULT_ITEMS),
    ],
)
def test_each_stated_number_is_the_constant_s(pattern: str, value: float) -> None:
    """A guard: the number the sentence states is the one the code uses."""
    assert set(_numbers(pattern)) == {float(value)}, pattern


def test_the_stated_page_count_bound_is_the_one_refused_past() -> None:
    """A guard: `content_limit`'s stated bound is taken, and one more is refused."""
    (most,) = set(_numbers(r"`content_limit`, default \d+, at most (?P<n>\d+)"))
    assert check_content_limit(int(most), "content_limit") == most
    with pytest.raises(ValueError):
        check_content_limit(int(most) + 1, "content_limit")


def test_the_circuit_breaker_s_numbers_are_the_policy_s() -> None:
    """Failed before: the README said "doubling cooldowns" and gave none of these numbers."""
    policy = FailurePolicy()
    sentence = re.search(
        r"circuit breaker \(from the (?P<th>\d+)\w\w in a row: (?P<base>\d+) s, doubling with "
        r"each further failure up to (?P<max>\d+) s\), reset by a success or (?P<window>\w+) "
        r"hours after the last failure",
        _prose(),
    )
    assert sentence is not None, "the README no longer states the breaker's numbers"
    assert int(sentence["th"]) == policy.circuit_threshold
    assert float(sentence["base"]) == policy.circuit_base
    assert float(sentence["max"]) == policy.circuit_max
    assert {"two": 2}[sentence["window"]] * 3600 == FAILURE_WINDOW
