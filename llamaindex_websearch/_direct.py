"""A LlamaIndex tool class called directly with a factory's option: refused, saying where it goes.

``WebSearchFunctionTool`` and ``WebFetchFunctionTool`` are ``FunctionTool`` subclasses, built
by ``create_web_search_tool`` / ``create_web_fetch_tool`` (or a tool spec) from ``fn``,
``metadata`` and the rest of ``FunctionTool``'s arguments. Called directly as the LangChain
``WebSearchTool(api_keys=...)`` is, they answered ``FunctionTool.__init__() got an
unexpected keyword argument 'api_key'``: neither the class called, nor ``api_keys``, nor
the factory that takes it. The factories already name the keyword meant
(:mod:`llamaindex_websearch._options`); direct construction now does too, and says which
keywords the class takes and which factory builds it from ``WebSearch`` options.

Two more ways in answered in ``FunctionTool``'s words alone: ``WebSearchFunctionTool
.from_defaults(api_key=...)`` (``FunctionTool.from_defaults() got an unexpected keyword
argument``) and ``WebSearchFunctionTool()`` with no function (``fn or async_fn must be
provided.``), neither saying that the factory is how to get a tool that searches. Both now
name it too (:class:`PointsToFactory`), the keyword worded as the rest are.
"""

import functools
import inspect
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Self

from llama_index.core.tools import FunctionTool

from ._keywords import refuse_unknown_keyword

__all__ = ["BuiltByFactory", "PointsToFactory", "refuse_without_function"]


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
    calls: ClassVar[tuple[str, ...]] = ()
    """The arguments each call of the tool takes (``limit``): one given to the class
    (``count=5``) is said to go with each call, as the factories say it."""

    def __new__(cls, *args: Any, **kwargs: Any) -> Self:
        takes = _init_keywords(cls) if kwargs else None
        if takes is not None:
            refuse_unknown_keyword(
                cls.__name__,
                kwargs,
                takes,
                factory=cls.factory,
                factory_own=cls.factory_options,
                calls=cls.calls,
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


class PointsToFactory:
    """Mixin, listed before ``FunctionTool``: ``from_defaults`` and ``__init__`` name the factory.

    ``from_defaults`` refuses a keyword it lacks as a direct call does (:class:`BuiltByFactory`)
    and, like ``__init__``, a call without a function to call (:func:`refuse_without_function`);
    then ``FunctionTool``'s own runs. Both are hidden from type checkers, which therefore keep
    checking calls against ``FunctionTool``'s signatures (and flag ``api_key=``); ``inspect``
    reads the same signature through ``__wrapped__``. The class using it sets ``factory`` and
    ``factory_options`` (:class:`BuiltByFactory`).
    """

    __slots__ = ()

    if not TYPE_CHECKING:  # type checkers see FunctionTool's signatures instead

        @functools.wraps(FunctionTool.__init__)
        def __init__(self, *args, **kwargs):
            owner = type(self)
            given = _bound(owner.__name__, owner.factory, _INIT, (self, *args), kwargs)
            refuse_without_function(owner.__name__, owner.factory, given, needs_metadata=True)
            super().__init__(*args, **kwargs)

        @classmethod
        def from_defaults(cls, *args, **kwargs):
            defaults = super().from_defaults
            owner = f"{cls.__name__}.from_defaults"
            signature = inspect.signature(defaults)
            refuse_unknown_keyword(
                owner,
                kwargs,
                tuple(signature.parameters),
                factory=cls.factory,
                factory_own=cls.factory_options,
                calls=cls.calls,
            )
            given = _bound(owner, cls.factory, signature, args, kwargs)
            refuse_without_function(owner, cls.factory, given, needs_metadata=False)
            return defaults(*args, **kwargs)


_INIT = inspect.signature(FunctionTool.__init__)
"""What ``FunctionTool()`` takes, to read which of its arguments a call gave."""


def _bound(
    owner: str,
    factory: str,
    signature: inspect.Signature,
    args: tuple[Any, ...],
    kwargs: Mapping[str, Any],
) -> Mapping[str, Any]:
    """The arguments a call gave by name; a call that does not fit ``signature`` is refused.

    ``WebSearchFunctionTool(ws, 5)`` got ``FunctionTool``'s ``... is not a callable
    object`` for a call that matched no signature at all; it is refused here, before
    ``FunctionTool`` reads the arguments, with its factory named as for a missing function.

    Raises:
        TypeError: Too many positional arguments, or one given twice.
    """
    try:
        return signature.bind(*args, **kwargs).arguments
    except TypeError as error:
        takes = ", ".join(name for name in signature.parameters if name not in ("self", "cls"))
        raise TypeError(
            f"{owner}(): {error} (it is a FunctionTool and takes {takes}); "
            f"{_FACTORY_ADVICE.format(factory=factory)}"
        ) from None


_FACTORY_ADVICE = (
    "for a working tool call {factory}() instead, which takes WebSearch options "
    "(api_keys=, provider=, ...)"
)
"""Where a tool that searches comes from, for every refused direct call."""


def refuse_without_function(
    owner: str, factory: str, given: Mapping[str, Any], *, needs_metadata: bool
) -> None:
    """Refuse a tool class's call that gives it nothing to call, naming the factory.

    ``WebSearchFunctionTool()`` is a ``FunctionTool``: it calls the function it is given and
    searches only when that function does, which :func:`create_web_search_tool` provides.

    Args:
        owner: What was called (``WebSearchFunctionTool`` or its ``.from_defaults``).
        factory: The function that builds a working tool from ``WebSearch`` options.
        given: The call's arguments by name.
        needs_metadata: Whether the call needs ``metadata`` too (``from_defaults`` builds it).

    Raises:
        ValueError: Neither ``fn`` nor ``async_fn`` (or, when needed, no ``metadata``) was
            given; ``FunctionTool`` raises ``ValueError`` for it too.
        TypeError: ``fn`` or ``async_fn`` is no function (a ``WebSearch`` given as the
            first argument, as to the LangChain tool).

    Example:
        >>> refuse_without_function("Tool", "make_tool", {}, needs_metadata=False)
        Traceback (most recent call last):
        ...
        ValueError: Tool() needs fn or async_fn (it is a FunctionTool: it calls the function it is given); for a working tool call make_tool() instead, which takes WebSearch options (api_keys=, provider=, ...)
    """  # noqa: E501
    for name in ("fn", "async_fn"):
        function = given.get(name)
        if function is not None and not callable(function):
            raise TypeError(
                f"{owner}(): {name} must be a function to call, got "
                f"{type(function).__name__} (it is a FunctionTool: it calls the function it is "
                f"given); {_FACTORY_ADVICE.format(factory=factory)}"
            )
    missing = []
    if given.get("fn") is None and given.get("async_fn") is None:
        missing.append("fn or async_fn")
    if needs_metadata and given.get("metadata") is None:
        missing.append("metadata")
    if missing:
        raise ValueError(
            f"{owner}() needs {' and '.join(missing)} (it is a FunctionTool: it calls the "
            f"function it is given); {_FACTORY_ADVICE.format(factory=factory)}"
        )
