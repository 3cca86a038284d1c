"""The aggregate's pure merging: canonical URL keys, votes by index, consensus ranking."""

import pytest

from websearch_core.aggregate import (
    EngineResult,
    canonical_key,
    is_tracking_param,
    merge_results,
)
from websearch_core.models import SearchSource, SourceRank


def _src(url: str, title: str = "", snippet: str | None = None, **extra: object) -> SearchSource:
    return SearchSource.model_validate(
        {"title": title or f"title of {url}", "url": url, "snippet": snippet, **extra}
    )


def _engine(engine: str, index: str | None, *urls: str) -> EngineResult:
    return EngineResult(engine=engine, index=index, sources=[_src(url) for url in urls])


# --- canonical key ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "key"),
    [
        ("https://www.example.org/a/b/", "example.org/a/b"),
        ("http://example.org/a/b", "example.org/a/b"),
        ("HTTPS://WWW.EXAMPLE.ORG/A", "example.org/A"),  # the path keeps its case
        ("https://example.org", "example.org/"),
        ("https://example.org/", "example.org/"),
        ("https://example.org/a//", "example.org/a/"),  # one trailing slash only
        ("https://example.org/a#section", "example.org/a"),
        ("https://example.org/a?b=2&a=1", "example.org/a?a=1&b=2"),
        ("https://example.org/a?x=2&a=1&x=1", "example.org/a?a=1&x=2&x=1"),  # stable sort
        ("https://example.org/a?utm_source=n&utm_Medium=e&id=7", "example.org/a?id=7"),
        ("https://example.org/a?gclid=1&fbclid=2&msclkid=3", "example.org/a"),
        ("https://example.org/a?mc_cid=1&mc_eid=2&ref_src=twsrc&igshid=x", "example.org/a"),
        ("https://example.org/a?yclid=1&_hsenc=2&_hsmi=3&srsltid=AfmB", "example.org/a"),
        ("https://example.org/a?q=&page=2", "example.org/a?page=2&q="),
        ("https://example.org:443/a", "example.org/a"),
        ("http://example.org:80/a", "example.org/a"),
        ("https://example.org:8443/a", "example.org:8443/a"),
        ("https://wwwexample.org/a", "wwwexample.org/a"),
        ("https://docs.www.example.org/", "docs.www.example.org/"),
    ],
)
def test_canonical_key(url: str, key: str) -> None:
    assert canonical_key(url) == key


@pytest.mark.parametrize(
    "url",
    ["not a url", "example.org/a", "https://", "https://exa mple.org/", "http://x.org:99999/"],
)
def test_unparseable_url_is_its_own_key(url: str) -> None:
    assert canonical_key(url) == url


def test_variants_of_one_page_share_a_key() -> None:
    variants = [
        "https://www.example.org/guide/?utm_source=ddg&lang=en",
        "http://example.org/guide?lang=en#intro",
        "https://example.org/guide/?lang=en&gclid=abc",
    ]
    assert {canonical_key(url) for url in variants} == {"example.org/guide?lang=en"}


def test_spellings_of_one_address_share_a_key() -> None:
    # Engines write the same page with and without escapes, in either case, and with the
    # host in Unicode or in its ASCII (punycode) form.
    variants = [
        "https://café.example/wiki/Crème_brûlée",
        "https://xn--caf-dma.example/wiki/Cr%C3%A8me_br%C3%BBl%C3%A9e",
        "https://www.xn--caf-dma.example/wiki/Cr%c3%a8me_br%c3%bbl%c3%a9e/",
    ]
    assert {canonical_key(url) for url in variants} == {
        "xn--caf-dma.example/wiki/Cr%C3%A8me_br%C3%BBl%C3%A9e"
    }
    assert canonical_key("https://example.org/a b") == canonical_key("https://example.org/a%20b")
    assert canonical_key("https://example.org/%7Euser") == "example.org/~user"


def test_an_encoded_slash_is_not_a_path_separator() -> None:
    assert canonical_key("https://example.org/a%2Fb") != canonical_key("https://example.org/a/b")


def test_different_queries_are_different_pages() -> None:
    assert canonical_key("https://example.org/p?id=1") != canonical_key(
        "https://example.org/p?id=2"
    )


