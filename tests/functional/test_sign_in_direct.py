"""A provider's own ``search()`` refuses a sign-in for an untrusted gateway, as the chain does.

``get_provider(id).search(params, context)`` is public (the README's example of a provider
asked alone). The chain checks where each sign-in would go before it asks a provider
(``tests/functional/test_sign_in_gateways.py``); a provider called directly, or as an engine
of a fan-out, ran no check and sent the sign-in to whatever base URL was set, over plain http
too. Each kind of sign-in is sent here through a real transport to a gateway that is neither
loopback nor the service's own host; the simulator plays an HTTP proxy for it, so a request
that goes out arrives and is seen.
"""

import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.proxied_sign_ins import proxied_context
from websearch_core import Credentials, SearchParams, WebSearch, get_provider
from websearch_core.credentials import CredentialStore, OAuthToken
from websearch_core.errors import ProviderNotConfiguredError, SearchProviderError
from websearch_core.providers import ProviderContext
from websearch_core.providers.base import SearchProvider
from websearch_core.providers.public import PublicProvider
from websearch_core.settings import Settings
from websearch_core.testing import Simulator

QUERY = "python asyncio"
ACCESS = "ya29.a0direct-access-token"
REFRESH = "refresh-token-direct-0123456789"
OAT = "sk-ant-oat01-direct-0123456789abcdef"
COOKIE_VALUE = "cookie-direct-0123456789abcdef"
COOKIE = f"__Secure-next-auth.session-token={COOKIE_VALUE}"


@dataclass(frozen=True)
class SignIn:
    """One kind of sign-in: where it is set, and the base URL id its requests go through."""

    provider: str
    route: str
    sent: str
    """The value that must not arrive at an untrusted gateway (and does at a trusted one)."""
    entry: str | None = None
    """The credential store's entry holding it as an OAuth token, if it is one."""
    expired: bool = False
    """The stored token needs renewing first: its refresh token is what would go out."""
    env: tuple[tuple[str, str], ...] = ()


SIGN_INS = {
    "codex-oauth": SignIn("codex", "codex", ACCESS, entry="codex"),
    "anthropic-oauth": SignIn("anthropic", "anthropic", ACCESS, entry="anthropic"),
    "anthropic-oat-key": SignIn("anthropic", "anthropic", OAT, env=(("ANTHROPIC_API_KEY", OAT),)),
    "gemini-cli-oauth": SignIn("gemini", "gemini", ACCESS, entry="gemini-cli"),
    "antigravity-oauth": SignIn("gemini", "gemini", ACCESS, entry="gemini"),
    "google-refresh-token": SignIn(
        "gemini", "google_oauth", REFRESH, entry="gemini-cli", expired=True
    ),
    "perplexity-oauth": SignIn("perplexity", "perplexity", ACCESS, entry="perplexity"),
    "perplexity-cookies": SignIn(
        "perplexity", "perplexity", COOKIE_VALUE, env=(("PERPLEXITY_COOKIES", COOKIE),)
    ),
}


