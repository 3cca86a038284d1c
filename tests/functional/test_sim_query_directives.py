"""What query text each provider receives for each kind of directive typed in it.

The behaviour reference (section 6.5, "Per-provider query mapping") says, per provider,
which directives stay in the query it is sent: a quoted phrase keeps its quotes for every
provider, ``-term`` for all but Exa, and ``site:`` / ``-site:``, ``filetype:`` and the dates
where the provider reads them there rather than in a parameter of its own. Before, a quoted
phrase reached Tavily, Exa, Kimi, Z.AI, Synthetic, TinyFish, Jina and Parallel without its
quotes, which asks for the words anywhere on the page. The expectations are written out
per directive here, not read from the providers' records, so a wrong record shows; they
are checked on the request each loopback simulator received.

Where we differ from the reference on purpose (a parameter the provider's own docs or
server name), the table follows our behaviour; RESULTS "Stop 45
(phrases)" lists each. ``inurl:``, ``intitle:`` and ``intext:`` (and their negations)
follow the reference's flags (``inUrl``, ``inTitle``, ``inText``), a wanted ``inurl:``
going to the HTML engines as a word (its ``formatScraperQuery``), as does a site with a
path; the others are sent its host.
"""

import base64
import json
import time
from collections.abc import AsyncIterator, Iterator, Mapping
from typing import Any
from urllib.parse import unquote

import pytest

from tests.functional._sim_helpers import sim_client
from websearch_core.credentials import CredentialStore, OAuthToken
from websearch_core.providers import provider_ids
from websearch_core.testing import RecordedRequest, Simulator

PROVIDERS = tuple(pid for pid in provider_ids() if pid != "public")
"""Every provider with a wire of its own (Public Web sends what its engines send)."""
_CODEX_CLAIMS = {"https://api.openai.com/auth": {"chatgpt_account_id": "acct-directives"}}
CODEX_TOKEN = ".".join(
    (
        "eyJhbGciOiJSUzI1NiJ9",
        base64.urlsafe_b64encode(json.dumps(_CODEX_CLAIMS).encode()).decode().rstrip("="),
        "sig",
    )
)
"""Codex searches only when signed in, with a ChatGPT token whose claims name the account."""

TYPED: Mapping[str, str] = {
    "phrase": 'rust "error handling" guide',
    "exclude_term": "rust async -tokio",
    "or_group": "rust OR golang tutorial",
    "site": "rust guide site:github.com",
    "exclude_site": "rust guide -site:reddit.com",
    "inurl": "rust guide inurl:docs",
    "exclude_inurl": "rust guide -inurl:forum",
    "intitle": "rust guide intitle:faq",
    "exclude_intitle": "rust guide -intitle:faq",
    "intext": "rust guide intext:borrow",
    "order": "intitle:faq rust guide",
    "filetype": "rust guide filetype:pdf",
    "dates": "rust guide after:2025-01-01 before:2025-06-30",
    "not_term": "rust async NOT tokio",
    "bang_site": "rust guide ! site:reddit.com",
    "not_inurl": "rust guide NOT inurl:forum",
    "pipe_or": "rust | golang tutorial",
    "and": "rust AND guide && tips",
    "plus_term": "rust +borrow guide",
    "negated_dates": "rust guide -after:2025-01-01 NOT before:2025-06-30",
    "spaced_site": "rust guide site: github.com",
    "dash_phrase": 'rust async - "tokio runtime"',
    "double_dash_site": "rust guide --site:reddit.com",
    "site_path": "rust guide site:github.com/Rust-Lang",
    "parens_or": "(rust OR golang) tutorial",
    "paren_site": "rust guide (site:github.com)",
    "dash_site": "rust guide - site:github.com",
    "lang": "rust guide lang:de",
    "not_dashed_term": "rust async NOT -tokio",
    "not_not_term": "rust async NOT NOT tokio",
    "curly_phrase": "rust \u201cerror handling\u201d guide",
    "site_path_whole": "rust guide site:github.com/Rust-Lang site:github.com",
}
"""One query per directive kind, the directive last (the reference writes them last), but
for ``order``, which checks that a directive typed first goes out after the words."""
READ_AS: Mapping[str, str] = {
    "not_term": "exclude_term",
    "bang_site": "exclude_site",
    "not_inurl": "exclude_inurl",
    "pipe_or": "or_group",
    "negated_dates": "dates",
    "spaced_site": "site",
    "double_dash_site": "exclude_site",
    "parens_or": "or_group",
    "paren_site": "site",
    "dash_site": "site",
    "not_dashed_term": "exclude_term",
    "not_not_term": "exclude_term",
    "curly_phrase": "phrase",
}
"""The operators (reference 6.2) sent as the directive they mean: ``NOT x`` / ``! x`` as
``-x``, ``|`` as ``OR``; a negated date as the date (the dash is ignored on dates); an
empty value with the next token (``site: x``), ``--site:`` as ``-site:``; parentheses
dropped (6.1), a lone ``-`` before no phrase dropped (``- site:x`` is ``site:x``); ``NOT``
before a ``-term`` or another ``NOT`` as one ``-`` (a flag, no toggle); typographic quotes
as straight ones (6.1)."""

LEFT_OUT: Mapping[str, tuple[str, frozenset[str]]] = {
    "exclude_term": ("rust async", frozenset({"exa"})),
    "dash_phrase": ("rust async", frozenset({"exa"})),
    "site": (
        "rust guide",
        frozenset(
            {"perplexity", "anthropic", "xai", "exa", "jina", "tavily", "firecrawl", "parallel"}
        ),
    ),
    "exclude_site": (
        "rust guide",
        frozenset({"perplexity", "anthropic", "xai", "exa", "tavily", "firecrawl", "parallel"}),
    ),
    "filetype": (
        "rust guide",
        frozenset({"exa", "tavily", "parallel", "synthetic", "searxng", "mojeek"}),
    ),
}
"""Per directive kind: the query without it, and the providers sent that instead (the
directive goes as a parameter, or they do not read it). Every other provider is sent the
query as typed."""

