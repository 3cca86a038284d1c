"""The contract under hostile 200 bodies: a parser answers or fails typed, never otherwise.

Every registered provider runs its whole protocol (``search`` through the request loop, over
:class:`~websearch_core.testing.MockTransport`) against bodies derived from its real
captures and broken on purpose (:mod:`tests.contract.hostile`). Whatever arrives, the
search returns a :class:`SearchResponse` or raises a :class:`SearchProviderError`: any other
exception would end the whole search instead of letting the chain try the next provider,
which the spec forbids (a failing provider never loses the answer another could give). The
end-to-end tests then check exactly that through the loopback simulator: the first
provider gets the hostile body, the second answers, the search returns the second's answer.

Hypothesis runs derandomised, so every run tries the same bodies.
"""

import asyncio
import copy
import dataclasses
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

import lxml.html
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.contract.conftest import PROVIDERS, TOKEN
from tests.contract.hostile import (
    STREAMED,
    mutated_text,
    mutator_for,
    read_body,
    serialise,
    whole_body,
)
from websearch_core import SearchProviderError, WebSearch
from websearch_core.credentials import Credentials, CredentialStore, OAuthToken
from websearch_core.models import SearchParams, SearchResponse
from websearch_core.provider_types import ProviderContext
from websearch_core.providers import SEARCH_PROVIDER_ORDER, get_provider
from websearch_core.providers._common import MAX_RESULT_ITEMS
from websearch_core.settings import Settings
from websearch_core.testing import Fault, MockTransport, Simulator
from websearch_core.transport import HttpRequest, HttpResponse

KEY: Final = "sk-hostile-0123456789abcdef"
SEARXNG: Final = "https://searx.example"
EXAMPLES: Final = 100
"""Bodies per provider: enough to reach every mutation kind, quick on a loaded machine."""