@pytest.fixture(params=list(SIGN_INS), ids=list(SIGN_INS))
def sign_in(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> SignIn:
    """One kind of sign-in, set where a user sets it (and nothing else that could be sent)."""
    case = SIGN_INS[str(request.param)]
    monkeypatch.delenv("GEMINI_SEARCH_MODEL", raising=False)
    monkeypatch.setenv("GOOGLE_CLOUD_PROJECT", "p")  # Cloud Code asks for a project
    for name, value in case.env:
        monkeypatch.setenv(name, value)
    if case.entry is not None:
        token = OAuthToken(
            access_token=ACCESS,
            refresh_token=REFRESH,
            expires_at=time.time() + (-60 if case.expired else 3600),
        )
        CredentialStore(tmp_path / "credentials.json").set_oauth(case.entry, token)
    return case


def _settings(sim: Simulator, case: SignIn, tmp_path: Path, **overrides: Any) -> Settings:
    """The simulator's settings with ``case``'s requests sent to an untrusted gateway."""
    gateway = f"http://{case.route.replace('_', '-')}.gateway.invalid"
    return sim.settings(
        base_urls={**sim.base_urls(), case.route: gateway},
        credentials_file=tmp_path / "credentials.json",
        rate_limit_wait_seconds=0,
        cache=False,
        **overrides,
    )


@asynccontextmanager
async def _direct(
    sim: Simulator, case: SignIn, settings: Settings, routes: dict[str, str] | None = None
) -> AsyncIterator[ProviderContext]:
    """A context as a user builds one to call a provider alone: a real transport, no client.

    The transport goes through the simulator as its proxy, as a gateway's requests would go
    through the network, so whatever it sends to the gateway arrives and is recorded. Its
    routes are the settings' ``base_urls`` unless ``routes`` are given.
    """
    assert settings.credentials_file is not None
    credentials = Credentials(store=CredentialStore(settings.credentials_file))
    async with proxied_context(
        sim,
        settings,
        credentials,
        routes=settings.base_urls if routes is None else routes,
        own_transport=True,
        proxy_service=case.provider,
    ) as context:
        yield context


def _seen(sim: Simulator, provider_id: str) -> str:
    """Everything the simulator received for ``provider_id``, as one text."""
    return " ".join(
        f"{r.path} {r.query} {dict(r.headers)} {r.body.decode('utf-8', 'replace')}"
        for r in sim[provider_id].requests
    )


async def _chain_text(settings: Settings, provider_id: str) -> str:
    """What the chain says of the provider: the providers table's ``misconfigured:`` text."""
    async with WebSearch(settings, api_keys={}) as ws:
        reason = next(s.reason for s in await ws.provider_status() if s.id == provider_id)
    assert reason.startswith("misconfigured: Refusing to send the "), reason
    return reason.removeprefix("misconfigured: ")


async def test_a_direct_search_refuses_the_sign_in_with_the_chains_text(
    sign_in: SignIn, tmp_path: Path
) -> None:
    async with Simulator([sign_in.provider]) as sim:
        settings = _settings(sim, sign_in, tmp_path)
        provider = get_provider(sign_in.provider)
        async with _direct(sim, sign_in, settings) as context:
            with pytest.raises(ProviderNotConfiguredError) as refused:
                await provider.search(SearchParams(query=QUERY), context)
        assert sim[sign_in.provider].requests == []
        assert str(refused.value) == await _chain_text(settings, sign_in.provider)


async def test_a_route_given_to_the_transport_alone_is_checked_too(
    sign_in: SignIn, tmp_path: Path
) -> None:
    # The settings send the sign-in to the simulator's loopback origin; the transport the
    # caller built sends it to the gateway. The transport's route is where it would go.
    async with Simulator([sign_in.provider]) as sim:
        settings = sim.settings(credentials_file=tmp_path / "credentials.json", cache=False)
        gateway = f"http://{sign_in.route.replace('_', '-')}.gateway.invalid"
        routes = {**sim.base_urls(), sign_in.route: gateway}
        async with _direct(sim, sign_in, settings, routes) as context:
            with pytest.raises(ProviderNotConfiguredError) as refused:
                await get_provider(sign_in.provider).search(SearchParams(query=QUERY), context)
        assert sim[sign_in.provider].requests == []
        assert str(refused.value).startswith("Refusing to send the "), refused.value
        assert f"custom endpoint {gateway} " in str(refused.value)
        assert f'the Transport\'s base_urls["{sign_in.route}"]' in str(refused.value)


async def test_a_direct_search_sends_the_sign_in_to_a_trusted_gateway(
    sign_in: SignIn, tmp_path: Path
) -> None:
    async with Simulator([sign_in.provider]) as sim:
        settings = _settings(sim, sign_in, tmp_path, sign_in_gateways=[sign_in.route])
        async with _direct(sim, sign_in, settings) as context:
            response = await get_provider(sign_in.provider).search(
                SearchParams(query=QUERY), context
            )
        assert response.provider == sign_in.provider
        assert sign_in.sent in _seen(sim, sign_in.provider)


async def test_a_fan_out_engine_refuses_the_sign_in_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An embedder may give the Public Web aggregate its own engines; each asks as it would
    # alone, so a signed-in engine sends nothing to an untrusted gateway.
    case = SIGN_INS["codex-oauth"]
    token = OAuthToken(access_token=ACCESS, expires_at=time.time() + 3600)
    CredentialStore(tmp_path / "credentials.json").set_oauth("codex", token)
    async with Simulator(["codex"]) as sim:
        settings = _settings(sim, case, tmp_path)
        aggregate = PublicProvider(engines=[get_provider("codex")])
        async with _direct(sim, case, settings) as context:
            with pytest.raises(SearchProviderError) as failed:
                await aggregate.search(SearchParams(query=QUERY), context)
        assert sim["codex"].requests == []
        assert "codex" in str(failed.value), failed.value
        assert ACCESS not in str(failed.value)


async def test_the_chain_checks_each_provider_once_a_search(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The chain checks before it reserves a request; the provider's own search must not
    # check again on that path (the check reads the credentials anew each time). The auto
    # chain: a forced selection is checked once more when it is planned.
    checked: list[str] = []
    original = SearchProvider.credential_check

    def counted(self: SearchProvider, context: ProviderContext) -> Any:
        checked.append(self.info.id)
        return original(self, context)

    monkeypatch.setattr(SearchProvider, "credential_check", counted)
    token = OAuthToken(access_token=ACCESS, expires_at=time.time() + 3600)
    CredentialStore(tmp_path / "credentials.json").set_oauth("codex", token)
    async with Simulator(["codex"]) as sim:
        settings = sim.settings(credentials_file=tmp_path / "credentials.json", cache=False)
        async with WebSearch(settings, api_keys={}) as ws:
            response = await ws.search(QUERY)
    assert response.provider == "codex"
    assert checked == ["codex"]
    assert ACCESS in _seen(sim, "codex")
