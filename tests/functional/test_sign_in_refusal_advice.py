"""A sign-in's refusal advises only what can be done, and doing it lets the request through.

Before stop 44 (refusaladvice) every refusal to send a sign-in off its hosts ended "or set
base_urls.<id> to that endpoint and add <id> to sign_in_gateways", <id> being the base URL
id the request went under: ``brave`` for a request sent with ``route="brave"``, a plugin's
id for a plugin declaring no sign-in. The settings refuse both in ``sign_in_gateways``, and
a ``Transport`` built without the client's credentials is never given the settings' base
URLs, so the advice could not be followed. Each test here reads the advice out of the
refusal, follows it to the letter (the route it names, the settings or the ``Transport``
arguments it names) and checks that the same request then reaches the gateway.

The simulator plays an HTTP proxy for every non-loopback host, so a request that goes out
arrives there and is recorded.
"""

import re
from collections.abc import AsyncIterator, Collection, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import pytest

from tests.functional.test_plugin_sign_in_send_time import SESSION, VARIABLE, SessionPlugin
from tests.proxied_sign_ins import PROXY_SERVICE, proxied_context, seen_by_proxy, stored_sign_in
from websearch_core import Credentials, SearchParams
from websearch_core.credentials import CredentialStore
from websearch_core.errors import ProviderNotConfiguredError
from websearch_core.models import SearchResponse
from websearch_core.provider_credentials import Credential
from websearch_core.providers.base import ProviderContext, ProviderInfo, SearchProvider
from websearch_core.providers.codex import CodexProvider
from websearch_core.settings import Settings
from websearch_core.testing import Simulator
from websearch_core.transport import HttpRequest

ACCESS = "ya29.a0advice-access-token-0123456789"
GATEWAY = "http://gateway.invalid"
"""The gateway the user wants: neither loopback nor any provider's own host."""

assert CodexProvider.info.id == "codex"  # imported: its class declares the ChatGPT sign-in


@pytest.fixture
def store(tmp_path: Path) -> Path:
    return stored_sign_in(tmp_path / "credentials.json", "codex", ACCESS)


class Borrowing(SearchProvider):
    """A user's provider declaring no sign-in that reads Codex's by its entry and sends it
    through the transport itself, under the route the test gives it."""

    info: ClassVar[ProviderInfo] = ProviderInfo(
        id="advice-plugin",
        label="Advice Plugin",
        kind="api",
        description="a user's own provider",
        docs_url="https://plugin.example/docs",
    )
    credential_kinds: ClassVar[tuple[Credential, ...]] = ()

    def __init__(self, route: str | None) -> None:
        self.route = route

    async def search(self, params: SearchParams, context: ProviderContext) -> SearchResponse:
        token = context.credentials.oauth_token("codex")
        assert token is not None
        request = HttpRequest(
            method="GET",
            url="https://api.advice-plugin.example/search",
            headers={"Authorization": f"Bearer {token.access_token}"},
        )
        await context.transport.send(self.info.id, self.info.label, request, route=self.route)
        return SearchResponse(provider=self.info.id, answer="sent")


@dataclass(frozen=True)
class Advice:
    """What a refusal tells the user to do, read out of its text."""

    route: str | None
    """The route to send the sign-in under, when not the one it went under."""
    settings_id: str | None
    """The id to set ``base_urls.<id>`` for and add to ``sign_in_gateways``, in settings."""
    transport_id: str | None
    """The id to give the ``Transport``'s ``base_urls=`` and ``sign_in_gateways=``."""


_ROUTE = re.compile(r'send it under route="([^"]+)"')
_SETTINGS = re.compile(
    r"set base_urls\.(\S+) to that endpoint and add (\S+) to sign_in_gateways "
    r"\(WEBSEARCH_SIGN_IN_GATEWAYS\) to trust it"
)
_TRANSPORT = re.compile(
    r'build the Transport with (?:base_urls=\{"([^"]+)": "<that endpoint>"\} and )?'
    r'sign_in_gateways=\["([^"]+)"\] to trust'
)
"""The Transport's arguments: its ``base_urls=`` named too unless the URL is set on it."""


def _advice(refused: ProviderNotConfiguredError, *secrets: str) -> Advice:
    """The advice in ``refused``, checked to name one id for both settings it names and to
    show none of ``secrets``."""
    text = str(refused)
    for secret in secrets:
        assert secret not in text
    route = _ROUTE.search(text)
    in_settings = _SETTINGS.search(text)
    on_transport = _TRANSPORT.search(text)
    assert (in_settings is None) != (on_transport is None), text  # one way, named once
    named = in_settings or on_transport
    assert named is not None and named[1] in (None, named[2]), text
    return Advice(
        route[1] if route else None,
        in_settings[2] if in_settings else None,
        on_transport[2] if on_transport else None,
    )


