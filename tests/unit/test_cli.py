"""The ``websearch`` command, run in-process against the loopback simulator."""

import asyncio
import builtins
import contextlib
import importlib.abc
import importlib.metadata
import json
import os
import re
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import websearch_core
from tests.rendered_models import count_renderings
from tests.simulated_environment import allow_only, route_to_simulator
from tests.websearch_process import WEBSEARCH
from websearch_core import (
    SEARCH_PROVIDER_ORDER,
    SearchResponse,
    SearchToolResult,
    Settings,
    WebSearch,
)
from websearch_core.__main__ import main as entry_point
from websearch_core.cli import EXIT_FAILED, EXIT_OK, EXIT_USAGE, main
from websearch_core.cli_status import EXIT_INTERRUPTED
from websearch_core.credentials import Credentials, CredentialStore, OAuthToken
from websearch_core.providers import get_provider
from websearch_core.status import ProviderStatus
from websearch_core.testing import Fault, SimResult, Simulator
from websearch_core.testing.protocols.gemini import GeminiProtocol

KEY_ENV = {"brave": "BRAVE_API_KEY", "tavily": "TAVILY_API_KEY"}
SECRET = "sk-cli-test-5f1c2b"


Simulate = Callable[..., Simulator]


@pytest.fixture(autouse=True)
def _patient_state_store(monkeypatch: pytest.MonkeyPatch) -> None:
    """Give each command's fresh state file 20 s to open instead of the default 1 s.

    Every command here opens a new SQLite file (the cache lookup, the usage count); on a
    machine loaded enough that this takes more than 1 s, a "state store unavailable" warning
    came before the text a test reads (seen for two tests on a loaded 2-core machine). What
    these tests read is the command's output, not the store's patience, which
    ``test_cli_store_waits.py`` tests. A test that sets the variable itself still wins.
    """
    monkeypatch.setenv("WEBSEARCH_STATE_WAIT_SECONDS", "20")


@pytest.fixture
def simulate(monkeypatch: pytest.MonkeyPatch) -> Iterator[Simulate]:
    """Start simulated providers in a background thread and point the environment at them."""
    with contextlib.ExitStack() as stack:

        def start(*provider_ids: str, keys: bool = True) -> Simulator:
            sim = stack.enter_context(Simulator(provider_ids).running_in_thread())
            route_to_simulator(monkeypatch, sim)
            for provider_id in provider_ids:
                if keys and provider_id in KEY_ENV:
                    monkeypatch.setenv(KEY_ENV[provider_id], f"sim-key-{provider_id}")
            # Only simulated providers may run: a keyless one must never reach the real site.
            allow_only(monkeypatch, *provider_ids)
            return sim

        yield start


def _stdin(monkeypatch: pytest.MonkeyPatch, text: str, *, tty: bool = False) -> None:
    class FakeStdin:
        def __init__(self) -> None:
            self.consumed = False

        def isatty(self) -> bool:
            return tty

        def read(self) -> str:
            self.consumed = True
            return text

    monkeypatch.setattr("sys.stdin", FakeStdin())


# --- search -------------------------------------------------------------------------------


def test_search_prints_the_formatted_text(
    simulate: Simulate, capsys: pytest.CaptureFixture[str]
) -> None:
    sim = simulate("brave")
    assert main(["python", "asyncio", "--limit", "2", "--recency", "week"]) == EXIT_OK
    out, err = capsys.readouterr()
    assert out.startswith("[1] python asyncio result 1")
    assert "https://site2.example.org/python-asyncio" in out
    assert "[3]" not in out
    assert err == ""
    (request,) = sim["brave"].requests
    sent = request.query_dict()
    assert (sent["q"], sent["count"], sent["freshness"]) == ("python asyncio", "2", "pw")