@pytest.mark.parametrize(
    ("name", "tracking"),
    [
        ("utm_source", True),
        ("UTM_CAMPAIGN", True),
        ("utm_", True),
        ("gclid", True),
        ("fbclid", True),
        ("pk_campaign", True),
        ("q", False),
        ("id", False),
        ("utm", False),
        ("page", False),
    ],
)
def test_is_tracking_param(name: str, tracking: bool) -> None:
    assert is_tracking_param(name) is tracking


# --- ranking ----------------------------------------------------------------------------------


def test_more_indexes_rank_first_then_best_rank_then_first_seen() -> None:
    results = [
        _engine("duckduckgo", "bing", "https://a.org/", "https://b.org/", "https://c.org/"),
        _engine("google", "google", "https://d.org/", "https://c.org/"),
        _engine("mojeek", "mojeek", "https://e.org/", "https://c.org/", "https://b.org/"),
    ]
    merged = merge_results(results, 10)
    # c: 3 votes; b: 2 votes (best rank 2); then single votes by best rank: a(1), d(1), e(1)
    # in first-seen order, which is engine priority order.
    assert [s.url for s in merged] == [
        "https://c.org/",
        "https://b.org/",
        "https://a.org/",
        "https://d.org/",
        "https://e.org/",
    ]


def test_best_rank_breaks_ties_between_equal_votes() -> None:
    results = [
        _engine("duckduckgo", "bing", "https://late.org/", "https://x.org/", "https://y.org/"),
        _engine("google", "google", "https://y.org/", "https://x.org/"),
    ]
    merged = merge_results(results, 10)
    # x: best 2, y: best 1 (from google) -> y first although DDG listed x first.
    assert [s.url for s in merged] == ["https://y.org/", "https://x.org/", "https://late.org/"]


def test_engines_serving_one_index_count_as_one_vote() -> None:
    results = [
        _engine("duckduckgo", "bing", "https://bing-echo.org/", "https://both.org/"),
        _engine("bing", "bing", "https://bing-echo.org/"),
        _engine("yahoo", "bing", "https://bing-echo.org/"),
        _engine("google", "google", "https://both.org/"),
    ]
    merged = merge_results(results, 10)
    # bing-echo.org: three engines but one index; both.org: two indexes -> first.
    assert [s.url for s in merged] == ["https://both.org/", "https://bing-echo.org/"]
    assert merged[1].engines == (
        SourceRank(engine="duckduckgo", rank=1),
        SourceRank(engine="bing", rank=1),
        SourceRank(engine="yahoo", rank=1),
    )


def test_engines_without_an_index_vote_on_their_own() -> None:
    results = [
        _engine("one", None, "https://solo.org/", "https://pair.org/"),
        _engine("two", None, "https://pair.org/"),
    ]
    assert [s.url for s in merge_results(results, 10)] == ["https://pair.org/", "https://solo.org/"]


def test_merge_follows_input_order_not_anything_else() -> None:
    a = _engine("duckduckgo", "bing", "https://one.org/")
    b = _engine("mojeek", "mojeek", "https://two.org/")
    assert [s.url for s in merge_results([a, b], 10)] == ["https://one.org/", "https://two.org/"]
    assert [s.url for s in merge_results([b, a], 10)] == ["https://two.org/", "https://one.org/"]


# --- merged fields ----------------------------------------------------------------------------


def test_provenance_lists_every_engine_and_its_one_based_rank() -> None:
    results = [
        _engine("duckduckgo", "bing", "https://a.org/", "https://www.shared.org/page/"),
        _engine(
            "startpage", "google", "https://b.org/", "https://c.org/", "http://shared.org/page"
        ),
        _engine("mojeek", "mojeek", "https://shared.org/page?utm_source=mojeek"),
    ]
    shared = merge_results(results, 10)[0]
    assert shared.engines == (
        SourceRank(engine="duckduckgo", rank=2),
        SourceRank(engine="startpage", rank=3),
        SourceRank(engine="mojeek", rank=1),
    )
    # Title and URL from the best-ranked occurrence (mojeek's, rank 1), as it gave the URL.
    assert shared.url == "https://shared.org/page?utm_source=mojeek"
    assert shared.title == "title of https://shared.org/page?utm_source=mojeek"


def test_an_engine_listing_a_page_twice_counts_once_at_its_first_rank() -> None:
    results = [
        _engine("duckduckgo", "bing", "https://a.org/x", "https://b.org/", "https://a.org/x/"),
        _engine("google", "google", "https://b.org/"),
    ]
    merged = merge_results(results, 10)
    assert [s.url for s in merged] == ["https://b.org/", "https://a.org/x"]
    assert merged[1].engines == (SourceRank(engine="duckduckgo", rank=1),)


