"""Every provider against every filter, end to end through the simulator.

For each provider and each filter the test checks the request it sent (the filter as an
API parameter when declared ``native``, the directive in the query when declared
``query``, and no trace of the directive otherwise) and the results it returned (checked
locally when declared neither way), and that ``SearchResponse.filters`` says which.
The simulator's API providers ignore filters, as a leaky upstream would, so every local
check shows; its HTML engines apply the ``site:`` and ``filetype:`` they read, as the real
ones do, and what they trust the engine with holds on their answers too.
"""

import base64
import json
import re
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import unquote_plus, urlsplit

import pytest

from tests.functional._sim_helpers import sim_client
from websearch_core.credentials import CredentialStore, OAuthToken
from websearch_core.filters.redirects import is_redirect
from websearch_core.models import FilterName, SearchResponse, SearchSource
from websearch_core.providers import PROVIDER_REGISTRY, get_provider
from websearch_core.testing import RecordedRequest, SimResult, Simulator

TODAY = datetime.now(UTC)
QUERY = "laravel"
ENGINES = tuple(pid for pid in PROVIDER_REGISTRY if pid != "public")
_CLAIMS = {"https://api.openai.com/auth": {"chatgpt_account_id": "acct-filters"}}
CODEX_TOKEN = (
    "eyJhbGciOiJSUzI1NiJ9."
    + base64.urlsafe_b64encode(json.dumps(_CLAIMS).encode()).decode().rstrip("=")
    + ".sig"
)
"""Codex signs in with a ChatGPT token whose claims name the account."""
_VOLATILE_HEADERS = frozenset({"content-length", "date", "host", "cookie"})


def _iso(days_ago: int) -> str:
    return (TODAY - timedelta(days=days_ago)).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(frozen=True)
class Page:
    """One simulated result and when it was published (``None``: undated)."""

    url: str
    title: str
    snippet: str
    days_ago: int | None


PAGES = (
    Page("https://github.com/laravel/laravel", "Laravel framework", "The PHP framework.", 2),
    Page("https://builtin.com/laravel-guide.pdf", "Laravel guide", "A java view of PHP.", 40),
    Page("https://en.wikipedia.org/wiki/Laravel", "Laravel", "A free web framework.", 400),
    Page(
        "https://docs.github.com/laravel", "Laravel on Actions", "Deploy the web framework.", None
    ),
)


@dataclass(frozen=True)
class Case:
    """One filter: how it is asked, what its directive looks like, which pages pass."""

    name: FilterName
    query: str = QUERY
    params: dict[str, Any] = field(default_factory=dict)
    directive: str | None = None
    passes: Callable[[Page], bool] = lambda page: True
    dated: bool = False
    """Whether passing depends on the date (an undated page then always passes)."""
    label: str | None = None
    """The test id, where the filter is asked another way than its usual directive."""
    unsent: str | None = None
    """Text that must reach the provider only inside ``directive`` (a path ``-site:``'s
    host: in a native list it would exclude the whole site)."""


def _after(days: int) -> Callable[[Page], bool]:
    return lambda page: page.days_ago is not None and page.days_ago <= days


