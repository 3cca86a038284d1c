"""HTML helpers shared by the scraping providers, all on lxml.

* :data:`BROWSER_HEADERS` and :func:`navigation_headers`: a desktop-Chrome navigation
  profile as data, with the per-request overlay (``Referer`` makes the fetch same-origin).
* :func:`decoded_page` and :func:`parse_document`: a body's text, and a lenient whole-page
  parse that reads the body's own UTF-8 bytes when the text is exactly their decoding
  (lxml reads them in about half the time of a ``str`` holding characters beyond U+FFFF),
  else the text as it is (never encoded again).
* :func:`utf8_source`, :func:`parse_source` and :func:`parse_body`: the same parse of those
  bytes for a reader that needs the text only now and then, or never, without decoding the
  whole text first (a 7 MB page holding one emoji is 28 MB of ``str``); and
  :func:`body_page` and :func:`parse_page_text` for a parser handed either.
* :func:`css`, :func:`select` and :func:`select_first`: selectors compiled once, at import
  or first use, never per call (translating a CSS selector costs more than running it).
* :func:`text_of` (the DOM's ``textContent``, scripts left out) and :func:`layout_text`
  (inline highlighting such as ``<b>`` does not split words; block boundaries do): an
  element's readable text.
* :func:`find_forms`: ``<form>`` elements with the fields a browser would submit, for
  engines that paginate or hand out tokens through hidden inputs.
* :func:`resolve_href` and :func:`is_http_url`: result links resolved against the page
  they came from.

Everything here is pure, so each helper can be tested with plain strings.
"""

import codecs
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import cast
from urllib.parse import SplitResult, urljoin, urlsplit, urlunsplit, uses_netloc, uses_relative

import lxml.etree
from lxml.cssselect import CSSSelector

from .providers._common import collapse_whitespace, is_http_url

__all__ = [
    "BROWSER_HEADERS",
    "CHROME_USER_AGENT",
    "Element",
    "HtmlForm",
    "body_page",
    "class_tokens",
    "css",
    "decoded_page",
    "find_forms",
    "form_fields",
    "has_class",
    "host_of",
    "is_http_url",
    "iter_forms",
    "layout_text",
    "navigation_headers",
    "parse_body",
    "parse_document",
    "parse_page_text",
    "parse_source",
    "plain_http_parts",
    "raw_text",
    "read_form",
    "resolve_href",
    "resolve_link",
    "select",
    "select_first",
    "text_matches",
    "text_of",
    "utf8_source",
]

CHROME_USER_AGENT = (
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 "
    "(KHTML, like Gecko) Chrome/149.0.0.0 Safari/537.36"
)
"""The User-Agent of a current desktop Chrome on macOS."""

BROWSER_HEADERS: Mapping[str, str] = MappingProxyType(
    {
        "User-Agent": CHROME_USER_AGENT,
        "Accept": (
            "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,"
            "image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7"
        ),
        "Accept-Language": "en-US,en;q=0.9",
        "Cache-Control": "max-age=0",
        "Priority": "u=0, i",
        "sec-ch-ua": '"Google Chrome";v="149", "Chromium";v="149", ";Not A Brand";v="99"',
        "sec-ch-ua-mobile": "?0",
        "sec-ch-ua-platform": '"macOS"',
        "Sec-Fetch-Dest": "document",
        "Sec-Fetch-Mode": "navigate",
        "Sec-Fetch-Site": "none",
        "Sec-Fetch-User": "?1",
        "Upgrade-Insecure-Requests": "1",
    }
)
"""A top-level navigation by desktop Chrome.

``Accept-Encoding`` is deliberately absent: aiohttp adds it with exactly the encodings it
can decode, whereas advertising ``br``/``zstd`` without their decoders installed would
make servers send bodies we cannot read.
"""

