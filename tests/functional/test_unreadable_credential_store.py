"""A credential store that cannot be read leaves out only the providers that need it.

The spec's availability probes swallow lookup errors and report the provider unavailable,
and a failing provider never loses an answer another could give: a broken store once
stopped every search with its configuration error, keyless engines and keys from the
environment included. Each search runs against the loopback simulator.
"""

import logging
import os
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from websearch_core import NoProviderConfiguredError, WebSearch
from websearch_core.errors import ConfigurationError
from websearch_core.testing import Simulator

pytestmark = pytest.mark.usefixtures("no_browser_escalation")

STORED_SECRET = "stored-brave-key-that-must-never-show-9f3a"
"""A key inside the broken file: no text, note or log line may show it."""

FIX = "fix the file, or remove it and store the keys again with 'websearch auth set <provider>'"


def _not_json(path: Path) -> str:
    path.write_text(f'{{"brave": {{"api_key": "{STORED_SECRET}"', encoding="utf-8")
    return f"credential store {path} is not valid JSON"


def _not_an_object(path: Path) -> str:
    path.write_text(f'["{STORED_SECRET}"]', encoding="utf-8")
    return f"credential store {path} must hold a JSON object"


def _a_directory(path: Path) -> str:
    path.mkdir()
    return f"cannot read credential store {path}: Is a directory"


def _latin1(path: Path) -> str:
    path.write_bytes(b'{"brave": {"api_key": "caf\xe9-' + STORED_SECRET.encode() + b'"}}')
    return f"credential store {path} is not UTF-8 text (byte 26 cannot be decoded)"


def _utf16(path: Path) -> str:
    path.write_text(f'{{"brave": {{"api_key": "{STORED_SECRET}"}}}}', encoding="utf-16")
    return f"credential store {path} is saved as UTF-16; save it as UTF-8"


def _unreadable(path: Path) -> str:
    path.write_text(f'{{"brave": {{"api_key": "{STORED_SECRET}"}}}}', encoding="utf-8")
    path.chmod(0o000)
    return f"cannot read credential store {path}: Permission denied"


BREAKS: list[Callable[[Path], str]] = [_not_json, _not_an_object, _a_directory, _latin1, _utf16]
if os.geteuid() != 0:  # root reads a file of mode 000 all the same
    BREAKS.append(_unreadable)


@pytest.fixture
async def sim() -> AsyncIterator[Simulator]:
    async with Simulator(["brave", "duckduckgo"]) as simulator:
        yield simulator


@pytest.fixture(params=BREAKS, ids=lambda make: make.__name__.lstrip("_"))
def broken_store(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> str:
    """A broken credential store in WEBSEARCH_CREDENTIALS_FILE; the problem its error names."""
    path = tmp_path / "credentials.json"
    problem: str = request.param(path)
    monkeypatch.setenv("WEBSEARCH_CREDENTIALS_FILE", str(path))
    monkeypatch.delenv("BRAVE_API_KEY", raising=False)
    return problem


async def test_the_keyless_engine_answers_and_the_notes_say_why_brave_was_left_out(
    sim: Simulator, broken_store: str, caplog: pytest.LogCaptureFixture
) -> None:
    # Failed before: the search raised the store's ConfigurationError, DuckDuckGo unasked.
    advice = f"{broken_store}; providers whose key or sign-in would come from it were passed over"
    caplog.set_level(logging.WARNING, logger="websearch_core")
    async with WebSearch(settings=sim.settings()) as client:
        first = await client.search("python", use_cache=False)
        second = await client.search("rust", use_cache=False)
    for response in (first, second):
        assert response.provider == "duckduckgo"
        assert response.sources
        assert [note for note in response.notes if note.startswith(advice)] == [f"{advice}; {FIX}"]
    assert sim["brave"].requests == []
    assert len(sim["duckduckgo"].requests) == 2
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert warnings == [f"web search: {advice}; {FIX}"]  # once per client, not per search
    assert STORED_SECRET not in caplog.text


async def test_a_key_from_the_environment_still_answers(
    broken_store: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Failed before: Tavily, ahead of Brave in the order and without a key elsewhere, was
    # looked up in the store, and its error stopped the search before Brave was asked.
    async with Simulator(["tavily", "brave"]) as sim:
        monkeypatch.setenv("BRAVE_API_KEY", sim.api_keys()["brave"])
        async with WebSearch(settings=sim.settings()) as client:
            response = await client.search("python")
        assert response.provider == "brave"
        assert len(sim["brave"].requests) == 1
        assert sim["tavily"].requests == []
    assert any(note.startswith(broken_store) for note in response.notes)


async def test_with_nothing_left_to_answer_the_error_ends_with_the_store_problem(
    sim: Simulator, broken_store: str
) -> None:
    # Failed before: the error was the store's ConfigurationError alone (and raised by run).
    ending = f"{broken_store[:1].upper()}{broken_store[1:]}; providers whose key or sign-in"
    async with WebSearch(settings=sim.settings(exclude=("duckduckgo",))) as client:
        result = await client.run("python")
        with pytest.raises(NoProviderConfiguredError) as caught:
            await client.search("python")
    assert result.error is not None
    assert result.error.startswith("No web search provider configured. ")
    assert ending in result.error and result.error.endswith(f"{FIX}.")
    assert str(caught.value) == result.error
    assert STORED_SECRET not in result.error
    assert sim["brave"].requests == sim["duckduckgo"].requests == []


async def test_guard_a_forced_provider_keeps_failing_with_the_store_error(
    sim: Simulator, broken_store: str
) -> None:
    # A guard (passes before and after): the user asked for Brave, whose key would come
    # from the broken store, so the store's own error is what they get, not another engine.
    async with WebSearch(settings=sim.settings()) as client:
        with pytest.raises(ConfigurationError) as caught:
            await client.search("python", provider="brave")
    assert str(caught.value) == broken_store
    assert sim["brave"].requests == sim["duckduckgo"].requests == []