CASES = (
    Case(
        "include_domains",
        f"{QUERY} site:github.com",
        directive="site:github.com",
        passes=lambda page: "github.com/" in page.url,
    ),
    Case(
        "exclude_domains",
        f"{QUERY} -site:github.com",
        directive="-site:github.com",
        passes=lambda page: "github.com/" not in page.url,
    ),
    Case(
        "date_after",
        f"{QUERY} after:{(TODAY - timedelta(days=10)).date().isoformat()}",
        directive="after:",
        passes=_after(10),
        dated=True,
    ),
    Case(
        "date_before",
        f"{QUERY} before:{(TODAY - timedelta(days=30)).date().isoformat()}",
        directive="before:",
        passes=lambda page: page.days_ago is not None and page.days_ago >= 30,
        dated=True,
    ),
    Case("recency", params={"recency": "week"}, passes=_after(7), dated=True),
    Case("language", params={"language": "pt-BR"}),
    Case("country", params={"country": "AT"}),
    Case(
        "phrase",
        f'{QUERY} "web framework"',
        directive='"web framework"',
        passes=lambda page: "web framework" in page.snippet,
    ),
    Case(
        "exclude_terms",
        f"{QUERY} -java",
        directive="-java",
        passes=lambda page: "java" not in page.snippet,
    ),
    Case(
        "filetype",
        f"{QUERY} filetype:pdf",
        directive="filetype:",
        passes=lambda page: page.url.endswith(".pdf"),
    ),
    Case(
        "in_url",
        f"{QUERY} inurl:wiki",
        directive="inurl:wiki",
        passes=lambda page: "wiki" in page.url.lower(),
    ),
    Case(
        "exclude_in_url",
        f"{QUERY} -inurl:GitHub",
        directive="-inurl:GitHub",
        passes=lambda page: "github" not in page.url.lower(),
    ),
    Case(
        "in_title",
        f"{QUERY} intitle:Framework",
        directive="intitle:Framework",
        passes=lambda page: "framework" in page.title.lower(),
    ),
    Case(
        "exclude_in_title",
        f"{QUERY} -intitle:guide",
        directive="-intitle:guide",
        passes=lambda page: "guide" not in page.title.lower(),
    ),
    Case("in_text", f"{QUERY} intext:php", directive="intext:php"),
    Case(
        "exclude_domains",
        f"NOT site:github.com {QUERY}",
        directive="-site:github.com",
        passes=lambda page: "github.com/" not in page.url,
        label="not_site",
    ),
    Case(
        "exclude_terms",
        f"{QUERY} ! java",
        directive="-java",
        passes=lambda page: "java" not in page.snippet,
        label="bang_term",
    ),
    Case(
        "phrase",
        f"{QUERY} +framework",
        directive='"framework"',
        passes=lambda page: "framework" in page.snippet,
        label="plus_term",
    ),
    Case(
        "date_before",
        f"{QUERY} -before:{(TODAY - timedelta(days=30)).date().isoformat()}",
        directive="before:",
        passes=lambda page: page.days_ago is not None and page.days_ago >= 30,
        dated=True,
        label="negated_before",
    ),
    Case(
        "include_domains",
        f"{QUERY} site: github.com",
        directive="site:github.com",
        passes=lambda page: "github.com/" in page.url,
        label="spaced_site",
    ),
    Case(
        "exclude_terms",
        f'{QUERY} - "java view"',
        directive='-"java view"',
        passes=lambda page: "java view" not in page.snippet,
        label="dash_phrase",
    ),
    Case(
        "exclude_domains",
        f"{QUERY} --site:github.com",
        directive="-site:github.com",
        passes=lambda page: "github.com/" not in page.url,
        label="double_dash_site",
    ),
    Case(
        "include_domains",
        f"{QUERY} site:github.com/laravel/laravel",
        # No directive to look for: the HTML engines get the path site as a word (6.4),
        # the others its host (test_sim_query_directives checks each wire).
        passes=lambda page: page.url.startswith("https://github.com/laravel/laravel"),
        label="site_path",
    ),
    Case(
        "exclude_domains",
        f"{QUERY} -site:github.com/laravel/laravel",
        directive="-site:github.com/laravel/laravel",
        passes=lambda page: not page.url.startswith("https://github.com/laravel/laravel"),
        label="exclude_site_path",
        unsent="github.com",
    ),
    Case("language", f"{QUERY} lang:pt_BR", directive="lang:", label="lang_directive"),
)


def _wire(requests: list[RecordedRequest]) -> str:
    """Everything the provider sent, decoded: query strings and bodies, JSON unescaped."""
    parts: list[str] = []
    for request in requests:
        parts.append(unquote_plus(request.path))
        parts.extend(
            f"{name}: {value}"
            for name, value in sorted(request.headers.items())
            if name.lower() not in _VOLATILE_HEADERS
        )
        parts.extend(f"{key}={value}" for key, value in request.query)
        body = request.body.decode("utf-8", "replace")
        try:
            parts.append(json.dumps(json.loads(body), ensure_ascii=False).replace('\\"', '"'))
        except ValueError:
            parts.append(unquote_plus(body))
    return "\n".join(parts)


def _expected_ways(provider_id: str, case: Case) -> tuple[str, ...]:
    """What the provider's declaration promises for ``case``, read from its INFO."""
    support = get_provider(provider_id).info.filters
    if case.label == "site_path" and "in_url" in support.demoted:
        return ("post",)  # an HTML engine gets it as a word (reference 6.4), as its inurl:
    recency = case.params.get("recency")
    way = None if recency is not None and recency not in support.recency else support.way(case.name)
    if case.unsent is not None and way == "native":
        way = "query" if case.name in support.query_fallback else None  # hosts only there
    # An answer engine's sources are checked here for domains only (its answer is written
    # from them); what it can neither be sent nor checked on is ignored. No result holds
    # its page's whole text, so intext: is never checked here.
    uncheckable = ("language", "country", "in_text", "exclude_in_text")
    checkable = case.name not in uncheckable and support.checks(case.name)
    # Domains are checked even when sent; so is a query operator its docs do not list.
    verified = case.name.endswith("_domains") or (
        way == "query" and case.name in support.unpromised
    )
    if way is not None:
        return (way, "post") if verified and checkable else (way,)
    return ("post",) if checkable else ("ignored",)


