"""A simple page's blocks, read whole and in order, for when the extractors keep less.

readability and trafilatura are built for article pages wrapped in boilerplate, and they
misread a page that is nothing but its content: a docs page, a README rendered to HTML, a
test page of a heading, a few paragraphs, a list and a table. readability's cleaner drops
a short list or table as if it were a link box, and under 250 characters trafilatura falls
back to a dump of the page's text, one line per text node, with no heading and no link.

Such a page is recognised by its shape: below its single wrappers, its content is a flat
run of blocks (headings, paragraphs, lists, tables, code, quotes), each perhaps inside one
wrapper of its own, with nothing beside them but landmarks (a ``<nav>``, a page's own
``<header>`` or ``<footer>``, an ``<aside>``, a ``<form>``, or a ``<div>`` that says it is
one by its ``role``, ``class`` or ``id``: a menu, a sidebar, a cookie banner). A small page
may also hold its content in one wrapper of several blocks (``<div class="content">``)
beside such layout, or beside a menu of nothing but links, which is then left out too. An
article page's layout of nested ``<div>`` columns, rails and boxes is not that shape, so
it is left to the extractors: two wrappers of several blocks side by side are columns, and
a laid-out page of more than :data:`_SMALL_WORDS` words is an article's, whose ``<h1>`` the
extractors rightly take as its title.

The blocks are written in trafilatura's XML (``head``, ``p``, ``list``, ``table``,
``code``, ``quote``, ``ref``, ``hi``), which the extractor's own serialisers turn into the
same Markdown and plain text as everything else.

Pure: reads the tree, never changes it.
"""

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin, urlsplit

import lxml.etree

__all__ = ["SimplePage", "simple_blocks"]

_SMALL_WORDS = 150
"""Words a page laid out in wrappers may hold and still be read as simple (a flat page may
hold any number). The extractors' own double-check of a short container starts below as
many (``extract._SHORT_WORDS``); above it they read an article well, and its ``<h1>``, not
its ``<title>``, is its title."""

_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_BLOCKS = _HEADINGS | frozenset(
    {"p", "ul", "ol", "dl", "table", "pre", "blockquote", "hr", "figure", "details"}
)
"""The blocks a simple page is made of."""
_INLINE = frozenset(
    {
        "a", "abbr", "b", "bdi", "bdo", "br", "cite", "code", "data", "del", "dfn", "em",
        "i", "img", "ins", "kbd", "label", "mark", "q", "s", "samp", "small", "span",
        "strong", "sub", "summary", "sup", "time", "u", "var", "wbr",
    }
)  # fmt: skip
"""Elements that run inside a line of text (a bare run of them is a paragraph)."""
_CELL_BLOCKS = (_BLOCKS - {"hr"}) | {"div", "section", "article"}
"""Elements a data table's cell does not hold."""
_WRAPPERS = frozenset({"div", "section", "article", "main", "header", "footer"})
"""Elements that only group: walked into (a chain of single ones), or one around a block."""
_SECTIONING = frozenset({"article", "main", "section"})
"""Inside these a ``<header>`` or ``<footer>`` is the content's own (a post's title), not
the page's banner."""
_LANDMARKS = frozenset(
    {"nav", "aside", "form", "dialog", "menu", "button", "input", "meta", "link"}
)
"""Never a simple page's content, wherever they are (and no reason to think it not simple)."""
_PAGE_LANDMARKS = frozenset({"header", "footer"})
"""The page's banner and footer: skipped outside sectioning elements."""
_LAYOUT_ROLES = frozenset(
    {
        "navigation", "banner", "contentinfo", "complementary", "search", "menu", "menubar",
        "dialog", "alertdialog",
    }
)  # fmt: skip
"""ARIA roles that make any element a landmark: a ``<div role="navigation">`` is a nav."""
_LAYOUT_NAMES = frozenset(
    {
        "nav", "navbar", "navigation", "menu", "sidebar", "breadcrumb", "breadcrumbs",
        "cookie", "cookies", "consent", "gdpr",
    }
)  # fmt: skip
"""Words of a ``class`` or ``id`` that name layout wherever it stands."""
_PAGE_LAYOUT_NAMES = frozenset({"header", "footer", "masthead"})
"""Words that name the page's banner or footer: layout outside sectioning elements only (an
article's ``<div class="entry-header">`` holds its title)."""
_NAMED = frozenset({"div", "section", "header", "footer", "ul", "ol", "p", "span", "table"})
"""Elements whose ``class`` or ``id`` is read for layout (never ``<main>``, ``<article>`` or
a heading, which say what they are by their tag)."""
_CONTENT_MARKS = ("main", "article", "h1")
"""What marks the page's content: an element named as layout that holds one is the page
(``<div class="wrapper header-style-2">`` around a whole blog post), not its layout."""
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_NAME_PARTS = re.compile(r"[^a-z0-9]+")
_WORD = re.compile(r"\w+")
_NESTING = 4
"""Wrappers of several blocks a small page's content may sit in, one inside the other."""
_MARKS = {"b": "#b", "strong": "#b", "i": "#i", "em": "#i", "u": "#u", "s": "#t", "del": "#t"}
"""Inline formatting, as trafilatura's ``hi`` element writes it."""
_MARKED = frozenset({"a", "code", *_MARKS})
"""Inline elements written as elements of their own (a link, code, a mark)."""
_WORDS_APART = _BLOCKS | {"div", "li", "dt", "dd"}
"""Blocks met inside a line (a ``<p>`` in a list item): a space stands at each edge."""


