"""Filters: directives read from the query, merged with parameters, planned per provider,
checked on results, and recorded; all with plain values."""

from datetime import UTC, date, datetime
from typing import Any

import pytest

from websearch_core.filters import (
    FilterSupport,
    apply_plan,
    ignored_note,
    plan_filters,
    post_filter,
    requested_filters,
    tokenize,
)
from websearch_core.filters.post import drop_counts
from websearch_core.filters.support import QUERY_OPERATORS, SCRAPER_OPERATORS
from websearch_core.models import AppliedFilter, SearchParams, SearchResponse, SearchSource
from websearch_core.providers.base import ProviderInfo

NOW = datetime(2026, 6, 1, tzinfo=UTC)
NOTHING = FilterSupport()


def info(
    support: FilterSupport = NOTHING,
    honours: frozenset[str] = frozenset({"query", "limit", "num_search_results"}),
    *,
    default_results: int | None = 10,
    max_results: int | None = 20,
    kind: Any = "api",
) -> ProviderInfo:
    return ProviderInfo(
        id="example",
        label="Example",
        kind=kind,
        description="a test provider",
        docs_url="https://example.com/docs",
        honours=honours,
        default_results=default_results,
        max_results=max_results,
        filters=support,
    )


def source(url: str, title: str = "t", snippet: str | None = None, **extra: Any) -> SearchSource:
    return SearchSource(title=title, url=url, snippet=snippet, **extra)


# --- reading directives ------------------------------------------------------------------------


def test_every_directive_kind_is_read_with_its_normalised_value() -> None:
    query = (
        "laravel site:WWW.GitHub.com -site:builtin.com after:2025-01-01 before:2025-06 "
        '"exact  phrase" -java a OR b filetype:PDF'
    )
    assert [(t.kind, t.value) for t in tokenize(query)] == [
        ("text", "laravel"),
        ("site", "github.com"),
        ("exclude_site", "builtin.com"),
        ("after", "2025-01-01"),
        ("before", "2025-06-30"),
        ("phrase", "exact phrase"),
        ("exclude_term", "java"),
        ("text", "a"),
        ("or", "OR"),
        ("text", "b"),
        ("filetype", "pdf"),
    ]


@pytest.mark.parametrize(
    "word",
    ["after:lunch", "site:", "site:not_a_domain", "before:2025-13-01", "-5", "-m", "or", "e-mail"],
)
def test_what_only_looks_like_a_directive_stays_text(word: str) -> None:
    assert [(t.kind, t.raw) for t in tokenize(word)] == [("text", word)]


def test_words_in_directives_and_their_aliases_are_read_with_the_words_asked_for() -> None:
    query = (
        'rust inurl:docs -inurl:Forum intitle:"error  handling" -intitle:faq intext:borrow '
        "-intext:unsafe url:api TITLE:guide inbody:lifetimes inanchor:book"
    )
    assert [(t.kind, t.value, t.raw) for t in tokenize(query)] == [
        ("text", "rust", "rust"),
        ("in_url", "docs", "inurl:docs"),
        ("exclude_in_url", "Forum", "-inurl:Forum"),
        ("in_title", "error handling", 'intitle:"error  handling"'),
        ("exclude_in_title", "faq", "-intitle:faq"),
        ("in_text", "borrow", "intext:borrow"),
        ("exclude_in_text", "unsafe", "-intext:unsafe"),
        ("in_url", "api", "url:api"),
        ("in_title", "guide", "TITLE:guide"),
        ("in_text", "lifetimes", "inbody:lifetimes"),
        ("in_text", "book", "inanchor:book"),
    ]


@pytest.mark.parametrize("word", ["inurl:", "-intitle:", 'intext:""', "allintitles:x", "urls:x"])
def test_a_words_in_directive_without_words_stays_text(word: str) -> None:
    assert [t.kind for t in tokenize(word)] == ["text"]


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("after:2025/03/04", ("after", "2025-03-04")),
        ("after:2025.3.4", ("after", "2025-03-04")),
        ("before:2025/02", ("before", "2025-02-28")),
        ("after:03/04/2025", ("after", "2025-03-04")),  # month first, as in the US
        ("after:13.04.2025", ("after", "2025-04-13")),  # 13 is no month: day first
        ("site:https://*.Docs.rs./", ("site", "docs.rs")),
        ("-site:*.pinterest.com/", ("exclude_site", "pinterest.com")),
        ("domain:docs.rs", ("site", "docs.rs")),
        ("-HOST:pinterest.com", ("exclude_site", "pinterest.com")),
        ("since:2025-03", ("after", "2025-03-01")),
        ("until:2025", ("before", "2025-12-31")),
    ],
)
def test_the_reference_date_and_site_forms_are_read(typed: str, read: tuple[str, str]) -> None:
    assert [(t.kind, t.value) for t in tokenize(typed)] == [read]


@pytest.mark.parametrize(
    "word",
    [
        "after:13/13/2025",
        "after:0999",
        "after:2025-02/03",
        "before:02/30/2025",
        "site:*.",
        "host:localhost",
        "-since:2025-13",
    ],
)
def test_a_date_or_site_in_no_form_the_reference_reads_stays_text(word: str) -> None:
    assert [t.kind for t in tokenize(word)] == ["text"]


def test_a_year_alone_opens_on_its_first_day_and_closes_on_its_last() -> None:
    merged = requested_filters(SearchParams(query="x after:2024 before:2024"))
    assert (merged.date_after, merged.date_before) == (date(2024, 1, 1), date(2024, 12, 31))


