"""An id that names a key but no provider is listed for what it is, wherever ids are listed.

``WEBSEARCH_API_KEYS``'s refusal of an unknown id listed ``known: ..., mojeek, public,
openrouter``: ``openrouter`` read as a search provider, which it is not (no
``--provider openrouter`` exists). It is kept, since a key stored under it is the one
Perplexity falls back to, and now said so: ``...; openrouter names no provider: the key
Perplexity falls back to``. A list of search providers alone names it not at all.
"""

import pytest

from websearch_core import WebSearch
from websearch_core.cli import EXIT_USAGE, main
from websearch_core.errors import ConfigurationError

SAID = "public; openrouter names no provider: the key Perplexity falls back to)"


def _refusal(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(argv) == EXIT_USAGE
    out, err = capsys.readouterr()
    assert out == ""
    return err


def test_a_key_variable_under_no_id_lists_openrouter_for_what_it_is(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Failed before: ``(known: ..., mojeek, public, openrouter); did you mean brave?``."""
    monkeypatch.setenv("WEBSEARCH_API_KEYS__BRAVO", "x")
    err = _refusal(["q"], capsys)
    assert err.startswith("websearch: WEBSEARCH_API_KEYS__BRAVO: unknown provider id bravo")
    assert err.endswith(f", mojeek, {SAID}; did you mean brave?\n")


def test_the_keys_table_variable_lists_it_alike(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Failed before: as above, for ``WEBSEARCH_API_KEYS='{"bravo": "x"}'``."""
    monkeypatch.setenv("WEBSEARCH_API_KEYS", '{"bravo": "x"}')
    assert _refusal(["q"], capsys).endswith(f", mojeek, {SAID}; did you mean brave?\n")


def test_api_keys_in_code_list_it_alike() -> None:
    """Failed before: ``WebSearch(api_keys={"bravo": ...})`` listed ``public, openrouter)``."""
    with pytest.raises(ConfigurationError) as caught:
        WebSearch(api_keys={"bravo": "x"})
    assert str(caught.value).endswith(f", mojeek, {SAID}; did you mean brave?")


def test_guard_a_list_of_providers_alone_never_names_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A guard: ``--provider bravo`` lists search providers, without openrouter."""
    err = _refusal(["q", "--provider", "bravo"], capsys)
    assert err.endswith(", mojeek, public); did you mean brave?\n")
    assert "openrouter" not in err