@dataclass(frozen=True)
class SimplePage:
    """A simple page's content, and how much layout was left out beside it.

    Attributes:
        blocks: The page's blocks in order, as a trafilatura-style ``<body>``.
        left_out: Words of the menus and the layout named by ``role``, ``class`` or ``id``
            that were left out: the extractors' dump of such a page holds them, so they
            are not words the extractors found and these blocks missed.
    """

    blocks: Any
    left_out: int


def simple_blocks(body: Any, url: str | None = None) -> SimplePage | None:
    """The content of a simple page, or ``None``.

    Args:
        body: The page's ``<body>`` element (scripts and styles may be stripped already).
        url: The page's address: links are made absolute against it.

    Returns:
        A new element holding the page's blocks in order, with the words of layout left out
        beside them, or ``None`` when the page is not simple (see the module's docstring)
        or holds no text.

    Example:
        >>> import lxml.html
        >>> page = lxml.html.document_fromstring(
        ...     "<body><h1>Hi</h1><p>Text with <a href='/x'>a link</a>.</p></body>"
        ... )
        >>> print(lxml.etree.tostring(simple_blocks(page.body).blocks, encoding="unicode"))
        <body><head rend="h1">Hi</head><p>Text with <ref target="/x">a link</ref>.</p></body>
    """
    container, sectioned = _content_container(body)
    shape = _shape(container, sectioned, 0)
    if shape is None or any(_is_layout_table(table) for table in container.iter("table")):
        return None
    menus, wrapped = shape
    out: Any = lxml.etree.Element("body")
    _write_blocks(container, out, sectioned, menus)
    text = "".join(out.itertext())
    if not text.strip():
        return None
    left_out = sum(len(_WORD.findall(element.text_content())) for element in _layout(body, menus))
    if (wrapped or left_out) and len(_WORD.findall(text)) + left_out > _SMALL_WORDS:
        return None  # a laid-out page, not a small one: an article's, the extractors' job
    if url:
        for ref in out.iter("ref"):
            try:
                ref.set("target", urljoin(url, ref.get("target", "")))
            except ValueError:  # "http://[bad": left as the page wrote it
                continue
    return SimplePage(out, left_out)


def _layout(body: Any, menus: set[Any]) -> Iterator[Any]:
    """The outermost menus and elements named as layout under ``body``, not in landmarks."""
    stack = [body]
    while stack:
        for child in reversed(stack.pop()):
            if not isinstance(child.tag, str) or child.tag in _LANDMARKS:
                continue
            if child in menus or _is_layout(child, sectioned=False):
                yield child
            else:
                stack.append(child)


