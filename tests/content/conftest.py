"""Fixtures the page-content tests share: a loopback page server and a client."""

from collections.abc import AsyncIterator

import pytest_asyncio

from tests.content._server import PageServer, serve
from websearch_core import WebSearch


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
