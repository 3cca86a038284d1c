"""Whether a stream's last chunk says why generation stopped, whatever type it says it in.

Gemini and the chat-completions streams (Perplexity, OpenRouter) refuse a stream none of
whose chunks names a finish reason: a proxy that gives up mid-answer can close the body
cleanly, and a cut answer must not pass for the whole of it. The test used to be "a
non-blank string", so a last chunk whose reason came as a number (Google's JSON mapping
may write an enum as its number), a list or an object read as a cut stream: the whole
answer already streamed was thrown away behind "stream ended before its last chunk",
which named nothing of what had changed. A cut stream sends no reason at all; a reason of
another type is still one. ``null``, ``false``, a blank string or an empty container name
nothing, as the chunks before the last carry them.
"""

from collections.abc import Mapping
from typing import Any

__all__ = ["names_finish"]


def names_finish(value: Any) -> bool:
    """Whether a ``finishReason`` / ``finish_reason`` value says the stream finished."""
    if value is None or isinstance(value, bool):
        return False
    if isinstance(value, str):
        return bool(value.strip())
    if isinstance(value, (list, Mapping)):
        return bool(value)
    return True
