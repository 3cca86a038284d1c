"""The README's later sections, claim by claim: failures, the state store, Filters, pages.

Stop 50 checked the quick start, Providers and the command line; "When providers fail or
run out", "The state store", "Filters" and "Page content" were read but their numbers,
names and examples were never held to the code. Each check here finds the README's
sentence (its value read from the README, so an edit that changes it is checked too) and
compares it with the constant, the function or the provider data that makes it true, so
a changed constant fails until the prose follows. All are guards (they passed on the code
they were written against) except where a docstring says it failed before.
"""

import re
from pathlib import Path

import pytest

from websearch_core.content.fetch import DEFAULT_MAX_PAGE_BYTES
from websearch_core.content.fetch_call import MAX_FETCH_SECONDS
from websearch_core.content.markup_guard import MAX_ATTRIBUTES
from websearch_core.content.refresh import MAX_REFRESH_SECONDS
from websearch_core.content.tool_text import NO_READABLE_TEXT
from websearch_core.deadline import (
    CANDIDATES_NAMED,
    STORE_GRACE_SECONDS,
    STORE_SHARE,
    STORE_SHARE_CAP_SECONDS,
    Deadline,
    not_tried_text,
)
from websearch_core.filters.query import parse_date_value, parse_domain, tokenize
from websearch_core.providers import PROVIDER_REGISTRY, get_provider
from websearch_core.providers.kimi import FIVE_HOURS, SEVEN_DAYS
from websearch_core.redaction import MIN_TOKEN_LENGTH
from websearch_core.settings import Settings
from websearch_core.state._count_times import RUNS_KEPT
from websearch_core.state._redis_scripts import (
    CLEAR_ALL_BATCH,
    MAX_WRITE_AGE_SECONDS,
    RESET_KEPT_SECONDS,
)
from websearch_core.state._threaded import CLOSE_GRACE_SECONDS
from websearch_core.state.failsafe import RETRY_AFTER
from websearch_core.state.sqlite import FLUSH_AFTER, OWED_WRITE_WAIT
from websearch_core.status import STATE_WAIT_SECONDS
from websearch_core.transport import MAX_HINT_SECONDS

README = Path(__file__).resolve().parents[2] / "README.md"
WORDS = {"a": 1, "one": 1, "two": 2, "five": 5, "six": 6, "seven": 7}
"""Numbers the prose spells out."""
FRACTIONS = {
    "half a second": 0.5,
    "half second": 0.5,
    "a quarter of a second": 0.25,
    "a day": 86_400,
}
"""Spans the prose gives in words."""
DAY = 86_400.0
HOUR = 3_600.0


def _prose() -> str:
    """The README with its line breaks and runs of spaces joined."""
    return " ".join(README.read_text(encoding="utf-8").split())


def _numbers(pattern: str) -> set[float]:
    """Every value ``pattern``'s group ``n`` captures in the prose (at least one)."""
    found = [match["n"] for match in re.finditer(pattern, _prose())]
    assert found, f"the README no longer says {pattern!r}: update this check with it"
    values = set()
    for text in found:
        spelled = FRACTIONS.get(text, WORDS.get(text.lower()))
        values.add(float(spelled if spelled is not None else text.replace(",", "")))
    return values


