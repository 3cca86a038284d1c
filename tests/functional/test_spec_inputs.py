"""Spec §Inputs and §Flow clauses the provider tests prove one provider at a time.

``query`` is "passed to providers unchanged"; ``max_tokens`` and ``temperature`` are
"passed through only by Anthropic, Gemini, xAI, and Perplexity API-key mode. Ignored by the
other providers"; a ``provider`` of ``"auto"`` is the chain, not a forced provider (§Flow 2);
every provider is handed the system prompt, which only the answer engines send (§Flow 5).
These read what each provider's server received from the loopback simulator, for every
provider in the order at once, so a provider added later is held to the same clauses.
"""

import json
import time
from collections.abc import AsyncIterator
from urllib.parse import unquote

import pytest

from tests.functional._sim_helpers import sim_client
from tests.functional.test_codex_sim import TOKEN as CODEX_TOKEN
from websearch_core import SEARCH_PROVIDER_ORDER, WebSearch
from websearch_core.credentials import CredentialStore, OAuthToken
from websearch_core.prompts import SEARCH_SYSTEM_PROMPT
from websearch_core.testing import Fault, Simulator
from websearch_core.testing.simulator import RecordedRequest

DIRECT = tuple(pid for pid in SEARCH_PROVIDER_ORDER if pid != "public")
"""Every provider a search can be forced to; Public Web only fans out to the engines."""

ANSWER_ENGINES = frozenset({"perplexity", "gemini", "anthropic", "codex", "xai", "zai"})
"""Providers that put the query into a prompt or a tool call of their own."""

TOKEN_TAKERS = frozenset({"anthropic", "gemini", "xai", "perplexity"})
"""The providers the spec lets send ``max_tokens`` and ``temperature`` (Perplexity with a key)."""

PROMPT_SENDERS = frozenset({"perplexity", "gemini", "anthropic", "codex", "xai"})
"""The providers that send the system prompt (Perplexity only with a key, as a system
message); the others are handed it and leave it out."""

PROMPT_START = SEARCH_SYSTEM_PROMPT[:48]
"""The prompt's opening words: plain text that JSON encodes as it is."""

PLAIN_QUERY = "  naïve  C++ & ümlaut? 50% #tag/slash  "
"""A query with no directive in it, so nothing may rewrite it: outer and doubled spaces,
non-ASCII letters and characters that need escaping in a URL or a form."""

MAX_TOKENS = 4321
TEMPERATURE = 1.37
"""Values no provider sends of its own accord, so finding them on the wire means passed on."""


@pytest.fixture
async def sim(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Simulator]:
    monkeypatch.delenv("PERPLEXITY_COOKIES", raising=False)
    async with Simulator(list(DIRECT)) as simulator:
        CredentialStore(simulator.settings().resolved_credentials_file()).set_oauth(
            "codex",
            OAuthToken(access_token=CODEX_TOKEN, refresh_token="r", expires_at=time.time() + 3600),
        )
        yield simulator


def _query_sent(sim: Simulator, provider_id: str, request: RecordedRequest) -> str:
    """The query as ``provider_id``'s protocol carries it, read from the raw request."""
    reader = getattr(sim[provider_id].protocol, "query_of", None)
    if provider_id == "jina":  # ``GET /<query>``: the path, percent-decoded
        return unquote(request.path.removeprefix("/"))
    if provider_id == "yahoo":
        return request.query_dict()["p"]
    if callable(reader):
        return str(reader(request))
    for key in ("q", "query", "text_query"):
        if key in request.query_dict():
            return request.query_dict()[key]
    if request.body.startswith(b"{"):
        body = request.json()
        return str(next(body[key] for key in ("query", "q", "text_query") if key in body))
    form = dict(request.form())
    return form.get("q") or form["query"]


def _wire(request: RecordedRequest) -> str:
    """Everything a request carried that a value could hide in: URL, query and body."""
    return f"{request.path}?{request.query} {request.body.decode('utf-8', 'replace')}"


