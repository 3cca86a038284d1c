"""A mistyped provider id is answered alike wherever it is typed: the id meant, or nothing.

``websearch auth set duckduckgoo`` (a keyless engine's id, mistyped) suggested nothing, and
the refresh hooks and the simulator judged ids by the looser cutoff of setting names.
"""

import io

import pytest

from websearch_core.cli import EXIT_USAGE, main
from websearch_core.provider_ids import did_you_mean
from websearch_core.refresh_hooks import RefreshHookError, load_refresh_hooks
from websearch_core.settings import Settings
from websearch_core.testing import Simulator

_KEY = "sk-typo-test-5f1c2b"
OPENROUTER_SAID = "; openrouter names no provider: the key Perplexity falls back to"
"""How the ids a key is stored under end: the id that is no provider, with what it is for."""


def _no_store() -> bool:
    return not Settings().resolved_credentials_file().exists()


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("duckduckgoo", "duckduckgo"),
        ("publik", "public"),
        ("Codexx", "codex"),
    ],
)
def test_auth_set_names_the_keyless_id_a_typo_meant_and_why_it_takes_no_key(
    typed: str, meant: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Failed before: the list holds only the ids a key is stored under, so nothing was near.
    monkeypatch.setattr("sys.stdin", io.StringIO(_KEY))
    assert main(["auth", "set", typed]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert err.startswith(f"websearch: Unknown search provider: {typed} (known: ")
    hint = err.split("); ", 1)[1]
    assert hint.startswith(f"did you mean {meant}? {meant} takes no API key (")
    assert hint.endswith("); nothing stored\n")
    assert _KEY not in err
    assert _no_store()


def test_auth_set_suggests_a_keyed_id_alone_and_nothing_for_no_near_id(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Guard (passes before and after): a keyed id's typo was suggested already.
    monkeypatch.setattr("sys.stdin", io.StringIO(_KEY))
    assert main(["auth", "set", "bravee"]) == EXIT_USAGE
    assert capsys.readouterr().err.endswith(f"{OPENROUTER_SAID}); did you mean brave?\n")
    assert main(["auth", "set", "altavista"]) == EXIT_USAGE
    assert capsys.readouterr().err.endswith(f"{OPENROUTER_SAID})\n")


@pytest.mark.parametrize("typed", ["serpapi", "exa.ai", "brave_search"])
def test_a_name_of_another_service_or_form_gets_no_guess(typed: str) -> None:
    # Guard (passes before and after): SerpAPI is not Serper, exa.ai is not xAI.
    assert did_you_mean([typed]) == ""


def test_the_simulator_judges_an_id_as_the_settings_do() -> None:
    # Failed before: at the setting names' 0.6 it offered Serper for SerpAPI.
    with pytest.raises(KeyError) as caught:
        Simulator(["serpapi"])
    assert caught.value.args[0].startswith("no simulator protocol for provider 'serpapi' (known:")


def test_a_refresh_hook_entry_is_judged_as_the_settings_judge_an_id() -> None:
    # Failed before: at 0.6, kimi-cli (Kimi's own CLI, no sign-in here) was taken for
    # gemini-cli; a one-letter typo is still named.
    entries = ("anthropic", "codex", "gemini", "gemini-cli", "perplexity")
    with pytest.raises(RefreshHookError) as caught:
        load_refresh_hooks(["kimi-cli=json:loads"], entries)
    assert str(caught.value).endswith("gemini-cli, perplexity)")
    with pytest.raises(RefreshHookError, match=r"; did you mean gemini-cli\?$"):
        load_refresh_hooks(["gemini-clj=json:loads"], entries)
