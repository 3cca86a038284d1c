"""Where DuckDuckGo's results are on a parsed page (pure): one pass over its elements.

DuckDuckGo's HTML results are not nested the way they read: a result block runs from its
``<div>`` to the next block (or nav-link) ``<div>``, and its parts are the first title link,
snippet and URL line in that range. :func:`scan` walks the page's ``div``/``a``/``span``/
``td`` elements once, in document order, and hands back the blocks (and the rows of the
lite layout) with their parts found; :mod:`._duckduckgo_parse` reads them.

Class tests use the word rule on the ``class`` attribute's value: ``result`` as a word matches
``result`` and ``web-result`` but not ``results_links`` or ``result__body``. An XPath or
CSS prefilter would cost more than this walk: libxml2 evaluates ``contains(@class, ...)``
for every element of the page (about 230 us on a 25 KB results page, the walk about 40).

The module is private; nothing outside the DuckDuckGo parser uses it.
"""

import re
from dataclasses import dataclass

from ..html import Element, layout_text, raw_text
from ._common import MAX_RESULT_ITEMS, collapse_whitespace

__all__ = ["DATE", "NO_RESULT_CLASS", "Block", "LiteRow", "scan"]

_RESULT_CLASS = re.compile(r"\bresult\b")
_NAV_LINK_CLASS = re.compile(r"\bnav-link\b")
_AD_CLASS = re.compile(r"\bresult--ad\b")
NO_RESULT_CLASS = re.compile(r"\bresult--no-result\b|\bno-results\b", re.IGNORECASE)
"""DDG's "No results." block, or a ``no-results`` note inside a block."""
_TITLE_CLASS = re.compile(r"\bresult__a\b")
_SNIPPET_CLASS = re.compile(r"\bresult__snippet\b")
_EXTRAS_URL_CLASS = re.compile(r"\bresult__extras__url\b")
_LITE_LINK_CLASS = re.compile(r"\bresult-link\b")
_LITE_SNIPPET_CLASS = re.compile(r"\bresult-snippet\b")
_LITE_DATE_CLASS = re.compile(r"\btimestamp\b")
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}|$)")
"""A result date as DDG writes it (``2025-06-23T00:00:00.0000000``, or the day alone)."""

# What an element is, as bits of one number (an element may be several things at once).
_BLOCK, _SKIPPED, _NAV_LINK, _TITLE, _SNIPPET, _EXTRAS_URL, _NO_RESULT_NOTE = (
    1 << n for n in range(7)
)
_LITE_LINK, _LITE_SNIPPET, _LITE_DATE = (1 << n for n in range(7, 10))
_BLOCK_PARTS = _TITLE | _SNIPPET | _EXTRAS_URL | _NO_RESULT_NOTE
_LITE_BITS = _LITE_LINK | _LITE_SNIPPET | _LITE_DATE
_STARTS = _BLOCK | _NAV_LINK | _LITE_LINK
"""What starts a block, ends one (a nav link) or starts a lite row."""
_ENDS = _BLOCK | _NAV_LINK
"""What ends the current block (and with it the search for its date)."""
_ANY_TAG = _SNIPPET | _LITE_SNIPPET
_TAG_BITS = {
    "div": _BLOCK | _SKIPPED | _NAV_LINK | _EXTRAS_URL | _NO_RESULT_NOTE | _ANY_TAG,
    "a": _TITLE | _LITE_LINK | _ANY_TAG,
    "span": _LITE_DATE | _ANY_TAG,
    "td": _ANY_TAG,
}
"""Which of the bits an element of each scanned tag may carry (``a.result__a`` is a title,
``div.result__a`` is nothing)."""
_SCANNED_TAGS = tuple(_TAG_BITS)
_TAGGED = ~_ANY_TAG
"""The bits that hold only for some tags; a kind without them needs no tag read."""
_CLASS = b"class"
_KINDS: dict[str | None, int] = {None: 0}
"""Class attribute -> its bits for any tag; a page repeats a handful of class attributes once
per result, so the class tests run once per distinct attribute, not once per element. An
element without a class (``None``) is nothing: held here too, so every element costs one
lookup."""
_MAX_KINDS = 4096
"""The memo is emptied when a page brings more distinct class attributes than this."""


def _class_kind(classes: str | None) -> int:
    """The bits a class attribute gives an element of the tag that may carry them."""
    if len(_KINDS) >= _MAX_KINDS:
        _KINDS.clear()
    kind = _KINDS[classes] = 0 if classes is None else _read_classes(classes)
    return kind


def _read_classes(classes: str) -> int:
    kind = 0
    if _RESULT_CLASS.search(classes):
        kind |= _BLOCK
        if _AD_CLASS.search(classes) or NO_RESULT_CLASS.search(classes):
            kind |= _SKIPPED
    elif _NAV_LINK_CLASS.search(classes):
        kind |= _NAV_LINK
    if _EXTRAS_URL_CLASS.search(classes):
        kind |= _EXTRAS_URL
    elif NO_RESULT_CLASS.search(classes):
        kind |= _NO_RESULT_NOTE
    for bit, pattern in (
        (_TITLE, _TITLE_CLASS),
        (_LITE_LINK, _LITE_LINK_CLASS),
        (_LITE_DATE, _LITE_DATE_CLASS),
        (_SNIPPET, _SNIPPET_CLASS),
        (_LITE_SNIPPET, _LITE_SNIPPET_CLASS),
    ):
        if pattern.search(classes):
            kind |= bit
    return kind