SCRIPTS: Final[dict[str, tuple[tuple[str, ...], ...]]] = {
    "perplexity": (
        ("perplexity/chat_completions_sonar_citations.json",),
        ("perplexity/chat_completions_sonar_usage_cost_sanitized_2026.json",),
        ("openrouter/chat_completions_web_search_url_citation.json",),
        ("streamed/perplexity/chat_completions_sonar_citations_stream.chunks.txt",),
    ),
    "gemini": (
        ("gemini/generate_content_google_search_call1.json",),
        ("gemini/stream_generate_content_google_search.sse",),
    ),
    "anthropic": (
        ("anthropic/messages_web_search_tool_call1.json",),
        ("anthropic/messages_web_search_pause_turn_call1.json",),
        (
            "anthropic/messages_web_search_pause_turn_call1.json",
            "anthropic/messages_web_search_tool_call2.json",
        ),
    ),
    "codex": (
        ("openai/responses_web_search_tool_stream.sse",),
        ("openai/responses_web_search_url_citation_gpt5_2.json",),
        ("openai/responses_web_search_verbatim_gpt4o_mini.json",),
        ("openai/responses_web_search_allowed_domains.json",),
    ),
    "xai": (("xai/responses_web_search_tool.json",),),
    "zai": (
        ("zai/web_search_prime_tool_result_content_json_shape_2026-10.txt",),
        ("zai/web_search_prime_tool_result_content_repr_shape_placeholder.txt",),
    ),
    "exa": (("exa/search_doc_example_latest_llm_research.json",),),
    "tinyfish": (("tinyfish/search_doc_example.json",),),
    "jina": (("jina/s_jina_ai_search_doc_example.json",),),
    "kagi": (
        ("kagi/v0_search_doc_example_steve_jobs_2024.json",),
        ("kagi/v0_search_doc_example_steve_jobs_2023_with_rank.json",),
    ),
    "tavily": (
        ("tavily/search_basic_pydantic_ai.json",),
        ("tavily/search_bound_params_attention.json",),
    ),
    "firecrawl": (("firecrawl/v2_search_firecrawl_with_markdown.json",),),
    "brave": (("brave/web_search_laravel_2024.json",),),
    "serper": (("serper/search_amazon_knowledge_graph_2023.json",),),
    "kimi": (("documented/kimi_search.json",),),
    "parallel": (
        ("parallel/v1_search_doc_example.json",),
        ("parallel/v1beta_search_doc_example.json",),
    ),
    # No capture of Synthetic exists; its documented shape is the closest real thing.
    "synthetic": (("tavily/search_basic_pydantic_ai.json",),),
    "searxng": (("searxng/search_format_json_espresso_2026.json",),),
    "duckduckgo": (
        ("duckduckgo/html_results_eino_2025.html",),
        ("duckduckgo/lite_results_zeta_2026.html",),
        ("duckduckgo/html_no_results_2025.html",),
    ),
    "bing": (
        ("bing/serp_javascript_tutorial_http_2026.html",),
        ("bing/fragment_b_algo_ck_redirect_links_pl_2026.html",),
    ),
    "yahoo": (
        ("yahoo/serp_javascript_tutorial_2026.html",),
        ("yahoo/zero_results_zrp_2026-09.html",),
    ),
    "startpage": (("startpage/serp_javascript_tutorial_http_2026.html",),),
    "google": (("google/serp_ai_tools_pt-BR_rendered_2025-03.html",),),
    "ecosia": (("ecosia/serp_javascript_tutorial_2026.html",),),
    "mojeek": (("mojeek/serp_javascript_tutorial_2026.html",),),
}
"""Per provider, the captures its requests are answered with, in order (the last repeats).

A multi-step protocol gets its real sequence (Anthropic's paused turn, then the
continuation), so a mutation can land on any step.
"""
OAUTH_ONLY: Final = frozenset({"codex"})
CONTENT_TYPES: Final = {
    ".json": "application/json",
    ".sse": "text/event-stream",
    ".html": "text/html; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
}
FOREIGN_HTML: Final = "duckduckgo/html_results_eino_2025.html"
FOREIGN_JSON: Final = "brave/web_search_laravel_2024.json"


def test_every_registered_provider_has_hostile_bodies() -> None:
    assert sorted(SCRIPTS) == sorted(PROVIDERS)


def _content_type(relative: str) -> str:
    if relative.startswith(STREAMED):
        return CONTENT_TYPES[".sse"]
    return CONTENT_TYPES[Path(relative).suffix]


def _foreign(relative: str) -> str:
    """A capture of the other format: HTML where JSON belongs, JSON where HTML belongs."""
    return FOREIGN_JSON if relative.endswith(".html") else FOREIGN_HTML


@st.composite
def hostile_exchange(draw: st.DrawFn, provider_id: str) -> tuple[tuple[str, ...], int, bytes]:
    """A script, the step whose body is hostile, and that body."""
    script = draw(st.sampled_from(SCRIPTS[provider_id]))
    step = draw(st.integers(0, len(script) - 1))
    relative = script[step]
    body = draw(
        st.one_of(
            mutator_for(relative)(relative),
            mutator_for(relative)(relative),
            mutated_text(relative),
            whole_body((relative,), _foreign(relative)),
        )
    )
    return script, step, body


def _zai_handler(capture_or_body: Callable[[], bytes], raw: bool) -> Callable[..., Any]:
    """Z.AI's MCP session: the tool result carries the hostile text (or is the hostile body).

    Its captures are the *content* of a tool result, so the reply wraps them as MCP does;
    with ``raw`` the whole reply body is the hostile one.
    """

    def handler(request: HttpRequest) -> HttpResponse:
        message = request.json if isinstance(request.json, dict) else {}
        method = message.get("method")
        headers = {"Content-Type": "application/json", "Mcp-Session-Id": "s-1"}
        if method == "notifications/initialized":
            return HttpResponse(status=202, body=b"", headers=headers)
        if method == "initialize":
            result: Any = {"protocolVersion": "2025-03-26"}
        elif raw:
            return HttpResponse(status=200, body=capture_or_body(), headers=headers)
        else:
            text = capture_or_body().decode("utf-8", "surrogateescape")
            result = {"content": [{"type": "text", "text": text}], "isError": False}
        reply = {"jsonrpc": "2.0", "id": message.get("id"), "result": result}
        return HttpResponse(status=200, body=serialise(reply, ascii_only=True), headers=headers)

    return handler


