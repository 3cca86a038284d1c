"""A key that cannot go into a header is reported where it came from, and skipped.

``websearch auth set`` and ``[api_keys]`` refuse a key with a control character, but one
already in the credential store (written by hand or by an older version) or in a
provider's variable is only met when it is used. It used to reach the request and fail as
``Brave request was not sent: a header value holds a line break ...`` while the providers
table said ``ready``. Now the table says ``misconfigured`` naming the variable or the
store, and the chain skips the provider without a request with that text and moves on.

Surrounding whitespace is not a problem: a key from any source is used trimmed, as the
reference trims the variables it reads; the store's hand-edited ``"key\\r\\n"`` as well.
"""

import json
import logging
import os
from pathlib import Path

import pytest

from tests.functional._sim_helpers import simulator_fixture
from websearch_core import WebSearch
from websearch_core.credentials import OAuthToken
from websearch_core.errors import ConfigurationError
from websearch_core.status import ProviderStatus
from websearch_core.testing import Simulator

QUERY = "python asyncio"
KEY = "BRAVECANARY0123456789"
ASCII = "API keys are ASCII only, so it is likely a look-alike of an ASCII character"


sim = simulator_fixture("brave", "serper", "gemini", "perplexity")


def _store(data: dict[str, dict[str, object]]) -> Path:
    path = Path(os.environ["WEBSEARCH_CREDENTIALS_FILE"])
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


async def _status(ws: WebSearch, provider_id: str) -> ProviderStatus:
    return next(s for s in await ws.provider_status() if s.id == provider_id)


@pytest.mark.parametrize("bad", [f"{KEY[:6]}\x01{KEY[6:]}", f"{KEY[:6]}\r\n{KEY[6:]}", "\x00"])
async def test_a_stored_key_with_a_control_character_is_named_and_skipped(
    sim: Simulator, caplog: pytest.LogCaptureFixture, bad: str
) -> None:
    path = _store({"brave": {"api_key": bad}})
    caplog.set_level(logging.INFO, logger="websearch_core")
    settings = sim.settings(exclude=("gemini", "perplexity"))
    async with WebSearch(settings, api_keys={"serper": "fake-serper"}) as ws:
        status = await _status(ws, "brave")
        result = await ws.run(QUERY, use_cache=False)
    problem = (
        f"Brave API key stored in the credential store {path} contains a control character "
        "(a line break, a NUL), so it cannot be sent; store it again with "
        "'websearch auth set brave'."
    )
    assert not status.available
    assert status.reason == f"misconfigured: {problem}"
    assert sim["brave"].requests == []  # skipped before any request
    assert result.response.provider == "serper"
    skipped = result.response.attempts[0]
    assert (skipped.provider, skipped.outcome, skipped.detail) == ("brave", "skipped", problem)
    for text in (repr(status), result.text, caplog.text):
        assert KEY[:6] not in text and KEY[6:] not in text


