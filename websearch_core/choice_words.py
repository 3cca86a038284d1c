"""A word not among a parameter's allowed words, refused with the word probably meant.

``--recency daily`` from the command answered ``did you mean day?``, but the same slip
from Python (``run("q", recency="daily")``, ``SearchParams``, either tool) got pydantic's
list alone: ``Input should be 'day', 'week', 'month' or 'year'``. Every way in now says
the list and the word meant. The hint is worked out on the error path only: a valid
call pays nothing for it (no wrap validator on the field).
"""

import re
from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError
from pydantic_core import InitErrorDetails, PydanticCustomError

from .meant_names import as_before, meant

__all__ = ["choice_meant", "choices_meant"]

_LITERAL = "literal_error"
"""Pydantic's error type for a value that is none of a ``Literal``'s words."""

_QUOTED = re.compile(r"'([^']*)'")
"""One allowed word as pydantic's ``expected`` lists them: ``'day', 'week' or 'year'``."""


def choice_meant(detail: Mapping[str, Any]) -> str:
    """``; did you mean day?`` for a ``literal_error`` on a near word, else ``""``.

    Args:
        detail: One error as pydantic reports it (``ValidationError.errors()``'s item).

    Example:
        >>> choice_meant(
        ...     {"type": "literal_error", "input": "daily", "ctx": {"expected": "'day' or 'week'"}}
        ... )
        '; did you mean day?'
        >>> choice_meant({"type": "literal_error", "input": "soon", "ctx": {"expected": "'day'"}})
        ''
    """
    given = detail.get("input")
    if detail.get("type") != _LITERAL or not isinstance(given, str):
        return ""
    expected = (detail.get("ctx") or {}).get("expected")
    if not isinstance(expected, str):
        return ""
    hint = meant(given.strip(), _QUOTED.findall(expected))
    message = detail.get("msg")
    if isinstance(message, str) and message.endswith(hint):
        return ""  # said already (a SearchParams error read again by a tool)
    return hint


def choices_meant(error: ValidationError) -> ValidationError | None:
    """``error`` with each near miss of a word list given its hint, or ``None`` if none is.

    The error keeps its type (``literal_error``), location, input and context, and every
    other error as it was; only the message gains ``; did you mean <word>?``.
    """
    details: list[InitErrorDetails] = []
    rewritten = False
    for detail in error.errors():
        hint = choice_meant(detail)
        if not hint:
            details.append(as_before(detail))
            continue
        rewritten = True
        kind = PydanticCustomError(_LITERAL, detail["msg"] + hint, detail.get("ctx"))
        details.append(InitErrorDetails(type=kind, loc=detail["loc"], input=detail["input"]))
    return ValidationError.from_exception_data(error.title, details) if rewritten else None
