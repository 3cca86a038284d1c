"""Fixtures the page-content tests share: loopback page servers, a client, an egress proxy."""

from collections.abc import AsyncIterator

import pytest_asyncio

from tests.content._egress_talk import EGRESS_ALLOWED
from tests.content._server import PageServer, serve
from websearch_core import WebSearch
from websearch_core.content import FetchRefusedError
from websearch_core.content.egress import EgressProxy


@pytest_asyncio.fixture
async def server() -> AsyncIterator[PageServer]:
    """A loopback server with no pages yet (a module may override it to add some)."""
    async for running in serve():
        yield running


@pytest_asyncio.fixture
async def ws() -> AsyncIterator[WebSearch]:
    """A client with in-memory state (a module may override it, as the browser tests do)."""
    async with WebSearch(state_backend="memory") as client:
        yield client


@pytest_asyncio.fixture
async def other() -> AsyncIterator[PageServer]:
    """A second page server, on 127.0.0.2: a forbidden address to the egress proxy."""
    async for running in serve("127.0.0.2"):
        yield running


@pytest_asyncio.fixture
async def refusals() -> list[FetchRefusedError]:
    """Where :func:`proxy` records each refusal."""
    return []


@pytest_asyncio.fixture
async def proxy(refusals: list[FetchRefusedError]) -> AsyncIterator[EgressProxy]:
    """An egress proxy letting 127.0.0.1 through, its refusals in ``refusals``."""
    async with EgressProxy(EGRESS_ALLOWED, on_refusal=refusals.append) as running:
        yield running
