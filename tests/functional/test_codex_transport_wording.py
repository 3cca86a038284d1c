"""Codex's transport failures read as the reference words Codex's: ``Codex request failed:``.

The reference says ``Codex request failed: <message>`` (and ``Codex API error``, ``Codex
error``) for every failure of Codex's own; a refused or reset connection, TLS, a timeout,
a request not sent and a redirect refused said ``OpenAI search failed: ...`` from the
provider's label, so one provider's failures read under two names. Each path is driven
through the loopback simulator, the class and status checked unchanged beside the text.
"""

from pathlib import Path
from urllib.parse import urlsplit

import aiohttp
import pytest

from tests.functional._sim_helpers import codex_sign_in
from tests.proxied_sign_ins import stored_sign_in
from tests.refused_port import refused_port
from websearch_core import WebSearch
from websearch_core.errors import (
    AllProvidersFailedError,
    HostNotReachedError,
    ProviderConnectionError,
    ProviderTimeoutError,
    SearchProviderError,
)
from websearch_core.providers import get_provider
from websearch_core.testing import Fault, Simulator
from websearch_core.transport import MAX_REDIRECTS

QUERY = "python asyncio"
STEM = "Codex request failed: "


async def _failure(sim: Simulator, **overrides: object) -> tuple[SearchProviderError, str]:
    """Codex's typed failure of one search and the text ``run`` gives for it."""
    codex_sign_in(sim)
    settings = sim.settings(cache=False, rate_limit_wait_seconds=0, **overrides)
    async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
        result = await ws.run(QUERY, provider="codex")
        with pytest.raises(AllProvidersFailedError) as caught:
            await ws.search(QUERY, provider="codex")
    assert result.error is not None
    failure = caught.value.failures[-1]
    assert isinstance(failure, SearchProviderError) and failure.provider == "codex"
    return failure, result.error


async def test_a_refused_connection() -> None:
    """Failed before: ``OpenAI search failed: the connection failed (...)``."""
    host = f"127.0.0.1:{refused_port()}"
    async with Simulator(["codex"]) as sim:
        failure, said = await _failure(sim, base_urls={"codex": f"http://{host}"})
    assert said.startswith(
        f"{STEM}the connection failed ({host}): could not connect (ClientConnectorError)"
    ), said
    assert said.startswith(failure.message)
    assert type(failure) is HostNotReachedError and failure.status is None


async def test_a_reset_connection() -> None:
    """Failed before: ``OpenAI search failed: the connection ...``."""
    async with Simulator(["codex"]) as sim:
        sim["codex"].always(Fault.reset())
        failure, said = await _failure(sim)
    assert failure.message.startswith(STEM) and said.startswith(failure.message), said
    assert "OpenAI" not in failure.message
    assert isinstance(failure, ProviderConnectionError)


async def test_a_timeout() -> None:
    """Failed before: ``OpenAI search timed out after 0.5s``."""
    async with Simulator(["codex"]) as sim:
        sim["codex"].always(Fault.hang(30))
        failure, said = await _failure(sim, timeout_seconds=0.5)
    assert failure.message == f"{STEM}timed out after 0.5s", failure.message
    assert said.startswith(failure.message)
    assert type(failure) is ProviderTimeoutError and failure.status is None


async def test_a_tls_handshake_that_fails() -> None:
    """Failed before: ``OpenAI search failed: ...``: https to the simulator's plain http."""
    async with Simulator(["codex"]) as sim:
        plain = urlsplit(sim["codex"].base_url)
        base = f"https://{plain.netloc}{plain.path}"
        failure, said = await _failure(sim, base_urls={"codex": base})
    assert failure.message.startswith(STEM), failure.message
    assert "OpenAI" not in failure.message and said.startswith(failure.message)
    assert isinstance(failure, ProviderConnectionError)


async def test_a_redirect_loop() -> None:
    """Failed before: ``OpenAI search failed: the request was redirected more than 5 times``."""
    async with Simulator(["codex"]) as sim:
        sim["codex"].always(Fault.redirect("/loop", 302))
        failure, said = await _failure(sim)
    expected = f"{STEM}the request was redirected more than {MAX_REDIRECTS} times"
    assert failure.message == said == expected
    assert type(failure) is SearchProviderError


async def test_a_cut_stream() -> None:
    """Failed before: ``OpenAI search failed: the stream ended in the middle of an event``."""
    cut = Fault.http(200, 'data: {"type": "response.crea', {"Content-Type": "text/event-stream"})
    async with Simulator(["codex"]) as sim:
        sim["codex"].always(cut)
        failure, said = await _failure(sim)
    assert failure.message == said == f"{STEM}the stream ended in the middle of an event"
    assert type(failure) is ProviderConnectionError and failure.status is None


async def test_a_request_not_sent(tmp_path: Path) -> None:
    """Failed before: ``OpenAI search failed: the request was not sent: ...``."""
    store = stored_sign_in(
        tmp_path / "credentials.json", "codex", "access-0123456789", refresh_token="r"
    )
    async with Simulator(["codex"]) as sim:
        host = urlsplit(sim["codex"].base_url).hostname
        session = aiohttp.ClientSession(proxy="http://proxy.example.invalid:3128")
        settings = sim.settings(credentials_file=store, cache=False)
        async with session, WebSearch(settings, api_keys={}, session=session) as ws:
            result = await ws.run(QUERY, provider="codex")
    assert sim["codex"].requests == []
    assert result.error is not None
    assert result.error.startswith(
        f"{STEM}the request was not sent: the HTTP session given to WebSearch would send it "
        f"to the loopback address {host} through the proxy"
    ), result.error


def test_the_hard_stop_says_the_transport_timeouts_text() -> None:
    """Failed before: ``OpenAI search timed out after 0.5s`` (the attempt's hard stop)."""
    assert get_provider("codex").timed_out_text(0.5) == f"{STEM}timed out after 0.5s"


def test_other_providers_keep_their_label() -> None:
    """A guard: only Codex is reworded; OpenAI's label stays Codex's display name."""
    assert get_provider("brave").timed_out_text(0.5) == "Brave search timed out after 0.5s"
    assert get_provider("codex").info.label == "OpenAI"