_INLINE_TAGS = frozenset(
    {
        "a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "dfn", "em", "font", "i",
        "kbd", "mark", "q", "s", "samp", "small", "span", "strong", "sub", "sup", "time",
        "u", "var", "wbr",
    }
)  # fmt: skip
"""Tags that do not separate words: highlighting (``<b>Eino</b>-ext``) reads as one word."""


def navigation_headers(
    *, referer: str | None = None, extra: Mapping[str, str] | None = None
) -> dict[str, str]:
    """Browser navigation headers for one request.

    The overlay order is the profile, then ``Referer`` with ``Sec-Fetch-Site: same-origin``
    when a referer is given, then ``extra`` (for example ``Content-Type``).

    Args:
        referer: The page the navigation pretends to come from.
        extra: Request-specific headers, applied last.

    Returns:
        A fresh dictionary the caller may modify.

    Example:
        >>> navigation_headers(referer="https://example.org/")["Sec-Fetch-Site"]
        'same-origin'
    """
    headers = dict(BROWSER_HEADERS)
    if referer:
        headers["Referer"] = referer
        headers["Sec-Fetch-Site"] = "same-origin"
    if extra:
        headers.update(extra)
    return headers


# --- parsing and selecting -------------------------------------------------------------------

Element = lxml.etree._Element
"""A parsed element: lxml's plain element class.

``lxml.html`` parsers look up a Python element class in Python for every element the code
touches (about a third of a microsecond each, hundreds per page); the plain class is
looked up in C. Select with :func:`css` or a compiled XPath, never ``element.cssselect``.
"""

_PARSER = lxml.etree.HTMLParser(remove_comments=False, collect_ids=False)
"""For decoded text: lxml reads the ``str`` as it is, so nothing is encoded again.

``collect_ids=False``: no table of ``id`` attributes is built (about 3% of the parse);
nothing here calls XPath's ``id()``, selectors test ``@id`` directly.
"""
_BYTES_PARSER = lxml.etree.HTMLParser(encoding="utf-8", remove_comments=False, collect_ids=False)
"""For UTF-8 bytes: a page with an XML encoding declaration, which lxml refuses as ``str``."""
_EMPTY_DOCUMENT = b"<html><head></head><body></body></html>"
_UTF8_BOM = b"\xef\xbb\xbf"
"""A body starting with it decodes to text starting with U+FEFF: a character in the text,
a byte-order mark to lxml in the bytes. Such a body is parsed as its text, as before."""


def decoded_page(body: bytes) -> tuple[str, bytes | None]:
    r"""A response body as text, and the body itself when the text is exactly its decoding.

    The text is what ``HttpResponse.text()`` gives (UTF-8, undecodable bytes replaced).
    The body comes back second when nothing was replaced and it has no byte-order mark:
    then :func:`parse_document` may read those bytes instead of the text, for the same
    tree. ``None`` there means "parse the text".

    Example:
        >>> decoded_page("café".encode())
        ('café', b'caf\xc3\xa9')
        >>> decoded_page(b"caf\xe9")[1] is None  # an undecodable byte: parse the text
        True
    """
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return body.decode("utf-8", errors="replace"), None
    return text, (None if body.startswith(_UTF8_BOM) else body)


_PIECE = 1 << 16
"""Bytes :func:`utf8_source` decodes at a time: a few hundred KiB of ``str`` at most."""