@pytest.mark.parametrize(
    ("pattern", "value"),
    [
        # When providers fail or run out
        (r"skipped for the window's whole length \((?P<n>\d+) hours,", FIVE_HOURS / HOUR),
        (r"skipped for the window's whole length \(\d+ hours, (?P<n>\d+) days", SEVEN_DAYS / DAY),
        (r"names no period: (?P<n>\d+) hours, the shorter window", FIVE_HOURS / HOUR),
        (r"candidates, (?P<n>\w+) at most", CANDIDATES_NAMED),
        (r"get a tenth of the deadline only \(at least (?P<n>[\d.]+) s", STORE_GRACE_SECONDS),
        (r"a tenth of the deadline only \(at least [\d.]+ s, at most (?P<n>\d+) s", 1.0),
        (r"begun at the deadline still gets (?P<n>[\d.]+) s", STORE_GRACE_SECONDS),
        (r"is searched without for (?P<n>\d+) s, as a broken one is", RETRY_AFTER),
        (r"clamped to at most (?P<n>\d+) days or ignored", MAX_HINT_SECONDS / DAY),
        (r"masked as a token when it is (?P<n>\d+) characters or longer", MIN_TOKEN_LENGTH),
        # The state store
        (r"its stale window \((?P<n>\d+) days by default\)", Settings().cache_stale_seconds / DAY),
        (r"for its own cache write a tenth of the deadline at most \((?P<n>\d+) s\)", 1.0),
        (r"its resets wait (?P<n>\d+) s for a store that does not answer", STATE_WAIT_SECONDS),
        (r"other processes within (?P<n>half a second)", FLUSH_AFTER),
        (r"finds the entry within (?P<n>half a second)", FLUSH_AFTER),
        (r"lose at most that last (?P<n>half second) of counts", FLUSH_AFTER),
        (r"Closing a `WebSearch` waits (?P<n>\d+) s at most", CLOSE_GRACE_SECONDS),
        (r"SQLite waits (?P<n>a quarter of a second) for another", OWED_WRITE_WAIT),
        (r"(?P<n>\d+) spans per counter", RUNS_KEPT),
        (r"when over (?P<n>[\d,]+) keys are left", CLEAR_ALL_BATCH),
        (r"The time is kept for (?P<n>a day)", RESET_KEPT_SECONDS),
        (r"held up in this process longer than (?P<n>\d+) hours", MAX_WRITE_AGE_SECONDS / HOUR),
        # Page content
        (r"is at most (?P<n>\d+) s, as a search's deadline", MAX_FETCH_SECONDS),
        (r"`<meta http-equiv=\"refresh\">` moves on within (?P<n>\d+) s", MAX_REFRESH_SECONDS),
        (r"A body over (?P<n>\d+) MiB", DEFAULT_MAX_PAGE_BYTES / 2**20),
        (r"an element of (?P<n>\d+) or more attributes", MAX_ATTRIBUTES),
        (r"a tenth of its deadline each \(at least (?P<n>[\d.]+) s", STORE_GRACE_SECONDS),
        (r"a tenth of its deadline each \(at least [\d.]+ s, at most (?P<n>\d+) s", 1.0),
        (r"The store is then fetched without for (?P<n>\d+) s", RETRY_AFTER),
    ],
)
def test_each_stated_number_is_the_constant_s(pattern: str, value: float) -> None:
    """A guard: the number the sentence states is the one the code uses."""
    assert _numbers(pattern) == {float(value)}, pattern


def test_a_tenth_at_most_one_second_is_the_store_share() -> None:
    """A guard: "a tenth" and "1 s" are the share and its cap the waits are given."""
    assert STORE_SHARE == 0.1
    assert STORE_SHARE_CAP_SECONDS == 1.0


def test_the_largest_documented_count_is_the_providers_largest() -> None:
    """A guard: "twice the largest count any provider documents, 100" is the registry's."""
    (stated,) = _numbers(r"the largest count any provider documents, (?P<n>\d+)\)")
    largest = max(get_provider(pid).info.max_results or 0 for pid in PROVIDER_REGISTRY)
    assert stated == largest


def test_the_not_tried_examples_are_the_texts_the_code_writes() -> None:
    """A guard: both "not tried" examples are what :func:`not_tried_text` ends with."""
    text = _prose()
    plan = not_tried_text(Deadline(2.0), ["brave"], unknown=["tavily", "exa"])
    nothing = not_tried_text(Deadline(2.0), [], unknown=["exa", "brave"])
    for written in (plan, nothing):
        tail = written.partition("; ")[2]
        assert f"`{tail}`" in text, tail


def test_the_stated_literals_are_the_code_s() -> None:
    """A guard: texts the sections quote, each found in the README and made by the code."""
    text = _prose()
    assert f"`({NO_READABLE_TEXT})`" in text
    assert "Filters not applied: language=de (language=fr used instead)." in text


def _labels(pids: list[str]) -> list[str]:
    return [get_provider(pid).info.label for pid in pids]


def test_the_providers_sent_or_groups_flat_are_the_registry_s() -> None:
    """A guard: the eight "the reference gives them no `OR`" are those with ``reads_or`` off."""
    found = re.search(
        r"as `a b` to (?P<names>[^(]+) \(the reference gives them no `OR`\)", _prose()
    )
    assert found is not None
    named = set(re.split(r", | and ", found["names"]))
    flat = [pid for pid in PROVIDER_REGISTRY if not get_provider(pid).info.filters.reads_or]
    assert named == set(_labels(flat))


