"""A provider context whose transport sends through the simulator as its HTTP proxy.

For the tests of where a sign-in may be sent: the simulator plays the proxy for every host
that is not loopback, so a request that would leave the machine arrives there and is
recorded, and a test reads what it carried with :func:`seen_by_proxy`.
"""

import time
from collections.abc import AsyncIterator, Collection, Mapping
from contextlib import asynccontextmanager
from pathlib import Path

import aiohttp

from websearch_core import Credentials
from websearch_core.credentials import CredentialStore, OAuthToken
from websearch_core.providers.base import ProviderContext
from websearch_core.settings import Settings
from websearch_core.testing import Simulator
from websearch_core.transport import Transport

PROXY_SERVICE = "codex"
"""The simulated service whose address stands as the proxy."""


@asynccontextmanager
async def proxied_context(
    sim: Simulator,
    settings: Settings,
    credentials: Credentials,
    *,
    routes: Mapping[str, str] | None = None,
    gateways: Collection[str] = (),
    own_transport: bool = False,
    proxy_service: str = PROXY_SERVICE,
) -> AsyncIterator[ProviderContext]:
    """A context whose transport is built as the client builds it: with ``credentials``
    (whose sign-ins it hands out, so it judges every request) and the trusted gateways.

    With ``own_transport``, as a user builds one to call a provider alone: the transport is
    not given the credentials (the context still reads ``credentials``). ``proxy_service``
    is the simulated service that stands as the proxy, for a test that reads its requests.
    """
    async with aiohttp.ClientSession() as session:
        transport = Transport(
            session,
            timeout_seconds=5.0,
            max_response_bytes=settings.max_response_bytes,
            base_urls=routes or {},
            credentials=None if own_transport else credentials,
            proxy=sim[proxy_service].base_url,
            sign_in_gateways=gateways,
        )
        yield ProviderContext(transport=transport, settings=settings, credentials=credentials)


def seen_by_proxy(sim: Simulator) -> str:
    """Every request the proxy received, path, headers and body, as one text to search."""
    return " ".join(f"{r.path} {dict(r.headers)} {r.body!r}" for r in sim[PROXY_SERVICE].requests)


def stored_sign_in(path: Path, entry: str, access: str, refresh_token: str | None = None) -> Path:
    """``path``, a credentials file now holding ``entry``'s sign-in, valid for an hour.

    The sign-in whose sending the test judges: ``access`` (and ``refresh_token``) are the
    secrets it looks for in what the proxy received.
    """
    token = OAuthToken(access, refresh_token=refresh_token, expires_at=time.time() + 3600)
    CredentialStore(path).set_oauth(entry, token)
    return path