def utf8_source(body: bytes) -> bytes | None:
    r"""``body`` when :func:`parse_source` may read it for the tree its text gives, else ``None``.

    That is :func:`decoded_page`'s second value, found without keeping the text: the body
    is decoded a piece at a time (strictly, so an undecodable byte gives ``None``) and each
    piece dropped, so the check holds at most one piece of ``str`` however wide the page's
    characters. A body that has a byte-order mark, or whose text is empty or whitespace only
    (``str.isspace``, which :func:`parse_document` tests) also gives ``None``: the caller
    reads those from their text, as :func:`parse_document` does.

    Example:
        >>> utf8_source("<p>café 😀".encode()) is not None
        True
        >>> utf8_source(b"<p>caf\xe9"), utf8_source(b" \xc2\xa0\n")  # undecodable; blank
        (None, None)
    """
    if body.startswith(_UTF8_BOM):
        return None
    view = memoryview(body)
    size = len(body)
    start = 0
    blank = True
    try:
        while start < size:
            end = start + _PIECE
            # Not final before the end: a character cut at the piece's end is left unread
            # (``used`` stops before it) and read with the next piece.
            piece, used = codecs.utf_8_decode(view[start:end], "strict", end >= size)
            if blank and piece and not piece.isspace():
                blank = False
            start += used
    except UnicodeDecodeError:
        return None
    return None if blank else body


def parse_source(source: bytes) -> Element:
    """:func:`parse_document` of a body :func:`utf8_source` handed on, read from its bytes.

    The same tree as ``parse_document(source.decode("utf-8"), source=source)``, without
    the text: for a reader that decodes it only when a check needs it.
    """
    try:
        root: Element | None = lxml.etree.fromstring(source, parser=_BYTES_PARSER)
    except ValueError:  # what lxml refuses to read
        root = None
    return _empty_document() if root is None else root  # None: nothing but comments


def body_page(body: bytes) -> str | bytes:
    r"""What a parser reads of a response body: the body itself, or else its text.

    The body when :func:`utf8_source` hands it on (the parser reads its bytes and never
    holds the whole text), else its text as ``HttpResponse.text()`` gives it.

    Example:
        >>> body_page("<p>café".encode()), body_page(b"<p>caf\xe9")
        (b'<p>caf\xc3\xa9', '<p>caf�')
    """
    source = utf8_source(body)
    return body.decode("utf-8", errors="replace") if source is None else source


def parse_page_text(page: str | bytes, *, source: bytes | None = None) -> Element:
    """The tree of a page handed to a parser as its text or as the body itself.

    Args:
        page: The decoded page, or a body :func:`utf8_source` handed on (read as bytes, so
            the reader never holds the whole text).
        source: With text: the bytes it is exactly the decoding of, as
            :func:`decoded_page` gives them.
    """
    if isinstance(page, bytes):
        return parse_source(page)
    return parse_document(page, source=source)


def parse_body(body: bytes) -> Element:
    """The tree :func:`parse_document` gives for a response body's text, text never kept.

    For a reader that needs nothing but the tree: the bytes are parsed when
    :func:`utf8_source` hands them on, else the text ``HttpResponse.text()`` gives.
    """
    return parse_page_text(body_page(body))


def parse_document(html: str, *, source: bytes | None = None) -> Element:
    """Parse a whole HTML page leniently into its ``<html>`` root element.

    Never raises for bad input: broken markup is repaired the way lxml's HTML parser does,
    an XML encoding declaration is tolerated (the text is already decoded), and an empty or
    whitespace-only page gives an empty ``<html><head/><body/></html>`` document.

    lxml reads a ``str`` in the form Python keeps it, one to four bytes a character, and
    converts it to UTF-8 as it parses: a page holding one character beyond U+FFFF (an
    emoji) is held at four bytes a character and parses in about twice the time of its
    UTF-8 bytes (Yahoo's 326 KB results page: 2.2 against 1.1 ms; Google's 908 KB: 7.7
    against 4.1 ms), and any other non-ASCII page 5-10% slower. So a page decoded from a
    response gives its body along (:func:`decoded_page`), and those bytes are parsed: the
    same characters, so the same tree (the tests compare both on every capture). Text
    with no body at hand is handed to lxml as it is.

    Args:
        html: The decoded page.
        source: The UTF-8 bytes ``html`` is exactly the decoding of (no byte-order mark),
            as :func:`decoded_page` gives them; ``None``: parse ``html``.

    Returns:
        The root element; select inside it with :func:`css` or a compiled XPath.

    Example:
        >>> root = parse_document("<p class=x>Hello <b>world</b>")
        >>> root.tag, [text_of(p) for p in css("p.x")(root)]
        ('html', ['Hello world'])
    """
    if not html or html.isspace():
        return _empty_document()
    if source is not None:
        return parse_source(source)
    try:
        root: Element | None = lxml.etree.fromstring(html, parser=_PARSER)
    except ValueError:  # an encoding declaration (or NUL) that lxml refuses in a str
        return parse_source(html.encode("utf-8", errors="replace"))
    return _empty_document() if root is None else root  # None: nothing but comments


