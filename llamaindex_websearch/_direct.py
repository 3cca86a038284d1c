"""A LlamaIndex tool class called directly with a factory's option: refused, saying where it goes.

``WebSearchFunctionTool`` and ``WebFetchFunctionTool`` are ``FunctionTool`` subclasses, built
by ``create_web_search_tool`` / ``create_web_fetch_tool`` (or a tool spec) from ``fn``,
``metadata`` and the rest of ``FunctionTool``'s arguments. Called directly as the LangChain
``WebSearchTool(api_keys=...)`` is, they answered ``FunctionTool.__init__() got an
unexpected keyword argument 'api_key'``: neither the class called, nor ``api_keys``, nor
the factory that takes it. The factories already name the keyword meant
(:mod:`llamaindex_websearch._options`); direct construction now does too, and says which
keywords the class takes and which factory builds it from ``WebSearch`` options.
"""

import inspect
from collections.abc import Collection, Iterable
from typing import Any, ClassVar, Self

__all__ = ["BuiltByFactory", "refuse_direct_keywords"]


class BuiltByFactory:
    """Mixin, listed after ``FunctionTool``: a keyword ``__init__`` lacks is refused by name.

    The check runs in ``__new__``, which Python calls with the same arguments before it
    binds them to ``__init__``. ``__init__`` itself stays ``FunctionTool``'s, so its
    signature is what type checkers and ``inspect`` see (listed after ``FunctionTool``, this
    class's ``__new__`` does not hide it from mypy). Copies and unpickling call
    ``__new__`` with no keywords: nothing to check.
    """

    __slots__ = ()

    factory: ClassVar[str]
    """The function that builds the tool from ``WebSearch`` options (for the message)."""
    factory_options: ClassVar[tuple[str, ...]] = ()
    """The factory's own keywords besides ``web_search`` and ``WebSearch``'s options."""

    def __new__(cls, *args: Any, **kwargs: Any) -> Self:
        takes = _init_keywords(cls) if kwargs else None
        if takes is not None:
            refuse_direct_keywords(cls.__name__, kwargs, takes, cls.factory, cls.factory_options)
        return super().__new__(cls)


_KEYWORDS: dict[type, tuple[str, ...] | None] = {}
"""Each class's keywords, read once: the factories build every tool with keywords."""


def _init_keywords(cls: type) -> tuple[str, ...] | None:
    """The keywords calling ``cls`` takes (its ``__init__``'s), in order.

    ``None`` when it takes any (a subclass's ``__init__(self, **kwargs)``): nothing to refuse.
    """
    if cls not in _KEYWORDS:
        parameters = inspect.signature(cls).parameters.values()
        if any(p.kind is p.VAR_KEYWORD for p in parameters):
            _KEYWORDS[cls] = None
        else:
            kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
            _KEYWORDS[cls] = tuple(p.name for p in parameters if p.kind in kinds)
    return _KEYWORDS[cls]


def refuse_direct_keywords(
    owner: str, given: Iterable[str], takes: Collection[str], factory: str, own: Iterable[str]
) -> None:
    """Refuse the first of ``given`` that ``owner()`` does not take, saying what was meant.

    Args:
        owner: The class called (``WebSearchFunctionTool``).
        given: The keywords given (their values are never read: one may hold a key).
        takes: The keywords the class takes, in its signature's order.
        factory: The function that builds the class from ``WebSearch`` options.
        own: The factory's own keywords besides ``web_search`` and ``WebSearch``'s.

    Raises:
        TypeError: A keyword is not one of ``takes``: named, with the keyword probably
            meant (among the class's and the factory's) and the keywords the class takes.

    Example:
        >>> refuse_direct_keywords("Tool", ["fnn"], ["fn", "metadata"], "make_tool", [])
        Traceback (most recent call last):
        ...
        TypeError: Tool() got an unexpected keyword argument 'fnn'; did you mean fn? (Tool() takes fn, metadata; make_tool() builds one from WebSearch options)
    """  # noqa: E501
    unknown = next((name for name in given if name not in takes), None)
    if unknown is None:
        return
    from websearch_core.client import WEB_SEARCH_OPTION_NAMES  # only for a wrong keyword
    from websearch_core.meant_names import closest_name

    options = WEB_SEARCH_OPTION_NAMES | {"web_search", *own}
    close = unknown if unknown in options else closest_name(unknown, sorted({*takes, *options}))
    meant = f"; did you mean {close}?" if close is not None and close != unknown else ""
    listed = ", ".join(takes)
    if close in options:
        where = (
            f"{close} is an option of {factory}(), which builds this tool; "
            f"{owner}() itself takes {listed}"
        )
    else:
        where = f"{owner}() takes {listed}; {factory}() builds one from WebSearch options"
    raise TypeError(f"{owner}() got an unexpected keyword argument {unknown!r}{meant} ({where})")
