"""A JSON body decoded to the keys a parser reads, everything else left unbuilt.

A parser that reads a few fields of a large body (Brave's six per result, Serper's four)
pays for every value ``json_loads`` builds, read or not. A pydantic ``TypeAdapter`` over a
``TypedDict`` of the fields read parses the whole text in Rust (jiter, as ``json_loads``
does) but builds Python objects only for the declared keys. Each provider declares its
shape next to its parser (:mod:`._brave_body`, :mod:`._serper_body`); this module holds
what they share: building the adapter once, on first use, and the rule that a body which
does not fit the shape, or that jiter refuses, is decoded the usual way by the caller.

One difference is left, knowingly: pydantic's JSON reader takes ``NaN``, ``Infinity`` and
``-Infinity`` as numbers whatever its config says (``allow_inf_nan`` judges a float field;
every field here is ``Any``), where ``JSON.parse`` and so
:func:`~websearch_core.json_decode.json_loads` refuse the body. Finding the words first
costs a byte search of the whole body (40-70 us for Brave's 44 KiB capture on Python 3.11,
as much as the projection itself), so a body holding them still projects: a number among
the fields read is judged by the parser as any other non-text value is.
"""

from collections.abc import Callable, Mapping
from functools import cache
from typing import Any, TypeAlias, cast

from pydantic import TypeAdapter, ValidationError

__all__ = ["ProjectionDecoder", "projection_decoder"]

ProjectionDecoder: TypeAlias = Callable[[bytes], Mapping[str, object] | None]
"""A body's projection, or ``None``: decode it whole (:func:`~..json_decode.json_loads`)."""


def projection_decoder(shape: type[Any]) -> ProjectionDecoder:
    """A decoder of bodies to ``shape``, a ``TypedDict`` of the keys a parser reads.

    The adapter is built on the first call (some milliseconds), so importing a provider
    stays cheap.

    Args:
        shape: Every field declared ``Any`` (or a list or nested ``TypedDict`` of such):
            a projection, not a check; the parser judges the values as it always has.

    Returns:
        A function giving the body with undeclared keys dropped, or ``None`` when the text
        does not fit the shape or jiter refuses it (a byte-order mark, a lone surrogate,
        not JSON), so that the caller decodes it, or fails to, as before.
    """

    @cache
    def adapter() -> TypeAdapter[Any]:
        return TypeAdapter(shape)

    def decode(body: bytes) -> Mapping[str, object] | None:
        try:
            return cast(Mapping[str, object], adapter().validate_json(body))
        except ValidationError:
            return None

    return decode
