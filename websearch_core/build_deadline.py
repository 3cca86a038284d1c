"""A tool's first call on a loop ends by its deadline while building its client imports.

A tool or retriever builds its client at its first call on a loop, after importing, off
the loop, what building needs (the settings' wording, ``platformdirs``, ``tomllib``, the
refresh hooks' check: :mod:`~websearch_core.provider_imports`). That wait had no limit:
with one of those imports held (a slow disk, an import lock another thread keeps), a 3 s
call waited as long as the import did. A tool given a :class:`~websearch_core.Settings`
or ``deadline_seconds=`` knows its deadline before any of them, so its wait ends by it and
the call says which module it was still importing; a tool given neither reads its
deadline from the settings those imports read, and still waits for them.

The wait itself is :func:`~websearch_core.provider_imports.import_for_build`; this module
is light (an adapter imports it with itself, to catch the error).
"""

import math
from collections.abc import Mapping

from .errors import AllProvidersFailedError
from .imports_advice import with_imports_advice
from .models import SearchResponse, SearchToolResult

__all__ = ["BuildImportsOutlastedError", "known_deadline"]


class BuildImportsOutlastedError(AllProvidersFailedError):
    """A first call's deadline passed while building its client imported; no provider asked.

    An :class:`~websearch_core.errors.AllProvidersFailedError`, as a search whose own
    imports outlast its deadline raises, so a retriever's callers catch it where they
    already do; a tool answers with :meth:`tool_result`, as it answers any failure.

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
        self.module = module

    def tool_result(self) -> SearchToolResult:
        """What a tool answers for it: the error text, no provider named, none asked."""
        message = str(self)
        return SearchToolResult(
            text=f"Error: {message}", response=SearchResponse(provider="none"), error=message
        )


def known_deadline(settings: object, given: Mapping[str, object]) -> float | None:
    """The deadline a tool's options set before its settings are read, if they set one.

    ``deadline_seconds=`` given wins over the given settings' own, as the build ranks
    them. A value the build would refuse (not a positive finite number) sets none here:
    the build says what is wrong with it.

    Args:
        settings: The ``settings=`` option given (a ``Settings``), or ``None``.
        given: The other options given, by name.

    Example:
        >>> known_deadline(None, {"deadline_seconds": 3})
        3.0
        >>> known_deadline(None, {}) is None
        True
    """
    seconds = given.get("deadline_seconds")
    if seconds is None:
        seconds = getattr(settings, "deadline_seconds", None)
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
        return None
    if not math.isfinite(seconds) or seconds <= 0:
        return None
    return float(seconds)