def _empty_document() -> Element:
    """``<html><head/><body/></html>``: what a page with nothing to parse reads as."""
    return lxml.etree.fromstring(_EMPTY_DOCUMENT, parser=_BYTES_PARSER)


@lru_cache(maxsize=256)
def css(selector: str) -> CSSSelector:
    """``selector`` compiled once to XPath, as lxml.html's ``cssselect`` would translate it.

    ``element.cssselect(selector)`` translates the selector on every call, which costs more
    than running it; keep the result of this function (a module constant) and call it on
    the element instead. The cache makes a repeated call cheap too.

    Raises:
        cssselect.SelectorError: ``selector`` is not valid CSS.

    Example:
        >>> [a.get("href") for a in css("h2 a[href]")(parse_document("<h2><a href=/x>x</a></h2>"))]
        ['/x']
    """
    return CSSSelector(selector, translator="html")


def select(selector: lxml.etree.XPath, element: Element) -> list[Element]:
    """The elements a compiled selector (:func:`css` or an element-selecting XPath) finds."""
    return cast(list[Element], selector(element))


def select_first(selector: lxml.etree.XPath, element: Element) -> Element | None:
    """The first element a compiled selector finds under ``element``, or ``None``."""
    matches = select(selector, element)
    return matches[0] if matches else None


_XML_SPACE = str.maketrans("\t\n\r", "   ")


@lru_cache(maxsize=1024)
def class_tokens(classes: str) -> frozenset[str]:
    r"""The class names in a ``class`` attribute, split as CSS selectors split them.

    Only space, tab, CR and LF separate names (XPath's ``normalize-space``, which the
    compiled selectors use); a page repeats a few class attributes many times, hence the
    cache.

    Example:
        >>> sorted(class_tokens(" b_caption\tb_rich "))
        ['b_caption', 'b_rich']
    """
    return frozenset(classes.translate(_XML_SPACE).split(" ")) - {""}


_CLASS = b"class"
_TOKENS: dict[str, frozenset[str]] = {}
""":func:`class_tokens` for :func:`has_class`, in a plain dictionary: a lookup in it costs
less than a call through the ``lru_cache`` wrapper, and every engine tests classes of many
elements a page."""
_MAX_TOKENS = 1024
"""The memo is emptied when pages bring more distinct class attributes than this."""


def has_class(element: Element, name: str) -> bool:
    """Whether ``element``'s class attribute holds ``name``, as the CSS ``.name`` tests."""
    classes = element.get(_CLASS)  # the name as bytes: lxml encodes a str name every call
    if classes is None:
        return False
    tokens = _TOKENS.get(classes)
    if tokens is None:
        if len(_TOKENS) >= _MAX_TOKENS:
            _TOKENS.clear()
        tokens = _TOKENS[classes] = class_tokens(classes)
    return name in tokens


# --- text ----------------------------------------------------------------------------------------

_INVISIBLE_TEXT = "[not(ancestor::script) and not(ancestor::style) and not(ancestor::template)]"
_VISIBLE_TEXT = lxml.etree.XPath(f"descendant-or-self::text(){_INVISIBLE_TEXT}")
_HIDDEN_TAGS = ("script", "style", "template")


