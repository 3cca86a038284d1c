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
Until then it has the deadline it would have with no config file: the environment's
``WEBSEARCH_DEADLINE_SECONDS`` (which a config file cannot outrank), else the default 55 s.
A config file's ``deadline_seconds`` applies from the search on, once the file is read.

The wait itself is :func:`~websearch_core.provider_imports.import_for_build`; this module
is light (an adapter imports it with itself, to catch the error).
"""

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING

from .env_values import env_value
from .errors import AllProvidersFailedError
from .imports_advice import with_imports_advice
from .models import SearchResponse, SearchToolResult
from .settings_limits import DEFAULT_DEADLINE_SECONDS

if TYPE_CHECKING:
    from .content.errors import FetchTimeoutError

__all__ = ["BuildImportsOutlastedError", "known_deadline", "known_fetch_deadline"]

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
    """

    def __init__(self, seconds: float, module: str) -> None:
        said = (
            f"the {seconds:g}s deadline for the whole search ran out while building the "
            f"client: importing {module} had not finished; no provider was asked"
        )
        super().__init__(with_imports_advice(said), ())
        self.seconds = seconds
        self.module = module

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
            f"the {self.seconds:g} s deadline passed while building the client: importing "
            f"{self.module} had not finished",
        )


def known_deadline(settings: object, given: Mapping[str, object]) -> float:
    """The deadline a call has before its settings are read: what bounds its build's imports.

    ``deadline_seconds=`` given wins over the given settings' own, as the build ranks
    them. With neither, the settings are not read yet (the imports bounded here read
    them), so the call has what it would have without a config file: the environment's
    ``WEBSEARCH_DEADLINE_SECONDS``, which a config file cannot outrank, else the default.
    A value the build would refuse (not a positive finite number) is passed over here:
    the build says what is wrong with it.

    Args:
        settings: The ``settings=`` option given (a ``Settings``), or ``None``.
        given: The other options given, by name.

    Example:
        >>> known_deadline(None, {"deadline_seconds": 3})
        3.0
        >>> known_deadline(None, {"deadline_seconds": -1}) == known_deadline(None, {})
        True
    """
    seconds = _known(settings, given, "deadline_seconds")
    return DEFAULT_DEADLINE_SECONDS if seconds is None else seconds


def known_fetch_deadline(settings: object, given: Mapping[str, object]) -> float:
    """The deadline a fetch has before its settings are read: the sooner of two, as a fetch's.

    A fetch given no ``timeout_seconds`` of its own ends by the sooner of the settings'
    ``deadline_seconds`` and ``timeout_seconds``
    (:func:`~websearch_core.content.fetch_call.call_seconds`); each is known here as
    :func:`known_deadline` knows the first.

    Args:
        settings: The ``settings=`` option given (a ``Settings``), or ``None``.
        given: The other options given, by name (a tool's ``timeout_seconds`` among them).

    Example:
        >>> known_fetch_deadline(None, {"deadline_seconds": 9, "timeout_seconds": 2})
        2.0
    """
    deadline = known_deadline(settings, given)
    timeout = _known(settings, given, "timeout_seconds")
    return deadline if timeout is None else min(deadline, timeout)


def _known(settings: object, given: Mapping[str, object], name: str) -> float | None:
    """Setting ``name`` as given, else the given settings', else the environment's; or ``None``.

    A ``Settings`` given was made from the environment already, so it alone answers then.
    """
    seconds = _seconds(given.get(name))
    if seconds is not None:
        return seconds
    if settings is not None:
        return _seconds(getattr(settings, name, None))
    written = env_value(f"{_ENV_PREFIX}{name.upper()}")
    if written is None:
        return None
    try:
        return _seconds(float(written))
    except ValueError:  # not a number: the build refuses it, naming the variable
        return None


def _seconds(value: object) -> float | None:
    """``value`` as a deadline's seconds, or ``None`` when it is not a positive finite number."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if not math.isfinite(value) or value <= 0:
        return None
    return float(value)
