import os
import stat
from pathlib import Path

import pytest
from pydantic import ValidationError

from websearch_core import WebSearch
from websearch_core.credentials import Credentials, CredentialStore
from websearch_core.errors import ConfigurationError
from websearch_core.settings import Settings
from websearch_core.settings_errors import configuration_errors


def _write_config(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_defaults() -> None:
    settings = Settings()
    assert settings.provider is None
    assert settings.timeout_seconds is None
    assert settings.deadline_seconds == 55.0
    assert settings.connect_timeout_seconds == 10.0
    # Unset, each kind of provider gets its own time; set, every provider gets it.
    timeouts = {kind: settings.provider_timeout(kind) for kind in ("answer", "api", "scraper")}
    assert timeouts == {"answer": 60.0, "api": 20.0, "scraper": 15.0}
    assert Settings(timeout_seconds=7).provider_timeout("answer") == 7.0
    assert settings.exclude == ()


def test_precedence_kwargs_over_env_over_toml(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _write_config(tmp_path, 'provider = "tavily"\ntimeout_seconds = 10\nexclude = ["brave"]\n')
    assert Settings().provider == "tavily"
    assert Settings().exclude == ("brave",)
    monkeypatch.setenv("WEBSEARCH_PROVIDER", "brave")
    monkeypatch.setenv("WEBSEARCH_EXCLUDE", "duckduckgo, SearXNG")
    settings = Settings()
    assert settings.provider == "brave"
    assert settings.exclude == ("duckduckgo", "searxng")
    assert settings.timeout_seconds == 10.0
    assert Settings(provider="searxng").provider == "searxng"


@pytest.mark.parametrize("variable", ["WEBSEARCH_EXCLUDE", "WEBSEARCH_PROVIDERS"])
@pytest.mark.parametrize("value", ["duckduckgo, SearXNG", '["duckduckgo", " SearXNG"]', " [ ]"])
def test_id_lists_read_commas_or_a_json_list(
    variable: str, value: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(variable, value)
    expected = () if value == " [ ]" else ("duckduckgo", "searxng")
    assert getattr(Settings(), variable.removeprefix("WEBSEARCH_").lower()) == expected


def test_per_provider_tables_take_known_ids_in_any_case() -> None:
    settings = Settings(budget={"Brave": "10/day"}, rate={" TAVILY": "1/s"})
    assert (settings.budget, settings.rate) == ({"brave": "10/day"}, {"tavily": "1/s"})
    with pytest.raises(ValidationError, match=r"api_keys\.brav\.\[key\]\n.*unknown provider id"):
        Settings(api_keys={"brav": "k"})


def test_a_mistyped_id_among_the_keys_given_in_code_is_refused() -> None:
    with pytest.raises(ConfigurationError, match=r"^api_keys: unknown provider id brav \(known: "):
        WebSearch(api_keys={"brave": "k", "brav": "k"})


@pytest.mark.parametrize(
    ("written", "meant"),
    [
        ("BRAVE_API_KEY", "brave"),  # a .env line's variable, copied into the table
        ("GOOGLE_API_KEY", "gemini"),  # a variable the provider reads under another id
        ("OPENROUTER_API_KEY", "openrouter"),  # a key-only id, read by Perplexity
        ("TAVILY_APIKEY", "tavily"),  # a variable's name, mistyped
        ("bravee", "brave"),  # an id, mistyped
    ],
)
def test_an_api_keys_entry_under_no_id_names_the_id_meant(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, written: str, meant: str
) -> None:
    """A variable's name in ``[api_keys]`` got the list of every id and nothing more."""
    config = _write_config(tmp_path, f'[api_keys]\n{written} = "BSAq1w2e3r4CANARY"\n')
    monkeypatch.setenv("WEBSEARCH_CONFIG_FILE", str(config))
    with pytest.raises(ConfigurationError) as caught, configuration_errors():
        Settings()
    message = str(caught.value)
    assert message.startswith(f"config file {config} (api_keys.{written}): unknown provider id")
    assert message.endswith(f"; did you mean {meant}?")
    assert "CANARY" not in message
    config.write_text("")
    with pytest.raises(ConfigurationError) as given:  # the same, given in code
        WebSearch(api_keys={written: "BSAq1w2e3r4CANARY"})
    assert str(given.value).endswith(f"; did you mean {meant}?")


@pytest.mark.parametrize(
    ("api_keys", "message"),
    [
        (
            "sk-wrong-shape",
            'api_keys must map provider ids to keys, like {"brave": "..."} (got str)',
        ),
        (
            ["brave", "sk-wrong-shape"],
            'api_keys must map provider ids to keys, like {"brave": "..."} (got list)',
        ),
        ({"brave": 12345678}, 'api_keys["brave"] must be a string (got int)'),
        ({"brave": b"sk-wrong-shape"}, 'api_keys["brave"] must be a string (got bytes)'),
        ({7: "sk-wrong-shape"}, "api_keys: provider ids are strings (got int)"),
    ],
)
def test_keys_given_in_code_in_the_wrong_shape_are_named(api_keys: object, message: str) -> None:
    # They failed far from where they were given: "dictionary update sequence element #0
    # has length 14; 2 is required", or an AttributeError out of the first search.
    with pytest.raises(ConfigurationError) as caught:
        WebSearch(api_keys=api_keys)  # type: ignore[arg-type]
    assert str(caught.value) == message
    assert "sk-wrong-shape" not in str(caught.value)
    assert "12345678" not in str(caught.value)


def test_keys_given_in_code_are_found_by_a_padded_id_and_none_is_no_key() -> None:
    # " Brave" passed the id check but was kept as " brave", which no lookup asks for.
    web_search = WebSearch(api_keys={" Brave": "sk-padded", "tavily": None})
    assert web_search.credentials.api_key("brave") == "sk-padded"
    assert web_search.credentials.api_key("tavily") is None


def test_auto_means_no_preference() -> None:
    assert Settings(provider="auto").provider is None


def test_timeout_bounds_are_enforced() -> None:
    assert Settings(timeout_seconds=300).timeout_seconds == 300
    with pytest.raises(ValidationError, match="timeout_seconds"):
        Settings(timeout_seconds=301)
    with pytest.raises(ValidationError, match="timeout_seconds"):
        Settings(timeout_seconds=0)


def test_base_url_env_and_toml(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _write_config(
        tmp_path,
        '[base_urls]\nbrave = "http://127.0.0.1:1"\ntavily = "http://127.0.0.1:2"\n',
    )
    monkeypatch.setenv("WEBSEARCH_BRAVE_BASE_URL", "http://127.0.0.1:8080")
    urls = Settings().base_urls
    # Environment beats the file key by key; the file still supplies the rest.
    assert urls == {"brave": "http://127.0.0.1:8080", "tavily": "http://127.0.0.1:2"}


def test_google_token_endpoint_has_its_own_base_url(monkeypatch: pytest.MonkeyPatch) -> None:
    # Not a provider, but where Gemini's sign-ins renew: set apart from base_urls.gemini,
    # read from its own variable, and checked like every other base URL.
    monkeypatch.setenv("WEBSEARCH_GOOGLE_OAUTH_BASE_URL", "http://127.0.0.1:9")
    monkeypatch.setenv("WEBSEARCH_GEMINI_BASE_URL", "http://127.0.0.1:8")
    assert Settings().base_urls == {
        "google_oauth": "http://127.0.0.1:9",
        "gemini": "http://127.0.0.1:8",
    }
    monkeypatch.setenv("WEBSEARCH_GOOGLE_OAUTH_BASE_URL", "ftp://user:hunter2@tokens.local")
    with pytest.raises(ConfigurationError) as caught, configuration_errors():
        Settings()
    assert str(caught.value) == (
        "WEBSEARCH_GOOGLE_OAUTH_BASE_URL: must be an http(s) URL such as http://127.0.0.1:8080"
    )
    with pytest.raises(ValidationError, match=r"unknown provider id google_oath .*google_oauth"):
        Settings(base_urls={"google_oath": "http://127.0.0.1:9"})
    with pytest.raises(ValidationError, match=r"budget\.google_oauth"):
        Settings(budget={"google_oauth": "10/day"})  # a route, not a provider to budget


def test_bad_base_url_is_named() -> None:
    with pytest.raises(ValidationError, match=r"base_urls\.brave"):
        Settings(base_urls={"brave": "ftp://x"})


def test_a_bad_base_url_names_its_variable_or_file_entry_not_its_value(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    secret_url = "ftp://user:hunter2@gateway.local"
    monkeypatch.setenv("WEBSEARCH_BRAVE_BASE_URL", secret_url)
    with pytest.raises(ConfigurationError) as from_env, configuration_errors():
        Settings()
    assert str(from_env.value) == (
        "WEBSEARCH_BRAVE_BASE_URL: must be an http(s) URL such as http://127.0.0.1:8080"
    )
    monkeypatch.delenv("WEBSEARCH_BRAVE_BASE_URL")
    config = _write_config(tmp_path, f'[base_urls]\ntavily = "{secret_url}"\n')
    with pytest.raises(ConfigurationError) as from_file, configuration_errors():
        Settings()
    assert str(from_file.value).startswith(f"config file {config} (base_urls.tavily): must be")
    assert "hunter2" not in str(from_env.value) + str(from_file.value)


def test_an_at_sign_after_userinfo_and_host_is_shown_as_written() -> None:
    # Only userinfo (before the host) is masked: an ``@`` in the path or the query of a URL
    # whose userinfo ends at its host is no password, and is shown as written.
    base_url = "https://gw:hunter2@gw.internal/@t?by=a@b"
    settings = Settings(base_urls={"brave": base_url}, searxng={"endpoint": base_url})
    shown = repr(settings)
    assert "'brave': 'https://gw:***@gw.internal/@t?by=a@b'" in shown
    assert "endpoint='https://gw:***@gw.internal/@t?by=a@b'" in shown


_CUT_SHORT = (
    "has an '@' after its host, as a token or password with an unencoded '/', '?' or '#' "
    "would: write those as %2F, %3F and %23 (and an '@' meant for the path as %40)"
)


@pytest.mark.parametrize("cut", ["/", "?", "#"])
@pytest.mark.parametrize("userinfo", ["Zq7x{}Wk0123456789", "gw:Hx9p{}Vr2m"])
@pytest.mark.parametrize(
    ("variable", "url", "message"),
    [
        ("WEBSEARCH_BRAVE_BASE_URL", "https://{}@gateway.internal/v1", _CUT_SHORT),
        ("SEARXNG_ENDPOINT", "https://{}@searx.internal/", _CUT_SHORT),
        ("WEBSEARCH_REDIS_URL", "redis://{}@redis.internal:6379/0", f"redis_url {_CUT_SHORT}"),
    ],
)
def test_userinfo_cut_short_by_an_unencoded_delimiter_is_refused_by_name(
    monkeypatch: pytest.MonkeyPatch, cut: str, userinfo: str, variable: str, url: str, message: str
) -> None:
    # ``https://tok/en@gw`` reads as host ``tok`` with path ``/en@gw``: a client would
    # connect to ``tok``, and a repr, a JSON dump or an error would show the token whole,
    # as nothing finds userinfo there. Refused where it is set, naming the variable only.
    written = userinfo.format(cut)
    monkeypatch.setenv(variable, url.format(written))
    with pytest.raises(ValidationError) as raised:
        Settings()
    with pytest.raises(ConfigurationError) as named, configuration_errors():
        Settings()
    assert str(named.value) == f"{variable}: {message}"
    for text in (str(raised.value), str(named.value)):
        for secret_part in written.rpartition(":")[2].split(cut):  # the user name may show
            assert secret_part not in text


def test_an_at_sign_in_a_unix_socket_path_is_a_file_name() -> None:
    url = "unix:///run/user@1000/redis.sock?db=0"
    assert Settings(redis_url=url).redis_url == url


def test_passwords_in_urls_stay_out_of_reprs_and_validation_errors() -> None:
    settings = Settings(
        redis_url="redis://cache:hunter2@redis.internal:6379/0",
        base_urls={"brave": "https://gw:hunter2@gateway.internal/brave"},
        searxng={"endpoint": "https://me:hunter2@searx.internal/"},
    )
    assert "hunter2" not in repr(settings)
    assert "redis_url='redis://cache:***@redis.internal:6379/0'" in repr(settings)
    assert "'brave': 'https://gw:***@gateway.internal/brave'" in repr(settings)
    assert "endpoint='https://me:***@searx.internal/'" in repr(settings)
    assert settings.redis_url == "redis://cache:hunter2@redis.internal:6379/0"  # the value itself
    # Serialised as JSON (a tool's or retriever's model_dump_json, a log) as in the repr...
    dumped = settings.model_dump(mode="json")
    assert "hunter2" not in settings.model_dump_json()
    assert dumped["redis_url"] == "redis://cache:***@redis.internal:6379/0"
    assert dumped["base_urls"] == {"brave": "https://gw:***@gateway.internal/brave"}
    assert dumped["searxng"]["endpoint"] == "https://me:***@searx.internal/"
    # ...while a Python dump, which copies the settings, keeps what it copies.
    assert Settings(**settings.model_dump()).redis_url == settings.redis_url
    token_only = Settings(base_urls={"brave": "https://hunter2-token@gateway.internal/"})
    assert "'brave': 'https://***@gateway.internal/'" in repr(token_only)
    refused = [
        {"redis_url": "http://:hunter2@redis.internal:6379/0"},
        {"redis_url": "redis://:hunter2@redis.internal:notaport/0"},
        {"redis_url": "redis://:hunter2@[::1/0"},
        {"proxy": "socks5://user:hunter2@proxy.internal:1080"},
        {"base_urls": {"brave": "ftp://user:hunter2@gateway.local"}},
        {"searxng": {"endpoint": "https://me:hunter2@searx.internal/", "safesearch": 9}},
    ]
    for values in refused:
        with pytest.raises(ValidationError) as caught:
            Settings(**values)
        assert "hunter2" not in str(caught.value), values


def test_searxng_spec_env_names(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SEARXNG_ENDPOINT", "https://searx.example")
    monkeypatch.setenv("SEARXNG_TOKEN", "tok-123")
    settings = Settings()
    assert settings.searxng.endpoint == "https://searx.example"
    assert settings.searxng.token is not None
    assert settings.searxng.token.get_secret_value() == "tok-123"
    assert "tok-123" not in repr(settings)


def test_unknown_setting_is_an_error() -> None:
    with pytest.raises(ValidationError, match="not_a_setting"):
        Settings(not_a_setting=1)


def test_credentials_precedence(tmp_path: Path) -> None:
    store = CredentialStore(tmp_path / "creds.json")
    store.set("brave", "from-store")
    from pydantic import SecretStr

    configured = {"brave": SecretStr("from-file")}
    env = {"BRAVE_API_KEY": "from-env"}
    both = Credentials(
        explicit={"brave": "from-code"}, configured=configured, store=store, environ=env
    )
    assert both.api_key("brave", ["BRAVE_API_KEY"]) == "from-code"
    no_code = Credentials(configured=configured, store=store, environ=env)
    assert no_code.api_key("brave", ["BRAVE_API_KEY"]) == "from-env"
    no_env = Credentials(configured=configured, store=store, environ={})
    assert no_env.api_key("brave", ["BRAVE_API_KEY"]) == "from-file"
    only_store = Credentials(store=store, environ={"BRAVE_API_KEY": "  "})
    assert only_store.api_key("brave", ["BRAVE_API_KEY"]) == "from-store"
    assert Credentials(environ={}).api_key("brave", ["BRAVE_API_KEY"]) is None
    assert "from-code" not in repr(both)


def test_store_file_is_owner_only(tmp_path: Path) -> None:
    store = CredentialStore(tmp_path / "nested" / "creds.json")
    store.set("tavily", "tvly-secret")
    mode = stat.S_IMODE(os.stat(store.path).st_mode)
    assert mode == 0o600
    assert store.providers() == ["tavily"]
    assert store.get("tavily") == "tvly-secret"
    assert "tvly-secret" not in repr(store)
    assert store.remove("tavily") is True
    assert store.remove("tavily") is False
    assert store.get("tavily") is None


def test_store_rejects_garbage(tmp_path: Path) -> None:
    path = tmp_path / "creds.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(ConfigurationError, match="not valid JSON"):
        CredentialStore(path).get("brave")
    with pytest.raises(ConfigurationError, match="empty"):
        CredentialStore(tmp_path / "other.json").set("brave", "  ")
