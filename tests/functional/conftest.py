"""Fixtures for the simulator tests of the browser-escalating scrapers (Google, Ecosia, Mojeek).

Neither is autouse: a module opts in with
``pytestmark = pytest.mark.usefixtures("no_browser_escalation")``.
"""

import pytest

from tests.functional._sim_helpers import MISSING_CHROMIUM


@pytest.fixture
def no_browser_escalation(monkeypatch: pytest.MonkeyPatch) -> None:
    """Escalation off, so the plain fetch's page is final and no Chromium is started."""
    monkeypatch.setenv("WEBSEARCH_BROWSER", "off")


@pytest.fixture
def browser_missing(no_browser_escalation: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Escalation on, towards a Chromium that does not exist (so the browser never runs).

    It asks for :func:`no_browser_escalation` so that it always runs after it, whatever the
    order of the marks that request the two.
    """
    monkeypatch.delenv("WEBSEARCH_BROWSER")
    monkeypatch.setenv("WEBSEARCH_CHROMIUM_PATH", MISSING_CHROMIUM)
