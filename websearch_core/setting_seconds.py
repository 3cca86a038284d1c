"""A deadline setting's value, read by the settings' own rule for it: one parser, two readers.

A first call works out its deadline before its settings are read
(:mod:`~websearch_core.build_deadline`), from the same values the settings then read: an
option given, a variable, the config file's entry. It took a number only, and its own
``float()`` for a variable: ``deadline_seconds = "3"`` in the config file was 3 s to the
settings (pydantic reads a number written as text) and nothing to the first call, whose
build was bounded by the default 55 s; ``WEBSEARCH_DEADLINE_SECONDS=1_000`` was 1000 s to
it and an error to the settings. So each value is read here by the settings' own field,
its type and bounds (``gt``, ``le``, no infinity), with pydantic's validator: what the
settings refuse is ``None`` here (the build then says what is wrong with it).

Only a first call's build reads these (some hundred microseconds for a field's validator,
once), after the settings module is imported: this module imports it when asked, not when
imported, so an adapter's import stays without ``pydantic-settings``.
"""

import functools
from typing import TYPE_CHECKING, Annotated, Any, Literal, cast

if TYPE_CHECKING:
    from pydantic import TypeAdapter

__all__ = ["DeadlineSetting", "setting_seconds"]

DeadlineSetting = Literal["deadline_seconds", "timeout_seconds"]
"""The settings a call's deadline is worked out from (a fetch's takes the sooner)."""


def setting_seconds(name: DeadlineSetting, value: object) -> float | None:
    """``value`` as setting ``name`` reads it, or ``None`` when unset or refused there.

    Args:
        name: The setting.
        value: As given, written in the config file, or set in a variable (text).

    Example:
        >>> setting_seconds("deadline_seconds", "3"), setting_seconds("deadline_seconds", 3)
        (3.0, 3.0)
        >>> setting_seconds("deadline_seconds", "1_000") is None  # the settings refuse it
        True
        >>> setting_seconds("timeout_seconds", 301) is None  # over its bound
        True
    """
    if value is None:
        return None
    try:
        seconds = _validator(name).validate_python(value)
    except ValueError:  # pydantic's ValidationError: refused, as the settings refuse it
        return None
    return None if seconds is None else float(seconds)


@functools.cache
def _validator(name: DeadlineSetting) -> "TypeAdapter[Any]":
    """The settings' field ``name`` (its type and bounds) as a validator of one value."""
    from pydantic import TypeAdapter

    from .settings import Settings

    field = Settings.model_fields[name]
    annotated = cast("Any", Annotated)[(field.annotation, *field.metadata)]
    return TypeAdapter(annotated)
