"""Several ids given to a setting that takes one are answered with the setting that takes a list.

``--prefer brave,tavily``, ``WebSearch(provider="brave,tavily")`` and ``run(...,
provider="brave,tavily")`` were refused as one unknown id, every id listed: a first user read
that two ids they knew were wrong, and nothing said that ``providers`` takes the list. The
reference's ``Unknown search provider: ...`` stays first; the advice follows it.
"""

import asyncio
import json
from collections.abc import Iterator

import pytest
from pydantic import ValidationError

from websearch_core import SEARCH_PROVIDER_ORDER, WebSearch
from websearch_core.cli import EXIT_OK, EXIT_USAGE, main
from websearch_core.errors import ConfigurationError
from websearch_core.settings import Settings
from websearch_core.testing import Fault, Simulator

_ADVICE = (
    "; it takes one provider: to ask brave, then tavily, list them in the providers setting "
    "(providers=['brave', 'tavily'], or WEBSEARCH_PROVIDERS=brave,tavily)"
)


@pytest.fixture
def sim(monkeypatch: pytest.MonkeyPatch) -> Iterator[Simulator]:
    """Brave and Tavily on loopback, with keys; every other provider left out."""
    monkeypatch.setenv("WEBSEARCH_STATE_WAIT_SECONDS", "20")  # a loaded machine's store
    with Simulator(["brave", "tavily"]).running_in_thread() as running:
        for pid in ("brave", "tavily"):
            monkeypatch.setenv(f"WEBSEARCH_{pid.upper()}_BASE_URL", running[pid].base_url)
            monkeypatch.setenv(f"{pid.upper()}_API_KEY", f"sim-key-{pid}")
        others = [pid for pid in SEARCH_PROVIDER_ORDER if pid not in ("brave", "tavily")]
        monkeypatch.setenv("WEBSEARCH_EXCLUDE", ",".join(others))
        yield running


@pytest.mark.parametrize("option", ["--prefer", "--provider"])
@pytest.mark.parametrize("given", ["brave,tavily", "brave tavily", "Brave, Tavily"])
def test_the_command_names_the_list_setting_and_searches_nothing(
    sim: Simulator, capsys: pytest.CaptureFixture[str], option: str, given: str
) -> None:
    assert main(["--no-cache", option, given, "rust"]) == EXIT_USAGE
    (error,) = capsys.readouterr().err.splitlines()
    assert error.startswith(f"websearch: provider ({option}): Unknown search provider: {given} ")
    assert error.endswith(_ADVICE)
    assert sim["brave"].requests == sim["tavily"].requests == []


def test_the_setting_the_advice_names_asks_them_in_turn(
    sim: Simulator, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The variable the text names, set as written, asks Brave; Tavily when Brave fails."""
    assert main(["--no-cache", "--prefer", "brave,tavily", "rust"]) == EXIT_USAGE
    variable, value = capsys.readouterr().err.rsplit(", or ", 1)[1].rstrip(")\n").split("=")
    monkeypatch.setenv(variable, value)
    sim["brave"].always(Fault.unauthorized())  # Brave refuses: Tavily is asked next
    assert main(["--no-cache", "--json", "rust"]) == EXIT_OK
    answer = json.loads(capsys.readouterr().out)["response"]
    assert answer["provider"] == "tavily"
    assert [a["provider"] for a in answer["attempts"]] == ["brave", "tavily"]


@pytest.mark.parametrize("given", ["brave,tavily", " brave tavily "])
def test_the_library_names_the_list_setting(given: str) -> None:
    with pytest.raises(ValidationError) as settings_error:
        Settings(provider=given)
    assert f"Unknown search provider: {given.strip()} (known: " in str(settings_error.value)
    assert _ADVICE in str(settings_error.value)
    with pytest.raises(ValidationError) as client_error:
        WebSearch(provider=given)
    assert _ADVICE in str(client_error.value)


def test_a_search_given_several_names_the_list_setting(sim: Simulator) -> None:
    async def search() -> None:
        async with WebSearch() as client:
            await client.run("rust", provider="brave,tavily")

    with pytest.raises(ConfigurationError) as error:
        asyncio.run(search())
    assert str(error.value).startswith("Unknown search provider: brave,tavily (known: ")
    assert str(error.value).endswith(_ADVICE)
    assert sim["brave"].requests == sim["tavily"].requests == []


@pytest.mark.parametrize("given", ["brave,tavly", "bravo", "brave,brave_search"])
def test_an_unknown_id_among_them_keeps_the_text_it_had(given: str) -> None:
    """A guard (passes before and after): with an id no provider has, no list advice."""
    with pytest.raises(ValidationError) as error:
        Settings(provider=given)
    assert "it takes one provider" not in str(error.value)
    assert f"Unknown search provider: {given} (known: " in str(error.value)
