"""The names a model invents for a tool's main argument, and the argument they stand for.

A model calling ``web_search`` with ``{"q": "rust async"}`` (or ``search_query``,
``question``, ``text``, ``input``: names it brings from other tools and APIs) was answered
``query: Field required; q: not an argument; the arguments are query, ...``: ``q`` and
``question`` are too short or too unlike ``query`` for the nearest-spelling guess
(:func:`~websearch_core.meant_names.closest_name`), so nothing said which argument it had
meant. The tools' refusal (:mod:`websearch_core.tool_errors`) now names it: ``q: not an
argument (did you mean query?)``, and for ``web_fetch`` ``link: not an argument (did you
mean url?)``.

Only the tools' refusals read this table: it names the arguments a model sends, not the
keywords of ``WebSearch`` or the command line's options, whose hints stay as they were.
"""

from collections.abc import Mapping

__all__ = ["INVENTED_NAMES"]

INVENTED_NAMES: Mapping[str, str] = {
    # web_search's query.
    "q": "query",
    "search_query": "query",
    "query_text": "query",
    "query_string": "query",
    "question": "query",
    "text": "query",
    "input": "query",
    "search": "query",
    "search_term": "query",
    "search_terms": "query",
    "search_string": "query",
    "keywords": "query",
    "keyword": "query",
    "terms": "query",
    "prompt": "query",
    "topic": "query",
    # web_fetch's url.
    "link": "url",
    "uri": "url",
    "href": "url",
    "page": "url",
    "page_url": "url",
    "webpage": "url",
    "website": "url",
    "address": "url",
}
"""Each name (lower case) a model sends for a tool's main argument, to that argument; a
name is answered with it only when the tool called takes it."""
