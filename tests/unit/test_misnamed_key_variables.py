"""A provider's key set under a name nothing reads is named, with the name that is read.

A first-time user with ``BRAVE_SEARCH_API_KEY`` set (what other tools read) ran ``websearch
"..."`` and got the free engines' answers, and nothing said the key was never read. With
``--provider brave`` the text said ``set BRAVE_API_KEY``, but not that the key was in the
wrong variable. Python and the tools were as silent.
"""

import logging
from pathlib import Path

import pytest

from websearch_core import WebSearch
from websearch_core.cli import EXIT_OK, main
from websearch_core.credentials import CredentialStore
from websearch_core.key_names import misnamed_key_variables

SECRET = "sk-misnamed-key-test-93be1f"
BRAVE_WARNING = (
    "websearch: warning: BRAVE_SEARCH_API_KEY is set, but nothing reads it: Brave reads its "
    "key from BRAVE_API_KEY\n"
)


def _providers_stderr(capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["providers"]) == EXIT_OK
    err = capsys.readouterr().err
    assert SECRET not in err
    return err


def test_a_key_in_a_variable_nothing_reads_is_named_with_the_one_read(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("BRAVE_SEARCH_API_KEY", SECRET)
    assert _providers_stderr(capsys) == BRAVE_WARNING


def test_every_variable_a_provider_reads_is_offered(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The README's Kimi note: MOONSHOT_SEARCH_API_KEY or KIMI_SEARCH_API_KEY, not the others.
    monkeypatch.setenv("KIMI_API_KEY", SECRET)
    assert _providers_stderr(capsys) == (
        "websearch: warning: KIMI_API_KEY is set, but nothing reads it: Kimi reads its key "
        "from MOONSHOT_SEARCH_API_KEY or KIMI_SEARCH_API_KEY\n"
    )


def test_the_search_says_it_before_its_results(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("TAVILY_KEY", SECRET)
    monkeypatch.setenv("WEBSEARCH_EXCLUDE", "duckduckgo,bing,yahoo,startpage,google,ecosia,mojeek")
    main(["python"])  # no provider can run: the outcome is not what is read here
    err = capsys.readouterr().err
    assert err.startswith(
        "websearch: warning: TAVILY_KEY is set, but nothing reads it: Tavily reads its key "
        "from TAVILY_API_KEY\n"
    )
    assert SECRET not in err


@pytest.mark.parametrize(
    "where", ["variable", "config file", "credential store"], ids=lambda where: where
)
def test_nothing_is_said_when_the_provider_has_its_key_elsewhere(
    where: str,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # A guard that passes both ways: the warning is only for a key that is not used.
    monkeypatch.setenv("BRAVE_SEARCH_API_KEY", SECRET)
    if where == "variable":
        monkeypatch.setenv("BRAVE_API_KEY", "sk-the-read-one-0001")
    elif where == "config file":
        config = tmp_path / "with-key.toml"
        config.write_text('[api_keys]\nbrave = "sk-the-read-one-0001"\n')
        monkeypatch.setenv("WEBSEARCH_CONFIG_FILE", str(config))
    else:
        CredentialStore(tmp_path / "credentials.json").set("brave", "sk-the-read-one-0001")
    assert _providers_stderr(capsys) == ""


@pytest.mark.parametrize("name", ["BRAVE_API_KYE", "BRAVE_APIKEY", "BRAVE_API_TOKEN"])
def test_a_misspelt_variable_is_named(name: str) -> None:
    assert misnamed_key_variables({name: SECRET}, lambda _id, _names: False) == [
        f"{name} is set, but nothing reads it: Brave reads its key from BRAVE_API_KEY"
    ]


@pytest.mark.parametrize(
    "name",
    [
        "BRAVE_BROWSER_PATH",  # no KEY, and not like BRAVE_API_KEY
        "ANTHROPIC_AUTH_TOKEN",  # another tool's sign-in, not a misspelt key variable
        "ANTHROPIC_BASE_URL",
        "GOOGLE_MAPS_API_KEY",  # google is a keyless engine: its prefix names no key of ours
        "BRAVE_API_KEY",  # the name read
        "OPENAI_API_KEY",  # no id of ours
    ],
)
def test_other_names_are_not_guessed_at(name: str) -> None:
    # A guard that passes both ways.
    assert misnamed_key_variables({name: SECRET}, lambda _id, _names: False) == []


def test_a_blank_variable_counts_as_unset() -> None:
    assert misnamed_key_variables({"BRAVE_KEY": "  "}, lambda _id, _names: False) == []


def test_the_variables_a_key_is_read_from_are_given_to_the_key_check() -> None:
    asked: list[tuple[str, tuple[str, ...]]] = []

    def has_key(key_id: str, names: tuple[str, ...]) -> bool:
        asked.append((key_id, names))
        return True

    assert misnamed_key_variables({"PPLX_KEY": "k", "PERPLEXITY_KEY": "k"}, has_key) == []
    assert asked == [("perplexity", ("PERPLEXITY_API_KEY", "PPLX_API_KEY"))] * 2


PERPLEXITY_READS = "Perplexity reads its key from PERPLEXITY_API_KEY or PPLX_API_KEY"
GEMINI_READS = "Gemini reads its key from GEMINI_API_KEY or GOOGLE_API_KEY"


@pytest.mark.parametrize(
    ("name", "reads"),
    [
        ("PPLX_KEY", PERPLEXITY_READS),  # Perplexity's short name, as in PPLX_API_KEY
        ("PERPLEXITYAI_API_KEY", PERPLEXITY_READS),  # LiteLLM's
        ("ZHIPUAI_API_KEY", "Z.AI reads its key from ZAI_API_KEY"),  # the zhipuai SDK's
        ("METAPHOR_API_KEY", "Exa reads its key from EXA_API_KEY"),  # Exa's former name
        ("JINAAI_API_KEY", "Jina reads its key from JINA_API_KEY"),
        ("GOOGLE_GENAI_API_KEY", GEMINI_READS),  # Genkit's
        ("GOOGLE_GENERATIVE_AI_API_KEY", GEMINI_READS),  # Vercel's AI SDK's
    ],
)
def test_a_key_under_another_name_of_the_service_is_named(name: str, reads: str) -> None:
    # These started with no provider id, so nothing was said (stop 44's newuser2 left it).
    assert misnamed_key_variables({name: SECRET}, lambda _id, _names: False) == [
        f"{name} is set, but nothing reads it: {reads}"
    ]


def test_a_moonshot_key_is_named_with_why_it_would_not_do(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MOONSHOT_API_KEY", SECRET)
    assert _providers_stderr(capsys) == (
        "websearch: warning: MOONSHOT_API_KEY is set, but nothing reads it: Kimi reads its "
        "key from MOONSHOT_SEARCH_API_KEY or KIMI_SEARCH_API_KEY (a Kimi Code Console key: "
        "a Moonshot Open Platform key is refused there)\n"
    )


@pytest.mark.parametrize(
    "name",
    [
        "MOONSHOT_SEARCH_API_KEY",  # a name read
        "MOONSHOT_BASE_URL",  # no KEY, and not like a read name
        "GOOGLE_GENAI_USE_VERTEXAI",  # the google-genai SDK's switch, not a key
        "GOOGLE_API_KEY",  # read by Gemini
        "PPLXIFY_API_KEY",  # another word: only a whole first word counts
    ],
)
def test_other_names_of_a_service_guess_no_further(name: str) -> None:
    # A guard that passes both ways.
    assert misnamed_key_variables({name: SECRET}, lambda _id, _names: False) == []


def test_python_and_the_tools_hear_it_once_as_a_logger_warning(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # LangChain's own BraveSearch tool reads BRAVE_SEARCH_API_KEY: a user moving from it
    # to WebSearchTool has the key there.
    monkeypatch.setenv("BRAVE_SEARCH_API_KEY", SECRET)
    with caplog.at_level(logging.WARNING, logger="websearch_core"):
        WebSearch()
        WebSearch()
    said = [record.getMessage() for record in caplog.records]
    assert said == [BRAVE_WARNING.removeprefix("websearch: warning: ").rstrip("\n")]
    assert SECRET not in caplog.text


def test_python_says_nothing_when_the_key_is_given_in_code(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # A guard that passes both ways.
    monkeypatch.setenv("BRAVE_SEARCH_API_KEY", SECRET)
    with caplog.at_level(logging.WARNING, logger="websearch_core"):
        WebSearch(api_keys={"brave": "sk-given-in-code-0001"})
    assert caplog.records == []


@pytest.mark.parametrize(
    ("variable", "value"),
    [("WEBSEARCH_EXCLUDE", "brave"), ("WEBSEARCH_PROVIDERS", "tavily,duckduckgo")],
)
def test_a_provider_the_settings_leave_out_is_not_named(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
    variable: str,
    value: str,
) -> None:
    # A user who keeps BRAVE_SEARCH_API_KEY for another tool and leaves Brave out of this
    # one heard the warning at every start: the key is not missed.
    monkeypatch.setenv("BRAVE_SEARCH_API_KEY", SECRET)
    monkeypatch.setenv(variable, value)
    assert BRAVE_WARNING not in _providers_stderr(capsys)
    with caplog.at_level(logging.WARNING, logger="websearch_core"):
        WebSearch()
    assert "BRAVE_SEARCH_API_KEY" not in caplog.text
