"""Every provider: a sign-in reaches a gateway only when it is loopback or trusted by name.

A sign-in (an OAuth token, a Perplexity session cookie) opens the user's whole account. Each
provider is given one under every store entry there is (every provider id and every OAuth
entry a provider declares, so a provider reading a token it does not declare is caught too)
and Perplexity's cookie variable, then searched three ways:

1. through the simulator's loopback origin: which sign-ins its requests carry (``carried``);
2. through a gateway that is neither loopback nor the service's own host (the simulator
   plays an HTTP proxy for it, so whatever is sent arrives and is seen): none may arrive,
   and a provider that carried one says why it will not, naming the setting that trusts a
   gateway, in the providers table (``misconfigured:``, or ``passed over:`` for Perplexity,
   which goes on with its key);
3. through the same gateway trusted in ``sign_in_gateways``: the sign-ins of step 1 arrive.
   Only an id a sign-in is sent under may be trusted (``SIGN_IN_ROUTES``; any other is a
   settings error), so a provider outside them must carry none in step 1.

Whether a provider sends a sign-in is read from what it sends, not from its declarations.
"""

import time
from pathlib import Path
from typing import Any

import pytest

from tests.contract.conftest import KEY, TOKEN
from websearch_core import WebSearch
from websearch_core.credentials import CredentialStore, OAuthToken
from websearch_core.key_names import oauth_entries
from websearch_core.provider_ids import SIGN_IN_ROUTES
from websearch_core.providers import SEARCH_PROVIDER_ORDER
from websearch_core.testing import RecordedRequest, Simulator

QUERY = "python asyncio"
COOKIE = "__Secure-next-auth.session-token=cookie-contract-0123456789abcdef"
SIGN_INS = (TOKEN, COOKIE.partition("=")[2])
REFUSED = "Refusing to send the "


def _carried(requests: list[RecordedRequest]) -> set[str]:
    """The sign-ins that ``requests`` carry anywhere: a header, the path or the body."""
    text = " ".join(
        f"{r.path} {r.query} {dict(r.headers)} {r.body.decode('utf-8', 'replace')}"
        for r in requests
    )
    return {value for value in SIGN_INS if value in text}


def _client(
    sim: Simulator, provider_id: str, tmp_path: Path, *, keyed: bool, **overrides: Any
) -> WebSearch:
    store = CredentialStore(tmp_path / "credentials.json")
    for entry in {*SEARCH_PROVIDER_ORDER, *oauth_entries()}:
        store.set_oauth(entry, OAuthToken(access_token=TOKEN, expires_at=time.time() + 3600))
    settings = sim.settings(
        credentials_file=tmp_path / "credentials.json",
        rate_limit_wait_seconds=0,
        cache=False,
        **overrides,
    )
    return WebSearch(settings, api_keys={provider_id: KEY} if keyed else {})


@pytest.mark.parametrize("keyed", [False, True], ids=["sign-ins-only", "with-key"])
async def test_a_sign_in_reaches_only_loopback_or_a_trusted_gateway(
    sim: Simulator,
    provider_id: str,
    tmp_path: Path,
    keyed: bool,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PERPLEXITY_COOKIES", COOKIE)
    async with _client(sim, provider_id, tmp_path, keyed=keyed) as ws:
        await ws.run(QUERY, provider=provider_id)
    carried = _carried(sim[provider_id].requests)
    sim[provider_id].requests.clear()

    gateway = f"http://{provider_id}.gateway.invalid"
    through = {
        "base_urls": {**sim.base_urls(), provider_id: gateway},
        "proxy": sim[provider_id].base_url,
    }
    async with _client(sim, provider_id, tmp_path, keyed=keyed, **through) as ws:
        status = next(s for s in await ws.provider_status() if s.id == provider_id)
        result = await ws.run(QUERY, provider=provider_id)
    assert _carried(sim[provider_id].requests) == set(), status.reason
    if carried:
        assert REFUSED in status.reason, status.reason
        assert f"custom endpoint {gateway} " in status.reason
        assert f"add {provider_id} to sign_in_gateways (WEBSEARCH_SIGN_IN_GATEWAYS)" in (
            status.reason
        )
        if status.reason.startswith("misconfigured: "):
            assert sim[provider_id].requests == []
            assert result.error is not None and REFUSED in result.error
        else:  # passed over: the provider runs with a credential that is no sign-in
            assert "passed over: " + REFUSED in status.reason
    else:
        assert REFUSED not in status.reason, status.reason
    sim[provider_id].requests.clear()

    if provider_id not in SIGN_IN_ROUTES:
        # No sign-in is sent under its id, so none may be trusted there (a settings error):
        # it must carry none.
        assert carried == set()
        return
    trusted = {**through, "sign_in_gateways": [provider_id]}
    async with _client(sim, provider_id, tmp_path, keyed=keyed, **trusted) as ws:
        status = next(s for s in await ws.provider_status() if s.id == provider_id)
        await ws.run(QUERY, provider=provider_id)
    assert REFUSED not in status.reason, status.reason
    assert _carried(sim[provider_id].requests) == carried
