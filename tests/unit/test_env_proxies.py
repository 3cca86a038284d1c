"""The environment's proxy per request: urllib's rules, a change seen, its credentials learnt.

The client's session no longer trusts the environment (aiohttp would add ``~/.netrc``
logins to provider requests), so :class:`EnvironmentProxies` picks each request's proxy.
It must follow ``HTTP(S)_PROXY`` / ``NO_PROXY`` as aiohttp did (and the CGI rule that
drops ``HTTP_PROXY``), notice a variable changed while the client lives, and hand every
proxy's credentials over before a request can carry them.
"""

from collections.abc import Iterable

import pytest

from websearch_core.env_proxies import EnvironmentProxies


class _Remembered:
    """What the proxies handed over, call by call (stands in for Credentials.add_secrets)."""

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def __call__(self, secrets: Iterable[str]) -> None:
        self.calls.append(list(secrets))


@pytest.fixture
def remembered() -> _Remembered:
    return _Remembered()


def test_no_proxy_in_the_environment(remembered: _Remembered) -> None:
    proxies = EnvironmentProxies(remembered)
    assert proxies.for_url("https://api.example/v1") is None
    assert remembered.calls == [[]]


def test_each_scheme_takes_its_own_proxy(
    remembered: _Remembered, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HTTPS_PROXY", "http://proxy.example:3128")
    proxies = EnvironmentProxies(remembered)
    assert proxies.for_url("https://api.example/v1") == "http://proxy.example:3128"
    assert proxies.for_url("http://api.example/v1") is None


def test_no_proxy_names_hosts_by_suffix(
    remembered: _Remembered, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HTTP_PROXY", "http://proxy.example:3128")
    monkeypatch.setenv("NO_PROXY", "internal.example,127.0.0.1")
    proxies = EnvironmentProxies(remembered)
    assert proxies.for_url("http://search.internal.example/q") is None
    assert proxies.for_url("http://127.0.0.1:8080/q") is None
    assert proxies.for_url("http://api.example/q") == "http://proxy.example:3128"


def test_http_proxy_is_ignored_under_cgi(
    remembered: _Remembered, monkeypatch: pytest.MonkeyPatch
) -> None:
    # httpoxy: a CGI request's "Proxy:" header arrives as HTTP_PROXY.
    monkeypatch.setenv("REQUEST_METHOD", "GET")
    monkeypatch.setenv("HTTP_PROXY", "http://attacker.example:8080")
    assert EnvironmentProxies(remembered).for_url("http://api.example/q") is None


def test_a_changed_proxy_is_used_and_its_credentials_handed_over_first(
    remembered: _Remembered, monkeypatch: pytest.MonkeyPatch
) -> None:
    proxies = EnvironmentProxies(remembered)
    assert proxies.for_url("http://api.example/q") is None
    later = "http://puser:PROXYCANARY0123456789@proxy.example:3128"
    monkeypatch.setenv("HTTP_PROXY", later)
    assert proxies.for_url("http://api.example/q") == later
    assert "PROXYCANARY0123456789" in remembered.calls[-1]
    assert "puser:PROXYCANARY0123456789" in remembered.calls[-1]
    calls = len(remembered.calls)
    proxies.for_url("http://api.example/other")
    assert len(remembered.calls) == calls  # nothing changed: nothing read again


def test_any_named_counts_all_proxy_and_notices_it_exported_later(
    remembered: _Remembered, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The page fetcher asks it whether headless Chromium (which reads ALL_PROXY and
    # HTTP(S)_PROXY itself) goes through a proxy of the user's: its egress proxy is off then.
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy"):
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.lower(), raising=False)
    proxies = EnvironmentProxies(remembered)
    assert not proxies.any_named()
    monkeypatch.setenv("NO_PROXY", "example.org")  # names no proxy
    assert not proxies.any_named()
    monkeypatch.setenv("ALL_PROXY", "http://puser:ALLPROXYCANARY0123456789@proxy.example:3128")
    assert proxies.any_named()
    assert "ALLPROXYCANARY0123456789" in remembered.calls[-1]
    assert proxies.for_url("https://api.example/q") is None  # as aiohttp: not for requests
    monkeypatch.delenv("ALL_PROXY")
    monkeypatch.setenv("HTTPS_PROXY", "http://proxy.example:3128")
    assert proxies.any_named()


PROXY = "http://proxy.example:3128"


@pytest.mark.parametrize(
    ("environment", "proxy"),
    [
        # A blank value names no proxy, in either case and written either way.
        ({"HTTPS_PROXY": ""}, None),
        ({"HTTPS_PROXY": "  "}, None),
        ({"https_proxy": ""}, None),
        ({"https_proxy": " \t"}, None),
        # The lowercase name is read first: blank, it turns the uppercase one off.
        ({"HTTPS_PROXY": PROXY, "https_proxy": ""}, None),
        ({"HTTPS_PROXY": PROXY, "https_proxy": "  "}, None),
        # A blank uppercase name does not hide the lowercase one.
        ({"HTTPS_PROXY": "", "https_proxy": PROXY}, PROXY),
        ({"HTTPS_PROXY": "  ", "https_proxy": PROXY}, PROXY),
    ],
)
def test_a_blank_proxy_variable_names_no_proxy_and_lowercase_is_read_first(
    remembered: _Remembered,
    monkeypatch: pytest.MonkeyPatch,
    environment: dict[str, str],
    proxy: str | None,
) -> None:
    """One rule (README): spaces are as blank as nothing, as for every variable.

    urllib took a value of spaces for a proxy's URL: the chooser named a proxy ``"  "``,
    and the browser's page through it failed with ``Invalid URL``.
    """
    for name in ("HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    proxies = EnvironmentProxies(remembered)
    assert proxies.for_url("https://api.example/v1") == proxy
    assert proxies.any_named() is (proxy is not None)


@pytest.mark.parametrize("value", ["", " "])
def test_a_blank_all_proxy_does_not_count_as_the_users_proxy(
    remembered: _Remembered, monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    # ALL_PROXY=" " counted as a proxy of the user's: the page fetcher then let headless
    # Chromium go without its address-checking proxy (test_fetch_browser shows the page
    # reaching a private address that way).
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.lower(), raising=False)
    monkeypatch.setenv("ALL_PROXY", value)
    assert not EnvironmentProxies(remembered).any_named()


@pytest.mark.parametrize(
    ("environment", "named"),
    [
        ({"HTTPS_PROXY": "http://upper.example:3128"}, "HTTPS_PROXY"),
        ({"https_proxy": "http://lower.example:3128"}, "https_proxy"),
        ({"HTTPS_PROXY": "http://upper.example:3128", "https_proxy": PROXY}, "https_proxy"),
        ({"HTTPS_PROXY": "http://upper.example:3128", "https_proxy": " "}, None),
        ({"HTTP_PROXY": "http://upper.example:3128"}, None),  # an https request: not its
    ],
)
def test_the_variable_naming_a_requests_proxy_is_the_one_urllib_read(
    remembered: _Remembered,
    monkeypatch: pytest.MonkeyPatch,
    environment: dict[str, str],
    named: str | None,
) -> None:
    # An unreachable proxy's hint names the variable in use, never its value.
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.lower(), raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    assert EnvironmentProxies(remembered).variable_for("https://api.example/v1") == named
