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
    """Refuse every one of ``given`` that ``owner()`` does not take, saying what was meant.

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
    unknown = [name for name in given if name not in takes]
    if not unknown:
        return
    from websearch_core.meant_names import closest_name  # only for a wrong keyword
    from websearch_core.param_names import built_with_argument

    options = _factory_options(factory_own) if factory is not None else frozenset()
    known = sorted({*takes, *options})
    listed = ", ".join(takes)
    takes_all = f"{owner}() takes {listed}"
    builds = f"{takes_all}; {factory}() builds one from WebSearch options"
    if len(unknown) > 1:
        where = takes_all if factory is None else builds
        raise TypeError(_several(owner, unknown, known, calls, where))
    close = unknown[0] if unknown[0] in options else closest_name(unknown[0], known)
    meant = f"; did you mean {close}?" if close is not None and close != unknown[0] else ""
    argument = built_with_argument(unknown[0], known, calls)
    if argument is not None:  # count=5: closest_name would say nothing, or fence_results
        meant = f"; {argument}"
    if factory is None:
        where = takes_all
    elif close in options and argument is None:  # max_results: not fence_results, a limit
        where = (
            f"{close} is an option of {factory}(), which builds this tool; "
            f"{owner}() itself takes {listed}"
        )
    else:
        where = builds
    raise TypeError(f"{owner}() got an unexpected keyword argument {unknown[0]!r}{meant} ({where})")


def _several(
    owner: str, unknown: list[str], known: list[str], calls: Collection[str], where: str
) -> str:
    """The refusal of several unknown keywords at once, each near-miss with its meaning.

    Naming the first alone (as Python does) had the caller fix it, call again, and be
    refused for the next one.
    """
    from websearch_core.meant_names import closest_name
    from websearch_core.param_names import built_with_argument

    names = ", ".join(repr(name) for name in unknown[:-1]) + f" and {unknown[-1]!r}"
    meant: list[str] = []
    arguments: list[str] = []
    for name in unknown:
        argument = built_with_argument(name, known, calls)
        if argument is not None and not argument.startswith("did you mean "):
            arguments.append(argument)  # count: each search's limit, not an option
            continue
        close = argument[len("did you mean ") : -1] if argument else closest_name(name, known)
        if close is not None and close != name:
            meant.append(f"{close} for {name!r}")
    said = f"; did you mean {', '.join(meant)}?" if meant else ""
    said += "".join(f"; {argument}" for argument in arguments)
    return f"{owner}() got unexpected keyword arguments {names}{said} ({where})"


def _factory_options(own: Iterable[str]) -> frozenset[str]:
    """What a tool factory takes: ``web_search``, ``own`` and ``WebSearch``'s options."""
    from websearch_core.client import WEB_SEARCH_OPTION_NAMES  # only for a wrong keyword

    return WEB_SEARCH_OPTION_NAMES | {"web_search", *own}
