"""The shortcuts that let a clean response skip the per-field pass must never skip a dirty one.

``clean_response`` probes the whole response once and copies nothing when nothing would
change; ``is_clean_url`` accepts plain URLs with one match; ``Redactor.may_hold`` answers
with substring tests. Each is checked here against what the full pass does.
"""

import base64
import itertools
import random
import re
import sys
from urllib.parse import quote, urlsplit

import pytest

from websearch_core.content.models import provided_page
from websearch_core.control_chars import CONTROL_IN_LINE, CONTROL_IN_TEXT
from websearch_core.models import SearchCitation, SearchResponse, SearchSource
from websearch_core.redaction import Redactor
from websearch_core.sanitize import (
    _GROUP_CHARACTERS,
    _PLAIN_URLS,
    _URL_FORBIDDEN,
    URL_LIMIT,
    _all_plain,
    _joined_groups,
    _kept,
    _needs_cleaning,
    _texts,
    clean_response,
    clean_text,
    is_clean_url,
)

KEY = "BSA-0123456789abcdefXYZ"


def _reference_is_clean_url(url: str) -> bool:
    """The rule spelled out with urlsplit alone (the fast path must agree with it)."""
    if not url or any(ord(c) <= 0x20 or 0x7F <= ord(c) <= 0x9F for c in url):
        return False
    if any(c in url for c in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"):
        return False
    if any(c in url for c in "\u200b\u200c\u200d\u200e\u200f\ufeff"):
        return False
    try:
        parts = urlsplit(url)
        _ = parts.port
    except ValueError:
        return False
    return (
        parts.scheme.lower() in ("http", "https")
        and bool(parts.hostname)
        and ("@" not in parts.netloc)
    )


QUICK_URLS = [
    "https://example.org",
    "HTTPS://Example.ORG/Path",
    "http://a.b-c.example:8080/x?y#z",
    "http://host:0/",
    "http://host:9999?q",
    "http://host:65535/",
    "http://host:65536/",
    "http://host:/",
    "http://host:12a/",
    "http://[::1]:80/",
    "http://[::1/",
    "https://bücher.example/",
    "https://user@example.org/",
    "https://example.org@evil.example/",
    "https://example.org/a@b",
    "https://example.org#@evil",
    "ftp://example.org/",
    "https:example.org",
    "https://",
    "https://./",
    "https://example.org\\@evil.example/",
    "https://example.org/\u200bx",
]


@pytest.mark.parametrize("url", QUICK_URLS)
def test_the_quick_url_check_agrees_with_urlsplit(url: str) -> None:
    assert is_clean_url(url) is _reference_is_clean_url(url)


URLS = [
    *QUICK_URLS,
    "",
    "http://ſite.example/",  # the case-insensitive [a-z] takes the long s
    "http://\u212aelvin.example/",  # and the Kelvin sign
    "HTTP://EXAMPLE.ORG:8080?Q",
    "https://example.org/a b",
    "https://a.example/x https://b.example/",  # a space hides inside two plain URLs
    "https://example.org/\x1b[2J",
    "https://example.org",
    "https://example.org/path?q=1#frag",
]


def test_the_joined_url_check_keeps_what_the_per_url_check_keeps() -> None:
    """Every pair of URLs (and with a third), capped: kept is what ``is_clean_url`` keeps."""
    checked = 0
    for pair, cap in itertools.product(itertools.product(URLS, repeat=2), (1, 2, 3)):
        for urls in (pair, (*pair, "https://example.org/c")):
            entries = tuple(SearchCitation(url=url) for url in urls)
            expected = tuple(entry for entry in entries if is_clean_url(entry.url))[:cap]
            kept = _kept(entries, cap)
            assert (entries if kept is None else kept) == expected, urls
            checked += kept is None
    assert checked  # the quick answer (nothing dropped) was taken, not only the loop


class _CountedLength(str):
    """A URL that counts how often its length is asked (``len``, or its truth)."""

    asked = 0

    def __len__(self) -> int:
        _CountedLength.asked += 1
        return super().__len__()


def test_the_url_bound_is_read_only_when_the_joined_urls_can_reach_it() -> None:
    """A page of plain URLs is judged without asking each its length (stop 54, speed55).

    The check read every URL's length twice (``all``, then ``max`` for ``URL_LIMIT``) on
    every response; one over the bound makes the URLs joined longer than it too, and an
    empty one fails the match, so neither pass is needed unless the joined text is over.
    """
    plain = [f"https://example.org/page/{n}?q=python+asyncio" for n in range(20)]
    _CountedLength.asked = 0
    assert _all_plain([_CountedLength(url) for url in plain])
    assert _CountedLength.asked == 0
    at_limit = "https://a.example/" + "u" * (URL_LIMIT - len("https://a.example/"))
    assert _all_plain([at_limit])
    assert not _all_plain([at_limit + "u"])  # over the bound alone: read, and refused
    assert not _all_plain([*plain[:3], at_limit[:-30] + "u" * 31])
    assert _all_plain([*plain[:3], at_limit])  # over together, each within: kept


@pytest.mark.parametrize("place", [0, 1, 2])
def test_an_empty_url_is_never_taken_by_the_joined_check(place: int) -> None:
    """A guard (passes before and after): an empty URL anywhere makes the quick check fail."""
    urls = ["https://example.org/a", "https://example.org/b"]
    urls.insert(place, "")
    assert not _all_plain(urls)
    entries = tuple(SearchCitation(url=url) for url in urls)
    assert _kept(entries, 5) == tuple(entry for entry in entries if entry.url)


def _response(**source_fields: str) -> SearchResponse:
    fields = {"title": "A title", "url": "https://example.org/a", "snippet": "Snippet."}
    return SearchResponse(
        provider="brave",
        sources=(
            SearchSource(**{**fields, **source_fields}),
            SearchSource(title="Second", url="https://example.org/b", snippet="More."),
        ),
        citations=(SearchCitation(url="https://example.org/c", title="Cited"),),
        related_questions=("What else?",),
    )


def test_a_clean_response_is_not_copied() -> None:
    response = _response()
    assert clean_response(response, cap=10, redactor=Redactor([KEY])) is response


def test_a_clean_response_is_still_capped_and_loses_bad_urls() -> None:
    response = _response(url="https://user:pw@example.org/")
    cleaned = clean_response(response, cap=1, redactor=Redactor([KEY]))
    assert [source.url for source in cleaned.sources] == ["https://example.org/b"]
    assert cleaned.citations == response.citations
    many = response.model_copy(update={"related_questions": tuple(f"q{i}" for i in range(30))})
    assert len(clean_response(many, cap=10).related_questions) == 20


@pytest.mark.parametrize(
    "citations",
    [
        (),
        (SearchCitation(url="https://example.org/c"),),
        (SearchCitation(url="javascript:alert(1)"), SearchCitation(url="https://example.org/c")),
    ],
)
def test_the_quick_pass_keeps_citations_as_the_full_pass_does(
    citations: tuple[SearchCitation, ...],
) -> None:
    """Guard: no citations, clean ones and a bad one, each kept as the full pass keeps them.

    The quick pass skips its citation check when there are none (most providers send
    none), and reads the sources' URLs from the list the check joined; what it keeps must
    still be what the full pass (a dirty question forces it) keeps. Fails when the skip
    also skips citations that are there, and when the sources are judged by the wrong
    slice of that list (the last URLs, a citation's among them, instead of the first).
    """
    response = _response(url="https://user:pw@example.org/").model_copy(
        update={"citations": citations}
    )
    quick = clean_response(response, cap=10, redactor=Redactor([KEY]))
    dirty = response.model_copy(update={"related_questions": ("Dirty\x07",)})
    full = clean_response(dirty, cap=10, redactor=Redactor([KEY]))
    assert quick.related_questions == response.related_questions  # the quick pass ran
    assert full.related_questions == ("Dirty",)  # the full pass ran
    assert quick.citations == full.citations
    assert [c.url for c in quick.citations] == [c.url for c in citations if is_clean_url(c.url)]
    assert [source.url for source in quick.sources] == ["https://example.org/b"]


@pytest.mark.parametrize(
    ("field", "raw", "clean"),
    [
        ("title", "Ti\x1b[31mtle", "Title"),
        ("title", "Line\nbreak", "Linebreak"),
        ("snippet", "Keeps\nlines but not \x07bells", "Keeps\nlines but not bells"),
        ("snippet", "see https://user:pw@example.org/x", "see https://example.org/x"),
        ("snippet", "echoed " + KEY.lower(), "echoed ***"),
        ("snippet", "cut short " + KEY[:10] + "...", "cut short ***..."),
        ("snippet", "encoded " + base64.b64encode(KEY.encode()).decode(), "encoded ***"),
        ("title", "quoted " + quote(KEY, safe=""), "quoted ***"),
        ("author", "by \u202eevil", "by evil"),
        ("published_date", "2024\x00-01-01", "2024-01-01"),
    ],
)
def test_one_dirty_field_anywhere_gets_the_full_pass(field: str, raw: str, clean: str) -> None:
    cleaned = clean_response(_response(**{field: raw}), cap=10, redactor=Redactor([KEY]))
    assert getattr(cleaned.sources[0], field) == clean
    assert cleaned.sources[1].title == "Second"


def test_a_secret_in_a_citation_or_a_url_is_found() -> None:
    response = _response()
    leaked = response.model_copy(
        update={
            "citations": (SearchCitation(url="https://example.org/c", title=f"key {KEY}"),),
            "sources": (
                *response.sources,
                SearchSource(title="Leak", url=f"https://example.org/?key={KEY}"),
            ),
        }
    )
    cleaned = clean_response(leaked, cap=10, redactor=Redactor([KEY]))
    assert cleaned.citations[0].title == "key ***"
    assert [source.title for source in cleaned.sources] == ["A title", "Second"]


@pytest.mark.parametrize(
    ("dirt", "clean"),
    [
        (f"echoed {KEY}", "echoed ***"),
        ("bell\x07 rang", "bell rang"),
        ("see https://user:pw@example.org/x", "see https://example.org/x"),
        ("\u202eturned", "turned"),
    ],
)
def test_dirt_in_the_last_of_many_long_pages_gets_the_full_pass(dirt: str, clean: str) -> None:
    # Long pages are checked a group at a time (_GROUP_CHARACTERS): the last page's dirt
    # is in a group of its own, which must be checked as the first is.
    page = "Plenty of Markdown, one emoji \U0001f389.\n\n" * (_GROUP_CHARACTERS // 40)
    pages = [*([page] * 3), f"{page}{dirt}"]
    sources = tuple(
        SearchSource(
            title=f"Page {n}",
            url=f"https://example.org/{n}",
            content=provided_page(f"https://example.org/{n}", f"Page {n}", text),
        )
        for n, text in enumerate(pages)
    )
    response = SearchResponse(provider="p", sources=sources)
    assert len(list(_joined_groups(_texts(response)[1]))) >= 4
    cleaned = clean_response(response, cap=10, redactor=Redactor([KEY]))
    content = cleaned.sources[-1].content
    assert content is not None
    assert content.text == content.markdown == f"{page}{clean}"
    assert [source.content for source in cleaned.sources[:3]] == [
        source.content for source in sources[:3]
    ]
    clean_pages = response.model_copy(update={"sources": sources[:3]})
    assert clean_response(clean_pages, cap=10, redactor=Redactor([KEY])) is clean_pages


def test_a_secret_in_a_url_beside_many_long_pages_is_found() -> None:
    # The URLs are probed with the first group of pages only: a response whose pages fill
    # several groups must still have them probed.
    page = "Plenty of Markdown.\n\n" * (_GROUP_CHARACTERS // 10)
    sources = tuple(
        SearchSource(
            title=f"Page {n}",
            url=f"https://example.org/{n}" if n < 3 else f"https://example.org/?key={KEY}",
            content=provided_page(f"https://example.org/{n}", f"Page {n}", page),
        )
        for n in range(4)
    )
    response = SearchResponse(provider="p", sources=sources)
    cleaned = clean_response(response, cap=10, redactor=Redactor([KEY]))
    assert [source.title for source in cleaned.sources] == ["Page 0", "Page 1", "Page 2"]


@pytest.mark.parametrize(
    "text",
    [
        KEY,
        KEY.upper(),
        KEY.swapcase(),
        f"prefix{KEY}suffix",
        KEY[:8],
        quote(KEY, safe=""),
        base64.urlsafe_b64encode(KEY.encode()).decode().rstrip("="),
        "user:pass-word-1",
        "USER:PASS-WORD-1",
    ],
)
def test_the_probe_finds_whatever_the_redactor_masks(text: str) -> None:
    redactor = Redactor([KEY, "user:pass-word-1"])
    assert redactor(text) != text
    assert redactor.may_hold(f"around {text} it")


def test_the_probe_is_quiet_on_text_without_secrets() -> None:
    redactor = Redactor([KEY])
    assert not redactor.may_hold("Brave Search returns web results " * 20)
    assert not Redactor([]).may_hold(KEY)


def test_every_character_the_control_patterns_remove_is_unprintable() -> None:
    """So printable text (one ``isprintable`` scan) needs no search; line breaks and tabs
    are the only unprintable characters a block may keep, and its quick test drops them."""
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        if CONTROL_IN_LINE.match(char):
            assert not char.isprintable(), hex(code)
        if CONTROL_IN_TEXT.match(char):
            assert not char.isprintable() and char not in "\n\t\r", hex(code)


@pytest.mark.parametrize(
    ("field", "text"),
    [
        ("title", "no-break\xa0space"),
        ("title", "zero\u200dwidth joiner"),
        ("snippet", "two\nlines\tand a tab\r\n"),
        ("snippet", "line\nbreak and\xa0no-break space"),
        ("published_date", "2024\u20072024"),
    ],
)
def test_unprintable_but_clean_text_is_searched_and_left_alone(field: str, text: str) -> None:
    response = _response(**{field: text})
    assert not _needs_cleaning(response, Redactor([KEY]))  # no full pass for nothing
    assert clean_response(response, cap=10, redactor=Redactor([KEY])) is response


@pytest.mark.parametrize(
    ("field", "raw", "clean"),
    [
        ("snippet", "two\nlines, then a \x07bell", "two\nlines, then a bell"),
        ("snippet", "tab\there, \u202eoverride", "tab\there, override"),
        ("title", "no-break\xa0space, \x1b[2Jescape", "no-break\xa0space, escape"),
    ],
)
def test_a_control_after_an_allowed_unprintable_is_still_found(
    field: str, raw: str, clean: str
) -> None:
    cleaned = clean_response(_response(**{field: raw}), cap=10, redactor=Redactor([KEY]))
    assert getattr(cleaned.sources[0], field) == clean


def test_every_forbidden_url_character_is_a_space_or_unprintable() -> None:
    """So URLs run together that are printable and hold no space need no class search."""
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        if _URL_FORBIDDEN.match(char):
            assert char == " " or not char.isprintable(), hex(code)


_BACKTRACKING_PLAIN_URLS = re.compile(
    r"(?:[hH][tT][tT][pP][sS]?://[a-zA-Z0-9.-]+(?::[0-9]{1,4})?(?:[/?#][^ ]*)?(?: |\Z))+"
)
"""The joined-URL pattern as first written, without possessive quantifiers."""


def _random_url(rng: random.Random) -> str:
    scheme = rng.choice(["http://", "https://", "HTTPS://", "hTtP://", "ftp://", "https:/", ""])
    host = "".join(rng.choice("aZ09.-:_@ſé[]") for _ in range(rng.randrange(0, 6)))
    port = rng.choice(["", ":", ":8", ":80", ":8080", ":65535", ":1a"])
    rest = rng.choice(
        ["", "/", "?q", "#f", "/a:b@c", "/x y", "/p/https://q", "\\x", ":", "https://b"]
    )
    return scheme + host + port + rest


def test_the_possessive_url_pattern_accepts_what_backtracking_accepts() -> None:
    """Possessive quantifiers give nothing back; on URLs without spaces, each followed by
    a space, that changes no answer (seeded random lists of near-miss URLs)."""
    rng = random.Random(20261202)
    accepted = 0
    for _ in range(30_000):
        urls = [_random_url(rng) for _ in range(rng.randrange(1, 4))]
        if any(" " in url or not url for url in urls):
            continue
        backtracking = _BACKTRACKING_PLAIN_URLS.fullmatch(" ".join(urls)) is not None
        possessive = _PLAIN_URLS.fullmatch(f"{' '.join(urls)} ") is not None
        assert possessive is backtracking, urls
        accepted += possessive
        assert _all_plain(urls) is (backtracking and all(is_clean_url(url) for url in urls))
    assert accepted > 200  # the accepting branch was exercised, not only refusals


_ENTRY_URLS = [
    "https://example.org/{n}",
    "https://user:pw@example.org/{n}",  # dropped by both passes
    "javascript:void({n})",  # dropped by both passes
    "https://example.org/{n}?key=" + KEY,  # dropped by the full pass only (a secret)
]
_ENTRY_TEXTS = ["Plain {n}", "Bell\x07 {n}", "echoed " + KEY + " {n}", "Line\nbreak {n}"]


def _random_entries(rng: random.Random) -> tuple[tuple[SearchSource, ...], tuple[str, ...]]:
    """Sources mostly clean, with now and then a dirty URL or text, anywhere in the list."""
    sources = []
    for n in range(rng.randrange(0, 40)):
        url = rng.choice(_ENTRY_URLS) if rng.random() < 0.15 else _ENTRY_URLS[0]
        text = rng.choice(_ENTRY_TEXTS) if rng.random() < 0.1 else _ENTRY_TEXTS[0]
        sources.append(SearchSource(title=f"T{n}", url=url.format(n=n), snippet=text.format(n=n)))
    questions = tuple(rng.choice(_ENTRY_TEXTS).format(n=n) for n in range(rng.randrange(0, 30)))
    return tuple(sources), questions


def _spelled_out(
    response: SearchResponse, cap: int, mask: Redactor | None
) -> tuple[list[tuple[str, str, str | None]], list[tuple[str, str, str | None]], list[str]]:
    """What the full pass keeps, spelled out: the first ``cap`` entries whose URL is clean
    and holds no secret, their texts cleaned and masked; the first 20 questions."""

    def masked(text: str) -> str:
        return mask(text) if mask is not None else text

    def kept(entries: tuple[SearchSource, ...] | tuple[SearchCitation, ...], most: int) -> list:
        urls = [e for e in entries if is_clean_url(e.url) and masked(e.url) == e.url][:most]
        return [
            (
                e.url,
                masked(clean_text(e.title)),
                masked(
                    clean_text(
                        getattr(e, "snippet", None) or getattr(e, "cited_text", None) or "",
                        multiline=True,
                    )
                ),
            )
            for e in urls
        ]

    questions = [masked(clean_text(q)) for q in response.related_questions[:20]]
    return kept(response.sources, cap), kept(response.citations, 100), questions


def test_checking_only_what_can_be_kept_gives_the_full_pass_answer() -> None:
    """The check reads the entries up to the cap's last clean URL only; the answer must
    still be the full pass's, wherever a dirty text or a URL holding a secret is (one
    before the cut lets an entry past it in)."""
    rng = random.Random(20261205)
    cut = 0
    for _ in range(400):
        sources, questions = _random_entries(rng)
        citations = tuple(
            SearchCitation(url=source.url, title=source.title, cited_text=source.snippet)
            for source in sources[: rng.randrange(0, 4)]
        )
        response = SearchResponse(
            provider="p", sources=sources, citations=citations, related_questions=questions
        )
        cap, mask = rng.randrange(1, 12), rng.choice([Redactor([KEY]), None])
        answer = clean_response(response, cap=cap, redactor=mask)
        got = (
            [(s.url, s.title, s.snippet or "") for s in answer.sources],
            [(c.url, c.title, c.cited_text or "") for c in answer.citations],
            list(answer.related_questions),
        )
        assert got == _spelled_out(response, cap, mask), (cap, response)
        cut += len(response.sources) > cap
    assert cut > 100  # most responses had sources past the cap


_SLOW_PATH_URLS = [
    "https://example.org/{n}",
    "http://[::1]/{n}",  # clean, but only urlsplit says so (not the joined quick check)
    "https://bücher.example/{n}",  # the same for a non-ASCII host
    "https://user:pw@example.org/{n}",  # dropped
]


def test_a_cut_with_urls_only_the_slow_check_accepts_keeps_the_full_pass_answer() -> None:
    """Guard (passes before and after the change it watches): the cut at the cap is read
    by one joined check of the first ``cap`` URLs when all are plain, and by the URL
    check on each otherwise. Responses longer than the cap whose first entries hold URLs
    that are clean but not plain, or not clean, must still give the full pass's answer."""
    rng = random.Random(20261206)
    quick = 0
    for _ in range(600):
        sources = tuple(
            SearchSource(
                title=f"T{n}",
                url=(
                    rng.choice(_SLOW_PATH_URLS) if rng.random() < 0.2 else _SLOW_PATH_URLS[0]
                ).format(n=n),
                snippet=f"Plain {n}",
            )
            for n in range(rng.randrange(2, 30))
        )
        response = SearchResponse(provider="p", sources=sources)
        cap = rng.randrange(1, len(sources))
        answer = clean_response(response, cap=cap, redactor=rng.choice([Redactor([KEY]), None]))
        assert [s.url for s in answer.sources] == [s.url for s in sources if is_clean_url(s.url)][
            :cap
        ], (cap, sources)
        quick += _all_plain([s.url for s in sources[:cap]])
    assert 100 < quick < 550  # both ways of reading the cut were taken often


def test_every_ascii_character_in_joined_urls_is_judged_as_each_url_is() -> None:
    """Guard: ASCII URLs are told clean by their bytes, not ``isprintable``; each ASCII
    character in a path, a query, a host and at the end, alone and beside a clean URL,
    is kept or refused as ``is_clean_url`` keeps or refuses it, and as the class says."""
    refused = 0
    for code in range(0x80):
        char = chr(code)
        for url in (
            f"https://example.org/a{char}b",
            f"https://example.org/?q={char}",
            f"https://exa{char}mple.org/",
            f"https://example.org/{char}",
        ):
            for urls in ([url], ["https://example.org/clean", url]):
                expected = all(is_clean_url(each) for each in urls) and (
                    _PLAIN_URLS.fullmatch(f"{' '.join(urls)} ") is not None
                )
                assert _all_plain(urls) is expected, (hex(code), urls)
        forbidden = _URL_FORBIDDEN.search(char) is not None
        assert _all_plain([f"https://example.org/a{char}b"]) is not forbidden
        refused += forbidden
    assert refused == 0x22  # the 32 controls, the space and DEL
