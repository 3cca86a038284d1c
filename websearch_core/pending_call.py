"""An async method's call that names itself when used without ``await``.

``result = ws.run("q")`` without ``await`` (a script, a notebook cell, a habit of
``requests``) gives a coroutine, and the next line said ``'coroutine' object has no
attribute 'text'`` (or ``... is not iterable``, or printed ``<coroutine object
WebSearch.run at 0x...>``): Python's words, naming neither the call nor what to write. A
:func:`awaitable_method` returns a :class:`PendingCall` instead, which is a coroutine to
``await``, ``asyncio.run``, ``create_task`` and ``gather`` (it drives the method's own
coroutine), and says, when used as a result, which call was not awaited and its
synchronous twin.

The method stays a coroutine function to :func:`inspect.iscoroutinefunction` (its code is
the ``async def``'s), so a framework that picks the awaited path by it (LlamaIndex's
``FunctionTool.from_defaults(fn=ws.run)``, LangChain's ``tool(ws.run)``) still awaits it.
"""

import functools
import types
from collections.abc import Callable, Coroutine, Generator
from typing import (
    TYPE_CHECKING,
    Any,
    Concatenate,
    Generic,
    NoReturn,
    ParamSpec,
    Self,
    TypeVar,
    overload,
)

__all__ = ["AwaitableMethod", "PendingCall", "awaitable_method"]

_S = TypeVar("_S")
_P = ParamSpec("_P")
_T = TypeVar("_T")

_OWN_ATTRIBUTES = ("cr_", "gi_")
"""A coroutine's own attributes (``cr_frame``, ``cr_code``...), which asyncio's debug mode and
task reprs read: given as the method's coroutine has them."""


class PendingCall(Coroutine[Any, Any, _T]):
    """A method's call not yet awaited: awaits as its coroutine, refuses use as its result.

    Args:
        coroutine: The ``async def`` method's coroutine, which this drives.
        owner: The class of the object called (``WebSearch``), which the message names.
        twin: What holds it, the method's name and its synchronous twin's, as the message
            writes them: ``("ws", "run", "run_sync")``.
    """

    __slots__ = ("_coroutine", "_owner", "_twin")

    def __init__(
        self, coroutine: Coroutine[Any, Any, _T], owner: type, twin: tuple[str, str, str]
    ) -> None:
        self._coroutine = coroutine
        self._owner = owner
        self._twin = twin

    def __await__(self) -> Generator[Any, None, _T]:
        return self._coroutine.__await__()

    def send(self, value: Any, /) -> Any:
        """Step the method's coroutine (what a task does with a coroutine it runs)."""
        return self._coroutine.send(value)

    def throw(self, typ: Any, val: Any = None, tb: types.TracebackType | None = None, /) -> Any:
        """Raise into the method's coroutine (a task's cancellation)."""
        if val is None and tb is None:
            return self._coroutine.throw(typ)
        return self._coroutine.throw(typ, val, tb)

    def close(self) -> None:
        """Close the method's coroutine."""
        self._coroutine.close()

    def _unawaited(self, problem: str) -> str:
        holder, name, twin = self._twin
        return (
            f"{self._owner.__name__}.{name}() was not awaited: this is its coroutine, which "
            f"{problem}; write result = await {holder}.{name}(...) inside async code, or "
            f"{holder}.{twin}(...) in synchronous code (a script, a notebook cell)"
        )

    if not TYPE_CHECKING:
        # Hidden from type checkers: there ``ws.run("q").text`` is an error to flag, and
        # a ``__getattr__`` made this class match any protocol (``create_task`` and
        # ``gather`` inferred ``Never`` and ``Any`` for its result).

        def __getattr__(self, name: str) -> Any:
            if name.startswith(_OWN_ATTRIBUTES) or name in ("__name__", "__qualname__"):
                return getattr(self._coroutine, name)
            raise AttributeError(self._unawaited(f"has no attribute {name!r}"), name=name, obj=self)

        def __iter__(self) -> NoReturn:
            raise TypeError(self._unawaited("is not iterable"))

        def __getitem__(self, key: object) -> NoReturn:
            raise TypeError(self._unawaited("is not subscriptable"))

        def __len__(self) -> NoReturn:
            raise TypeError(self._unawaited("has no len()"))

    def __repr__(self) -> str:
        return f"<{self._unawaited('is not its result')}>"


class AwaitableMethod(Generic[_S, _P, _T]):
    """The descriptor :func:`awaitable_method` makes: bound, a call returns a :class:`PendingCall`.

    It carries the ``async def``'s name, docstring, code and defaults, so
    :func:`inspect.signature` and :func:`inspect.iscoroutinefunction` read it as that
    method.
    """

    def __init__(
        self,
        method: Callable[Concatenate[_S, _P], Coroutine[Any, Any, _T]],
        twin: str,
        holder: str,
    ) -> None:
        functools.update_wrapper(self, method)
        self._method = method
        self._twin = (holder, method.__name__, twin)
        self.__code__ = method.__code__
        self.__defaults__ = method.__defaults__
        self.__kwdefaults__ = method.__kwdefaults__

    @overload
    def __get__(self, instance: None, owner: type[Any]) -> Self: ...

    @overload
    def __get__(self, instance: _S, owner: type[Any]) -> Callable[_P, PendingCall[_T]]: ...

    def __get__(self, instance: _S | None, owner: type[Any]) -> Any:
        if instance is None:
            return self
        return types.MethodType(self, instance)

    def __call__(self, instance: _S, /, *args: _P.args, **kwargs: _P.kwargs) -> PendingCall[_T]:
        """The method's call on ``instance``, as a :class:`PendingCall` to await."""
        # The class used, not the base that defines the method; named only if misused.
        return PendingCall(self._method(instance, *args, **kwargs), type(instance), self._twin)


def awaitable_method(
    twin: str, *, holder: str = "ws"
) -> Callable[
    [Callable[Concatenate[_S, _P], Coroutine[Any, Any, _T]]], AwaitableMethod[_S, _P, _T]
]:
    """Make an ``async def`` method name itself, and ``twin``, when used without ``await``.

    Args:
        twin: The name of its synchronous twin on the same class (``run_sync``).
        holder: What the message calls the object (``ws``, ``tool``), as the README does.
    """

    def make(
        method: Callable[Concatenate[_S, _P], Coroutine[Any, Any, _T]],
    ) -> AwaitableMethod[_S, _P, _T]:
        return AwaitableMethod(method, twin, holder)

    return make