def _kept(element: Any, sectioned: bool, menus: frozenset[Any] | set[Any] = frozenset()) -> bool:
    """Whether ``element`` counts as content: not a comment, a landmark, layout or a menu."""
    if not isinstance(element.tag, str) or element.tag in _LANDMARKS or element in menus:
        return False
    if not sectioned and element.tag in _PAGE_LANDMARKS:
        return False
    return not _is_layout(element, sectioned)


def _is_layout(element: Any, sectioned: bool) -> bool:
    """Whether ``element`` says by its ``role``, ``class`` or ``id`` that it is layout.

    A ``<div class="site-header">``, ``<div id="cookieConsent">`` or ``<div
    role="navigation">`` is what ``<header>`` or ``<nav>`` would be, written in ``<div>``s.
    """
    if set((element.get("role") or "").lower().split()) & _LAYOUT_ROLES:
        return True
    if element.tag not in _NAMED:
        return False
    named = f"{element.get('class') or ''} {element.get('id') or ''}"
    names = set(_NAME_PARTS.split(_CAMEL.sub(" ", named).lower()))
    if not names & _LAYOUT_NAMES and (sectioned or not names & _PAGE_LAYOUT_NAMES):
        return False
    # Last, as it reads the element's subtree: only an element named as layout pays for it.
    return not any(True for _ in element.iter(*_CONTENT_MARKS))


def _content_container(body: Any) -> tuple[Any, bool]:
    """The element below the page's single wrappers, and whether it is in a sectioning one.

    ``<body><div id="page"><main><article>...`` is the article: each of those holds only
    the next (beside landmarks and layout) and no text of its own.
    """
    container, sectioned = body, False
    while not (container.text or "").strip():
        kept = [child for child in container if _kept(child, sectioned) and child.tag != "hr"]
        if len(kept) != 1 or kept[0].tag not in _WRAPPERS or (kept[0].tail or "").strip():
            break
        container = kept[0]
        sectioned = sectioned or container.tag in _SECTIONING
    return container, sectioned


def _shape(container: Any, sectioned: bool, depth: int) -> tuple[set[Any], bool] | None:
    """Whether ``container`` holds a simple page's content, and how.

    Every child is a block, inline, a wrapper of at most one block, or at most one wrapper
    of several blocks whose own children are of this shape (a small page's
    ``<div class="content">``). Beside such a wrapper, an element holding nothing but
    links is a menu, not content.

    Returns:
        ``None`` when the shape is not simple; else the menus to leave out, and whether the
        content sits in a wrapper of several blocks.
    """
    kept = [child for child in container if _kept(child, sectioned)]
    wrapped = []
    for child in kept:
        if child.tag in _BLOCKS:
            continue
        if child.tag in _INLINE:
            if _holds_blocks(child):
                return None
            continue
        if child.tag not in _WRAPPERS:
            return None
        if not _wraps_one_block(child, sectioned):
            wrapped.append(child)
    if not wrapped:
        return set(), False
    if len(wrapped) > 1 or depth >= _NESTING:  # columns side by side, or boxes in boxes
        return None
    content = wrapped[0]
    inner = _shape(content, sectioned, depth + 1)
    if inner is None:
        return None
    menus = {child for child in kept if child is not content and _links_only(child)}
    return inner[0] | menus, True


def _wraps_one_block(wrapper: Any, sectioned: bool) -> bool:
    """Whether ``wrapper`` holds one block at most, beside inline content.

    GitHub's ``<div class="markdown-heading">`` holds a heading and its anchor.
    """
    inner = [grand for grand in wrapper if _kept(grand, sectioned)]
    if any(grand.tag not in _BLOCKS and grand.tag not in _INLINE for grand in inner):
        return False
    if any(grand.tag in _INLINE and _holds_blocks(grand) for grand in inner):
        return False
    return sum(grand.tag in _BLOCKS for grand in inner) <= 1