def _scripted_handler(script: tuple[str, ...], step: int, body: bytes) -> Callable[..., Any]:
    """Answers request ``i`` with ``script[i]`` (the last repeats), ``body`` at ``step``."""
    sent = [0]

    def handler(request: HttpRequest) -> HttpResponse:
        index = min(sent[0], len(script) - 1)
        sent[0] += 1
        relative = script[index]
        payload = body if index == step else read_body(relative)
        return HttpResponse(
            status=200, body=payload, headers={"Content-Type": _content_type(relative)}
        )

    return handler


def _settings() -> Settings:
    """The settings every context here is given (SearXNG's endpoint set)."""
    return Settings(searxng={"endpoint": SEARXNG})


def _context(
    provider_id: str, transport: MockTransport, tmp_path: Path, settings: Settings | None = None
) -> ProviderContext:
    """A context for one search: ``settings`` (frozen, so one may serve many searches) or
    :func:`_settings`'s, and credentials of its own."""
    store = CredentialStore(tmp_path / "credentials.json")
    if provider_id in OAUTH_ONLY:
        store.set_oauth(provider_id, OAuthToken(access_token=TOKEN, expires_at=time.time() + 3600))
    keys = {} if provider_id in OAUTH_ONLY else {provider_id: KEY}
    return ProviderContext(
        transport=transport,
        settings=_settings() if settings is None else settings,
        credentials=Credentials(explicit=keys, store=store, environ={}),
        system_prompt="",
    )


async def _search(
    provider_id: str, handler: Callable[..., Any], tmp_path: Path, settings: Settings
) -> None:
    """One search over ``handler``: a response, or a typed failure; anything else fails."""
    transport = MockTransport(handler, timeout_seconds=30)
    context = _context(provider_id, transport, tmp_path, settings)
    try:
        response = await asyncio.wait_for(
            get_provider(provider_id).search(SearchParams(query="hostile"), context), 60
        )
    except SearchProviderError as error:
        assert error.provider == provider_id
        return
    assert isinstance(response, SearchResponse)


EMPTY_BY_DESIGN: Final = frozenset(
    {
        "openai/responses_web_search_tool_stream.sse",  # an answer without sources
        "perplexity/chat_completions_sonar_usage_cost_sanitized_2026.json",  # likewise
        "duckduckgo/html_no_results_2025.html",
        "yahoo/zero_results_zrp_2026-09.html",
    }
)


@pytest.mark.parametrize(
    ("provider_id", "script"),
    [(pid, script) for pid, scripts in sorted(SCRIPTS.items()) for script in scripts],
)
async def test_every_unbroken_script_answers(
    provider_id: str, script: tuple[str, ...], tmp_path: Path
) -> None:
    """The harness reaches each parser: untouched, every script is a real answer."""
    if provider_id == "zai":
        handler = _zai_handler(lambda: read_body(script[0]), raw=False)
    else:
        handler = _scripted_handler(script, -1, b"")
    transport = MockTransport(handler)
    context = _context(provider_id, transport, tmp_path)
    response = await get_provider(provider_id).search(SearchParams(query="hostile"), context)
    assert response.provider == provider_id
    assert bool(response.sources) is (script[-1] not in EMPTY_BY_DESIGN)


