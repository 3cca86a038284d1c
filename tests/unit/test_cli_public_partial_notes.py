"""``websearch --provider public`` says on stderr which engines did not answer a merge.

Public Web records the engines that failed or were cut off in the answer's ``notes``, and
the model's text keeps the spec's layout without them: the command printed a merge that
two of four engines had not answered exactly as a whole one, and only ``--json`` told.
Run in-process against the loopback simulator, the engines under their real ids.
"""

import contextlib
import json
from collections.abc import Iterator

import pytest

from tests.simulated_environment import allow_only, route_to_simulator
from websearch_core.cli import EXIT_OK, main
from websearch_core.testing import Fault, Simulator

ENGINES = ("duckduckgo", "bing", "yahoo", "startpage")
"""Four plain-fetch engines: none needs a browser, so every one is really asked."""


@pytest.fixture
def engines(monkeypatch: pytest.MonkeyPatch) -> Iterator[Simulator]:
    """The four engines simulated; the others and every keyed provider excluded."""
    with contextlib.ExitStack() as stack:
        sim = stack.enter_context(Simulator(ENGINES).running_in_thread())
        route_to_simulator(monkeypatch, sim)
        allow_only(monkeypatch, *ENGINES, "public")
        monkeypatch.setenv("WEBSEARCH_BROWSER", "off")
        monkeypatch.setenv("WEBSEARCH_STATE_BACKEND", "memory")
        yield sim


def _search(capsys: pytest.CaptureFixture[str], *options: str) -> tuple[str, list[str]]:
    assert main(["python", "--provider", "public", "--no-cache", *options]) == EXIT_OK
    captured = capsys.readouterr()
    return captured.out, captured.err.splitlines()


def test_a_partial_merge_names_the_engines_that_did_not_answer(
    engines: Simulator, capsys: pytest.CaptureFixture[str]
) -> None:
    engines["duckduckgo"].always(Fault.challenge())
    engines["bing"].always(Fault.rate_limited())
    out, err = _search(capsys)
    assert out.startswith("[1] ")  # the answer the others gave is printed
    (line,) = err
    prefix = "websearch: note: Engines that did not answer: "
    assert line.startswith(prefix)
    said = line.removeprefix(prefix)
    assert "duckduckgo: blocked by a bot challenge" in said
    assert "bing: rate limited" in said
    for answered in ("yahoo", "startpage"):
        assert answered not in said
        assert engines[answered].requests  # asked, and answered (Startpage asks twice)


def test_the_note_is_the_one_the_json_holds(
    engines: Simulator, capsys: pytest.CaptureFixture[str]
) -> None:
    """A guard (passes before and after): ``--json`` keeps its notes and stderr clean."""
    engines["duckduckgo"].always(Fault.challenge())
    out, err = _search(capsys, "--json")
    assert err == []
    notes = json.loads(out)["response"]["notes"]
    assert len(notes) == 1 and notes[0].startswith("Engines that did not answer: duckduckgo")


def test_a_whole_merge_prints_no_note(
    engines: Simulator, capsys: pytest.CaptureFixture[str]
) -> None:
    """A guard (passes before and after): every engine answered, nothing is said."""
    out, err = _search(capsys)
    assert out.startswith("[1] ")
    assert err == []
    for engine in ENGINES:
        assert engines[engine].requests
