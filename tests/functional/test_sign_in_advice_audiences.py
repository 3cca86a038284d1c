"""Each audience of a sign-in's refusal is advised what it has, and following it works.

The refusal ends with how to trust a gateway. Who reads it decides what can be followed:
the client (``WebSearch``), the LangChain and LlamaIndex tools and the command take no
transport, only settings (a keyword, the variable, the config file); a caller who builds a
context gives it a ``Transport``, or the ``MockTransport`` the README's offline tests use.
Every text the advice is built from (``sign_in_advice.gateway_advice`` at send time,
``set_url_advice`` for a URL the credential check refuses) was looked at for each: the client,
the tools and the command run the built-in providers only, whose routes the settings accept,
so they are advised the settings (guards here, each following the advice by its own means).
A ``MockTransport`` with a route of its own was advised "build the Transport with
sign_in_gateways=[...]", an argument it did not take.

The simulator plays an HTTP proxy for every non-loopback host, so a request that goes out
arrives there and is recorded.
"""

import asyncio
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from tests.proxied_sign_ins import stored_sign_in
from websearch_core import Credentials, SearchParams, WebSearch, get_provider
from websearch_core.cli import main
from websearch_core.credentials import CredentialStore
from websearch_core.errors import ProviderNotConfiguredError, SearchProviderError
from websearch_core.providers.base import ProviderContext
from websearch_core.settings import Settings
from websearch_core.testing import MockTransport, Simulator
from websearch_core.transport import HttpRequest, HttpResponse

ACCESS = "ya29.a0audience-access-0123456789"
GATEWAY = "http://codex-audience-gateway.invalid"
"""The gateway the user wants: neither loopback nor ChatGPT's host."""
QUERY = "python asyncio"
_IN_SETTINGS = re.compile(r"add (\S+) to sign_in_gateways \(WEBSEARCH_SIGN_IN_GATEWAYS\)")
_ON_TRANSPORT = re.compile(r'build the Transport with sign_in_gateways=\["([^"]+)"\]')

Searched = Callable[[dict[str, Any]], Awaitable[str]]
"""One audience's search with the settings given as keywords: the text it reports."""


@pytest.fixture
def store(tmp_path: Path) -> Path:
    return stored_sign_in(tmp_path / "credentials.json", "codex", ACCESS)


def _settings_advice(text: str) -> str:
    """The id the refusal in ``text`` says to add to the setting; it names no transport
    (the audience has none) and never the token."""
    assert ACCESS not in text
    assert "Transport" not in text, text
    advised = _IN_SETTINGS.search(text)
    assert advised is not None, text
    return advised[1]


def _carried(sim: Simulator) -> bool:
    """Whether a request the proxy received carried the sign-in."""
    return any(ACCESS in str(dict(r.headers)) for r in sim["codex"].requests)


async def _client(options: dict[str, Any]) -> str:
    async with WebSearch(**options) as ws:
        response = await ws.run(QUERY)
    return response.error or response.text


async def _langchain(options: dict[str, Any]) -> str:
    from langchain_websearch import WebSearchTool

    return str(await WebSearchTool(**options).ainvoke({"query": QUERY}))


async def _llamaindex(options: dict[str, Any]) -> str:
    from llamaindex_websearch import WebSearchToolSpec

    async with WebSearchToolSpec(**options) as spec:
        return str(await spec.to_tool_list()[0].acall(query=QUERY))


@pytest.mark.parametrize(
    "searched", [_client, _langchain, _llamaindex], ids=["client", "langchain", "llamaindex"]
)
async def test_guard_a_client_or_tool_is_advised_its_own_keyword(
    store: Path, searched: Searched
) -> None:
    """Guard (passes before and after): a refusal reaching the client or a tool names the
    setting, which each takes as a keyword (``sign_in_gateways=``); given it, the same
    search carries the sign-in to the gateway."""
    async with Simulator(["codex"]) as sim:
        options: dict[str, Any] = {
            "providers": ["codex"],
            "base_urls": {"codex": GATEWAY},
            "proxy": sim["codex"].base_url,
            "credentials_file": store,
            "cache": False,
        }
        refused = await searched(options)
        assert not _carried(sim)
        trusted = _settings_advice(refused)
        answer = await searched({**options, "sign_in_gateways": [trusted]})
        assert "Refusing" not in answer, answer
        assert _carried(sim)


async def test_guard_the_command_is_advised_the_variable_it_reads(
    store: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Guard (passes before and after): the command's refusal names the variable, and the
    command run again with it set carries the sign-in to the gateway."""
    async with Simulator(["codex"]) as sim:
        monkeypatch.setenv("WEBSEARCH_PROVIDERS", "codex")
        monkeypatch.setenv("WEBSEARCH_CODEX_BASE_URL", GATEWAY)
        monkeypatch.setenv("WEBSEARCH_PROXY", sim["codex"].base_url)
        monkeypatch.setenv("WEBSEARCH_CREDENTIALS_FILE", str(store))
        monkeypatch.setenv("WEBSEARCH_CACHE", "false")
        capsys.readouterr()
        assert await asyncio.to_thread(main, QUERY.split()) != 0
        out, err = capsys.readouterr()
        assert not _carried(sim)
        trusted = _settings_advice(out + err)
        monkeypatch.setenv("WEBSEARCH_SIGN_IN_GATEWAYS", trusted)
        assert await asyncio.to_thread(main, QUERY.split()) == 0, capsys.readouterr().err
        assert _carried(sim)
        out, err = capsys.readouterr()
        assert ACCESS not in out + err


async def test_a_mock_transport_takes_the_argument_its_advice_names(store: Path) -> None:
    """Failed before (``MockTransport(..., sign_in_gateways=[...])`` was a ``TypeError``):
    the Codex gateway set on a ``MockTransport`` is refused naming the transport's
    ``sign_in_gateways=``; built with it, the request carrying the sign-in reaches the
    handler at the gateway."""

    def answer(request: HttpRequest) -> HttpResponse:
        return HttpResponse(status=200, body=b"{}")

    credentials = Credentials(store=CredentialStore(store))
    settings = Settings(credentials_file=store, cache=False)
    routes = {"codex": GATEWAY}
    untrusted = MockTransport(answer, base_urls=routes)
    context = ProviderContext(transport=untrusted, settings=settings, credentials=credentials)
    with pytest.raises(ProviderNotConfiguredError) as refused:
        await get_provider("codex").search(SearchParams(query=QUERY), context)
    assert untrusted.requests == []
    assert ACCESS not in str(refused.value)
    advised = _ON_TRANSPORT.search(str(refused.value))
    assert advised is not None, refused.value

    trusted = MockTransport(answer, base_urls=routes, sign_in_gateways=[advised[1]])
    context = ProviderContext(transport=trusted, settings=settings, credentials=credentials)
    try:
        await get_provider("codex").search(SearchParams(query=QUERY), context)
    except SearchProviderError as failed:  # the handler's "{}" is no Codex answer
        assert not isinstance(failed, ProviderNotConfiguredError), failed
    sent = trusted.requests[0]
    assert sent.url.startswith(GATEWAY) and ACCESS in str(sent.headers)
