r"""A decoded JSON value as JavaScript shows it: ``String(value)`` and its truthiness.

The reference's labels are written in JavaScript (Kagi's ``first.code || status`` inside a
template literal), so a provider's field that is not the string or integer the docs
promise reads there by JavaScript's rules, not Python's ``str``: ``true`` is ``true`` (not
``True``), ``429.0`` is the number 429 (``JSON.parse`` keeps no decimal point), ``1e21``
is ``1e+21``, an array is its items joined by commas and an object is
``[object Object]``. This module holds those rules in one place, for JSON's values only
(``None``, ``bool``, ``int``, ``float``, ``str``, lists and mappings).

Example:
    >>> [js_string(v) for v in (True, 429.0, 1.5, 1e21, 1e-7, [1, [None, 2]], {"a": 1})]
    ['true', '429', '1.5', '1e+21', '1e-7', '1,,2', '[object Object]']
    >>> [js_truthy(v) for v in (0, -0.0, "", None, False, "0", [], {}, float("nan"))]
    [False, False, False, False, False, True, True, True, False]
"""

import math
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

__all__ = ["js_number", "js_string", "js_truthy"]


def js_truthy(value: Any) -> bool:
    """Whether JavaScript finds the decoded JSON ``value`` truthy (``||`` keeps it).

    Falsy are ``null``, ``false``, ``""``, zero of either sign and NaN; every array and
    object is truthy, even an empty one (Python's ``bool`` finds ``[]`` and ``{}`` false).
    """
    if value is None or isinstance(value, bool):
        return bool(value)
    if isinstance(value, int):
        return value != 0
    if isinstance(value, float):
        return not (value == 0 or math.isnan(value))
    if isinstance(value, str):
        return value != ""
    return True


def js_string(value: Any) -> str:
    """``String(value)`` for a decoded JSON ``value``, as a template literal writes it.

    Arrays join their items with ``,`` (``null`` items as nothing, nested arrays flattened
    by the same rule), objects read ``[object Object]``.
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return js_number(value)
    if isinstance(value, str):
        return value
    if isinstance(value, Mapping):
        return "[object Object]"
    if isinstance(value, list | tuple):
        return ",".join("" if item is None else js_string(item) for item in value)
    return str(value)


def js_number(number: int | float) -> str:
    """ECMAScript's ``Number::toString`` of ``number`` once read as a double.

    ``JSON.parse`` reads every number as a double: an integer past 2**53 loses its low
    digits and one past the double's range is ``Infinity``. Python's ``repr`` of a float
    gives the same shortest digits JavaScript picks; only where the point and the exponent
    go differs (JavaScript writes whole numbers below 1e21 in full, ``e+`` above).

    Example:
        >>> [js_number(n) for n in (7, -1, 2**63, 10**400, 0.1, 123e-9, -2.5e25)]
        ['7', '-1', '9223372036854776000', 'Infinity', '0.1', '1.23e-7', '-2.5e+25']
    """
    if isinstance(number, int) and abs(number) < 2**53:
        return str(number)
    try:
        double = float(number)
    except OverflowError:
        double = math.inf if number > 0 else -math.inf
    if math.isnan(double):
        return "NaN"
    if math.isinf(double):
        return "Infinity" if double > 0 else "-Infinity"
    if double == 0:
        return "0"
    sign = "-" if double < 0 else ""
    _, digit_tuple, exponent = Decimal(repr(abs(double))).as_tuple()
    digits = "".join(map(str, digit_tuple)).rstrip("0")
    exponent = int(exponent) + len(digit_tuple) - len(digits)
    return sign + _placed(digits, len(digits) + exponent)


def _placed(digits: str, point: int) -> str:
    """``digits`` with the decimal point ``point`` places from their start.

    As ECMAScript writes it: in full from 1e-6 up to 1e21, else one digit, a point and an
    exponent.
    """
    count = len(digits)
    if count <= point <= 21:
        return digits + "0" * (point - count)
    if 0 < point <= 21:
        return f"{digits[:point]}.{digits[point:]}"
    if -6 < point <= 0:
        return f"0.{'0' * -point}{digits}"
    exponent = point - 1
    mantissa = digits if count == 1 else f"{digits[0]}.{digits[1:]}"
    return f"{mantissa}e{'+' if exponent >= 0 else '-'}{abs(exponent)}"
