"""Which filters dropped results: what an error names when every result was dropped.

Naming every filter checked told a caller whose results were all on the site asked for to
loosen the site too; only the filters some result failed are named, each judged alone.
"""

from datetime import UTC, date, datetime

from websearch_core.filters.merge import RequestedFilters
from websearch_core.filters.plan import plan_filters, unmatched_filters
from websearch_core.filters.post import drop_counts, failed_checks
from websearch_core.models import SearchParams, SearchSource
from websearch_core.providers import get_provider

NOW = datetime(2026, 12, 5, tzinfo=UTC)
WANTED = RequestedFilters(
    tokens=(),
    include_domains=("github.com",),
    date_after=date(2025, 1, 1),
    filetype=("pdf",),
    phrase=("web framework",),
)
CHECKS = frozenset({"include_domains", "date_after", "filetype", "phrase"})


def _source(url: str, published: str | None = None, snippet: str | None = None) -> SearchSource:
    return SearchSource(title="Laravel", url=url, snippet=snippet, published_date=published)


def test_a_filter_every_source_met_is_not_named() -> None:
    sources = [_source("https://github.com/a.pdf", "2020-01-01", "a web framework")]
    assert failed_checks(sources, WANTED, CHECKS, now=NOW) == {"date_after"}


def test_a_source_failing_two_filters_names_both() -> None:
    # Either alone would still drop it, so loosening one is not enough to say.
    sources = [_source("https://example.org/a.html", "2026-01-01", "a web framework")]
    assert failed_checks(sources, WANTED, CHECKS, now=NOW) == {"include_domains", "filetype"}


def test_what_cannot_be_checked_fails_nothing() -> None:
    # No date, no snippet: kept unchecked by the check, so neither filter dropped it.
    sources = [_source("https://github.com/a.pdf")]
    assert failed_checks(sources, WANTED, CHECKS, now=NOW) == frozenset()


def test_only_the_filters_checked_are_judged() -> None:
    sources = [_source("https://example.org/a.html", "2020-01-01")]
    assert failed_checks(sources, WANTED, frozenset({"date_after"}), now=NOW) == {"date_after"}


def test_the_plan_names_them_in_the_order_filters_are_listed() -> None:
    # Bing checks the site (after sending it) and the date; the filetype it is trusted with.
    params = SearchParams(query="laravel filetype:pdf site:github.com after:2025-01-01")
    plan = plan_filters(params, get_provider("bing").info)
    sources = [
        _source("https://github.com/old.pdf", "2020-01-01"),
        _source("https://example.org/new.html", "2026-11-01"),
    ]
    assert unmatched_filters(plan, sources, now=NOW) == (("include_domains", 1), ("date_after", 1))
    assert unmatched_filters(plan, sources[:1], now=NOW) == (("date_after", 1),)


def test_each_filter_counts_the_sources_it_drops_alone() -> None:
    # Three off the site, one of them also too old, and one on the site but too old: the
    # site dropped three, the date two (the source failing both counts for each).
    sources = [
        _source("https://example.org/a.pdf", "2026-01-01", "a web framework"),
        _source("https://example.net/b.pdf", "2026-02-01", "a web framework"),
        _source("https://example.com/c.pdf", "2020-01-01", "a web framework"),
        _source("https://github.com/d.pdf", "2020-01-01", "a web framework"),
    ]
    assert drop_counts(sources, WANTED, CHECKS, now=NOW) == {"include_domains": 3, "date_after": 2}


def test_a_source_that_cannot_be_checked_counts_for_no_filter() -> None:
    # No date and no snippet: kept unchecked for the date and the phrase, so not counted.
    sources = [_source("https://github.com/a.pdf"), _source("https://github.com/b.html")]
    assert drop_counts(sources, WANTED, CHECKS, now=NOW) == {"filetype": 1}