def text_of(element: Element) -> str:
    """The text a reader sees in ``element``, whitespace collapsed and trimmed.

    Like the DOM's ``textContent`` (descendant text concatenated, entities decoded, no
    separator added between elements, so ``<b>Ja</b>va`` reads ``Java``), except that the
    contents of ``<script>``, ``<style>`` and ``<template>`` and comments are left out.
    Whitespace, no-break spaces included, is collapsed to single spaces.

    Example:
        >>> text_of(parse_document("<p> Hi&nbsp; <b>the</b>re<script>x()</script><!-- c --></p>"))
        'Hi there'
    """
    childless = not len(element)  # then its own text is all its text
    if childless:
        hidden = element.tag in _HIDDEN_TAGS
    else:
        hidden = next(element.iter(*_HIDDEN_TAGS), None) is not None
    if not hidden and next(element.iterancestors(*_HIDDEN_TAGS), None) is None:
        # Nothing to leave out: the string value (all descendant text) is the same text,
        # and far cheaper than testing every text node's ancestors.
        return collapse_whitespace((element.text or "") if childless else _string_value(element))
    parts = cast(list[str], _VISIBLE_TEXT(element))
    return collapse_whitespace("".join(parts))


_TEXT_PIECE = 1 << 14
"""Characters of a tree's text :func:`text_matches` searches at a time: the text nodes of a
piece are small strings each, several times their characters' size held until it is read."""
_WHITESPACE_RUN = re.compile(r"\s+")
r"""What :func:`~.providers._common.collapse_whitespace` turns into one space (``str.split``
splits on exactly the characters ``\s`` matches)."""


def text_matches(element: Element, pattern: re.Pattern[str], span: int) -> bool:
    r"""Whether ``pattern`` matches in :func:`text_of` ``(element)``, without building it whole.

    The visible text nodes are read in document order, a piece of about 16 Ki characters at
    a time with its whitespace runs collapsed, each piece led by the last ``span - 1``
    characters of the one before, so a match across two pieces lies whole in the second.
    :func:`text_of` of a 7 MB page's body is 7-28 MB of ``str``; this holds a piece.

    Args:
        element: Where the text is read (its tail left out, as :func:`text_of` does).
        pattern: Searched in the collapsed text; it must neither start nor end with
            whitespace (the text's ends are trimmed, the pieces' are not).
        span: The most characters a match can span.

    Example:
        >>> page = parse_document("<p>did <b>not</b>\n match<script>x</script> any</p>")
        >>> text_matches(page, re.compile("not match any"), 13)
        True
    """
    carried = ""
    pending: list[str] = []
    size = 0
    for node in _visible_text_nodes(element):
        for start in range(0, len(node), _TEXT_PIECE):  # a long node a piece at a time too
            text = node[start : start + _TEXT_PIECE] if len(node) > _TEXT_PIECE else node
            pending.append(text)
            size += len(text)
            if size < _TEXT_PIECE:
                continue
            piece = _WHITESPACE_RUN.sub(" ", carried + "".join(pending))
            if pattern.search(piece):
                return True
            carried = piece[-(span - 1) :] if span > 1 else ""
            pending.clear()
            size = 0
    return bool(pattern.search(_WHITESPACE_RUN.sub(" ", carried + "".join(pending))))


def _visible_text_nodes(element: Element) -> Iterator[str]:
    """The text nodes :func:`text_of` joins, one at a time, in document order.

    None inside ``script``, ``style`` or ``template``; a comment's or an instruction's own
    text is none either, but the text after it (its tail) is.
    """
    if element.tag in _HIDDEN_TAGS or next(element.iterancestors(*_HIDDEN_TAGS), None) is not None:
        return
    if element.text:
        yield element.text
    stack: list[tuple[Iterator[Element], str | None]] = [(iter(element), None)]
    while stack:
        children, tail = stack[-1]
        child = next(children, None)
        if child is None:
            stack.pop()
            if tail:
                yield tail
            continue
        if isinstance(child.tag, str) and child.tag not in _HIDDEN_TAGS:
            if child.text:
                yield child.text
            stack.append((iter(child), child.tail))  # its tail follows its descendants
        elif child.tail:
            yield child.tail