def test_the_providers_taking_two_letter_codes_only_are_the_registry_s() -> None:
    """A guard: "Perplexity, TinyFish, Brave and DuckDuckGo take two-letter codes only"."""
    found = re.search(r"; (?P<names>[^;]+) take two-letter codes only", _prose())
    assert found is not None
    named = set(re.split(r", | and ", found["names"]))
    two = [p for p in PROVIDER_REGISTRY if get_provider(p).info.filters.two_letter_language]
    assert named == set(_labels(two))


def test_the_stated_domain_limits_are_the_providers() -> None:
    """A guard: xAI's five domains and Perplexity's 20 are their ``domain_limit``."""
    text = _prose()
    (xai,) = _numbers(r"xAI's `web_search` tool takes at most (?P<n>\w+) domains")
    (perplexity,) = _numbers(r"Perplexity's `search_domain_filter` at most (?P<n>\d+)")
    assert xai == get_provider("xai").info.filters.domain_limit
    assert perplexity == get_provider("perplexity").info.filters.domain_limit
    assert "never both" in text
    for pid in ("xai", "perplexity", "anthropic"):
        assert get_provider(pid).info.filters.one_domain_list, pid


def _read(query: str) -> list[tuple[str, str, str]]:
    return [(token.kind, token.value, token.path) for token in tokenize(query)]


SAME_READINGS = [
    ("`NOT site:x.org` is `-site:x.org`", "NOT site:x.org", "-site:x.org"),
    ("`!site:x.org` too", "!site:x.org", "-site:x.org"),
    ("`NOT -java` and `NOT NOT java` are `-java`", "NOT -java", "-java"),
    ("`NOT -java` and `NOT NOT java` are `-java`", "NOT NOT java", "-java"),
    ("(`-before:2025` is `before:2025`)", "-before:2025", "before:2025"),
    ("(`- site:x.org` is `site:x.org`)", "- site:x.org", "site:x.org"),
    ("`--site:x.org` is `-site:x.org`", "--site:x.org", "-site:x.org"),
    ("(`site: x.org`)", "site: x.org", "site:x.org"),
    ("(`(a OR b) c` is `a OR b c`", "(a OR b) c", "a OR b c"),
    (
        "`(site:a.org OR site:b.org)` two sites",
        "(site:a.org OR site:b.org)",
        "site:a.org OR site:b.org",
    ),
    ("(`“a b”`, `intitle:“a b”`): they read", "“a b”", '"a b"'),
    ("(`“a b”`, `intitle:“a b”`): they read", "intitle:“a b”", 'intitle:"a b"'),
    ('(`x"a b"` is `x` and the phrase `"a b"`)', 'x"a b"', 'x "a b"'),
]
"""Each "A is B" the Filters section writes: its words there, then A and B."""


@pytest.mark.parametrize(("sentence", "typed", "same"), SAME_READINGS)
def test_each_query_the_filters_section_equates_reads_the_same(
    sentence: str, typed: str, same: str
) -> None:
    """A guard: each pair the section equates is read alike."""
    assert sentence in _prose(), sentence
    assert _read(typed) == _read(same)


def test_the_all_mode_example_reads_as_the_section_says() -> None:
    """Failed before: `allintitle:a b -c` did not read as `intitle:a intitle:b -intitle:c`.

    The code read the last word as `intitle:-c`: a `-term` wants two letters (so `gcc -c`
    keeps its flag), and the example's one-letter `-c` was a word. The example is now a
    real word, read from the README here.
    """
    found = re.search(
        r"`(?P<typed>allintitle:[^`]+)` \(and `allinurl:`, `allintext:`\) puts its value and "
        r"every plain word after it in that field and a `-term` in its negation: `(?P<same>[^`]+)`",
        _prose(),
    )
    assert found is not None, "the README no longer gives the all mode's example"
    assert _read(found["typed"]) == _read(found["same"])


def test_a_one_letter_dash_word_is_no_excluded_term() -> None:
    """A guard on the rule the README example fell foul of: `-c` stays a word."""
    assert [t.kind for t in tokenize("gcc -c")] == ["text", "text"]


@pytest.mark.parametrize(
    ("sentence", "typed", "domain"),
    [
        ("(`site:https://*.docs.rs/` is `docs.rs`)", "https://*.docs.rs/", "docs.rs"),
        ("(`bücher.de`, sent and compared as `xn--bcher-kva.de`", "bücher.de", "xn--bcher-kva.de"),
        ("`straße.de` is `xn--strae-oqa.de`, not", "straße.de", "xn--strae-oqa.de"),
    ],
)
def test_each_stated_site_form_is_the_domain_the_code_reads(
    sentence: str, typed: str, domain: str
) -> None:
    """A guard: a site's stated forms read as the README says."""
    assert sentence in _prose(), sentence
    assert parse_domain(typed) == domain


