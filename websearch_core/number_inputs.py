"""A number argument of a search given as text (``run("q", limit="5")``), said as such.

``run("q", limit="5")`` (a count read from a form, an environment variable or argparse
without ``type=int``) was refused with pydantic's ``Input should be a valid integer`` and
its documentation link: the user saw ``5``, an integer, and could not tell what was wrong.
The search parameters are strict, as the tools' (a model's ``"5"`` is refused there too,
in its own words: :func:`~websearch_core.tool_errors.invalid_arguments_text`), so the value
is still refused; the message now says what was given and what to write.
"""

from typing import Any

from pydantic import ValidationError
from pydantic_core import InitErrorDetails, PydanticCustomError

from .meant_names import as_before

__all__ = ["numbers_given_as_text"]

_NUMBER_TYPES = frozenset({"int_type", "float_type"})
"""Pydantic's error types for a strict number field given something else."""
_SHOWN_LENGTH = 24
"""The longest text repeated in the message; a longer one is not a number mistyped."""


def numbers_given_as_text(error: ValidationError) -> ValidationError | None:
    """``error`` with each number given as text, a bool or a fraction saying what to write.

    Args:
        error: A search parameters' validation error.

    Returns:
        The error rewritten (each other error as it was), or ``None`` when no number was
        given so.

    Example:
        >>> from websearch_core.models import SearchParams
        >>> try:
        ...     SearchParams(query="q", limit="5")
        ... except ValidationError as error:
        ...     print(numbers_given_as_text(error).errors()[0]["msg"])
        Input should be a valid integer, got the text '5': write the number itself, limit=5
    """
    rewritten = False
    details: list[InitErrorDetails] = []
    for detail in error.errors():
        location = detail["loc"]
        instead = None
        if detail["type"] in _NUMBER_TYPES and len(location) == 1:
            instead = _instead(str(location[0]), detail["input"], detail["type"] == "int_type")
        if instead is None:
            details.append(as_before(detail))
            continue
        rewritten = True
        kind = PydanticCustomError(detail["type"], detail["msg"] + instead)  # no braces
        details.append(InitErrorDetails(type=kind, loc=location, input=detail["input"]))
    return ValidationError.from_exception_data(error.title, details) if rewritten else None


def _instead(name: str, given: Any, whole: bool) -> str | None:
    """``, got the text '5': write the number itself, limit=5``, or ``None`` for another value."""
    if isinstance(given, bool):
        return f", got {given}: write a number"
    if isinstance(given, float) and whole:
        shown = f"{name}={int(given)}" if given.is_integer() else "a whole number"
        return f", got {given!r}: write {shown}"
    if not isinstance(given, str):
        return None
    if len(given) > _SHOWN_LENGTH:
        return ", got a text"
    number = _number(given.strip(), whole)
    if number is None:
        return f", got the text {given!r}"
    return f", got the text {given!r}: write the number itself, {name}={number}"


def _number(text: str, whole: bool) -> str | None:
    """``text`` as the number literal to write, or ``None`` when it is not one."""
    try:
        return str(int(text)) if whole else repr(float(text))
    except ValueError:
        return None
