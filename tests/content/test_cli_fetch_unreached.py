"""``websearch fetch URL`` that reaches no host says what to check, as a failed search does.

Offline, the command said only ``the host name could not be resolved``; a search on the
same machine ends with a hint (offline, the network blocked, the proxy down). The fetch now
gives the hint for its cause on a line of its own, worded for one host (which may be a
mistyped URL). Run with the simulator's resolver that knows no name, and a loopback port
nothing listens on.
"""

from collections.abc import Iterator

import pytest

from tests.content._server import serve_in_thread
from tests.functional._sim_helpers import Unresolvable
from tests.refused_port import refused_port
from websearch_core.cli import main
from websearch_core.cli_status import EXIT_FAILED
from websearch_core.format import page_unreached_hint


@pytest.fixture
def base() -> Iterator[str]:
    yield from serve_in_thread({"/a": "<html><body><p>here</p></body></html>"})


def _stderr(capsys: pytest.CaptureFixture[str], *argv: str) -> list[str]:
    """``websearch fetch ARGV``'s stderr lines, after it exited 1."""
    assert main(["fetch", *argv, "--no-browser", "--no-cache"]) == EXIT_FAILED
    out, err = capsys.readouterr()
    assert out == ""
    return err.splitlines()


def test_a_name_that_does_not_resolve_gets_the_offline_hint(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("websearch_core.content.resolver.DefaultResolver", Unresolvable)
    lines = _stderr(capsys, "https://example.org/a")
    assert lines == [
        "websearch: cannot fetch https://example.org/a: the host name could not be resolved "
        "(ClientConnectorDNSError)",
        page_unreached_hint("dns"),
    ]
    assert "this machine looks offline" in lines[1]


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost"])
def test_a_refused_loopback_connection_says_nothing_listens_there(
    host: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # A first user's page served on another port (python -m http.server 8000, fetched at
    # 8080) was told the network looked blocked and to check a firewall; nothing was
    # blocked, and no base URL is involved (the search's loopback hint names those).
    port = refused_port()
    lines = _stderr(capsys, f"http://{host}:{port}/a", "--allow-private")
    assert lines == [
        f"websearch: cannot fetch http://{host}:{port}/a: could not connect (ClientConnectorError)",
        "Nothing listens at that loopback address (this machine): start the server meant to "
        "answer there, or check the URL's port.",
    ]
    assert lines[1] == page_unreached_hint("connect", loopback=True)
    assert "firewall" not in lines[1] and "BASE_URL" not in lines[1]


def test_the_hint_for_a_refused_connection_elsewhere_is_still_the_blocked_network() -> None:
    # Guard: only this machine's own address changes its hint.
    assert page_unreached_hint("connect") == (
        "If the address is right, this machine's network looks blocked: check its connection "
        "and any firewall or sign-in page, or set the proxy it must use (HTTPS_PROXY or "
        "WEBSEARCH_PROXY)."
    )
    assert page_unreached_hint("dns", loopback=True) == page_unreached_hint("dns")


def test_a_host_that_answered_gets_no_hint(base: str, capsys: pytest.CaptureFixture[str]) -> None:
    lines = _stderr(capsys, f"{base}/missing", "--allow-private")
    assert lines == [f"websearch: cannot fetch {base}/missing: the server answered HTTP 404"]
