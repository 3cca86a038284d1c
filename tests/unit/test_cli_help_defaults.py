"""The search command's ``--help`` states the defaults the code uses.

The help wrote ``15-60 s``, ``default 55`` and ``the top 3 results`` by hand; they are now
written from the settings' limits and the client's page count, and these checks read the
values from where they take effect (the settings, ``WebSearch.run``'s signature).
"""

import inspect
import re

import pytest

from websearch_core import WebSearch
from websearch_core.cli import main
from websearch_core.providers import SEARCH_PROVIDER_ORDER, get_provider
from websearch_core.settings import Settings


def _help(capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["--help"]) == 0
    return " ".join(capsys.readouterr().out.split())  # argparse's wrapping undone


def test_the_timeout_help_spans_the_providers_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    """A guard (passes before and after the change): the span is the providers' own."""
    settings = Settings(timeout_seconds=None)
    given = {
        settings.provider_timeout(get_provider(pid).info.kind) for pid in SEARCH_PROVIDER_ORDER
    }
    span = f"{min(given):g}-{max(given):g} s"
    assert f"--timeout SECONDS time for each provider (default: by kind, {span})" in _help(capsys)


def test_the_deadline_help_names_the_settings_default(capsys: pytest.CaptureFixture[str]) -> None:
    """A guard (passes before and after the change): the default is the settings'."""
    default = Settings.model_fields["deadline_seconds"].default
    found = re.search(r"--deadline SECONDS .*?\(default (\d+(?:\.\d+)?)\)", _help(capsys))
    assert found is not None and float(found.group(1)) == default


def test_the_content_help_names_the_pages_a_search_fetches(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A guard (passes before and after the change): the count is ``run``'s default."""
    pages = inspect.signature(WebSearch.run).parameters["content_limit"].default
    assert f"--content also fetch the top {pages} results' pages" in _help(capsys)


def test_the_fetch_timeout_help_states_its_default_and_bound(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """It said only "deadline for the whole fetch": neither its default nor its bound.

    The bound is read from the check the command applies, the default from the function
    that works it out (both settings unset, the deadline's default alone).
    """
    from websearch_core.content.fetch_call import call_seconds, checked_fetch_seconds

    assert main(["fetch", "--help"]) == 0
    shown = " ".join(capsys.readouterr().out.split())
    bound = re.search(r"--timeout SECONDS deadline for the whole fetch \(([^)]*)\)", shown)
    assert bound is not None
    most = float(bound.group(1).rsplit("at most ", 1)[1])
    assert checked_fetch_seconds(most) == most
    with pytest.raises(ValueError):
        checked_fetch_seconds(most + 1)
    assert "the sooner of the deadline_seconds and timeout_seconds settings" in bound.group(1)
    settings = Settings(timeout_seconds=7)
    assert call_seconds(settings, None) == min(settings.deadline_seconds, 7)
