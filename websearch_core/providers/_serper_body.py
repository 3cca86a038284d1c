"""Serper's body decoded to the fields the parser reads, everything else left unbuilt.

:mod:`websearch_core.providers._serper_parse` reads four keys of an organic result, five
of the answer box and of the knowledge graph, and one of each related question; a body
decoded with ``json_loads`` builds every value it holds as a Python object first, read or
not. One organic result with an ``attributes`` object of 460,000 keys (7.7 MB, under the
8 MiB size cap) took 0.21 to 0.27 s to decode and read that way, an event loop every
other search waits on, while the sources only ever see ``link``, ``title``, ``snippet``
and ``date``; a pydantic ``TypeAdapter`` over a ``TypedDict`` of the fields read parses
the same text in Rust and builds only those: 0.013 s, and about 12 KB of Python objects
where the whole decode built 43 MB. On the real capture both take about 80 us to decode
and read, as for Brave (:mod:`._brave_body`).

The shape is a projection, not a check: every field read is ``Any`` (the parser judges the
values, as it always has), undeclared keys are dropped. Where the text does not fit the
shape (no object at the top, a read object or list of another type, a list entry that is
not an object) or jiter refuses it, :func:`decode_projection` gives ``None`` and the
caller decodes the usual way, which decodes it, or fails to, as before. The parser gets
the values ``json_loads`` would give for every key it reads, so the same answer, sources
and related questions: ``tests/providers/test_serper_body.py`` compares the two paths on
every real capture and on bodies where they might part.

The knowledge graph's ``attributes`` are read (each one becomes a line of the answer), so
they are built whole, and bounded at 200 entries by the parser afterwards.

Example:
    >>> decode_projection(b'{"organic": [{"link": "https://a.example/", "attributes": {}}]}')
    {'organic': [{'link': 'https://a.example/'}]}
    >>> decode_projection(b'{"organic": ["https://a.example/"]}') is None
    True
"""

from typing import Any

from typing_extensions import TypedDict  # pydantic needs it for a TypedDict on Python 3.11

from ._json_projection import ProjectionDecoder, projection_decoder

__all__ = ["decode_projection"]


class _Organic(TypedDict, total=False):
    """The keys of one ``organic[]`` result that the parser reads."""

    link: Any
    title: Any
    snippet: Any
    date: Any


class _AnswerBox(TypedDict, total=False):
    answer: Any
    snippet: Any
    snippetHighlighted: Any
    title: Any
    link: Any


class _KnowledgeGraph(TypedDict, total=False):
    description: Any
    attributes: Any
    descriptionLink: Any
    website: Any
    title: Any


class _Question(TypedDict, total=False):
    question: Any


class _Related(TypedDict, total=False):
    query: Any


class _Body(TypedDict, total=False):
    """A search body; ``null`` is kept wherever the parser reads it as absent."""

    organic: list[_Organic] | None
    answerBox: _AnswerBox | None
    knowledgeGraph: _KnowledgeGraph | None
    peopleAlsoAsk: list[_Question] | None
    relatedSearches: list[_Related] | None


decode_projection: ProjectionDecoder = projection_decoder(_Body)
"""Serper's body with only the keys the parser reads, or ``None``: decode it the usual way
(see :func:`._json_projection.projection_decoder`)."""