def test_an_excluded_phrase_is_one_excluded_term() -> None:
    assert [(t.kind, t.value) for t in tokenize('-"bad phrase" x')] == [
        ("exclude_term", "bad phrase"),
        ("text", "x"),
    ]


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("NOT java", ("exclude_term", "java", "-java")),
        ("! java", ("exclude_term", "java", "-java")),
        ('NOT "bad phrase"', ("exclude_term", "bad phrase", '-"bad phrase"')),
        ("NOT site:x.org", ("exclude_site", "x.org", "-site:x.org")),
        ("! inurl:forum", ("exclude_in_url", "forum", "-inurl:forum")),
        ('NOT intitle:"bad faq"', ("exclude_in_title", "bad faq", '-intitle:"bad faq"')),
        ("!site:x.org", ("exclude_site", "x.org", "-site:x.org")),
        ("+borrow", ("phrase", "borrow", '"borrow"')),
        ('- "bad phrase"', ("exclude_term", "bad phrase", '-"bad phrase"')),  # a lone dash
        ("--site:reddit.com", ("exclude_site", "reddit.com", "-site:reddit.com")),
        ("---inurl:forum", ("exclude_in_url", "forum", "-inurl:forum")),
        ("--before:2024", ("before", "2024-12-31", "-before:2024")),
    ],
)
def test_not_bang_and_dashes_negate_what_follows_and_plus_makes_a_phrase(
    typed: str, read: tuple[str, str, str]
) -> None:
    assert [(t.kind, t.value, t.raw) for t in tokenize(f"rust {typed}")] == [
        ("text", "rust", "rust"),
        read,
    ]


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("intitle:\u201cerror handling\u201d", [("in_title", "error handling")]),
        (
            "allintitle:\u201cerror handling\u201d rust",
            [("in_title", "error handling"), ("in_title", "rust")],
        ),
        (
            "allintitle:rust \u201cerror handling\u201d",
            [("in_title", "rust"), ("in_title", "error handling")],
        ),
        ("\u201cerror handling\u201d rust", [("phrase", "error handling"), ("text", "rust")]),
        ('-\u201cerror handling"', [("exclude_term", "error handling")]),
    ],
)
def test_curly_quotes_read_as_straight_ones(typed: str, read: list[tuple[str, str]]) -> None:
    """Reference 6.1: a quote is ``"``, U+201C or U+201D, so a quoted value or phrase a
    model writes with typographic quotes reads as with straight ones (before, the value
    was read only where the query held ``:"``; the phrase not at all)."""
    assert [(t.kind, t.value) for t in tokenize(typed)] == read


def test_a_curly_quoted_phrase_is_sent_with_straight_quotes() -> None:
    plan = plan_filters(
        SearchParams(query="rust \u201cerror handling\u201d"),
        info(FilterSupport(query=QUERY_OPERATORS)),
    )
    assert plan.params.query == 'rust "error handling"'


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("NOT -java", ("exclude_term", "java", "-java")),
        ('! -"bad phrase"', ("exclude_term", "bad phrase", '-"bad phrase"')),
        ("NOT -site:x.org", ("exclude_site", "x.org", "-site:x.org")),
        ("NOT NOT java", ("exclude_term", "java", "-java")),
        ("NOT ! inurl:forum", ("exclude_in_url", "forum", "-inurl:forum")),
    ],
)
def test_not_before_a_negated_term_or_another_not_goes_and_still_negates(
    typed: str, read: tuple[str, str, str]
) -> None:
    """The reference's ``NOT`` sets a flag the next term reads (6.2): it is no toggle, so
    ``NOT -java`` and ``NOT NOT java`` both exclude java, and no ``NOT`` is left a word."""
    assert [(t.kind, t.value, t.raw) for t in tokenize(f"rust {typed}")] == [
        ("text", "rust", "rust"),
        read,
    ]


def test_not_before_what_has_no_negation_stays_a_word_however_many() -> None:
    """A run of ``NOT`` before a number stays as typed; a run of ``!`` before a file type
    goes, the file type read as ``-filetype:pdf`` (stop 51: a ``filetype:pdf`` left as a
    word after them was refused as no file type)."""
    assert [t.raw for t in tokenize("NOT NOT 42 ! ! filetype:pdf")] == [
        "NOT",
        "NOT",
        "42",
        "-filetype:pdf",
    ]


@pytest.mark.parametrize(
    "typed",
    ["-before:2024-12-31", "NOT before:2024", "-until:2024", "! until:2024-12"],
)
def test_a_negated_date_bounds_the_range_as_if_not_negated(typed: str) -> None:
    merged = requested_filters(SearchParams(query=f"rust {typed} -after:2024 -since:2024-03"))
    assert (merged.date_after, merged.date_before) == (date(2024, 3, 1), date(2024, 12, 31))


@pytest.mark.parametrize(
    "query",
    ["NOT", "rust NOT", "! 2024", "!important", "AND gate", "rust AND", "+1", "C++ &&"],
)
def test_an_operator_with_nothing_to_act_on_stays_text(query: str) -> None:
    """Guard (passes before and after the operators): ``NOT`` at the end, ``!`` before a
    word that cannot be excluded, an ``AND`` without a word on each side, a ``!word`` (a
    CSS ``!important``, a DuckDuckGo bang)."""
    words = [("text", word) for word in query.split()]
    assert [(t.kind, t.raw) for t in tokenize(query)] == words


def test_a_negated_file_type_is_read_as_a_dashed_one_is() -> None:
    """``NOT filetype:pdf`` is ``-filetype:pdf``, as ``NOT site:x`` is ``-site:x`` (stop 51:
    left as ``NOT`` and ``filetype:pdf``, the second was refused); both are the excluded
    file type (inputs53: they were words, checked nowhere)."""
    assert [(t.kind, t.value, t.raw) for t in tokenize("NOT filetype:pdf -filetype:doc")] == [
        ("exclude_filetype", "pdf", "-filetype:pdf"),
        ("exclude_filetype", "doc", "-filetype:doc"),
    ]


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("site: github.com", ("site", "github.com", "site:github.com")),
        ("-site: reddit.com", ("exclude_site", "reddit.com", "-site:reddit.com")),
        ("NOT domain: reddit.com", ("exclude_site", "reddit.com", "-domain:reddit.com")),
        ("after: 2025-01", ("after", "2025-01-01", "after:2025-01")),
        ("filetype: pdf", ("filetype", "pdf", "filetype:pdf")),
        ('intitle: "error handling"', ("in_title", "error handling", 'intitle:"error handling"')),
        ("inurl: docs", ("in_url", "docs", "inurl:docs")),
    ],
)
def test_an_empty_value_takes_the_next_token(typed: str, read: tuple[str, str, str]) -> None:
    assert [(t.kind, t.value, t.raw) for t in tokenize(f"rust {typed}")] == [
        ("text", "rust", "rust"),
        read,
    ]


@pytest.mark.parametrize(
    "query",
    ["site: OR github.com", "site: NOT x", "site: ! x", "site: not_a_domain", "inurl: site:x.org"],
)
def test_an_empty_value_before_an_operator_or_directive_takes_nothing(query: str) -> None:
    """Guard (passes before and after): the reference (6.2) adopts the next token unless
    it is an operator or a directive; one that makes no directive (``site: not_a_domain``)
    leaves both words."""
    first, *_ = tokenize(query)
    assert (first.kind, first.raw) == ("text", query.split()[0])
    assert not any(t.kind == "site" and t.raw.startswith(first.raw) for t in tokenize(query))


