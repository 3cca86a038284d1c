"""One ``Transport`` of the user's own, shared by contexts whose settings trust different ids.

Stop 44 (signinown) made each ``ProviderContext`` tell its transport the ids its settings
trust in ``sign_in_gateways``, added to what the transport trusted. A transport given to
two contexts then trusted the union: a context whose settings trust no gateway sent the
ChatGPT sign-in through the Codex gateway set on the transport because another context,
sharing the transport, trusted ``codex``. Each request is now judged by the settings of the
context that makes it (and the ids the transport itself was given).

The simulator plays an HTTP proxy for every non-loopback host, so a request that goes out
arrives there and is recorded: which of the two contexts' requests carried the sign-in is
read from what the proxy received.
"""

import asyncio
import dataclasses
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import ClassVar

import aiohttp
import pytest

from tests.proxied_sign_ins import stored_sign_in
from websearch_core import Credentials, SearchParams, get_provider
from websearch_core.credentials import CredentialStore
from websearch_core.errors import ProviderNotConfiguredError
from websearch_core.models import SearchResponse
from websearch_core.provider_credentials import Credential
from websearch_core.providers.base import ProviderContext, ProviderInfo, SearchProvider
from websearch_core.testing import Simulator
from websearch_core.transport import HttpRequest, Transport

ACCESS = "ya29.a0shared-transport-access-0123456789"
GATEWAY = "http://codex-gateway.invalid"
"""The Codex gateway set on the shared transport: neither loopback nor ChatGPT's host."""
QUERY = "python asyncio"


class RoutedPlugin(SearchProvider):
    """A user's provider that sends the stored ChatGPT sign-in itself, under ``codex``'s
    route: only the transport's judgement stands between it and the gateway (its search
    guard has no credential of its own to check)."""

    info: ClassVar[ProviderInfo] = ProviderInfo(
        id="routed-plugin",
        label="Routed Plugin",
        kind="api",
        description="a user's own provider",
        docs_url="https://routed-plugin.example/docs",
    )
    credential_kinds: ClassVar[tuple[Credential, ...]] = ()

    async def search(self, params: SearchParams, context: ProviderContext) -> SearchResponse:
        token = context.credentials.oauth_token("codex")
        assert token is not None
        request = HttpRequest(
            method="GET",
            url=f"https://chatgpt.com/search?q={params.query}",
            headers={"Authorization": f"Bearer {token.access_token}"},
        )
        await context.transport.send(self.info.id, self.info.label, request, route="codex")
        return SearchResponse(provider=self.info.id, answer="sent")


@pytest.fixture
def store(tmp_path: Path) -> Path:
    return stored_sign_in(tmp_path / "credentials.json", "codex", ACCESS)


@asynccontextmanager
async def _two_contexts(
    sim: Simulator, store: Path
) -> AsyncIterator[tuple[ProviderContext, ProviderContext]]:
    """Two contexts built on one transport of the user's own (given no credentials) that
    sends ``codex`` to :data:`GATEWAY` through the simulator as its proxy: the first's
    settings trust ``codex``, the second's trust nothing. Both are built before either
    searches, as two clients sharing a transport are."""
    async with aiohttp.ClientSession() as session:
        transport = Transport(
            session,
            timeout_seconds=5.0,
            max_response_bytes=1 << 20,
            base_urls={"codex": GATEWAY},
            proxy=sim["codex"].base_url,
        )
        trusting = sim.settings(
            base_urls={}, credentials_file=store, cache=False, sign_in_gateways=["codex"]
        )
        untrusting = sim.settings(base_urls={}, credentials_file=store, cache=False)
        contexts = tuple(
            ProviderContext(
                transport=transport,
                settings=settings,
                credentials=Credentials(store=CredentialStore(store)),
            )
            for settings in (trusting, untrusting)
        )
        yield contexts[0], contexts[1]


def _carrying(sim: Simulator) -> int:
    """How many requests the proxy received carried the sign-in."""
    return sum(ACCESS in str(dict(r.headers)) for r in sim["codex"].requests)


async def test_a_context_not_trusting_the_gateway_is_refused_though_another_trusts_it(
    store: Path,
) -> None:
    """Failed before: the untrusting context's Codex search sent the sign-in to the gateway,
    trusted by the other context's settings. Its refusal names the gateway, never the
    token; the trusting context's search still goes there."""
    async with Simulator(["codex"]) as sim, _two_contexts(sim, store) as (trusted, untrusted):
        with pytest.raises(ProviderNotConfiguredError) as refused:
            await get_provider("codex").search(SearchParams(query=QUERY), untrusted)
        assert _carrying(sim) == 0
        assert GATEWAY in str(refused.value) and ACCESS not in str(refused.value)

        answer = await get_provider("codex").search(SearchParams(query=QUERY), trusted)
        assert answer.provider == "codex"
        assert _carrying(sim) >= 1


async def test_a_plugin_sending_itself_is_judged_by_its_own_contexts_settings(
    store: Path,
) -> None:
    """Failed before: the plugin's request under ``route="codex"`` from the untrusting
    context went to the gateway with the sign-in; searched at once, each context's request
    is judged by its own settings: one carried it out, the other none."""
    async with Simulator(["codex"]) as sim, _two_contexts(sim, store) as (trusted, untrusted):
        params = SearchParams(query=QUERY)
        sent, refused = await asyncio.gather(
            RoutedPlugin().search(params, trusted),
            RoutedPlugin().search(params, untrusted),
            return_exceptions=True,
        )
        assert isinstance(sent, SearchResponse) and sent.answer == "sent", sent
        assert isinstance(refused, ProviderNotConfiguredError), refused
        assert ACCESS not in str(refused)
        assert 'sign_in_gateways=["codex"]' in str(refused), refused
        assert _carrying(sim) == 1


async def test_a_context_copied_with_other_settings_drops_the_first_settings_trust(
    store: Path,
) -> None:
    """Failed before (the shared transport trusted ``codex`` for every context); also fails
    when a context's copy of the transport is copied again rather than the shared one: a
    trusting context rebuilt with settings that trust nothing (``dataclasses.replace``)
    is judged by the new settings."""
    async with Simulator(["codex"]) as sim, _two_contexts(sim, store) as (trusted, untrusted):
        copied = dataclasses.replace(trusted, settings=untrusted.settings)
        with pytest.raises(ProviderNotConfiguredError):
            await RoutedPlugin().search(SearchParams(query=QUERY), copied)
        assert _carrying(sim) == 0


async def test_guard_a_transport_trusting_the_settings_ids_is_the_contexts_own() -> None:
    """Guard (passes before and after): a transport with settings trusting none is the
    context's own object (no copy made per context), and the ids given to it go on being
    trusted. Since stop 50 (signins3) settings trusting any id get a copy even when the
    transport trusts them already (the client's): held itself, the context lost them when
    the owner stopped trusting them (``test_sign_in_owner_trust``)."""
    async with Simulator(["codex"]) as sim, aiohttp.ClientSession() as session:
        transport = Transport(
            session, timeout_seconds=5.0, max_response_bytes=1 << 20, sign_in_gateways=["codex"]
        )
        for trusted in ([], ["codex"]):
            settings = sim.settings(base_urls={}, cache=False, sign_in_gateways=trusted)
            context = ProviderContext(
                transport=transport, settings=settings, credentials=Credentials(environ={})
            )
            assert (context.transport is transport) is not trusted
            assert set(context.sign_in_gateways) == {"codex"}