def raw_text(element: Element) -> str:
    """The text inside ``element`` as the parser decoded it: no clean-up, comments left out.

    Example:
        >>> raw_text(css("p")(parse_document("<p> a<!-- c --><b>b</b> </p>"))[0])
        ' ab '
    """
    return _string_value(element)


def _string_value(element: Element) -> str:
    """All text inside ``element`` (comments left out), as XPath's ``string()`` gives it.

    lxml's text serialisation concatenates the same text nodes in C, about a fifth of the
    cost of ``string()`` or of joining ``itertext()`` (which pay for an XPath context or a
    Python iterator on every call): this runs for every title and snippet of every page.
    """
    return lxml.etree.tostring(element, method="text", encoding="unicode", with_tail=False)


def layout_text(element: Element) -> str:
    """The text inside ``element``, with words kept apart only where the layout did.

    Inline formatting elements (``b``, ``em``, ``a``, ``span``, ...) join their text to
    their neighbours, so highlighting does not split words (``<b>Eino</b>-ext`` reads
    ``Eino-ext``); every other element and every comment separates words (``a<br>b`` reads
    ``a b``), as the page shows them. Entities are decoded once by the parser (a literal
    ``&amp;lt;`` stays ``&lt;``); whitespace, no-break spaces included, is collapsed and
    trimmed. The element's own tail is not part of it.

    Example:
        >>> page = parse_document("<p><b>Eino</b>-ext<br>is <em>fast</em><!--c-->&amp; more")
        >>> layout_text(css("p")(page)[0])
        'Eino-ext is fast & more'
    """
    text = element.text
    if not len(element):  # no children: its own text is all of it
        return collapse_whitespace(text or "")
    # The common shape: highlighting one level deep (``a <b>b</b> c``). Its text is the
    # element's text and each child's text and tail, read on the way through the children
    # that this test visits anyway (a comment's tag is not a string, so it is not inline).
    pieces = [text or ""]
    for child in element:
        if child.tag not in _INLINE_TAGS or len(child):
            break
        pieces.append(child.text or "")
        pieces.append(child.tail or "")
    else:
        return collapse_whitespace("".join(pieces))
    for descendant in element.iterdescendants():
        if not _is_inline(descendant):
            break
    else:  # highlighting only: the raw text is the layout
        return collapse_whitespace(raw_text(element))
    parts: list[str] = []
    _collect_layout_text(element, parts)
    return collapse_whitespace("".join(parts))


def _is_inline(element: Element) -> bool:
    tag = element.tag
    return isinstance(tag, str) and tag in _INLINE_TAGS


def _collect_layout_text(element: Element, parts: list[str]) -> None:
    parts.append(element.text or "")
    for child in element:
        if not isinstance(child.tag, str):  # a comment or processing instruction
            parts.append(" ")
        elif child.tag in _INLINE_TAGS:
            _collect_layout_text(child, parts)
        else:
            parts.append(" ")
            _collect_layout_text(child, parts)
            parts.append(" ")
        parts.append(child.tail or "")


# --- forms ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HtmlForm:
    """One ``<form>``: its attributes and the fields a browser would submit from inputs.

    ``fields`` holds, in document order, every ``<input>`` that has both a ``name`` and a
    ``value`` attribute (an empty value counts); nameless inputs such as an unnamed submit
    button are left out.
    """

    action: str
    method: str
    attributes: Mapping[str, str]
    fields: tuple[tuple[str, str], ...]

    def field_names(self) -> frozenset[str]:
        """The names among :attr:`fields`."""
        return frozenset(name for name, _ in self.fields)

    def get(self, name: str) -> str | None:
        """The first value submitted under ``name``, or ``None``."""
        return next((value for key, value in self.fields if key == name), None)


