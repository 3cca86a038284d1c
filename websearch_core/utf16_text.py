"""Text lengths and cuts in UTF-16 code units, as the spec's reference implementation counts.

Apart from :mod:`websearch_core.format` (which re-exports them) because that module imports
the providers: :mod:`websearch_core.sanitize`, which a provider imports, cuts upstream
one-line text by the same rule, and could not import :mod:`~websearch_core.format` without
a cycle. Nothing here imports anything of the package.

Example:
    >>> truncate_text("abcdef", 4), utf16_len("a😀")
    ('abc…', 3)
"""

import codecs

__all__ = ["ELLIPSIS", "truncate_text", "utf16_len", "whole_words"]

ELLIPSIS = "…"
"""The mark of text cut short, here and in the providers' snippets."""
_UTF16_ENCODE = codecs.getencoder("utf-16-le")
"""The codec's encoder itself: ``str.encode("utf-16-le")`` looks the codec up by name on
every call, which costs more than encoding a snippet."""
_HIGH_SURROGATES = ("\ud800", "\udbff")
"""The first and last high (leading) surrogate: one ending a cut is half a character."""


def utf16_len(text: str) -> int:
    """Length in UTF-16 code units, as the spec's reference implementation counts.

    ASCII text (``str.isascii`` reads a flag, it does not scan) is one unit a character,
    so only other text is encoded to be counted. A lone surrogate (JSON may escape one) is
    one unit, as JavaScript counts it: upstream text is measured before cleaning drops it,
    and counting it must not raise.
    """
    if text.isascii():
        return len(text)
    return len(_UTF16_ENCODE(text, "surrogatepass")[0]) // 2


def truncate_text(text: str, limit: int, *, at_word: bool = False) -> str:
    """Cut ``text`` to ``limit`` UTF-16 code units, the last one being ``…``.

    Args:
        text: The text to shorten.
        limit: The total length allowed, ellipsis included.
        at_word: Cut at the last whitespace before the limit rather than inside a word (a
            provider's snippet reads better without half a word; the model's text keeps the
            spec's exact cut). A head with no whitespace is cut where the limit falls.

    Returns:
        ``text`` unchanged when it fits, else its head plus ``…``: total length ``limit``,
        or at most ``limit`` with ``at_word``.
    """
    length = len(text)
    if length * 2 <= limit:
        return text  # fits even if every character took two units
    if text.isascii():  # one unit a character: slicing cuts where the encoding would
        cut = text if length <= limit else text[: limit - 1] + ELLIPSIS
    else:
        cut = _truncate_units(text, limit)
    if not at_word or cut == text:
        return cut
    return whole_words(text, cut[: -len(ELLIPSIS)]) + ELLIPSIS


def whole_words(text: str, head: str) -> str:
    """``head``, a prefix of ``text``, without the part of a word it cut, nor end spaces.

    A head that is one unbroken word stays whole (cut where it was), so something is left.

    Example:
        >>> whole_words("follows Jakarta and Dhaka.", "follows Jakarta and Dhak")
        'follows Jakarta and'
    """
    if len(head) < len(text) and not text[len(head)].isspace():
        cut = max(head.rfind(" "), head.rfind("\n"), head.rfind("\t"))
        if cut > 0:
            head = head[:cut]
    return head.rstrip()


def _truncate_units(text: str, limit: int) -> str:
    r""":func:`truncate_text` by encoding to UTF-16, for any text (the general path).

    A lone surrogate (a JSON ``\ud800`` escape decodes to one) is one unit, as
    :func:`utf16_len` and JavaScript count it, and is kept where it stands: providers cut
    upstream text before cleaning drops it, and a strict encode raised there, so one such
    escape in a long Exa snippet or Brave title lost the whole answer to a codec error.
    """
    units = _UTF16_ENCODE(text, "surrogatepass")[0]
    if len(units) // 2 <= limit:
        return text
    head = units[: (limit - 1) * 2].decode("utf-16-le", "surrogatepass")
    # A cut through a surrogate pair leaves half a character; drop it rather than garble.
    if head and _HIGH_SURROGATES[0] <= head[-1] <= _HIGH_SURROGATES[1]:
        head = head[:-1]
    return head + ELLIPSIS
