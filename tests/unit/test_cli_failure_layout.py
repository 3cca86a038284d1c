"""How ``websearch`` prints a failed search: one provider a line, and JSON that says it failed.

The tool's text is the spec's one line (``All web search providers failed: id: text; ...``,
then the offline hint); on a machine without a network that line ran to some 1,100
characters on the terminal. The command lays the same words out a provider a line, the
hint on its own, and its ``--json`` adds ``failed`` and ``failures`` beside the spec's
details, whose ``response.provider`` names the last provider tried as if it had answered.
Run in-process against the loopback simulator and a loopback port nothing listens on.
"""

import contextlib
import json
from collections.abc import Callable, Iterator

import pytest

from tests.refused_port import refused_port
from tests.simulated_environment import allow_only, route_to_simulator
from websearch_core import SEARCH_PROVIDER_ORDER
from websearch_core.cli import EXIT_FAILED, EXIT_OK, main
from websearch_core.format import LOOPBACK_HINT, page_unreached_hint
from websearch_core.testing import Fault, Simulator

Routes = Callable[..., Simulator]


@pytest.fixture
def routes(monkeypatch: pytest.MonkeyPatch) -> Iterator[Routes]:
    """Simulate ``provider_ids``; ``refused`` ones get a base URL that refuses connections.

    Only these providers may run (the others are excluded), so no keyless engine reaches
    the real site.
    """
    with contextlib.ExitStack() as stack:

        def start(*provider_ids: str, refused: tuple[str, ...] = ()) -> Simulator:
            sim = stack.enter_context(Simulator(provider_ids).running_in_thread())
            closed = f"http://127.0.0.1:{refused_port()}"
            route_to_simulator(monkeypatch, sim, dict.fromkeys(refused, closed))
            monkeypatch.setenv("BRAVE_API_KEY", "sim-key-brave")
            monkeypatch.setenv("TAVILY_API_KEY", "sim-key-tavily")
            allow_only(monkeypatch, *provider_ids)
            monkeypatch.setenv("WEBSEARCH_BROWSER", "off")
            return sim

        yield start


def _failed_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[dict[str, object], str]:
    """``websearch --json ARGV``'s JSON and stderr, after it exited 1."""
    assert main(["python asyncio", "--json", "--no-cache", *argv]) == EXIT_FAILED
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert isinstance(data, dict)
    return data, err


def test_no_host_reached_prints_a_provider_a_line_then_the_hint(
    routes: Routes, capsys: pytest.CaptureFixture[str]
) -> None:
    sim = routes("brave", "duckduckgo", refused=("brave", "duckduckgo"))
    data, err = _failed_json(capsys)
    response = data["response"]
    assert isinstance(response, dict)
    said = {attempt["provider"]: attempt["detail"] for attempt in response["attempts"]}
    assert list(said) == ["brave", "duckduckgo"]
    assert all("could not connect (ClientConnectorError)" in text for text in said.values())
    assert err.splitlines() == [
        "Error: All web search providers failed:",
        f"  brave: {said['brave']}",
        f"  duckduckgo: {said['duckduckgo']}",
        LOOPBACK_HINT,  # the refused port is this machine's: nothing listens, no firewall
    ]
    # The tool's text is the spec's, one line, the same words in the same order.
    error = data["error"]
    assert isinstance(error, str) and "\n" not in error
    assert error == (
        f"All web search providers failed: brave: {said['brave']}; "
        f"duckduckgo: {said['duckduckgo']}. {LOOPBACK_HINT}"
    )
    assert not sim["brave"].requests and not sim["duckduckgo"].requests


def test_failed_json_says_it_failed_and_what_each_provider_said(
    routes: Routes, capsys: pytest.CaptureFixture[str]
) -> None:
    sim = routes("brave", "tavily")
    sim["brave"].always(Fault.server_error(503))
    sim["tavily"].always(Fault.unauthorized())
    data, err = _failed_json(capsys)
    assert data["failed"] is True
    response = data["response"]
    assert isinstance(response, dict)
    details = {a["provider"]: a["detail"] for a in response["attempts"]}
    assert list(details) == ["tavily", "brave"]  # the auto chain's order
    assert response["provider"] == "brave"  # the spec's field: the last one tried
    unauthorized = "Tavily authorization failed (401). Check API key or base URL."
    assert details["brave"].startswith("Brave API error (503)")
    assert data["failures"] == [
        {"provider": "tavily", "error": unauthorized},
        {"provider": "brave", "error": details["brave"]},
    ]
    assert err.splitlines()[1:] == [f"  tavily: {unauthorized}", f"  brave: {details['brave']}"]
    assert "sim-key-" not in err + json.dumps(data)


def test_an_answer_prints_the_same_json_as_before(
    routes: Routes, capsys: pytest.CaptureFixture[str]
) -> None:
    sim = routes("brave", "tavily")
    sim["tavily"].always(Fault.server_error(503))
    assert main(["python asyncio", "--json"]) == EXIT_OK
    data = json.loads(capsys.readouterr().out)
    assert list(data) == ["response"]  # no failed, no failures: the spec's details alone
    assert data["response"]["provider"] == "brave"


def test_one_provider_failing_prints_its_error_on_one_line(
    routes: Routes, capsys: pytest.CaptureFixture[str]
) -> None:
    routes("brave")["brave"].always(Fault.server_error(503))
    data, err = _failed_json(capsys, "--provider", "brave")
    assert err == f"Error: {data['error']}\n"
    assert data["failed"] is True
    assert data["failures"] == [{"provider": "brave", "error": data["error"]}]


def test_a_forced_provider_refused_prints_the_one_host_hint_on_its_own_line(
    routes: Routes, capsys: pytest.CaptureFixture[str]
) -> None:
    # It got no hint at all, while two providers refused got the offline hint: one host
    # may be a wrong address, so the hint allows for it, as `websearch fetch` says it. A
    # loopback one is this machine's own, so it says nothing listens there.
    sim = routes("brave", refused=("brave",))
    data, err = _failed_json(capsys, "--provider", "brave")
    failures = data["failures"]
    assert isinstance(failures, list)
    said = failures[0]["error"]
    assert failures == [{"provider": "brave", "error": said}]
    assert "could not connect (ClientConnectorError)" in said
    hint = page_unreached_hint("loopback")
    assert hint.startswith("Nothing listens at that loopback address (this machine): start")
    assert data["error"] == f"{said}. {hint}"
    assert err.splitlines() == [f"Error: {said}.", hint]
    assert not sim["brave"].requests


def test_public_web_asked_alone_prints_its_hint_on_its_own_line(
    routes: Routes, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # One provider (the aggregate) whose engines all failed alike: the hint ran on after
    # its error on one line, while a chain's failures put it on a line of its own.
    routes("duckduckgo", "bing", refused=("duckduckgo", "bing"))
    others = [pid for pid in SEARCH_PROVIDER_ORDER if pid not in ("duckduckgo", "bing", "public")]
    monkeypatch.setenv("WEBSEARCH_EXCLUDE", ",".join(others))
    data, err = _failed_json(capsys, "--provider", "public")
    error = data["error"]
    assert isinstance(error, str) and error.endswith(f". {LOOPBACK_HINT}")
    assert err.splitlines() == [f"Error: {error.removesuffix(f' {LOOPBACK_HINT}')}", LOOPBACK_HINT]
    assert err.startswith("Error: All public engines failed: ")