@pytest.fixture
async def sim(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Simulator]:
    monkeypatch.setenv("WEBSEARCH_BROWSER", "off")  # scrapers keep the plain fetch
    async with Simulator(list(ENGINES)) as simulator:
        CredentialStore(simulator.settings().resolved_credentials_file()).set_oauth(
            "codex",
            OAuthToken(access_token=CODEX_TOKEN, refresh_token="r", expires_at=time.time() + 3600),
        )
        for provider_id in ENGINES:
            simulator[provider_id].results = [
                SimResult(
                    title=page.title,
                    url=page.url,
                    snippet=page.snippet,
                    published=None if page.days_ago is None else _iso(page.days_ago),
                )
                for page in PAGES
            ]
        yield simulator


async def _search(
    sim: Simulator, provider_id: str, case: Case | None
) -> tuple[SearchResponse, str]:
    sim[provider_id].requests.clear()
    query = case.query if case else QUERY
    params = case.params if case else {}
    async with sim_client(sim) as ws:
        result = await ws.run(query, provider=provider_id, use_cache=False, **params)
    return result.response, _wire(sim[provider_id].requests)


def _url(source: SearchSource) -> str:
    return source.url.rstrip("/")


@dataclass(frozen=True)
class Served:
    """What the provider made of the pages without any filter: order, dates, snippets."""

    urls: list[str]
    dated: set[str]
    described: set[str]
    """Pages it returns with a snippet, which a local phrase or term check reads."""
    verbatim: set[str]
    """Pages whose snippet is the page's own (an answer engine may quote its answer)."""
    titled: set[str] = field(default_factory=set)
    """Pages returned with a title of their own: not their URL or host, as an answer
    engine without titles gives (Gemini's is the site), nor a redirect's site (an
    ``intitle:`` check cannot read those)."""

    @classmethod
    def of(cls, response: SearchResponse) -> "Served":
        sources = response.sources
        return cls(
            urls=[_url(s) for s in sources],
            dated={_url(s) for s in sources if s.published_date or s.age_seconds is not None},
            described={_url(s) for s in sources if s.snippet},
            verbatim={
                _url(s)
                for s in sources
                for p in PAGES
                if _url(s) == p.url and s.snippet == p.snippet
            },
            titled={
                _url(s)
                for s in sources
                if s.title not in (s.url, urlsplit(s.url).hostname)
                and not is_redirect(urlsplit(s.url))
            },
        )

    def checkable(self, case: Case, page: Page) -> bool:
        """Whether a local check can tell: a date for date filters, a snippet for terms."""
        if case.dated:
            return page.url in self.dated
        if case.name in ("phrase", "exclude_terms"):
            return page.url in self.described
        if case.name in ("in_title", "exclude_in_title"):
            return page.url in self.titled
        return True

    def judged(self, case: Case, url: str) -> bool:
        """Whether this test can judge the page: for terms, only on the page's own snippet
        (an answer engine's snippet is its answer's text, judged by the unit tests)."""
        return case.name not in ("phrase", "exclude_terms") or url in self.verbatim

    def passes(self, case: Case, page: Page) -> bool:
        """Whether the page may be returned, judged on what this test knows of it."""
        if not self.judged(case, page.url):
            return True
        return case.passes(page) or not self.checkable(case, page)

    def pages(self) -> list[Page]:
        return [page for url in self.urls for page in PAGES if page.url == url]


def _assert_request(case: Case, ways: tuple[str, ...], wire: str, baseline_wire: str) -> None:
    """Native travels as a parameter, query as the directive, anything else leaves no trace."""
    if ways[0] == "native":
        assert wire != baseline_wire
        if case.directive is not None:
            assert case.directive not in wire
    elif ways[0] == "query" and case.directive is not None:
        assert case.directive in wire
    elif case.directive is not None:
        assert case.directive not in wire
        assert QUERY in wire
    if case.unsent is not None:
        assert case.unsent not in wire.replace(case.directive or case.unsent, "")


def _assert_results(
    case: Case, ways: tuple[str, ...], served: Served, response: SearchResponse
) -> None:
    returned = [_url(source) for source in response.sources]
    assert set(returned) <= set(served.urls)
    if "post" in ways:
        assert all(served.passes(case, page) for page in PAGES if page.url in returned)
    if ways == ("post",):  # the upstream was told nothing: only the local check dropped
        judged = [url for url in returned if served.judged(case, url)]
        assert judged == [
            page.url
            for page in served.pages()
            if served.judged(case, page.url) and served.passes(case, page)
        ]
    elif "post" not in ways:  # the simulator ignores most filters; some honour their own
        assert returned == [url for url in served.urls if url in returned]
    if not response.sources:
        assert "post" in ways and not any(served.passes(case, p) for p in served.pages())
        return
    (record,) = [f for f in response.filters if f.name == case.name]
    partly = "post" in ways and any(
        page.url in returned and not served.checkable(case, page) for page in PAGES
    )
    assert record.applied == ((*ways, "ignored") if partly else ways)


