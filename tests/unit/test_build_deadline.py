"""The deadline a first call has before its settings are read, which bounds its build.

A tool given neither a ``Settings`` nor ``deadline_seconds=`` had none (its build's
imports waited with no limit): it now has what it would have without a config file, the
environment's ``WEBSEARCH_DEADLINE_SECONDS`` or the default. A fetch's is the sooner of
the deadline and the timeout, as a fetch's own deadline is.
"""

from pathlib import Path

import pytest

from websearch_core import Settings
from websearch_core.build_deadline import BuildBound, known_deadline, known_fetch_deadline
from websearch_core.config_deadlines import written_deadlines
from websearch_core.content.fetch_call import call_seconds
from websearch_core.errors import ConfigurationError
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


def test_a_lowercase_variable_is_known_as_the_settings_read_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``websearch_deadline_seconds``, which the settings read, bounds the build too.

    Failed before: only ``WEBSEARCH_DEADLINE_SECONDS`` was looked at (the default, 55 s).
    """
    monkeypatch.setenv("websearch_deadline_seconds", "4.5")
    assert known_deadline(None, {}) == Settings().deadline_seconds == 4.5
    monkeypatch.setenv("WebSearch_Timeout_Seconds", "2")
    assert known_fetch_deadline(None, {}) == call_seconds(Settings(), None) == 2.0


def test_a_blank_spelling_leaves_the_set_one_for_the_settings_and_the_build(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A blank ``websearch_deadline_seconds`` after a set ``WEBSEARCH_DEADLINE_SECONDS``.

    Blank is unset (:mod:`~websearch_core.env_values`), so the set one answers, in both.
    Failed before: the settings lowercased the names first, the blank one hid the set
    one, and the settings had the default (55 s) where the build had 4.
    """
    monkeypatch.setenv("WEBSEARCH_DEADLINE_SECONDS", "4")
    monkeypatch.setenv("websearch_deadline_seconds", " ")
    assert Settings().deadline_seconds == known_deadline(None, {}) == 4.0


@pytest.mark.parametrize(
    ("file", "environment", "given"),
    [
        ("deadline_seconds = 3\n", {}, {}),
        ("deadline_seconds = 3\ntimeout_seconds = 2\n", {}, {}),
        ("deadline_seconds = 3\n", {"WEBSEARCH_DEADLINE_SECONDS": "8"}, {}),
        ("deadline_seconds = 3\n", {"websearch_deadline_seconds": "8"}, {}),
        ("deadline_seconds = 3\n", {}, {"deadline_seconds": 6}),
        ("deadline_seconds = 900\n", {}, {}),
        ("timeout_seconds = 4\n", {}, {}),
        ("", {}, {}),
    ],
)
def test_a_config_files_deadline_read_first_is_the_one_the_settings_read(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    file: str,
    environment: dict[str, str],
    given: dict[str, object],
) -> None:
    """The file's entries, read before the build, give the deadline the build's settings have.

    Compared with the settings read from the same file, environment and options, for a
    search and for a fetch. Failed before: the file was not read before the build
    (no :mod:`~websearch_core.config_deadlines`; ``known_deadline`` took no entries).
    """
    config = tmp_path / "mine.toml"
    config.write_text(file)
    monkeypatch.setenv("WEBSEARCH_CONFIG_FILE", str(config))
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    written = written_deadlines(None)
    settings = Settings(**given)  # type: ignore[arg-type]  # the options a tool passes on
    assert BuildBound(None, given).seconds(written) == settings.deadline_seconds
    assert BuildBound(None, given, fetch=True).seconds(written) == call_seconds(settings, None)


def test_a_config_file_named_by_the_option_is_the_one_read(tmp_path: Path) -> None:
    """``config_file=`` given names the file read first, as it names the settings' file.

    Failed before: no file was read before the build.
    """
    named = tmp_path / "named.toml"
    named.write_text("deadline_seconds = 7\n")
    assert written_deadlines(str(named)) == {"deadline_seconds": 7}
    assert Settings(config_file=named).deadline_seconds == 7.0