@asynccontextmanager
async def _client_context(
    sim: Simulator, settings: Settings, credentials: Credentials
) -> AsyncIterator[ProviderContext]:
    """A context built as the client builds its own: the transport takes the settings' base
    URLs and trusted gateways, and the credentials, so it judges every request."""
    async with proxied_context(
        sim,
        settings,
        credentials,
        routes=settings.base_urls,
        gateways=settings.sign_in_gateways,
    ) as context:
        yield context


@asynccontextmanager
async def _own_context(
    sim: Simulator,
    credentials: Credentials,
    routes: Mapping[str, str],
    gateways: Collection[str] = (),
) -> AsyncIterator[ProviderContext]:
    """A context with a ``Transport`` of the user's own, given no credentials: ``routes``
    and ``gateways`` are its ``base_urls=`` and ``sign_in_gateways=``."""
    settings = sim.settings(base_urls={}, cache=False)
    async with proxied_context(
        sim, settings, credentials, routes=routes, gateways=gateways, own_transport=True
    ) as context:
        assert not context.transport.judges_sign_ins
        yield context


@pytest.mark.parametrize("route", ["brave", None], ids=["route-brave", "own-id"])
async def test_the_advice_for_a_route_the_settings_refuse_names_the_owners_route(
    store: Path, route: str | None
) -> None:
    """Failed before: the advice named ``brave`` (or ``advice-plugin``) to add to
    ``sign_in_gateways``, which the settings refuse; it now names Codex's route, and the
    settings it names take the sign-in to the gateway."""
    async with Simulator([PROXY_SERVICE]) as sim:
        routes = {route: GATEWAY} if route else {}
        credentials = Credentials(store=CredentialStore(store))
        untrusted = sim.settings(base_urls=routes, credentials_file=store, cache=False)
        async with _client_context(sim, untrusted, credentials) as context:
            with pytest.raises(ProviderNotConfiguredError) as refused:
                await Borrowing(route).search(SearchParams(query="q"), context)
        assert sim[PROXY_SERVICE].requests == []
        advice = _advice(refused.value, ACCESS)
        assert advice == Advice(route="codex", settings_id="codex", transport_id=None)

        trusted = sim.settings(  # what the advice names, accepted by the settings
            base_urls={advice.settings_id: GATEWAY},
            sign_in_gateways=[advice.settings_id],
            credentials_file=store,
            cache=False,
        )
        async with _client_context(sim, trusted, credentials) as context:
            answer = await Borrowing(advice.route).search(SearchParams(query="q"), context)
        assert answer.answer == "sent"
        assert ACCESS in seen_by_proxy(sim)