@pytest.mark.parametrize("query", ["--verbose flag", "--filetype:pdf,doc x", "a -- b"])
def test_dashes_that_negate_no_phrase_or_directive_stay_text(query: str) -> None:
    """Guard (passes before and after): a ``--flag``, a ``--filetype:`` of no one extension
    and a double dash alone stay words as typed (``--filetype:pdf`` is ``-filetype:pdf``
    since inputs53, as ``--site:x`` is ``-site:x``)."""
    assert [(t.kind, t.raw) for t in tokenize(query)] == [("text", w) for w in query.split()]


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("rust - java", [("text", "rust"), ("text", "java")]),
        ("rust - site:x.org", [("text", "rust"), ("site", "x.org")]),
        ("rust -", [("text", "rust")]),
    ],
)
def test_a_lone_dash_before_no_phrase_is_dropped(typed: str, read: list[tuple[str, str]]) -> None:
    """Reference 6.2: ``- site:x`` with a space is not negated, and the dash goes."""
    assert [(t.kind, t.value) for t in tokenize(typed)] == read


def test_a_lone_dash_in_a_query_without_directives_still_goes_as_typed() -> None:
    """Guard (passes before and after): nothing was recognised, so nothing is rewritten."""
    params = SearchParams(query="rust - java")
    assert plan_filters(params, info(FilterSupport(query=QUERY_OPERATORS))).params is params


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("(a OR b) c", [("text", "a"), ("or", "OR"), ("text", "b"), ("text", "c")]),
        ("site:x.org (foo)", [("site", "x.org"), ("text", "foo")]),
        ("((-site:x.org))", [("exclude_site", "x.org")]),
        ('("a b" OR c)', [("phrase", "a b"), ("or", "OR"), ("text", "c")]),
        ("f(x)) y", [("text", "f(x)"), ("text", "y")]),
    ],
)
def test_parentheses_are_split_off_words_and_dropped(
    typed: str, read: list[tuple[str, str]]
) -> None:
    """Reference 6.1/6.2: leading ``(`` and unbalanced trailing ``)`` are their own tokens,
    which are dropped silently."""
    assert [(t.kind, t.value) for t in tokenize(typed)] == read


def test_a_site_path_with_balanced_parentheses_stays_one_token() -> None:
    """Guard (passes before and after): ``)`` balanced inside the word is not split off."""
    typed = "site:en.wikipedia.org/wiki/Rust_(programming_language)"
    [token] = tokenize(typed)
    assert (token.kind, token.raw, token.path) == (
        "site",
        typed,
        "/wiki/rust_(programming_language)",
    )


def test_an_empty_value_takes_no_parenthesis() -> None:
    """Guard (passes before and after): ``site: (x.org)`` is an operator after an empty value."""
    assert [t.kind for t in tokenize("site: (x.org)")] == ["text", "text"]


@pytest.mark.parametrize(
    ("typed", "sent"),
    [
        ("(rust OR go) tutorial site:x.org", "(rust OR go) tutorial site:x.org"),
        ("site:x.org (tutorial)", "tutorial site:x.org"),
        ("(site:a.org OR site:b.org) rust", "rust (site:a.org OR site:b.org)"),
        ("site:a.org OR site:b.org rust", "rust (site:a.org OR site:b.org)"),
    ],
)
def test_parentheses_go_and_an_or_between_directives_leaves_the_words(
    typed: str, sent: str
) -> None:
    plan = plan_filters(SearchParams(query=typed), info(FilterSupport(query=QUERY_OPERATORS)))
    assert plan.params.query == sent


def test_parentheses_alone_are_no_directive_and_the_query_goes_as_typed() -> None:
    """Guard (passes before and after): parens do not set the reference's hasDirectives."""
    params = SearchParams(query="(rust) tutorial")
    assert plan_filters(params, info(FilterSupport(query=QUERY_OPERATORS))).params is params


@pytest.mark.parametrize(
    ("typed", "tag"),
    [
        ("lang:de", "de"),
        ("language:PT_br", "pt-BR"),
        ("-lang:fr", "fr"),  # negation is ignored (reference 6.2)
        ("NOT lang:fr", "fr"),
        ("lang: es", "es"),
    ],
)
def test_a_lang_directive_sets_the_language_and_leaves_the_query(typed: str, tag: str) -> None:
    plan = plan_filters(SearchParams(query=f"rust {typed} guide"), info(FilterSupport()))
    assert (plan.params.language, plan.params.query) == (tag, "rust guide")
    assert plan.ways == {"language": ("ignored",)}  # not a constraint: never checked here


@pytest.mark.parametrize("typed", ["lang:rust", "lang:auto", "language:1337"])
def test_a_lang_value_that_is_no_language_tag_stays_a_word(typed: str) -> None:
    """Guard (passes before and after): what the ``language`` field refuses is no ``lang:``."""
    assert [(t.kind, t.raw) for t in tokenize(f"x {typed}")] == [("text", "x"), ("text", typed)]


@pytest.mark.parametrize("typed", ["lang:go", "lang:js", "language:py", "lang:xx-YY"])
def test_a_lang_value_that_is_no_iso_639_code_stays_a_word(typed: str) -> None:
    """``lang:go`` means Go: a tag's shape is not enough, its language must be ISO 639."""
    assert [(t.kind, t.raw) for t in tokenize(f"x {typed}")] == [("text", "x"), ("text", typed)]


@pytest.mark.parametrize(
    ("typed", "tag"), [("lang:ga", "ga"), ("lang:gd", "gd"), ("lang:deu", "deu")]
)
def test_an_iso_639_code_next_to_a_programming_language_is_still_read(typed: str, tag: str) -> None:
    """Guard (passes before and after): Irish, Gaelic, a three-letter code stay languages."""
    assert [(t.kind, t.value) for t in tokenize(typed)] == [("lang", tag)]


@pytest.mark.parametrize(
    ("typed", "tag"), [("lang:haw", "haw"), ("lang:CEB", "ceb"), ("language:fil-PH", "fil-PH")]
)
def test_a_three_letter_code_of_a_language_without_a_two_letter_one_is_read(
    typed: str, tag: str
) -> None:
    """ISO 639-2 codes with no ISO 639-1 equivalent (Hawaiian, Cebuano, Filipino) are
    languages the ``language`` field takes; they stayed words."""
    assert [(t.kind, t.value) for t in tokenize(f"x {typed}")] == [("text", "x"), ("lang", tag)]


@pytest.mark.parametrize("typed", ["lang:lua", "lang:ada", "lang:art", "lang:und", "lang:mul"])
def test_a_collection_special_or_programming_code_stays_a_word(typed: str) -> None:
    """Guard (passes before and after): collections and special codes name no language,
    and ``lua``/``ada`` mean the programming languages here."""
    assert [(t.kind, t.raw) for t in tokenize(f"x {typed}")] == [("text", "x"), ("text", typed)]