_NO_OR = frozenset({"zai", "kimi", "exa", "tinyfish", "jina", "tavily", "synthetic", "mojeek"})
"""Sent an ``OR`` group's members flat (reference 6.5: no ``or`` flag)."""
_NO_WORDS_IN = frozenset({"exa", "tinyfish", "tavily", "parallel", "synthetic"})
"""Sent none of ``inurl:``, ``intitle:``, ``intext:`` (reference 6.5: no such flag)."""
_SCRAPERS = frozenset({"searxng", "duckduckgo", "startpage", "google", "ecosia", "mojeek"})
"""The reference's ``formatScraperQuery`` engines: a wanted ``inurl:x`` goes as the word."""
_GOOGLE_SYNTAX = frozenset(
    {"gemini", "codex", "kagi", "firecrawl", "brave", "serper", "bing", "yahoo"}
    | _SCRAPERS - {"mojeek"}
)
"""Sent ``intext:`` (the reference's GOOGLE syntax; Serper is Google's, and Bing and Yahoo
are sent the query raw)."""
WORDS_IN: Mapping[str, Mapping[str, frozenset[str]]] = {
    "inurl": {"rust guide": _NO_WORDS_IN, "rust guide docs": _SCRAPERS},
    "exclude_inurl": {"rust guide": _NO_WORDS_IN | {"mojeek"}},
    "intitle": {"rust guide": _NO_WORDS_IN | {"mojeek"}},
    "exclude_intitle": {"rust guide": _NO_WORDS_IN | {"mojeek"}},
    "intext": {"rust guide": frozenset(PROVIDERS) - _GOOGLE_SYNTAX},
    "order": {"rust guide": _NO_WORDS_IN | {"mojeek"}},
    "or_group": {"rust golang tutorial": _NO_OR},
    "site_path": {"rust guide github.com/rust-lang": _SCRAPERS, "rust guide": LEFT_OUT["site"][1]},
    "lang": {"rust guide": frozenset(PROVIDERS)},  # the language parameter, never the text
    "site_path_whole": {
        "rust guide github.com/rust-lang site:github.com": _SCRAPERS,
        "rust guide": LEFT_OUT["site"][1],
    },
}
"""Per kind: each other query sent, and the providers sent it; every other provider is
sent :data:`AS_READ`'s query, else the query as typed."""
AS_READ: Mapping[str, str] = {
    "order": "rust guide intitle:faq",
    "or_group": "(rust OR golang) tutorial",
    "and": "rust guide tips",
    "plus_term": 'rust "borrow" guide',
    "dash_phrase": 'rust async -"tokio runtime"',
    "site_path": "rust guide site:github.com",
    "site_path_whole": "rust guide site:github.com",
}
"""The query a provider that reads the directive is sent, where it is not the query typed:
the words first, then the directives (reference 6.3), and an ``OR`` group in parentheses."""

DATES_IN_TEXT: frozenset[str] = frozenset({"anthropic", "codex", "xai", "serper"})
"""The only providers sent ``after:`` / ``before:`` in the text: the others take the dates
as a parameter, or are not told them and have their results checked."""


def _expected(provider_id: str, kind: str) -> str:
    if kind in READ_AS:
        return _expected(provider_id, READ_AS[kind])
    typed = TYPED[kind]
    if kind in WORDS_IN:
        sent = (text for text, providers in WORDS_IN[kind].items() if provider_id in providers)
        return next(sent, AS_READ.get(kind, typed))
    if kind == "dates":
        return typed if provider_id in DATES_IN_TEXT else "rust guide"
    without, providers = LEFT_OUT.get(kind, (AS_READ.get(kind, typed), frozenset()))
    return without if provider_id in providers else AS_READ.get(kind, typed)


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _queries_sent(requests: list[RecordedRequest]) -> set[str]:
    """Every text the requests carried that reads as the query (each starts ``rust ``, or
    ``(rust `` as an ``OR`` group).

    Wherever the protocol puts it: the URL's parameters or path (Jina), a form, or any
    string in a JSON body (Z.AI's tool arguments, an answer engine's user message).
    """
    found: list[str] = []
    for request in requests:
        found.extend(value for _, value in request.query)
        found.append(unquote(request.path.removeprefix("/")))
        if request.body.startswith(b"{"):
            found.extend(_strings(json.loads(request.body)))
        elif request.body:
            found.extend(value for _, value in request.form())
    return {text for text in found if text.startswith(("rust ", "(rust "))}


@pytest.fixture
async def sim(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Simulator]:
    monkeypatch.setenv("WEBSEARCH_BROWSER", "off")
    async with Simulator(list(PROVIDERS)) as simulator:
        CredentialStore(simulator.settings().resolved_credentials_file()).set_oauth(
            "codex",
            OAuthToken(access_token=CODEX_TOKEN, refresh_token="r", expires_at=time.time() + 3600),
        )
        yield simulator


@pytest.mark.parametrize("provider_id", PROVIDERS)
async def test_each_directive_reaches_the_provider_as_its_query_reads_it(
    sim: Simulator, provider_id: str
) -> None:
    sent: dict[str, set[str]] = {}
    async with sim_client(sim) as ws:
        for kind, query in TYPED.items():
            before = len(sim[provider_id].requests)
            await ws.run(query, provider=provider_id, use_cache=False)
            sent[kind] = _queries_sent(sim[provider_id].requests[before:])
    expected = {kind: {_expected(provider_id, kind)} for kind in TYPED}
    assert sent == expected
