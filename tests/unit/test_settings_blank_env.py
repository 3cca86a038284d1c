"""One rule for every variable: set to an empty or blank value, it is unset.

Before, ``VAR=`` meant a different thing per variable: an error for the numbers, booleans,
tables and ``WEBSEARCH_PROXY`` (``WEBSEARCH_TIMEOUT_SECONDS: Input should be a valid
number``), an override of the config file for the lists and strings
(``WEBSEARCH_PROVIDER=`` dropped the file's ``provider``; ``SEARXNG_ENDPOINT=`` an empty
endpoint), the default for the paths. A ``.env`` template's blank entries hit all three.
"""

import os
from pathlib import Path

import pytest

from websearch_core import WebSearch
from websearch_core.cli import EXIT_OK, main
from websearch_core.errors import ConfigurationError
from websearch_core.settings import Settings
from websearch_core.settings_errors import configuration_errors

CONFIG = """\
provider = "brave"
providers = ["brave", "tavily"]
exclude = ["google"]
fallback = true
timeout_seconds = 30
deadline_seconds = 40
connect_timeout_seconds = 5
state_wait_seconds = 2
max_response_bytes = 100000
fence_results = true
cache = false
cache_ttl_seconds = 100
cache_stale_seconds = 100
rate_limit_wait_seconds = 1
auth_cooldown_seconds = 10
state_backend = "memory"
gemini_model = "gemini-x"
proxy = "http://127.0.0.1:9"
redis_url = "redis://127.0.0.1:1"
state_dir = "/tmp/websearch-blank-env-state"
credentials_file = "/tmp/websearch-blank-env-credentials.json"
sign_in_gateways = ["codex"]

[budget]
brave = "10/month"

[rate]
brave = "1/s"

[api_keys]
brave = "BSAblankenvtestkey0123"

[base_urls]
brave = "http://127.0.0.1:8080"

[refresh_hooks]
codex = "my_tokens:refresh_codex"

[searxng]
endpoint = "https://searx.example.org"
token = "searx-token"
"""

VARIABLES = sorted(
    {f"WEBSEARCH_{field.upper()}" for field in Settings.model_fields if field != "config_file"}
    | {
        "WEBSEARCH_BUDGET__BRAVE",
        "WEBSEARCH_API_KEYS__BRAVE",
        "WEBSEARCH_SEARXNG__ENDPOINT",
        "WEBSEARCH_BRAVE_BASE_URL",
        "SEARXNG_ENDPOINT",
        "SEARXNG_TOKEN",
    }
)


@pytest.fixture
def config_file(monkeypatch: pytest.MonkeyPatch) -> Path:
    """The test's config file holding every setting; the paths are left to it."""
    for name in ("WEBSEARCH_STATE_DIR", "WEBSEARCH_CREDENTIALS_FILE"):
        monkeypatch.delenv(name)
    path = Path(os.environ["WEBSEARCH_CONFIG_FILE"])
    path.write_text(CONFIG)
    return path


@pytest.mark.parametrize("blank", ["", "  "])
@pytest.mark.parametrize("variable", VARIABLES)
def test_a_blank_variable_leaves_the_config_file_entry_in_force(
    config_file: Path, monkeypatch: pytest.MonkeyPatch, variable: str, blank: str
) -> None:
    from_file = Settings()
    monkeypatch.setenv(variable, blank)
    with configuration_errors():
        assert Settings() == from_file


def test_every_setting_is_covered() -> None:
    """A field added later is in the parametrisation above, and in the file it reads."""
    for field in Settings.model_fields:
        if field != "config_file":
            assert f"{field} =" in CONFIG or f"[{field}]" in CONFIG, field


def test_a_blank_variable_is_not_named_for_a_bad_config_entry(
    config_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The config file's bad value is the file's: a blank variable set nothing."""
    config_file.write_text("timeout_seconds = -1\n")
    monkeypatch.setenv("WEBSEARCH_TIMEOUT_SECONDS", "")
    with (
        pytest.raises(ConfigurationError, match=r"^config file .* \(timeout_seconds\): "),
        configuration_errors(),
    ):
        Settings()


def test_the_command_runs_with_a_dot_env_templates_blank_entries(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("WEBSEARCH_TIMEOUT_SECONDS", "WEBSEARCH_CACHE", "WEBSEARCH_BUDGET"):
        monkeypatch.setenv(name, "")
    assert main(["providers"]) == EXIT_OK
    assert capsys.readouterr().err == ""


def test_a_blank_key_variable_leaves_the_config_files_key(
    config_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The providers' own variables follow the same rule (their lookup strips them)."""
    monkeypatch.setenv("BRAVE_API_KEY", " ")
    assert WebSearch().credentials.api_key("brave", ["BRAVE_API_KEY"]) == "BSAblankenvtestkey0123"
