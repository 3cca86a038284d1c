"""A plugin's own sign-in variable, judged where a request carrying its value is sent.

Stop 42 judged stored sign-ins, and the two given ones the built-in providers record
(Perplexity's cookies, an Anthropic OAuth token given as the key), where each request is
sent. A user's provider declaring ``SecretVariable(..., sign_in=True)`` (a session cookie of
its service) and reading it through ``Credentials.secret_env`` was judged only where its
URL is set: a request it built for a host of its own choosing, plain http included,
carried the session there. ``Credentials`` now knows which variables the provider classes
declare as sign-ins, and records such a value when it reads it.

The simulator plays an HTTP proxy for every non-loopback host, so a request that goes out
arrives there and is recorded.
"""

from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import ClassVar

import pytest

from tests.proxied_sign_ins import proxied_context, seen_by_proxy
from websearch_core import Credentials, SearchParams
from websearch_core.errors import ProviderNotConfiguredError
from websearch_core.models import SearchResponse
from websearch_core.provider_credentials import Credential, SecretVariable
from websearch_core.providers.base import ProviderContext, ProviderInfo, SearchProvider
from websearch_core.redaction import MIN_TOKEN_LENGTH
from websearch_core.sign_in_sends import judged_refusal
from websearch_core.testing import Simulator
from websearch_core.transport import HttpRequest

VARIABLE = "SESSION_PLUGIN_COOKIE"
SESSION = "sp_session=eyJ1c2VyIjoiYWxpY2UifQ.plugin-session-0123456789"
OWN_HOST = "api.session-plugin.example"
FOREIGN = "http://foreign.invalid"


def _info(provider_id: str, label: str) -> ProviderInfo:
    return ProviderInfo(
        id=provider_id,
        label=label,
        kind="api",
        description="a user's own provider",
        docs_url="https://session-plugin.example/docs",
    )


class SessionPlugin(SearchProvider):
    """A user's provider whose credential is its service's session cookie, declared as a
    sign-in; its search sends it, read through ``secret_env`` (or ``env``), to ``url``."""

    info: ClassVar[ProviderInfo] = _info("session-plugin", "Session Plugin")
    credential_kinds: ClassVar[tuple[Credential, ...]] = (
        SecretVariable(VARIABLE, "Session Plugin session cookie", header="Cookie", sign_in=True),
    )
    sign_in_hosts: ClassVar[tuple[str, ...]] = (OWN_HOST,)
    url_variables: ClassVar[tuple[str, ...]] = ("SESSION_PLUGIN_URL",)
    url: ClassVar[str] = FOREIGN
    read_as_secret: ClassVar[bool] = True

    async def search(self, params: SearchParams, context: ProviderContext) -> SearchResponse:
        credentials = context.credentials
        read = credentials.secret_env if self.read_as_secret else credentials.env
        cookie = read(VARIABLE)
        assert cookie is not None
        base = credentials.env("SESSION_PLUGIN_URL") or self.url
        request = HttpRequest(method="GET", url=f"{base}/search", headers={"Cookie": cookie})
        await context.transport.send(self.info.id, self.info.label, request)
        return SearchResponse(provider=self.info.id, answer="sent")


class Borrower(SessionPlugin):
    """Another provider that declares no sign-in, yet reads the plugin's variable and sends
    it: judged by the hosts of the classes that declare the variable."""

    info: ClassVar[ProviderInfo] = _info("session-borrower", "Session Borrower")
    credential_kinds: ClassVar[tuple[Credential, ...]] = ()
    sign_in_hosts: ClassVar[tuple[str, ...]] = ()


@asynccontextmanager
async def _context(sim: Simulator, environ: Mapping[str, str]) -> AsyncIterator[ProviderContext]:
    """A context sending through the simulator as its proxy, the variables read from
    ``environ``."""
    resolved = sim.settings(base_urls={}, cache=False)
    async with proxied_context(sim, resolved, Credentials(environ=environ)) as context:
        yield context


