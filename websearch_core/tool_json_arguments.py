"""A tool call whose main argument is its whole input as one JSON object, read as that input.

Agents sometimes send every argument as one JSON string where the query goes:
``query='{"query": "rust async", "limit": 3}'``. LangChain's ``tool.invoke("...")`` hands
a string input to the first argument (``query``), and a LlamaIndex ``acall("...")`` takes
it by position as ``query`` too, so the tools searched that text, braces and all, and the
limit was never applied. Such a query is now read as the arguments it writes: that is what
the model meant, and refusing it would only cost the agent a turn to say it again. The
arguments it holds pass the same checks as arguments given one by one (an unknown name,
a number in quotes), so nothing is taken that would otherwise be refused.

Only a query that is exactly a JSON object (surrounding spaces aside) with a ``query`` key
is read so; a query that merely holds braces (``rust {} syntax``, ``{"a": 1} json``) or an
object without ``query`` is searched as typed, as the spec passes a query unchanged.

``web_fetch`` reads its ``url`` the same way (``url='{"url": "https://a.example/",
"max_chars": 4000}'``): the JSON is never a URL, so without this the fetch was refused as
having no scheme and the model was told to write ``https://{"url": ...}``.

The retrievers read a query that is exactly ``{"query": "..."}`` as that text
(:func:`retriever_query`): a model reaches one through a wrapper tool (LangChain's
``create_retriever_tool``, a user's own) that passes its string on, and ``{"query":
"x"}`` was sent to the engine, braces and all.
"""

import json
from collections.abc import Mapping
from typing import Any, Final

from pydantic import ValidationError
from pydantic_core import InitErrorDetails, PydanticCustomError

__all__ = ["arguments_in_query", "retriever_query", "unpacked_arguments"]

_QUERY: Final = "query"

_ALONE: Final = {"query": "the search text", "url": "the page's URL"}
"""What each tool's main argument holds when sent alone, for the refusal's advice."""


def arguments_in_query(query: object, key: str = _QUERY) -> dict[str, Any] | None:
    """The arguments ``query`` writes as one JSON object with a ``key`` key, or ``None``.

    Args:
        query: The main argument as given: ``query`` for ``web_search``, ``url`` for
            ``web_fetch``.
        key: The main argument's name, which the object must hold.

    Examples:
        >>> arguments_in_query('{"query": "rust async", "limit": 3}')
        {'query': 'rust async', 'limit': 3}
        >>> arguments_in_query("rust {} syntax") is None
        True
        >>> arguments_in_query('{"q": "rust"}') is None
        True
        >>> arguments_in_query('{"url": "https://a.example/"}', key="url")
        {'url': 'https://a.example/'}
    """
    if not isinstance(query, str):
        return None
    text = query.strip()
    if not (text.startswith("{") and text.endswith("}")):
        return None  # the cheap test first: nearly every query ends here
    try:
        written = json.loads(text)
    except ValueError:
        return None
    if not isinstance(written, dict) or key not in written:
        return None
    return written


def unpacked_arguments(arguments: Mapping[str, Any], key: str = _QUERY) -> Mapping[str, Any]:
    """``arguments`` with a ``key`` argument that writes them all read as those arguments.

    An argument given beside such a query is kept when the query's JSON does not name it
    too; named in both, neither is chosen silently.

    Args:
        arguments: A tool call's arguments by name, as given (before validation).
        key: The main argument's name: ``query`` (``web_search``) or ``url`` (``web_fetch``).

    Raises:
        pydantic_core.PydanticCustomError: An argument is given both in the query's JSON
            and on its own; the message names it and says what to send.

    Example:
        >>> unpacked_arguments({"query": '{"query": "x", "limit": 3}', "recency": "week"})
        {'recency': 'week', 'query': 'x', 'limit': 3}
    """
    written = arguments_in_query(arguments.get(key), key)
    if written is None:
        return arguments
    given = {name: value for name, value in arguments.items() if name != key}
    twice = sorted(name for name, value in given.items() if value is not None and name in written)
    if twice:
        raise PydanticCustomError(
            "arguments_twice",
            "{key} is the arguments written as one JSON object, and some are also given by "
            "themselves ({names}); send each argument once, {key} as {alone} alone",
            {"key": key, "names": ", ".join(twice), "alone": _ALONE.get(key, "its value")},
        )
    return {**{name: value for name, value in given.items() if value is not None}, **written}


def retriever_query(query: str, title: str) -> str:
    """The text a retriever searches for ``query``: a JSON object's ``query``, or ``query``.

    A retriever takes its query alone (its ``k`` and ``recency`` are set when it is built,
    so no argument in the object could be honoured): an object holding other keys is
    refused naming them, not searched with them dropped unsaid.

    Args:
        query: The retriever's query as given.
        title: What the error says failed validation (the retriever's class).

    Raises:
        pydantic.ValidationError: The object holds keys besides ``query``.

    Examples:
        >>> retriever_query('{"query": "rust async"}', "WebSearchRetriever")
        'rust async'
        >>> retriever_query('rust {"query": 1} json', "WebSearchRetriever")
        'rust {"query": 1} json'
    """
    written = arguments_in_query(query)
    if written is None or not isinstance(written[_QUERY], str):
        return query  # ``{"query": 5}`` writes no search text: it is searched as typed
    others = [name for name in written if name != _QUERY]
    if not others:
        return str(written[_QUERY])
    refusal = PydanticCustomError(
        "retriever_arguments",
        "query is one JSON object holding {names} beside the query; a retriever searches "
        "the text alone (its k and recency are set when it is built): send the search "
        "text alone",
        {"names": ", ".join(repr(name) for name in others)},
    )
    detail = InitErrorDetails(type=refusal, loc=(_QUERY,), input=query)
    raise ValidationError.from_exception_data(title, [detail])
