"""A number setting out of its range, in words that name its unit and the whole range.

pydantic words a bound it checks ``Input should be greater than 0``: the bound, not what
it counts (``WEBSEARCH_TIMEOUT_SECONDS=0`` is seconds, ``WEBSEARCH_MAX_RESPONSE_BYTES=10``
bytes) nor the other end of the range, which a user then met as a second refusal
(``... less than or equal to 300``). Read from the field's own constraints, so the words
cannot drift from what is checked; the error keeps pydantic's type (``greater_than``) and
context, so code that reads them reads the same.
"""

from collections.abc import Sequence

import annotated_types
from pydantic import ValidationError, ValidatorFunctionWrapHandler
from pydantic_core import ErrorDetails, PydanticCustomError

__all__ = ["RANGE_ERROR_TYPES", "checked_in_range", "range_error", "range_text"]

RANGE_ERROR_TYPES = frozenset(
    {"greater_than", "greater_than_equal", "less_than", "less_than_equal"}
)
"""pydantic's error types for a number past one of its field's bounds."""

_UNITS = (("_seconds", "seconds"), ("_bytes", "bytes"))
"""What a number setting counts, by its name's ending: every bounded setting has one."""


def range_text(field: str, constraints: Sequence[object]) -> str | None:
    """``must be more than 0 and at most 300 seconds``: a field's range and unit.

    Args:
        field: The setting's field name (``timeout_seconds``), whose ending gives the unit.
        constraints: Its field's metadata (``Gt``, ``Ge``, ``Lt``, ``Le`` are read).

    Returns:
        The words, or ``None`` for a field with no unit or no bound known here.

    Example:
        >>> range_text("timeout_seconds", [annotated_types.Gt(0), annotated_types.Le(300.0)])
        'must be more than 0 and at most 300 seconds'
        >>> range_text("max_response_bytes", [annotated_types.Ge(1024)])
        'must be at least 1024 bytes'
    """
    unit = next((word for ending, word in _UNITS if field.endswith(ending)), None)
    bounds = [_bound_words(constraint) for constraint in constraints]
    said = [words for words in bounds if words is not None]
    if unit is None or not said:
        return None
    return f"must be {' and '.join(said)} {unit}"


def range_error(
    detail: ErrorDetails, field: str, constraints: Sequence[object]
) -> PydanticCustomError | None:
    """A number past a bound as pydantic refused it, said by :func:`range_text`; else ``None``.

    Args:
        detail: The one error the field's own check gave.
        field: The setting's field name.
        constraints: Its field's metadata.
    """
    if detail["type"] not in RANGE_ERROR_TYPES:
        return None
    words = range_text(field, constraints)
    if words is None:
        return None
    context = dict(detail.get("ctx") or {})
    return PydanticCustomError(detail["type"], words, context)


def checked_in_range(
    value: object, handler: ValidatorFunctionWrapHandler, field: str, constraints: Sequence[object]
) -> object:
    """``handler(value)``, a bound it refuses reworded by :func:`range_error`.

    The body of a ``mode="wrap"`` field validator: :class:`~websearch_core.Settings`' and the
    adapters' :class:`~websearch_core.client_options.ClientOptions`' ``timeout_seconds``
    are refused alike. Any other refusal is raised as pydantic gave it.

    Raises:
        pydantic_core.PydanticCustomError: ``value`` is past a bound (pydantic's type kept).
        pydantic.ValidationError: Any other refusal of the field's own check.
    """
    try:
        return handler(value)
    except ValidationError as error:
        details = error.errors()
        worded = range_error(details[0], field, constraints) if len(details) == 1 else None
        if worded is None:
            raise
        raise worded from None


def _bound_words(constraint: object) -> str | None:
    """``more than 0``, ``at least 0``, ``less than 1``, ``at most 300``; ``None`` for another."""
    if isinstance(constraint, annotated_types.Gt):
        return f"more than {_number(constraint.gt)}"
    if isinstance(constraint, annotated_types.Ge):
        return f"at least {_number(constraint.ge)}"
    if isinstance(constraint, annotated_types.Lt):
        return f"less than {_number(constraint.lt)}"
    if isinstance(constraint, annotated_types.Le):
        return f"at most {_number(constraint.le)}"
    return None


def _number(bound: object) -> str:
    """A bound as written in the README's table: ``300``, not ``300.0``; ``0.5`` as is."""
    if isinstance(bound, float) and bound.is_integer():
        return str(int(bound))
    return str(bound)
