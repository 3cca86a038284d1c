"""A tool's first call ends by its deadline while building its client imports.

A tool or retriever builds its client at its first call, after importing, off the loop
(or off the caller's thread, for a synchronous call), what building needs (the settings'
wording, ``platformdirs``, ``tomllib``, the refresh hooks' check:
:mod:`~websearch_core.provider_imports`). That wait had no limit: with one of those
imports held (a slow disk, an import lock another thread keeps), a 3 s call waited as long
as the import did. So the wait ends by the deadline the call has before its settings are
read (:func:`known_deadline`), and the call says which module it was still importing.

A tool given neither a :class:`~websearch_core.Settings` nor ``deadline_seconds=`` reads
its deadline from the settings those imports read (the environment and the config file).
The environment's ``WEBSEARCH_DEADLINE_SECONDS`` (in any case of letters, as the settings
read it; a config file cannot outrank it) is known at once. A config file's
``deadline_seconds`` is what a user who wrote it expects every call to end by, the first
too, so a call that builds reads the file's deadlines first, off its thread
(:mod:`~websearch_core.config_deadlines`), by the deadline known without it (the
environment's, else the default 55 s): a file that cannot be read in that time (a hung
network disk) ends the call then. :class:`BuildBound` carries what a call was given to
where it builds, which works these out only then (not at every call).

The wait itself is :func:`~websearch_core.provider_imports.import_for_build`; this module
is light (an adapter imports it with itself, to catch the error).
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .env_values import setting_variable
from .errors import AllProvidersFailedError
from .imports_advice import with_imports_advice
from .models import SearchResponse, SearchToolResult
from .setting_seconds import DeadlineSetting, setting_seconds
from .settings_limits import DEFAULT_DEADLINE_SECONDS

if TYPE_CHECKING:
    from .content.errors import FetchTimeoutError

__all__ = ["BuildBound", "BuildImportsOutlastedError", "known_deadline", "known_fetch_deadline"]

_ENV_PREFIX = "WEBSEARCH_"
"""The settings' variables' prefix (``WEBSEARCH_DEADLINE_SECONDS``), as the settings read it."""


class BuildImportsOutlastedError(AllProvidersFailedError):
    """A first call's deadline passed while building its client imported; no provider asked.

    An :class:`~websearch_core.errors.AllProvidersFailedError`, as a search whose own
    imports outlast its deadline raises, so a retriever's callers catch it where they
    already do; a tool answers with :meth:`tool_result`, as it answers any failure, and a
    fetch tool with :meth:`fetch_error`, as it answers a page whose deadline passed.

    Args:
        seconds: The call's deadline, as set.
        module: The module still being imported when it passed.
        reading: The config file being read when it passed (its path), instead: the
            imports' advice does not apply then.
    """

    def __init__(self, seconds: float, module: str, *, reading: str | None = None) -> None:
        doing = f"importing {module}" if reading is None else f"reading the config file {reading}"
        said = (
            f"the {seconds:g}s deadline for the whole search ran out while building the "
            f"client: {doing} had not finished; no provider was asked"
        )
        super().__init__(said if reading is not None else with_imports_advice(said), ())
        self.seconds = seconds
        self.module = module
        self.doing = doing

    def tool_result(self) -> SearchToolResult:
        """What a tool answers for it: the error text, no provider named, none asked."""
        message = str(self)
        return SearchToolResult(
            text=f"Error: {message}", response=SearchResponse(provider="none"), error=message
        )

    def fetch_error(self, url: str) -> "FetchTimeoutError":
        """What a fetch tool answers for it: ``url``'s timeout, as when a fetch's deadline passes.

        Worded as the fetcher words a page whose deadline passed before its turn (``the 3 s
        deadline passed ...``), with where the time went.
        """
        from .content.errors import FetchTimeoutError  # a fetch tool has it imported

        return FetchTimeoutError(
            url,
            f"the {self.seconds:g} s deadline passed while building the client: "
            f"{self.doing} had not finished",
        )


@dataclass(frozen=True, slots=True)
class BuildBound:
    """A call's options, from which its build's bound is worked out when it builds.

    A tool passes one at every call; only a call that builds asks it (:meth:`seconds`),
    so the environment is read, and the config file's deadlines, at the build alone.

    Args:
        settings: The ``settings=`` option given (a ``Settings``), or ``None``.
        given: The other options given, by name (a fetch tool's ``timeout_seconds`` among
            them).
        fetch: A fetch's bound (:func:`known_fetch_deadline`), not a search's.
    """

    settings: object
    given: Mapping[str, object]
    fetch: bool = False

    @property
    def reads_config_file(self) -> bool:
        """Whether building reads the settings, config file and all: no ``Settings`` given."""
        return self.settings is None

    @property
    def config_file(self) -> object:
        """The ``config_file=`` option given, or ``None`` (the variable's, or the default)."""
        return self.given.get("config_file")

    def seconds(self, written: Mapping[str, object] | None = None) -> float:
        """The call's deadline, with the config file's entries ``written`` when read.

        Example:
            >>> BuildBound(None, {}).seconds({"deadline_seconds": 3})
            3.0
        """
        if self.fetch:
            return known_fetch_deadline(self.settings, self.given, written)
        return known_deadline(self.settings, self.given, written)


def known_deadline(
    settings: object, given: Mapping[str, object], written: Mapping[str, object] | None = None
) -> float:
    """The deadline a call has before its settings are read: what bounds its build's imports.

    ``deadline_seconds=`` given wins over the given settings' own, as the build ranks
    them. With neither, the settings are not read yet (the imports bounded here read
    them), so the call has the environment's ``WEBSEARCH_DEADLINE_SECONDS`` (any case of
    its letters, as the settings read it), which a config file cannot outrank, else the
    config file's entry (``written``, once read), else the default. Each is read as the
    settings read it (``"3"`` is 3 s); a value the build would refuse (not a number, not
    over 0, over the most it may be) is passed over here: the build says what is wrong
    with it.

    Args:
        settings: The ``settings=`` option given (a ``Settings``), or ``None``.
        given: The other options given, by name.
        written: The config file's ``deadline_seconds`` and ``timeout_seconds`` as written
            (:mod:`~websearch_core.config_deadlines`); ``None`` before it is read.

    Example:
        >>> known_deadline(None, {"deadline_seconds": 3})
        3.0
        >>> known_deadline(None, {"deadline_seconds": -1}) == known_deadline(None, {})
        True
    """
    seconds = _known(settings, given, "deadline_seconds", written)
    return DEFAULT_DEADLINE_SECONDS if seconds is None else seconds


def known_fetch_deadline(
    settings: object, given: Mapping[str, object], written: Mapping[str, object] | None = None
) -> float:
    """The deadline a fetch has before its settings are read: the sooner of two, as a fetch's.

    A fetch given no ``timeout_seconds`` of its own ends by the sooner of the settings'
    ``deadline_seconds`` and ``timeout_seconds``
    (:func:`~websearch_core.content.fetch_call.call_seconds`); each is known here as
    :func:`known_deadline` knows the first.

    Args:
        settings: The ``settings=`` option given (a ``Settings``), or ``None``.
        given: The other options given, by name (a tool's ``timeout_seconds`` among them).
        written: The config file's entries as written, as :func:`known_deadline` takes them.

    Example:
        >>> known_fetch_deadline(None, {"deadline_seconds": 9, "timeout_seconds": 2})
        2.0
    """
    deadline = known_deadline(settings, given, written)
    timeout = _known(settings, given, "timeout_seconds", written)
    return deadline if timeout is None else min(deadline, timeout)


def _known(
    settings: object,
    given: Mapping[str, object],
    name: DeadlineSetting,
    written: Mapping[str, object] | None,
) -> float | None:
    """Setting ``name`` as given, else the given settings', the environment's, the file's.

    The file's entry (``written``) answers when it was read; else ``None``. Each value is
    read as the settings read it (:func:`~websearch_core.setting_seconds.setting_seconds`:
    ``"3"`` is 3 s, a value they refuse is none).

    A ``Settings`` given was made from the environment already, so it alone answers then.
    """
    seconds = setting_seconds(name, given.get(name))
    if seconds is not None:
        return seconds
    if settings is not None:
        return setting_seconds(name, getattr(settings, name, None))
    variable = setting_variable(f"{_ENV_PREFIX}{name}")
    if variable is None:
        return None if written is None else setting_seconds(name, written.get(name))
    return setting_seconds(name, variable)  # refused: the build refuses it, naming it