@pytest.mark.parametrize("provider_id", sorted(SCRIPTS))
def test_a_hostile_200_body_is_an_answer_or_a_typed_failure(
    provider_id: str, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    tmp_path = tmp_path_factory.mktemp(provider_id)
    provider_class = type(get_provider(provider_id))
    policy = getattr(provider_class, "retry", None)
    if policy is not None:
        # Gemini resends after a broken stream, as documented; without the back-off the
        # resend still happens, only sooner (the wait is the loop's, not the parser's).
        monkeypatch.setattr(provider_class, "retry", dataclasses.replace(policy, base_delay=0.0))
    # Made once, not per body: pydantic-settings reads the environment for each (~30 ms,
    # 3 of a provider's 5 s of searches); each search still has its own context.
    settings_ = _settings()

    @settings(
        max_examples=EXAMPLES,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(exchange=hostile_exchange(provider_id), raw=st.booleans())
    def check(exchange: tuple[tuple[str, ...], int, bytes], raw: bool) -> None:
        script, step, body = exchange
        if provider_id == "zai":
            handler = _zai_handler(lambda: body, raw)
        else:
            handler = _scripted_handler(script, step, body)
        asyncio.run(_search(provider_id, handler, tmp_path, settings_))

    check()


# --- end to end: the hostile provider fails, the next one answers ---------------------------

DEEP_JSON: Final = b'{"results": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
E2E_BODIES: Final = {
    "lone surrogate": (
        '{"web": {"results": [{"url": "https://a.example/\\ud800", '
        '"title": "\\udfff", "description": "\\ud800"}]}}'
    ),
    "deep nesting": DEEP_JSON.decode(),
    "NaN and a huge int": '{"results": NaN, "web": {"results": [' + "9" * 5000 + "]}}",
    "truncated": '{"web": {"results": [{"url": "https://a.exa',
    "html where json belongs": "<html><body><div class='result'><a href='/x'>",
    "empty": "",
}


@pytest.mark.parametrize("first", ["brave", "tavily", "duckduckgo", "anthropic"])
@pytest.mark.parametrize("name", sorted(E2E_BODIES))
async def test_the_next_provider_answers_after_a_hostile_body(
    first: str, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    second = "exa"
    async with Simulator([first, second]) as sim:
        body = E2E_BODIES[name]
        if first == "duckduckgo" and name == "html where json belongs":
            body = json.dumps({"results": [{"url": "https://a.example/"}]})
        sim[first].always(Fault.http(200, body, {"Content-Type": "application/json"}))
        settings_ = sim.settings(provider=first, cache=False, rate_limit_wait_seconds=0)
        async with WebSearch(settings_, api_keys=sim.api_keys()) as ws:
            response = await ws.search("python asyncio")
    assert response.provider == second
    assert response.sources
    assert [(a.provider, a.outcome) for a in response.attempts] == [
        (first, "failed"),
        (second, "success"),
    ]


# --- a body's result items are read up to a bound, however many it holds --------------------

ITEM_LISTS: Final[dict[str, tuple[str, tuple[Any, ...]]]] = {
    "brave": ("brave/web_search_laravel_2024.json", ("web", "results")),
    "tavily": ("tavily/search_basic_pydantic_ai.json", ("results",)),
    "synthetic": ("tavily/search_basic_pydantic_ai.json", ("results",)),
    "exa": ("exa/search_doc_example_latest_llm_research.json", ("results",)),
    "serper": ("serper/search_amazon_knowledge_graph_2023.json", ("organic",)),
    "searxng": ("searxng/search_format_json_espresso_2026.json", ("results",)),
    "firecrawl": ("firecrawl/v2_search_firecrawl_with_markdown.json", ("data", "web")),
    "jina": ("jina/s_jina_ai_search_doc_example.json", ("data",)),
    "kagi": ("kagi/v0_search_doc_example_steve_jobs_2024.json", ("data",)),
    "kimi": ("documented/kimi_search.json", ("search_results",)),
    "parallel": ("parallel/v1_search_doc_example.json", ("results",)),
    "tinyfish": ("tinyfish/search_doc_example.json", ("results",)),
    "perplexity": (
        "openrouter/chat_completions_web_search_url_citation.json",
        ("choices", 0, "message", "annotations"),
    ),
    "xai": ("xai/responses_web_search_tool.json", ("output", 1, "content", 0, "annotations")),
    "codex": (
        "openai/responses_web_search_verbatim_gpt4o_mini.json",
        ("output", 1, "content", 0, "annotations"),
    ),
    "anthropic": ("anthropic/messages_web_search_tool_call1.json", ("content", 2, "content")),
    "gemini": (
        "gemini/generate_content_google_search_call1.json",
        ("candidates", 0, "groundingMetadata", "groundingChunks"),
    ),
    "zai": ("zai/web_search_prime_tool_result_content_json_shape_2026-10.txt", (0,)),
}
"""Per provider, a real capture and where in it the items its sources come from are."""
MARKER: Final = "https://bound.example/the-one-result"
_URL_KEYS: Final = ("url", "link", "uri")


def _item_url(item: Any) -> str:
    """The URL a result item carries (its first ``url``/``link``/``uri``, nested or not)."""
    if isinstance(item, dict):
        for key, value in item.items():
            if key in _URL_KEYS and isinstance(value, str) and value.startswith("http"):
                return value
            found = _item_url(value)
            if found:
                return found
    return ""


def _with_items(provider_id: str, urls: list[str | None]) -> bytes:
    """The capture with its item list replaced: per URL, its first item carrying that URL.

    ``None`` stands for ``null``, a value no reader takes for a result, so the only sources
    the list can give are the items placed, and whether one comes back says whether its
    position was read.
    """
    relative, path = ITEM_LISTS[provider_id]
    document = json.loads(read_body(relative))
    holder = document
    for step in path[:-1]:
        holder = holder[step]
    item = json.dumps(holder[path[-1]][0])
    own = json.dumps(_item_url(holder[path[-1]][0]))
    holder[path[-1]] = [
        None if url is None else json.loads(item.replace(own, json.dumps(url))) for url in urls
    ]
    return json.dumps(document).encode()


async def _urls(provider_id: str, handler: Callable[..., Any], tmp_path: Path) -> list[str]:
    """The source URLs of one search over ``handler`` (none when the search failed typed)."""
    context = _context(provider_id, MockTransport(handler, max_response_bytes=8 << 20), tmp_path)
    try:
        response = await get_provider(provider_id).search(SearchParams(query="bound"), context)
    except SearchProviderError:  # SearXNG: nothing usable, and engines reported failing
        return []
    return [source.url for source in response.sources]


async def _urls_of_json(provider_id: str, body: bytes, tmp_path: Path) -> list[str]:
    relative = ITEM_LISTS[provider_id][0]
    if provider_id == "zai":
        handler = _zai_handler(lambda: body, raw=False)
    else:
        handler = _scripted_handler((relative,), 0, body)
    return await _urls(provider_id, handler, tmp_path)


def test_every_provider_is_checked_against_the_bound() -> None:
    lists = set(ITEM_LISTS) | {engine.split()[0] for engine in HTML_PAGES}
    assert sorted(lists) == sorted(set(PROVIDERS)), "a provider's result items are unchecked"


def test_the_bound_is_above_every_count_a_provider_documents() -> None:
    # A full page at the largest documented count (100) still comes back whole, with room
    # for the entries a reader drops (ads, links off the web, repeats).
    documented = [get_provider(pid).info.max_results or 0 for pid in SEARCH_PROVIDER_ORDER]
    assert 2 * max(documented) <= MAX_RESULT_ITEMS


@pytest.mark.parametrize("provider_id", sorted(ITEM_LISTS))
async def test_a_json_item_past_the_bound_is_never_read(provider_id: str, tmp_path: Path) -> None:
    last = _with_items(provider_id, [None] * (MAX_RESULT_ITEMS - 1) + [MARKER])
    assert MARKER in await _urls_of_json(provider_id, last, tmp_path)  # the bound's last
    past = _with_items(provider_id, [None] * MAX_RESULT_ITEMS + [MARKER])
    assert MARKER not in await _urls_of_json(provider_id, past, tmp_path)


HTML_PAGES: Final[dict[str, tuple[str, str]]] = {
    "duckduckgo": ("duckduckgo/html_results_eino_2025.html", "div.result"),
    "duckduckgo lite": ("duckduckgo/lite_results_zeta_2026.html", "tr"),
    "bing": ("bing/serp_javascript_tutorial_http_2026.html", "li.b_algo"),
    "yahoo": ("yahoo/serp_javascript_tutorial_2026.html", "div.algo"),
    "startpage": ("startpage/serp_javascript_tutorial_http_2026.html", "div.result"),
    "google": ("google/serp_ai_tools_pt-BR_rendered_2025-03.html", "div.MjjYud"),
    "ecosia": (
        "ecosia/serp_javascript_tutorial_2026.html",
        'article[data-test-id="organic-result"]',
    ),
    "mojeek": ("mojeek/serp_javascript_tutorial_2026.html", "ul.results-standard > li"),
}
"""Per engine (and layout), a real results page and what starts one result's markup."""


def _results(relative: str, selector: str) -> list[list[Any]]:
    """The page's first two results, each as its elements (a lite result is several rows)."""
    root = lxml.html.fromstring(read_body(relative))
    starts = [block for block in root.cssselect(selector) if block.xpath(".//a[@href]")]
    if selector != "tr":
        return [[starts[0]], [starts[1]]]
    # A lite result runs from the row of its link to the row of the next one.
    rows: list[Any] = []
    element: Any = starts[0]
    while element is not starts[2]:
        rows.append(element)
        element = element.getnext()
    split = rows.index(starts[1])
    return [rows[:split], rows[split:]]


def _page_with_repeats(engine: str, repeats: int) -> bytes:
    """The page with its first result repeated ``repeats`` times, then its second, before them."""
    relative, selector = HTML_PAGES[engine]
    first, second = _results(relative, selector)
    before = first[0]
    for element in [*first * repeats, *second]:
        before.addprevious(copy.deepcopy(element))
    return bytes(lxml.html.tostring(before.getroottree()))


async def _urls_of_page(engine: str, body: bytes, tmp_path: Path) -> list[str]:
    provider_id = engine.split()[0]
    relative = HTML_PAGES[engine][0]
    return await _urls(provider_id, _scripted_handler((relative,), 0, body), tmp_path)


@pytest.mark.parametrize("engine", sorted(HTML_PAGES))
async def test_results_past_the_bound_of_a_page_are_never_read(engine: str, tmp_path: Path) -> None:
    first, second = (await _urls_of_page(engine, _page_with_repeats(engine, 1), tmp_path))[:2]
    assert first != second
    # Half the bound's repeats: the result after them is read (then the page's own results).
    half = _page_with_repeats(engine, MAX_RESULT_ITEMS // 2)
    assert (await _urls_of_page(engine, half, tmp_path))[:2] == [first, second]
    # The bound's worth: nothing after them is read, so the repeated result is the only one.
    full = _page_with_repeats(engine, MAX_RESULT_ITEMS)
    assert await _urls_of_page(engine, full, tmp_path) == [first]


@pytest.mark.parametrize("provider_id", ["exa", "firecrawl", "serper"])
async def test_a_full_page_at_the_largest_documented_count_comes_back_whole(
    provider_id: str, tmp_path: Path
) -> None:
    count = get_provider(provider_id).info.max_results
    assert count == 100
    wanted = [f"{MARKER}/{n}" for n in range(count)]
    handler = _scripted_handler(
        (ITEM_LISTS[provider_id][0],), 0, _with_items(provider_id, [*wanted])
    )
    context = _context(provider_id, MockTransport(handler, max_response_bytes=8 << 20), tmp_path)
    params = SearchParams(query="bound", num_search_results=count)
    response = await get_provider(provider_id).search(params, context)
    # Serper adds its knowledge graph's page after the organic results.
    assert [source.url for source in response.sources][:count] == wanted


# --- a list inside one result is read up to the same bound ----------------------------------

_DROP: Final = object()
"""Set at a path: the key is removed."""


@dataclasses.dataclass(frozen=True)
class Nested:
    """A list a reader walks inside one result (or answer box), in a real capture.

    Attributes:
        provider: Whose reader.
        capture: The real capture the body is made from.
        path: Where the list is (a JSON object read key by key counts as a list).
        marker: The entry that shows :data:`MARKER` in the response when it is read; a
            callable builds it from the capture's own list, a pair is an object's entry.
        before: Changes made first, so the reader gets to the list (a result with a
            ``summary`` never reads its ``highlights``; a capture without an infobox).
    """

    provider: str
    capture: str
    path: tuple[Any, ...]
    marker: Any
    before: tuple[tuple[tuple[Any, ...], Any], ...] = ()


def _marked(index: int) -> Callable[[list[Any]], Any]:
    """The list's own entry at ``index`` with the URL it carries replaced by the marker."""

    def build(listed: list[Any]) -> Any:
        entry = json.dumps(listed[index])
        own = json.dumps(_first_url(listed[index]))
        assert own != '""', "the entry carries no URL to replace"
        return json.loads(entry.replace(own, json.dumps(MARKER)))

    return build


def _first_url(value: Any) -> str:
    """The first ``url``/``link``/``uri`` string in ``value``, through objects and arrays."""
    if isinstance(value, list):
        return next((url for url in map(_first_url, value) if url), "")
    if not isinstance(value, dict):
        return ""
    return _item_url(value) or next((url for url in map(_first_url, value.values()) if url), "")


_INFOBOX: Final = {"infobox": "Espresso", "content": "Coffee brewed under pressure."}
NESTED_LISTS: Final[dict[str, Nested]] = {
    "exa highlights": Nested(
        "exa",
        "exa/search_doc_example_latest_llm_research.json",
        ("results", 0, "highlights"),
        MARKER,
        before=((("results", 0, "summary"), _DROP), (("results", 0, "text"), _DROP)),
    ),
    "brave extra_snippets": Nested(
        "brave",
        "brave/web_search_laravel_2024.json",
        ("web", "results", 0, "extra_snippets"),
        MARKER,
    ),
    "parallel excerpts": Nested(
        "parallel", "parallel/v1_search_doc_example.json", ("results", 0, "excerpts"), MARKER
    ),
    "searxng answer translations": Nested(
        "searxng",
        "searxng/search_format_json_espresso_2026.json",
        ("answers", 0, "translations"),
        {"text": MARKER},
        before=((("answers",), [{"translations": []}]),),
    ),
    "searxng infobox attributes": Nested(
        "searxng",
        "searxng/search_format_json_espresso_2026.json",
        ("infoboxes", 0, "attributes"),
        {"label": "Marker", "value": MARKER},
        before=((("infoboxes",), [_INFOBOX]),),
    ),
    "searxng infobox urls": Nested(
        "searxng",
        "searxng/search_format_json_espresso_2026.json",
        ("infoboxes", 0, "urls"),
        {"title": "Marker", "url": MARKER},
        before=((("infoboxes",), [_INFOBOX]),),
    ),
    "serper answer box snippetHighlighted": Nested(
        "serper",
        "serper/search_amazon_knowledge_graph_2023.json",
        ("answerBox", "snippetHighlighted"),
        MARKER,
        before=((("answerBox",), {"title": "Amazon"}),),
    ),
    "serper knowledge graph attributes": Nested(
        "serper",
        "serper/search_amazon_knowledge_graph_2023.json",
        ("knowledgeGraph", "attributes"),
        ("Marker", MARKER),
    ),
    "xai output": Nested("xai", "xai/responses_web_search_tool.json", ("output",), _marked(1)),
    "xai message content": Nested(
        "xai", "xai/responses_web_search_tool.json", ("output", 1, "content"), _marked(0)
    ),
}
"""Every list inside one result that a reader walks entry by entry and that was unbounded
(the result arrays and the lists already read through ``first_items`` are above). Lists
of an answer's text fragments are not here: joining them is one pass over text the body
holds anyway, and a long streamed answer may have more than the bound."""
SIZE_CAP: Final = 8 << 20
"""The response-size cap the readers are run under (``_urls``)."""


def _put(document: Any, path: tuple[Any, ...], value: Any) -> None:
    holder = document
    for step in path[:-1]:
        holder = holder[step]
    if value is _DROP:
        del holder[path[-1]]
    else:
        holder[path[-1]] = value


def _with_nested(name: str, fillers: int) -> bytes:
    """The capture with the list holding ``fillers`` nulls, then the marker's entry.

    A null gives nothing in any reader, so the marker shows exactly when its position in
    the list was read.
    """
    nested = NESTED_LISTS[name]
    document = json.loads(read_body(nested.capture))
    for path, value in nested.before:
        _put(document, path, value if value is _DROP else copy.deepcopy(value))
    listed: Any
    if isinstance(nested.marker, tuple):  # an object read key by key
        key, value = nested.marker
        listed = {f"filler {n:07d}": None for n in range(fillers)} | {key: value}
    else:
        own: Any = document
        for step in nested.path:
            own = own.get(step, []) if isinstance(own, dict) else own[step]
        entry = nested.marker(own) if callable(nested.marker) else nested.marker
        listed = [None] * fillers + [entry]
    _put(document, nested.path, listed)
    return json.dumps(document).encode()


def _size_cap(name: str) -> int:
    """The most the provider reads of a body: :data:`SIZE_CAP`, or its own (Brave: 2 MiB)."""
    own = type(get_provider(NESTED_LISTS[name].provider)).max_response_bytes
    return min(SIZE_CAP, own or SIZE_CAP)


def _up_to_the_cap(name: str) -> bytes:
    """The list repeated as far as the size cap allows (a tenth of it short)."""
    base = len(_with_nested(name, 0))
    each = len(_with_nested(name, 1000)) - base
    return _with_nested(name, (_size_cap(name) * 9 // 10 - base) // each * 1000)


async def _shown(name: str, body: bytes, tmp_path: Path) -> str:
    """Everything the search returned, as text, or its typed failure's message.

    xAI with nothing read but nulls says it found no answer or sources, as it should.
    """
    nested = NESTED_LISTS[name]
    handler = _scripted_handler((nested.capture,), 0, body)
    context = _context(
        nested.provider, MockTransport(handler, max_response_bytes=SIZE_CAP), tmp_path
    )
    try:
        response = await get_provider(nested.provider).search(SearchParams(query="bound"), context)
    except SearchProviderError as error:
        return str(error)
    return json.dumps(response.model_dump(mode="json"))


@pytest.mark.parametrize("name", sorted(NESTED_LISTS))
async def test_a_list_inside_a_result_is_read_up_to_the_bound(name: str, tmp_path: Path) -> None:
    # The bound's last entry is read: a real list (a few entries) is always read whole.
    assert MARKER in await _shown(name, _with_nested(name, MAX_RESULT_ITEMS - 1), tmp_path)
    # The list repeated up to the size cap: nothing after the bound is read.
    full = _up_to_the_cap(name)
    assert _size_cap(name) * 8 // 10 < len(full) <= _size_cap(name)
    assert MARKER not in await _shown(name, full, tmp_path)