def test_the_refused_sites_and_file_types_refuse_the_search() -> None:
    """A guard: `site:example.com:8080`, `site:x.com?y=1`, `filetype:pdf,docx` are refused."""
    from websearch_core.models import SearchParams

    text = _prose()
    for query in ("site:example.com:8080", "site:x.com?y=1", "filetype:pdf,docx"):
        assert f"`{query}`" in text, query
        with pytest.raises(ValueError, match=re.escape(query.partition(",")[0])):
            SearchParams(query=query)
    assert "`filetype:pdf OR filetype:docx`" in text
    SearchParams(query="filetype:pdf OR filetype:docx")
    SearchParams(query='"site:x.com:8080"')  # quoted, it is searched as words


def test_dates_read_as_the_filters_section_says() -> None:
    """A guard: `MM/DD/YYYY` month first, `31.01.2025` day first, `/` and `.` between."""
    text = _prose()
    assert "`MM/DD/YYYY` is read month first unless the first part is over 12 (`31.01.2025`)" in (
        text
    )
    assert str(parse_date_value("01/31/2025", end=False)) == "2025-01-31"
    assert str(parse_date_value("31.01.2025", end=False)) == "2025-01-31"
    assert str(parse_date_value("2025/01/01", end=False)) == "2025-01-01"


def test_language_words_read_as_the_filters_section_says() -> None:
    """A guard: `lang:haw` is read, `lang:rust` stays a word, `language:pt_BR` is read."""
    text = _prose()
    for word in ("`lang:rust`", "`lang:haw`", "`language:pt_BR`"):
        assert word in text, word
    assert [t.kind for t in tokenize("lang:haw")] == ["lang"]
    assert [t.kind for t in tokenize("language:pt_BR")] == ["lang"]
    for word in ("lang:rust", "lang:go", "lang:js"):
        assert [t.kind for t in tokenize(word)] == ["text"], word


def _quoted_texts() -> list[tuple[str, str]]:
    """Each text the failure and page sections quote, as written, and the code's text."""
    from websearch_core.connection_causes import (
        connect_unfinished,
        lookup_unanswered,
        sent_through_proxy,
    )
    from websearch_core.format import LONE_HOST_HINTS, LOOPBACK_HINT

    dns, connect, proxy, loopback, page_loopback = LONE_HOST_HINTS
    return [
        (f"`{page_loopback}`", page_loopback),
        (f"`{LOOPBACK_HINT[:140]}", LOOPBACK_HINT),
        ("`Nothing listens at that loopback address (this machine): ...`", loopback),
        (f"`{dns}`", dns),
        ("(`If the address is right, this machine's network looks blocked: ...`", connect),
        ("`The proxy looks down: ...`", proxy),
        (f"`... {lookup_unanswered('x', '3').partition(' ')[2]}", lookup_unanswered("x", "3")),
        (f"`{connect_unfinished(False, '3')}`", connect_unfinished(False, "3")),
        (
            f"`... timed out after 3s{sent_through_proxy('HTTP_PROXY')}`",
            f"timed out after 3s{sent_through_proxy('HTTP_PROXY')}",
        ),
    ]


def test_the_quoted_failure_texts_are_the_code_s() -> None:
    """A guard: each quoted hint or cause, "..." aside, is what the code writes."""
    text = _prose()
    for quoted, made in _quoted_texts():
        assert quoted in text, quoted
        for part in quoted.strip("(`").split("..."):
            assert part.strip(" `:") in made, (part, made)


def test_the_credits_exhausted_text_is_the_transport_s() -> None:
    """A guard: the spent-quota text keeps the reference's ``<id>: credits exhausted``."""
    source = (README.parent / "websearch_core" / "transport.py").read_text(encoding="utf-8")
    assert "`<id>: credits exhausted`" in _prose()
    assert 'f"{provider}: credits exhausted"' in source


def test_the_journal_and_moved_aside_names_are_the_store_s() -> None:
    """A guard: `state.sqlite3.owed-*.json` and `.broken-<time>.owed-*` are the names used."""
    from websearch_core.state.base import STATE_FILE_NAME

    text = _prose()
    assert f"(`{STATE_FILE_NAME}.owed-*.json`" in text
    assert f"(`{STATE_FILE_NAME}.broken-<time>.owed-*`)" in text