def find_forms(document: Element) -> list[HtmlForm]:
    """Every ``<form>`` under ``document`` with its submittable inputs, in document order.

    Attribute names are lower-case and values entity-decoded, as the parser gives them.

    Example:
        >>> (form,) = find_forms(parse_document('<FORM ACTION="/x"><input name="s" value="10">'))
        >>> form.action, form.method, form.fields
        ('/x', 'get', (('s', '10'),))
    """
    return list(iter_forms(document))


def iter_forms(document: Element) -> Iterator[HtmlForm]:
    """:func:`find_forms` one form at a time, for a caller that stops at the one it wants."""
    for form in document.iter("form"):
        yield read_form(form)


_NAME = b"name"
_VALUE = b"value"


def form_fields(form: Element) -> tuple[tuple[str, str], ...]:
    """What a browser submits from ``form``'s inputs: :attr:`HtmlForm.fields`.

    For a caller that picks a form by its fields: it reads them once, and builds the
    :class:`HtmlForm` (:func:`read_form` with these fields) only for the form it keeps.
    """
    fields: list[tuple[str, str]] = []
    for element in form.iter("input"):
        # Attribute names as bytes: lxml encodes a str name on every call.
        name = element.get(_NAME)
        value = element.get(_VALUE) if name else None
        if name and value is not None:
            fields.append((name, value))
    return tuple(fields)


def read_form(form: Element, fields: tuple[tuple[str, str], ...] | None = None) -> HtmlForm:
    """The :class:`HtmlForm` of one ``<form>`` element.

    Args:
        form: The ``<form>`` element.
        fields: Its :func:`form_fields`, when the caller has read them already.
    """
    attributes = cast(dict[str, str], dict(form.items()))  # the HTML parser gives str
    return HtmlForm(
        action=attributes.get("action", ""),
        method=attributes.get("method", "get").lower(),
        attributes=MappingProxyType(attributes),
        fields=form_fields(form) if fields is None else fields,
    )


# --- links ---------------------------------------------------------------------------------------

_URL_NOISE = re.compile(r"[\t\n\r]")
_EMPTY_AUTHORITY = re.compile(r"^(?:[A-Za-z][A-Za-z0-9+.-]*:)?//(?:[/?#]|$)")


def resolve_href(href: str, base: str) -> str | None:
    """``href`` made absolute against ``base``, or ``None`` when it is not a web link.

    Surrounding whitespace and the tabs and line breaks browsers ignore inside URLs are
    removed first. Relative (``/path``, ``page``, ``?q=1``) and protocol-relative
    (``//host/path``) links are resolved; the result must be an absolute ``http``/``https``
    URL with a host. An empty ``href``, another scheme (``javascript:``, ``mailto:``,
    ``data:``), an empty host (``https://``) or an unparseable URL gives ``None``.

    Args:
        href: The attribute value as the parser decoded it.
        base: The page's URL (an absolute ``http(s)`` URL).

    Example:
        >>> resolve_href("/ck/a?u=1", "https://www.bing.com/search?q=x")
        'https://www.bing.com/ck/a?u=1'
        >>> resolve_href("javascript:void(0)", "https://example.org/") is None
        True
    """
    found = resolve_link(href, base)
    return None if found is None else found[0]


def resolve_link(href: str, base: str) -> tuple[str, SplitResult] | None:
    """:func:`resolve_href` with the URL's parts, so the caller need not split it again.

    Example:
        >>> url, parts = resolve_link("//Example.org/a?b=1", "https://x.example/")
        >>> url, parts.hostname, parts.query
        ('https://Example.org/a?b=1', 'example.org', 'b=1')
    """
    cleaned = href.strip()
    if "\t" in cleaned or "\n" in cleaned or "\r" in cleaned:
        cleaned = _URL_NOISE.sub("", cleaned)
    if not cleaned or _EMPTY_AUTHORITY.match(cleaned):
        return None
    try:
        url, parts = _join(base, cleaned)
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or host_of(parts) is None:
        return None  # is_http_url's test, on the parts already split
    return url, parts


