"""The README's Configuration, Python and Retrievers sections, claim by claim, held to the code.

Those sections quote some thirty texts a mistake is answered with and state the order
settings and keys are read in; ``test_readme_defaults`` held their numbers, nothing held
their words. Each quote is read from the README (its ``...`` standing for what it leaves
out) and matched against what the code says when the mistake is made: through the command
line's ``main``, the settings, or a search on the loopback simulator. The precedence rules
are played with a value set in every place, then removed place by place. One failed before
its change: the search parameter's note, which said "its option on the command line
(websearch --help)" where the README quotes ``--limit``; the README's elided quote of the
unquoted budget (``must be text in quotes, as in ...``, the code's text holds a parenthesis
between) was corrected. The rest are guards.
"""

import json
import logging
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from pydantic import ValidationError

from websearch_core import WebSearch
from websearch_core.cli import EXIT_OK, EXIT_USAGE, main
from websearch_core.settings import Settings
from websearch_core.settings_errors import describe_settings_error
from websearch_core.testing import Simulator
from websearch_core.testing.faults import Fault

README = Path(__file__).resolve().parents[2] / "README.md"
KEY = "BSAq1w2e3r4t5y6u7i8o9p0aSdFgHjKlZx"
"""A key in Brave's shape that no check refuses."""


def _prose() -> str:
    """The README with its line breaks and runs of spaces joined."""
    return " ".join(README.read_text(encoding="utf-8").split())


def _pattern(quote: str) -> str:
    """``quote`` as a pattern: its ``...`` stands for any text, the rest is literal."""
    return ".*?".join(re.escape(part) for part in quote.split("..."))


def _holds(quote: str, said: str) -> None:
    """The README quotes ``quote``, and ``said`` is what it quotes."""
    assert f"`{quote}" in _prose() or quote in _prose(), f"the README no longer says {quote!r}"
    assert re.search(_pattern(quote), " ".join(said.split()), re.S), (quote, said)


def _cli(args: list[str], capsys: pytest.CaptureFixture[str], status: int | None = None) -> str:
    """What ``websearch <args>`` writes (both streams), its exit status checked if given."""
    code = main(args)
    if status is not None:
        assert code == status
    out, err = capsys.readouterr()
    return out + err


def _settings_error(make: Callable[[], object]) -> str:
    """The one line the CLI and the tools give for the settings ``make`` builds."""
    with pytest.raises(ValidationError) as raised:
        make()
    return describe_settings_error(raised.value)


