"""Bytes to text: the charset a page declares, or the one its bytes show.

Order (as browsers do it): a byte-order mark, then the HTTP ``Content-Type`` charset, then a
``<meta charset>`` / ``<meta http-equiv>`` declaration near the top of the document, then
charset-normalizer's detection, then UTF-8 with replacement characters. A declared charset
Python does not know is skipped rather than trusted.
"""

import codecs
import re

__all__ = ["declared_charset", "decode_html"]

_BOMS = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_META_CHARSET = re.compile(
    rb"""<meta[^>]+?charset\s*=\s*["']?\s*([A-Za-z0-9._:-]+)""", re.IGNORECASE
)
_HEADER_CHARSET = re.compile(r"""charset\s*=\s*["']?([A-Za-z0-9._:-]+)""", re.IGNORECASE)
_PRESCAN_BYTES = 4096
"""The HTML standard prescans 1024 bytes; real pages put long <head> scripts first."""


def declared_charset(content_type: str | None) -> str | None:
    """Return the charset an HTTP ``Content-Type`` header declares, if Python knows it.

    Args:
        content_type: The header value, e.g. ``text/html; charset=ISO-8859-1``.

    Returns:
        Python's codec name for it, or ``None``.

    Example:
        >>> declared_charset("text/html; charset=ISO-8859-1")  # read as its superset
        'cp1252'
    """
    if not content_type:
        return None
    match = _HEADER_CHARSET.search(content_type)
    return _known(match.group(1)) if match else None


def decode_html(data: bytes, content_type: str | None = None) -> str:
    r"""Decode a page's bytes to text.

    Args:
        data: The body as received (already un-gzipped).
        content_type: The response's ``Content-Type`` header, if any.

    Returns:
        The text. Undecodable bytes become U+FFFD rather than an error: a page with one bad
        byte is still worth reading.

    Example:
        >>> decode_html(b"<meta charset='windows-1252'><p>caf\xe9</p>")
        "<meta charset='windows-1252'><p>café</p>"
    """
    for bom, codec in _BOMS:
        if data.startswith(bom):
            return data[len(bom) :].decode(codec, errors="replace")
    codec = (
        declared_charset(content_type) or _meta_charset(data[:_PRESCAN_BYTES]) or _detected(data)
    )
    return data.decode(codec, errors="replace")


def _meta_charset(head: bytes) -> str | None:
    match = _META_CHARSET.search(head)
    return _known(match.group(1).decode("ascii")) if match else None


def _detected(data: bytes) -> str:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    else:
        return "utf-8"  # the common case, and cheaper to confirm than to detect
    from charset_normalizer import from_bytes

    best = from_bytes(data[:65536]).best()
    if best is None:
        return "utf-8"
    return _known(best.encoding) or "utf-8"


def _known(label: str) -> str | None:
    try:
        name = codecs.lookup(label).name
    except LookupError:
        return None
    # Browsers read pages labelled latin-1/ascii as windows-1252 (its superset).
    return "cp1252" if name in {"iso8859-1", "ascii"} else name
