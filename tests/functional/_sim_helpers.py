"""Helpers the per-provider simulator tests share: a simulator fixture, a client, failures.

Each ``test_<provider>_sim.py`` drives one provider end to end through ``WebSearch``
against the loopback simulator; how a client is built and how the one failure of a
forced-provider search is taken out of ``AllProvidersFailedError`` is the same for all of
them, so it lives here once and every module binds it to its provider id and query.

A generic fault (an error status, a 429 and its ``Retry-After``, a hang, a reset, a
truncated, malformed or oversized body, a redirect) is proven once for every provider by
``tests/contract/test_faults.py``, texts included; a provider's module tests only its
captures, its request shape and its real quirks.
"""

import asyncio
import base64
import json
import socket
import time
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from typing import Any

import aiohttp
import aiohttp.abc
import pytest

from tests.refused_port import refused_port
from websearch_core import Credentials, SearchToolResult, WebSearch
from websearch_core import providers as registry
from websearch_core.credentials import CredentialStore, OAuthToken, TokenRefresher
from websearch_core.errors import AllProvidersFailedError, SearchProviderError
from websearch_core.providers.base import ProviderContext
from websearch_core.providers.public import PublicProvider
from websearch_core.testing import Fault, Simulator
from websearch_core.testing.protocols.gemini import GeminiProtocol
from websearch_core.transport import Transport

__all__ = [
    "MISSING_CHROMIUM",
    "HangingNetwork",
    "PartlyDownNetwork",
    "SilentNameServer",
    "SwitchableNetwork",
    "Unresolvable",
    "catalogue_bound_sign_in",
    "chatgpt_token",
    "codex_sign_in",
    "environ_context",
    "failure_after",
    "fault_failure",
    "fault_result",
    "only_failure",
    "requests_per_provider",
    "sim_client",
    "simulator_fixture",
]

MISSING_CHROMIUM = "/nonexistent/chromium-for-tests"
"""A Chromium path that does not exist, for the "browser needed but missing" errors."""


class Unresolvable(aiohttp.abc.AbstractResolver):
    """A resolver that knows no name, as on a machine with no network.

    aiohttp connects to an IP literal without asking it, so the simulator's loopback
    providers still answer beside a provider whose base URL names a host.
    """

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[aiohttp.abc.ResolveResult]:
        raise OSError(socket.EAI_NONAME, "Name or service not known")

    async def close(self) -> None:
        return None


class SwitchableNetwork(Unresolvable):
    """A network that can come back: no name resolves until :attr:`online` is set.

    Online, every name but those in :attr:`unknown` resolves to loopback, so a base URL
    such as ``http://bing.invalid:<simulator port>`` reaches the simulator: the same client,
    and so the same state store, sees a search offline and the next one with the network
    back.
    """

    def __init__(self) -> None:
        self.online = False
        self.unknown: set[str] = set()

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[aiohttp.abc.ResolveResult]:
        if not self.online or host in self.unknown:
            return await super().resolve(host, port, family)
        return _loopback(host, port)


class SilentNameServer(SwitchableNetwork):
    """A network whose DNS server never answers until it is back, as with no upstream.

    ``getaddrinfo`` waits so until resolv.conf's timeouts give the name up (about 10 s
    with glibc's defaults): longer than any provider timeout a test sets. Online, names
    resolve to the simulator as :class:`SwitchableNetwork`'s do.
    """

    def __init__(self) -> None:
        super().__init__()
        self._back = asyncio.Event()

    def come_back(self) -> None:
        """The DNS server answers again, the lookups waiting on it included."""
        self.online = True
        self._back.set()

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[aiohttp.abc.ResolveResult]:
        await self._back.wait()
        return await super().resolve(host, port, family)


class PartlyDownNetwork(SwitchableNetwork):
    """A network whose DNS answers but whose every connection is refused until it is back.

    Offline, every name resolves to a loopback port nothing listens on (a firewall or a
    captive portal that refuses connections); :attr:`online` set, names reach the simulator.
    """

    def __init__(self) -> None:
        super().__init__()
        self.closed_port: int = refused_port()

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[aiohttp.abc.ResolveResult]:
        if host in self.unknown:
            return await Unresolvable.resolve(self, host, port, family)
        return _loopback(host, port if self.online else self.closed_port)


