"""How long a provider's error text may be where the user reads it.

An HTTP error quotes only the head of its body (``transport.ERROR_BODY_LIMIT``, 8 KiB), but
other errors quote what a 2xx body said: SearXNG's "no usable results" names every engine
that did not answer with its reason (up to 200, each as long as the instance wrote it), a
stream's error event its message. Those reached the tool's ``Error:`` text, ``--json``'s
``error`` and ``failures`` and the log whole. Each provider's text is held to
:data:`MESSAGE_LIMIT` once its secrets are masked (a cut never leaves a key's head).
"""

from typing import Final

from .utf16_text import truncate_text, utf16_len

__all__ = ["MESSAGE_LIMIT", "bounded_message"]

MESSAGE_LIMIT: Final = 10_000
"""UTF-16 units of one provider's error text kept, ``…`` last: the 8,192 characters of a
body's head an HTTP error may quote, with room for the words around it (``<Label> API error
(<status>): ``, a hint), so no error text read from a status is ever cut."""


def bounded_message(text: str) -> str:
    """``text`` within :data:`MESSAGE_LIMIT` UTF-16 units (``…`` last); masked already.

    Example:
        >>> len(bounded_message("E" * 20_000)), bounded_message("short")
        (10000, 'short')
    """
    if len(text) * 2 <= MESSAGE_LIMIT or utf16_len(text) <= MESSAGE_LIMIT:
        return text
    return truncate_text(text, MESSAGE_LIMIT)
