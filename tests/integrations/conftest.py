"""Fixtures the LangChain and LlamaIndex integration tests share."""

from collections.abc import AsyncIterator, Iterator
from typing import Any

import aiohttp
import pytest

from websearch_core.testing import Simulator


@pytest.fixture
async def sim() -> AsyncIterator[Simulator]:
    async with Simulator(["brave", "duckduckgo"]) as simulator:
        yield simulator


@pytest.fixture
def threaded_sim() -> Iterator[Simulator]:
    with Simulator(["brave", "duckduckgo"]).running_in_thread() as simulator:
        yield simulator


@pytest.fixture
def sessions(monkeypatch: pytest.MonkeyPatch) -> list[aiohttp.ClientSession]:
    """Every aiohttp session the client opens during the test, to check that each closed."""
    opened: list[aiohttp.ClientSession] = []
    real = aiohttp.ClientSession

    def recording(*args: Any, **kwargs: Any) -> aiohttp.ClientSession:
        session = real(*args, **kwargs)
        opened.append(session)
        return session

    monkeypatch.setattr(aiohttp, "ClientSession", recording)
    return opened