def _two_letter_providers() -> list[ProviderInfo]:
    from websearch_core.providers import brave, duckduckgo, perplexity, tinyfish

    return [brave.INFO, duckduckgo.INFO, perplexity.INFO, tinyfish.INFO]


@pytest.mark.parametrize("provider", _two_letter_providers(), ids=lambda p: p.id)
@pytest.mark.parametrize(
    "params",
    [SearchParams(query="rust lang:haw"), SearchParams(query="rust", language="haw")],
    ids=["directive", "field"],
)
def test_a_three_letter_language_is_not_sent_where_only_two_letters_are_taken(
    provider: ProviderInfo, params: SearchParams
) -> None:
    """Perplexity, TinyFish, Brave and DuckDuckGo take ISO 639-1 codes: ``haw`` is not sent
    and the model is told so (it was recorded native, sent to Perplexity, dropped silently
    by the others)."""
    plan = plan_filters(params, provider)
    assert (plan.params.query, plan.params.language) == ("rust", None)
    response = apply_plan(plan, SearchResponse(provider=provider.id))
    assert ignored_note(response) == "Filters not applied: language=haw."


@pytest.mark.parametrize("provider", _two_letter_providers(), ids=lambda p: p.id)
def test_a_three_letter_code_with_a_two_letter_twin_is_sent_as_the_twin(
    provider: ProviderInfo,
) -> None:
    """``lang:deu`` (or ``ger-AT``) goes to a two-letter parameter as ``de`` (``de-AT``):
    Perplexity was sent ``deu``, the others dropped it silently."""
    for typed, sent in (("lang:deu", "de"), ("lang:ger-AT", "de-AT")):
        plan = plan_filters(SearchParams(query=f"rust {typed}"), provider)
        assert (plan.params.language, plan.ways) == (sent, {"language": ("native",)})


def test_guard_a_two_letter_language_is_still_sent_there() -> None:
    """Guard (passes before and after): ``lang:de`` goes as before."""
    for provider in _two_letter_providers():
        plan = plan_filters(SearchParams(query="rust lang:de"), provider)
        assert (plan.params.language, plan.ways) == ("de", {"language": ("native",)})


@pytest.mark.parametrize(
    ("params", "note"),
    [
        (
            SearchParams(query="rust lang:de", language="fr"),
            "Filters not applied: language=de (language=fr used instead).",
        ),
        (
            SearchParams(query="lang:de rust lang:it"),
            "Filters not applied: language=it (language=de used instead).",
        ),
        (SearchParams(query="rust lang:fr", language="fr"), None),
    ],
)
def test_a_lang_directive_that_gave_way_is_recorded_and_named_in_the_note(
    params: SearchParams, note: str | None
) -> None:
    plan = plan_filters(params, info(FilterSupport(native=frozenset({"language"}))))
    response = apply_plan(plan, SearchResponse(provider="example"))
    assert ignored_note(response) == note


def test_a_language_passed_wins_over_a_lang_directive() -> None:
    params = SearchParams(query="rust lang:de", language="fr")
    plan = plan_filters(params, info(FilterSupport(native=frozenset({"language"}))))
    assert (plan.params.language, plan.params.query) == ("fr", "rust")
    assert requested_filters(SearchParams(query="lang:de rust lang:it")).language == "de"


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        (
            "allintitle:rust error -faq",
            [("in_title", "rust"), ("in_title", "error"), ("exclude_in_title", "faq")],
        ),
        ("allinurl: docs api", [("in_url", "docs"), ("in_url", "api")]),
        (
            'allintext:"borrow checker" site:x.org lifetimes',
            [("in_text", "borrow checker"), ("site", "x.org"), ("in_text", "lifetimes")],
        ),
        ("guide allintitle: OR faq", [("text", "guide"), ("or", "OR"), ("in_title", "faq")]),
    ],
)
def test_an_allin_directive_takes_the_words_after_it(
    typed: str, read: list[tuple[str, str]]
) -> None:
    """Reference 6.2's all mode: its value and every plain word after it go in its field."""
    assert [(t.kind, t.value) for t in tokenize(typed)] == read


def test_an_allin_query_is_sent_as_one_directive_per_word() -> None:
    plan = plan_filters(
        SearchParams(query="allintitle:rust error -faq"), info(FilterSupport(query=QUERY_OPERATORS))
    )
    assert plan.params.query == "intitle:rust intitle:error -intitle:faq"


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        (
            'allintitle:a error:"not found"',
            [("in_title", "a"), ("in_title", "error:not found")],
        ),
        ('rust error:"not found"', [("text", "rust"), ("text", "error:not found")]),
        ("C:\u201cProgram Files\u201d x", [("text", "C:Program Files"), ("text", "x")]),
        ('site:"x.org" rust', [("site", "x.org"), ("text", "rust")]),
    ],
)
def test_a_quoted_value_after_any_name_is_swallowed_into_one_word(
    typed: str, read: list[tuple[str, str]]
) -> None:
    """Reference 6.1: a quote right after ``name:`` swallows the span into the value, for
    any name, so ``error:"not found"`` is one term (it split into ``error:"not`` and
    ``found"``), and a value making a directive (``site:"x.org"``) is that directive."""
    assert [(t.kind, t.value) for t in tokenize(typed)] == read


def test_a_swallowed_quoted_value_is_sent_as_typed() -> None:
    plan = plan_filters(
        SearchParams(query='allintitle:a error:"not found" site:x.org'),
        info(FilterSupport(query=QUERY_OPERATORS)),
    )
    assert plan.params.query == 'site:x.org intitle:a intitle:"error:not found"'


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ('x"a b" c', [("text", "x"), ("phrase", "a b"), ("text", "c")]),
        ('site:x.org"rust book"', [("site", "x.org"), ("phrase", "rust book")]),
        ('allintitle:a x"b c"', [("in_title", "a"), ("in_title", "x"), ("in_title", "b c")]),
    ],
)
def test_a_quote_inside_a_word_ends_the_word(typed: str, read: list[tuple[str, str]]) -> None:
    """Reference 6.1: a quote in the middle of a word ends it and opens a phrase (it was
    read as part of the word, splitting the phrase into ``x"a`` and ``b"``)."""
    assert [(t.kind, t.value) for t in tokenize(typed)] == read


@pytest.mark.parametrize("typed", ['don"t panic', 'intitle:"rust', 'rust" x'])
def test_a_quote_that_opens_no_span_stays_in_its_word(typed: str) -> None:
    """Guard (passes before and after): a stray quote, with no closing one, splits nothing."""
    assert [t.raw for t in tokenize(typed)] == typed.split()


