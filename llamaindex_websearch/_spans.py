"""``FunctionTool.call`` and ``acall`` without the instrumentation span around them.

LlamaIndex wraps ``FunctionTool.call``/``acall`` in a dispatcher span, and its
``DispatcherSpanMixin`` wraps every subclass's override of them as well. An override that
calls ``super().acall`` therefore opened two nested spans with the same name on every call,
each reading the method's signature and drawing a ``uuid4`` (together about a quarter of
what our LlamaIndex tool added to a search). The override's own span already covers the
whole call, arguments and result, so the adapters run ``FunctionTool``'s body directly:
span handlers see one span per call, as for a plain ``FunctionTool``.
"""

import inspect
from collections.abc import Awaitable, Callable
from typing import Any, cast

from llama_index.core.tools import FunctionTool, ToolOutput

__all__ = ["function_tool_acall", "function_tool_call", "sign_spanned_methods", "without_span"]


def without_span(method: Callable[..., Any]) -> Callable[..., Any]:
    """The function a span decorator wraps (``method`` itself if it is not wrapped)."""
    return cast("Callable[..., Any]", getattr(method, "__wrapped__", method))


function_tool_call = cast("Callable[..., ToolOutput]", without_span(FunctionTool.call))
"""``FunctionTool.call(self, *args, **kwargs)`` with no span of its own."""

function_tool_acall = cast("Callable[..., Awaitable[ToolOutput]]", without_span(FunctionTool.acall))
"""``FunctionTool.acall(self, *args, **kwargs)`` with no span of its own."""


def sign_spanned_methods(cls: type, *names: str) -> None:
    """Store the signature of each named span-wrapped method of ``cls`` on its function.

    The span around every call reads ``inspect.signature`` of the method (to bind the
    call's arguments for span handlers). A function carrying ``__signature__`` is answered
    from it instead of its code being read again: about half of that read (~6 us a call).
    The signature is the function's own, so span handlers see exactly what they saw.
    """
    for name in names:
        function = without_span(cls.__dict__[name])
        function.__signature__ = inspect.signature(function)  # type: ignore[attr-defined]
