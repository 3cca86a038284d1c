"""A credential store that cannot be read leaves out only the providers that need it.

The spec's availability probes swallow lookup errors and report the provider unavailable,
and a failing provider never loses an answer another could give: a broken store once
stopped every search with its configuration error, keyless engines and keys from the
environment included. Each search runs against the loopback simulator.
"""

import logging
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.functional._sim_helpers import simulator_fixture
from websearch_core import NoProviderConfiguredError, WebSearch
from websearch_core.errors import ConfigurationError
from websearch_core.testing import Simulator

pytestmark = pytest.mark.usefixtures("no_browser_escalation")

STORED_SECRET = "stored-brave-key-that-must-never-show-9f3a"
"""A key inside the broken file: no text, note or log line may show it."""

FIX = (
    "fix the file, or remove it and store the keys again with 'websearch auth set <provider>' "
    "(sign-ins with 'websearch auth import gemini-cli', or from Python with "
    "CredentialStore.set_oauth)"
)


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


sim = simulator_fixture("brave", "duckduckgo")


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


SIGNED_IN = {
    "gemini": ("GEMINI_API_KEY", "x-goog-api-key", "Gemini used its key"),
    "perplexity": ("PERPLEXITY_API_KEY", "authorization", "Perplexity used its key"),
    "anthropic": ("ANTHROPIC_API_KEY", "x-api-key", None),
}
"""Providers that look a sign-in up in the store beside their key: the key's variable, the
header it goes in, and how the advice names a provider whose sign-in would come first
(Anthropic's key wins over a sign-in anyway, so nothing is said of it)."""


def _advice(problem: str, keyed: str | None) -> str:
    passed = f"{problem}; providers whose key or sign-in would come from it were passed over"
    unread = f"; {keyed}, not a sign-in the file may hold" if keyed else ""
    return f"{passed}{unread}; {FIX}"


@pytest.mark.parametrize("provider_id", list(SIGNED_IN))
@pytest.mark.parametrize("forced", [False, True], ids=["auto", "forced"])
async def test_a_sign_in_provider_with_its_key_in_the_environment_runs_on_the_key(
    broken_store: str,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    provider_id: str,
    forced: bool,
) -> None:
    # Failed before: its sign-in lookup read the broken file first, so the auto chain passed
    # it over (and the search had nothing else to ask) and a forced one raised the file's
    # error, though its key was in the environment.
    variable, header, keyed = SIGNED_IN[provider_id]
    caplog.set_level(logging.WARNING, logger="websearch_core")
    async with Simulator([provider_id]) as sim:
        key = sim.api_keys()[provider_id]
        monkeypatch.setenv(variable, key)
        async with WebSearch(settings=sim.settings()) as client:
            first = await client.search("python", provider=provider_id if forced else None)
            second = await client.search("rust", use_cache=False)
        sent = [
            value
            for request in sim[provider_id].requests
            for name, value in request.headers.items()
            if name.lower() == header
        ]
    assert first.provider == second.provider == provider_id
    assert sent and all(key in value for value in sent)
    advice = _advice(broken_store, keyed)
    for response in (first, second):  # every search says it, not only the first
        assert [note for note in response.notes if note.startswith(broken_store)] == [advice]
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert [w for w in warnings if broken_store in w] == [f"web search: {advice}"]
    assert STORED_SECRET not in caplog.text


@pytest.mark.parametrize("provider_id", ["gemini", "anthropic", "codex"])
async def test_guard_a_forced_sign_in_provider_without_a_key_fails_with_the_store_error(
    broken_store: str, provider_id: str
) -> None:
    # A guard (passes before and after): with no key elsewhere its sign-in can only come
    # from the broken file, so forcing it gets the file's error, as for Brave's key.
    async with Simulator([provider_id, "duckduckgo"]) as sim:
        async with WebSearch(settings=sim.settings()) as client:
            with pytest.raises(ConfigurationError) as caught:
                await client.search("python", provider=provider_id)
        assert sim[provider_id].requests == sim["duckduckgo"].requests == []
    assert str(caught.value) == broken_store


async def test_perplexity_with_its_cookies_set_answers_past_the_store(
    broken_store: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Failed before: the cookies made Perplexity available without a look at the store,
    # and the search's credential check then asked the store for its token: the file's
    # error stopped the whole search, DuckDuckGo unasked.
    cookies = "__Secure-next-auth.session-token=sim-session-7c1e"
    async with Simulator(["perplexity", "duckduckgo"]) as sim:
        monkeypatch.setenv("PERPLEXITY_COOKIES", cookies)
        async with WebSearch(settings=sim.settings()) as client:
            response = await client.search("python")
        sent = [
            value
            for request in sim["perplexity"].requests
            for name, value in request.headers.items()
            if name.lower() == "cookie"
        ]
    assert response.provider == "perplexity"
    assert sent and all(cookies in value for value in sent)
    # The cookies come before a sign-in the file may hold: nothing to name.
    advice = _advice(broken_store, None)
    assert [note for note in response.notes if note.startswith(broken_store)] == [advice]
