"""Fixtures the LangChain and LlamaIndex integration tests share."""

from collections.abc import Iterator
from typing import Any

import aiohttp
import pytest

from tests.functional._sim_helpers import simulator_fixture
from websearch_core.testing import Simulator

sim = simulator_fixture("brave", "duckduckgo")


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
