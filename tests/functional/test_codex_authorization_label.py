"""Codex's sign-in refused reads the reference's ``OpenAI authorization failed`` text.

The reference (§3.5) words every keyed or OAuth provider's 401/403 as ``<Label>
authorization failed (<status>). Check API key or base URL.``, the label from its table,
"for example ``OpenAI`` for codex"; Codex's own ``Codex ...`` texts are for its stream's
``error``/``response.failed`` events and other HTTP statuses. Checked end to end against
the loopback simulator so that a later rewording of Codex's failures keeps this one.
"""

import time

import pytest

from tests.functional._sim_helpers import chatgpt_token, sim_client
from websearch_core.credentials import CredentialStore, OAuthToken
from websearch_core.testing import Fault, Simulator


@pytest.mark.parametrize(
    ("fault", "status"),
    [(Fault.unauthorized('{"detail": "bad token"}'), 401), (Fault.forbidden("{}"), 403)],
)
async def test_a_refused_sign_in_reads_the_references_label(fault: Fault, status: int) -> None:
    """A guard: main already says it; kept as the reference words it."""
    async with Simulator(["codex"]) as sim:
        store = CredentialStore(sim.settings().resolved_credentials_file())
        token = OAuthToken(access_token=chatgpt_token("acct"), expires_at=time.time() + 3600)
        store.set_oauth("codex", token)
        sim["codex"].enqueue(fault)
        async with sim_client(sim) as ws:
            result = await ws.run("python asyncio", provider="codex")
    assert result.text == (
        f"Error: OpenAI authorization failed ({status}). Check API key or base URL."
    )