def _filter_rows() -> list[list[str]]:
    """The Filters section's first table: query forms, parameter, CLI option, per row."""
    text = README.read_text(encoding="utf-8")
    table = text.split("| in the query | parameter | CLI |", 1)[1].split("\n\n", 1)[0]
    rows = [line for line in table.splitlines()[2:] if line.startswith("|")]
    return [[cell.strip() for cell in re.split(r"(?<!\\)\|", row)[1:-1]] for row in rows]


QUERY_KINDS = {
    "include_domains": "site",
    "exclude_domains": "exclude_site",
    "date_after": "after",
    "date_before": "before",
    "language": "lang",
}
"""The token a parameter's query form reads as."""


def test_each_filter_row_s_parameter_option_and_query_forms_are_the_code_s() -> None:
    """A guard: the table's parameter is a ``SearchParams`` field, its option sets it (a
    repeatable one appends), and every query form it lists (aliases too) reads as it."""
    from websearch_core.cli import _SEARCH_FLAGS, _search_parser
    from websearch_core.models import SearchParams

    options = {
        action.option_strings[0]: action
        for action in _search_parser()._actions
        if action.option_strings
    }
    checked = 0
    for query_cell, parameter, cli in _filter_rows():
        if not parameter:
            continue
        checked += 1
        name = parameter.strip("`")
        assert name in SearchParams.model_fields, name
        flag = cli.strip("`").split()[0]
        assert _SEARCH_FLAGS[name] == flag, (name, flag)
        assert (type(options[flag]).__name__ == "_AppendAction") == ("(repeatable)" in cli)
        if not query_cell:
            continue
        first = re.match(r"`(?P<name>-?)(?P<word>\w+):(?P<value>[^`]+)`", query_cell)
        assert first is not None, query_cell
        aliases = [first["word"], *re.findall(r"`-?(\w+):`", query_cell)]
        for alias in aliases:
            typed = f"{first['name']}{alias}:{first['value']}"
            assert [t.kind for t in tokenize(typed)] == [QUERY_KINDS[name]], typed
    assert checked == 7


def test_the_operator_words_that_keep_their_cache_entry_are_the_key_s() -> None:
    """A guard: "`OR`, `AND`, `NOT` and `NEAR` keep theirs", and case and spacing share one."""
    from websearch_core.cache import _OPERATOR_WORDS, cache_key
    from websearch_core.models import SearchParams

    found = re.search(r"the capital operator words (?P<words>.+?) keep theirs", _prose())
    assert found is not None
    assert set(re.findall(r"`(\w+)`", found["words"])) == _OPERATOR_WORDS
    same = {cache_key(SearchParams(query=q), "s") for q in ("Rust  Book", "rust book")}
    assert len(same) == 1
    assert cache_key(SearchParams(query="a OR b"), "s") != cache_key(
        SearchParams(query="a or b"), "s"
    )


def test_the_providers_whose_page_is_kept_are_those_that_send_one() -> None:
    """A guard: "Tavily's raw content, Exa's text, Firecrawl's Markdown, Jina's content"
    names every provider whose reader keeps a sent page (``provided_page``), no other."""
    found = re.search(
        r"A result whose provider already sent the page \((?P<list>[^)]+)\)", _prose()
    )
    assert found is not None
    named = {item.split("'s ")[0] for item in found["list"].split(", ")}
    readers = (README.parent / "websearch_core" / "providers").glob("_*_parse.py")
    senders = {
        path.stem[1:].removesuffix("_parse")
        for path in readers
        if "provided_page(" in path.read_text(encoding="utf-8")
    }
    assert named == set(_labels(sorted(senders)))


def test_a_mark_the_reset_command_ends_is_one_longer_than_an_hour() -> None:
    """A guard: "a skip for a mark longer than an hour ... ends with that command"."""
    from websearch_core.orchestration.quota import LONG_MARK_SECONDS

    assert "a skip for a mark longer than an hour" in _prose()
    assert LONG_MARK_SECONDS == HOUR


WORDS_IN = {"inurl": ("in_url", "exclude_in_url"), "intitle": ("in_title", "exclude_in_title")}
WORDS_IN["intext"] = ("in_text", "exclude_in_text")


def _sent(pid: str) -> set[str]:
    """The words-in directives ``pid`` is sent as operators (``-inurl:`` as ``-inurl``)."""
    support = get_provider(pid).info.filters
    sent = set()
    for operator, (wanted, unwanted) in WORDS_IN.items():
        if wanted in support.query | support.native and wanted not in support.demoted:
            sent.add(operator)
        if unwanted in support.query | support.native:
            sent.add(f"-{operator}")
    return sent