@dataclass(slots=True)
class Block:
    """One result block, from its ``<div>`` to the next block (or nav-link ``<div>``)."""

    div: Element
    skip: bool
    """An ad, or DDG's "no results" note dressed as a result."""
    title: Element | None = None
    snippet: Element | None = None
    extras: Element | None = None
    date: str | None = None
    """The first ``<span>`` text in the URL line (``extras``) that starts with a date."""
    no_results: bool = False


@dataclass(slots=True)
class LiteRow:
    """One lite result: its link, then the first snippet cell and date up to the next link."""

    link: Element
    snippet: Element | None = None
    stamp: Element | None = None


def scan(root: Element) -> tuple[list[Block], list[LiteRow]]:
    """The page's result blocks and lite rows, in one pass over its elements in order.

    A block runs from its ``<div>`` to the next block (or nav-link) ``<div>``, as the
    markup reads; its parts are the first title link, snippet and URL line in that range.
    A lite row runs from its link to the next one. An element without a class matters only
    as a ``<span>`` that may hold the date of a block whose URL line has been seen, so
    nothing else is read for it. The pass ends where a block or row past the first
    ``MAX_RESULT_ITEMS`` would start: a page of one result repeated thousands of times is
    not walked to its end.
    """
    blocks: list[Block] = []
    rows: list[LiteRow] = []
    block: Block | None = None
    row: LiteRow | None = None
    dating: Block | None = None  # the current block while its URL line is known, its date not
    kinds = _KINDS
    tag_bits = _TAG_BITS
    for element in root.iter(*_SCANNED_TAGS):
        # The attribute name as bytes (lxml encodes a str name on every call), one memo
        # lookup (an element without a class included), and only the rare elements that
        # are something go further: this runs for every element of the page.
        classes = element.get(_CLASS)
        kind = kinds.get(classes)
        if kind is None:
            kind = _class_kind(classes)
        if kind:
            if kind & _TAGGED:  # a snippet may be any scanned tag: no tag to read for it
                kind &= tag_bits[element.tag]
            if kind & _STARTS:
                if (kind & _BLOCK and len(blocks) == MAX_RESULT_ITEMS) or (
                    kind & _LITE_LINK and len(rows) == MAX_RESULT_ITEMS
                ):
                    break  # it would start one past the bound
                block = _start_block(blocks, block, element, kind)
                # A new block has no URL line yet; a nav link ends the block being dated.
                dating = None if kind & _ENDS else dating
            if block is not None and kind & _BLOCK_PARTS and _add_to_block(block, element, kind):
                dating = block  # its URL line found: its date is read from the spans after
            if kind & _LITE_BITS:
                row = _add_to_rows(rows, row, element, kind)
        if dating is not None and element.tag == "span":
            dating.date = _span_date(element, dating)
            dating = dating if dating.date is None else None  # dated: no later span is read
    return blocks, rows


def _start_block(
    blocks: list[Block], block: Block | None, element: Element, kind: int
) -> Block | None:
    """The block ``element`` starts (added to ``blocks``), ``None`` at a nav link, or ``block``."""
    if kind & _BLOCK:
        started = Block(element, bool(kind & _SKIPPED))
        blocks.append(started)
        return started
    return None if kind & _NAV_LINK else block


def _add_to_block(block: Block, element: Element, kind: int) -> bool:
    """Fill the parts of ``block`` that ``element`` is; whether it is the block's URL line.

    The URL line is the block's first: from it on, the spans that follow are read for the
    block's date (a block's date is only ever read after its URL line, so it has none yet).
    """
    if block.title is None and kind & _TITLE:
        block.title = element
    if block.snippet is None and kind & _SNIPPET:
        block.snippet = element
    if kind & _NO_RESULT_NOTE and _is_inside(element, block.div):
        block.no_results = True
    if block.extras is None and kind & _EXTRAS_URL:
        block.extras = element
        return True
    return False


def _add_to_rows(
    rows: list[LiteRow], row: LiteRow | None, element: Element, kind: int
) -> LiteRow | None:
    """A lite link starts a row; a snippet cell or date fills the current one. The row after."""
    if kind & _LITE_LINK:
        row = LiteRow(element)
        rows.append(row)
    elif row is not None:
        if row.snippet is None and kind & _LITE_SNIPPET:
            row.snippet = element
        if row.stamp is None and kind & _LITE_DATE:
            row.stamp = element
    return row


def _is_inside(element: Element, ancestor: Element) -> bool:
    parent = element.getparent()
    while parent is not None:
        if parent is ancestor:
            return True
        parent = parent.getparent()
    return False


def _span_date(span: Element, block: Block) -> str | None:
    """The span's text when the span is in the block's URL line and starts with a date."""
    # The readable text starts with the first non-blank character of the raw text, so a
    # span that does not start with a digit (the icon, the URL) is skipped unread; the
    # span's own text, when not blank, starts the raw text. A span without children (the
    # date itself) reads as its own text, already at hand.
    own = span.text or ""
    head = own.lstrip()
    childless = not len(span)
    if not head and not childless:
        head = raw_text(span).lstrip()
    if not head[:1].isdigit() or block.extras is None or not _is_inside(span, block.extras):
        return None
    text = collapse_whitespace(own) if childless else layout_text(span)
    return text if DATE.match(text) else None
