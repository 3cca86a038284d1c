"""The ``WebSearch`` options a LlamaIndex tool keeps for later, checked when it is built.

``create_web_search_tool``, ``WebSearchToolSpec`` and ``create_web_fetch_tool`` keep their
``**kwargs`` and build the client at the first call (settings are read then, not at
import). A mistyped keyword (``api_key=`` for ``api_keys=``) was therefore found by mypy,
or at run time only by that first call, as ``Error: configuration: ...`` text an agent
would read. Its name is checked here when the tool is built, as the LangChain tools and
both retrievers check theirs; the values are still checked at the first call. The refusal
is worded as the tool classes word theirs (:mod:`llamaindex_websearch._keywords`), listing
the keywords the call takes.
"""

from collections.abc import Iterable

from ._keywords import refuse_unknown_keyword

__all__ = ["refuse_unknown_options"]


def refuse_unknown_options(owner: str, given: Iterable[str], *own: str) -> None:
    """Refuse a keyword that is neither a ``WebSearch`` argument nor one of ``own``.

    Args:
        owner: The function or class the caller called, for the message.
        given: The keywords given.
        *own: The caller's own keyword-only parameters, also known names.

    Raises:
        TypeError: A keyword is unknown; the message names the one probably meant and
            lists the keywords ``owner`` takes (``web_search``, ``own``, then ``WebSearch``'s).
    """
    from websearch_core.client import WEB_SEARCH_OPTION_NAMES  # loads with the tool anyway

    takes = ("web_search", *own, *sorted(WEB_SEARCH_OPTION_NAMES))
    refuse_unknown_keyword(owner, given, takes)