# --- merging -----------------------------------------------------------------------------------


def test_directives_and_parameters_merge_and_the_narrower_date_wins() -> None:
    params = SearchParams(
        query="site:github.com -site:x.com after:2025-03-01 before:2025-12-31 q",
        include_domains=("php.net", "github.com"),
        exclude_domains=("y.com",),
        date_after=date(2025, 1, 1),
        date_before=date(2025, 6, 30),
    )
    merged = requested_filters(params)
    assert merged.include_domains == ("php.net", "github.com")
    assert merged.exclude_domains == ("y.com", "x.com")
    assert (merged.date_after, merged.date_before) == (date(2025, 3, 1), date(2025, 6, 30))


def test_a_query_without_filters_asks_for_none_and_is_sent_unchanged() -> None:
    params = SearchParams(query="python asyncio tutorial")
    plan = plan_filters(params, info())
    assert not plan.wanted
    assert plan.params is params
    response = SearchResponse(provider="example", sources=(source("https://a.org/"),))
    assert apply_plan(plan, response) is response


# --- planning ----------------------------------------------------------------------------------


def test_directives_a_provider_cannot_read_leave_the_query_it_is_sent() -> None:
    params = SearchParams(query='site:github.com after:2025-01-01 "web search" -java a OR b')
    plan = plan_filters(params, info())
    assert plan.params.query == "web search a b"
    assert dict(plan.ways) == {
        "include_domains": ("post",),
        "date_after": ("post",),
        "phrase": ("post",),
        "exclude_terms": ("post",),
        "alternatives": ("ignored",),
    }


def test_a_query_engine_gets_the_words_then_the_directives_in_the_reference_order() -> None:
    params = SearchParams(
        query='laravel "web search" -java OR x filetype:pdf',
        include_domains=("github.com", "php.net"),
        exclude_domains=("x.com",),
    )
    plan = plan_filters(params, info(FilterSupport(query=QUERY_OPERATORS)))
    assert plan.params.query == (
        'laravel "web search" -java OR x (site:github.com OR site:php.net) -site:x.com filetype:pdf'
    )
    assert plan.ways["include_domains"] == ("query", "post")
    assert plan.ways["phrase"] == ("query",)


@pytest.mark.parametrize(
    ("reads_or", "sent"),
    [(True, "(rust OR go OR zig) tutorial guide"), (False, "rust go zig tutorial guide")],
)
def test_pipes_group_like_or_and_and_leaves(reads_or: bool, sent: str) -> None:
    support = FilterSupport(query=QUERY_OPERATORS, reads_or=reads_or)
    plan = plan_filters(SearchParams(query="rust | go || zig AND tutorial && guide"), info(support))
    assert plan.params.query == sent


def test_and_alone_still_leaves_the_query() -> None:
    plan = plan_filters(SearchParams(query="rust AND go"), info())
    assert plan.params.query == "rust go"


def test_operator_characters_inside_words_leave_the_query_as_typed() -> None:
    """Guard (passes before and after the operators): nothing here is an operator."""
    params = SearchParams(query="c++ !important a|b R&D NOTE ANDROID +1")
    plan = plan_filters(params, info(FilterSupport(query=QUERY_OPERATORS)))
    assert plan.params is params


@pytest.mark.parametrize(
    ("reads_or", "sent", "way"),
    [
        (True, '(rust OR go OR "zig lang") -java OR c tutorial', "query"),
        (False, 'rust go "zig lang" -java c tutorial', "ignored"),
    ],
)
def test_an_or_group_is_parenthesised_or_listed_flat_as_the_provider_reads_or(
    reads_or: bool, sent: str, way: str
) -> None:
    support = FilterSupport(query=QUERY_OPERATORS, reads_or=reads_or)
    # OR alone asks for no filter; it is still written the provider's way.
    plan = plan_filters(
        SearchParams(query='rust OR go OR "zig lang" -java OR c tutorial'), info(support)
    )
    assert plan.params.query == sent
    # The group is recorded (inputs53): sent flat, it was not applied.
    assert plan.ways == {
        "phrase": ("query",),
        "exclude_terms": ("query",),
        "alternatives": (way,),
    }
    assert plan.wanted.alternatives == ('rust OR go OR "zig lang"',)


def test_an_html_engine_is_sent_a_wanted_inurl_as_its_word_and_checks_it() -> None:
    scraper = info(FilterSupport(query=SCRAPER_OPERATORS, demoted=frozenset({"in_url"})))
    plan = plan_filters(
        SearchParams(query="rust inurl:docs -inurl:forum intitle:faq guide"), scraper
    )
    assert plan.params.query == "rust guide docs -inurl:forum intitle:faq"
    assert plan.ways["in_url"] == ("post",)
    assert plan.ways["exclude_in_url"] == ("query",)


def test_an_html_engine_is_sent_a_site_with_a_path_as_a_trailing_word() -> None:
    """The reference's example (6.4) with a site on another host: the path site goes as a
    word after the terms, and, since stop 52 (inputs54), its host joins the other site's
    group, where the reference sends ``site:docs.rs`` alone (the engine asked for docs.rs
    only, the two sites narrowed to one); an API is sent the host, as before."""
    typed = "site:github.com/can1357/oh-my-pi inurl:releases site:docs.rs 17.1.1 release"
    scraper = info(FilterSupport(query=SCRAPER_OPERATORS, demoted=frozenset({"in_url"})))
    plan = plan_filters(SearchParams(query=typed), scraper)
    assert plan.params.query == (
        "17.1.1 release github.com/can1357/oh-my-pi releases (site:github.com OR site:docs.rs)"
    )
    assert plan.params.include_domains == ("github.com", "docs.rs")
    api = plan_filters(SearchParams(query=typed), info(FilterSupport(query=QUERY_OPERATORS)))
    assert api.params.query == ("17.1.1 release (site:github.com OR site:docs.rs) inurl:releases")


def test_an_html_engine_is_sent_a_path_site_as_a_word_when_its_host_is_wanted_whole() -> None:
    """The reference's example verbatim (6.4): ``site:github.com`` wants the whole host, yet
    the path beside it still goes as a word, as ``formatScraperQuery`` demotes every
    positive ``site:`` with a path."""
    typed = "site:github.com/can1357/oh-my-pi inurl:releases site:github.com 17.1.1 release"
    scraper = info(FilterSupport(query=SCRAPER_OPERATORS, demoted=frozenset({"in_url"})))
    plan = plan_filters(SearchParams(query=typed), scraper)
    assert (
        plan.params.query == "17.1.1 release github.com/can1357/oh-my-pi releases site:github.com"
    )
    assert plan.params.include_domains == ("github.com",)


