"""The deadline a first call has before its settings are read, which bounds its build.

A tool given neither a ``Settings`` nor ``deadline_seconds=`` had none (its build's
imports waited with no limit): it now has what it would have without a config file, the
environment's ``WEBSEARCH_DEADLINE_SECONDS`` or the default. A fetch's is the sooner of
the deadline and the timeout, as a fetch's own deadline is.
"""

import pytest

from websearch_core import Settings
from websearch_core.build_deadline import known_deadline, known_fetch_deadline
from websearch_core.content.fetch_call import call_seconds
from websearch_core.settings_limits import DEFAULT_DEADLINE_SECONDS


@pytest.fixture(autouse=True)
def _no_deadline_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test sets the variables it reads; the machine's own are left out."""
    monkeypatch.delenv("WEBSEARCH_DEADLINE_SECONDS", raising=False)
    monkeypatch.delenv("WEBSEARCH_TIMEOUT_SECONDS", raising=False)


def test_a_tool_given_nothing_has_the_settings_default_before_reading_them() -> None:
    """Nothing given, nothing in the environment: the default a read would give.

    Failed before: ``None`` (no deadline, the build's imports unbounded).
    """
    assert known_deadline(None, {}) == Settings.model_fields["deadline_seconds"].default
    assert known_deadline(None, {}) == DEFAULT_DEADLINE_SECONDS


def test_a_tool_given_nothing_has_the_environments_deadline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``WEBSEARCH_DEADLINE_SECONDS`` is what the settings will read: no file outranks it.

    Failed before: ``None``.
    """
    monkeypatch.setenv("WEBSEARCH_DEADLINE_SECONDS", " 4.5 ")
    assert known_deadline(None, {}) == 4.5
    assert known_deadline(None, {}) == Settings().deadline_seconds
    assert known_deadline(None, {"deadline_seconds": 2}) == 2.0  # given outranks it


@pytest.mark.parametrize("written", ["soon", "0", "-3", "nan", "inf", " "])
def test_a_variable_the_settings_would_refuse_leaves_the_default(
    monkeypatch: pytest.MonkeyPatch, written: str
) -> None:
    """A bad value bounds nothing of its own: the default bounds the build, which refuses it.

    Failed before: ``None``.
    """
    monkeypatch.setenv("WEBSEARCH_DEADLINE_SECONDS", written)
    assert known_deadline(None, {}) == DEFAULT_DEADLINE_SECONDS


def test_a_given_settings_alone_answers_not_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A ``Settings`` given was made from the environment already; it answers for itself.

    A guard: a ``Settings`` given set the deadline before too.
    """
    settings = Settings(deadline_seconds=7)
    monkeypatch.setenv("WEBSEARCH_DEADLINE_SECONDS", "4")
    assert known_deadline(settings, {}) == 7.0
    assert known_deadline(settings, {"deadline_seconds": 2}) == 2.0


@pytest.mark.parametrize(
    ("settings", "given", "environment"),
    [
        (Settings(deadline_seconds=9, timeout_seconds=2), {}, {}),
        (Settings(deadline_seconds=9), {"timeout_seconds": 3}, {}),
        (None, {"deadline_seconds": 6}, {"WEBSEARCH_TIMEOUT_SECONDS": "5"}),
        (None, {}, {"WEBSEARCH_TIMEOUT_SECONDS": "70"}),
        (None, {}, {}),
    ],
)
def test_a_fetchs_known_deadline_is_the_one_its_fetch_counts(
    monkeypatch: pytest.MonkeyPatch,
    settings: Settings | None,
    given: dict[str, object],
    environment: dict[str, str],
) -> None:
    """The fetch's deadline known before the build is the one the fetch then has.

    Compared with :func:`call_seconds` over the settings the build makes from the same
    options. Failed before: there was no fetch deadline before the build.
    """
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    built = (settings or Settings()).model_copy(update=given)
    assert known_fetch_deadline(settings, given) == call_seconds(built, None)
