"""LlamaIndex's spanned async methods, made to name themselves when left without ``await``.

``tool.acall(query="q").content`` and ``retriever.aretrieve("q")[0]`` said ``'coroutine'
object has no attribute 'content'`` (``... is not subscriptable``), and ``print`` showed
``<coroutine object Dispatcher.span.<locals>.async_wrapper at 0x...>``: Python's words,
naming LlamaIndex's instrumentation rather than the call or its synchronous twin (``call``,
``retrieve``). ``WebSearch.run`` names itself through
:func:`websearch_core.pending_call.awaitable_method`; these cannot be decorated so, as
LlamaIndex wraps each override of ``acall`` and ``aretrieve`` in its span after the class
is made (``DispatcherSpanMixin.__init_subclass__``). So :func:`name_unawaited` wraps the
spanned method once the class exists: a call binds it as before (the span sees the same
instance, arguments and name) and hands its coroutine to a
:class:`~websearch_core.pending_call.PendingCall`, which awaits as that coroutine does.
"""

from typing import Any

from websearch_core.pending_call import AwaitableMethod, PendingCall

__all__ = ["name_unawaited"]


class _SpannedAwaitable(AwaitableMethod[Any, ..., Any]):
    """An :class:`AwaitableMethod` around a method LlamaIndex's span has wrapped.

    The span's wrapper is a descriptor of its own (``wrapt``): it is bound to the instance
    first, as an attribute lookup would bind it, so the span's id reads
    ``WebSearchFunctionTool.acall-...`` and its arguments leave out ``self``, as before.
    """

    def __call__(self, instance: Any, /, *args: Any, **kwargs: Any) -> PendingCall[Any]:
        """The spanned method's call on ``instance``, as a :class:`PendingCall` to await.

        The coroutine is the span's, named ``Dispatcher.span.<locals>.async_wrapper``:
        renamed after the method (``WebSearchFunctionTool.acall``), Python's ``coroutine
        ... was never awaited`` warning, for a call dropped unused, names the call made.
        """
        bound = self._method.__get__(instance, type(instance))
        coroutine = bound(*args, **kwargs)
        coroutine.__qualname__ = self._method.__qualname__
        return PendingCall(coroutine, type(instance), self._twin)


def name_unawaited(cls: type, name: str, twin: str, holder: str) -> None:
    """Make ``cls``'s async method ``name`` say ``twin`` when its call is used unawaited.

    Call it after LlamaIndex's span wrapped the method (after the class statement) and
    after :func:`~llamaindex_websearch._spans.sign_spanned_methods`, which reads the span's
    wrapped function from the class.

    Args:
        cls: The class that defines ``name`` itself (its ``__dict__`` holds it).
        name: The async method (``acall``, ``aretrieve``).
        twin: Its synchronous twin on the same class (``call``, ``retrieve``).
        holder: What the message calls the object (``tool``, ``retriever``).
    """
    setattr(cls, name, _SpannedAwaitable(cls.__dict__[name], twin, holder))
