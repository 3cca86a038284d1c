"""A base URL with user info, for every provider: sent beside its credential, or refused first.

``https://user:pw@gateway`` goes out as ``Authorization: Basic``. A provider whose
credential also goes in ``Authorization`` cannot send a request there at all, so its
credential kinds declare it (``authorization``) and the credential check refuses it before
a request: the providers table reads ``misconfigured``, the chain skips it. Every other
provider sends the gateway's ``Basic`` with its own key header. Whether a provider sends
``Authorization`` is read here from the request it sends without user info, so a
declaration that disagrees with the provider's headers fails either way.

The refusal says what to do for that provider: a credential it sends in another header, where
its credential kinds declare one (``header``; the request shows it goes there), else only to
remove the user info ("use a credential sent in another header" was said to all alike).
"""

from pathlib import Path

from tests.contract.conftest import contract_client
from websearch_core.provider_credentials import ApiKey
from websearch_core.providers import get_provider
from websearch_core.testing import Simulator

QUERY = "python asyncio"
BASIC = "Basic Z3d1c2VyOmd3cGFzcw=="  # gwuser:gwpass
CLASH = "goes out as Authorization: Basic, and the "


def _with_user(origin: str) -> str:
    return origin.replace("://", "://gwuser:gwpass@", 1)


async def test_user_info_is_sent_or_the_provider_is_misconfigured_before_a_request(
    sim: Simulator, provider_id: str, tmp_path: Path
) -> None:
    async with contract_client(sim, provider_id, tmp_path) as ws:
        await ws.run(QUERY, provider=provider_id)
    first = sim[provider_id].requests[0]
    bearer = first.header("Authorization") is not None
    sent_before = len(sim[provider_id].requests)

    gateway = {**sim.base_urls(), provider_id: _with_user(sim.base_urls()[provider_id])}
    async with contract_client(sim, provider_id, tmp_path, base_urls=gateway) as ws:
        status = next(s for s in await ws.provider_status() if s.id == provider_id)
        result = await ws.run(QUERY, provider=provider_id)
    sent = sim[provider_id].requests[sent_before:]
    provider = get_provider(provider_id)
    elsewhere = [getattr(k, "header", None) for k in provider.credential_kinds]
    elsewhere = [header for header in elsewhere if header]  # StoredOAuth has none
    key_headers = [
        k.header for k in provider.credential_kinds if isinstance(k, ApiKey) and k.header
    ]
    if bearer:
        assert status.reason.startswith("misconfigured: ") and CLASH in status.reason
        assert sent == [] and result.error is not None and CLASH in result.error
        label = provider.info.label
        if elsewhere:
            assert all(f"in the {header} header" in status.reason for header in elsewhere)
        else:
            assert f"URL: {label} sends no credential in another header" in status.reason
    else:
        for header in key_headers:  # the client's key went in the header the advice names
            assert all(r.header(header) for r in sent), header
        assert not status.reason.startswith("misconfigured"), status.reason
        assert sent and all(r.header("Authorization") == BASIC for r in sent)
        assert result.error is None or "request was not sent" not in result.error
