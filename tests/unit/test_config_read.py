"""The config file read once: a first call's bounded read handed to its build's settings.

The settings a tool's first call builds read the file again after the call's bounded read
of its deadline, on the call's thread and with no limit. Handed that read
(:func:`~websearch_core.config_read.handing`), they take it for its path and touch the
disk no more; settings made outside the hand-over (a ``Settings()`` made directly, later
on the same thread) read the disk, as always.
"""

from pathlib import Path

import pytest

from tests.integrations._readme_scripts import user_env
from tests.websearch_process import run_websearch
from websearch_core import Settings
from websearch_core.config_read import handing, read_config
from websearch_core.errors import ConfigurationError


def test_settings_made_in_the_hand_over_take_the_read_not_the_disk(tmp_path: Path) -> None:
    """The file edited on disk after the read: the handed settings read what was read.

    Failed before: no hand-over (no :mod:`~websearch_core.config_read`); the build's
    settings read the disk again.
    """
    config = tmp_path / "config.toml"
    config.write_text('provider = "brave"\ndeadline_seconds = 4\n')
    read = read_config(config)
    config.write_text('provider = "exa"\n')  # what a second read would find
    with handing(read):
        handed = Settings(config_file=config)
    assert (handed.provider, handed.deadline_seconds) == ("brave", 4.0)


def test_settings_made_after_the_hand_over_read_the_disk(tmp_path: Path) -> None:
    """A ``Settings()`` made once the build is over reads the file as it is now.

    A guard (passes before and after): the hand-over ends with its ``with``; a stale
    read must not outlive the build that was handed it.
    """
    config = tmp_path / "config.toml"
    config.write_text('provider = "brave"\n')
    with handing(read_config(config)):
        pass
    config.write_text('provider = "exa"\n')
    assert Settings(config_file=config).provider == "exa"


def test_a_read_handed_for_another_path_is_not_taken(tmp_path: Path) -> None:
    """Settings that read another file (``config_file=`` of their own) read that file.

    Failed before: no hand-over to pass over.
    """
    handed = tmp_path / "handed.toml"
    handed.write_text('provider = "brave"\n')
    own = tmp_path / "own.toml"
    own.write_text('provider = "exa"\n')
    with handing(read_config(handed)):
        assert Settings(config_file=own).provider == "exa"


@pytest.mark.parametrize(
    ("make", "said"),
    [
        (lambda path: path.write_bytes(b"provider = \n"), "is not valid TOML"),
        (lambda path: path.write_bytes(b"\xff\xfep\x00"), "is saved as UTF-16"),
        (lambda path: path.mkdir(), "is a directory, not a file"),
        (lambda path: path.symlink_to(path.with_name("gone.toml")), "to a file that does not"),
        (lambda path: None, "does not exist"),
    ],
)
def test_a_handed_read_is_refused_as_the_disk_would_be(
    tmp_path: Path, make: object, said: str
) -> None:
    """What a read found wrong is said from the read, as the settings say it from the disk.

    The text is the settings' own: compared with settings made from the disk. Failed
    before: no hand-over.
    """
    config = tmp_path / "mine.toml"  # not the config.toml the tests' own setup writes
    make(config)  # type: ignore[operator]
    with pytest.raises(ConfigurationError) as from_disk:
        Settings(config_file=config)
    read = read_config(config)
    with handing(read), pytest.raises(ConfigurationError) as handed:
        Settings(config_file=config)
    assert said in str(handed.value)
    assert str(handed.value) == str(from_disk.value)


def test_a_path_the_disk_will_not_look_at_is_one_read_and_one_error(tmp_path: Path) -> None:
    """A name too long to look at: the read keeps the disk's error, the settings name it.

    Failed before: :func:`read_config` raised the ``OSError``, the first call's read handed
    nothing, and the settings looked again and let the ``OSError`` out (a traceback from
    ``websearch``); handed the read here, they look no more.
    """
    config = tmp_path / ("a" * 300) / "config.toml"
    read = read_config(config)
    assert (read.state, read.problem) == ("unreachable", "cannot be read: File name too long")
    with handing(read), pytest.raises(ConfigurationError) as refused:
        Settings(config_file=config)
    assert str(refused.value).endswith(f"config file {config} cannot be read: File name too long")


def test_the_command_says_a_path_it_cannot_look_at_in_one_line(tmp_path: Path) -> None:
    """Failed before: ``websearch`` printed ``internal error (a bug ...)`` and a traceback."""
    config = tmp_path / ("a" * 300) / "config.toml"
    env = user_env(tmp_path, WEBSEARCH_CONFIG_FILE=str(config))
    done = run_websearch(["python"], env=env)
    said = f"websearch: WEBSEARCH_CONFIG_FILE: config file {config} cannot be read: File name"
    assert (done.returncode, done.stdout, done.stderr.startswith(said)) == (2, "", True)
    assert done.stderr.count("\n") == 1, done.stderr
