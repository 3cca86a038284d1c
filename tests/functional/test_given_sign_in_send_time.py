"""Sign-ins given in a variable or as a key, judged where they are sent.

Stop 42 judged every stored sign-in (an access token, its refresh token) by the URL a
request carrying it is sent to. A sign-in given otherwise was judged only where its URL is
set: Perplexity's ``PERPLEXITY_COOKIES`` (the browser's cookie header, whose session token
opens the whole account) and an Anthropic OAuth token given as the key (``sk-ant-oat...``).
A subclass of the built-in provider sending either from ``prepare``, or building a URL of
its own, delivered it to a foreign host, plain http too. The refusal names where the
sign-in was given (the variable, or ``api_keys``), never its value.

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
from websearch_core.provider_types import Flow
from websearch_core.providers.anthropic import AnthropicProvider
from websearch_core.providers.base import ProviderContext
from websearch_core.providers.perplexity import PerplexityProvider
from websearch_core.testing import Simulator
from websearch_core.transport import HttpRequest

SESSION = "eyJhbGciOiJkaXIi.session-cookie-token-0123456789"
COOKIES = f"__Secure-next-auth.session-token={SESSION}; theme=dark"
OAUTH_KEY = "sk-ant-oat01-given-as-the-key-0123456789"
API_KEY = "sk-ant-api03-an-ordinary-key-0123456789"
FOREIGN = "http://foreign.invalid"


@asynccontextmanager
async def _context(
    sim: Simulator,
    *,
    environ: Mapping[str, str] | None = None,
    explicit: Mapping[str, str] | None = None,
    gateways: tuple[str, ...] = (),
    routes: Mapping[str, str] | None = None,
) -> AsyncIterator[ProviderContext]:
    """A context sending through the simulator as its proxy, with the sign-ins given."""
    resolved = sim.settings(base_urls={}, cache=False, sign_in_gateways=list(gateways))
    credentials = Credentials(explicit=explicit, environ=environ or {})
    async with proxied_context(
        sim, resolved, credentials, routes=routes, gateways=gateways
    ) as context:
        yield context


class CookiesElsewhere(PerplexityProvider):
    """The built-in Perplexity provider with its first step's headers sent, from ``prepare``,
    to a host of the subclass's choosing (``rewrite`` keeps only the session token, as a
    subclass building its own header would)."""

    rewrite: ClassVar[bool] = False

    async def prepare(self, flow: Flow) -> None:
        await super().prepare(flow)
        headers = dict(self.first_request(flow).headers)
        if self.rewrite:
            session = headers["Cookie"].split(";")[0].partition("=")[2]
            headers = {"Authorization": f"Bearer {session}"}
        request = HttpRequest(method="GET", url=f"{FOREIGN}/ask", headers=headers)
        await flow.context.transport.send(self.info.id, self.info.label, request)


@pytest.mark.parametrize("rewrite", [False, True], ids=["header", "session-token"])
async def test_perplexity_cookies_are_not_sent_off_perplexity(rewrite: bool) -> None:
    provider = type("Made", (CookiesElsewhere,), {"rewrite": rewrite})()
    environ = {"PERPLEXITY_COOKIES": COOKIES}
    async with Simulator(["codex"]) as sim, _context(sim, environ=environ) as context:
        with pytest.raises(ProviderNotConfiguredError) as refused:
            await provider.search(SearchParams(query="q"), context)
        assert sim["codex"].requests == []
    text = str(refused.value)
    assert refused.value.provider == "perplexity"
    what = "the session token of the Perplexity cookie header" if rewrite else "the Perplexity"
    assert text.startswith(f"Refusing to send {what}"), text
    assert f"in PERPLEXITY_COOKIES to {FOREIGN}: " in text
    assert "declares its sign-in for www.perplexity.ai only" in text
    assert "base_urls.perplexity" in text and "sign_in_gateways" in text
    assert "stored under" not in text
    assert SESSION not in text and "theme=dark" not in text


class KeyElsewhere(AnthropicProvider):
    """The built-in Anthropic provider with the base URL its requests are built for replaced
    by one of the subclass's own (no setting names it, so the credential check cannot)."""

    async def prepare(self, flow: Flow) -> None:
        await super().prepare(flow)
        flow.state["base"] = FOREIGN


@pytest.mark.parametrize(
    ("environ", "explicit", "where"),
    [
        ({"ANTHROPIC_API_KEY": OAUTH_KEY}, None, "in ANTHROPIC_API_KEY"),
        ({}, {"anthropic": OAUTH_KEY}, 'given in code as api_keys["anthropic"]'),
    ],
    ids=["variable", "code"],
)
async def test_an_anthropic_oauth_token_given_as_the_key_is_not_sent_off_anthropic(
    environ: dict[str, str], explicit: dict[str, str] | None, where: str
) -> None:
    async with Simulator(["codex"]) as sim:
        async with _context(sim, environ=environ, explicit=explicit) as context:
            with pytest.raises(ProviderNotConfiguredError) as refused:
                await KeyElsewhere().search(SearchParams(query="q"), context)
        assert sim["codex"].requests == []
    text = str(refused.value)
    assert text.startswith(f"Refusing to send the Anthropic OAuth token {where} to {FOREIGN}: ")
    assert "declares its sign-in for api.anthropic.com only" in text
    assert "base_urls.anthropic" in text
    assert OAUTH_KEY not in text


async def test_an_anthropic_api_key_still_goes_to_a_url_of_its_own() -> None:
    # Guard (passes before and after): an API key is no sign-in; it goes to any gateway.
    environ = {"ANTHROPIC_API_KEY": API_KEY}
    async with Simulator(["codex"]) as sim, _context(sim, environ=environ) as context:
        with pytest.raises(Exception) as answered:  # the simulator's codex is no Claude
            await KeyElsewhere().search(SearchParams(query="q"), context)
        assert not isinstance(answered.value, ProviderNotConfiguredError)
        assert API_KEY in seen_by_proxy(sim)


async def test_a_given_sign_in_still_goes_through_its_trusted_gateway() -> None:
    # Guard (passes before and after): ANTHROPIC_BASE_URL, with anthropic trusted in
    # sign_in_gateways, receives the OAuth token given as the key.
    environ = {"ANTHROPIC_API_KEY": OAUTH_KEY, "ANTHROPIC_BASE_URL": FOREIGN}
    async with Simulator(["codex"]) as sim:
        async with _context(sim, environ=environ, gateways=("anthropic",)) as context:
            with pytest.raises(Exception) as answered:
                await KeyElsewhere().search(SearchParams(query="q"), context)
        assert not isinstance(answered.value, ProviderNotConfiguredError)
        assert OAUTH_KEY in seen_by_proxy(sim)
