"""A browser engine stopped by the attempt's hard stop says the reference's timeout text.

And carries the reference's 504 beside it (firstusers25), where the attempt shows it.

The reference words a browser engine's timeout ``Ecosia search timed out.`` (504), its hard
timeout's included. The engine's own stops (its plain fetch's, its browser's) said so, but
a browser that outlived the attempt's time was ended by the attempt's hard stop, which said
``Ecosia search timed out after 0.5s``. A browser that never returns from its load plays
that Chromium here (the real one stops its own load first, see ``test_browser.py``); the
plain fetch is served a challenge by the loopback simulator, so the engine escalates.
"""

import asyncio
from collections.abc import Iterator

import pytest

from websearch_core import WebSearch
from websearch_core.browser import (
    BrowsedPage,
    HeadlessBrowser,
    HeadlessOptions,
    get_default_browser,
    set_default_browser,
)
from websearch_core.errors import AllProvidersFailedError, ProviderTimeoutError
from websearch_core.providers import get_provider
from websearch_core.testing import Fault, Simulator

BROWSER_ENGINES = ["google", "ecosia", "mojeek"]


class _HungBrowser(HeadlessBrowser):
    """A browser whose load never ends, whatever time it is given: only a stop ends it."""

    def __init__(self) -> None:
        super().__init__(executable_path="/nonexistent/chromium")
        self.loads = 0

    async def fetch(
        self, url: str, *, timeout: float, options: HeadlessOptions | None = None
    ) -> BrowsedPage:
        self.loads += 1
        await asyncio.Event().wait()  # never set
        raise AssertionError("unreachable")


@pytest.fixture
def hung() -> Iterator[_HungBrowser]:
    """The process-wide browser, one that hangs, for the test; the one before put back."""
    before = get_default_browser()
    browser = _HungBrowser()
    set_default_browser(browser)
    try:
        yield browser
    finally:
        set_default_browser(before)


@pytest.mark.parametrize("pid", BROWSER_ENGINES)
async def test_the_hard_stop_says_the_browser_engines_text(pid: str, hung: _HungBrowser) -> None:
    """Failed before on each: ``<Engine> search timed out after 0.5s``."""
    async with Simulator([pid]) as sim:
        sim[pid].always(Fault.challenge())
        settings = sim.settings(timeout_seconds=0.5, cache=False, deadline_seconds=20)
        async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
            async with asyncio.timeout(15):  # the hard stop, not this guard, ends it
                result = await ws.run("python asyncio", provider=pid)
                with pytest.raises(AllProvidersFailedError) as caught:
                    await ws.search("python asyncio", provider=pid)
    assert hung.loads == 2, "the engine never reached the browser"
    expected = f"{get_provider(pid).info.label}{' browser' if pid == 'google' else ''}"
    expected += " search timed out."
    assert result.error == expected
    (failure,) = caught.value.failures
    assert type(failure) is ProviderTimeoutError and failure.message == expected
    # The reference's 504 beside the text (firstusers25: the hard stop gave none), as the
    # engine's own stops give it.
    assert failure.status == 504


@pytest.mark.parametrize("pid", BROWSER_ENGINES)
async def test_the_hard_stop_carries_the_reference_504_where_it_is_shown(
    pid: str, hung: _HungBrowser, caplog: pytest.LogCaptureFixture
) -> None:
    """Failed before on each: the attempt's status (``--json``'s and the tools' ``attempts``)
    and the log line's ``(504)`` were missing, where the engine's own stops give 504."""
    async with Simulator([pid]) as sim:
        sim[pid].always(Fault.challenge())
        settings = sim.settings(timeout_seconds=0.5, cache=False, deadline_seconds=20)
        async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
            async with asyncio.timeout(15):
                result = await ws.run("python asyncio", provider=pid)
    assert result.error is not None and result.error.endswith("search timed out.")
    (attempt,) = result.response.attempts
    assert (attempt.provider, attempt.outcome, attempt.status) == (pid, "failed", 504)
    assert f"web search provider {pid} failed (504): " in caplog.text


def test_a_plain_engine_and_an_api_provider_keep_no_status() -> None:
    """A guard: the reference gives 504 to the browser engines' timeouts alone; the
    others' hard stop carries none, as their transport's timeout does."""
    for pid in ("duckduckgo", "bing", "brave", "codex"):
        assert get_provider(pid).timed_out_status is None, pid
    for pid in BROWSER_ENGINES:
        assert get_provider(pid).timed_out_status == 504, pid
