"""What is wrong with a date that is not one, said in words rather than pydantic's.

``--after 2026-13-01`` was refused with ``must be a date written YYYY-MM-DD, such as
2025-01-31, got '2026-13-01' (Input should be a valid date or datetime, month value is
outside expected range of 1-12)``: our form, then pydantic's own parenthesis, which speaks
of datetimes nobody gave. The form now ends with the part that is wrong (``its month, 13,
is not 01-12``) or the shape that was given instead; pydantic's error type
(``date_from_datetime_parsing``, ...) and context are kept for programs that match them.
"""

import calendar
import re

from pydantic_core import ErrorDetails, PydanticCustomError

__all__ = ["DATE_FORM", "date_error", "date_problem"]

DATE_FORM = "must be a date written YYYY-MM-DD, such as 2025-01-31"
"""The one shape a date parameter is written in, as every refusal of one starts."""

_PARTS = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
"""A date in the shape asked for, its value still unchecked."""

_LOOSE = re.compile(r"(\d{1,4})([-/.])(\d{1,2})\2(\d{1,4})")
"""Three numbers joined alike: a date in another order, separator or width."""


def date_problem(given: object) -> str:
    """What in ``given`` is not a calendar date written YYYY-MM-DD; ``""`` for no reading.

    Example:
        >>> date_problem("2026-13-01")
        'its month, 13, is not 01-12'
        >>> date_problem("2026-02-30")
        'its day, 30, is not 01-28 (2026-02 has 28 days)'
        >>> date_problem("2026/01/05")
        "its parts are joined by '/', not '-'"
    """
    if not isinstance(given, str):
        return ""
    text = given.strip()
    if text and text != given:
        return "it has blanks around it; give the date alone"
    whole = _PARTS.fullmatch(text)
    if whole is not None:
        return _out_of_range(whole)
    if _PARTS.match(text) is not None:
        return f"it goes on after the date ({text[10:][:20]!r}); give the date alone"
    if len(text) == 8 and text.isdigit():
        return f"its parts are not joined by '-' ({text[:4]}-{text[4:6]}-{text[6:]})"
    return _misshapen(text)


def _out_of_range(whole: re.Match[str]) -> str:
    """The part of a date in the right shape whose value no calendar has."""
    year, month = int(whole[1]), int(whole[2])
    if not 1 <= month <= 12:
        return f"its month, {whole[2]}, is not 01-12"
    if year < 1:
        return f"its year, {whole[1]}, is not a year"
    last = calendar.monthrange(year, month)[1]
    return f"its day, {whole[3]}, is not 01-{last} ({whole[1]}-{whole[2]} has {last} days)"


def _misshapen(text: str) -> str:
    """How ``text``, not in the shape YYYY-MM-DD, differs from it."""
    loose = _LOOSE.fullmatch(text)
    if loose is None:
        return "it is not in that shape" if text else "it is empty"
    first, separator, second, third = loose.groups()
    if len(first) != 4:
        return "the year comes first"
    if separator != "-":
        return f"its parts are joined by {separator!r}, not '-'"
    if len(second) != 2 or len(third) != 2:
        return "its month and day take two digits each"
    return "it is not in that shape"


def date_error(detail: ErrorDetails, field: str, given: object) -> PydanticCustomError:
    """The refusal of ``given`` as a date: our form and what is wrong, pydantic's type kept.

    Args:
        detail: The error pydantic's own date check gave.
        field: The parameter's name (``date_after``), said first as the other
            parameters' own checks say theirs.
        given: The value as given.
    """
    problem = date_problem(given)
    if detail["type"] == "date_from_datetime_inexact" and _PARTS.match(str(given).strip()):
        problem = "it has a time of day; give the date alone"
    words = f"{field} {DATE_FORM}, got {given!r}" + (f": {problem}" if problem else "")
    # PydanticCustomError fills {name} from its context: a brace the user typed would be
    # read as one, so such a value's error goes without the context.
    context = None if "{" in words else dict(detail.get("ctx") or {}) or None
    return PydanticCustomError(detail["type"], words, context)