class HangingNetwork(SwitchableNetwork):
    """A network whose DNS answers but whose connections hang, as behind a dropping firewall.

    Every name (or only those in ``hanging``) resolves to a loopback port on which a new
    connection neither opens nor is refused (:func:`tests.hanging_port.hanging_port`);
    :attr:`online` set, every name reaches the simulator.

    Args:
        port: The hanging port.
        hanging: The host names whose connections hang; ``None``: every one.
    """

    def __init__(self, port: int, hanging: set[str] | None = None) -> None:
        super().__init__()
        self.port = port
        self.hanging = hanging

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[aiohttp.abc.ResolveResult]:
        hangs = not self.online and (self.hanging is None or host in self.hanging)
        return _loopback(host, self.port if hangs else port)


def _loopback(host: str, port: int) -> list[aiohttp.abc.ResolveResult]:
    """``host`` resolved to ``127.0.0.1`` at ``port``, as aiohttp connects to it."""
    loopback: aiohttp.abc.ResolveResult = {
        "hostname": host,
        "host": "127.0.0.1",
        "port": port,
        "family": socket.AF_INET,
        "proto": 0,
        "flags": socket.AI_NUMERICHOST,
    }
    return [loopback]


def credential_store(sim: Simulator) -> CredentialStore:
    """The credential store the simulator's settings name (where sign-ins are put)."""
    return CredentialStore(sim.settings().resolved_credentials_file())


def chatgpt_token(account: str = "acct-sim") -> str:
    """An access token whose claims name a ChatGPT account, as Codex's sign-in leaves one."""
    claims = {"https://api.openai.com/auth": {"chatgpt_account_id": account}}
    payload = base64.urlsafe_b64encode(json.dumps(claims).encode()).decode().rstrip("=")
    return f"eyJhbGciOiJSUzI1NiJ9.{payload}.sig"


def codex_sign_in(sim: Simulator, refresh_token: str | None = "refresh-1") -> None:
    """Store the ChatGPT sign-in Codex searches with (it reads no key), good for an hour."""
    token = OAuthToken(
        access_token=chatgpt_token(), refresh_token=refresh_token, expires_at=time.time() + 3600
    )
    credential_store(sim).set_oauth("codex", token)


def gemini_protocol(sim: Simulator) -> GeminiProtocol:
    """The simulated Gemini provider's protocol (Cloud Code, Google's token endpoint)."""
    protocol = sim["gemini"].protocol
    assert isinstance(protocol, GeminiProtocol)
    return protocol


def catalogue_bound_sign_in(sim: Simulator, entry: str, access_token: str) -> GeminiProtocol:
    """A Gemini sign-in under ``entry`` whose Cloud Code host serves only its account's models.

    For the tests of which model a sign-in without preview access ends up searching with:
    the caller sets the Cloud project its case needs.
    """
    credential_store(sim).set_oauth(entry, OAuthToken(access_token=access_token))
    protocol = gemini_protocol(sim)
    protocol.enforce_catalog = True
    return protocol


def simulator_fixture(*provider_ids: str) -> Callable[[], AsyncIterator[Simulator]]:
    """A ``sim`` fixture serving ``provider_ids``; assign it to ``sim`` in the test module.

    Example:
        ``sim = simulator_fixture("bing")`` at module level gives the tests a ``sim``
        argument, as a hand-written ``@pytest.fixture`` would.
    """

    @pytest.fixture
    async def sim() -> AsyncIterator[Simulator]:
        async with Simulator(list(provider_ids)) as simulator:
            yield simulator

    return sim


def sim_client(
    sim: Simulator,
    *,
    api_keys: dict[str, str] | None = None,
    oauth_refreshers: Mapping[str, TokenRefresher] | None = None,
    **overrides: Any,
) -> WebSearch:
    """A client on the simulator's settings (``overrides`` applied) and its keys.

    ``api_keys`` replaces the simulator's keys (a provider left without one, say);
    ``oauth_refreshers`` are the client's sign-in refresh hooks, for the tests of a hook.
    """
    keys = sim.api_keys() if api_keys is None else api_keys
    return WebSearch(sim.settings(**overrides), api_keys=keys, oauth_refreshers=oauth_refreshers)


