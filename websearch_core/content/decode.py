"""Bytes to text: the charset a page declares, or the one its bytes show.

Order (as browsers do it): a byte-order mark, then the HTTP ``Content-Type`` charset, then a
``<meta charset>`` / ``<meta http-equiv>`` declaration near the top of the document, then
charset-normalizer's detection, then UTF-8 with replacement characters. A declared charset
Python does not know is skipped rather than trusted. Legacy labels are read with the superset
codecs browsers use (:data:`_WHATWG_SUPERSETS`), since pages labelled ``Shift_JIS`` or
``ISO-8859-9`` are written, in practice, in the vendor extensions of those charsets.
"""

import codecs
import re
from collections.abc import Mapping

__all__ = ["byte_order_mark", "declared_charset", "decode_html"]

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
_WHATWG_SUPERSETS: Mapping[str, tuple[str, ...]] = {
    "cp932": (
        "csshiftjis", "ms932", "ms_kanji", "shift-jis", "shift_jis", "sjis", "windows-31j",
        "x-sjis",
    ),
    "gb18030": (
        "chinese", "csgb2312", "csiso58gb231280", "gb2312", "gb_2312", "gb_2312-80", "gbk",
        "iso-ir-58", "x-gbk",
    ),
    "cp949": (
        "cseuckr", "csksc56011987", "euc-kr", "iso-ir-149", "korean", "ks_c_5601-1987",
        "ks_c_5601-1989", "ksc5601", "ksc_5601", "windows-949",
    ),
    "cp1252": (
        "ansi_x3.4-1968", "ascii", "cp819", "csisolatin1", "ibm819", "iso-8859-1", "iso-ir-100",
        "iso8859-1", "iso88591", "iso_8859-1", "iso_8859-1:1987", "l1", "latin1", "us-ascii",
    ),
    "cp1254": (
        "csisolatin5", "iso-8859-9", "iso-ir-148", "iso8859-9", "iso88599", "iso_8859-9",
        "iso_8859-9:1989", "l5", "latin5",
    ),
    "cp874": ("dos-874", "iso-8859-11", "iso8859-11", "iso885911", "tis-620"),
    "big5hkscs": ("big5", "big5-hkscs", "cn-big5", "csbig5", "x-x-big5"),
    "utf-16-le": (
        "csunicode", "iso-10646-ucs-2", "ucs-2", "unicode", "unicodefeff", "utf-16", "utf-16le",
    ),
    "utf-16-be": ("unicodefffe", "utf-16be"),
}  # fmt: skip
"""Python codec for each legacy charset label, as browsers decode it.

Source: the WHATWG Encoding Standard, "Names and labels"
(https://encoding.spec.whatwg.org/#names-and-labels). It maps these labels to the vendor
supersets browsers have always used (``Shift_JIS`` is read as Windows-31J, ``ISO-8859-1``
and ``US-ASCII`` as windows-1252, ``GB2312`` as GB18030, ...). Python's codecs of the same
names are the strict originals and would turn the extra characters real pages use (curly
quotes, ``①``, ``㈱``, ``髙``) into mojibake. UTF-16 without a byte-order mark means
little-endian there, where Python would guess the machine's byte order.
"""
_WEB_DEFAULT = "cp1252"
"""What an undeclared legacy page is read as when detection cannot tell it from another
charset: windows-1252, the default browsers use for one (WHATWG). charset-normalizer rates
Western text as Central European (``cp1250``) or Vietnamese (``cp1258``) as readily, and a
French page without a declaration came out as ``trčs ... męme ... ŕ la`` for ``très ...
même ... à la``; a charset whose decoding reads cleaner still wins."""
_META_UTF16 = frozenset({"utf-16-le", "utf-16-be"})
"""A ``<meta>`` naming these is read as UTF-8 (HTML standard, "prescan a byte stream"):
the page's bytes were ASCII-compatible enough for the declaration to be found at all."""


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
    marked = byte_order_mark(data)
    if marked is not None:
        codec, length = marked
        return data[length:].decode(codec, errors="replace")
    codec = (
        declared_charset(content_type) or _meta_charset(data[:_PRESCAN_BYTES]) or _detected(data)
    )
    return data.decode(codec, errors="replace")


def byte_order_mark(data: bytes) -> tuple[str, int] | None:
    r"""The codec a leading byte-order mark names, and the mark's length in bytes.

    A mark wins over every declaration (as browsers read it), and hides what follows it
    from a look at the first bytes: a page's ``<`` comes after it.

    Example:
        >>> byte_order_mark(b"\xef\xbb\xbf<html>")
        ('utf-8', 3)
        >>> byte_order_mark(b"<html>") is None
        True
    """
    for bom, codec in _BOMS:
        if data.startswith(bom):
            return codec, len(bom)
    return None


def _meta_charset(head: bytes) -> str | None:
    match = _META_CHARSET.search(head)
    codec = _known(match.group(1).decode("ascii")) if match else None
    return "utf-8" if codec in _META_UTF16 else codec


def _detected(data: bytes) -> str:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    else:
        return "utf-8"  # the common case, and cheaper to confirm than to detect
    from charset_normalizer import from_bytes

    matches = from_bytes(data[:65536])
    best = matches.best()
    if best is None:
        return "utf-8"
    if any(m.encoding == _WEB_DEFAULT and m.chaos <= best.chaos for m in matches):
        return _WEB_DEFAULT
    return _known(best.encoding) or "utf-8"


def _known(label: str) -> str | None:
    """Return the codec browsers decode ``label`` with, or ``None`` if Python has none.

    The label is looked up as WHATWG spells it first, then through Python's aliases, so
    that Python's own names (``euc_kr``, ``iso8859-9``, as charset-normalizer reports them)
    land on the same superset.
    """
    superset = _SUPERSET_BY_LABEL.get(_label_key(label))
    if superset is not None:
        return superset
    try:
        info = codecs.lookup(label)
    except LookupError:
        return None
    if not getattr(info, "_is_text_encoding", True):  # base64, hex, rot13, zlib: no charset
        return None
    name = info.name
    return _SUPERSET_BY_LABEL.get(_label_key(name), name)


def _label_key(label: str) -> str:
    """Fold the spellings WHATWG and Python use for one label (case, ``_`` for ``-``)."""
    return label.strip().lower().replace("_", "-")


_SUPERSET_BY_LABEL = {
    _label_key(label): codec for codec, labels in _WHATWG_SUPERSETS.items() for label in labels
}
