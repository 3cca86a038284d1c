"""A URL setting whose host or port cannot be connected to is refused where it is read.

``base_urls``, ``proxy`` and ``searxng.endpoint`` were checked for their scheme alone, so
``http://h:99999`` and ``http://[::1`` were taken; the first search then failed inside
aiohttp (``InvalidUrlClientError``, ``Invalid IPv6 URL``) naming no setting, and a bad
base URL put its provider into a cooldown. Each is now refused by pydantic, named by the
setting, with the value (which may hold a password) never repeated. The port properties
are derandomized, so CI draws the same ports every run.
"""

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from websearch_core import Settings

PASSWORD = "pw-host-test-5e1"
INVALID = (
    "has an invalid host or port (a port is a number up to 65535; an IPv6 address goes in brackets)"
)

BAD_URLS = [
    f"http://user:{PASSWORD}@gw.example:99999/v1",
    f"https://user:{PASSWORD}@gw.example:80x/v1",
    f"http://user:{PASSWORD}@[::1/v1",
]


def _refusal(**fields: Any) -> tuple[str, str]:
    """The one error's location (dotted) and message, which must not hold the password."""
    with pytest.raises(ValidationError) as caught:
        Settings(**fields)
    (only,) = caught.value.errors()
    assert PASSWORD not in str(caught.value)
    return ".".join(map(str, only["loc"])), str(only["msg"])


@pytest.mark.parametrize("url", BAD_URLS)
def test_a_base_url_names_its_provider(url: str) -> None:
    assert _refusal(base_urls={"brave": url}) == ("base_urls.brave", f"Value error, {INVALID}")


@pytest.mark.parametrize("url", BAD_URLS)
def test_a_base_url_from_its_variable_is_refused_alike(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WEBSEARCH_BRAVE_BASE_URL", url)
    where, message = _refusal()
    assert where.startswith("base_urls") and message.endswith(INVALID)


@pytest.mark.parametrize("url", BAD_URLS)
def test_the_proxy_is_named(url: str) -> None:
    assert _refusal(proxy=url) == ("proxy", f"Value error, proxy {INVALID}")


@pytest.mark.parametrize("url", BAD_URLS)
def test_the_searxng_endpoint_is_named(url: str) -> None:
    assert _refusal(searxng={"endpoint": url}) == ("searxng.endpoint", f"Value error, {INVALID}")


def test_a_base_url_with_no_host_says_so() -> None:
    assert _refusal(base_urls={"brave": "http:///v1"}) == (
        "base_urls.brave",
        "Value error, has no host name after its scheme (such as http://127.0.0.1:8080)",
    )


@settings(derandomize=True, max_examples=60, deadline=None)
@given(port=st.integers(min_value=65_536, max_value=10**12))
def test_every_port_past_65535_is_refused(port: int) -> None:
    assert _refusal(base_urls={"kagi": f"http://127.0.0.1:{port}"})[0] == "base_urls.kagi"
    assert _refusal(proxy=f"http://127.0.0.1:{port}")[0] == "proxy"


@settings(derandomize=True, max_examples=60, deadline=None)
@given(port=st.integers(min_value=1, max_value=65_535))
def test_every_port_up_to_65535_is_taken(port: int) -> None:
    """Guard: a valid port, IPv6 in brackets included, passes (before and after)."""
    url = f"http://[::1]:{port}/v1"
    built = Settings(base_urls={"kagi": url}, proxy=url)
    assert built.base_urls == {"kagi": url}


def test_a_trailing_newline_is_still_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    """Guard: a base URL read with a line break kept working, as aiohttp drops it."""
    monkeypatch.setenv("WEBSEARCH_BRAVE_BASE_URL", "http://127.0.0.1:8080\n")
    assert Settings().base_urls == {"brave": "http://127.0.0.1:8080\n"}


def test_a_proxy_password_cut_short_says_how_to_write_it() -> None:
    """``http://u:pw/x@proxy:3128`` reads as host ``u``: the '/' is named, not the port."""
    where, message = _refusal(proxy=f"http://u:{PASSWORD}/x@proxy.internal:3128")
    assert where == "proxy"
    assert message.startswith("Value error, proxy has an '@' after its host")