async def test_the_variable_is_named_and_the_chain_reports_it_when_all_fail(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BRAVE_API_KEY", f"{KEY[:6]}\r{KEY[6:]}")
    async with WebSearch(sim.settings(exclude=("serper", "gemini", "perplexity"))) as ws:
        status = await _status(ws, "brave")
        result = await ws.run(QUERY, use_cache=False)
    problem = (
        "Brave API key in BRAVE_API_KEY contains a control character (a line break, a NUL), "
        "so it cannot be sent; remove it from BRAVE_API_KEY."
    )
    assert status.reason == f"misconfigured: {problem}"
    assert sim["brave"].requests == []
    # Nothing else could run: the settings failed, not Brave (the command exits 2).
    assert result.error == f"No web search provider configured. {problem}"
    assert result.text == f"Error: {result.error}"


@pytest.mark.parametrize(
    ("key", "reason"),
    [
        (
            f"{KEY}\x1b[2J",
            "contains a control character (a line break, a NUL), so it cannot be sent",
        ),
        (f'"{KEY}"', 'contains a quote mark (") that would be sent as part of it'),
    ],
)
def test_a_key_given_in_code_that_can_never_work_is_refused_at_construction(
    key: str, reason: str
) -> None:
    """A key set by a program is its bug: it was skipped at every search, like a variable's.

    The search then answered from another provider or failed, far from the line that
    passed the key; now the client is not built, and the error names the entry.
    """
    with pytest.raises(ConfigurationError) as caught:
        WebSearch(api_keys={"brave": key})
    assert str(caught.value) == f'api_keys["brave"]: the API key {reason}'
    assert KEY not in str(caught.value)


@pytest.mark.parametrize("source", ["store", "env"])
async def test_a_trailing_line_break_is_trimmed_not_refused(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch, source: str
) -> None:
    """A Windows ``.env`` file or a hand-edited store leaves ``\\r\\n`` after the key."""
    if source == "store":
        _store({"brave": {"api_key": f"  {KEY}\r\n"}})
    else:
        monkeypatch.setenv("BRAVE_API_KEY", f"{KEY}\r\n")
    async with WebSearch(sim.settings(exclude=("serper", "gemini", "perplexity"))) as ws:
        status = await _status(ws, "brave")
        result = await ws.run(QUERY, use_cache=False)
    assert status.reason == "ready"
    assert result.error is None and result.response.provider == "brave"
    assert [r.header("X-Subscription-Token") for r in sim["brave"].requests] == [KEY]


async def test_a_key_an_oauth_token_wins_over_is_not_a_problem(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Gemini sends a stored OAuth token before its key: a bad key it never sends is fine."""
    monkeypatch.setenv("GEMINI_API_KEY", "bad\nkey")
    token = OAuthToken(access_token="gemini-token", expires_at=4102444800.0)
    _store({"gemini": {"oauth": token.to_json()}})
    async with WebSearch(sim.settings(exclude=("serper", "brave", "perplexity"))) as ws:
        assert not (await _status(ws, "gemini")).reason.startswith("misconfigured")
    monkeypatch.delenv("GEMINI_API_KEY")
    monkeypatch.setenv("GOOGLE_API_KEY", "bad\nkey")
    _store({})
    async with WebSearch(sim.settings(exclude=("serper", "brave", "perplexity"))) as ws:
        assert (await _status(ws, "gemini")).reason.startswith(
            "misconfigured: Gemini API key in GOOGLE_API_KEY contains a control character"
        )


FORCED = (
    "Brave was forced but cannot run (Brave API key in BRAVE_API_KEY contains a control "
    "character (a line break, a NUL), so it cannot be sent; remove it from BRAVE_API_KEY); "
    "fell back to the auto chain"
)


async def test_a_forced_provider_whose_key_cannot_be_sent_falls_back_saying_why(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """It cannot run at all, as without a key: the auto chain answers, the reason first.

    It used to be asked alone and fail with the key's problem as the whole answer, though
    nothing of it could have been sent.
    """
    monkeypatch.setenv("BRAVE_API_KEY", f"{KEY[:6]}\r\n{KEY[6:]}")
    caplog.set_level(logging.DEBUG, logger="websearch_core")
    async with WebSearch(
        sim.settings(exclude=("gemini", "perplexity")), api_keys={"serper": "fake-serper"}
    ) as ws:
        result = await ws.run(QUERY, provider="brave", use_cache=False)
    assert sim["brave"].requests == []
    assert result.error is None and result.response.provider == "serper"
    attempts = [(a.provider, a.outcome, a.detail) for a in result.response.attempts]
    assert attempts == [("brave", "skipped", FORCED), ("serper", "success", None)]
    for text in (result.text, repr(result.response), caplog.text):
        assert KEY[:6] not in text and KEY[6:] not in text


async def test_a_forced_provider_whose_key_cannot_be_sent_leads_the_error_text(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BRAVE_API_KEY", f"{KEY[:6]}\x01{KEY[6:]}")
    async with WebSearch(sim.settings(exclude=("serper", "gemini", "perplexity"))) as ws:
        result = await ws.run(QUERY, provider="brave", use_cache=False)
    assert sim["brave"].requests == []
    assert result.error == f"No web search provider configured. {FORCED}."
    assert KEY[:6] not in result.text and KEY[6:] not in result.text


def test_the_providers_table_shows_the_misconfigured_provider(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from websearch_core.cli import EXIT_OK, main

    path = _store({"brave": {"api_key": f"{KEY}\x00"}})
    monkeypatch.setenv("WEBSEARCH_EXCLUDE", "duckduckgo")
    assert main(["providers"]) == EXIT_OK
    out, err = capsys.readouterr()
    (row,) = [line for line in out.splitlines() if line.startswith("brave ")]
    assert row.endswith(
        f"misconfigured: Brave API key stored in the credential store {path} contains a "
        "control character (a line break, a NUL), so it cannot be sent; store it again with "
        "'websearch auth set brave'."
    )
    assert KEY not in out + err


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        (f'"{KEY}"', 'contains a quote mark (")'),
        (f"BRAVE_API_KEY={KEY}", "starts with a variable's name and an equals sign (NAME=)"),
        (f"{KEY[:6]}\u200b{KEY[6:]}", "contains an invisible character (U+200B ZERO WIDTH SPACE)"),
        (f"{KEY[:6]}\u00a0{KEY[6:]}", "contains an invisible character (U+00A0 NO-BREAK SPACE)"),
        # Look-alikes: a Cyrillic "а", a Greek "ο", a fullwidth "Ｂ" read as the key meant.
        (f"{KEY[:6]}\u0430{KEY[6:]}", f"contains a Cyrillic letter at character 7 ({ASCII})"),
        (f"{KEY[:6]}\u03bf{KEY[6:]}", f"contains a Greek letter at character 7 ({ASCII})"),
        (f"\uff22{KEY[1:]}", f"contains a fullwidth letter at character 1 ({ASCII})"),
    ],
)
async def test_a_variable_key_that_can_never_work_is_named_and_skipped(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch, value: str, reason: str
) -> None:
    """``BRAVE_API_KEY='"..."'`` from a ``.env`` line used to be sent, quotes and all.

    The provider refused it as an authorization error that named no cause, and the
    providers table said ``ready``.
    """
    monkeypatch.setenv("BRAVE_API_KEY", value)
    settings = sim.settings(exclude=("gemini", "perplexity"))
    async with WebSearch(settings, api_keys={"serper": "fake-serper"}) as ws:
        status = await _status(ws, "brave")
        result = await ws.run(QUERY, use_cache=False)
    problem = (
        f"Brave API key in BRAVE_API_KEY {reason} that would be sent as part of it; "
        "remove it from BRAVE_API_KEY."
    )
    assert status.reason == f"misconfigured: {problem}"
    assert sim["brave"].requests == []
    assert result.response.provider == "serper"
    skipped = result.response.attempts[0]
    assert (skipped.provider, skipped.outcome, skipped.detail) == ("brave", "skipped", problem)
    assert KEY not in result.text and KEY[6:] not in result.text


@pytest.mark.parametrize(
    ("value", "named"),
    [
        ('"sk-ant-oat01-CANARY"', "Anthropic OAuth token"),  # the OAuth token it is
        ('"sk-ant-api03-CANARY"', "Anthropic API key"),
    ],
    ids=["oauth-token", "api-key"],
)
async def test_an_anthropic_oauth_token_given_as_the_key_is_named_a_token(
    monkeypatch: pytest.MonkeyPatch, value: str, named: str
) -> None:
    """``ANTHROPIC_API_KEY=sk-ant-oat...`` is sent as an OAuth token, so it is called one.

    It was called ``the Anthropic API key`` though no API key was set, which sent the user
    looking for one.
    """
    monkeypatch.setenv("ANTHROPIC_API_KEY", value)
    async with Simulator(["anthropic"]) as sim, WebSearch(sim.settings()) as ws:
        status = await _status(ws, "anthropic")
    assert status.reason == (
        f'misconfigured: {named} in ANTHROPIC_API_KEY contains a quote mark (") that would '
        "be sent as part of it; remove it from ANTHROPIC_API_KEY."
    )
    assert "CANARY" not in status.reason
