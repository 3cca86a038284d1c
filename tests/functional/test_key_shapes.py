"""A key of another provider in a provider's variable is named: a Tavily key in BRAVE_API_KEY.

firstusers11 set a Tavily ``tvly-...`` key in ``BRAVE_API_KEY`` and read only Brave's
refusal (``Brave authorization failed (401). Check API key or base URL.``), nothing saying
why. Driven against the loopback simulator (Brave answering 401) through ``WebSearch`` and
the ``websearch`` command in a subprocess; the key's secret part is checked never to show.
A key with no known shape, or its own provider's, gains no word (the guards below).
"""

import json
import logging
import os
import subprocess
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from tests.websearch_process import run_websearch
from websearch_core import WebSearch
from websearch_core.errors import AllProvidersFailedError
from websearch_core.testing import Fault, Simulator

SECRET = "k3ys3cr3tpart0123456789"
"""What follows the prefix in each test key: it must never be shown."""
TAVILY_SHAPED = f"tvly-{SECRET}"
SPEC_TEXT = "Brave authorization failed (401). Check API key or base URL."
HINT = (
    " The key in BRAVE_API_KEY looks like a Tavily key (tvly-...); Tavily's is read from "
    "TAVILY_API_KEY."
)


@pytest.fixture
async def sim() -> AsyncIterator[Simulator]:
    """Brave and Tavily on loopback, each refusing every key with a 401."""
    async with Simulator(["brave", "tavily"]) as simulator:
        simulator["brave"].always(Fault.unauthorized())
        simulator["tavily"].always(Fault.unauthorized())
        yield simulator


def _client(sim: Simulator, **overrides: object) -> WebSearch:
    """A client reading its keys from the environment (none given in code)."""
    return WebSearch(sim.settings(**overrides), api_keys={})


async def _refusal(sim: Simulator, provider: str) -> str:
    """The text of a search forced to ``provider`` that the simulator refuses."""
    async with _client(sim) as ws:
        with pytest.raises(AllProvidersFailedError) as caught:
            await ws.search("python asyncio", provider=provider)
    return str(caught.value)


