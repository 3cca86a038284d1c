"""The command's messages to a person are wrapped to a terminal's width, and only there."""

import io
import json
from collections.abc import Iterator

import pytest

from tests.simulated_environment import allow_only, route_to_simulator
from websearch_core.cli import EXIT_FAILED, EXIT_USAGE, main
from websearch_core.cli_status import fail
from websearch_core.cli_wrap import MIN_WIDTH, for_terminal
from websearch_core.testing import Fault, Simulator

COLUMNS = 60


class _Terminal(io.StringIO):
    """Standard error as a terminal: what a person at a narrow window sees."""

    def isatty(self) -> bool:
        return True


def _at_terminal(monkeypatch: pytest.MonkeyPatch) -> _Terminal:
    """Standard error a terminal ``COLUMNS`` wide, from here to the test's end.

    Set inside the test, not by a fixture: pytest's own capture puts its stream back in
    ``sys.stderr`` between a test's set-up and its call.
    """
    stream = _Terminal()
    monkeypatch.setattr("sys.stderr", stream)
    monkeypatch.setenv("COLUMNS", str(COLUMNS))
    return stream


@pytest.fixture
def failing_chain(monkeypatch: pytest.MonkeyPatch) -> Iterator[Simulator]:
    """Two providers that both fail with long texts: the command's longest report."""
    with Simulator(["brave", "duckduckgo"]).running_in_thread() as sim:
        route_to_simulator(monkeypatch, sim)
        monkeypatch.setenv("BRAVE_API_KEY", "sim-key-brave")
        allow_only(monkeypatch, *sim.providers)
        sim["brave"].always(Fault.server_error(503, "upstream down " * 12))
        sim["duckduckgo"].always(Fault.challenge())
        yield sim


def _words(text: str) -> list[str]:
    return text.split()


def test_a_failure_report_at_a_narrow_terminal_is_wrapped_between_words(
    failing_chain: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    terminal = _at_terminal(monkeypatch)
    assert main(["python"]) == EXIT_FAILED
    shown = terminal.getvalue().splitlines()
    assert max(len(line) for line in shown) < COLUMNS
    assert shown[0] == "Error: All web search providers failed:"
    # Each provider's text starts its item, and the lines it wraps onto sit deeper.
    starts = [line for line in shown if line.startswith("  ") and not line.startswith("   ")]
    assert [line.split(":")[0] for line in starts] == ["  brave", "  duckduckgo"]
    assert all(line.startswith("    ") for line in shown[1:] if line not in starts)


def test_wrapping_keeps_every_word_of_the_report(
    failing_chain: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    terminal = _at_terminal(monkeypatch)
    assert main(["python"]) == EXIT_FAILED
    wrapped = terminal.getvalue()
    plain_stream = io.StringIO()  # the same search, its report into a file
    monkeypatch.setattr("sys.stderr", plain_stream)
    assert main(["python"]) == EXIT_FAILED
    plain = plain_stream.getvalue()
    assert max(len(line) for line in plain.splitlines()) > COLUMNS  # unchanged: one line each
    assert _words(wrapped) == _words(plain)


def test_json_output_and_its_report_are_unchanged_at_a_terminal(
    capsys: pytest.CaptureFixture[str],
    failing_chain: Simulator,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    terminal = _at_terminal(monkeypatch)
    assert main(["python", "--json"]) == EXIT_FAILED
    data = json.loads(capsys.readouterr().out)
    assert data["failed"] is True
    report = terminal.getvalue().splitlines()
    brave = next(line for line in report if line.startswith("  brave: "))
    assert len(brave) > COLUMNS  # one line, as a program reading it expects


def test_a_usage_error_is_wrapped_at_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    terminal = _at_terminal(monkeypatch)
    message = "the refresh hook 'my_tokens:refresh_codex' is not an async function " * 3
    assert fail(message) == EXIT_USAGE
    shown = terminal.getvalue().splitlines()
    assert len(shown) > 1 and max(len(line) for line in shown) < COLUMNS
    assert shown[0].startswith("websearch: the refresh hook")
    assert all(line.startswith("  ") for line in shown[1:])
    assert _words(terminal.getvalue()) == _words(f"websearch: {message}")


def test_a_usage_error_into_a_pipe_stays_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    stream = io.StringIO()
    monkeypatch.setattr("sys.stderr", stream)
    monkeypatch.setenv("COLUMNS", str(COLUMNS))
    message = "a long message " * 10
    fail(message)
    assert stream.getvalue() == f"websearch: {message}\n"


def test_words_longer_than_a_line_are_never_cut(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", str(MIN_WIDTH))
    url = "https://example.org/" + "a" * 80
    text = f"  google: fetching {url} failed"
    assert for_terminal(text, _Terminal()).splitlines() == [
        "  google: fetching",
        f"    {url}",
        "    failed",
    ]


def test_a_terminal_too_narrow_to_wrap_into_gets_the_text_as_it_is(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("COLUMNS", str(MIN_WIDTH - 1))
    text = "websearch: " + "word " * 30
    assert for_terminal(text, _Terminal()) == text