def test_search_never_renders_its_result_as_text(
    simulate: Simulate, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Python 3.11/3.12's asyncio.run renders its main task's result with repr() as it ends;
    # the command's result holds every source's text, so it must not be what is rendered.
    rendered = count_renderings(monkeypatch, SearchToolResult, SearchResponse)
    simulate("brave")
    assert main(["python", "asyncio", "--limit", "2"]) == EXIT_OK
    assert capsys.readouterr().out.startswith("[1] python asyncio result 1")
    assert rendered == []


def test_repeated_search_is_cached_across_processes_unless_no_cache(
    simulate: Simulate, capsys: pytest.CaptureFixture[str]
) -> None:
    sim = simulate("brave")
    assert main(["python", "asyncio"]) == EXIT_OK
    assert main(["python", "asyncio", "--json"]) == EXIT_OK  # served from the SQLite cache
    assert len(sim["brave"].requests) == 1
    assert '"cached": true' in capsys.readouterr().out
    assert main(["python", "asyncio", "--no-cache"]) == EXIT_OK
    assert len(sim["brave"].requests) == 2


def test_json_prints_the_structured_response(
    simulate: Simulate, capsys: pytest.CaptureFixture[str]
) -> None:
    simulate("brave")
    assert main(["rust", "--json", "--limit", "1"]) == EXIT_OK
    data = json.loads(capsys.readouterr().out)
    response = data["response"]
    assert response["provider"] == "brave"
    assert [s["url"] for s in response["sources"]] == ["https://site1.example.org/rust"]
    assert [(a["provider"], a["outcome"]) for a in response["attempts"]] == [("brave", "success")]
    assert "error" not in data


def test_fallback_to_the_next_provider(
    simulate: Simulate, capsys: pytest.CaptureFixture[str]
) -> None:
    sim = simulate("brave", "duckduckgo")
    sim["brave"].enqueue(Fault.payment_required())
    assert main(["python asyncio", "--json"]) == EXIT_OK
    response = json.loads(capsys.readouterr().out)["response"]
    assert response["provider"] == "duckduckgo"
    assert [(a["provider"], a["outcome"], a["status"]) for a in response["attempts"]] == [
        ("brave", "failed", 402),
        ("duckduckgo", "success", None),
    ]
    assert len(sim["brave"].requests) == len(sim["duckduckgo"].requests) == 1


def test_every_provider_failing_exits_1_with_the_error_on_stderr(
    simulate: Simulate, capsys: pytest.CaptureFixture[str]
) -> None:
    sim = simulate("brave", "tavily")
    sim["brave"].always(Fault.server_error(503))
    sim["tavily"].always(Fault.unauthorized())
    assert main(["python"]) == EXIT_FAILED
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("Error: All web search providers failed:")
    assert "sim-key-" not in err


def test_failure_with_json_still_prints_the_details(
    simulate: Simulate, capsys: pytest.CaptureFixture[str]
) -> None:
    simulate("brave")["brave"].always(Fault.server_error())
    assert main(["python", "--json"]) == EXIT_FAILED
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert data["response"]["provider"] == "brave"
    assert data["error"] in err


def test_no_provider_configured(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The settings leave nothing to ask: a configuration error, exit 2 like the others
    # (it exited 1, as if providers had been asked and failed), with where to look.
    monkeypatch.setenv("WEBSEARCH_EXCLUDE", ",".join(SEARCH_PROVIDER_ORDER))
    assert main(["python"]) == EXIT_USAGE
    assert capsys.readouterr().err == (
        "Error: No web search provider configured.\n"
        "websearch: 'websearch providers' shows which can run, and why not\n"
    )


def test_a_listed_provider_without_its_key_names_the_variable(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The spec's text alone ("Configure its credentials") left the variable to be found.
    # Nothing else was listed, so nothing could be asked: a configuration error, exit 2 (it
    # exited 1, as if Brave had been asked and failed).
    monkeypatch.setenv("WEBSEARCH_PROVIDERS", "brave")
    # As below: a fresh state file opened past the default 1 s under load warned first.
    monkeypatch.setenv("WEBSEARCH_STATE_WAIT_SECONDS", "20")
    assert main(["python"]) == EXIT_USAGE
    assert capsys.readouterr().err == (
        "Error: No web search provider configured. Brave web search is unavailable. Configure "
        "its credentials or select the automatic provider chain. To configure it, set "
        "BRAVE_API_KEY, or store the key with 'websearch auth set brave'.\n"
        "websearch: 'websearch providers' shows which can run, and why not\n"
    )


def test_a_forced_provider_with_nothing_to_fall_back_to_exits_as_misconfigured(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The text said "No web search provider configured." (at its end), and it exited 1.
    allow_only(monkeypatch, "kimi")
    assert main(["python", "--provider", "kimi"]) == EXIT_USAGE
    assert capsys.readouterr().err.startswith(
        "Error: No web search provider configured. Kimi was forced but cannot run (no API key: "
    )


def test_forced_provider(simulate: Simulate, capsys: pytest.CaptureFixture[str]) -> None:
    sim = simulate("tavily", "brave")
    assert main(["python", "--provider", "Brave", "--json"]) == EXIT_OK
    assert json.loads(capsys.readouterr().out)["response"]["provider"] == "brave"
    assert len(sim["tavily"].requests) == 0


def test_forced_provider_failure_is_the_answer(
    simulate: Simulate, capsys: pytest.CaptureFixture[str]
) -> None:
    sim = simulate("tavily", "brave")
    sim["brave"].always(Fault.server_error(503, "upstream down"))
    assert main(["python", "--provider", "brave"]) == EXIT_FAILED
    assert capsys.readouterr().err.strip() == "Error: Brave API error (503): upstream down"
    assert len(sim["tavily"].requests) == 0  # forced: no fallback


def test_forced_provider_that_cannot_run_says_why_then_falls_back(
    simulate: Simulate, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    sim = simulate("brave", "duckduckgo")
    allow_only(monkeypatch, "brave", "duckduckgo", "tavily")  # tavily has no key
    assert main(["python", "--provider", "tavily"]) == EXIT_OK
    out, err = capsys.readouterr()
    assert err == (
        "websearch: --provider tavily: Tavily was forced but cannot run (no API key: set "
        "TAVILY_API_KEY, or store the key with 'websearch auth set tavily'); the auto chain "
        "answered instead\n"
    )
    assert out.startswith("[1] python result 1")
    assert len(sim["brave"].requests) == 1


@pytest.mark.parametrize("provider", ["brave", "gemini"])
def test_a_forced_provider_without_its_key_names_the_command_that_stores_it(
    simulate: Simulate,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    provider: str,
) -> None:
    # Failed before: the reason said only "set BRAVE_API_KEY", where the README's quick
    # start stores the key with `websearch auth set brave`; Gemini's named its variables and
    # its sign-in import but not the key's command. The command it names is run as written,
    # and the forced provider then runs on the key it stored.
    sim = simulate(provider, "duckduckgo", keys=False)
    assert main(["python", "--provider", provider]) == EXIT_OK
    err = capsys.readouterr().err
    named = re.search(r"store the key with '(websearch auth set [a-z]+)'", err)
    assert named is not None, err
    assert sim["duckduckgo"].requests and not sim[provider].requests
    _stdin(monkeypatch, f"sim-key-{provider}\n")
    assert main(named.group(1).split()[1:]) == EXIT_OK
    capsys.readouterr()
    assert main(["python", "--provider", provider, "--no-cache"]) == EXIT_OK
    assert capsys.readouterr().err == ""
    assert len(sim[provider].requests) == 1


def test_forced_provider_that_cannot_run_says_why_when_the_cache_answers(
    simulate: Simulate, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The cached fallback answer keeps the reason: the second run said nothing before."""
    sim = simulate("brave", "duckduckgo")
    allow_only(monkeypatch, "brave", "duckduckgo", "tavily")  # tavily has no key
    assert main(["python", "--provider", "tavily"]) == EXIT_OK
    first = capsys.readouterr()
    assert main(["python", "--provider", "tavily", "--json"]) == EXIT_OK
    out, err = capsys.readouterr()
    assert len(sim["brave"].requests) == 1  # the second answer came from the cache
    assert err == first.err
    assert err.startswith("websearch: --provider tavily: Tavily was forced but cannot run")
    attempts = json.loads(out)["response"]["attempts"]
    assert [(a["provider"], a["outcome"]) for a in attempts] == [
        ("tavily", "skipped"),
        ("brave", "cached"),
    ]


def test_forced_provider_with_a_key_it_cannot_send_says_why_then_falls_back(
    simulate: Simulate, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A key we refuse to send leaves the forced provider unable to run, as no key does."""
    sim = simulate("brave", "duckduckgo")
    monkeypatch.setenv("BRAVE_API_KEY", f"{SECRET}\r\nX-Injected: 1")
    assert main(["python", "--provider", "brave"]) == EXIT_OK
    out, err = capsys.readouterr()
    assert err == (
        "websearch: --provider brave: Brave was forced but cannot run (Brave API key in "
        "BRAVE_API_KEY contains a control character (a line break, a NUL), so it cannot be "
        "sent; remove it from BRAVE_API_KEY); the auto chain answered instead\n"
    )
    assert out.startswith("[1] python result 1")
    assert sim["brave"].requests == [] and len(sim["duckduckgo"].requests) == 1
    assert SECRET not in out + err


def test_forced_provider_that_cannot_run_says_why_before_the_fallback_failure(
    simulate: Simulate, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    sim = simulate("brave", "duckduckgo")
    sim["brave"].always(Fault.server_error(503, "upstream down"))
    sim["duckduckgo"].always(Fault.challenge())
    allow_only(monkeypatch, "brave", "duckduckgo", "searxng")  # no SearXNG endpoint
    assert main(["python", "--provider", "searxng"]) == EXIT_FAILED
    head, why, *fallback = capsys.readouterr().err.splitlines()
    # The spec's message laid out a provider a line (cli_output.failure_lines): the
    # reason first, then what the auto chain's providers said.
    assert head == "Error: All web search providers failed:"
    assert why == (
        "  searxng: SearXNG was forced but cannot run "
        "(not configured: set SEARXNG_ENDPOINT or searxng.endpoint); fell back to the auto chain"
    )
    assert [line.partition(":")[0] for line in fallback] == ["  brave", "  duckduckgo"]
    assert fallback[0].startswith("  brave: Brave API error (503)")
    assert fallback[1].startswith("  duckduckgo: DuckDuckGo blocked the request")


def test_forced_provider_that_is_excluded_says_so(
    simulate: Simulate, capsys: pytest.CaptureFixture[str]
) -> None:
    simulate("brave")  # excludes every other provider
    assert main(["python", "--provider", "tavily"]) == EXIT_OK
    assert "cannot run (it is excluded by the exclude setting or WEBSEARCH_EXCLUDE)" in (
        capsys.readouterr().err
    )


def test_prefer_tries_a_provider_first_then_falls_back(
    simulate: Simulate, capsys: pytest.CaptureFixture[str]
) -> None:
    sim = simulate("tavily", "brave")
    assert main(["python", "--prefer", "Brave", "--json"]) == EXIT_OK
    assert json.loads(capsys.readouterr().out)["response"]["provider"] == "brave"
    assert len(sim["tavily"].requests) == 0
    sim["brave"].always(Fault.server_error(503))
    assert main(["rust", "--prefer", "brave", "--json"]) == EXIT_OK
    attempts = json.loads(capsys.readouterr().out)["response"]["attempts"]
    assert [(a["provider"], a["outcome"]) for a in attempts] == [
        ("brave", "failed"),
        ("tavily", "success"),
    ]


def test_provider_and_prefer_exclude_each_other(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["python", "--provider", "brave", "--prefer", "tavily"]) == EXIT_USAGE
    assert capsys.readouterr().err == (
        "websearch: provider (--prefer): not allowed with --provider; see websearch --help\n"
    )


@pytest.mark.parametrize("option", ["--provider", "--prefer"])
def test_a_second_provider_is_refused_naming_both_and_the_list_setting(
    option: str, simulate: Simulate, capsys: pytest.CaptureFixture[str]
) -> None:
    """argparse kept the last of the two and asked it alone, saying nothing of the first."""
    sim = simulate("tavily", "brave")
    assert main(["python", option, "brave", option, "tavily"]) == EXIT_USAGE
    assert capsys.readouterr().err == (
        f"websearch: provider ({option}): given twice (brave, then tavily); it takes one "
        "provider; to ask them in turn, set WEBSEARCH_PROVIDERS=brave,tavily (the providers "
        "setting); see websearch --help\n"
    )
    assert sim["tavily"].requests == [] and sim["brave"].requests == []


def test_a_second_limit_is_refused_naming_both_not_the_last_kept(
    simulate: Simulate, capsys: pytest.CaptureFixture[str]
) -> None:
    """argparse searched for 20 results and said nothing of the 5 an alias had given."""
    sim = simulate("brave")
    assert main(["python", "--limit", "5", "--limit", "20"]) == EXIT_USAGE
    assert capsys.readouterr() == (
        "",
        "websearch: limit (--limit): given twice (5, then 20); it takes one value: keep one "
        "of the two (a shell alias may add the other); see websearch --help\n",
    )
    assert sim["brave"].requests == []


def test_the_same_provider_given_twice_is_searched(
    simulate: Simulate, capsys: pytest.CaptureFixture[str]
) -> None:
    """Guard (passes before and after): a repeat of the same id is no conflict."""
    sim = simulate("tavily", "brave")
    assert main(["python", "--provider", "brave", "--provider", " Brave", "--json"]) == EXIT_OK
    assert json.loads(capsys.readouterr().out)["response"]["provider"] == "brave"
    assert len(sim["brave"].requests) == 1 and sim["tavily"].requests == []


def test_help_says_which_option_forces_and_which_prefers(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--help"]) == EXIT_OK
    out = " ".join(capsys.readouterr().out.split())
    assert "--provider ID force this provider: only it is asked, with no fallback" in out
    assert (
        "--prefer ID try this provider first, then fall back to the auto chain (if it cannot "
        "run at all, the reason is printed)"
    ) in out
    assert "falls back to the auto chain if it cannot run" not in out


def test_language_and_country_reach_the_provider(
    simulate: Simulate, capsys: pytest.CaptureFixture[str]
) -> None:
    sim = simulate("brave")
    assert main(["wahl", "--language", "de", "--country", "at"]) == EXIT_OK
    sent = sim["brave"].requests[0].query_dict()
    assert (sent["search_lang"], sent["country"]) == ("de", "AT")


@pytest.mark.parametrize(
    ("argv", "names"),
    [
        (["python", "--country", "austria"], ("country", "--country")),
        (["python", "--language", "not a tag"], ("language", "--language")),
    ],
)
def test_invalid_language_or_country_exits_2(
    simulate: Simulate, capsys: pytest.CaptureFixture[str], argv: list[str], names: tuple[str, ...]
) -> None:
    sim = simulate("brave")
    assert main(argv) == EXIT_USAGE
    err = capsys.readouterr().err
    for name in names:
        assert name in err
    assert sim["brave"].requests == []


def test_readme_lists_the_providers_that_honour_language_and_country() -> None:
    readme = " ".join((Path(__file__).parents[2] / "README.md").read_text().split())
    for field in ("language", "country"):
        ids = [p for p in SEARCH_PROVIDER_ORDER if field in get_provider(p).info.honours]
        listed = ", ".join(ids[:-1]) + f" and {ids[-1]}"
        assert f"`--{field}`" in readme
        assert f"reaches {listed}" in readme, field


def test_a_keyless_engine_refusing_is_reported_as_blocked(
    simulate: Simulate, capsys: pytest.CaptureFixture[str]
) -> None:
    sim = simulate("brave", "duckduckgo")
    sim["brave"].always(Fault.forbidden())
    sim["duckduckgo"].always(Fault.forbidden())
    assert main(["python", "--json"]) == EXIT_FAILED
    out, err = capsys.readouterr()
    error = json.loads(out)["error"]
    # In the tool's one line, Brave's full stop gives way to the join (see
    # websearch_core.clauses); the command prints each provider's text whole, a line each.
    assert "brave: Brave authorization failed (403). Check API key or base URL; duck" in error
    assert "  brave: Brave authorization failed (403). Check API key or base URL.\n" in err
    for text in (error, err):
        assert "duckduckgo: DuckDuckGo blocked the request (403); it needs no API key" in text
        assert "DuckDuckGo authorization failed" not in text


def test_a_closed_pipe_ends_quietly(simulate: Simulate) -> None:
    simulate("brave")
    process = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; from websearch_core.cli import main; sys.exit(main())",
            "python",
            "--limit",
            "20",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # as `| head -0` does: the reader is gone before the output
    with process.stderr:
        stderr = process.stderr.read().decode()
    assert process.wait(timeout=60) == EXIT_OK
    assert stderr == ""


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (Linux)")
@pytest.mark.parametrize("command", [["python"], ["python", "--json"], ["providers"]])
def test_an_output_that_cannot_be_written_is_named_in_one_line(
    simulate: Simulate, command: list[str]
) -> None:
    # `websearch ... > out.txt` on a full disk ended in an OSError traceback from print.
    simulate("brave")
    with open("/dev/full", "w") as full:
        process = subprocess.run(
            [*WEBSEARCH, *command],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
        )
    assert process.returncode == EXIT_FAILED
    assert process.stderr == "websearch: cannot write the output: No space left on device\n"


def test_ctrl_c_during_a_search_ends_in_one_line_and_status_130(simulate: Simulate) -> None:
    sim = simulate("brave")
    sim["brave"].always(Fault.hang(60))
    process = subprocess.Popen(
        [*WEBSEARCH, "python"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 30
        while not sim["brave"].requests and time.monotonic() < deadline:
            time.sleep(0.02)  # until the search is waiting on the provider
        assert sim["brave"].requests, "the search never reached the provider"
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=30)
    finally:
        process.kill()
    assert process.returncode == EXIT_INTERRUPTED, err
    assert (out, err) == ("", "websearch: interrupted\n")


def test_ctrl_c_while_the_command_is_imported_is_reported_the_same_way(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    class InterruptedImport(importlib.abc.MetaPathFinder):
        def find_spec(self, name: str, *_: object) -> None:
            if name == "websearch_core.cli":
                raise KeyboardInterrupt  # as a Ctrl-C arrives in the command's first 0.3 s
            return None

    monkeypatch.delitem(sys.modules, "websearch_core.cli")
    monkeypatch.setattr(sys, "meta_path", [InterruptedImport(), *sys.meta_path])
    assert entry_point() == EXIT_INTERRUPTED
    assert capsys.readouterr().err == "websearch: interrupted\n"


def test_ctrl_c_while_the_arguments_are_read_is_reported_the_same_way(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def interrupted(_warn: object) -> None:
        raise KeyboardInterrupt  # as a Ctrl-C arrives while the variables' names are imported

    monkeypatch.setattr("websearch_core.cli.report_unknown_variables", interrupted)
    assert main(["python"]) == EXIT_INTERRUPTED
    assert capsys.readouterr().err == "websearch: interrupted\n"


@pytest.mark.parametrize("as_json", [False, True])
def test_results_print_on_a_terminal_that_cannot_encode_them(
    simulate: Simulate, as_json: bool
) -> None:
    sim = simulate("brave")
    sim["brave"].results = [SimResult("Café ünïcødé ✓", "https://example.org/cafe", "Crème brûlée")]
    done = subprocess.run(
        [*WEBSEARCH, "cafe", *(["--json"] if as_json else [])],
        capture_output=True,
        env={**os.environ, "PYTHONIOENCODING": "ascii"},
        timeout=60,
    )
    assert (done.returncode, done.stderr) == (EXIT_OK, b"")
    out = done.stdout.decode("ascii")  # nothing the terminal could not take
    if as_json:
        assert json.loads(out)["response"]["sources"][0]["title"] == "Café ünïcødé ✓"
    else:
        assert "Caf\\xe9 \\xfcn\\xefc\\xf8d\\xe9 \\u2713" in out


def test_a_search_without_its_state_store_says_so(
    simulate: Simulate,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    simulate("brave")
    blocked = tmp_path / "a-file-not-a-directory"
    blocked.write_text("")
    monkeypatch.setenv("WEBSEARCH_STATE_DIR", str(blocked))
    monkeypatch.setenv("WEBSEARCH_STATE_BACKEND", "sqlite")
    assert main(["python", "--no-cache"]) == EXIT_OK
    captured = capsys.readouterr()
    assert "[1] " in captured.out  # the answer still comes
    # Budgets and cooldowns are off: the one line that says so is not hidden without -v.
    (line,) = captured.err.splitlines()
    assert line.startswith(
        "websearch: warning: web search state store unavailable; searching without it: "
    )


def test_a_dashed_query_word_gets_the_quoting_hint(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rust", "-site:pinterest.com"]) == EXIT_USAGE
    assert capsys.readouterr().err == (
        "websearch: -site:pinterest.com: not an option of websearch; to exclude a term or "
        "site, quote the whole query (websearch '... -site:pinterest.com') or put -- before it\n"
    )


@pytest.mark.parametrize("module", ["websearch_core", "websearch_core.cli"])
def test_version_is_printed_by_every_way_of_starting_the_command(module: str) -> None:
    installed = importlib.metadata.version("websearch-tools")
    assert installed == websearch_core.__version__  # one version: pyproject reads it from there
    done = subprocess.run(
        [sys.executable, "-m", module, "--version"], capture_output=True, text=True, timeout=60
    )
    assert (done.returncode, done.stdout, done.stderr) == (EXIT_OK, f"websearch {installed}\n", "")


def test_timeout_is_honoured(simulate: Simulate, capsys: pytest.CaptureFixture[str]) -> None:
    simulate("brave")["brave"].always(Fault.hang(5))
    started = time.monotonic()
    assert main(["python", "--timeout", "0.3"]) == EXIT_FAILED
    assert time.monotonic() - started < 4
    assert "Error:" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "names"),
    [
        (["python", "--limit", "0"], ("limit", "--limit")),
        (["python", "--limit", "101"], ("limit", "--limit")),
        (["python", "--limit", "five"], ("--limit",)),
        (["python", "--timeout", "0"], ("timeout_seconds", "--timeout")),
        (["python", "--timeout", "9999"], ("timeout_seconds", "--timeout")),
        (["python", "--recency", "decade"], ("--recency",)),
        (["   "], ("query",)),
    ],
)
def test_invalid_input_exits_2_naming_the_field(
    simulate: Simulate, capsys: pytest.CaptureFixture[str], argv: list[str], names: tuple[str, ...]
) -> None:
    sim = simulate("brave")
    assert main(argv) == EXIT_USAGE
    err = capsys.readouterr().err
    for name in names:
        assert name in err
    assert sim["brave"].requests == []


def test_unknown_provider_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["python", "--provider", "altavista"]) == EXIT_USAGE
    assert "Unknown search provider: altavista" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("option", "given", "named"),
    [
        ("--provider", "bravo", "provider (--provider)"),
        ("--provider", "Bravo", "provider (--provider)"),
        ("--provider", "BRAVE_API_KEY", "provider (--provider)"),
        ("--prefer", "BRAVE_API_KEY", "provider (--prefer)"),
        ("--prefer", "bravo", "provider (--prefer)"),
    ],
)
def test_an_unknown_provider_option_is_named_echoed_as_typed_and_the_id_meant_suggested(
    simulate: Simulate, capsys: pytest.CaptureFixture[str], option: str, given: str, named: str
) -> None:
    # "--provider bravo" did not name its option (--prefer did); "BRAVE_API_KEY" came back
    # as "brave_api_key", with no suggestion for a key's variable name. Then --provider said
    # "--provider:" where --prefer said "provider (--prefer):": one form, as every option's.
    sim = simulate("brave")
    assert main(["python", option, given]) == EXIT_USAGE
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"websearch: {named}: Unknown search provider: {given} (known: ")
    assert err.endswith(", public); did you mean brave?\n")
    assert sim["brave"].requests == []


def test_the_help_lists_every_exit_status(capsys: pytest.CaptureFixture[str]) -> None:
    # 130 (Ctrl-C) was missing from the list, though the command exits with it.
    assert main(["--help"]) == EXIT_OK
    epilog = capsys.readouterr().out.split("exit status:", 1)[1]
    for status in (EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED):
        assert re.search(rf"\b{status} \w", epilog), status


def test_the_auth_commands_help_says_what_they_do(capsys: pytest.CaptureFixture[str]) -> None:
    # "auth list --help" and "auth remove --help" had no description, and "auth --help"
    # said "list providers with a stored key" of a list that holds OAuth sign-ins too.
    for action in ("list", "remove"):
        assert main(["auth", action, "--help"]) == EXIT_OK
        text = capsys.readouterr().out
        assert text.split("\n\n")[1].startswith(("List the ids", "Forget the API key"))
    assert main(["auth", "--help"]) == EXIT_OK
    assert "list the ids with a stored API key or OAuth sign-in" in capsys.readouterr().out


def test_the_auth_help_names_the_store_file_and_where_the_ids_are_listed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Failed before: "auth --help" said only "the local credential store (a JSON file
    # readable by you only)", and a provider's help "provider id, e.g. brave": a first user
    # could find neither the file nor the ids. What the help says is what the commands do.
    assert main(["auth", "--help"]) == EXIT_OK
    text = " ".join(capsys.readouterr().out.split())
    assert "credentials.json beside the config file that 'websearch providers' names" in text
    assert "or the file WEBSEARCH_CREDENTIALS_FILE names" in text
    assert main(["providers"]) == EXIT_OK
    config = capsys.readouterr().out.split("Config file: ", 1)[1].split(" (", 1)[0]
    _stdin(monkeypatch, SECRET)
    assert main(["auth", "set", "brave"]) == EXIT_OK
    stored = Path(config).parent / "credentials.json"
    assert capsys.readouterr().out == f"Stored an API key for brave in {stored}\n"
    assert main(["auth", "set", "--help"]) == EXIT_OK
    assert "brave ('websearch auth set' alone lists them)" in " ".join(
        capsys.readouterr().out.split()
    )
    assert main(["auth", "set"]) == EXIT_USAGE
    assert " stored under: perplexity, gemini, " in capsys.readouterr().err
    assert main(["auth", "remove", "--help"]) == EXIT_OK
    assert "brave ('websearch auth list' lists those stored)" in " ".join(
        capsys.readouterr().out.split()
    )
    assert main(["auth", "list"]) == EXIT_OK
    assert capsys.readouterr().out == "brave\n"


def test_auth_import_without_a_source_says_what_it_imports_and_how(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # "required: source" named nothing the user could type; "{gemini-cli}: required, not
    # given" named the usage line's braces, not what is imported from where, nor the call.
    assert main(["auth", "import"]) == EXIT_USAGE
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert err.startswith("websearch: auth import needs a source")
    assert "{" not in err
    assert "OAuth sign-in" in err
    assert "gemini-cli (the Gemini CLI's ~/.gemini/oauth_creds.json)" in err
    assert "write websearch auth import gemini-cli, or websearch auth import gemini-cli PATH" in err
    assert err.endswith("; see websearch auth import --help\n")


def test_auth_set_alone_lists_the_providers_it_takes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # "provider: required, not given" named no provider, where `auth` and `auth import`
    # alone say what they take: it now lists the ids a key is stored under, and the call.
    assert main(["auth", "set"]) == EXIT_USAGE
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert err.startswith(
        "websearch: auth set needs a provider, the id its API key is stored under: "
    )
    listed = err.split(" stored under: ", 1)[1].split(";", 1)[0].split(", ")
    assert {"brave", "gemini", "tavily"} <= set(listed), listed
    assert "; openrouter names no provider: the key Perplexity falls back to; write" in err
    # Keyless engines and sign-in-only providers take no key: `auth set` refuses them.
    assert not {"duckduckgo", "public", "searxng", "codex"} & set(listed), listed
    assert "write websearch auth set brave and paste the key when asked" in err
    assert err.endswith("; see websearch auth set --help\n")


def test_a_missing_argument_elsewhere_is_named_as_before(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A guard (passes before and after): fetch keeps argparse's name for it."""
    assert main(["fetch"]) == EXIT_USAGE
    assert capsys.readouterr().err == (
        "websearch: URL: required, not given; see websearch fetch --help\n"
    )


def test_auth_remove_alone_lists_what_the_store_holds(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # "provider: required, not given" named no id, where `auth set` alone lists the ids
    # it takes: what remove takes is what is stored, keys and sign-ins apart.
    store = CredentialStore(tmp_path / "credentials.json")  # the file the fixture names
    store.set("brave", "BSAq1w2e3r4t5y6u7i8o9p0aSdFgHjKlZx")
    store.set("tavily", "tvly-dev-Q1w2E3r4T5y6U7i8O9p0")
    store.set_oauth("gemini-cli", OAuthToken(access_token="ya29.token", expires_at=2e9))
    assert main(["auth", "remove"]) == EXIT_USAGE
    out, err = capsys.readouterr()
    assert out == "" and err == (
        "websearch: auth remove needs a provider, the id an API key or sign-in is stored "
        "under: the credential store holds API keys for brave, tavily; OAuth sign-ins for "
        "gemini-cli (with --oauth); write websearch auth remove brave, or websearch auth "
        "remove gemini-cli --oauth; see websearch auth remove --help\n"
    )
    assert "BSAq1w2e3r4t5y6u7i8o9p0" not in err and "ya29" not in err
    assert store.providers() == ["brave", "gemini-cli", "tavily"]  # nothing was removed


def test_auth_remove_alone_with_nothing_stored_says_there_is_nothing_to_remove(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["auth", "remove"]) == EXIT_USAGE
    assert capsys.readouterr().err == (
        "websearch: auth remove needs a provider, the id an API key or sign-in is stored "
        f"under, and the credential store {tmp_path / 'credentials.json'} holds none: "
        "nothing to remove; see websearch auth remove --help\n"
    )


def test_auth_remove_alone_with_an_unreadable_store_points_at_auth_list(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # The store's problem is auth list's to name (with its repair); here the usage stays.
    (tmp_path / "credentials.json").write_text("{", encoding="utf-8")
    assert main(["auth", "remove"]) == EXIT_USAGE
    assert capsys.readouterr().err == (
        "websearch: auth remove needs a provider, the id an API key or sign-in is stored "
        "under; websearch auth list lists them; see websearch auth remove --help\n"
    )


@pytest.mark.parametrize("query", ["   ", ""])
def test_a_blank_query_is_named_as_a_missing_one_is(
    capsys: pytest.CaptureFixture[str], query: str
) -> None:
    # `websearch "  "` said "query (QUERY): ...", an option nobody can type, where
    # `websearch` alone says "query: required, not given". And `websearch ""` said
    # pydantic's "String should have at least 1 character": both now say the same.
    assert main([query]) == EXIT_USAGE
    assert capsys.readouterr().err == ("websearch: query: must not be empty or only whitespace\n")


def test_missing_query_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == EXIT_USAGE
    assert "query" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [[], ["--json"], ["-v", "--limit", "3"]])
def test_no_query_says_how_to_write_one_and_where_to_see_the_providers(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    # `websearch` alone, a new user's first command, said "query: required, not given",
    # neither how a query is written nor where to see what is set up.
    assert main(argv) == EXIT_USAGE
    assert capsys.readouterr().err == (
        "websearch: query: required, not given: write the words to search for, as in "
        "websearch python asyncio timeout (websearch providers lists the providers that can "
        "answer); see websearch --help\n"
    )


def test_help_exits_0_and_mentions_the_subcommands(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == EXIT_OK
    out = capsys.readouterr().out
    for usage in (
        "websearch auth set|list|remove|import [PROVIDER]",
        "websearch providers [reset ID | reset --all]",
        "websearch fetch URL [--markdown | --json]",
    ):
        assert usage in out
    assert 'To search for the word "auth", "fetch" or "providers"' in out
    assert "Options written before a command are that command's" in out


def test_double_dash_searches_for_a_command_name(
    simulate: Simulate, capsys: pytest.CaptureFixture[str]
) -> None:
    sim = simulate("brave")
    assert main(["--", "auth"]) == EXIT_OK
    assert sim["brave"].requests[0].query_dict()["q"] == "auth"


def test_options_before_a_command_name_never_search_for_it(
    simulate: Simulate, capsys: pytest.CaptureFixture[str]
) -> None:
    """``websearch --json providers`` searched the web for the word "providers"."""
    sim = simulate("brave")
    cases = {
        ("--no-cache", "providers"): "--no-cache does not apply to providers",
        ("--prefer", "brave", "providers", "reset", "--all"): "--prefer does not apply",
        ("--no-cache", "auth", "list"): "--no-cache does not apply to auth",
        ("--json", "--no-cache", "auth", "list"): "--no-cache does not apply to auth list",
    }
    for argv, refusal in cases.items():
        assert main(list(argv)) == EXIT_USAGE, argv
        out, err = capsys.readouterr()
        assert err.count("\n") == 1
        assert err.startswith(f"websearch: {refusal}")
        # Asked for --json, the refusal is JSON on stdout too (cli_refusals).
        if "--json" in argv:
            said = {"error": err.strip().removeprefix("websearch: "), "failed": True}
            about = {"provider": None} if "auth" in argv else {}  # auth's refusal shape
            assert json.loads(out) == {**about, **said}
        else:
            assert out == ""
    assert sim["brave"].requests == []  # nothing was searched for
    # The refusal's advice searches for the word, options kept.
    assert main(["--prefer", "brave", "--", "providers"]) == EXIT_OK
    assert sim["brave"].requests[0].query_dict()["q"] == "providers"


def test_version_before_a_command_prints_the_version(
    simulate: Simulate, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--version providers`` printed the version until options written before a command went
    to it (270dd06); then it was refused as an option ``providers`` does not take."""
    sim = simulate("brave")
    for argv in (["--version", "providers"], ["--vers", "fetch", "https://example.com"]):
        assert main(argv) == EXIT_OK, argv
        out, err = capsys.readouterr()
        assert (out, err) == (f"websearch {websearch_core.__version__}\n", "")
    assert sim["brave"].requests == []


def test_verbose_before_providers_lists_them(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["-v", "providers"]) == EXIT_OK
    assert capsys.readouterr().out.startswith("ID ")
    assert main(["--verbose", "providers", "reset", "--all"]) == EXIT_OK
    assert "cleared" in capsys.readouterr().out


def test_help_before_a_command_is_that_command_s(capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("auth", "providers", "fetch"):
        assert main(["--help", command]) == EXIT_OK
        assert capsys.readouterr().out.startswith(f"usage: websearch {command}")


def test_verbose_logs_each_attempt(simulate: Simulate, capsys: pytest.CaptureFixture[str]) -> None:
    sim = simulate("brave", "tavily")
    sim["tavily"].enqueue(Fault.payment_required())
    assert main(["python", "-v"]) == EXIT_OK
    err = capsys.readouterr().err
    assert "tavily failed" in err
    assert "served by brave" in err


def test_quiet_by_default(simulate: Simulate, capsys: pytest.CaptureFixture[str]) -> None:
    sim = simulate("brave", "tavily")
    sim["tavily"].enqueue(Fault.payment_required())
    assert main(["python"]) == EXIT_OK
    assert capsys.readouterr().err == ""


# --- auth ---------------------------------------------------------------------------------


def _credentials_file() -> Path:
    return Settings().resolved_credentials_file()


def test_auth_set_list_remove(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _stdin(monkeypatch, f"{SECRET}\n")
    assert main(["auth", "set", "brave"]) == EXIT_OK
    out, err = capsys.readouterr()
    assert SECRET not in out + err
    path = _credentials_file()
    assert str(path) in out
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert json.loads(path.read_text()) == {"brave": {"api_key": SECRET}}

    assert main(["auth", "list"]) == EXIT_OK
    out, err = capsys.readouterr()
    assert out == "brave\n"
    assert SECRET not in out + err

    assert main(["auth", "remove", "brave"]) == EXIT_OK
    assert "brave" in capsys.readouterr().out
    assert json.loads(path.read_text()) == {}

    assert main(["auth", "remove", "brave"]) == EXIT_FAILED
    assert "no stored API key for brave" in capsys.readouterr().err
    assert main(["auth", "list"]) == EXIT_OK
    out, err = capsys.readouterr()
    assert out == ""
    assert "No stored API keys" in err


def test_auth_remove_forgets_the_api_key_and_keeps_an_oauth_token(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # It forgot the whole entry, the OAuth token a login flow outside this package stored
    # included (no command here can store it again), while saying it removed the API key.
    store = CredentialStore(_credentials_file())
    token = OAuthToken(access_token="ya29.kept-token", refresh_token="1//kept", expires_at=2e9)
    store.set_oauth("gemini", token)
    store.set("gemini", SECRET)
    assert main(["auth", "remove", "gemini"]) == EXIT_OK
    out, err = capsys.readouterr()
    assert (out, err) == (
        "Removed the stored API key for gemini (its stored OAuth token is kept)\n",
        "",
    )
    assert CredentialStore(_credentials_file()).get("gemini") is None
    assert CredentialStore(_credentials_file()).get_oauth("gemini") == token
    assert main(["auth", "remove", "gemini"]) == EXIT_FAILED
    out, err = capsys.readouterr()
    assert (out, err) == (
        "",
        "websearch: no stored API key for gemini (its stored OAuth token is kept)\n",
    )
    assert CredentialStore(_credentials_file()).get_oauth("gemini") == token
    assert "ya29" not in out + err


def test_auth_remove_oauth_forgets_the_token_and_keeps_the_key(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # A token that cannot be sent is named with this command as its way out; without
    # --oauth there was none (auth remove keeps tokens), short of editing the file.
    store = CredentialStore(_credentials_file())
    token = OAuthToken(access_token="ya29.bad\r\ntoken", expires_at=2e9)
    store.set_oauth("gemini-cli", token)
    store.set("gemini-cli", SECRET)
    assert main(["auth", "remove", "gemini-cli", "--oauth"]) == EXIT_OK
    out, err = capsys.readouterr()
    assert (out, err) == ("Removed the stored OAuth token for gemini-cli\n", "")
    assert CredentialStore(_credentials_file()).get_oauth("gemini-cli") is None
    assert CredentialStore(_credentials_file()).get("gemini-cli") == SECRET
    assert main(["auth", "remove", "gemini-cli", "--oauth"]) == EXIT_FAILED
    out, err = capsys.readouterr()
    assert (out, err) == ("", "websearch: no stored OAuth token for gemini-cli\n")
    assert "ya29" not in out + err and SECRET not in out + err


@pytest.mark.parametrize(
    ("given", "meant"),
    [("BRAVE_API_KEY", "brave"), ("google_api_key", "gemini"), ("openroutr", "openrouter")],
)
def test_auth_set_names_the_id_a_variable_name_or_a_typo_meant(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], given: str, meant: str
) -> None:
    # "auth set BRAVE_API_KEY" listed every provider id and left the user to find theirs;
    # the list left out openrouter, which auth set takes (Perplexity falls back to it).
    _stdin(monkeypatch, SECRET)
    assert main(["auth", "set", given]) == EXIT_USAGE
    out, err = capsys.readouterr()
    assert err.startswith(f"websearch: Unknown search provider: {given} (known: ")  # as typed
    assert err.endswith(
        ", synthetic; openrouter names no provider: the key Perplexity falls back to); "
        f"did you mean {meant}?\n"
    )
    assert SECRET not in out + err
    assert not _credentials_file().exists()


def test_auth_set_with_an_unknown_id_lists_only_the_ids_a_key_is_stored_under(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # It listed every id, duckduckgo and codex included, which auth set then refuses as
    # taking no key; the list is now the one `auth set` alone gives.
    _stdin(monkeypatch, SECRET)
    assert main(["auth", "set", "altavista"]) == EXIT_USAGE
    err = capsys.readouterr().err
    listed = err.split("(known: ", 1)[1].split(";", 1)[0].split(", ")
    assert {"brave", "gemini", "tavily"} <= set(listed), listed
    assert "; openrouter names no provider: the key Perplexity falls back to)" in err
    assert not {"duckduckgo", "public", "searxng", "codex"} & set(listed), listed
    assert main(["auth", "set"]) == EXIT_USAGE
    alone = capsys.readouterr().err.split(" stored under: ", 1)[1]
    assert alone.split(";", 1)[0].split(", ") == listed
    assert alone.startswith(f"{', '.join(listed)}; openrouter names no provider: the key ")


def test_auth_remove_names_the_stored_id_a_variable_name_or_a_typo_meant(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # It said only "no stored API key for brav", though the key meant was stored.
    store = CredentialStore(_credentials_file())
    store.set("brave", SECRET)
    store.set_oauth("gemini-cli", OAuthToken(access_token="ya29.token", expires_at=2e9))
    # An id nothing can be stored under is invalid input, exit 2 as for auth set (it
    # exited 1, as if there were merely nothing to remove); the id is echoed as typed.
    keys = "(known: perplexity, gemini, "
    entries = "(known: perplexity, gemini-cli, gemini, anthropic, codex)"
    expected = [
        (["brav"], EXIT_USAGE, "Unknown search provider: brav ", keys, "; did you mean brave?"),
        (["BRAVE_API_KEY"], EXIT_USAGE, "Unknown search provider: BRAVE_API_KEY ", keys, "brave?"),
        (["tavily"], EXIT_FAILED, "no stored API key for tavily", "", ""),
        (["gemini"], EXIT_FAILED, "no stored API key for gemini", "", ""),
        (
            ["Gemini_CLI", "--oauth"],
            EXIT_USAGE,
            "no OAuth entry Gemini_CLI ",
            entries,
            "; did you mean gemini-cli?",
        ),
        (["bravo", "--oauth"], EXIT_USAGE, "no OAuth entry bravo ", entries, ""),
        (["gemini", "--oauth"], EXIT_FAILED, "no stored OAuth token for gemini", "", ""),
    ]
    for argv, status, start, known, end in expected:
        assert main(["auth", "remove", *argv]) == status, argv
        out, err = capsys.readouterr()
        assert out == ""
        assert err.startswith(f"websearch: {start}{known}"), err
        assert err.endswith(f"{end}\n"), err
    # One a program stored under another id is removed as any other.
    store.set("custom", SECRET)
    assert main(["auth", "remove", "custom"]) == EXIT_OK
    assert store.get("brave") == SECRET
    assert store.get("custom") is None


def test_auth_set_says_when_a_variable_or_the_config_outranks_the_stored_key(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A key stored to replace a bad one changed nothing while BRAVE_API_KEY held the bad
    # one, and nothing said so: every search went on failing as before.
    monkeypatch.setenv("BRAVE_API_KEY", "sk-old-env-key")
    _stdin(monkeypatch, SECRET)
    assert main(["auth", "set", "brave"]) == EXIT_OK
    out, err = capsys.readouterr()
    assert out.startswith("Stored an API key for brave in ")
    assert SECRET not in out + err
    assert err == (
        "websearch: warning: BRAVE_API_KEY holds a key for brave too, and it is used before "
        "the stored one\n"
    )
    config = Path(os.environ["WEBSEARCH_CONFIG_FILE"])
    config.write_text('[api_keys]\ntavily = "tvly-old-config-key"\n')
    assert main(["auth", "set", "tavily"]) == EXIT_OK
    out, err = capsys.readouterr()
    assert err == (
        f"websearch: warning: the api_keys setting ([api_keys] in {config}, or "
        "WEBSEARCH_API_KEYS) holds a key for tavily too, and it is used before the stored one\n"
    )
    seen = out + err
    assert main(["auth", "set", "exa"]) == EXIT_OK  # nothing outranks it: no warning
    out, err = capsys.readouterr()
    assert err == ""
    for secret in ("sk-old-env-key", "tvly-old-config-key", SECRET):
        assert secret not in seen + out


def test_auth_set_takes_the_key_perplexity_reads_for_openrouter(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _stdin(monkeypatch, f"{SECRET}\n")
    assert main(["auth", "set", "openrouter"]) == EXIT_OK
    assert SECRET not in "".join(capsys.readouterr())
    store = CredentialStore(_credentials_file())
    assert Credentials(store=store).api_key("openrouter", ("OPENROUTER_API_KEY",)) == SECRET


def test_auth_set_drops_the_byte_order_mark_of_a_piped_key_file(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # websearch auth set brave < key.txt, the file saved as "UTF-8 with BOM" (Notepad,
    # PowerShell): the mark was stored as the key's invisible first character, so every
    # search with the key failed as an authorization error.
    done = subprocess.run(
        [*WEBSEARCH, "auth", "set", "brave"],
        input=b"\xef\xbb\xbf" + SECRET.encode() + b"\r\n",
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == EXIT_OK, done.stderr
    assert SECRET.encode() not in done.stdout + done.stderr
    assert json.loads(_credentials_file().read_text()) == {"brave": {"api_key": SECRET}}


def test_auth_set_prompts_without_echo_on_a_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    prompts: list[str] = []

    def fake_getpass(prompt: str = "") -> str:
        prompts.append(prompt)
        return SECRET

    _stdin(monkeypatch, "must not be read", tty=True)
    monkeypatch.setattr("getpass.getpass", fake_getpass)
    assert main(["auth", "set", "tavily"]) == EXIT_OK
    assert prompts == ["API key for tavily (input hidden): "]
    out, err = capsys.readouterr()
    assert SECRET not in out + err
    assert json.loads(_credentials_file().read_text()) == {"tavily": {"api_key": SECRET}}


@pytest.mark.parametrize(
    ("argv", "stdin", "message"),
    [
        (["auth", "set", "altavista"], SECRET, "Unknown search provider: altavista"),
        (
            ["auth", "set", "duckduckgo"],
            SECRET,
            "websearch: duckduckgo takes no API key (it needs no key); nothing stored\n",
        ),
        (
            ["auth", "set", "searxng"],
            SECRET,
            "searxng takes no API key (configure it instead: set SEARXNG_ENDPOINT or "
            "searxng.endpoint); nothing stored",
        ),
        (["auth", "set", "codex"], SECRET, "codex takes no API key (configure it instead: store"),
        (["auth", "set", "brave"], "\n", "no API key given"),
        (
            ["auth", "set", "brave"],
            "two words",
            "websearch: refusing to store an API key for brave that contains a space: an API "
            "key is one line without spaces; copy the key again in one piece; nothing stored\n",
        ),
        (
            ["auth", "set", "brave"],
            f"BRAVE_API_KEY={SECRET}\n# a .env file's comment\n",
            "websearch: refusing to store an API key for brave that spans 2 lines: an API key "
            "is one line without spaces; pipe a file holding the key alone (websearch auth set "
            "brave < key.txt); nothing stored\n",
        ),
        (
            ["auth", "set", "brave"],
            f"{SECRET}\x01x\n",
            "websearch: refusing to store an API key for brave that contains a control "
            "character (a line break, a NUL), so it cannot be sent; nothing stored\n",
        ),
        # A .env line or a copied `export` line: said "NAME=" with no way out, or "a space".
        *(
            (
                ["auth", "set", "brave"],
                line,
                "websearch: refusing to store an API key for brave given as a variable's line "
                "(NAME=... or export NAME=...): give the key alone, without its name "
                "(websearch auth set brave < key.txt, or paste it at the prompt); nothing "
                "stored\n",
            )
            for line in (f'BRAVE_API_KEY="{SECRET}"\n', f"export BRAVE_API_KEY={SECRET}\n")
        ),
        (
            ["auth", "set", "brave"],
            f"'{SECRET}'",
            "websearch: refusing to store an API key for brave that contains a quote mark (') "
            "that would be sent as part of it; nothing stored\n",
        ),
        (
            ["auth", "set", "brave"],
            f"{SECRET}\u200b",
            "websearch: refusing to store an API key for brave that contains an invisible "
            "character (U+200B ZERO WIDTH SPACE) that would be sent as part of it; nothing "
            "stored\n",
        ),
        (["auth"], "", "ACTION"),
        (["auth", "set"], "", "provider"),
    ],
)
def test_auth_set_rejects_bad_input(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    stdin: str,
    message: str,
) -> None:
    _stdin(monkeypatch, stdin)
    assert main(argv) == EXIT_USAGE
    out, err = capsys.readouterr()
    assert message in err
    assert SECRET not in out + err
    assert not _credentials_file().exists()


@pytest.mark.parametrize("key", ["QUJDREVGR0hJSktM==", "sk-a=b"])
def test_a_key_with_equals_signs_is_no_variables_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], key: str
) -> None:
    """A guard (passes before and after): base64 padding is not read as ``NAME=``."""
    _stdin(monkeypatch, f"{key}\n")
    assert main(["auth", "set", "brave"]) == EXIT_OK
    assert CredentialStore(_credentials_file()).get("brave") == key
    assert key not in capsys.readouterr().out


@pytest.mark.parametrize("provider", ["brave", "openrouter"])
def test_an_empty_piped_key_says_standard_input_was_empty_and_how_to_give_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], provider: str
) -> None:
    # The quick start's `echo "$KEY" | websearch auth set brave`, copied with KEY unset,
    # was refused with "no API key given for brave" alone, which did not say why.
    _stdin(monkeypatch, "\n")
    assert main(["auth", "set", provider]) == EXIT_USAGE
    _, err = capsys.readouterr()
    assert err == (
        f"websearch: no API key given for {provider}: standard input was empty (an unset "
        f"variable piped in?); pipe the key itself (websearch auth set {provider} < key.txt), "
        "or run the command at a terminal to type it; nothing stored\n"
    )
    assert not _credentials_file().exists()


def test_an_empty_key_typed_at_the_prompt_is_refused_without_the_pipe_advice(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Guard (passes before and after the change): at a terminal the prompt was answered
    # with nothing, so there is no pipe to explain.
    _stdin(monkeypatch, "must not be read", tty=True)
    monkeypatch.setattr("getpass.getpass", lambda prompt="": "")
    assert main(["auth", "set", "brave"]) == EXIT_USAGE
    _, err = capsys.readouterr()
    assert err == "websearch: no API key given for brave; nothing stored\n"


@pytest.mark.parametrize(
    "argv", [["auth", "list"], ["auth", "set", "tavily"], ["auth", "remove", "brave"]]
)
def test_a_credential_store_that_is_not_utf8_is_named_not_a_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    # Saved by an editor in Latin-1: every auth command used to end in a UnicodeDecodeError
    # traceback (exit 1) that named neither the file nor what was wrong with it.
    path = _credentials_file()
    path.write_bytes(b'{"brave": {"api_key": "caf\xe9-' + SECRET.encode() + b'"}}')
    _stdin(monkeypatch, SECRET)
    assert main(argv) == EXIT_USAGE
    out, err = capsys.readouterr()
    assert out == ""
    assert (
        err == f"websearch: credential store {path} is not UTF-8 text (byte 26 cannot be decoded)\n"
    )


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_a_credential_store_saved_as_utf16_says_to_save_it_as_utf8(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], encoding: str
) -> None:
    # Notepad's "Unicode" or PowerShell's ``>``: with a byte order mark it read as "not
    # UTF-8 text (byte 0 cannot be decoded)", without one as "not valid JSON"; the config
    # file saved so is told what to do, and now the store is told the same.
    path = _credentials_file()
    path.write_text(f'{{"brave": {{"api_key": "{SECRET}"}}}}', encoding=encoding)
    path.chmod(0o600)
    assert main(["auth", "list"]) == EXIT_USAGE
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"websearch: credential store {path} is saved as UTF-16; save it as UTF-8\n"


def test_a_credential_store_saved_as_utf8_with_a_bom_is_read(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Notepad's "UTF-8 with BOM": the mark read as "not valid JSON", as the config file's
    # did as "not valid TOML" before both were read past it.
    path = _credentials_file()
    path.write_text(f'{{"brave": {{"api_key": "{SECRET}"}}}}', encoding="utf-8-sig")
    path.chmod(0o600)
    assert main(["auth", "list"]) == EXIT_OK
    assert capsys.readouterr() == ("brave\n", "")


@pytest.mark.parametrize("content", ["", "\n", "  \r\n"])
def test_an_empty_credential_store_holds_no_keys(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], content: str
) -> None:
    # A store touched ready, or emptied to forget every key, was "not valid JSON": every
    # command failed with exit 2, and auth set could not store a key in it.
    path = _credentials_file()
    path.write_text(content)
    path.chmod(0o600)  # touched 0644, it is also warned about (tests/unit/test_store_mode.py)
    assert main(["auth", "list"]) == EXIT_OK
    assert capsys.readouterr() == ("", f"No stored API keys or sign-ins in {path}\n")
    _stdin(monkeypatch, SECRET)
    assert main(["auth", "set", "brave"]) == EXIT_OK
    assert json.loads(path.read_text()) == {"brave": {"api_key": SECRET}}


def _broken_credentials_file(broken: str, provider: str) -> str:
    """Break the credential store as ``broken`` says; the problem the CLI names for it.

    ``"a directory"`` stands where the file is; otherwise the file is cut short inside
    ``provider``'s entry (holding ``SECRET``), so it is not JSON.
    """
    path = _credentials_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    if broken == "a directory":
        path.mkdir()
        return f"cannot read credential store {path}: Is a directory"
    path.write_text(f'{{"{provider}": {{"api_key": "{SECRET}"', encoding="utf-8")
    return f"credential store {path} is not valid JSON"


UNREADABLE_ROW = "not available: its key or sign-in would come from the unreadable credential store"


@pytest.mark.parametrize("broken", ["not JSON", "a directory"])
def test_providers_lists_every_row_past_an_unreadable_credential_store(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], broken: str
) -> None:
    # Failed before: the command stopped at the store's one-line error with exit status 2,
    # and no row was shown, not even the keyless engines' or Gemini's with its key set.
    problem = _broken_credentials_file(broken, "gemini")
    path = _credentials_file()
    monkeypatch.setenv("GEMINI_API_KEY", "AIza-cli-env-key-0123456789")
    advice = (
        f"{problem}; providers whose key or sign-in would come from it were passed over; "
        "Gemini used its key, not a sign-in the file may hold; fix the file, or remove it "
        "and store the keys again with 'websearch auth set <provider>' (sign-ins with "
        "'websearch auth import gemini-cli', or from Python with CredentialStore.set_oauth)"
    )
    assert main(["providers"]) == EXIT_OK
    out, err = capsys.readouterr()
    _, rows = _table(out)
    assert list(rows) == list(SEARCH_PROVIDER_ORDER)
    for needing in ("tavily", "brave", "codex", "anthropic", "perplexity"):
        assert rows[needing].endswith(f"  {UNREADABLE_ROW}")
    assert rows["gemini"].endswith("  ready")
    assert rows["duckduckgo"].endswith("  ready")
    assert str(path) not in out  # the file and the fix are said once, below the table
    assert err == f"websearch: warning: {advice}\n"
    assert SECRET not in out + err
    assert main(["providers", "--json"]) == EXIT_OK
    data = json.loads(capsys.readouterr().out)
    assert data["credential_store_problem"] == advice
    available = {row["id"]: row["available"] for row in data["providers"]}
    assert available["gemini"] and available["duckduckgo"]
    assert not available["brave"] and not available["codex"]
    statuses = asyncio.run(_core_status())
    assert statuses["brave"].reason == UNREADABLE_ROW and not statuses["brave"].available
    assert statuses["gemini"].available


@pytest.mark.parametrize("broken", ["not JSON", "a directory"])
def test_each_row_the_unreadable_credential_store_costs_names_its_file_and_fix(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], broken: str
) -> None:
    # Failed before: provider_status() rows said only "not available" (Gemini's "ready"),
    # and the file and fix were in the command's warning alone, none in the JSON rows.
    problem = _broken_credentials_file(broken, "brave")
    monkeypatch.setenv("GEMINI_API_KEY", "AIza-cli-env-key-0123456789")
    fix = "fix the file, or remove it and"
    advice = {
        "brave": f"{problem}; {fix} store brave's key again with 'websearch auth set brave'",
        "codex": (
            f"{problem}; {fix} store codex's OAuth token again from Python with "
            'CredentialStore.set_oauth("codex", ...)'
        ),
        "gemini": (
            f"{problem}; Gemini used its key, not a sign-in the file may hold; {fix} store "
            "again whichever of these it held for gemini: the Gemini CLI sign-in with "
            "'websearch auth import gemini-cli', the Antigravity sign-in from Python with "
            'CredentialStore.set_oauth("gemini", ...)'
        ),
        "duckduckgo": None,
    }
    statuses = asyncio.run(_core_status())
    assert {pid: statuses[pid].advice for pid in advice} == advice
    assert main(["providers", "--json"]) == EXIT_OK
    rows = {row["id"]: row for row in json.loads(capsys.readouterr().out)["providers"]}
    assert {pid: rows[pid]["advice"] for pid in advice} == advice
    assert SECRET not in json.dumps(rows)


def test_each_row_of_an_unreadable_store_names_the_ways_back_that_work_for_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Failed before: every row, codex's too (codex takes no key: `auth set codex` refuses),
    # was told to "store the keys again with 'websearch auth set <provider>'". Each command
    # a row names is run as written once the file is removed, and the row is ready after.
    path = _credentials_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"brave": {"api_key": "', encoding="utf-8")
    assert main(["providers", "--json"]) == EXIT_OK
    rows = {row["id"]: row for row in json.loads(capsys.readouterr().out)["providers"]}
    commands = {
        pid: re.findall(r"'(websearch auth [^']+)'", rows[pid]["advice"])
        for pid in ("brave", "codex", "gemini")
    }
    assert commands == {
        "brave": ["websearch auth set brave"],
        "codex": [],
        "gemini": ["websearch auth import gemini-cli", "websearch auth set gemini"],
    }
    assert 'CredentialStore.set_oauth("codex", ...)' in rows["codex"]["advice"]
    path.unlink()
    _stdin(monkeypatch, SECRET)
    assert main(commands["brave"][0].split()[1:]) == EXIT_OK
    sign_in = tmp_path / "oauth_creds.json"
    sign_in.write_text(
        json.dumps({"access_token": "ya29.cli-test", "expiry_date": (time.time() + 3600) * 1000}),
        encoding="utf-8",
    )
    assert main([*commands["gemini"][0].split()[1:], str(sign_in)]) == EXIT_OK
    CredentialStore(path).set_oauth(
        "codex", OAuthToken(access_token="codex-cli-test", expires_at=time.time() + 3600)
    )
    capsys.readouterr()
    assert main(["providers", "--json"]) == EXIT_OK
    rows = {row["id"]: row for row in json.loads(capsys.readouterr().out)["providers"]}
    assert all(rows[pid]["available"] for pid in commands), rows


def test_guard_no_row_has_advice_while_the_credential_store_reads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A guard (passes before and after the field): nothing to put right, nothing said.
    CredentialStore(_credentials_file()).set("brave", SECRET)
    monkeypatch.setenv("GEMINI_API_KEY", "AIza-cli-env-key-0123456789")
    statuses = asyncio.run(_core_status())
    assert statuses["brave"].available and statuses["gemini"].available
    assert all(getattr(status, "advice", None) is None for status in statuses.values())


def test_guard_auth_commands_keep_failing_on_an_unreadable_credential_store(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A guard (passes before and after): the table goes on past the file, `auth` does not:
    # it reads or writes that file, so its error is the answer.
    path = _credentials_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"brave": ', encoding="utf-8")
    monkeypatch.setenv("GEMINI_API_KEY", "AIza-cli-env-key-0123456789")
    for argv in (["auth", "list"], ["auth", "remove", "brave"]):
        assert main(argv) == EXIT_USAGE
        assert capsys.readouterr() == (
            "",
            f"websearch: credential store {path} is not valid JSON\n",
        )


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")
def test_a_credential_store_that_cannot_be_written_is_named_not_a_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # No file can be made in /proc/self, for root too (as in a directory the user may not
    # write to, or on a read-only file system): the OSError of the temporary file used to
    # end the command in a traceback, exit 1.
    path = Path("/proc/self/credentials.json")
    monkeypatch.setenv("WEBSEARCH_CREDENTIALS_FILE", str(path))
    _stdin(monkeypatch, SECRET)
    assert main(["auth", "set", "brave"]) == EXIT_USAGE
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"websearch: cannot write credential store {path}: ")
    assert err.count("\n") == 1
    assert SECRET not in err


@pytest.mark.parametrize(
    ("variables", "stored"),
    [
        # "~/creds/c.json" used to create ./~/creds/c.json in the working directory.
        ({"WEBSEARCH_CREDENTIALS_FILE": "~/creds/c.json"}, "creds/c.json"),
        # WEBSEARCH_CONFIG_FILE= (a .env template's blank entry) was read as Path("."), so
        # the store beside "the config file" was ./credentials.json: the key went into
        # whatever directory the command ran in, a git checkout included.
        (
            {"WEBSEARCH_CONFIG_FILE": "", "WEBSEARCH_CREDENTIALS_FILE": None},
            ".config/websearch-tools/credentials.json",
        ),
    ],
)
def test_auth_set_stores_where_the_settings_say_never_in_the_working_directory(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    variables: dict[str, str | None],
    stored: str,
) -> None:
    home, work = tmp_path / "home", tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    for name, value in variables.items():
        if value is None:
            monkeypatch.delenv(name)
        else:
            monkeypatch.setenv(name, value)
    _stdin(monkeypatch, SECRET)
    assert main(["auth", "set", "brave"]) == EXIT_OK
    assert f"in {home / stored}" in capsys.readouterr().out
    assert json.loads((home / stored).read_text()) == {"brave": {"api_key": SECRET}}
    assert list(work.iterdir()) == []


def test_a_stored_key_is_used_by_search(
    simulate: Simulate, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    sim = simulate("brave", keys=False)
    _stdin(monkeypatch, SECRET)
    assert main(["auth", "set", "brave"]) == EXIT_OK
    assert main(["python"]) == EXIT_OK
    assert sim["brave"].requests[0].header("X-Subscription-Token") == SECRET
    out, err = capsys.readouterr()
    assert SECRET not in out + err


# --- providers ----------------------------------------------------------------------------


def _table(out: str) -> tuple[list[str], dict[str, str]]:
    lines = out.split("\n\n")[0].splitlines()
    return lines[0].split(), {line.split()[0]: line for line in lines[1:]}


async def _core_status() -> dict[str, ProviderStatus]:
    async with WebSearch() as web_search:
        return {status.id: status for status in await web_search.provider_status()}


def test_providers_lists_each_provider_with_its_status(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("BRAVE_API_KEY", SECRET)
    monkeypatch.setenv("WEBSEARCH_EXCLUDE", "duckduckgo")
    monkeypatch.setenv("WEBSEARCH_PROVIDER", "brave")
    monkeypatch.setenv("WEBSEARCH_BUDGET", '{"brave": "2000/month"}')
    assert main(["providers"]) == EXIT_OK
    out, err = capsys.readouterr()
    assert SECRET not in out + err
    header, rows = _table(out)
    assert header == ["ID", "LABEL", "KIND", "USED", "BUDGET", "STATUS"]
    assert list(rows) == list(SEARCH_PROVIDER_ORDER)
    expected = asyncio.run(_core_status())
    status_at = out.splitlines()[0].index("STATUS")  # the columns line up under the header
    for provider_id, row in rows.items():
        status = expected[provider_id]
        assert row.startswith(provider_id)
        assert row[status_at:].startswith(status.reason)
        assert status.label in row
        assert status.kind in row
        assert status.reason in row
    assert rows["brave"].split()[1:6] == ["Brave", "api", "0", "0", "of"]
    assert "2000/month" in rows["brave"]
    assert rows["brave"].endswith("(preferred)")
    assert "TAVILY_API_KEY" in rows["tavily"]
    assert "excluded" in rows["duckduckgo"]
    assert "websearch auth set PROVIDER" in out


def test_providers_says_when_a_rate_limited_provider_may_send_next(
    simulate: Simulate, capsys: pytest.CaptureFixture[str]
) -> None:
    """Under ``[rate]``, a provider whose next send slot is booked ahead is not just ready.

    It read ``ready`` a second after a search had booked its next slot a minute ahead,
    and the next search waited for that slot, or was skipped when it lay too far off.
    """
    simulate("brave")
    Path(os.environ["WEBSEARCH_CONFIG_FILE"]).write_text('[rate]\nbrave = "1/min"\n')
    assert main(["providers"]) == EXIT_OK
    (row,) = [r for r in capsys.readouterr().out.splitlines() if r.startswith("brave ")]
    assert row.endswith("  ready")  # nothing booked yet: free now
    before = time.time()
    assert main(["rust", "--provider", "brave"]) == EXIT_OK
    capsys.readouterr()
    assert main(["providers"]) == EXIT_OK
    took = time.time() - before
    (row,) = [r for r in capsys.readouterr().out.splitlines() if r.startswith("brave ")]
    status = row.rpartition("  ")[2]
    said = re.fullmatch(
        r"ready; next request slot at \d\d:\d\d:\d\d UTC \(in (\d+) s, rate 1/min\)", status
    )
    assert said is not None, status
    # A minute after the search's send, less the time the search and the table took (a
    # busy machine only widens this; "5\d" failed a pair slower than 10 s), never more.
    assert 60 - took - 1 <= int(said[1]) <= 60, (status, took)


def test_providers_sees_the_searxng_endpoint(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("SEARXNG_ENDPOINT", "http://127.0.0.1:9")
    before = asyncio.run(_core_status())["searxng"]
    assert before.available
    assert main(["providers"]) == EXIT_OK
    _, rows = _table(capsys.readouterr().out)
    assert rows["searxng"].endswith(before.reason)


async def _mark_brave_out_of_quota() -> None:
    """Brave marked out of quota until 2100-01-01 in the default state store."""
    from websearch_core.state.base import ProviderMark

    async with WebSearch() as web_search:
        store = await web_search.state()
        mark = ProviderMark(kind="exhausted", until=4102444800.0, reason="brave: 402")
        await store.set_mark("brave", mark)


def test_providers_reset_clears_a_mark(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("BRAVE_API_KEY", SECRET)
    asyncio.run(_mark_brave_out_of_quota())
    assert asyncio.run(_core_status())["brave"].mark is not None
    assert main(["providers"]) == EXIT_OK
    assert "Brave is out of quota until 2100-01-01" in _table(capsys.readouterr().out)[1]["brave"]
    assert main(["providers", "reset", "brave"]) == EXIT_OK
    assert "brave: cooldowns, quota marks and usage counters cleared" in capsys.readouterr().out
    assert asyncio.run(_core_status())["brave"].mark is None
    assert main(["providers", "reset", "bravo"]) == 2
    err = capsys.readouterr().err
    assert "Unknown search provider: bravo (known: " in err
    assert err.rstrip().endswith("); did you mean brave?")


@pytest.mark.parametrize("argv", [["providers", "--json"], ["--json", "providers"]])
def test_providers_json_holds_what_the_table_shows(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A script checking quotas had only the padded table (``--json providers`` searched)."""
    monkeypatch.setenv("BRAVE_API_KEY", SECRET)
    monkeypatch.setenv("WEBSEARCH_PROVIDER", "brave")
    monkeypatch.setenv("WEBSEARCH_BUDGET", '{"brave": "2000/month"}')
    asyncio.run(_mark_brave_out_of_quota())
    assert main(argv) == EXIT_OK
    out, err = capsys.readouterr()
    assert SECRET not in out + err
    data = json.loads(out)
    rows = {row["id"]: row for row in data["providers"]}
    assert list(rows) == list(SEARCH_PROVIDER_ORDER)
    expected = asyncio.run(_core_status())
    for provider_id, row in rows.items():
        assert row["status"] == expected[provider_id].reason
        assert row["available"] == expected[provider_id].available
    brave = rows["brave"]
    assert (brave["preferred"], brave["budget"], brave["budget_used"]) == (True, "2000/month", 0)
    assert brave["mark"] == {
        "kind": "exhausted",
        "until": "2100-01-01T00:00:00+00:00",
        "reason": "brave: 402",
    }
    assert rows["tavily"]["mark"] is None and rows["tavily"]["budget_used"] is None
    assert (data["state_store_problem"], data["conflicts"]) == (None, [])


def test_providers_shows_the_model_another_process_searched_gemini_with(
    simulate: Simulate, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The model that replaced a default the sign-in lacks showed only in the searching client.

    Every ``websearch`` command is a new client (a new process for the user), so
    ``websearch providers`` never showed it; the search now keeps it in the state store.
    """
    sim = simulate("gemini")
    protocol = sim["gemini"].protocol
    assert isinstance(protocol, GeminiProtocol)
    protocol.enforce_catalog = True  # a Gemini CLI account without preview access
    monkeypatch.setenv("GOOGLE_CLOUD_PROJECT", "p")
    monkeypatch.delenv("GEMINI_SEARCH_MODEL", raising=False)
    token = OAuthToken(access_token="ya29.cli-secret-token", refresh_token="1//cli-secret-refresh")
    CredentialStore(_credentials_file()).set_oauth("gemini-cli", token)
    assert main(["python", "asyncio", "--provider", "gemini"]) == EXIT_OK
    capsys.readouterr()
    note = (
        "searches with 'gemini-2.5-flash': the default model 'gemini-3-flash-preview' is not"
        " served to this account"
    )
    assert main(["providers"]) == EXIT_OK
    out = capsys.readouterr().out
    assert _table(out)[1]["gemini"].endswith(f"ready (Gemini CLI sign-in); {note}")
    assert main(["providers", "--json"]) == EXIT_OK
    shown = capsys.readouterr().out
    gemini = next(row for row in json.loads(shown)["providers"] if row["id"] == "gemini")
    assert (gemini["status"], gemini["note"]) == (f"ready (Gemini CLI sign-in); {note}", note)
    for secret in ("ya29.cli-secret-token", "1//cli-secret-refresh"):
        assert secret not in out + shown


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["providers", "reset", "brave", "--all"],
            "websearch: providers reset takes a provider id or --all, not both: "
            "websearch providers reset brave, or websearch providers reset --all\n",
        ),
        (
            ["providers", "reset"],
            # It said "needs a provider id or --all" alone: the form was left to the help.
            "websearch: providers reset needs a provider id or --all: websearch providers "
            "reset brave (one provider; websearch providers lists the ids), or websearch "
            "providers reset --all\n",
        ),
    ],
)
def test_providers_reset_says_which_of_its_two_forms_was_missed(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # Both given were told "needs a provider id or --all", which both had been.
    assert main(argv) == 2
    assert capsys.readouterr().err == message


@pytest.mark.parametrize(
    ("argv", "provider_id"),
    [(["providers", "brave"], "brave"), (["providers", "--json", "Tavily"], "tavily")],
)
def test_a_provider_id_after_providers_says_where_its_status_is_and_its_reset(
    argv: list[str], provider_id: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # `websearch providers brave` (Brave's status, a newcomer meant) was refused as
    # "action: 'brave' is not one of reset", naming neither the list nor the reset.
    assert main(argv) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert f"{argv[-1]} is a provider, not an action: websearch providers lists" in line
    assert f"websearch providers reset {provider_id} clears" in line
    assert main(["providers", "reset", provider_id]) == 0  # the command it names runs
    assert capsys.readouterr().out.startswith(f"{provider_id}: ")


@pytest.mark.parametrize("word", ["status", "stats", "List", "show"])
def test_a_word_for_the_listing_after_providers_says_the_listing_takes_no_action(
    word: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Failed before: ``websearch providers stats`` said only ``'stats' is not one of reset``.

    ``websearch providers brave`` says where Brave's status is; a newcomer asking for the
    listing by name was told nothing of where it is.
    """
    assert main(["providers", word]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert f"{word} is not an action: websearch providers, with no action, lists" in line
    assert "websearch providers reset PROVIDER" in line
    assert main(["providers"]) == 0  # the command it names runs
    assert "ID" in capsys.readouterr().out


def test_a_query_of_stats_names_the_providers_listing(
    brave: Simulator, capsys: pytest.CaptureFixture[str]
) -> None:
    """A guard (passes before and after): ``websearch stats`` is searched, after a line."""
    assert main(["--no-cache", "stats"]) == 0
    err = capsys.readouterr().err
    assert "for each provider's status, write: websearch providers" in err


def test_another_word_after_providers_is_refused_as_before(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A guard (passes before and after): a word that is no id keeps the parser's refusal."""
    assert main(["providers", "rest"]) == 2
    assert "'rest' is not one of reset" in capsys.readouterr().err


def test_providers_shows_an_old_mark_without_its_terminal_escapes(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from websearch_core.state.base import ProviderMark

    async def mark_brave() -> None:  # as a version that stored the upstream's words raw did
        async with WebSearch() as web_search:
            store = await web_search.state()
            reason = "Brave API error (500): \x1b]0;pwned\x07\x1b[2Jevil\u202e error"
            mark = ProviderMark(kind="circuit_open", until=4102444800.0, reason=reason)
            await store.set_mark("brave", mark)

    monkeypatch.setenv("BRAVE_API_KEY", SECRET)
    asyncio.run(mark_brave())
    assert main(["providers"]) == EXIT_OK
    row = _table(capsys.readouterr().out)[1]["brave"]
    assert row.endswith("until 2100-01-01 00:00:00 UTC (Brave API error (500): evil error)")
    assert asyncio.run(_core_status())["brave"].reason.endswith(
        "(Brave API error (500): evil error)"
    )


def test_a_mark_past_any_date_is_shown_and_skipped_without_a_traceback(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    simulate: Simulate,
    caplog: pytest.LogCaptureFixture,
) -> None:
    from websearch_core.state.base import ProviderMark

    # What a version with no bound on auth_cooldown_seconds stored with it set to 1e300.
    async def mark_brave() -> None:
        async with WebSearch() as web_search:
            store = await web_search.state()
            now = time.time()
            reason = "brave: 401 unauthorized"
            mark = ProviderMark("unauthorized", until=now + 1e300, reason=reason, set_at=now)
            await store.set_mark("brave", mark)

    sim = simulate("brave", "duckduckgo")
    asyncio.run(mark_brave())
    assert main(["providers"]) == EXIT_OK
    row = _table(capsys.readouterr().out)[1]["brave"]
    assert row.endswith(
        "refused its credentials until 9999-12-31 23:59:59 UTC (brave: 401 unauthorized)"
    )
    with caplog.at_level("ERROR", logger="websearch_core"):
        assert main(["python", "--json"]) == EXIT_OK
    attempts = json.loads(capsys.readouterr().out)["response"]["attempts"]
    assert [(a["provider"], a["outcome"]) for a in attempts] == [
        ("brave", "skipped"),
        ("duckduckgo", "success"),
    ]
    assert "until 9999-12-31 23:59:59 UTC" in attempts[0]["detail"]
    assert not [record for record in caplog.records if record.exc_info]
    assert sim["brave"].requests == []


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b"provider = [unclosed\n", "is not valid TOML: Invalid value (at line 1, column 13)"),
        (b'provider = "\xff\xfe"\n', "is not UTF-8 text (byte 12 cannot be decoded)"),
    ],
)
@pytest.mark.parametrize("command", [["python"], ["providers"], ["auth", "list"]])
def test_a_broken_config_file_exits_2_naming_it(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    content: bytes,
    problem: str,
    command: list[str],
) -> None:
    config = tmp_path / "broken.toml"
    config.write_bytes(content)
    monkeypatch.setenv("WEBSEARCH_CONFIG_FILE", str(config))
    assert main(command) == EXIT_USAGE
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"websearch: config file {config} {problem}\n"


def test_a_config_file_saved_with_a_byte_order_mark_is_read(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Notepad's "UTF-8 with BOM" (and Windows line ends): the whole file was refused as
    # "not valid TOML: Invalid statement (at line 1, column 1)", pointing at nothing.
    config = tmp_path / "config.toml"
    config.write_bytes(b'\xef\xbb\xbfprovider = "brave"\r\nexclude = ["google"]\r\n')
    monkeypatch.setenv("WEBSEARCH_CONFIG_FILE", str(config))
    assert main(["providers"]) == EXIT_OK
    rows = {line.split()[0]: line for line in capsys.readouterr().out.splitlines() if line}
    assert rows["brave"].endswith("(preferred)")
    assert rows["google"].endswith("excluded by settings")
    # A bad value in such a file is named by its entry in the file, as in any other.
    config.write_bytes(b'\xef\xbb\xbfprovider = "brav"\r\n')
    assert main(["providers"]) == EXIT_USAGE
    assert capsys.readouterr().err.startswith(f"websearch: config file {config} (provider): ")


def test_providers_shows_the_chain_the_settings_name(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The table ignored `providers = [...]` and `fallback = false`: engines outside the
    # chain read "ready" though no search asks them, and `public` in the list read
    # "explicit selection only" though the chain runs it there.
    config = tmp_path / "config.toml"
    monkeypatch.setenv("WEBSEARCH_CONFIG_FILE", str(config))
    config.write_text('providers = ["duckduckgo", "public"]\n', encoding="utf-8")
    assert main(["providers"]) == EXIT_OK
    rows = {line.split()[0]: line for line in capsys.readouterr().out.splitlines() if line}
    assert rows["duckduckgo"].endswith("  ready")
    assert rows["public"].endswith("  ready")
    assert rows["bing"].endswith("  ready")  # one of the engines Public Web asks
    assert rows["tavily"].endswith("  not in the providers setting")
    config.write_text('providers = ["duckduckgo"]\n', encoding="utf-8")
    assert main(["providers"]) == EXIT_OK
    rows = {line.split()[0]: line for line in capsys.readouterr().out.splitlines() if line}
    assert rows["bing"].endswith("  not in the providers setting")
    config.write_text('provider = "bing"\nfallback = false\n', encoding="utf-8")
    assert main(["providers"]) == EXIT_OK
    rows = {line.split()[0]: line for line in capsys.readouterr().out.splitlines() if line}
    assert rows["bing"].endswith("  ready (preferred)")
    assert rows["duckduckgo"].endswith("  not asked: fallback = false pins bing")
    config.write_text('provider = "public"\n', encoding="utf-8")
    assert main(["providers"]) == EXIT_OK
    rows = {line.split()[0]: line for line in capsys.readouterr().out.splitlines() if line}
    assert rows["public"].endswith("  ready (preferred)")
    assert rows["duckduckgo"].endswith("  ready")  # the auto chain still follows
    # Pinned, Public Web still asks the credential-free engines: they are in its chain.
    config.write_text('provider = "public"\nfallback = false\n', encoding="utf-8")
    assert main(["providers"]) == EXIT_OK
    rows = {line.split()[0]: line for line in capsys.readouterr().out.splitlines() if line}
    assert rows["duckduckgo"].endswith("  ready")
    assert rows["tavily"].endswith("  not asked: fallback = false pins public")


@pytest.mark.parametrize("command", [["python"], ["providers"], ["auth", "list"]])
def test_a_config_file_named_by_the_variable_must_exist_the_default_need_not(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    command: list[str],
) -> None:
    monkeypatch.setenv("WEBSEARCH_EXCLUDE", ",".join(SEARCH_PROVIDER_ORDER))
    missing = tmp_path / "confg.toml"
    for named, problem in [(missing, "does not exist"), (tmp_path, "is a directory, not a file")]:
        monkeypatch.setenv("WEBSEARCH_CONFIG_FILE", str(named))
        assert main(command) == EXIT_USAGE
        out, err = capsys.readouterr()
        assert out == ""
        assert err == f"websearch: WEBSEARCH_CONFIG_FILE: config file {named} {problem}\n"
    # The default file (nothing configured yet) may be absent.
    monkeypatch.delenv("WEBSEARCH_CONFIG_FILE")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    status = main(command)
    assert "config file" not in capsys.readouterr().err
    # Every provider is excluded: the search has none to ask (also exit 2), the rest run.
    assert status == (EXIT_USAGE if command == ["python"] else EXIT_OK)


@pytest.mark.parametrize("command", [["python"], ["providers"], ["auth", "list"]])
def test_something_not_a_file_at_the_default_config_path_exits_2_naming_it(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    command: list[str],
) -> None:
    # It was skipped as if absent: the search ran with every setting at its default (its
    # keys, exclusions and base URLs unused) and nothing said why.
    monkeypatch.delenv("WEBSEARCH_CONFIG_FILE")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("WEBSEARCH_EXCLUDE", ",".join(SEARCH_PROVIDER_ORDER))
    default = tmp_path / "xdg" / "websearch-tools" / "config.toml"
    default.mkdir(parents=True)
    assert main(command) == EXIT_USAGE
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"websearch: config file {default} is a directory, not a file\n"
    default.rmdir()
    default.symlink_to(tmp_path / "dotfiles" / "config.toml")  # a dotfiles link, left dangling
    assert main(command) == EXIT_USAGE
    assert capsys.readouterr().err == (
        f"websearch: config file {default} is a symbolic link to a file that does not exist\n"
    )


def test_the_config_file_variable_expands_variables(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # "$WS_TEST_CONF/config.toml" was looked up under a directory named "$WS_TEST_CONF",
    # never found, and skipped: the provider set in it was silently not preferred.
    (tmp_path / "config.toml").write_text('provider = "brav"\n')
    monkeypatch.setenv("WS_TEST_CONF", str(tmp_path))
    monkeypatch.setenv("WEBSEARCH_CONFIG_FILE", "$WS_TEST_CONF/config.toml")
    assert main(["providers"]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert err.startswith(f"websearch: config file {tmp_path / 'config.toml'} (provider): ")
    monkeypatch.setenv("WEBSEARCH_CONFIG_FILE", "${WS_TEST_UNSET}/config.toml")
    monkeypatch.delenv("WS_TEST_UNSET", raising=False)
    assert main(["providers"]) == EXIT_USAGE
    assert capsys.readouterr().err == (
        "websearch: WEBSEARCH_CONFIG_FILE: uses an environment variable that is unset or "
        "empty: $WS_TEST_UNSET\n"
    )


@pytest.mark.parametrize("table", ["budget", "rate", "api_keys", "base_urls"])
def test_a_mistyped_id_in_a_config_table_exits_2_naming_the_entry(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    table: str,
) -> None:
    value = {"budget": "10/day", "rate": "1/s", "api_keys": SECRET}.get(table, "http://h:9")
    config = tmp_path / "config.toml"
    config.write_text(f'[{table}]\nbrave = "{value}"\nbrav = "{value}"\n')
    monkeypatch.setenv("WEBSEARCH_CONFIG_FILE", str(config))
    assert main(["providers"]) == EXIT_USAGE
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(
        f"websearch: config file {config} ({table}.brav): unknown provider id brav (known: "
    )
    assert value not in err


def test_an_unreadable_config_file_exits_2_naming_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config.toml"
    config.write_text('provider = "brave"\n')
    monkeypatch.setenv("WEBSEARCH_CONFIG_FILE", str(config))
    real_path_open = Path.open
    real_open = builtins.open

    def refused(file: object) -> bool:
        return isinstance(file, str | os.PathLike) and Path(file) == config

    def refusing_path_open(self: Path, *args: Any, **kwargs: Any) -> Any:
        # chmod 000 does not stop root (tests may run as root): refuse this one file here.
        if refused(self):
            raise PermissionError(13, "Permission denied", str(self))
        return real_path_open(self, *args, **kwargs)

    def refusing_open(file: Any, *args: Any, **kwargs: Any) -> Any:
        # pydantic-settings before 2.8 reads the file with the built-in ``open``.
        if refused(file):
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(Path, "open", refusing_path_open)
    monkeypatch.setattr(builtins, "open", refusing_open)
    assert main(["python"]) == EXIT_USAGE
    assert capsys.readouterr().err == (
        f"websearch: config file {config} cannot be read: Permission denied\n"
    )


@pytest.mark.parametrize(
    ("name", "value", "expected"),
    [
        (
            "WEBSEARCH_TIMEOUT_SECONDS",
            "soon",
            "WEBSEARCH_TIMEOUT_SECONDS: Input should be a valid number, unable to parse string "
            "as a number, got 'soon'",
        ),
        (
            "WEBSEARCH_REDIS_URL",
            "http://user:hunter2@cache.internal:6379",
            "WEBSEARCH_REDIS_URL: redis_url must start with one of redis://, rediss://, unix://",
        ),
        (
            "WEBSEARCH_REDIS_URL",
            "redis://:hunter2@cache.internal:63 79/0",
            "WEBSEARCH_REDIS_URL: redis_url has an invalid host or port (a port is a number up "
            "to 65535; an IPv6 address goes in brackets)",
        ),
        (
            "WEBSEARCH_API_KEYS__BRAVE",
            "hunter2\rx",
            "WEBSEARCH_API_KEYS__BRAVE: the API key contains a control character "
            "(a line break, a NUL), so it cannot be sent",
        ),
        (
            "WEBSEARCH_SEARXNG__SAFESEARCH",
            "7",
            "WEBSEARCH_SEARXNG__SAFESEARCH: searxng.safesearch must be 0 (off), 1 (moderate), "
            "or 2 (strict).",
        ),
    ],
)
@pytest.mark.parametrize("command", [["python"], ["providers"]])
def test_a_bad_variable_exits_2_naming_it(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    name: str,
    value: str,
    expected: str,
    command: list[str],
) -> None:
    err = _usage_error(monkeypatch, capsys, command, name, value)
    assert err == f"websearch: {expected}\n"
    assert "hunter2" not in err


def _usage_error(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    command: list[str],
    name: str,
    value: str,
) -> str:
    """What ``command`` writes to stderr, having exited 2 with nothing on stdout, when the
    variable ``name`` is ``value`` (no provider can run, so nothing is searched)."""
    monkeypatch.setenv(name, value)
    monkeypatch.setenv("WEBSEARCH_EXCLUDE", ",".join(SEARCH_PROVIDER_ORDER))
    assert main(command) == EXIT_USAGE
    out, err = capsys.readouterr()
    assert out == ""
    return err


@pytest.mark.parametrize(
    ("name", "value", "where", "entry"),
    [
        (
            "WEBSEARCH_API_KEYS",
            f'{{"brave": "{SECRET}"',
            "Expecting ',' delimiter at character 31",
            "PROVIDER",
        ),
        (
            "WEBSEARCH_BUDGET",
            "{bad",
            "Expecting property name enclosed in double quotes",
            "PROVIDER",
        ),
        ("WEBSEARCH_RATE", "{bad", "Expecting property name enclosed in double quotes", "PROVIDER"),
        (
            "WEBSEARCH_BASE_URLS",
            "{bad",
            "Expecting property name enclosed in double quotes",
            "PROVIDER",
        ),
        (
            "WEBSEARCH_SEARXNG",
            "{bad",
            "Expecting property name enclosed in double quotes",
            "SETTING",
        ),
    ],
)
@pytest.mark.parametrize("command", [["python"], ["providers"], ["auth", "list"]])
def test_a_table_variable_that_is_not_json_exits_2_naming_it(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    name: str,
    value: str,
    where: str,
    entry: str,
    command: list[str],
) -> None:
    # pydantic-settings used to raise its own SettingsError here: a traceback, exit 1. The
    # variable of one entry is named by what names the entry: a provider id, but for
    # SearXNG one of its settings (it said WEBSEARCH_API_KEYS__<KEY>: the provider's key?).
    err = _usage_error(monkeypatch, capsys, command, name, value)
    assert err.startswith(f"websearch: {name}: not valid JSON ({where}")
    assert err.endswith(
        f"write a JSON object, or set one entry per variable, as {name}__<{entry}>\n"
    )
    assert err.count("\n") == 1
    assert SECRET not in err


@pytest.mark.parametrize("endpoint", ["ftp://searx.example.org", "searx.example.org", "http://"])
@pytest.mark.parametrize("name", ["SEARXNG_ENDPOINT", "WEBSEARCH_SEARXNG__ENDPOINT", None])
def test_a_searxng_endpoint_that_is_not_an_http_url_exits_2_naming_it(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    endpoint: str,
    name: str | None,
) -> None:
    # It used to pass: "providers" showed searxng ready, and the search failed naming nothing.
    where = name
    if name is None:
        config = tmp_path / "config.toml"
        config.write_text(f'[searxng]\nendpoint = "{endpoint}"\n')
        where = f"config file {config} (searxng.endpoint)"
    else:
        monkeypatch.setenv(name, endpoint)
    assert main(["providers"]) == EXIT_USAGE
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        f"websearch: {where}: must be an http(s) URL such as https://searx.example.org\n"
    )


@pytest.mark.parametrize(
    ("table", "example"),
    [
        ("budget", "'2000/month' (a positive count per minute, hour, day or month)"),
        ("rate", "'1/s' or '30/min' (a positive count per second, minute or hour)"),
    ],
)
def test_a_bad_budget_or_rate_entry_names_its_own_variable(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    table: str,
    example: str,
) -> None:
    # The line used to begin "websearch: budget: ...", naming no variable; where the
    # table's variable is set too, the entry's own variable is the one read.
    name = f"WEBSEARCH_{table.upper()}__BRAVE"
    monkeypatch.setenv(name, "lots")
    monkeypatch.setenv(f"WEBSEARCH_{table.upper()}", '{"exa": "1/hour", "brave": "1/hour"}')
    monkeypatch.setenv("WEBSEARCH_EXCLUDE", ",".join(SEARCH_PROVIDER_ORDER))
    assert main(["providers"]) == EXIT_USAGE
    assert capsys.readouterr().err == (
        f"websearch: {name}: {table}.brave must look like {example}, got 'lots'\n"
    )


def test_an_option_beats_the_variable_in_the_message(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("WEBSEARCH_TIMEOUT_SECONDS", "30")
    assert main(["python", "--timeout", "9999"]) == EXIT_USAGE
    assert capsys.readouterr().err == (
        "websearch: timeout_seconds (--timeout): must be more than 0 and at most 300 seconds\n"
    )


def test_an_invalid_setting_in_the_config_file_names_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config.toml"
    config.write_text("timeout_seconds = -1\n")
    monkeypatch.setenv("WEBSEARCH_CONFIG_FILE", str(config))
    assert main(["providers"]) == EXIT_USAGE
    assert "timeout_seconds" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("given", "problem"),
    [
        # NaN compares false with every bound: it was refused as "less than or equal to 300".
        (["--timeout", "nan"], "timeout_seconds (--timeout): Input should be a finite number"),
        (["--deadline", "inf"], "deadline_seconds (--deadline): Input should be a finite number"),
        # An infinite TTL passed, and every search ended in a traceback writing the cache.
        ("cache_ttl_seconds = inf", "(cache_ttl_seconds): Input should be a finite number"),
        ("cache_stale_seconds = nan", "(cache_stale_seconds): Input should be a finite number"),
        # A cooldown past any date: the first 401 wrote a mark `websearch providers` could
        # not show as a date, and the table failed with a traceback until the mark was reset.
        (
            "auth_cooldown_seconds = 1e300",
            "(auth_cooldown_seconds): must be at least 0 and at most 2678400 seconds",
        ),
        ("auth_cooldown_seconds = inf", "(auth_cooldown_seconds): Input should be a finite"),
    ],
)
def test_a_duration_not_finite_or_past_its_bound_exits_2_saying_so(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    given: list[str] | str,
    problem: str,
) -> None:
    monkeypatch.setenv("WEBSEARCH_EXCLUDE", ",".join(SEARCH_PROVIDER_ORDER))
    config = tmp_path / "config.toml"
    config.write_text(f"{given}\n" if isinstance(given, str) else "")
    monkeypatch.setenv("WEBSEARCH_CONFIG_FILE", str(config))
    assert main(["python", *([] if isinstance(given, str) else given)]) == EXIT_USAGE
    out, err = capsys.readouterr()
    assert out == ""
    where = f"config file {config} " if isinstance(given, str) else ""
    assert err.startswith(f"websearch: {where}{problem}")
    assert err.count("\n") == 1


@pytest.mark.parametrize(
    ("written", "problem"),
    [
        ("timeout = 30", "(timeout): not a setting; did you mean timeout_seconds?"),
        ("api_key = 'k'", "(api_key): not a setting; did you mean api_keys?"),
        (
            "[searxng]\nendpont = 'https://s.example'",
            "(searxng.endpont): not a setting; did you mean endpoint?",
        ),
        ("colour = 'red'", "(colour): not a setting"),
        # Pydantic's "Input is not a valid path for <class 'pathlib.Path'>".
        ("state_dir = 5", "(state_dir): should be a path, written as a string"),
        # Told to write a JSON object or set WEBSEARCH_API_KEYS__<KEY>: a variable's advice.
        (
            f"api_keys = '{SECRET}'",
            "(api_keys): must be a table: a line [api_keys], then one entry per line, such as "
            'brave = "..."',
        ),
        (
            "searxng = 'https://s.example'",
            "(searxng): must be a table: a line [searxng], then one entry per line, such as "
            'endpoint = "https://searx.example.org"',
        ),
    ],
)
def test_a_key_no_setting_has_or_a_value_of_the_wrong_shape_is_named_plainly(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    written: str,
    problem: str,
) -> None:
    # Pydantic's "Extra inputs are not permitted" left the user to guess the right name.
    monkeypatch.delenv("WEBSEARCH_STATE_DIR")  # it would outrank the file's state_dir
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    config = tmp_path / "config.toml"
    config.write_text(f"{written}\n")
    monkeypatch.setenv("WEBSEARCH_CONFIG_FILE", str(config))
    assert main(["providers"]) == EXIT_USAGE
    assert capsys.readouterr().err == f"websearch: config file {config} {problem}\n"


@pytest.mark.parametrize("command", [["python"], ["providers"]])
def test_the_redis_backend_without_a_url_is_named_where_it_is_set(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    command: list[str],
) -> None:
    # It passed as a setting and failed at the search as "state_backend 'redis' needs
    # redis_url", naming neither the file nor the variable that asked for Redis.
    monkeypatch.setenv("WEBSEARCH_EXCLUDE", ",".join(SEARCH_PROVIDER_ORDER))
    config = tmp_path / "config.toml"
    config.write_text('state_backend = "redis"\n')
    monkeypatch.setenv("WEBSEARCH_CONFIG_FILE", str(config))
    needs = "'redis' needs a redis_url (WEBSEARCH_REDIS_URL) to connect to"
    assert main(command) == EXIT_USAGE
    assert capsys.readouterr().err == f"websearch: config file {config} (state_backend): {needs}\n"
    monkeypatch.setenv("WEBSEARCH_STATE_BACKEND", "redis")
    assert main(command) == EXIT_USAGE
    assert capsys.readouterr().err == f"websearch: WEBSEARCH_STATE_BACKEND: {needs}\n"


def test_providers_says_how_to_configure_searxng(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["providers"]) == EXIT_OK
    _, rows = _table(capsys.readouterr().out)
    assert rows["searxng"].endswith("not configured (set SEARXNG_ENDPOINT or searxng.endpoint)")


def test_providers_says_how_to_use_a_provider_only_explicit_selection_runs(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A keyless mode is had with --provider; its key, where it has one, adds it to the chain."""
    assert main(["providers"]) == EXIT_OK
    _, rows = _table(capsys.readouterr().out)
    assert rows["exa"].endswith(
        "explicit selection only (--provider exa; set EXA_API_KEY to add it to the auto chain)"
    )
    assert rows["public"].endswith("explicit selection only (--provider public)")


def test_providers_names_gemini_s_sign_in_import_beside_its_keys(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Only the keys were named, though `websearch auth import gemini-cli` configures it too."""
    assert main(["providers"]) == EXIT_OK
    _, rows = _table(capsys.readouterr().out)
    assert rows["gemini"].endswith(
        "not configured (set GEMINI_API_KEY or GOOGLE_API_KEY, or run websearch auth import "
        "gemini-cli)"
    )


ESCALATING_ENGINES = ("google", "ecosia", "mojeek")
"""The engines whose blocked pages go to headless Chromium (their ``HtmlEngine.escalation``)."""


def test_the_engines_that_escalate_say_so() -> None:
    escalating = [
        provider_id
        for provider_id in SEARCH_PROVIDER_ORDER
        if get_provider(provider_id).escalates_to_browser
    ]
    assert escalating == list(ESCALATING_ENGINES)


@pytest.mark.parametrize("missing", ["chromium", "playwright"])
def test_providers_says_when_the_browser_fallback_is_missing(
    missing: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    if missing == "chromium":
        absent = tmp_path / "chromium"
        monkeypatch.setenv("WEBSEARCH_CHROMIUM_PATH", str(absent))
        problem = f"no Chromium executable at {absent}"
    else:
        monkeypatch.setenv("WEBSEARCH_CHROMIUM_PATH", sys.executable)  # an executable file
        monkeypatch.setitem(sys.modules, "playwright.async_api", None)
        problem = "the Python package playwright is not installed"
    assert main(["providers"]) == EXIT_OK
    out = capsys.readouterr().out
    _, rows = _table(out)
    for provider_id in ESCALATING_ENGINES:
        assert rows[provider_id].endswith(f"  ready (plain fetch only: {problem})")
    for provider_id in ("duckduckgo", "bing", "yahoo", "startpage"):
        assert rows[provider_id].endswith("  ready")
    assert out.splitlines()[-1] == (
        "Plain fetch only: a page an engine is blocked on is not fetched again in headless "
        'Chromium. Install it with: pip install "websearch-tools[browser]" and apt-get install '
        "chromium (or set WEBSEARCH_CHROMIUM_PATH to a Chromium executable)."
    )
    statuses = asyncio.run(_core_status())
    assert statuses["google"].available
    assert statuses["google"].browser_missing == problem
    assert statuses["bing"].browser_missing is None


@pytest.mark.parametrize(
    "variables",
    [
        {"WEBSEARCH_CHROMIUM_PATH": sys.executable},  # Playwright and an executable: ready
        {"WEBSEARCH_CHROMIUM_PATH": "/nonexistent/chromium", "WEBSEARCH_BROWSER": "off"},
    ],
)
def test_providers_says_ready_when_the_browser_can_start_or_is_off(
    variables: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    assert main(["providers"]) == EXIT_OK
    out = capsys.readouterr().out
    _, rows = _table(out)
    for provider_id in ESCALATING_ENGINES:
        assert rows[provider_id].endswith("  ready")
    assert "Plain fetch only" not in out
    assert out.rstrip().endswith("auth set PROVIDER")


@pytest.mark.parametrize(
    ("variable", "value", "problem"),
    [
        ("WEBSEARCH_EXCLUDE", "brave,nope", "unknown provider id nope (known: "),
        ("WEBSEARCH_PROVIDERS", '["brave", "nope"]', "unknown provider id nope (known: "),
        ("WEBSEARCH_BUDGET__BRAV", "10/day", "unknown provider id brav (known: "),
        ("WEBSEARCH_BRAV_BASE_URL", "http://127.0.0.1:9", "unknown provider id brav (known: "),
        (
            "WEBSEARCH_PROVIDERS",
            '["brave" "exa"]',
            "not a JSON list (Expecting ',' delimiter at character 10); "
            'write the ids as ["brave", "exa"] or brave,exa\n',
        ),
        (
            "WEBSEARCH_EXCLUDE",
            '["brave", 1]',
            'a JSON list of provider ids must hold strings only, as ["brave", "exa"]\n',
        ),
        ("WEBSEARCH_PROVIDER", "bravo", "Unknown search provider: bravo (known: "),
        ("WEBSEARCH_PROVIDER", "Bravo", "Unknown search provider: Bravo (known: "),  # as typed
    ],
)
def test_a_bad_provider_id_or_list_exits_2_naming_the_variable(
    variable: str,
    value: str,
    problem: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv(variable, value)
    assert main(["python"]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert err.startswith(f"websearch: {variable}: {problem}")
    assert err.count("\n") == 1


def test_a_bad_deadline_option_exits_2_naming_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["python", "--deadline", "0"]) == EXIT_USAGE
    assert capsys.readouterr().err == (
        "websearch: deadline_seconds (--deadline): must be more than 0 and at most 900 seconds\n"
    )


def test_a_preferred_provider_without_its_key_is_named_when_another_answers(
    simulate: Simulate, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # --prefer brave (or provider = "brave") with no key: the auto chain answers, as the
    # spec has it, and the command says why Brave did not; it used to say nothing.
    sim = simulate("tavily", "brave")
    monkeypatch.delenv("BRAVE_API_KEY")
    assert main(["python", "--prefer", "brave"]) == EXIT_OK
    out, err = capsys.readouterr()
    assert "[1]" in out
    assert err == (
        "websearch: warning: Brave was preferred but cannot run (no API key: set "
        "BRAVE_API_KEY, or store the key with 'websearch auth set brave'); the auto chain "
        "answered instead\n"
    )
    assert len(sim["brave"].requests) == 0
    monkeypatch.setenv("WEBSEARCH_PROVIDER", "brave")
    assert main(["rust"]) == EXIT_OK
    assert "Brave was preferred but cannot run" in capsys.readouterr().err
