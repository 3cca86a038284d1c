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
from typing import Any, ClassVar, Self

from ._keywords import refuse_unknown_keyword

__all__ = ["BuiltByFactory"]


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
            refuse_unknown_keyword(
                cls.__name__, kwargs, takes, factory=cls.factory, factory_own=cls.factory_options
            )
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
