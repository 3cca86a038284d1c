"""How the contract suite reaches each provider: a simulator and a client with its credentials.

Every registered provider that the simulator speaks is driven the same way: forced, so the
fault it meets is its own, with the credentials it needs (an API key, or a stored OAuth token
for the providers that only sign in).
"""

import base64
import json
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from websearch_core import WebSearch
from websearch_core.credentials import CredentialStore, OAuthToken
from websearch_core.providers import SEARCH_PROVIDER_ORDER
from websearch_core.testing import PROTOCOLS, Simulator

PROVIDERS = [pid for pid in SEARCH_PROVIDER_ORDER if pid in PROTOCOLS]
"""Every registered provider with a simulator protocol (all but the ``public`` aggregate)."""
OAUTH_ONLY = frozenset({"codex"})
KEY = "sk-contract-0123456789abcdef"
"""A long, token-shaped key, so truncated echoes of it are recognisable."""
_CLAIMS = {"https://api.openai.com/auth": {"chatgpt_account_id": "acct-contract"}}
TOKEN = "eyJhbGciOiJSUzI1NiJ9.{}.c2ln".format(
    base64.urlsafe_b64encode(json.dumps(_CLAIMS).encode()).decode().rstrip("=")
)
"""A JWT-shaped access token for the OAuth-only providers (Codex reads its account claim)."""


@pytest.fixture(autouse=True)
def _no_browser(monkeypatch: pytest.MonkeyPatch, stand_in_chromium: None) -> Iterator[None]:
    """Browser escalation off: the contract is about the request loop, not Chromium.

    With Chromium counted as installed (:func:`tests.conftest.stand_in_chromium`), Google's
    ending (:data:`tests.contract.spec_texts.BROWSER_OFF_ENDING`) is one on every machine.
    """
    monkeypatch.setenv("WEBSEARCH_BROWSER", "off")
    yield


@pytest.fixture(autouse=True)
def _short_gemini_backoff(short_gemini_backoff: None) -> None:
    """Gemini's resends wait a hundredth of their time (see the fixture it names)."""


@pytest.fixture(params=PROVIDERS)
def provider_id(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
async def sim(provider_id: str) -> AsyncIterator[Simulator]:
    async with Simulator([provider_id]) as simulator:
        yield simulator


def contract_client(
    sim: Simulator, provider_id: str, tmp_path: Path, **overrides: Any
) -> WebSearch:
    """A client forced-ready for ``provider_id``: its key, or its stored OAuth token."""
    return contract_clients(sim, provider_id, tmp_path, **overrides)()


def contract_clients(
    sim: Simulator, provider_id: str, tmp_path: Path, **overrides: Any
) -> Callable[[], WebSearch]:
    """Fresh clients as :func:`contract_client` makes them, the settings and store made once.

    For a sweep of a thousand searches, each on a client of its own: building the settings
    (pydantic-settings reads the environment) and writing the OAuth token took ~35 ms a
    search, most of a sweep's time. Settings are frozen and a memory state store is each
    client's own (:func:`websearch_core.client.open_state_store`), so the clients share
    only what every one of them was given alike.
    """
    store_path = tmp_path / "credentials.json"
    if provider_id in OAUTH_ONLY:
        CredentialStore(store_path).set_oauth(
            provider_id, OAuthToken(access_token=TOKEN, expires_at=time.time() + 3600)
        )
    # No waiting out rate limits and no cache unless a test asks for them.
    defaults: dict[str, Any] = {"rate_limit_wait_seconds": 0, "cache": False}
    settings = sim.settings(credentials_file=store_path, **{**defaults, **overrides})
    keys = {} if provider_id in OAUTH_ONLY else {provider_id: KEY}
    return lambda: WebSearch(settings, api_keys=keys)