def test_an_engine_writing_its_own_sites_is_not_given_a_path_site_as_a_host() -> None:
    """Google and Ecosia write ``site:`` from the domain field themselves."""
    scraper = info(
        FilterSupport(query=SCRAPER_OPERATORS, demoted=frozenset({"in_url"})),
        honours=frozenset({"query", "limit", "num_search_results", "include_domains"}),
    )
    plan = plan_filters(SearchParams(query="sdk site:github.com/anthropics"), scraper)
    assert (plan.params.query, plan.params.include_domains) == ("sdk github.com/anthropics", ())


def test_words_in_directives_a_provider_cannot_read_leave_its_query() -> None:
    plan = plan_filters(SearchParams(query="rust inurl:docs intitle:faq intext:x guide"), info())
    assert plan.params.query == "rust guide"
    assert (plan.ways["in_url"], plan.ways["in_title"]) == (("post",), ("post",))
    # No result holds the page's text, so intext: can only be ignored.
    assert plan.ways["in_text"] == ("ignored",)


def test_a_demoted_filter_is_neither_a_parameter_nor_an_operator() -> None:
    with pytest.raises(ValueError, match="demoted"):
        FilterSupport(query=frozenset({"in_url"}), demoted=frozenset({"in_url"}))


def test_a_native_filter_travels_as_the_field_and_leaves_the_text() -> None:
    params = SearchParams(query="rust site:docs.rs after:2025-02-01")
    support = FilterSupport(native=frozenset({"include_domains", "date_after"}))
    honours = frozenset({"query", "include_domains", "date_after"})
    plan = plan_filters(params, info(support, honours))
    assert plan.params.query == "rust"
    assert plan.params.include_domains == ("docs.rs",)
    assert plan.params.date_after == date(2025, 2, 1)
    assert plan.ways["include_domains"] == ("native", "post")
    assert plan.ways["date_after"] == ("native",)


def test_a_field_the_provider_writes_itself_is_not_written_twice() -> None:
    # Google: include_domains is honoured and written by the provider as site: operators.
    support = FilterSupport(query=frozenset({"include_domains"}))
    honours = frozenset({"query", "include_domains"})
    plan = plan_filters(SearchParams(query="tokio site:docs.rs"), info(support, honours))
    assert plan.params.query == "tokio"
    assert plan.params.include_domains == ("docs.rs",)


def test_a_query_of_directives_alone_keeps_their_values_as_words() -> None:
    plan = plan_filters(SearchParams(query="site:github.com"), info())
    assert plan.params.query == "github.com"


def test_a_recency_value_the_parameter_lacks_is_checked_locally() -> None:
    support = FilterSupport(
        native=frozenset({"recency"}), recency=frozenset({"day", "week", "month"})
    )
    honours = frozenset({"query", "recency"})
    assert plan_filters(SearchParams(query="x", recency="week"), info(support, honours)).ways == {
        "recency": ("native",)
    }
    year = plan_filters(SearchParams(query="x", recency="year"), info(support, honours))
    assert year.ways == {"recency": ("post",)}


def one_short_list() -> FilterSupport:
    """An answer engine whose domain parameter takes two domains and one list per request."""
    return FilterSupport.language_model(
        frozenset({"include_domains", "exclude_domains"}), domain_limit=2, one_domain_list=True
    )


ONE_SHORT_LIST_HONOURS = frozenset({"query", "include_domains", "exclude_domains"})


@pytest.mark.parametrize(
    ("include", "exclude", "query", "include_ways", "exclude_ways"),
    [
        (("a.com", "b.com"), (), "rust", ("native", "post"), None),
        (
            ("a.com", "b.com", "c.com"),
            (),
            "rust (site:a.com OR site:b.com OR site:c.com)",
            ("query", "post"),
            None,
        ),
        (("a.com",), ("x.com",), "rust -site:x.com", ("native", "post"), ("query", "post")),
        (
            ("a.com", "b.com", "c.com"),
            ("x.com",),
            "rust (site:a.com OR site:b.com OR site:c.com)",
            ("query", "post"),
            ("native", "post"),
        ),
        (
            (),
            ("x.com", "y.com", "z.com"),
            "rust -site:x.com -site:y.com -site:z.com",
            None,
            ("query", "post"),
        ),
    ],
)
def test_a_domain_list_the_parameter_cannot_carry_is_asked_in_the_question(
    include: tuple[str, ...],
    exclude: tuple[str, ...],
    query: str,
    include_ways: tuple[str, ...] | None,
    exclude_ways: tuple[str, ...] | None,
) -> None:
    # An answer engine whose parameter takes two domains, and one list per request: what
    # does not fit is written into the question and checked here, and the record says so.
    params = SearchParams(query="rust", include_domains=include, exclude_domains=exclude)
    plan = plan_filters(params, info(one_short_list(), ONE_SHORT_LIST_HONOURS, kind="answer"))
    assert plan.params.query == query
    assert plan.ways.get("include_domains") == include_ways
    assert plan.ways.get("exclude_domains") == exclude_ways
    sent = one_short_list().sent_domains(plan.params.include_domains, plan.params.exclude_domains)
    assert sent == {n for n, w in plan.ways.items() if "native" in w}
    assert plan.checks == {n for n in ("include_domains", "exclude_domains") if n in plan.ways}


def test_a_typed_site_the_parameter_cannot_carry_stays_a_site_operator() -> None:
    typed = SearchParams(query="rust site:a.com site:b.com site:c.com")
    plan = plan_filters(typed, info(one_short_list(), ONE_SHORT_LIST_HONOURS, kind="answer"))
    assert plan.params.query == "rust (site:a.com OR site:b.com OR site:c.com)"
    assert plan.ways["include_domains"] == ("query", "post")


def test_only_a_native_filter_has_a_query_fallback() -> None:
    with pytest.raises(ValueError, match="query fallback"):
        FilterSupport(query_fallback=frozenset({"include_domains"}))


def test_language_and_country_without_a_parameter_are_ignored_not_checked() -> None:
    plan = plan_filters(SearchParams(query="x", language="de", country="AT"), info())
    assert dict(plan.ways) == {"language": ("ignored",), "country": ("ignored",)}
    assert plan.checks == frozenset()
    assert plan.result_cap is None  # nothing will be dropped, so nothing more is asked for


