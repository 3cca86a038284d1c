"""A provider context whose transport sends through the simulator as its HTTP proxy.

For the tests of where a sign-in may be sent: the simulator plays the proxy for every host
that is not loopback, so a request that would leave the machine arrives there and is
recorded, and a test reads what it carried with :func:`seen_by_proxy`.
"""

from collections.abc import AsyncIterator, Collection, Mapping
from contextlib import asynccontextmanager

import aiohttp

from websearch_core import Credentials
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
) -> AsyncIterator[ProviderContext]:
    """A context whose transport is built as the client builds it: with ``credentials``
    (whose sign-ins it hands out, so it judges every request) and the trusted gateways.

    With ``own_transport``, as a user builds one to call a provider alone: the transport is
    not given the credentials (the context still reads ``credentials``).
    """
    async with aiohttp.ClientSession() as session:
        transport = Transport(
            session,
            timeout_seconds=5.0,
            max_response_bytes=settings.max_response_bytes,
            base_urls=routes or {},
            credentials=None if own_transport else credentials,
            proxy=sim[PROXY_SERVICE].base_url,
            sign_in_gateways=gateways,
        )
        yield ProviderContext(transport=transport, settings=settings, credentials=credentials)


def seen_by_proxy(sim: Simulator) -> str:
    """Every request the proxy received, path, headers and body, as one text to search."""
    return " ".join(f"{r.path} {dict(r.headers)} {r.body!r}" for r in sim[PROXY_SERVICE].requests)