async def test_the_settings_advice_can_be_given_in_the_variable_it_names(
    store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Failed before (``WEBSEARCH_SIGN_IN_GATEWAYS=brave`` is refused): the variable the
    advice names takes the id it names."""
    async with Simulator([PROXY_SERVICE]) as sim:
        credentials = Credentials(store=CredentialStore(store))
        untrusted = sim.settings(base_urls={"brave": GATEWAY}, cache=False)
        async with _client_context(sim, untrusted, credentials) as context:
            with pytest.raises(ProviderNotConfiguredError) as refused:
                await Borrowing("brave").search(SearchParams(query="q"), context)
        advice = _advice(refused.value, ACCESS)
        assert advice.settings_id is not None
        monkeypatch.setenv("WEBSEARCH_SIGN_IN_GATEWAYS", advice.settings_id)
        monkeypatch.setenv(f"WEBSEARCH_{advice.settings_id.upper()}_BASE_URL", GATEWAY)
        from_variables = Settings()
        assert from_variables.sign_in_gateways == (advice.settings_id,)
        assert from_variables.base_urls[advice.settings_id] == GATEWAY


async def test_an_own_transport_is_advised_its_own_arguments_for_a_plugins_own_sign_in() -> None:
    """Failed before: the advice named ``base_urls.session-plugin`` and
    ``WEBSEARCH_SIGN_IN_GATEWAYS``, which the settings refuse (no provider has that id) and
    which such a transport never reads; it now names the ``Transport``'s own arguments, and
    a transport built with them sends the plugin's session to the gateway."""
    with pytest.raises(ValueError, match="unknown provider id session-plugin"):
        Settings(sign_in_gateways=["session-plugin"])  # why the settings are not named
    async with Simulator([PROXY_SERVICE]) as sim:
        credentials = Credentials(environ={VARIABLE: SESSION})
        routes = {"session-plugin": GATEWAY}
        async with _own_context(sim, credentials, routes) as context:
            with pytest.raises(ProviderNotConfiguredError) as refused:
                await SessionPlugin().search(SearchParams(query="q"), context)
        assert sim[PROXY_SERVICE].requests == []
        advice = _advice(refused.value, SESSION, "eyJ1c2VyIjoiYWxpY2UifQ")
        assert advice == Advice(route=None, settings_id=None, transport_id="session-plugin")

        assert advice.transport_id is not None
        followed = {advice.transport_id: GATEWAY}
        async with _own_context(sim, credentials, followed, [advice.transport_id]) as context:
            answer = await SessionPlugin().search(SearchParams(query="q"), context)
        assert answer.answer == "sent"
        assert SESSION in seen_by_proxy(sim)


async def test_an_own_transport_is_advised_the_owners_route_on_its_own_arguments(
    store: Path,
) -> None:
    """Failed before: a request under ``route="brave"`` through a transport of the user's
    own was advised ``base_urls.brave`` and ``sign_in_gateways``; it is now advised Codex's
    route on the transport's arguments, which take the sign-in to the gateway."""
    async with Simulator([PROXY_SERVICE]) as sim:
        credentials = Credentials(store=CredentialStore(store))
        async with _own_context(sim, credentials, {"brave": GATEWAY}) as context:
            with pytest.raises(ProviderNotConfiguredError) as refused:
                await Borrowing("brave").search(SearchParams(query="q"), context)
        assert sim[PROXY_SERVICE].requests == []
        advice = _advice(refused.value, ACCESS)
        assert advice == Advice(route="codex", settings_id=None, transport_id="codex")

        assert advice.transport_id is not None
        followed = {advice.transport_id: GATEWAY}
        async with _own_context(sim, credentials, followed, [advice.transport_id]) as context:
            answer = await Borrowing(advice.route).search(SearchParams(query="q"), context)
        assert answer.answer == "sent"
        assert ACCESS in seen_by_proxy(sim)


async def test_guard_a_route_the_settings_accept_keeps_its_advice(store: Path) -> None:
    """Guard (passes before and after): under ``route="codex"`` the advice names ``codex``
    in the settings, as it did, and following it lets the sign-in through."""
    async with Simulator([PROXY_SERVICE]) as sim:
        credentials = Credentials(store=CredentialStore(store))
        untrusted = sim.settings(base_urls={"codex": GATEWAY}, cache=False)
        async with _client_context(sim, untrusted, credentials) as context:
            with pytest.raises(ProviderNotConfiguredError) as refused:
                await Borrowing("codex").search(SearchParams(query="q"), context)
        assert sim[PROXY_SERVICE].requests == []
        advice = _advice(refused.value, ACCESS)
        assert advice == Advice(route=None, settings_id="codex", transport_id=None)

        trusted = sim.settings(
            base_urls={"codex": GATEWAY}, sign_in_gateways=["codex"], cache=False
        )
        async with _client_context(sim, trusted, credentials) as context:
            answer = await Borrowing("codex").search(SearchParams(query="q"), context)
        assert answer.answer == "sent"
        assert ACCESS in seen_by_proxy(sim)


@pytest.mark.parametrize("own_transport", [True, False], ids=["own", "given-credentials"])
async def test_a_url_set_on_the_transport_is_advised_the_transports_own_trust(
    store: Path, own_transport: bool
) -> None:
    """Failed before: the Codex gateway set on a ``Transport`` the user built was refused
    (by the credential check) with "add codex to sign_in_gateways
    (WEBSEARCH_SIGN_IN_GATEWAYS)", the settings, though the URL was set on the transport;
    it now names the transport's ``sign_in_gateways=``, and a transport built with it
    sends the sign-in to the gateway."""
    async with Simulator([PROXY_SERVICE]) as sim:
        credentials = Credentials(store=CredentialStore(store))
        settings = sim.settings(base_urls={}, credentials_file=store, cache=False)
        routes = {"codex": GATEWAY}
        async with proxied_context(
            sim, settings, credentials, routes=routes, own_transport=own_transport
        ) as context:
            with pytest.raises(ProviderNotConfiguredError) as refused:
                await CodexProvider().search(SearchParams(query="q"), context)
        assert sim[PROXY_SERVICE].requests == []
        assert "add codex to sign_in_gateways" not in str(refused.value), refused.value
        advice = _advice(refused.value, ACCESS)
        assert advice == Advice(route=None, settings_id=None, transport_id="codex")

        assert advice.transport_id is not None
        async with proxied_context(
            sim,
            settings,
            credentials,
            routes=routes,
            gateways=[advice.transport_id],
            own_transport=own_transport,
        ) as context:
            answer = await CodexProvider().search(SearchParams(query="q"), context)
        assert answer.provider == "codex"
        assert ACCESS in seen_by_proxy(sim)