@pytest.mark.parametrize("provider_id", DIRECT)
async def test_a_query_without_directives_reaches_each_provider_unchanged(
    sim: Simulator, provider_id: str
) -> None:
    """Guard: each provider is sent the query byte for byte (passes before and after)."""
    async with sim_client(sim) as ws:
        result = await ws.run(PLAIN_QUERY, provider=provider_id, use_cache=False)
    assert result.error is None, result.error
    requests = sim[provider_id].requests
    if provider_id in ANSWER_ENGINES:
        # An answer engine carries the query inside its own prompt or tool call (Z.AI's
        # and Startpage's first requests are a handshake and the homepage).
        bodies = [json.dumps(r.json(), ensure_ascii=False) for r in requests if r.body]
        assert any(PLAIN_QUERY in body for body in bodies)
    else:
        sent = [_query_sent(sim, provider_id, r) for r in requests if r.query or r.body]
        assert PLAIN_QUERY in sent, sent


@pytest.mark.parametrize("provider_id", DIRECT)
async def test_max_tokens_and_temperature_reach_only_the_spec_named_providers(
    sim: Simulator, provider_id: str
) -> None:
    """Guard: the four named providers send both values, every other provider neither."""
    async with sim_client(sim) as ws:
        result = await ws.run(
            "python asyncio",
            provider=provider_id,
            max_tokens=MAX_TOKENS,
            temperature=TEMPERATURE,
            use_cache=False,
        )
    assert result.error is None, result.error
    sent = " ".join(_wire(request) for request in sim[provider_id].requests)
    expected = provider_id in TOKEN_TAKERS
    assert (str(MAX_TOKENS) in sent, str(TEMPERATURE) in sent) == (expected, expected)


@pytest.mark.parametrize("provider_id", DIRECT)
async def test_the_system_prompt_reaches_only_the_providers_that_use_it(
    sim: Simulator, provider_id: str
) -> None:
    """Guard (§Flow 5, reference §1.2): every provider is given the prompt; five send it."""
    async with sim_client(sim) as ws:
        result = await ws.run("python asyncio", provider=provider_id, use_cache=False)
    assert result.error is None, result.error
    sent = " ".join(_wire(request) for request in sim[provider_id].requests)
    assert (PROMPT_START in sent) == (provider_id in PROMPT_SENDERS)


async def test_perplexity_without_a_key_ignores_max_tokens_and_temperature(
    sim: Simulator,
) -> None:
    """Guard: the ask endpoint (no API key) is not "API-key mode": neither value nor the
    system prompt goes."""
    keys = {pid: key for pid, key in sim.api_keys().items() if pid != "perplexity"}
    async with sim_client(sim, api_keys=keys) as ws:
        result = await ws.run(
            "python asyncio",
            provider="perplexity",
            max_tokens=MAX_TOKENS,
            temperature=TEMPERATURE,
            use_cache=False,
        )
    assert result.error is None, result.error
    assert result.response.auth_mode == "anonymous"
    sent = " ".join(_wire(request) for request in sim["perplexity"].requests)
    assert str(MAX_TOKENS) not in sent and str(TEMPERATURE) not in sent
    assert PROMPT_START not in sent  # nor does the system prompt


async def test_a_provider_of_auto_is_the_chain_with_the_preferred_provider_first() -> None:
    """Guard (§Flow 2): ``provider="auto"`` forces nothing; the preferred one leads."""
    async with Simulator(["tavily", "brave", "duckduckgo"]) as small:
        small["duckduckgo"].enqueue(Fault.challenge())
        keys = {"brave": small.api_keys()["brave"]}
        async with WebSearch(small.settings(provider="duckduckgo"), api_keys=keys) as ws:
            result = await ws.run("python asyncio", provider="auto", use_cache=False)
    assert [(a.provider, a.outcome) for a in result.response.attempts] == [
        ("duckduckgo", "failed"),
        ("brave", "success"),
    ]


async def test_a_forced_provider_that_cannot_run_falls_back_to_the_plain_auto_order() -> None:
    """Guard (§Flow 2): the fallback is ``resolveProviderChain(authStorage, "auto")``.

    "auto" there is the preferred-provider argument: the chain a forced provider falls back
    to is the spec's order, without the preferred provider moved to the front. Passes on
    main; it failed with a scratch edit that put the preferred provider first (reverted).
    """
    async with Simulator(["tavily", "brave", "duckduckgo"]) as small:
        keys = {"brave": small.api_keys()["brave"]}  # Tavily, forced, has no key
        async with WebSearch(small.settings(provider="duckduckgo"), api_keys=keys) as ws:
            result = await ws.run("python asyncio", provider="tavily", use_cache=False)
        assert [(a.provider, a.outcome) for a in result.response.attempts] == [
            ("tavily", "skipped"),
            ("brave", "success"),
        ]
        assert small["duckduckgo"].requests == []
