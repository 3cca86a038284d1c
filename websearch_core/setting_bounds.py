"""A number setting or parameter out of its range, in words naming its unit and whole range.

pydantic words a bound it checks ``Input should be greater than 0``: the bound, not what
it counts (``WEBSEARCH_TIMEOUT_SECONDS=0`` is seconds, ``WEBSEARCH_MAX_RESPONSE_BYTES=10``
bytes) nor the other end of the range, which a user then met as a second refusal
(``... less than or equal to 300``). Read from the field's own constraints, so the words
cannot drift from what is checked; the error keeps pydantic's type (``greater_than``) and
context, so code that reads them reads the same. The search and fetch parameters with
bounds (``limit``, ``max_chars``, ...) are worded here too, from the CLI, the Python API and
the tools alike.
"""

from collections.abc import Sequence
from typing import get_args

import annotated_types
from pydantic import BaseModel, ValidationError, ValidationInfo, ValidatorFunctionWrapHandler
from pydantic.fields import FieldInfo
from pydantic_core import ErrorDetails, InitErrorDetails, PydanticCustomError

from .meant_names import as_before

__all__ = [
    "RANGE_ERROR_TYPES",
    "checked_in_range",
    "checked_parameter",
    "field_constraints",
    "range_error",
    "range_text",
    "ranges_said",
]

RANGE_ERROR_TYPES = frozenset(
    {"greater_than", "greater_than_equal", "less_than", "less_than_equal"}
)
"""pydantic's error types for a number past one of its field's bounds."""

_UNITS = (("_seconds", "seconds"), ("_bytes", "bytes"))
"""What a number setting counts, by its name's ending: every bounded setting has one."""

_PARAMETER_UNITS = {
    "limit": "results",
    "num_search_results": "results",
    "max_tokens": "tokens",
    "max_chars": "characters",
    "temperature": "",
    "k": "results",
}
"""What a bounded search or fetch parameter counts, by its name (``""``: a plain number).
pydantic said ``limit: Input should be greater than or equal to 1`` to ``--limit 0`` and
``... less than or equal to 100`` to ``--limit 500``: one end of the range each time."""


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
        >>> range_text("limit", [annotated_types.Ge(1), annotated_types.Le(100)])
        'must be at least 1 and at most 100 results'
        >>> range_text("temperature", [annotated_types.Ge(0.0), annotated_types.Le(2.0)])
        'must be at least 0 and at most 2'
    """
    unit = _PARAMETER_UNITS.get(field)
    if unit is None:
        unit = next((word for ending, word in _UNITS if field.endswith(ending)), None)
    bounds = [_bound_words(constraint) for constraint in constraints]
    said = [words for words in bounds if words is not None]
    if unit is None or not said:
        return None
    return f"must be {' and '.join(said)}{f' {unit}' if unit else ''}"


def field_constraints(field: FieldInfo) -> list[object]:
    """A field's bounds, also where they sit on an optional type's ``Annotated`` arm.

    ``limit: Annotated[int, Field(ge=1, le=100)] | None`` keeps its bounds on the arm, not on
    the field: its ``metadata`` is empty.

    Example:
        >>> from typing import Annotated
        >>> from pydantic import BaseModel, Field
        >>> class Asked(BaseModel):
        ...     limit: Annotated[int, Field(ge=1, le=100)] | None = None
        >>> field_constraints(Asked.model_fields["limit"])
        [Ge(ge=1), Le(le=100)]
    """
    if field.metadata:
        return list(field.metadata)
    for arm in get_args(field.annotation):
        for meta in getattr(arm, "__metadata__", ()):
            if isinstance(meta, FieldInfo) and meta.metadata:
                return list(meta.metadata)
    return []


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


def checked_parameter(
    model: type[BaseModel],
    value: object,
    handler: ValidatorFunctionWrapHandler,
    info: ValidationInfo,
) -> object:
    """The body of a search or fetch parameter's ``mode="wrap"`` validator (``limit``, ...).

    Both retrievers' ``k``, checked once per retriever built, word a bound so (``k: must be
    at least 1 and at most 100 results``), read from ``model``'s field. The search and fetch
    parameters, given with every call, are worded by :func:`ranges_said` on the error path
    alone, in the same words.
    """
    field = str(info.field_name)
    return checked_in_range(value, handler, field, field_constraints(model.model_fields[field]))


def ranges_said(model: type[BaseModel], error: ValidationError) -> ValidationError | None:
    """``error`` with each search or fetch parameter past a bound said with its whole range.

    Called where a model's :class:`~pydantic.ValidationError` is already caught
    (``SearchParams``' ``mode="wrap"`` model validator, the tools' error texts), so only a
    refused call pays for the words: a field validator wrapping ``limit`` cost every search
    that passed one about 2 us. The words, type and context are :func:`checked_parameter`'s.

    Args:
        model: The model refused (``SearchParams``, a tool's arguments), whose fields give
            the bounds.
        error: Its validation error.

    Returns:
        The error rewritten (each other error as it was), or ``None`` when no parameter's
        bound was refused.

    Example:
        >>> from websearch_core.models import SearchParams
        >>> try:
        ...     SearchParams(query="q", limit=0)
        ... except ValidationError as caught:
        ...     print(caught.errors()[0]["msg"])
        must be at least 1 and at most 100 results
    """
    rewritten = False
    details: list[InitErrorDetails] = []
    for detail in error.errors():
        location = detail["loc"]
        name = location[0] if len(location) == 1 else None
        field = model.model_fields.get(name) if isinstance(name, str) else None
        worded = None
        if field is not None and name in _PARAMETER_UNITS:
            worded = range_error(detail, str(name), field_constraints(field))
        if worded is None:
            details.append(as_before(detail))
            continue
        rewritten = True
        details.append(InitErrorDetails(type=worded, loc=location, input=detail["input"]))
    return ValidationError.from_exception_data(error.title, details) if rewritten else None


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