@pytest.mark.parametrize("case", CASES, ids=[case.label or case.name for case in CASES])
@pytest.mark.parametrize("provider_id", ENGINES)
async def test_each_filter_is_sent_checked_and_recorded_as_declared(
    sim: Simulator, provider_id: str, case: Case
) -> None:
    baseline, baseline_wire = await _search(sim, provider_id, None)
    assert baseline.provider == provider_id
    assert baseline.sources, f"{provider_id} serves the simulated pages"
    response, wire = await _search(sim, provider_id, case)
    assert response.provider == provider_id
    ways = _expected_ways(provider_id, case)
    _assert_request(case, ways, wire, baseline_wire)
    _assert_results(case, ways, Served.of(baseline), response)


async def test_when_every_result_fails_a_local_check_the_error_names_the_filters(
    sim: Simulator,
) -> None:
    sim["bing"].honour_operators = False  # an answer that leaks off the site, as Brave's did
    async with sim_client(sim) as ws:
        result = await ws.run(f"{QUERY} site:example.net", provider="bing", recency="week")
    # Every page served is off the site, so the site dropped each of them.
    dropped = len(PAGES)
    assert result.error == (
        f"Bing returned no results matching the filters (include_domains dropped {dropped})."
    )
    assert len(sim["bing"].requests) == 1


async def test_a_filter_every_result_met_is_not_named_when_another_dropped_them(
    sim: Simulator,
) -> None:
    # Both pages are on github.com and too new for the date: the date dropped them, not the
    # site. Before, the error named every filter checked, "(include_domains, date_before)",
    # and a caller loosening the site found the same nothing.
    on_site = [page for page in PAGES if page.url.startswith("https://github.com/")]
    sim["bing"].results = [
        SimResult(page.title, page.url, page.snippet, _iso(page.days_ago or 0)) for page in on_site
    ]
    async with sim_client(sim) as ws:
        result = await ws.run(f"{QUERY} site:github.com before:2000-01-01", provider="bing")
    assert result.error == (
        f"Bing returned no results matching the filters (date_before dropped {len(on_site)})."
    )


@pytest.mark.parametrize("provider_id", ENGINES)
async def test_a_lang_directive_is_sent_as_the_language_parameter_is(
    sim: Simulator, provider_id: str
) -> None:
    """``lang:`` sets the search's language (reference 6.2/6.5): on the wire the same as
    ``language=`` (Perplexity's, TinyFish's, SearXNG's, DuckDuckGo's fields...), and the
    directive leaves the query for every provider."""
    _, passed = await _search(sim, provider_id, Case("language", params={"language": "pt-BR"}))
    _, typed = await _search(sim, provider_id, Case("language", f"-language:PT_br {QUERY}"))
    assert _steady(typed) == _steady(passed)


_REQUEST_ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def _steady(wire: str) -> str:
    """``wire`` without the ids made anew for each request (a JSON-RPC call's UUID)."""
    return _REQUEST_ID.sub("<id>", wire)


ANSWER_ENGINES = tuple(pid for pid in ENGINES if get_provider(pid).info.kind == "answer")


@pytest.mark.parametrize("provider_id", ANSWER_ENGINES)
async def test_an_answer_engine_is_asked_the_question_as_written(
    sim: Simulator, provider_id: str
) -> None:
    asked = 'laravel "web framework" -java filetype:pdf'
    async with sim_client(sim) as ws:
        await ws.run(asked, provider=provider_id, use_cache=False)
    # Nothing a language model reads was taken out: "-java" still says "not java".
    assert asked in _wire(sim[provider_id].requests)


@pytest.mark.parametrize("provider_id", ANSWER_ENGINES)
async def test_an_answer_engine_keeps_the_sources_its_answer_was_written_from(
    sim: Simulator, provider_id: str
) -> None:
    baseline, _ = await _search(sim, provider_id, None)
    async with sim_client(sim) as ws:
        dated = await ws.run(
            'laravel "no page has this phrase"',
            provider=provider_id,
            use_cache=False,
            date_after="2100-01-01",
        )
    assert dated.error is None, dated.error
    assert [s.url for s in dated.response.sources] == [s.url for s in baseline.sources]
    records = {f.name: f.applied for f in dated.response.filters}
    support = get_provider(provider_id).info.filters
    assert records["phrase"] == ("query",)
    assert records["date_after"] == (support.way("date_after"),)
