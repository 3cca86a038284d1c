"""The comparison both projected decoders are held to (Brave's and Serper's body tests).

Where a projection answers at all, its value must be ``json.loads``'s with every key the
parser does not read removed, and what the parser makes of it the same.
"""

import json
import math
from collections.abc import Callable, Mapping
from typing import Any


def same(left: Any, right: Any, *, ordered: bool) -> bool:
    """Equal, ``NaN`` equal to itself, types compared too (``1`` is not ``1.0``).

    Args:
        ordered: Whether an object's keys must come in the same order; a parser that
            reads by key only (Serper's) does not care.
    """
    if type(left) is not type(right):
        return False
    if isinstance(left, float):
        return (math.isnan(left) and math.isnan(right)) or left == right
    if isinstance(left, dict):
        keys_match = list(left) == list(right) if ordered else set(left) == set(right)
        return keys_match and all(same(left[k], right[k], ordered=ordered) for k in left)
    if isinstance(left, list):
        return len(left) == len(right) and all(
            same(a, b, ordered=ordered) for a, b in zip(left, right, strict=True)
        )
    return bool(left == right)


def agrees(
    body: bytes,
    decode: Callable[[bytes], Mapping[str, object] | None],
    expected: Callable[[Any], Any],
    read: Callable[[Any], Any],
    *,
    ordered: bool,
) -> bool:
    """Assert ``decode`` agrees with the whole decode of ``body``; whether it answered.

    Args:
        body: The response body.
        decode: The projected decoder under test.
        expected: What the projection should be for ``json.loads``'s value (``None``: it
            should not answer).
        read: Everything the parser makes of a decoded body, or the error it raises.
        ordered: As for :func:`same`.
    """
    projected = decode(body)
    try:
        whole = json.loads(body)
    except ValueError:
        assert projected is None, body
        return False
    if projected is None:
        return False
    assert same(projected, expected(whole), ordered=ordered), body
    assert read(projected) == read(whole), body
    return True