def test_longest_snippet_wins_and_ties_keep_the_first() -> None:
    results = [
        EngineResult("duckduckgo", [_src("https://a.org/", snippet="short")], "bing"),
        EngineResult("google", [_src("https://a.org/", snippet="a much longer snippet")], "google"),
        EngineResult("mojeek", [_src("https://a.org/", snippet="another long snippet!")], "mojeek"),
        EngineResult("ecosia", [_src("https://b.org/", snippet="first")], "google"),
        EngineResult("yahoo", [_src("https://b.org/", snippet="sec'd")], "bing"),
    ]
    merged = {s.url: s for s in merge_results(results, 10)}
    assert merged["https://a.org/"].snippet == "a much longer snippet"
    assert merged["https://b.org/"].snippet == "first"


def test_a_missing_snippet_is_filled_from_another_engine() -> None:
    results = [
        EngineResult("duckduckgo", [_src("https://a.org/", snippet=None)], "bing"),
        EngineResult("google", [_src("https://a.org/", snippet="found it")], "google"),
    ]
    assert merge_results(results, 10)[0].snippet == "found it"


def test_title_and_url_come_from_the_best_ranked_occurrence() -> None:
    results = [
        EngineResult(
            "duckduckgo",
            [_src("https://x.org/"), _src("https://www.a.org/doc/", title="DDG title")],
            "bing",
        ),
        EngineResult("google", [_src("https://a.org/doc", title="Google title")], "google"),
        EngineResult(
            "mojeek",
            [_src("https://x.org/"), _src("https://a.org/doc?utm_x=1", title="Mojeek title")],
            "mojeek",
        ),
    ]
    doc = next(s for s in merge_results(results, 10) if "a.org" in s.url)
    assert (doc.title, doc.url) == ("Google title", "https://a.org/doc")


def test_equal_best_ranks_keep_the_earlier_engine_occurrence() -> None:
    results = [
        EngineResult("duckduckgo", [_src("https://a.org/p", title="First")], "bing"),
        EngineResult("google", [_src("https://a.org/p/", title="Second")], "google"),
    ]
    merged = merge_results(results, 10)[0]
    assert (merged.title, merged.url) == ("First", "https://a.org/p")


def test_https_is_preferred_when_both_schemes_appear() -> None:
    results = [
        EngineResult("duckduckgo", [_src("http://a.org/p", title="Plain")], "bing"),
        EngineResult("google", [_src("https://x.org/"), _src("https://a.org/p")], "google"),
    ]
    merged = {s.title: s for s in merge_results(results, 10)}
    assert merged["Plain"].url == "https://a.org/p"


def test_dates_and_author_are_kept_from_the_first_that_had_them() -> None:
    results = [
        EngineResult("duckduckgo", [_src("https://a.org/")], "bing"),
        EngineResult(
            "google",
            [_src("https://a.org/", published_date="2026-01-02", age_seconds=100)],
            "google",
        ),
        EngineResult(
            "mojeek",
            [_src("https://a.org/", published_date="2025-05-05", age_seconds=999, author="Ann")],
            "mojeek",
        ),
    ]
    merged = merge_results(results, 10)[0]
    assert (merged.published_date, merged.age_seconds, merged.author) == (
        "2026-01-02",
        100,
        "Ann",
    )


def test_limit_slices_after_ranking() -> None:
    urls = [f"https://site{i}.org/" for i in range(20)]
    results = [
        EngineResult("duckduckgo", [_src(u) for u in urls], "bing"),
        EngineResult("google", [_src(urls[19])], "google"),
    ]
    merged = merge_results(results, 5)
    assert [s.url for s in merged] == [urls[19], *urls[:4]]
    assert merge_results(results, 0) == []


def test_no_results_merge_to_nothing() -> None:
    assert merge_results([], 15) == []
    assert merge_results([EngineResult("duckduckgo", [], "bing")], 15) == []


def test_unparseable_urls_are_kept_apart() -> None:
    results = [
        EngineResult("duckduckgo", [_src("weird one"), _src("weird two")], "bing"),
        EngineResult("google", [_src("weird one")], "google"),
    ]
    merged = merge_results(results, 10)
    assert [s.url for s in merged] == ["weird one", "weird two"]
    assert len(merged[0].engines) == 2