def _links_only(element: Any) -> bool:
    """Whether every word of ``element`` is a link's and it holds no heading: a menu."""
    if element.tag in _HEADINGS or any(True for _ in element.iter(*_HEADINGS)):
        return False
    links = [link for link in element.iter("a") if link.get("href")]
    if not links:
        return False
    linked = sum(len(_WORD.findall(link.text_content())) for link in links)
    return linked >= len(_WORD.findall(element.text_content()))


def _holds_blocks(element: Any) -> bool:
    """Whether an inline element wraps blocks (a ``<span>`` or an ``<a>`` around a column)."""
    return any(
        isinstance(inner.tag, str) and inner.tag in _CELL_BLOCKS
        for inner in element.iterdescendants()
    )


def _is_layout_table(table: Any) -> bool:
    """Whether a cell of ``table`` holds a block (a data table's cells hold a line)."""
    return any(
        isinstance(inner.tag, str) and inner.tag in _CELL_BLOCKS
        for cell in table.iter("td", "th")
        for inner in cell.iterdescendants()
    )


def _write_blocks(
    source: Any, out: Any, sectioned: bool, menus: set[Any] | frozenset[Any] = frozenset()
) -> None:
    """Write the blocks under ``source`` into ``out``; a run of inline content is a ``p``."""
    paragraph: Any = None

    def line() -> Any:
        nonlocal paragraph
        if paragraph is None:
            paragraph = lxml.etree.SubElement(out, "p")
        return paragraph

    if (source.text or "").strip():
        _add_text(line(), source.text)
    for child in source:
        if _kept(child, sectioned, menus):
            if child.tag in _BLOCKS or child.tag in _WRAPPERS:
                paragraph = None
                _write_block(child, out, sectioned, menus)
            else:
                _write_inline(child, line())
        if (child.tail or "").strip():
            _add_text(line(), child.tail)
    for element in list(out):
        if element.tag == "p" and not "".join(element.itertext()).strip():
            out.remove(element)


def _write_block(element: Any, out: Any, sectioned: bool, menus: set[Any] | frozenset[Any]) -> None:
    tag = element.tag
    if tag in _HEADINGS:
        _inline_into(element, lxml.etree.SubElement(out, "head", rend=tag))
    elif tag == "p":
        _inline_into(element, lxml.etree.SubElement(out, "p"))
    elif tag in {"ul", "ol"}:
        _write_list(element, lxml.etree.SubElement(out, "list", rend=tag), sectioned)
    elif tag == "dl":
        listing = lxml.etree.SubElement(out, "list", rend="dl")
        for item in element.iter("dt", "dd"):
            _inline_into(item, lxml.etree.SubElement(listing, "item", rend=f"{item.tag}-1"))
    elif tag == "table":
        _write_table(element, lxml.etree.SubElement(out, "table"))
    elif tag == "pre":
        # A block of code however short: extract's Markdown fences it, one line or many.
        lxml.etree.SubElement(out, "code").text = element.text_content().strip("\n")
    elif tag == "blockquote":
        _write_blocks(element, lxml.etree.SubElement(out, "quote"), sectioned, menus)
    elif tag != "hr":  # a wrapper, a figure, details: their own blocks, in order
        _write_blocks(element, out, sectioned, menus)


def _write_list(element: Any, listing: Any, sectioned: bool) -> None:
    for item in element:
        if not isinstance(item.tag, str) or item.tag != "li":
            continue
        written = lxml.etree.SubElement(listing, "item")
        _inline_into(item, written, skip={"ul", "ol"})
        for inner in item.iterchildren("ul", "ol"):
            _write_list(inner, lxml.etree.SubElement(written, "list", rend=inner.tag), sectioned)


def _write_table(element: Any, table: Any) -> None:
    for row in element.iter("tr"):
        written = lxml.etree.SubElement(table, "row")
        for cell in row:
            if isinstance(cell.tag, str) and cell.tag in {"td", "th"}:
                written_cell = lxml.etree.SubElement(written, "cell")
                if cell.tag == "th":
                    written_cell.set("role", "head")
                _inline_into(cell, written_cell)


