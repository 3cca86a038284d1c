"""Bytes to text: the charset a page declares, or the one its bytes show.

Order (as browsers do it): a byte-order mark, then the HTTP ``Content-Type`` charset, then a
``<meta charset>`` / ``<meta http-equiv>`` declaration near the top of the document (or an
XML declaration's ``encoding``), then UTF-8 if the bytes are valid UTF-8, then detection by
chardetng (Firefox's detector for undeclared legacy pages, through ``chardetng-py``), hinted
by the page's top-level domain as Firefox hints it. A declared charset Python does not know
is skipped rather than trusted. Legacy labels are read with the superset
codecs browsers use (:data:`_WHATWG_SUPERSETS`), since pages labelled ``Shift_JIS`` or
``ISO-8859-9`` are written, in practice, in the vendor extensions of those charsets.
"""

import codecs
import ipaddress
import re
from collections.abc import Mapping
from urllib.parse import urlsplit

from chardetng_py import detect

__all__ = ["byte_order_mark", "declared_charset", "decode_html"]

_BOMS = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_META_OPEN = re.compile(rb"<meta", re.IGNORECASE)
_META_CHARSET = re.compile(rb"""[^>]+?charset\s*=\s*+["']?+\s*+([A-Za-z0-9._:-]+)""", re.IGNORECASE)
"""The rest of a ``<meta`` tag up to its charset's value, read from just after ``<meta``.

The blanks around the optional quote are taken whole: the value holds neither, so giving
some back can never help, where trying each split made a run of blanks quadratic."""
_XML_ENCODING = re.compile(
    rb"""\s*<\?xml[^>]*?\sencoding\s*=\s*["']\s*([A-Za-z0-9._:-]+)""", re.IGNORECASE
)
"""An XML declaration at the start (``<?xml version="1.0" encoding="ISO-8859-1"?>``): a
feed's or an XHTML page's own charset declaration."""
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
    "cp874": ("dos-874", "iso-8859-11", "iso8859-11", "iso885911", "tis-620", "windows-874"),
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
_DETECTION_WINDOW = 65536
"""Bytes handed to detection, from just before the first non-ASCII byte on: the text that
tells charsets apart is in the bytes above 0x7F, and pages often put more than this of
ASCII scripts and styles before their first accented letter."""
_DETECTION_LEAD = 1024
"""ASCII kept before the first non-ASCII byte: the letters next to it are part of what the
detector reads."""
_HIGH_BYTE = re.compile(rb"[\x80-\xff]")
_TLD = re.compile(r"^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$")
"""A top-level domain as the detector takes it: lower-case ASCII, Punycode for IDN ones."""
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


def decode_html(data: bytes, content_type: str | None = None, *, url: str | None = None) -> str:
    r"""Decode a page's bytes to text.

    Args:
        data: The body as received (already un-gzipped).
        content_type: The response's ``Content-Type`` header, if any.
        url: Where the page came from, if known: its top-level domain tells detection which
            legacy charsets the page is likely written in (``.hu`` Central European, ``.lt``
            Baltic), as browsers use it. It weighs only on pages that declare no charset.

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
        declared_charset(content_type)
        or _meta_charset(data[:_PRESCAN_BYTES])
        or _detected(data, _top_level_domain(url))
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


def _meta_declaration(head: bytes) -> re.Match[bytes] | None:
    """The first ``<meta`` tag's charset declaration, each tag's text read once.

    A ``<meta`` whose text up to the next ``>`` declares no charset has no later ``<meta``
    before that ``>`` declaring one either (the later one's text is the end of the first
    one's), so the look goes on after the ``>``. Searching for the whole declaration
    instead started again at each such ``<meta`` and read the rest of the text from each:
    quadratic on ``<meta `` repeated (26 ms for the 4 KiB prescan, stop 55).
    """
    at = 0
    while (opening := _META_OPEN.search(head, at)) is not None:
        declaration = _META_CHARSET.match(head, opening.end())
        if declaration is not None:
            return declaration
        close = head.find(b">", opening.end())
        if close < 0:
            return None
        at = close + 1
    return None


def _meta_charset(head: bytes) -> str | None:
    match = _meta_declaration(head) or _XML_ENCODING.match(head)
    codec = _known(match.group(1).decode("ascii")) if match else None
    return "utf-8" if codec in _META_UTF16 else codec


def _detected(data: bytes, tld: str | None) -> str:
    """The charset an undeclared page's bytes show: UTF-8, else chardetng's legacy guess.

    chardetng is trained on what undeclared legacy pages are written in, and scores the
    letters next to each other, which is what tells Turkish in windows-1254 from the same
    bytes read as Baltic. charset-normalizer, used before, rated French, Turkish and
    Lithuanian pages as readily in Central European, Baltic or Western charsets, and read
    8 of 24 such test pages right where chardetng reads all 24.
    """
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    else:
        return "utf-8"  # the common case, and cheaper to confirm than to detect
    first = _HIGH_BYTE.search(data)
    start = max(0, first.start() - _DETECTION_LEAD) if first else 0
    window = data[start : start + _DETECTION_WINDOW]
    guess = detect(window, allow_utf8=False, tld=tld.encode("ascii") if tld else None)
    return _known(str(guess)) or "cp1252"


def _top_level_domain(url: str | None) -> str | None:
    """The last label of ``url``'s host, if it is a top-level domain (not an IP address)."""
    if not url:
        return None
    try:
        host = (urlsplit(url).hostname or "").rstrip(".")
    except ValueError:
        return None
    try:
        ipaddress.ip_address(host)
    except ValueError:
        pass
    else:
        return None
    label = host.rsplit(".", 1)[-1] if "." in host else ""
    return label if _TLD.match(label) else None


def _known(label: str) -> str | None:
    """Return the codec browsers decode ``label`` with, or ``None`` if Python has none.

    The label is looked up as WHATWG spells it first, then through Python's aliases, so
    that Python's own names (``euc_kr``, ``iso8859-9``) and chardetng's (``GBK``,
    ``Shift_JIS``) land on the same superset.
    """
    superset = _SUPERSET_BY_LABEL.get(_label_key(label))
    if superset is not None:
        return superset
    try:
        info = codecs.lookup(label)
    except LookupError:
        return None
    if not _decodes_bytes_to_text(info):  # base64, hex, rot13, zlib: no charset
        return None
    name = info.name
    return _SUPERSET_BY_LABEL.get(_label_key(name), name)


def _decodes_bytes_to_text(info: codecs.CodecInfo) -> bool:
    """Whether ``info`` is a charset: a codec that turns bytes into text.

    Asked of the codec itself, by decoding no bytes: a charset gives ``""``, a bytes codec
    (``base64``, ``zlib``) gives bytes and a text one (``rot13``) refuses bytes. The
    codec's private ``_is_text_encoding`` flag (CPython 3.11) says the same, but nothing
    promises it stays.
    """
    try:
        decoded, _ = info.decode(b"")
    except Exception:  # any codec's own error (zlib.error, binascii.Error, TypeError)
        return False
    return isinstance(decoded, str)


def _label_key(label: str) -> str:
    """Fold the spellings WHATWG and Python use for one label (case, ``_`` for ``-``)."""
    return label.strip().lower().replace("_", "-")


_SUPERSET_BY_LABEL = {
    _label_key(label): codec for codec, labels in _WHATWG_SUPERSETS.items() for label in labels
}
