"""``websearch --provider public`` when every credential-free engine fails: each is named.

Run in-process against the loopback simulator, every engine under its real id.
"""

import contextlib
import re
from collections.abc import Iterator

import pytest

from tests.simulated_environment import allow_only, route_to_simulator
from websearch_core.cli import EXIT_FAILED, EXIT_OK, main
from websearch_core.orchestration.quota import REASON_LIMIT
from websearch_core.provider_ids import FREE_ENGINE_ORDER
from websearch_core.testing import Fault, Simulator

CHALLENGED = ("duckduckgo", "startpage", "google", "mojeek")
DOWN = ("yahoo", "ecosia")


@pytest.fixture
def engines(monkeypatch: pytest.MonkeyPatch) -> Iterator[Simulator]:
    """Every free engine simulated and failing: challenges, a 429 and two 503s."""
    with contextlib.ExitStack() as stack:
        sim = stack.enter_context(Simulator(FREE_ENGINE_ORDER).running_in_thread())
        route_to_simulator(monkeypatch, sim)
        for engine in CHALLENGED:
            sim[engine].always(Fault.challenge())
        for engine in DOWN:
            sim[engine].always(Fault.server_error(503))
        sim["bing"].always(Fault.rate_limited())
        allow_only(monkeypatch, *FREE_ENGINE_ORDER, "public")  # every keyed one excluded
        monkeypatch.setenv("WEBSEARCH_BROWSER", "off")
        yield sim


def _error_line(capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["news", "--provider", "public", "--no-cache"]) == EXIT_FAILED
    (line,) = capsys.readouterr().err.splitlines()
    return line


def test_each_engine_is_named_with_why_it_failed(
    engines: Simulator, capsys: pytest.CaptureFixture[str]
) -> None:
    line = _error_line(capsys)
    assert line == (
        "Error: All public engines failed: "
        f"{', '.join(CHALLENGED)}: blocked by a bot challenge; "
        "bing: rate limited (HTTP 429); "
        f"{', '.join(DOWN)}: failed (HTTP 503)"
    )


def test_engines_named_again_once_they_are_cooling_down(
    engines: Simulator, capsys: pytest.CaptureFixture[str]
) -> None:
    """The mark Public Web's failure leaves keeps the start of its text: every engine fits.

    Each engine's whole sentence, advice included, ran past the 300 characters a mark
    keeps: the ``public`` row of ``websearch providers`` named one or two engines and
    stopped mid-word (``bing: Bing is rate lim``).
    """
    first = _error_line(capsys)
    second = _error_line(capsys)  # the engines are marked now: not asked
    assert len(first) < REASON_LIMIT and len(second) < REASON_LIMIT
    # The end of bing's hold, date and all (it gave a time of day): the list fits with it.
    assert re.search(
        r"; bing: rate limited until \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC, not asked;", second
    )
    assert main(["providers"]) == EXIT_OK
    (row,) = [r for r in capsys.readouterr().out.splitlines() if r.startswith("public ")]
    assert "All public engines failed: " in row
    for engine in FREE_ENGINE_ORDER:
        assert f"{engine}" in row.partition("All public engines failed: ")[2]


def test_an_empty_answer_names_the_engines_cut_off_and_why_the_rest_failed(
    engines: Simulator, capsys: pytest.CaptureFixture[str]
) -> None:
    """Engines still running at Public Web's time are cut off: the answer is empty (204).

    Its text, ``Public Web returned no renderable search content.``, named no engine.
    """
    for engine in ("google", "ecosia", "mojeek"):
        engines[engine].always(Fault.hang(5))
    assert main(["news", "--provider", "public", "--timeout", "0.5"]) == EXIT_FAILED
    (line,) = capsys.readouterr().err.splitlines()
    assert line == (
        "Error: Public Web returned no renderable search content. Engines that did not answer: "
        "duckduckgo, startpage: blocked by a bot challenge; bing: rate limited (HTTP 429); "
        "yahoo: failed (HTTP 503); google, ecosia, mojeek: cut off at the deadline."
    )