async def test_a_tavily_key_in_brave_api_key_is_named_when_brave_refuses_it(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The spec's text first, word for word, then the key's place, prefix and true home;
    the failure's log line says the same."""
    monkeypatch.setenv("BRAVE_API_KEY", TAVILY_SHAPED)
    caplog.set_level(logging.WARNING, logger="websearch_core")
    text = await _refusal(sim, "brave")
    assert text == SPEC_TEXT + HINT
    assert SECRET not in text
    logged = [r.getMessage() for r in caplog.records if "brave failed" in r.getMessage()]
    assert logged == [f"web search provider brave failed (401): {SPEC_TEXT}{HINT}"]
    assert all(SECRET not in r.getMessage() for r in caplog.records)
    assert len(sim["brave"].requests) == 1  # refused by Brave, not held back


async def test_braves_own_422_token_refusal_names_the_tavily_key_too(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Brave refuses a bad key with 422 ``SUBSCRIPTION_TOKEN_INVALID`` (its own way, an
    authorization failure here): its text is kept and gains the same sentence."""
    monkeypatch.setenv("BRAVE_API_KEY", TAVILY_SHAPED)
    body = json.dumps(
        {
            "type": "ErrorResponse",
            "error": {
                "code": "SUBSCRIPTION_TOKEN_INVALID",
                "detail": "The provided subscription token is invalid.",
                "status": 422,
            },
        }
    )
    sim["brave"].always(Fault.http(422, body))
    text = await _refusal(sim, "brave")
    assert text == f"Brave API error (422): {body}" + HINT
    assert SECRET not in text


async def test_a_key_in_code_shaped_like_another_providers_is_named_where_it_was_given(
    sim: Simulator,
) -> None:
    """A Tavily key given as ``api_keys["brave"]`` is named there, not as a variable."""
    async with WebSearch(sim.settings(), api_keys={"brave": TAVILY_SHAPED}) as ws:
        with pytest.raises(AllProvidersFailedError) as caught:
            await ws.search("python asyncio", provider="brave")
    assert str(caught.value) == SPEC_TEXT + (
        ' The key given in code as api_keys["brave"] looks like a Tavily key (tvly-...); '
        "Tavily's is read from TAVILY_API_KEY."
    )


async def test_a_key_with_no_known_shape_keeps_the_spec_text_alone(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Guard (passes before and after): no false alarm for a key of no documented shape."""
    monkeypatch.setenv("BRAVE_API_KEY", f"BSA{SECRET}")
    assert await _refusal(sim, "brave") == SPEC_TEXT


async def test_a_key_with_its_own_providers_shape_keeps_the_spec_text_alone(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Guard (passes before and after): a Tavily key refused by Tavily is only refused."""
    monkeypatch.setenv("TAVILY_API_KEY", TAVILY_SHAPED)
    assert await _refusal(sim, "tavily") == (
        "Tavily authorization failed (401). Check API key or base URL."
    )


async def test_a_key_shaped_like_another_providers_is_warned_of_once_at_the_first_search(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Both providers are in the plan: the warning comes once, before any refusal, with no
    more of the key than its prefix; a second client and search add none."""
    monkeypatch.setenv("BRAVE_API_KEY", TAVILY_SHAPED)
    monkeypatch.setenv("TAVILY_API_KEY", f"tvly-{SECRET[::-1]}")
    sim["brave"].always(None)  # Brave answers: the warning is not a refusal's text
    caplog.set_level(logging.WARNING, logger="websearch_core")
    for _ in range(2):  # the plan (both providers) is imported by the first search
        async with _client(sim, providers=("brave", "tavily")) as ws:
            await ws.search("python asyncio")
    said = [r.getMessage() for r in caplog.records if "looks like a Tavily key" in r.getMessage()]
    assert said == [HINT.strip().rstrip(".")]
    assert all(SECRET not in r.getMessage() for r in caplog.records)


@pytest.fixture
def threaded_sim() -> Iterator[Simulator]:
    """Brave and Tavily on loopback in a thread, Brave refusing every key with a 401."""
    with Simulator(["brave", "tavily"]).running_in_thread() as simulator:
        simulator["brave"].always(Fault.unauthorized())
        yield simulator


def _websearch(
    sim: Simulator, key: str, tmp_path: Path, *args: str, **more: str
) -> subprocess.CompletedProcess[str]:
    """``websearch ARGS q`` with ``key`` in BRAVE_API_KEY (and ``more``), on the simulator."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(Path.cwd()), os.environ.get("PYTHONPATH", "")]),
        "WEBSEARCH_STATE_DIR": str(tmp_path),
        "WEBSEARCH_STATE_BACKEND": "memory",
        "WEBSEARCH_BROWSER": "off",
        "WEBSEARCH_BRAVE_BASE_URL": sim["brave"].base_url,
        "WEBSEARCH_TAVILY_BASE_URL": sim["tavily"].base_url,
        "WEBSEARCH_PROVIDERS": "brave",
        "BRAVE_API_KEY": key,
        **more,
    }
    return run_websearch(["--no-cache", *args, "q"], env=env, timeout=60)


def test_the_command_names_a_tavily_key_in_brave_api_key(
    threaded_sim: Simulator, tmp_path: Path
) -> None:
    """The command's failure says it too, and never more of the key than its prefix."""
    done = _websearch(threaded_sim, TAVILY_SHAPED, tmp_path, "--provider", "brave")
    assert done.returncode == 1, done.stderr
    said = done.stdout + done.stderr
    assert SPEC_TEXT + HINT in said
    assert SECRET not in said


def test_the_command_says_nothing_more_of_a_key_with_no_known_shape(
    threaded_sim: Simulator, tmp_path: Path
) -> None:
    """Guard (passes before and after): the same refusal of a key of no known shape."""
    done = _websearch(threaded_sim, f"BSA{SECRET}", tmp_path, "--provider", "brave")
    assert done.returncode == 1, done.stderr
    said = done.stdout + done.stderr
    assert SPEC_TEXT in said
    assert "looks like" not in said


def test_the_command_warns_of_a_tavily_key_in_brave_api_key_when_tavily_answers(
    threaded_sim: Simulator, tmp_path: Path
) -> None:
    """Both in the chain, Brave refusing and Tavily answering: the answer is printed, and
    the warning once on stderr (the command hid the library's warnings before)."""
    done = _websearch(
        threaded_sim,
        TAVILY_SHAPED,
        tmp_path,
        WEBSEARCH_PROVIDERS="brave,tavily",
        TAVILY_API_KEY=f"tvly-{SECRET[::-1]}",
    )
    assert done.returncode == 0, done.stderr
    assert len(threaded_sim["tavily"].requests) == 1
    warning = f"websearch: warning: {HINT.strip().rstrip('.')}"
    assert done.stderr.splitlines().count(warning) == 1, done.stderr
    assert SECRET not in done.stdout + done.stderr