def refused_off_own_host(error: ProviderNotConfiguredError) -> str:
    """The refusal's text, checked to refuse the session cookie to :data:`FOREIGN` by name,
    for the plugin's own host only, without the cookie or any part of it."""
    text = str(error)
    assert error.provider == "session-plugin"
    assert text.startswith(
        f"Refusing to send the Session Plugin session cookie in {VARIABLE} to {FOREIGN}: "
        f'provider "session-plugin" (Session Plugin) declares its sign-in for {OWN_HOST} only'
    ), text
    assert SESSION not in text and "eyJ1c2VyIjoiYWxpY2UifQ" not in text
    return text


@pytest.mark.parametrize("as_secret", [True, False], ids=["secret_env", "env"])
async def test_a_plugin_sign_in_variable_is_not_sent_off_its_hosts(as_secret: bool) -> None:
    provider = type("Made", (SessionPlugin,), {"read_as_secret": as_secret})()
    async with Simulator(["codex"]) as sim, _context(sim, {VARIABLE: SESSION}) as context:
        with pytest.raises(ProviderNotConfiguredError) as refused:
            await provider.search(SearchParams(query="q"), context)
        assert sim["codex"].requests == []
    text = refused_off_own_host(refused.value)
    # Its own sign-in: its own id may be trusted, on its Transport (the settings know no
    # plugin's id, so WEBSEARCH_SIGN_IN_GATEWAYS cannot name it).
    assert 'base_urls={"session-plugin": "<that endpoint>"}' in text, text
    assert 'sign_in_gateways=["session-plugin"]' in text and "WEBSEARCH_" not in text
    assert "stored under" not in text


async def test_a_provider_not_declaring_the_variable_is_held_to_its_declarers_hosts() -> None:
    async with Simulator(["codex"]) as sim, _context(sim, {VARIABLE: SESSION}) as context:
        with pytest.raises(ProviderNotConfiguredError) as refused:
            await Borrower().search(SearchParams(query="q"), context)
        assert sim["codex"].requests == []
    text = str(refused.value)
    assert text.startswith(f"Refusing to send the Session Plugin session cookie in {VARIABLE}")
    assert (
        f'provider "session-borrower" (Session Borrower) declares its sign-in for {OWN_HOST}'
        in text
    )
    assert SESSION not in text


async def test_a_short_value_is_not_recorded() -> None:
    # Guard (passes before and after): a value under MIN_TOKEN_LENGTH is no session, and
    # judged by substring it would be found in other requests; it goes as it went.
    short = "sp=1"
    assert len(short) < MIN_TOKEN_LENGTH
    async with Simulator(["codex"]) as sim, _context(sim, {VARIABLE: short}) as context:
        answer = await SessionPlugin().search(SearchParams(query="q"), context)
        assert answer.answer == "sent"
        assert short in seen_by_proxy(sim)
        assert context.credentials.sign_ins == {}


async def test_a_plugin_sign_in_still_goes_to_a_loopback_address() -> None:
    # Guard (passes before and after): the URL set in the plugin's own variable, a loopback
    # address, receives the session, as any sign-in may go there.
    async with Simulator(["codex"]) as sim:
        environ = {VARIABLE: SESSION, "SESSION_PLUGIN_URL": sim["codex"].base_url}
        async with _context(sim, environ) as context:
            answer = await SessionPlugin().search(SearchParams(query="q"), context)
            assert SESSION in context.credentials.secrets()
        assert answer.answer == "sent"
        assert SESSION in seen_by_proxy(sim)


async def test_a_plugin_sign_in_is_judged_by_its_declared_hosts() -> None:
    # Its sign_in_hosts over https are its own, another host is not; the simulator cannot
    # answer over https, so the transport's judgement is asked directly.
    credentials = Credentials(environ={VARIABLE: SESSION})
    assert credentials.secret_env(VARIABLE) == SESSION
    sent = HttpRequest(method="GET", url=f"https://{OWN_HOST}/search", headers={"Cookie": SESSION})
    args = ("session-plugin", "Session Plugin", None, (), {})
    assert judged_refusal(sent, sent.url, credentials, *args) is None
    elsewhere = HttpRequest(method="GET", url="https://other.example/s", headers=sent.headers)
    refused = judged_refusal(elsewhere, elsewhere.url, credentials, *args)
    assert refused is not None and VARIABLE in refused