def _inline_into(source: Any, target: Any, skip: frozenset[str] | set[str] = frozenset()) -> None:
    """Copy the inline content of ``source`` into ``target``, white space made single."""
    if source.text:
        _add_text(target, source.text)
    for child in source:
        if isinstance(child.tag, str) and child.tag not in skip:
            _write_inline(child, target)
        if child.tail:
            _add_text(target, child.tail)
    _trim(target)


def _write_inline(element: Any, target: Any) -> None:
    """Write one inline element (not its tail) into ``target``: a link, a mark, or its text."""
    tag = element.tag
    if tag == "br":
        lxml.etree.SubElement(target, "lb")
    elif tag in _MARKED:
        if element.text_content().strip():  # not an empty link (a heading's anchor) or mark
            _write_marked(element, target)
    elif tag in _WORDS_APART:  # a paragraph in a list item: its words stay apart
        _add_text(target, " ")
        _write_contents(element, target)
        _add_text(target, " ")
    else:  # a span or any other element: its text and marks, in place
        _write_contents(element, target)


def _write_marked(element: Any, target: Any) -> None:
    """Write a link, a mark or inline code as trafilatura's ``ref``, ``hi`` or ``code``."""
    if element.tag == "code":
        code = lxml.etree.SubElement(target, "code")
        code.text = " ".join(element.text_content().split())
    elif element.tag in _MARKS:
        _inline_into(element, lxml.etree.SubElement(target, "hi", rend=_MARKS[element.tag]))
    elif _followable(element.get("href")):
        _inline_into(element, lxml.etree.SubElement(target, "ref", target=element.get("href")))
    else:  # an anchor with no address, or one that runs code (javascript:, data:): its text
        _write_contents(element, target)


_FOLLOWABLE_SCHEMES = frozenset({"", "http", "https", "mailto"})
"""Link schemes written as links; others (``javascript:``, ``data:``, ``vbscript:``) would
hand a reader's Markdown renderer code to run, so only their words are kept."""
_URL_EDGES = "".join(chr(code) for code in range(0x21))
"""What a browser trims off an ``href``'s ends before reading its scheme (C0 and space)."""


def _followable(href: str | None) -> bool:
    """Whether ``href`` is an address to keep as a link (relative, web or mail)."""
    if not href:
        return False
    try:
        scheme = urlsplit(href.strip(_URL_EDGES)).scheme
    except ValueError:  # "http://[bad": no address a reader can follow
        return False
    return scheme.lower() in _FOLLOWABLE_SCHEMES


def _write_contents(element: Any, target: Any) -> None:
    """Write what ``element`` holds, text and inline elements, into ``target``."""
    for piece in _texts_and_children(element):
        if isinstance(piece, str):
            _add_text(target, piece)
        else:
            _write_inline(piece, target)


def _texts_and_children(element: Any) -> Iterator[Any]:
    """``element``'s own text, then each element child followed by its tail."""
    if element.text:
        yield element.text
    for child in element:
        if isinstance(child.tag, str):
            yield child
        if child.tail:
            yield child.tail


def _add_text(target: Any, text: str) -> None:
    """Append ``text`` at the end of ``target``, runs of white space made one space."""
    if len(target):
        last = target[-1]
        last.tail = _squeezed((last.tail or "") + text)
    else:
        target.text = _squeezed((target.text or "") + text)


def _squeezed(text: str) -> str:
    """``text`` with each run of white space made one space.

    A space at either end is kept: it parts the text from its neighbours' words.
    """
    words = " ".join(text.split())
    if not words:
        return " " if text else ""
    return f"{' ' if text[0].isspace() else ''}{words}{' ' if text[-1].isspace() else ''}"


def _trim(element: Any) -> None:
    """Drop the white space at the start and end of an element's text."""
    if element.text:
        element.text = element.text.lstrip()
    last = element[-1] if len(element) else None
    if last is not None and last.tail:
        last.tail = last.tail.rstrip()
    elif last is None and element.text:
        element.text = element.text.rstrip()
