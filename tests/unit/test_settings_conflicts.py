"""Settings that contradict each other: the failure says which, after the spec's text.

Each case was met from the command line: a search failed with ``No web search provider
configured.`` (or one provider's error) and nothing named the settings at fault, or
``fallback = false`` was silently ignored.
"""

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.simulated_environment import route_to_simulator
from websearch_core.cli import EXIT_FAILED, EXIT_OK, EXIT_USAGE, main
from websearch_core.provider_ids import FREE_ENGINE_ORDER
from websearch_core.settings import Settings
from websearch_core.settings_conflicts import settings_conflicts
from websearch_core.testing import Fault, Simulator

FREE = ", ".join(f'"{engine}"' for engine in FREE_ENGINE_ORDER)


@pytest.mark.parametrize(
    ("settings", "expected"),
    [
        ({}, []),
        ({"provider": "brave", "fallback": False}, []),
        ({"providers": ["brave", "tavily"], "exclude": ["google"]}, []),
        (
            {"fallback": False, "providers": ["brave", "tavily"]},
            [
                "fallback = false pins nothing without a provider setting: "
                "providers (brave, tavily) are still tried in turn"
            ],
        ),
        (
            {"fallback": False},
            [
                "fallback = false pins nothing without a provider setting: "
                "the chain still falls back"
            ],
        ),
        (
            {"fallback": False, "provider": "brave", "providers": ["tavily", "brave", "exa"]},
            [
                "fallback = false pins provider = brave alone, "
                "so providers (tavily, exa) are never asked"
            ],
        ),
        (
            {"fallback": False, "provider": "brave", "exclude": ["brave"]},
            ["fallback = false pins provider = brave, which exclude also lists"],
        ),
        (
            {"provider": "brave", "exclude": ["brave"]},
            ["provider = brave is also in exclude, so it is never tried"],
        ),
        (
            {"providers": ["brave", "tavily"], "exclude": ["brave", "tavily"]},
            ["every entry of providers (brave, tavily) is also in exclude"],
        ),
        (
            {"providers": ["brave", "tavily"], "exclude": ["tavily"]},
            ["providers lists tavily, also in exclude, so it is never tried"],
        ),
        (
            {"provider": "public", "exclude": list(FREE_ENGINE_ORDER)},
            [
                "public is chosen, but exclude lists every credential-free engine it asks "
                f"({', '.join(FREE_ENGINE_ORDER)})"
            ],
        ),
    ],
)
def test_each_contradiction_is_named(settings: dict[str, object], expected: list[str]) -> None:
    assert settings_conflicts(Settings(**settings)) == expected  # type: ignore[arg-type]


@pytest.fixture
def brave_down(monkeypatch: pytest.MonkeyPatch) -> Iterator[Simulator]:
    """Brave and Tavily simulated, Brave failing; every other provider excluded."""
    with Simulator(["brave", "tavily"]).running_in_thread() as sim:
        route_to_simulator(monkeypatch, sim)
        for provider_id in ("brave", "tavily"):
            monkeypatch.setenv(f"{provider_id.upper()}_API_KEY", f"sim-key-{provider_id}")
        sim["brave"].always(Fault.server_error(503))
        yield sim


def _configure(text: str) -> None:
    Path(os.environ["WEBSEARCH_CONFIG_FILE"]).write_text(text)


def test_a_pinned_provider_also_excluded_says_why_after_the_spec_text(
    brave_down: Simulator, capsys: pytest.CaptureFixture[str]
) -> None:
    _configure('provider = "brave"\nfallback = false\nexclude = ["brave"]\n')
    assert main(["rust"]) == EXIT_USAGE  # the settings leave nothing to ask
    assert capsys.readouterr().err == (
        "Error: No web search provider configured. The settings contradict: "
        "fallback = false pins provider = brave, which exclude also lists.\n"
        "websearch: 'websearch providers' shows which can run, and why not\n"
    )


def test_a_pinned_provider_failing_says_the_list_it_left_unused(
    brave_down: Simulator, capsys: pytest.CaptureFixture[str]
) -> None:
    _configure('provider = "brave"\nfallback = false\nproviders = ["tavily"]\n')
    assert main(["rust"]) == EXIT_FAILED
    assert capsys.readouterr().err == (
        "Error: Brave API error (503): internal error. The settings contradict: "
        "fallback = false pins provider = brave alone, so providers (tavily) is never asked.\n"
    )


def test_fallback_false_without_a_provider_is_warned_of_when_the_list_falls_back(
    brave_down: Simulator, capsys: pytest.CaptureFixture[str]
) -> None:
    _configure('fallback = false\nproviders = ["brave", "tavily"]\n')
    assert main(["rust"]) == EXIT_OK  # Tavily answered after Brave failed
    assert capsys.readouterr().err == (
        "websearch: warning: the settings contradict: fallback = false pins nothing without "
        "a provider setting: providers (brave, tavily) are still tried in turn\n"
    )


def test_providers_shows_public_without_engines_as_unable_to_run(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _configure(f'provider = "public"\nexclude = [{FREE}]\n')
    assert main(["providers"]) == EXIT_OK
    out, err = capsys.readouterr()
    (row,) = [line for line in out.splitlines() if line.startswith("public ")]
    assert row.endswith("no engine to ask: exclude lists every credential-free engine (preferred)")
    assert err.startswith("websearch: warning: the settings contradict: public is chosen")
