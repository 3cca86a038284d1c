"""The parse error for a body whose field has the wrong type: it names the field.

A JSON provider refuses a body whose result list is a string, a number or missing where its
parser needs a list (``ResponseParseError``, 502). Its message used to be the provider's
bare "unexpected response shape", the same for every field, so a user (or the model) could
not tell which part of the answer changed. The message now keeps that text and adds the
field's path and what was found there, as a JSON type name: never the value itself, which
may be 100 KB, hold control characters, or echo something the caller sent.
"""

from collections.abc import Mapping
from typing import Any, Final

from ..errors import ResponseParseError

__all__ = ["field_error", "json_kind"]

_KINDS: Final = (
    (bool, "a boolean"),  # before int: a bool is an int to isinstance
    (int, "a number"),
    (float, "a number"),
    (str, "a string"),
    (list, "a list"),
    (Mapping, "an object"),
)


def json_kind(value: Any) -> str:
    """What a decoded JSON value is, in words (``a string``, ``null``, ...)."""
    if value is None:
        return "null"
    for kind, name in _KINDS:
        if isinstance(value, kind):
            return name
    return type(value).__name__


def field_error(
    provider_id: str,
    text: str,
    holder: Mapping[str, Any],
    key: str,
    expected: str,
    *,
    parent: str = "",
) -> ResponseParseError:
    """The error for ``holder[key]`` not being ``expected``, naming the field.

    Args:
        provider_id: The provider whose body it is.
        text: The provider's own shape-error text, kept as the message's start.
        holder: The object the field is read from.
        key: The field's key in ``holder``.
        expected: What the parser needs there, in words (``a list``).
        parent: The dotted path to ``holder`` in the body (``web``), empty at the top.

    Returns:
        ``<text> (<path> is <what was found>, not <expected>)``, status 502.
    """
    found = json_kind(holder[key]) if key in holder else "missing"
    path = f"{parent}.{key}" if parent else key
    return ResponseParseError(provider_id, f"{text} ({path} is {found}, not {expected})", 502)