def _join(base: str, href: str) -> tuple[str, SplitResult]:
    """``urljoin(base, href)`` and its parts; an absolute ``href`` is split only once.

    ``urljoin`` splits both URLs again (``urlparse`` is not cached, ``urlsplit`` is) and
    re-joins them, a few microseconds per link. For ``href`` with a scheme and a host its
    answer is known from ``href``'s own parts: ``href`` itself under another scheme than
    ``base``'s, else ``href`` re-joined from its parts, as ``urlunsplit`` does (the same
    text, but for a lower-cased scheme and an empty ``?`` or ``#`` left out). A path with
    ``;`` (``urljoin`` splits path parameters off) and every relative link still go
    through ``urljoin``.

    Raises:
        ValueError: ``href`` (or ``base``) is no URL ``urlsplit`` accepts.
    """
    parts = urlsplit(href)
    if parts.scheme and parts.netloc and base and ";" not in parts.path:
        scheme = urlsplit(base).scheme
        if parts.scheme != scheme or scheme not in uses_relative:
            return href, parts
        if scheme in uses_netloc:
            url = urlunsplit(parts)
            return url, (parts if url == href else urlsplit(url))
    url = urljoin(base, href)
    return url, urlsplit(url)


_PLAIN_HTTP_URL = re.compile(
    r"https?://([^/?#@:\[\]%\x00-\x20\x7f]+)(/[^?#\x00-\x20\x7f]*)?(?:[?#][^\x00-\x20\x7f]*)?"
)
"""``http(s)://host/path?query#fragment``: lower-case scheme, a host without user, port,
brackets, percent sign, space or control character, no space or control character after."""


def plain_http_parts(url: str) -> tuple[str, str] | None:
    """``(host, path)`` of a plain absolute ``http(s)`` URL, read with one match.

    Nearly every result link is ``http(s)://host/path?query``, ASCII, with nothing in it
    that ``urlsplit`` removes (tabs, line breaks) or reads specially (a user, a port,
    brackets). For such a URL the host (lower-cased, as :func:`host_of` gives it) and the
    path are plain cuts at the first ``/?#`` and then at the first ``?#``. One
    match costs less than ``urlsplit`` even when its cache answers, and a real page's new
    links miss that cache (about 3.5 us a link).

    Returns:
        ``(host_of(urlsplit(url)), urlsplit(url).path)``, or ``None`` when the URL is not
        of that plain form: the caller then splits it in general, which decides.

    Example:
        >>> plain_http_parts("https://Example.org/a/b?c=1#d")
        ('example.org', '/a/b')
        >>> plain_http_parts("https://user@example.org/") is None
        True
    """
    if not url.isascii():
        return None
    found = _PLAIN_HTTP_URL.fullmatch(url)
    if found is None:
        return None
    return found.group(1).lower(), found.group(2) or ""


def host_of(parts: SplitResult) -> str | None:
    """``parts.hostname`` lower-cased as a whole (a zone id too), or ``None`` when empty.

    A plain ASCII netloc (no user, port, brackets or zone: nearly every result link) is
    the host itself, read without ``hostname``'s general splitting (a few times the cost
    of this test); anything else goes through ``hostname``.

    Example:
        >>> host_of(urlsplit("https://Ex.ORG/a")), host_of(urlsplit("https://u@[::1]:8/"))
        ('ex.org', '::1')
    """
    netloc = parts.netloc
    if netloc.isascii() and not ("@" in netloc or ":" in netloc or "[" in netloc or "%" in netloc):
        return netloc.lower() or None
    host = parts.hostname
    return host.lower() if host else None