@pytest.mark.parametrize(
    ("limit", "default", "maximum", "asked", "cap"),
    [
        (None, 10, 20, 20, 10),
        (5, 10, 20, 15, 5),
        (20, 10, 20, None, None),
        (5, 10, None, None, None),
    ],
)
def test_more_is_asked_upstream_when_a_local_check_will_drop_results(
    limit: int | None, default: int, maximum: int | None, asked: int | None, cap: int | None
) -> None:
    params = SearchParams(query="site:github.com x", limit=limit)
    plan = plan_filters(params, info(default_results=default, max_results=maximum))
    assert plan.params.num_search_results == asked
    assert plan.result_cap == cap


def test_a_filter_applied_upstream_asks_for_no_more() -> None:
    support = FilterSupport(native=frozenset({"include_domains"}))
    honours = frozenset({"query", "include_domains"})
    plan = plan_filters(SearchParams(query="site:github.com x"), info(support, honours))
    assert plan.params.num_search_results is None


def test_a_declaration_is_either_native_or_query() -> None:
    with pytest.raises(ValueError, match="either native or query"):
        FilterSupport(native=frozenset({"recency"}), query=frozenset({"recency"}))


# --- checking results --------------------------------------------------------------------------


def test_domains_match_the_host_and_its_subdomains_only() -> None:
    wanted = requested_filters(SearchParams(query="site:github.com -site:gist.github.com"))
    sources = [
        source("https://github.com/laravel/laravel"),
        source("https://www.github.com/a"),
        source("https://docs.github.com/b"),
        source("https://gist.github.com/c"),
        source("https://notgithub.com/d"),
        source("https://builtin.com/github.com"),
    ]
    kept = post_filter(sources, wanted, frozenset({"include_domains", "exclude_domains"}))
    assert [s.url for s in kept.sources] == [
        "https://github.com/laravel/laravel",
        "https://www.github.com/a",
        "https://docs.github.com/b",
    ]


def test_a_site_with_a_path_keeps_only_urls_under_that_path() -> None:
    wanted = requested_filters(SearchParams(query="sdk site:GitHub.com/Anthropics/"))
    sources = [
        source("https://github.com/anthropics/sdk"),
        source("https://github.com/Anthropics"),
        source("https://docs.github.com/anthropics/x"),
        source("https://github.com/openai/sdk"),
        source("https://github.com/"),
        source("https://gitlab.com/anthropics/sdk"),
    ]
    kept = post_filter(sources, wanted, frozenset({"include_domains"}))
    assert [s.url for s in kept.sources] == [
        "https://github.com/anthropics/sdk",
        "https://github.com/Anthropics",
        "https://docs.github.com/anthropics/x",
    ]
    assert wanted.include_domains == ("github.com",)  # engines and APIs get the host


@pytest.mark.parametrize("typed", ["-site:GitHub.com/Foo/", "NOT site:github.com/foo"])
def test_an_excluded_site_with_a_path_drops_only_urls_under_that_path(typed: str) -> None:
    """Reference 6.6 matchesSite with a path: ``-site:github.com/foo`` keeps the rest of
    github.com (before, the whole host was dropped)."""
    wanted = requested_filters(SearchParams(query=f"sdk {typed}"))
    sources = [
        source("https://github.com/foo/sdk"),
        source("https://docs.github.com/FOO"),
        source("https://github.com/bar/sdk"),
        source("https://gitlab.com/foo/sdk"),
    ]
    kept = post_filter(sources, wanted, frozenset({"exclude_domains"}))
    assert [s.url for s in kept.sources] == [
        "https://github.com/bar/sdk",
        "https://gitlab.com/foo/sdk",
    ]
    assert wanted.exclude_domains == ()  # no host to send a native list


def test_an_excluded_path_is_written_where_the_text_reads_site_and_checked_elsewhere() -> None:
    typed = "sdk -site:github.com/foo -site:x.com"
    engine = plan_filters(SearchParams(query=typed), info(FilterSupport(query=QUERY_OPERATORS)))
    assert engine.params.query == "sdk -site:x.com -site:github.com/foo"
    native = FilterSupport(native=frozenset({"exclude_domains"}))
    api = plan_filters(
        SearchParams(query=typed), info(native, frozenset({"query", "exclude_domains"}))
    )
    assert (api.params.query, api.params.exclude_domains) == ("sdk", ("x.com",))
    response = SearchResponse(
        provider="example",
        sources=(source("https://github.com/foo/1"), source("https://github.com/bar/2")),
    )
    filtered = apply_plan(api, response)
    assert [s.url for s in filtered.sources] == ["https://github.com/bar/2"]
    assert [(f.value, f.applied) for f in filtered.filters] == [
        ("x.com", ("native", "post")),
        ("github.com/foo", ("post",)),  # no field carried it: only the check applied it
    ]


def test_the_record_names_a_path_site_and_how_an_html_engine_got_it() -> None:
    """An HTML engine gets a path site alone as a word, as its ``inurl:``: recorded
    ``post`` (checked here), never ``query`` (no operator). Beside a site on another host
    its host goes in the ``site:`` group (stop 52, inputs54), recorded as an API's is."""
    typed = "sdk site:github.com/anthropics site:docs.rs"
    response = SearchResponse(
        provider="example",
        sources=(source("https://github.com/anthropics/x"), source("https://docs.rs/y")),
    )
    scraper = info(FilterSupport(query=SCRAPER_OPERATORS, demoted=frozenset({"in_url"})))
    alone = apply_plan(
        plan_filters(SearchParams(query="sdk site:github.com/anthropics"), scraper), response
    )
    assert [(f.value, f.applied) for f in alone.filters] == [("github.com/anthropics", ("post",))]
    scraped = apply_plan(plan_filters(SearchParams(query=typed), scraper), response)
    assert [(f.value, f.applied) for f in scraped.filters] == [
        ("github.com/anthropics", ("query", "post")),
        ("docs.rs", ("query", "post")),
    ]
    api = plan_filters(SearchParams(query=typed), info(FilterSupport(query=QUERY_OPERATORS)))
    assert [(f.value, f.applied) for f in apply_plan(api, response).filters] == [
        ("github.com/anthropics", ("query", "post")),
        ("docs.rs", ("query", "post")),
    ]


def test_a_site_wanted_whole_too_keeps_its_whole_host() -> None:
    """Guard (passes before and after): ``site:github.com`` beside a path on the same
    host, or the host as a parameter, wants every page of the host."""
    for params in (
        SearchParams(query="sdk site:github.com/anthropics site:github.com"),
        SearchParams(query="sdk site:github.com/anthropics", include_domains=("github.com",)),
    ):
        sources = [source("https://github.com/openai/sdk"), source("https://x.org/")]
        kept = post_filter(sources, requested_filters(params), frozenset({"include_domains"}))
        assert [s.url for s in kept.sources] == ["https://github.com/openai/sdk"]


