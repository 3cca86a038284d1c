"""How long a provider's error text may be where the user reads it.

An HTTP error quotes only the head of its body (``transport.ERROR_BODY_LIMIT``, 8 KiB), but
other errors quote what a 2xx body said: SearXNG's "no usable results" names every engine
that did not answer with its reason (up to 200, each as long as the instance wrote it), a
stream's error event its message. Those reached the tool's ``Error:`` text, ``--json``'s
``error`` and ``failures`` and the log whole. Each provider's text is held to
:data:`MESSAGE_LIMIT` once its secrets are masked (a cut never leaves a key's head), and a
cut says so in it (:data:`ERROR_CUT_MARK`), as a cut answer or page does: a reader who met
``…`` alone could not tell a provider's cut-off text from one the core had cut.

Only the provider's text is cut and marked: the core's words around it (``All web search
providers failed: <id>: ...``, an offline hint) are added after, whole, as the spec has them.
"""

from typing import Final

from .utf16_text import truncate_text, utf16_len

__all__ = ["ERROR_CUT_MARK", "MESSAGE_LIMIT", "WARNING_CUT_MARK", "bounded_message"]

MESSAGE_LIMIT: Final = 10_000
"""UTF-16 units of one provider's error text kept, ``…`` last: the 8,192 characters of a
body's head an HTTP error may quote, with room for the words around it (``<Label> API error
(<status>): ``, a hint), so no error text read from a status is ever cut. The mark of a
cut is counted in it."""

ERROR_CUT_MARK: Final = f" [Error text cut: longer than {MESSAGE_LIMIT:,} characters.]"
"""What ends a cut error text, after its ``…``: that the core cut it, and past what length.
On the line, not after a blank one as an answer's mark: the tool's error is the spec's one
line, each provider's text a clause of it (``; `` between them)."""

WARNING_CUT_MARK: Final = f" [Warning cut: longer than {MESSAGE_LIMIT:,} characters.]"
"""The same for a logged warning quoting a provider (SearXNG's engines that did not answer)."""


def bounded_message(text: str, mark: str = ERROR_CUT_MARK) -> str:
    """``text`` within :data:`MESSAGE_LIMIT` UTF-16 units: whole, or its head, ``…``, ``mark``.

    ``text`` is masked already, so no key shows in part. A text cut before comes back as
    it is (it is within the limit), so a second pass adds no second mark.

    Args:
        text: A provider's error text (or a warning quoting one), its secrets masked.
        mark: What says the text was cut (:data:`ERROR_CUT_MARK` or :data:`WARNING_CUT_MARK`).

    Returns:
        ``text`` when within :data:`MESSAGE_LIMIT`, else its cut, exactly the limit long.

    Example:
        >>> cut = bounded_message("E" * 20_000)
        >>> len(cut), cut[-52:], bounded_message("short")
        (10000, 'EE… [Error text cut: longer than 10,000 characters.]', 'short')
    """
    if len(text) * 2 <= MESSAGE_LIMIT or utf16_len(text) <= MESSAGE_LIMIT:
        return text
    return truncate_text(text, MESSAGE_LIMIT - utf16_len(mark)) + mark
