"""Brave's body decoded to the few fields the parser reads, the rest left unbuilt.

A 44 KiB page of 17 results holds some 600 values (profiles, thumbnails, clusters, deep
links) of which :mod:`websearch_core.providers._brave_parse` reads six per result. Decoding
it with ``json_loads`` builds every one of them as a Python object (~55 us); a pydantic
``TypeAdapter`` over a ``TypedDict`` of the fields read parses the whole text in Rust but
builds Python objects only for those fields, about a quarter less.

The shape is a projection, not a check: every declared field is ``Any`` (the parser judges
the values, as it does today), and undeclared keys are dropped. The parser reads nothing
else (``data.get("web")``, ``web.get("results")``, six ``item.get``), so the projection
gives it exactly the values ``json_loads`` would, and so the same sources. Where the text
does not fit the shape (no object at the top, ``web`` or a result not an object,
``results`` not a list) or jiter refuses it (a byte-order mark, a lone surrogate, not
JSON), :func:`decode_projection` gives ``None`` and the caller decodes the usual way, which
decodes it, or fails to, as before. ``tests/providers/test_brave_body.py`` compares the two
on the real capture and on fuzzed bodies.

Example:
    >>> decode_projection(b'{"web": {"results": [{"url": "https://a.example/", "x": 1}]}}')
    {'web': {'results': [{'url': 'https://a.example/'}]}}
    >>> decode_projection(b'[1]') is None
    True
"""

from typing import Any

from typing_extensions import TypedDict  # pydantic needs it for a TypedDict on Python 3.11

from ._json_projection import ProjectionDecoder, projection_decoder

__all__ = ["decode_projection"]


class _Result(TypedDict, total=False):
    """The keys of one ``web.results[]`` entry that the parser reads."""

    url: Any
    title: Any
    description: Any
    extra_snippets: Any
    page_age: Any
    age: Any


class _Web(TypedDict, total=False):
    results: list[_Result]


class _Body(TypedDict, total=False):
    web: _Web | None  # no ``web`` or ``null``: Brave's answer when nothing matched


decode_projection: ProjectionDecoder = projection_decoder(_Body)
"""Brave's body with only the keys the parser reads, or ``None``: decode it the usual way
(see :func:`._json_projection.projection_decoder`)."""