def test_who_is_sent_inurl_intitle_and_intext_is_the_registry_s() -> None:
    """Failed before: the README sent `intext:` to every HTML engine, Mojeek included.

    Mojeek's query (the reference's scraper query of phrases, negation and sites) carries no
    `intext:`, which the code leaves out and records ``ignored``; the sentence now names it.
    Each list is read from the README: all three to the first, `inurl:` and `intitle:`
    alone to the second, none to the rest; the HTML engines get a wanted `inurl:` as a word.
    """
    text = _prose()
    found = re.search(
        r"all three with Google's syntax \((?P<all>[^)]+) and the HTML engines\), `inurl:` and "
        r"`intitle:` alone to (?P<two>[^;]+); the others are not sent them\. The HTML engines "
        r"\((?P<html>[^)]+)\) get a wanted `inurl:docs` as the word `docs`, as the reference's "
        r"scraper query does, and Mojeek no (?P<mojeek>[^.]+)\.",
        text,
    )
    assert found is not None, "the README no longer says who is sent which words-in directive"
    by_label = {get_provider(pid).info.label: pid for pid in PROVIDER_REGISTRY}

    def ids(names: str) -> set[str]:
        return {by_label[name] for name in re.split(r", | and ", names)}

    html = ids(found["html"])
    every = {"inurl", "-inurl", "intitle", "-intitle", "intext", "-intext"}
    mojeek_lacks = {f"{d}" for d in re.findall(r"`(-?\w+):`", found["mojeek"])}
    for pid in ids(found["all"]) | html:
        expected = every - {"inurl"} if pid in html else every
        if pid == "mojeek":
            expected = expected - mojeek_lacks - {f"-{d}" for d in mojeek_lacks}
        assert _sent(pid) == expected, pid
    for pid in ids(found["two"]):
        assert _sent(pid) == {"inurl", "-inurl", "intitle", "-intitle"}, pid
    named = ids(found["all"]) | html | ids(found["two"])
    for pid in set(PROVIDER_REGISTRY) - named - {"public"}:
        assert _sent(pid) == set(), pid
    for pid in PROVIDER_REGISTRY:
        demoted = "in_url" in get_provider(pid).info.filters.demoted
        assert demoted == (pid in html), pid


def test_the_domain_parameters_and_query_refusals_are_as_stated() -> None:
    """A guard: a domain with a path, a port or an IP address is refused, a control
    character (a tab or a line break aside) or a lone surrogate too, an IDN is encoded."""
    from websearch_core.models import SearchParams

    text = _prose()
    assert "a value with a path, a port or an IP address is refused saying so" in text
    assert "(a tab or a line break aside) or a lone surrogate is refused naming it" in text
    for domain in ("github.com/anthropics", "example.com:8080", "192.0.2.1"):
        with pytest.raises(ValueError):
            SearchParams(query="x", include_domains=[domain])
    for query in ("a\x01b", "a\ud800b"):
        with pytest.raises(ValueError):
            SearchParams(query=query)
    SearchParams(query="a\tb\nc")
    assert SearchParams(query="x", exclude_domains=["bücher.de"]).exclude_domains == (
        "xn--bcher-kva.de",
    )


def test_the_page_section_s_names_are_the_library_s() -> None:
    """A guard: the names the page and state sections send a reader to exist as written."""
    import langchain_websearch
    import llamaindex_websearch
    import websearch_core.state
    from websearch_core import WebSearch
    from websearch_core.content import FetchFailedError, FetchRefusedError
    from websearch_core.content.safety import ALLOW_PRIVATE_ENV

    text = _prose()
    for name in ("provider_status", "reset_provider", "fetch", "fetch_many", "fetch_sync"):
        assert name in text and callable(getattr(WebSearch, name)), name
    assert "`websearch_core.state.StateStoreTimeoutError`" in text
    assert issubclass(websearch_core.state.StateStoreTimeoutError, Exception)
    assert "`langchain_websearch.WebFetchTool`" in text and langchain_websearch.WebFetchTool
    assert "`llamaindex_websearch.create_web_fetch_tool()`" in text
    assert callable(llamaindex_websearch.create_web_fetch_tool)
    assert f"`{ALLOW_PRIVATE_ENV}=1`" in text
    assert "`FetchFailedError.unreached`" in text and FetchFailedError and FetchRefusedError
    assert "`WEBSEARCH_FENCE_RESULTS=1`" in text
    assert Settings.model_fields["fence_results"].default is False