@asynccontextmanager
async def environ_context(
    sim: Simulator, environ: Mapping[str, str] | None
) -> AsyncIterator[ProviderContext]:
    """A provider context sending to ``sim``, uncached, its credentials reading ``environ``.

    For the tests of what a chain or a provider does with ``Credentials`` given their own
    environment (``None``: ``os.environ``) rather than the one a ``WebSearch`` reads.
    """
    async with aiohttp.ClientSession() as session:
        transport = Transport(
            session, timeout_seconds=5.0, max_response_bytes=1 << 20, base_urls=sim.base_urls()
        )
        yield ProviderContext(
            transport=transport,
            settings=sim.settings(cache=False),
            credentials=Credentials(environ=environ),
        )


def requests_per_provider(sim: Simulator) -> dict[str, int]:
    """How many requests each simulated provider has had, to see which of them a chain asked."""
    return {pid: len(sim[pid].requests) for pid in sim.providers}


async def only_failure(
    ws: WebSearch, provider: str, query: str, **params: Any
) -> SearchProviderError:
    """The single failure of a search forced to ``provider`` (the search must fail)."""
    with pytest.raises(AllProvidersFailedError) as caught:
        await ws.search(query, provider=provider, **params)
    (failure,) = caught.value.failures
    return failure


async def fault_failure(
    sim: Simulator,
    provider: str,
    query: str,
    fault: Fault,
    overrides: dict[str, Any] | None = None,
    **params: Any,
) -> SearchProviderError:
    """Queue ``fault``, search once on a fresh client, return the failure it caused.

    Args:
        sim: The running simulator.
        provider: The provider to force (and whose endpoint gets the fault).
        query: The query.
        fault: What the endpoint does on the next request.
        overrides: Settings overrides for the client (``timeout_seconds=...``).
        **params: Search parameters.
    """
    sim[provider].enqueue(fault)
    return await _fresh_failure(sim, provider, query, overrides or {}, params)


async def failure_after(
    sim: Simulator,
    provider: str,
    query: str,
    *faults: Fault | None,
    always: bool = False,
    **overrides: Any,
) -> SearchProviderError:
    """Queue ``faults`` (``None``: a normal answer), search once, return the failure.

    Args:
        sim: The running simulator.
        provider: The provider to force (and whose endpoint gets the faults).
        query: The query.
        *faults: What the endpoint does on the next requests, in order.
        always: Serve the one fault on every request instead (for retried requests).
        **overrides: Settings overrides for the client (``timeout_seconds=...``), or
            ``api_keys=`` as :func:`sim_client` takes them.
    """
    if always:
        (fault,) = faults
        assert fault is not None
        sim[provider].always(fault)
    else:
        sim[provider].enqueue(*faults)
    return await _fresh_failure(sim, provider, query, overrides, {})


async def _fresh_failure(
    sim: Simulator,
    provider: str,
    query: str,
    overrides: dict[str, Any],
    params: dict[str, Any],
) -> SearchProviderError:
    async with sim_client(sim, **overrides) as ws:
        failure = await only_failure(ws, provider, query, **params)
    assert failure.provider == provider
    return failure


async def fault_result(
    sim: Simulator, provider: str, query: str, fault: Fault, **overrides: Any
) -> SearchToolResult:
    """Queue ``fault``, run once on a fresh client, return the error result the model sees."""
    sim[provider].enqueue(fault)
    async with sim_client(sim, **overrides) as ws:
        result = await ws.run(query, provider=provider)
    assert result.is_error
    assert result.response.provider == provider
    return result


SILENT = "is not answering: a call to it given up on before is still unanswered"
"""How a store known silent is named (the status table, resets, ``provider_status``)."""


def public_web_within(monkeypatch: pytest.MonkeyPatch, engines: list[str], seconds: float) -> None:
    """Make "public" ask ``engines`` and end its own fan-out (soft and hard) at ``seconds``.

    For tests where Public Web's deadline, not the engines' timeouts, cuts them off.
    """
    public = PublicProvider(
        soft_deadline_seconds=seconds,
        hard_deadline_seconds=seconds,
        engines=[registry.get_provider(pid) for pid in engines],
    )
    monkeypatch.setitem(registry._instances, "public", public)
