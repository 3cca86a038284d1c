"""Telling an event stream from a broken JSON body, for providers that never ask to stream.

A JSON provider that meets a ``text/event-stream`` body (a gateway streaming for it, a base
URL pointing at a streaming endpoint) failed with its JSON decoder's first complaint,
``Expecting value``, which names neither the stream nor why it was not read. Pure: the
provider still refuses the body with its spec'd invalid-JSON text, only the reason after it
comes from :data:`EVENT_STREAM`.
"""

import re
from typing import Final

__all__ = ["EVENT_STREAM", "is_event_stream"]

EVENT_STREAM: Final = (
    "an event stream (text/event-stream), where the request asked for one JSON object and no stream"
)
"""The reason given for such a body, after the provider's invalid-JSON text."""

_MEDIA_TYPE: Final = "text/event-stream"
_FIRST_FIELD: Final = re.compile(rb"\A(?:\xef\xbb\xbf)?\s*(?::|(?:data|event|id|retry)[ \t]*:)")
"""A first line that is an SSE field (``data:``, ``event:``, ``id:``, ``retry:``) or a
comment (``:``); no JSON text starts so."""


def is_event_stream(content_type: str | None, body: bytes) -> bool:
    r"""Whether a body that is not JSON is an event stream, by its label or its first line.

    Args:
        content_type: The ``Content-Type`` header, if any (parameters ignored).
        body: The response body.

    Examples:
        >>> is_event_stream("text/event-stream; charset=utf-8", b"")
        True
        >>> is_event_stream("application/json", b'data: {"type": "response.created"}\n\n')
        True
        >>> is_event_stream("application/json", b"<html>")
        False
    """
    media = (content_type or "").split(";", 1)[0].strip().lower()
    return media == _MEDIA_TYPE or _FIRST_FIELD.match(body) is not None