@pytest.mark.parametrize(
    "content", [b"deadline_seconds = \n", b"\xff\xfe\x00d", b"[budget]\nbrave = 2000\n"]
)
def test_a_config_file_that_cannot_be_used_gives_no_entries(tmp_path: Path, content: bytes) -> None:
    """Not TOML, not UTF-8, or refused by the settings: nothing read; the build says why.

    The deadline known without the file bounds the build, whose settings refuse the file
    with their own message. Failed before: no file was read before the build.
    """
    config = tmp_path / "bad.toml"
    config.write_bytes(content)
    assert written_deadlines(str(config)).get("deadline_seconds") is None
    with pytest.raises(ConfigurationError):
        Settings(config_file=config)


_WRITTEN_FORMS = ["3", '"3"', '" 4.5 "', "1000", '"1_000"', '"inf"', "true", '"soon"', "0"]
"""``deadline_seconds`` as a config file may write it: numbers, numbers as text, refused."""


def _settings_deadline(**given: object) -> float | None:
    """The deadline the settings read from the environment and file; ``None``: refused."""
    try:
        return Settings(**given).deadline_seconds  # type: ignore[arg-type]
    except (ConfigurationError, ValueError):  # the build refuses it, saying why
        return None


@pytest.mark.parametrize("written", _WRITTEN_FORMS)
def test_the_files_deadline_is_read_before_the_build_as_the_settings_read_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, written: str
) -> None:
    """One parser: ``deadline_seconds = "3"`` bounds the build by 3 s, as the settings take it.

    A value the settings refuse bounds nothing of its own (the default does; the build then
    refuses it). Failed before for ``"3"``, ``" 4.5 "``, ``1000`` and ``true``: the first
    took text as nothing (the build bounded by 55 s, the settings' deadline 3 s) and a
    number over the settings' 900 s bound as the build's deadline. The other forms are
    guards (passed before too).
    """
    config = tmp_path / "config.toml"
    config.write_text(f"deadline_seconds = {written}\n")
    monkeypatch.setenv("WEBSEARCH_CONFIG_FILE", str(config))
    read = _settings_deadline()
    expected = DEFAULT_DEADLINE_SECONDS if read is None else read
    assert known_deadline(None, {}, written_deadlines(None)) == expected


@pytest.mark.parametrize("variable", ["3", " 4.5 ", "1_000", "1000", "nan", "soon", "0x10"])
def test_the_variables_deadline_is_read_before_the_build_as_the_settings_read_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, variable: str
) -> None:
    """``WEBSEARCH_DEADLINE_SECONDS`` read by the settings' parser too, not ``float()``.

    Failed before for ``1_000`` and ``1000``: ``float()`` took them (1000 s bounded the
    build) where the settings refuse both. The other values are guards (passed before too).
    """
    (tmp_path / "empty.toml").write_text("")
    monkeypatch.setenv("WEBSEARCH_CONFIG_FILE", str(tmp_path / "empty.toml"))
    monkeypatch.setenv("WEBSEARCH_DEADLINE_SECONDS", variable)
    read = _settings_deadline()
    expected = DEFAULT_DEADLINE_SECONDS if read is None else read
    assert known_deadline(None, {}) == expected


def test_a_lowercase_config_file_variable_names_the_file_both_readers_read(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``websearch_config_file`` names the file the settings read and the one read first.

    The settings read their variables in any case of letters. Failed before: it set the
    settings' ``config_file`` field, but the settings read the default file (the
    provider, the deadline written in it were not read) and so did the early read.
    """
    config = tmp_path / "lower.toml"
    config.write_text('deadline_seconds = 6\nprovider = "brave"\n')
    monkeypatch.delenv("WEBSEARCH_CONFIG_FILE", raising=False)
    monkeypatch.setenv("websearch_config_file", str(config))
    settings = Settings()
    assert settings.resolved_config_file() == config
    assert (settings.provider, settings.deadline_seconds) == ("brave", 6.0)
    assert known_deadline(None, {}, written_deadlines(None)) == settings.deadline_seconds
