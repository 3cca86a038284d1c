"""Shared test helpers: the real captures in ../shared/fixtures and a clean environment."""

import dataclasses
import os
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from tests.redis_server import session_redis_url, unavailable
from websearch_core import said_once

SHARED_FIXTURES = Path(__file__).resolve().parents[1].parent / "shared" / "fixtures"
_ENV_PREFIXES = ("WEBSEARCH_", "SEARXNG_")
_KEY_VARS = (
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "ALL_PROXY",
    "http_proxy",
    "https_proxy",
    "all_proxy",
    "NO_PROXY",
    "no_proxy",
    "REQUEST_METHOD",
    "FIRECRAWL_BASE_URL",
    "FIRECRAWL_API_URL",
    "MOONSHOT_SEARCH_BASE_URL",
    "KIMI_SEARCH_BASE_URL",
)


@pytest.fixture
def stand_in_chromium(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A Chromium that counts as installed (an executable file), whatever the machine has.

    Never launched: it serves the tests that keep escalation off, where Google's failure
    text says what to do, and that differs with Chromium installed or not. Playwright, the
    other half of "installed", is a test dependency.
    """
    chromium = tmp_path / "chromium-stand-in"
    chromium.write_text("#!/bin/sh\nexit 1\n")
    chromium.chmod(0o755)
    monkeypatch.setenv("WEBSEARCH_CHROMIUM_PATH", str(chromium))


@pytest.fixture
def short_gemini_backoff(monkeypatch: pytest.MonkeyPatch) -> None:
    """Gemini's documented resends wait 0.01 s, 0.02 s, 0.04 s instead of 1 s, 2 s, 4 s.

    For the suites that drive every provider into a failure (the contract, the key-leak
    conformance): what a fault ends in does not depend on how long Gemini waits between its
    resends, and at its own base of 1 s each Gemini case waited 3-6 s of a 5 s attempt
    (~100 s of the suite). The resends are still sent; the waits' lengths are
    ``functional/test_gemini_sim.py``'s to prove.
    """
    from websearch_core.providers.gemini import GeminiProvider

    shorter = dataclasses.replace(GeminiProvider.retry, base_delay=0.01)
    monkeypatch.setattr(GeminiProvider, "retry", shorter)


@pytest.fixture
def sleeps(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The request loop's retry and back-off waits, recorded instead of slept.

    For the tests of how long a provider waits between its resends: the lengths are read,
    and the test does not spend them. Imported here, not at the top, so that collecting
    the suite does not load the request loop before the import tests look.
    """
    from websearch_core import request_loop

    recorded: list[float] = []

    async def record(seconds: float) -> None:
        recorded.append(seconds)

    monkeypatch.setattr(request_loop, "asyncio", SimpleNamespace(sleep=record))
    return recorded


def read_capture(relative: str) -> bytes:
    """A real capture from ../shared/fixtures; skipped locally without it, required in CI."""
    path = SHARED_FIXTURES / relative
    if not path.is_file():
        if os.environ.get("CI"):
            raise FileNotFoundError(f"required capture missing in CI: {path}")
        pytest.skip(f"capture not available: {path}")
    return path.read_bytes()


@pytest.fixture(scope="session")
def _redis_server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A private redis-server for the session (skipped without one, failed in CI)."""
    yield from session_redis_url(tmp_path_factory)


@pytest.fixture
def redis_url(_redis_server_url: str) -> str:
    """The session's redis-server, its database emptied for each test.

    Tests share one server; a mark or budget one test leaves under the default prefix would
    otherwise answer another test's search (test_quota's Brave quota mark read by a
    test_store_deadline test run after it, stop 43).
    """
    import redis

    client = redis.Redis.from_url(_redis_server_url)
    try:
        client.flushdb()
    finally:
        client.close()
    return _redis_server_url


@pytest.fixture
def redis_client(redis_url: str) -> Iterator[Any]:
    """A redis-py client of the session's server, to read or write behind a store's back."""
    try:
        import redis
    except ImportError:
        unavailable("the redis package is not installed")
    client = redis.Redis.from_url(redis_url)
    yield client
    client.close()


@pytest.fixture(autouse=True)
def _isolated_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No user config, keys, state or stray provider variables leak into a test."""
    for name in list(os.environ):
        if name.startswith(_ENV_PREFIXES) or name in _KEY_VARS or name.endswith("_API_KEY"):
            monkeypatch.delenv(name, raising=False)
    config = tmp_path / "config.toml"
    config.touch()  # a config file named by the variable must exist
    monkeypatch.setenv("WEBSEARCH_CONFIG_FILE", str(config))
    monkeypatch.setenv("WEBSEARCH_CREDENTIALS_FILE", str(tmp_path / "credentials.json"))
    monkeypatch.setenv("WEBSEARCH_STATE_DIR", str(tmp_path / "state"))
    said_once.forget_all()  # each test hears the setup warnings it causes, once
    yield