def test_dates_are_checked_from_age_or_iso_date_and_undated_results_are_kept() -> None:
    wanted = requested_filters(SearchParams(query="x after:2026-05-01 before:2026-05-30"))
    sources = [
        source("https://a.org/", age_seconds=10 * 86400),  # 2026-05-22
        source("https://b.org/", age_seconds=40 * 86400),  # 2026-04-22
        source("https://c.org/", published_date="2026-05-31T08:00:00Z"),
        source("https://d.org/", published_date="2026-05-02"),
        source("https://e.org/", published_date="3 days ago"),
    ]
    kept = post_filter(sources, wanted, frozenset({"date_after", "date_before"}), now=NOW)
    assert [s.url for s in kept.sources] == ["https://a.org/", "https://d.org/", "https://e.org/"]
    assert kept.unchecked == frozenset({"date_after", "date_before"})


def test_recency_keeps_what_is_inside_the_span() -> None:
    wanted = requested_filters(SearchParams(query="x", recency="week"))
    sources = [
        source("https://a.org/", age_seconds=6 * 86400),
        source("https://b.org/", age_seconds=9 * 86400),
    ]
    kept = post_filter(sources, wanted, frozenset({"recency"}), now=NOW)
    assert [s.url for s in kept.sources] == ["https://a.org/"]
    assert kept.unchecked == frozenset()


def test_phrases_and_excluded_terms_are_looked_for_in_title_and_snippet() -> None:
    wanted = requested_filters(SearchParams(query='"async runtime" -java'))
    sources = [
        source("https://a.org/", "Tokio", "An ASYNC  runtime for Rust"),
        source("https://b.org/", "Async runtimes", "for Java and Kotlin"),
        source("https://c.org/", "An async runtime", "javascript too"),
        source("https://d.org/", "Nothing", None),
    ]
    kept = post_filter(sources, wanted, frozenset({"phrase", "exclude_terms"}))
    # d.org has no snippet: its title cannot prove the phrase absent, so it stays, flagged.
    assert [s.url for s in kept.sources] == ["https://a.org/", "https://c.org/", "https://d.org/"]
    assert kept.unchecked == frozenset({"phrase", "exclude_terms"})


def test_a_title_alone_still_proves_an_excluded_term_present() -> None:
    wanted = requested_filters(SearchParams(query="runtimes -java"))
    sources = [source("https://a.org/", "Java runtimes"), source("https://b.org/", "Go", "go")]
    kept = post_filter(sources, wanted, frozenset({"exclude_terms"}))
    assert [s.url for s in kept.sources] == ["https://b.org/"]
    assert kept.unchecked == frozenset()


def test_filetype_is_read_from_the_url_path() -> None:
    wanted = requested_filters(SearchParams(query="report filetype:pdf"))
    sources = [
        source("https://a.org/x.PDF"),
        source("https://b.org/pdf"),
        source("https://c.org/y.pdf?dl=1"),
    ]
    kept = post_filter(sources, wanted, frozenset({"filetype"}))
    assert [s.url for s in kept.sources] == ["https://a.org/x.PDF", "https://c.org/y.pdf?dl=1"]


def test_url_and_title_words_are_looked_for_in_the_url_and_title() -> None:
    wanted = requested_filters(
        SearchParams(query="rust inurl:Docs -inurl:forum intitle:guide -intitle:draft")
    )
    sources = [
        source("https://a.org/docs/book", "The Rust GUIDE"),
        source("https://b.org/DOCS/forum/1", "Guide"),
        source("https://c.org/docs", "Guide (draft)"),
        source("https://d.org/blog", "Guide"),
        source("https://e.org/docs", "Reference", "a guide"),
    ]
    checks = frozenset({"in_url", "exclude_in_url", "in_title", "exclude_in_title"})
    assert [s.url for s in post_filter(sources, wanted, checks).sources] == [
        "https://a.org/docs/book"
    ]
    assert drop_counts(sources, wanted, checks) == {
        "exclude_in_url": 1,
        "exclude_in_title": 1,
        "in_title": 1,
        "in_url": 1,
    }


def test_filters_not_named_in_checks_are_not_applied() -> None:
    wanted = requested_filters(SearchParams(query='site:github.com "exact phrase"'))
    sources = [source("https://a.org/")]
    assert post_filter(sources, wanted, frozenset()).sources == tuple(sources)


# --- the record --------------------------------------------------------------------------------


def test_the_record_lists_each_value_and_how_it_was_applied() -> None:
    params = SearchParams(query="x site:a.org site:b.org after:2026-05-01", language="de")
    plan = plan_filters(params, info())
    response = SearchResponse(
        provider="example",
        sources=(
            source("https://a.org/1", published_date="2026-05-10"),
            source("https://b.org/2"),
            source("https://c.org/3"),
        ),
    )
    filtered = apply_plan(plan, response, now=NOW)
    assert [s.url for s in filtered.sources] == ["https://a.org/1", "https://b.org/2"]
    assert [f.model_dump() for f in filtered.filters] == [
        {"name": "include_domains", "value": "a.org", "applied": ("post",)},
        {"name": "include_domains", "value": "b.org", "applied": ("post",)},
        {"name": "date_after", "value": "2026-05-01", "applied": ("post", "ignored")},
        {"name": "language", "value": "de", "applied": ("ignored",)},
    ]
    assert ignored_note(filtered) == (
        "Filters not applied: date_after=2026-05-01 (some results unchecked), language=de."
    )
    assert filtered.model_dump(mode="json")["filters"][0] == {
        "name": "include_domains",
        "value": "a.org",
        "applied": ["post"],
    }


def test_no_note_when_every_filter_was_applied() -> None:
    response = SearchResponse(
        provider="example",
        filters=(AppliedFilter(name="recency", value="day", applied=("native",)),),
    )
    assert ignored_note(response) is None


@pytest.mark.parametrize(
    ("written", "canonical"),
    [
        ("en_US", "en-US"),
        ("EN", "en"),
        ("en-us", "en-US"),
        ("zh_hant_tw", "zh-Hant-TW"),
        ("pt-BR", "pt-BR"),
    ],
)
def test_a_language_written_any_way_is_read_as_its_bcp47_tag(written: str, canonical: str) -> None:
    assert SearchParams(query="q", language=written).language == canonical


def test_a_language_that_is_no_tag_is_still_refused_by_name() -> None:
    with pytest.raises(ValueError, match="language must be a BCP 47 tag"):
        SearchParams(query="q", language="english please")
