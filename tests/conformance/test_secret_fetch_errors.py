"""A page fetch's error object holds no proxy credentials: returned or raised.

A proxy written ``http://user:pw@proxy`` (``WEBSEARCH_PROXY``, ``HTTPS_PROXY``) is a
secret: its password was already kept out of every fetch error's text (stop 45). These
tests walk the objects themselves (``_leaks.reachable_texts``: attributes, chained
errors, and the library's frames' locals as an error tracker records them) after a
loopback proxy refused the tunnel. ``fetch_many`` returns each page's error rather than
raising it, and that error kept the traceback it was caught with (``fetch`` raises the
same object): the fetcher's frames, whose locals held the proxy's URL, password and all.
"""

import os
from collections.abc import Iterator

import pytest

from tests.conformance._leaks import echo_forms_seen, reachable_texts
from tests.refusing_proxy import STATUS_IDS, STATUS_LINES, refusing_proxy_url
from websearch_core import WebSearch
from websearch_core.content import FetchError, FetchFailedError

PASSWORD = "s3cretpassw0rdXYZ-Q7fK2mVt9XbL4n"
"""A proxy password long enough that any run of 12 of its characters is a leak."""
PAGE = "https://page.example/a"
OPENED = {"allow_private_addresses": True, "use_browser": False}


@pytest.fixture(params=STATUS_LINES, ids=STATUS_IDS)
def proxy(request: pytest.FixtureRequest) -> Iterator[str]:
    """The URL, with credentials, of a loopback proxy refusing every tunnel."""
    with refusing_proxy_url(request.param, PASSWORD) as url:
        yield url


def _client(proxy: str, how: str, monkeypatch: pytest.MonkeyPatch) -> WebSearch:
    """A client whose proxy is ``proxy``, named by the setting or by ``HTTPS_PROXY``."""
    if how == "environment":
        monkeypatch.setenv("HTTPS_PROXY", proxy)
        return WebSearch(state_backend="memory")
    return WebSearch(state_backend="memory", proxy=proxy)


@pytest.mark.parametrize("how", ["environment", "setting"])
async def test_a_returned_fetch_error_holds_no_proxy_password(
    proxy: str, how: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``fetch_many``'s error for a page: its text was clean, its traceback was not.

    Before, the error kept the frames it was caught in (the fetcher's ``one`` and those
    below it), and the fetcher's browser held the proxy's URL whole. Failed before the
    fix, for both statuses and both ways of naming the proxy.
    """
    async with _client(proxy, how, monkeypatch) as ws:
        [error] = await ws.fetch_many([PAGE], **OPENED)  # type: ignore[arg-type]
    assert isinstance(error, FetchFailedError)
    assert error.reason.startswith("the proxy refused the connection (HTTP ")
    assert echo_forms_seen(PASSWORD, reachable_texts(error)) == []
    assert os.environ.get("HTTPS_PROXY") in (None, proxy)


@pytest.mark.parametrize("how", ["environment", "setting"])
async def test_a_raised_fetch_error_holds_no_proxy_password(
    proxy: str, how: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``fetch`` raises the page's error: its traceback went down to the download.

    ``WebSearch.fetch`` raises the error ``fetch_many`` handed back, traceback and all:
    the frame of ``_download`` held the proxy's URL (``proxy``, password included) in a
    local, which an error tracker recording locals sends away. Failed before the fix.
    """
    async with _client(proxy, how, monkeypatch) as ws:
        with pytest.raises(FetchError) as caught:
            await ws.fetch(PAGE, **OPENED)  # type: ignore[arg-type]
    assert echo_forms_seen(PASSWORD, reachable_texts(caught.value)) == []
