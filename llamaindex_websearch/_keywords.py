"""The one wording of a LlamaIndex tool call's unknown keyword: named, meant, and what it takes.

Four calls refuse a keyword: the factories and the tool spec (``create_web_search_tool``,
``create_web_fetch_tool``, ``WebSearchToolSpec``, which keep ``WebSearch`` options for the
first call), the tool classes called directly and their ``from_defaults`` (which take
``FunctionTool``'s arguments, not those options). Worded apart, the factories said ``did you
mean api_keys?`` but not what they take, while the classes listed theirs; each now says the
same three things the same way: the keyword, the one probably meant, and every keyword the
call takes (for a class, also the factory that takes ``WebSearch`` options).
"""

from collections.abc import Collection, Iterable

__all__ = ["refuse_unknown_keyword"]


def refuse_unknown_keyword(
    owner: str,
    given: Iterable[str],
    takes: Collection[str],
    *,
    factory: str | None = None,
    factory_own: Iterable[str] = (),
    calls: Collection[str] = (),
) -> None:
    """Refuse the first of ``given`` that ``owner()`` does not take, saying what was meant.

    Args:
        owner: What was called, as the caller wrote it (``WebSearchFunctionTool.from_defaults``).
        given: The keywords given (their values are never read: one may hold a key).
        takes: The keywords the call takes, in the order the message lists them.
        factory: For a tool class: the function that builds it from ``WebSearch`` options.
            One of those options (or of ``factory_own``) given to the class is pointed there.
        factory_own: The factory's own keywords besides ``web_search`` and ``WebSearch``'s.
        calls: The arguments each call of the tool takes: one of them (or another API's
            name for one, ``count``) given here is said to go with each call.

    Raises:
        TypeError: A keyword is not one of ``takes``: named, with the keyword probably
            meant (among ``takes`` and the factory's) and the keywords ``owner`` takes.

    Example:
        >>> refuse_unknown_keyword("make_tool", ["api_key"], ["web_search", "api_keys"])
        Traceback (most recent call last):
        ...
        TypeError: make_tool() got an unexpected keyword argument 'api_key'; did you mean api_keys? (make_tool() takes web_search, api_keys)
        >>> refuse_unknown_keyword("Tool", ["fnn"], ["fn", "metadata"], factory="make_tool")
        Traceback (most recent call last):
        ...
        TypeError: Tool() got an unexpected keyword argument 'fnn'; did you mean fn? (Tool() takes fn, metadata; make_tool() builds one from WebSearch options)
    """  # noqa: E501
    unknown = next((name for name in given if name not in takes), None)
    if unknown is None:
        return
    from websearch_core.meant_names import closest_name  # only for a wrong keyword

    options = _factory_options(factory_own) if factory is not None else frozenset()
    known = sorted({*takes, *options})
    close = unknown if unknown in options else closest_name(unknown, known)
    meant = f"; did you mean {close}?" if close is not None and close != unknown else ""
    from websearch_core.param_names import built_with_argument

    argument = built_with_argument(unknown, known, calls)
    if argument is not None:  # count=5: closest_name would say nothing, or fence_results
        meant = f"; {argument}"
    listed = ", ".join(takes)
    if factory is None:
        where = f"{owner}() takes {listed}"
    elif close in options and argument is None:  # max_results: not fence_results, a limit
        where = (
            f"{close} is an option of {factory}(), which builds this tool; "
            f"{owner}() itself takes {listed}"
        )
    else:
        where = f"{owner}() takes {listed}; {factory}() builds one from WebSearch options"
    raise TypeError(f"{owner}() got an unexpected keyword argument {unknown!r}{meant} ({where})")


def _factory_options(own: Iterable[str]) -> frozenset[str]:
    """What a tool factory takes: ``web_search``, ``own`` and ``WebSearch``'s options."""
    from websearch_core.client import WEB_SEARCH_OPTION_NAMES  # only for a wrong keyword

    return WEB_SEARCH_OPTION_NAMES | {"web_search", *own}