@pytest.fixture
def config(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """The config file the settings read (the isolated environment names it)."""
    path = tmp_path / "config.toml"
    monkeypatch.setenv("WEBSEARCH_CONFIG_FILE", str(path))
    return path


# --- Values and mistakes ---------------------------------------------------------------


def test_a_name_no_setting_has_is_refused_with_the_one_meant(
    config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A guard: in code and in the file, ``timeout`` is answered with ``timeout_seconds``."""
    _holds(
        "timeout: not a setting; did you mean timeout_seconds?",
        _settings_error(lambda: WebSearch(timeout=5)),  # type: ignore[call-arg]
    )
    config.write_text("timeout = 5\n")
    said = _cli(["providers"], capsys, EXIT_USAGE)
    _holds("config file ... (timeout): not a setting; did you mean timeout_seconds?", said)


def test_an_unknown_provider_is_named_by_where_it_was_set(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A guard: the variable, or the option with the setting it sets."""
    monkeypatch.setenv("WEBSEARCH_PROVIDER", "bravo")
    said = _cli(["providers"], capsys, EXIT_USAGE)
    _holds("WEBSEARCH_PROVIDER: Unknown search provider: bravo (known: ...)", said)
    monkeypatch.delenv("WEBSEARCH_PROVIDER")
    _holds("provider (--prefer): ...", _cli(["--prefer", "bravo", "q"], capsys, EXIT_USAGE))
    _holds("provider (--provider): ...", _cli(["--provider", "bravo", "q"], capsys, EXIT_USAGE))


def test_ids_given_together_are_told_where_a_list_goes(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A guard: several ids for ``provider``, ids run together in ``providers``."""
    quote = (
        "...; it takes one provider: to ask brave, then tavily, list them in the providers "
        "setting (providers=['brave', 'tavily'], or WEBSEARCH_PROVIDERS=brave,tavily)"
    )
    _holds(quote, _settings_error(lambda: Settings(provider="brave tavily")))
    _holds(quote, _cli(["--prefer", "brave,tavily", "q"], capsys, EXIT_USAGE))
    together = "brave tavily holds 2 ids: separate them with commas, as brave,tavily"
    monkeypatch.setenv("WEBSEARCH_PROVIDERS", "brave tavily")
    _holds(together, _cli(["providers"], capsys, EXIT_USAGE))
    monkeypatch.setenv("WEBSEARCH_PROVIDERS", "brave;tavily")
    said = _cli(["providers"], capsys, EXIT_USAGE)
    assert "brave;tavily holds 2 ids: separate them with commas, as brave,tavily" in said


@pytest.mark.parametrize("written", ["[brave]\napi_key = 'x'\n", "brave = 'x'\n"])
def test_a_provider_written_as_a_setting_is_told_where_its_entries_go(
    written: str, config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A guard: a ``[brave]`` table and ``brave = ...`` alike."""
    config.write_text(written)
    quote = (
        "not a setting; brave is a provider: its key (if it takes one), URL and limits go in "
        '[api_keys], [base_urls], [budget] and [rate] as brave = "..." ...'
    )
    _holds(quote, _cli(["providers"], capsys, EXIT_USAGE))


def test_an_unquoted_table_entry_is_shown_the_form_it_takes(
    config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Failed before on the README: it quoted ``must be text in quotes, as in ...`` without
    the code's parenthesis between, so the words it showed were never said."""
    config.write_text("[budget]\nbrave = 2000\n")
    quote = 'must be text in quotes (a count and its period, ...), as in brave = "2000/month"'
    _holds(quote, _cli(["providers"], capsys, EXIT_USAGE))


def test_a_search_parameter_as_a_setting_names_run_and_its_option(
    config: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Failed before: the note said "its option on the command line (websearch --help)",
    where the README quotes ``--limit``; the file's entry and the variable alike."""
    quote = "run(..., limit=...), or --limit on the command line"
    config.write_text("limit = 5\n")
    _holds(quote, _cli(["providers"], capsys, EXIT_USAGE))
    config.write_text("")
    monkeypatch.setenv("WEBSEARCH_LIMIT", "5")
    _holds(quote, _cli(["providers"], capsys))


def test_a_variable_that_sets_nothing_and_a_key_nothing_reads_are_named(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A guard: the three warnings the section quotes, each with the name meant."""
    monkeypatch.setenv("WEBSEARCH_TIMEOUT", "5")
    monkeypatch.setenv("BRAVE_SEARCH_API_KEY", KEY)
    said = _cli(["providers"], capsys)
    _holds(
        "websearch: warning: WEBSEARCH_TIMEOUT sets nothing and is ignored; did you mean "
        "WEBSEARCH_TIMEOUT_SECONDS?",
        said,
    )
    _holds(
        "websearch: warning: BRAVE_SEARCH_API_KEY is set, but nothing reads it: Brave reads "
        "its key from BRAVE_API_KEY",
        said,
    )
    monkeypatch.delenv("BRAVE_SEARCH_API_KEY")
    monkeypatch.setenv("BRAVE_API_KYE", KEY)
    assert "BRAVE_API_KYE is set, but nothing reads it" in _cli(["providers"], capsys)
    assert "`BRAVE_API_KYE` too" in _prose()


def test_contradicting_settings_are_named_after_the_spec_s_words(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A guard: a pin that ``exclude`` also lists, in a failure and as a warning."""
    monkeypatch.setenv("WEBSEARCH_FALLBACK", "false")
    monkeypatch.setenv("WEBSEARCH_PROVIDER", "brave")
    monkeypatch.setenv("WEBSEARCH_EXCLUDE", "brave")
    quote = (
        "No web search provider configured. The settings contradict: fallback = false pins "
        "provider = brave, which exclude also lists."
    )
    _holds(quote, _cli(["q"], capsys))
    assert "websearch: warning: the settings contradict" in _cli(["providers"], capsys)


def test_a_utf16_config_file_is_refused_by_name(
    config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A guard: Notepad's "Unicode" is named, with the fix."""
    config.write_bytes('provider = "brave"\n'.encode("utf-16"))
    quote = "config file ... is saved as UTF-16; save it as UTF-8"
    _holds(quote, _cli(["providers"], capsys, EXIT_USAGE))


# --- Keys and sign-ins -----------------------------------------------------------------


def test_a_key_s_variable_given_as_an_id_is_refused_with_the_id_meant(
    config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A guard: ``auth set BRAVE_API_KEY`` (exit 2), ``[api_keys]`` and ``api_keys=``."""
    said = _cli(["auth", "set", "BRAVE_API_KEY"], capsys, EXIT_USAGE)
    assert "BRAVE_API_KEY" in said
    _holds("did you mean brave?", said)
    _holds("did you mean brave?", _cli(["auth", "remove", "brav"], capsys, EXIT_USAGE))
    config.write_text(f'[api_keys]\nBRAVE_API_KEY = "{KEY}"\nGOOGLE_API_KEY = "{KEY}"\n')
    said = _cli(["providers"], capsys, EXIT_USAGE)
    assert "(api_keys.BRAVE_API_KEY): unknown provider id" in said
    assert "did you mean brave?" in said and "did you mean gemini?" in said
    config.write_text("")
    with pytest.raises(Exception, match=r"did you mean gemini\?"):
        WebSearch(api_keys={"GOOGLE_API_KEY": KEY})


def test_settings_built_in_python_name_the_id_a_key_s_variable_meant(config: Path) -> None:
    """Failed before: ``Settings()`` raised pydantic's error with every id and no id meant.

    A config file's ``[api_keys] BRAVE_API_KEY = ...`` (copied from a ``.env`` file) and
    ``Settings(api_keys={"GOOGLE_API_KEY": ...})`` in a program that reads the error
    itself, not through the command's or the tools' rewording.
    """
    config.write_text(f'[api_keys]\nBRAVE_API_KEY = "{KEY}"\n')
    with pytest.raises(
        ValidationError, match=r"unknown provider id BRAVE_API_KEY .*; did you mean brave\?"
    ):
        Settings()
    config.write_text("")
    with pytest.raises(ValidationError, match=r"did you mean gemini\?") as raised:
        Settings(api_keys={"GOOGLE_API_KEY": KEY})
    assert KEY not in str(raised.value)


def test_a_placeholder_in_a_variable_makes_its_provider_misconfigured(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A guard: the README's ``...`` and a variable holding its own name."""
    monkeypatch.setenv("BRAVE_API_KEY", "...")
    said = _cli(["providers"], capsys)
    _holds("is a placeholder, not a key", said)
    _holds("set BRAVE_API_KEY to your Brave API key, or unset it", said)
    monkeypatch.setenv("BRAVE_API_KEY", "BRAVE_API_KEY")
    _holds("the variable holds its own name", _cli(["providers"], capsys))


def test_a_key_pasted_into_another_provider_s_variable_is_named_in_its_refusal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A guard: Brave refusing a Tavily key says whose key it looks like."""
    monkeypatch.setenv("BRAVE_API_KEY", "tvly-AbCdEfGh12345678AbCdEfGh1234")
    with Simulator(["brave"]).running_in_thread() as sim:
        sim["brave"].always(Fault.unauthorized())
        settings = Settings(base_urls=sim.base_urls(), provider="brave", fallback=False)
        result = WebSearch(settings=settings, state_backend="memory").run_sync("python")
    quote = (
        "The key in BRAVE_API_KEY looks like a Tavily key (tvly-...); Tavily's is read from "
        "TAVILY_API_KEY."
    )
    _holds(quote, result.text)
    assert "AbCdEfGh" not in result.text  # nothing past the prefix


@pytest.fixture
def brave_sim(monkeypatch: pytest.MonkeyPatch) -> Iterator[Simulator]:
    """Brave alone on loopback, every other provider left out, state in memory."""
    with Simulator(["brave"]).running_in_thread() as sim:
        monkeypatch.setenv("WEBSEARCH_BRAVE_BASE_URL", sim["brave"].base_url)
        monkeypatch.setenv("WEBSEARCH_PROVIDERS", "brave")
        monkeypatch.setenv("WEBSEARCH_STATE_BACKEND", "memory")
        yield sim


def _sent_key(sim: Simulator, **overrides: object) -> str:
    """The key Brave was sent by one search with ``overrides``."""
    WebSearch(**overrides).run_sync("python", use_cache=False)  # type: ignore[arg-type]
    sent: str = sim["brave"].requests[-1].headers["X-Subscription-Token"]
    return sent


def test_keys_are_looked_up_in_the_order_the_readme_gives(
    brave_sim: Simulator,
    config: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A guard: ``api_keys=``, then the variable, then ``[api_keys]``, then the store."""
    assert (
        "API keys are looked up in this order: `WebSearch(api_keys={...})`, the provider's "
        "environment variables, `[api_keys]` in the config file, then the local credential "
        "store." in _prose()
    )
    keys = [KEY[:-1] + last for last in "ABCD"]
    monkeypatch.setattr("sys.stdin", _Stdin(keys[3]))
    _cli(["auth", "set", "brave"], capsys, 0)
    config.write_text(f'[api_keys]\nbrave = "{keys[2]}"\n')
    monkeypatch.setenv("BRAVE_API_KEY", keys[1])
    assert _sent_key(brave_sim, api_keys={"brave": keys[0]}) == keys[0]
    assert _sent_key(brave_sim) == keys[1]
    monkeypatch.delenv("BRAVE_API_KEY")
    assert _sent_key(brave_sim) == keys[2]
    config.write_text("")
    assert _sent_key(brave_sim) == keys[3]


class _Stdin:
    """A piped standard input holding one key, as ``websearch auth set brave < key.txt``."""

    def __init__(self, text: str) -> None:
        self._lines = [f"{text}\n"]

    def isatty(self) -> bool:
        return False

    def readline(self) -> str:
        return self._lines.pop(0) if self._lines else ""

    def read(self) -> str:
        text = "".join(self._lines)
        self._lines = []
        return text


def test_settings_are_read_from_the_first_place_that_sets_them(
    config: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A guard: keyword, then variable, then file, then default; a blank variable is unset."""
    default = Settings.model_fields["deadline_seconds"].default
    config.write_text("deadline_seconds = 70\n")
    monkeypatch.setenv("WEBSEARCH_DEADLINE_SECONDS", "80")
    assert Settings(deadline_seconds=90).deadline_seconds == 90
    assert Settings().deadline_seconds == 80
    monkeypatch.setenv("WEBSEARCH_DEADLINE_SECONDS", " ")  # a .env template's blank line
    assert Settings().deadline_seconds == 70
    config.write_text("")
    assert Settings().deadline_seconds == default
    monkeypatch.setenv("WEBSEARCH_PROVIDER", "auto")
    assert Settings().provider is None  # `auto` for none


def test_each_setting_s_variable_is_its_name_in_capitals(monkeypatch: pytest.MonkeyPatch) -> None:
    """A guard: ``timeout_seconds`` is ``WEBSEARCH_TIMEOUT_SECONDS``, and so for each number."""
    checked = 0
    for name, field in Settings.model_fields.items():
        if field.annotation not in (float, float | None, int):
            continue
        checked += 1
        least = max([7, *(getattr(rule, "ge", 0) or 0 for rule in field.metadata)])
        monkeypatch.setenv(f"WEBSEARCH_{name.upper()}", str(least))
        assert getattr(Settings(), name) == least, name
        monkeypatch.delenv(f"WEBSEARCH_{name.upper()}")
    assert checked >= 8  # every number the settings hold, not none of them


def test_one_entry_of_an_object_variable_is_set_on_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A guard: ``WEBSEARCH_BUDGET__BRAVE`` and ``WEBSEARCH_SEARXNG__ENDPOINT``; bad JSON named."""
    monkeypatch.setenv("WEBSEARCH_BUDGET__BRAVE", "2000/month")
    monkeypatch.setenv("WEBSEARCH_SEARXNG__ENDPOINT", "https://searx.example.org")
    settings = Settings()
    assert settings.budget == {"brave": "2000/month"}
    assert settings.searxng.endpoint == "https://searx.example.org"
    monkeypatch.setenv("WEBSEARCH_RATE", "{brave")
    assert "WEBSEARCH_RATE: not valid JSON" in _settings_error(Settings)


def test_an_unusable_state_directory_is_warned_of_by_what_set_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A guard: a file where the directory should be; the search goes on without the store."""
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("WEBSEARCH_STATE_DIR", str(blocker))
    with Simulator(["brave"]).running_in_thread() as sim, caplog.at_level(logging.WARNING):
        settings = Settings(base_urls=sim.base_urls(), providers=["brave"], state_backend="sqlite")
        result = WebSearch(settings=settings, api_keys={"brave": KEY}).run_sync("python")
    assert result.error is None
    quote = "... failed: NotADirectoryError: ...; its directory is set by WEBSEARCH_STATE_DIR"
    _holds(quote, caplog.text)


# --- Python ----------------------------------------------------------------------------


def test_the_python_section_s_refusals_are_the_code_s() -> None:
    """A guard: a settings object given as a string, and another API's parameter names."""
    with pytest.raises(TypeError) as raised:
        WebSearch("brave")  # type: ignore[arg-type]
    quote = (
        "settings must be a websearch_core.Settings, not str; to choose a provider pass "
        "provider=..."
    )
    _holds(quote, str(raised.value))
    found = re.search(r"answered with the one that does its job \((?P<pairs>[^)]*)\)", _prose())
    assert found
    pairs = re.findall(r"((?:`\w+`(?:,| and)? ?)+): `(\w+)`", found["pairs"])
    assert len(pairs) == 5
    ws = WebSearch()
    for names, meant in pairs:
        for name in re.findall(r"`(\w+)`", names):
            with pytest.raises(ValidationError, match=rf"did you mean {meant}\?"):
                ws.run_sync("q", **{name: 3})


# --- Proxies, gateways and offline -----------------------------------------------------


@pytest.mark.parametrize(
    ("environment", "proxy"),
    [
        ({"HTTPS_PROXY": "http://upper:3128", "https_proxy": "http://lower:3128"}, "lower"),
        ({"HTTPS_PROXY": "http://upper:3128", "https_proxy": ""}, None),
        ({"HTTPS_PROXY": "http://upper:3128", "https_proxy": "  "}, None),
        ({"HTTPS_PROXY": "", "https_proxy": "http://lower:3128"}, "lower"),
        ({"HTTPS_PROXY": " ", "https_proxy": "http://lower:3128"}, "lower"),
        ({"ALL_PROXY": "http://all:3128", "all_proxy": "http://all:3128"}, None),
    ],
)
def test_the_proxy_variables_are_read_as_the_readme_says(
    environment: dict[str, str], proxy: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Five guards, and one that failed before on the README: the lowercase name first, a
    blank one names no proxy (spaces too), a blank upper-case one leaves the lowercase in
    force; ``all_proxy``, which the README listed as read like the others, is not used for
    a request (as aiohttp does not use it)."""
    from websearch_core.env_proxies import EnvironmentProxies

    prose = _prose()
    assert "a blank `https_proxy` turns `HTTPS_PROXY` off" in prose
    assert "`all_proxy` (either case) is not used for the requests" in prose
    for name in ("http_proxy", "https_proxy", "all_proxy", "no_proxy"):
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.upper(), raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    found = EnvironmentProxies(lambda secrets: None).for_url("https://api.search.brave.com/")
    assert found == (None if proxy is None else f"http://{proxy}:3128")


# --- Keys and sign-ins: the store and when a key counts ---------------------------------


def test_a_key_exported_after_the_client_was_made_counts_trimmed_and_blank_is_unset(
    brave_sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A guard: a client made without Brave's key asks Brave once it is exported; the
    ``\\r\\n`` a Windows ``.env`` leaves is dropped; a blank variable counts as unset."""
    ws = WebSearch()
    assert ws.run_sync("before").text.startswith("Error: No web search provider configured.")
    monkeypatch.setenv("BRAVE_API_KEY", f"{KEY}\r\n")
    assert ws.run_sync("after").text.startswith("[1] ")
    assert brave_sim["brave"].requests[-1].headers["X-Subscription-Token"] == KEY
    monkeypatch.setenv("BRAVE_API_KEY", "")
    blank = WebSearch().run_sync("blank").text
    assert blank.startswith("Error: No web search provider configured.")
    assert "misconfigured" not in blank  # unset, not a key that cannot work


def test_cache_false_asks_the_provider_again(
    brave_sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A guard: "`cache = false` switches it off"; on, a repeated query is served from it."""
    monkeypatch.setenv("BRAVE_API_KEY", KEY)
    for cache, asked in ((False, 2), (True, 1)):
        before = len(brave_sim["brave"].requests)
        ws = WebSearch(cache=cache)
        ws.run_sync(f"same {cache}")
        ws.run_sync(f"same {cache}")
        assert len(brave_sim["brave"].requests) - before == asked


def test_the_credential_store_is_private_locked_and_warns_when_outranked(
    tmp_path: Path,
    config: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A guard: mode 0600 and a ``.lock`` beside it; a warning when a variable or the
    ``api_keys`` setting outranks the stored key; a 0644 copy warns with ``chmod 600`` and
    the next ``auth set`` writes it back 0600; a link stays a link; a BOM is dropped."""
    store = tmp_path / "credentials.json"
    monkeypatch.setenv("WEBSEARCH_CREDENTIALS_FILE", str(store))
    monkeypatch.setattr("sys.stdin", _Stdin(f"\ufeff{KEY}"))
    _cli(["auth", "set", "brave"], capsys, 0)
    assert store.stat().st_mode & 0o777 == 0o600
    assert (tmp_path / "credentials.json.lock").exists()
    assert KEY in store.read_text(encoding="utf-8")  # the byte order mark dropped
    monkeypatch.setenv("BRAVE_API_KEY", KEY)
    monkeypatch.setattr("sys.stdin", _Stdin(KEY))
    said = _cli(["auth", "set", "brave"], capsys, 0)
    assert "BRAVE_API_KEY holds a key for brave too, and it is used before the stored" in said
    monkeypatch.delenv("BRAVE_API_KEY")
    config.write_text(f'[api_keys]\nbrave = "{KEY}"\n')
    monkeypatch.setattr("sys.stdin", _Stdin(KEY))
    said = _cli(["auth", "set", "brave"], capsys, 0)
    assert "the api_keys setting" in said and "used before the stored one" in said
    config.write_text("")
    store.chmod(0o644)
    said = _cli(["auth", "list"], capsys, 0)
    assert "brave" in said and f"chmod 600 {store}" in said
    real = tmp_path / "real.json"
    store.rename(real)
    store.symlink_to(real)
    monkeypatch.setattr("sys.stdin", _Stdin(KEY))
    _cli(["auth", "set", "brave"], capsys, 0)
    assert store.is_symlink() and real.stat().st_mode & 0o777 == 0o600
    store.unlink()
    store.write_text("")
    assert "No stored API keys" in _cli(["auth", "list"], capsys, 0)  # empty: no keys


# --- Providers and fallback ------------------------------------------------------------


@pytest.fixture
def two(monkeypatch: pytest.MonkeyPatch) -> Iterator[Simulator]:
    """Brave and DuckDuckGo on loopback (Brave first in the table), the rest left out."""
    with Simulator(["brave", "duckduckgo"]).running_in_thread() as sim:
        for provider, url in sim.base_urls().items():
            monkeypatch.setenv(f"WEBSEARCH_{provider.upper()}_BASE_URL", url)
        monkeypatch.setenv("BRAVE_API_KEY", sim.api_keys()["brave"])
        monkeypatch.setenv("WEBSEARCH_STATE_BACKEND", "memory")
        yield sim


def _asked(sim: Simulator, monkeypatch: pytest.MonkeyPatch, **variables: str) -> list[str]:
    """Which of the simulator's providers one search asked, in order, under ``variables``."""
    from websearch_core import SEARCH_PROVIDER_ORDER

    others = [pid for pid in SEARCH_PROVIDER_ORDER if pid not in sim.providers]
    excluded = [*others, *variables.pop("EXCLUDE", "").split(",")]
    monkeypatch.setenv("WEBSEARCH_EXCLUDE", ",".join(filter(None, excluded)))
    for name, value in variables.items():
        monkeypatch.setenv(f"WEBSEARCH_{name}", value)
    result = WebSearch().run_sync("python", use_cache=False)
    for name in variables:
        monkeypatch.delenv(f"WEBSEARCH_{name}")
    return [attempt.provider for attempt in result.response.attempts] if result.response else []


def test_prefer_list_pin_and_exclude_do_what_the_section_says(
    two: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A guard: the table's order by default; a preferred one first, then the chain; a
    list exactly; a pin never switched from; an excluded one never used as a fallback."""
    assert _asked(two, monkeypatch) == ["brave"]
    assert _asked(two, monkeypatch, PROVIDER="duckduckgo") == ["duckduckgo"]
    two["duckduckgo"].always(Fault(kind="status", status=500))
    assert _asked(two, monkeypatch, PROVIDER="duckduckgo") == ["duckduckgo", "brave"]
    assert _asked(two, monkeypatch, PROVIDER="duckduckgo", FALLBACK="false") == ["duckduckgo"]
    assert len(two["brave"].requests) == 2  # the pin's failure is the answer
    two["duckduckgo"].always(None)
    two["brave"].always(Fault(kind="status", status=500))
    assert _asked(two, monkeypatch, PROVIDERS="duckduckgo,brave") == ["duckduckgo"]
    asked_before = len(two["duckduckgo"].requests)
    assert _asked(two, monkeypatch, EXCLUDE="duckduckgo") == ["brave"]
    assert len(two["duckduckgo"].requests) == asked_before  # not even as a fallback


# --- Python ----------------------------------------------------------------------------


def test_the_typed_keywords_and_errors_the_python_section_names_are_importable() -> None:
    """A guard: each ``TypedDict`` from ``websearch_core``, each error from its one tree."""
    import websearch_core
    from websearch_core import errors

    for name in ("SettingsOverrides", "SearchOptions", "FetchOptions", "FetchManyOptions"):
        assert f"`{name}`" in _prose() and hasattr(websearch_core, name), name
    assert hasattr(websearch_core, "WebSearchOptions")
    for name in (
        "RateLimitedError",
        "QuotaExhaustedError",
        "CreditsSpentError",
        "AuthorizationError",
        "ChallengeError",
        "ProviderTimeoutError",
    ):
        assert issubclass(getattr(errors, name), errors.WebSearchError), name
    assert issubclass(errors.CreditsSpentError, errors.QuotaExhaustedError)
    assert issubclass(errors.NoProviderCanRunError, errors.AllProvidersFailedError)


def test_search_raises_no_provider_errors_as_the_section_says(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A guard: nothing configured is ``NoProviderConfiguredError``; each provider chosen
    lacking its setup is ``NoProviderCanRunError``, an ``AllProvidersFailedError`` too."""
    from websearch_core import SEARCH_PROVIDER_ORDER
    from websearch_core.errors import (
        AllProvidersFailedError,
        NoProviderCanRunError,
        NoProviderConfiguredError,
    )

    monkeypatch.setenv("WEBSEARCH_STATE_BACKEND", "memory")
    monkeypatch.setenv("WEBSEARCH_PROVIDERS", "brave")
    with pytest.raises(NoProviderCanRunError) as raised:
        WebSearch().search_sync("q")
    assert isinstance(raised.value, AllProvidersFailedError)
    monkeypatch.delenv("WEBSEARCH_PROVIDERS")
    monkeypatch.setenv("WEBSEARCH_EXCLUDE", ",".join(SEARCH_PROVIDER_ORDER))
    with pytest.raises(NoProviderConfiguredError):
        WebSearch().search_sync("q")


def test_the_interrupt_wait_is_the_worker_s() -> None:
    """A guard: "past 5 s a warning names the thread" is the worker's clean-up wait."""
    from websearch_core.loop_worker import _CLEAN_UP_WAIT_SECONDS

    found = re.search(r"past (?P<n>\d+) s a warning names the thread", _prose())
    assert found and float(found["n"]) == _CLEAN_UP_WAIT_SECONDS


def test_a_token_is_renewed_within_the_margins_the_section_states() -> None:
    """A guard: "within 60 s of expiry (Perplexity: 5 minutes ...)"."""
    from websearch_core.credentials import EXPIRY_SKEW_SECONDS
    from websearch_core.providers.perplexity import OAUTH_MIN_LIFETIME

    found = re.search(r"within (?P<s>\d+) s of expiry \(Perplexity: (?P<m>\d+) minutes", _prose())
    assert found
    assert float(found["s"]) == EXPIRY_SKEW_SECONDS
    assert float(found["m"]) * 60 == OAUTH_MIN_LIFETIME


def test_an_unreadable_credential_store_is_said_as_the_section_quotes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A guard: the listing exits 0, each row the file costs names it, and each fix names
    how that provider's own key or sign-in is stored again (brave's, codex's)."""
    store = tmp_path / "credentials.json"
    store.mkdir()  # a directory where the file should be: cannot be read
    monkeypatch.setenv("WEBSEARCH_CREDENTIALS_FILE", str(store))
    monkeypatch.setenv("WEBSEARCH_STATE_BACKEND", "memory")
    said = _cli(["providers"], capsys, EXIT_OK)
    _holds(
        "not available: its key or sign-in would come from the unreadable credential store",
        said,
    )
    listing = json.loads(_cli(["providers", "--json"], capsys, EXIT_OK).split("\nwebsearch:")[0])
    assert listing["credential_store_problem"]
    advice = {row["id"]: row["advice"] for row in listing["providers"]}
    _holds("store brave's key again with 'websearch auth set brave'", advice["brave"])
    _holds(
        'store codex\'s OAuth token again from Python with CredentialStore.set_oauth("codex", ...)',
        advice["codex"],
    )


_KEY_VARIABLES = {
    "Tavily": ("tavily", "TAVILY_API_KEY", "tvly-"),
    "xAI": ("xai", "XAI_API_KEY", ""),
    "Z.AI": ("zai", "ZAI_API_KEY", ""),
    "Jina": ("jina", "JINA_API_KEY", ""),
    "Kagi": ("kagi", "KAGI_API_KEY", ""),
    "Kimi": ("kimi", "MOONSHOT_SEARCH_API_KEY", ""),
    "Synthetic": ("synthetic", "SYNTHETIC_API_KEY", ""),
    "Firecrawl": ("firecrawl", "FIRECRAWL_API_KEY", "fc-"),
    "Brave": ("brave", "BRAVE_API_KEY", ""),
    "Exa": ("exa", "EXA_API_KEY", ""),
    "Serper": ("serper", "SERPER_API_KEY", ""),
    "Parallel": ("parallel", "PARALLEL_API_KEY", ""),
}
"""Providers taking a key from a variable: the README's bearer-only ones and some that send
their key in a header of its own (Brave, Exa, Serper, Parallel), which a URL's user info
leaves alone."""


def test_a_url_s_user_info_is_refused_for_exactly_the_providers_the_section_names(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A guard: each provider the section lists as having no other header is
    ``misconfigured:`` saying so; one sending its key in a header of its own is ready."""
    found = re.search(r"Providers with none \((?P<names>[^)]*)\) say so", _prose())
    assert found
    named = set(found["names"].split(", "))
    assert named - set(_KEY_VARIABLES) == {"Codex", "SearXNG"}  # a sign-in, an endpoint
    suffix = "AbCdEfGh12345678AbCdEfGh12345678"
    urls = {}
    for provider_id, variable, prefix in _KEY_VARIABLES.values():
        monkeypatch.setenv(variable, prefix + suffix)
        urls[provider_id] = "https://user:pw@gw.example"
    monkeypatch.setenv("WEBSEARCH_BASE_URLS", json.dumps(urls))
    monkeypatch.setenv("WEBSEARCH_STATE_BACKEND", "memory")
    rows = {row.split()[0]: row for row in _cli(["providers"], capsys).splitlines() if row}
    for label, (provider_id, _, _) in _KEY_VARIABLES.items():
        refused = f"{label} sends no credential in another header" in rows[provider_id]
        assert refused is (label in named), rows[provider_id]
        assert "user:pw" not in rows[provider_id]  # the password never shown


@pytest.mark.parametrize(
    "placeholder",
    [
        "...",
        "sk-...",
        "***",
        "<your-key>",
        "YOUR_KEY",
        "api_key_here",
        "changeme",
        "TODO",
        "REPLACE_ME",
        "xxx",
        "API_KEY",
        "YOURKEY",
        "None",
        "null",
        "$BRAVE_API_KEY",
    ],
)
def test_each_placeholder_the_section_lists_is_refused_as_one(placeholder: str) -> None:
    """A guard: each value the README lists is refused in ``[api_keys]`` as a placeholder."""
    assert f"`{placeholder}`" in _prose()
    with pytest.raises(ValidationError, match="is a placeholder, not a key"):
        Settings(api_keys={"brave": placeholder})


@pytest.mark.parametrize(
    ("key", "named"),
    [
        ("BSAq1w2\u0430e3r4t5y6u7i8o9p0aSdFgHjKlZx", "a Cyrillic letter at character 8"),
        ("BSAq1w2\uff22e3r4t5y6u7i8o9p0aSdFgHjKlZx", "a fullwidth letter at character 8"),
        ("BSAq1w2\u200be3r4t5y6u7i8o9p0aSdFgHjKlZx", "an invisible character"),
        ("BSAq1w2\u00a0e3r4t5y6u7i8o9p0aSdFgHjKlZx", "an invisible character"),
        ("BSAq1w2 e3r4t5y6u7i8o9p0aSdFgHjKlZx", "a space"),
        (f'BRAVE_API_KEY="{KEY}"', "a variable's name and an equals sign"),
        (f'"{KEY}"', "a quote mark"),
        ('""', "only quote marks"),
    ],
)
def test_each_shape_no_key_has_is_refused_by_kind_and_place(key: str, named: str) -> None:
    """A guard: named by kind (and place, for a look-alike letter), never the value."""
    with pytest.raises(ValidationError) as raised:
        Settings(api_keys={"brave": key})
    assert named in str(raised.value)
    assert "a Cyrillic letter at character" in _prose()


def test_use_cache_false_asks_again_and_failures_stay_out_of_the_metadata(
    brave_sim: Simulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A guard: a repeated query is served from the cache, ``use_cache=False`` asks again;
    a failed ``run()`` keeps ``ProviderFailure(provider, error)`` in ``result.failures``,
    not in ``to_metadata()``, which keeps the spec's details."""
    monkeypatch.setenv("BRAVE_API_KEY", KEY)
    ws = WebSearch()
    ws.run_sync("same")
    asked = len(brave_sim["brave"].requests)
    ws.run_sync("same")
    assert len(brave_sim["brave"].requests) == asked
    ws.run_sync("same", use_cache=False)
    assert len(brave_sim["brave"].requests) == asked + 1
    brave_sim["brave"].always(Fault(kind="status", status=500))
    result = ws.run_sync("failing")
    assert result.text.startswith("Error: ") and result.error
    ((provider, error),) = [(f.provider, f.error) for f in result.failures]
    assert provider == "brave" and error in result.error
    assert set(result.to_metadata()) == {"response", "error"}


# --- State and cache -------------------------------------------------------------------


def test_state_dir_is_expanded_and_a_relative_one_is_the_file_s(
    tmp_path: Path, config: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A guard: ``~``, ``$VAR`` and ``${VAR}`` expanded, an unset one refused; a relative
    ``state_dir`` or ``credentials_file`` in the file taken from the file's directory."""
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("AGENT_HOME", str(tmp_path / "agent"))
    for written, expected in [
        ("~/state", tmp_path / "state"),
        ("$AGENT_HOME/state", tmp_path / "agent" / "state"),
        ("${AGENT_HOME}/state", tmp_path / "agent" / "state"),
    ]:
        monkeypatch.setenv("WEBSEARCH_STATE_DIR", written)
        assert Settings().state_dir == expected
    monkeypatch.setenv("WEBSEARCH_STATE_DIR", "$UNSET_FOR_THIS_TEST/state")
    monkeypatch.delenv("UNSET_FOR_THIS_TEST", raising=False)
    said = _settings_error(Settings)
    assert "WEBSEARCH_STATE_DIR" in said and "unset or empty" in said
    monkeypatch.delenv("WEBSEARCH_STATE_DIR")
    monkeypatch.delenv("WEBSEARCH_CREDENTIALS_FILE")
    config.write_text('state_dir = "here"\ncredentials_file = "keys/c.json"\n')
    settings = Settings()
    assert settings.state_dir == config.parent / "here"
    assert settings.credentials_file == config.parent / "keys" / "c.json"


def test_auth_remove_forgets_the_key_and_oauth_the_token(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A guard: ``auth remove <provider>`` forgets the key and leaves a stored OAuth token;
    ``--oauth`` forgets the token instead."""
    from websearch_core.credentials import CredentialStore, OAuthToken

    path = tmp_path / "credentials.json"
    monkeypatch.setenv("WEBSEARCH_CREDENTIALS_FILE", str(path))
    store = CredentialStore(path)
    store.set("perplexity", "pplx-" + KEY)
    store.set_oauth("perplexity", OAuthToken(access_token="token-" + KEY))
    _cli(["auth", "remove", "perplexity"], capsys, EXIT_OK)
    assert CredentialStore(path).get("perplexity") is None
    assert CredentialStore(path).get_oauth("perplexity") is not None
    _cli(["auth", "remove", "perplexity", "--oauth"], capsys, EXIT_OK)
    assert CredentialStore(path).get_oauth("perplexity") is None
