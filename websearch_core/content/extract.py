"""Main-content extraction from an HTML page: pure, no I/O.

Two well-kept extractors, each doing what it is best at, measured on real annotated pages
(``benchmarks/bench_extract.py``):

1. readability-lxml picks the article's container. It scores text density per node, which
   drops the newsletter boxes, "related" rails, repeated headlines and comment threads that
   trafilatura's whole-page pass keeps, and it finds paragraphs split across ad-break
   ``<div>`` blocks that trafilatura misses.
2. trafilatura then cleans that container (captions, share bars, leftovers) and serialises it
   to plain text and Markdown, and reads the page's metadata (title, author, date, site).

Readability sometimes settles on a small wrong node (a teaser, a caption). When its result is
much shorter than what trafilatura finds on the whole page, trafilatura's whole-page result is
the second opinion that wins.
"""

import copy
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import lxml.etree
import lxml.html

from .markup_guard import check_markup
from .models import PageContent
from .simple_page import simple_blocks

__all__ = ["extract_content", "html_to_markdown"]

_log = logging.getLogger(__name__)

_SHORT_WORDS = 150
"""Below this many words the container readability chose is double-checked."""
_WORDS_SHARE = 0.3
"""...and replaced when the whole-page extraction has more than 1/0.3 times its words."""
_WORD = re.compile(r"\w+")
_LANG_TAG = re.compile(r"^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*$")
_BLANK_RUNS = re.compile(r"\n{3,}")
_BLANK_CODE_LINE = re.compile(r"\n[ \t]*(?=\n)")
"""The end of a line followed by an empty (or blank) one: a blank line inside code."""
_CODE_BLANK = "\u2400"
"""A character (SYMBOL FOR NULL, which trafilatura keeps) on a line of its own standing for
a blank line of code while trafilatura writes the Markdown, which drops empty lines."""
_CODE_BLANK_LINES = re.compile(f"^{_CODE_BLANK}$", re.MULTILINE)
_ONE_LINE_CODE = "\u2401"
"""A character (SYMBOL FOR START OF HEADING) on a line of its own that makes a one-line code
block two lines while trafilatura writes the Markdown, which fences only code of several
lines; the line is dropped from the Markdown afterwards."""
_ONE_LINE_CODE_LINES = re.compile(f"^{_ONE_LINE_CODE}\n", re.MULTILINE)
_SOURCE_BREAK = re.compile(r"\s*[\r\n]\s*")
"""A run of white space holding a line break of the page's source: one space, as rendered."""
_LEADING_SOURCE_BREAK = re.compile(r"\A\s*[\r\n]\s*")
_LINE_HOLDERS = frozenset({"p", "head", "cell", "hi", "ref", "del"})
"""trafilatura's elements that hold a line of text, so that code in them is inline code."""
_VERBATIM = frozenset({"code", "pre"})
"""Elements whose line breaks are the content's own (code, preformatted text)."""
_XML_DECLARATION = re.compile(r"\A\ufeff?\s*<\?xml(?=\s)[^>]*>", re.IGNORECASE)
"""An XHTML page's leading ``<?xml version="1.0" encoding="..."?>`` (after a BOM/spaces)."""
_CONTAINERS = frozenset(
    {"div", "section", "article", "main", "body", "header", "footer", "aside", "figure", "span"}
)
"""HTML containers trafilatura's fallbacks may return around the blocks."""
_INERT = ("script", "style", "svg", "noscript", "template", "iframe", lxml.etree.Comment)
_FLAT_DEPTH = 128
"""Depth below which a page nested past libxml2's limit of 256 is flattened (the extractors
wrap a few levels of their own around what they keep)."""
_KEPT_HEIGHT = 8
"""Levels an element may hold and still be kept whole below :data:`_FLAT_DEPTH`."""
_SOFT_HYPHEN = "\u00ad"
_LINE_BREAKS = frozenset({"lb", "br"})
"""trafilatura's ``<lb/>`` (an HTML ``<br>``) and ``<br>`` itself, in the fallbacks' HTML."""
_BLOCK_EDGES = (_CONTAINERS - {"span"}) | frozenset(
    {
        "p", "head", "quote", "blockquote", "list", "ul", "ol", "item", "li", "dl", "dt",
        "dd", "table", "row", "tr", "cell", "td", "th", "pre", "h1", "h2", "h3", "h4", "h5",
        "h6", "figcaption", "address",
    }
)  # fmt: skip
"""Blocks, in trafilatura's names and HTML's: inside another block (a ``<p>`` in a quote,
a ``<div>`` in a cell) each starts and ends a line, so words either side stay apart."""


@dataclass(frozen=True)
class _Body:
    """One extractor's result: the plain text and the Markdown of the same content."""

    text: str
    markdown: str

    @property
    def words(self) -> int:
        return len(_WORD.findall(self.text))

    @property
    def blocks(self) -> int:
        """How many blocks (paragraphs, headings, lists, tables) the plain text holds."""
        return self.text.count("\n\n") + 1 if self.text else 0


def extract_content(html: str, url: str | None = None) -> PageContent:
    """Extract the main text, Markdown and metadata of an HTML page.

    Pure: no network, no files. ``url`` only makes relative links absolute and fills
    ``PageContent.url``.

    Args:
        html: The page's markup, already decoded to ``str``.
        url: The page's address, if known.

    Returns:
        The page content; ``text`` and ``markdown`` are empty when the page has no main
        text (an empty or script-only page), never ``None``.

    Raises:
        TypeError: ``html`` is not a ``str`` (decode bytes first: the charset is the
            fetcher's job, see :func:`websearch_core.content.decode_html`).
        CrowdedMarkupError: An element has so many attributes that parsing the page
            would take minutes (a ``ValueError``; see :mod:`.markup_guard`).

    Example:
        >>> page = extract_content(
        ...     "<html lang='en'><head><title>Hi</title></head><body><article>"
        ...     "<h1>Hi</h1><p>" + "Some words of the article body. " * 20 + "</p>"
        ...     "</article></body></html>"
        ... )
        >>> page.title, page.language, page.text.count("article body")
        ('Hi', 'en', 20)
    """
    if not isinstance(html, str):
        raise TypeError(f"extract_content needs the page as str, got {type(html).__name__}")
    html = _without_xml_declaration(html)
    check_markup(html)  # before any parser: a crowded element would hold it for minutes
    parsed = _parse(html)
    if parsed is None:
        return PageContent(url=url)
    tree, html = parsed
    language = _language(tree)
    meta = _metadata(tree, url)  # reads JSON-LD <script>s, so before _inert_stripped
    if _pre_as_code(tree):
        html = str(lxml.html.tostring(tree, encoding="unicode"))
    body = _main_body(_inert_stripped(tree), html, url)
    title = meta.get("title")
    found = _simple_body(tree, url)
    if found is not None:
        # A page that is only its content: its blocks unless the extractors found more (than
        # its blocks and the layout left out beside them), and its own <title> over a
        # heading of its body.
        simple, left_out = found
        if (simple.words + left_out, simple.blocks) >= (body.words, body.blocks):
            body = simple
        title = _page_title(tree, title)
    return PageContent(
        url=url,
        title=title,
        text=body.text,
        markdown=body.markdown,
        published_date=meta.get("date"),
        author=meta.get("author"),
        site_name=meta.get("sitename"),
        language=language,
        content_type="text/html",
    )


def html_to_markdown(html: str, url: str | None = None) -> str:
    """Convert an HTML fragment to Markdown with no boilerplate removal beyond trafilatura's.

    Used for pages that are already content (a readability summary, a rendered snippet).

    Args:
        html: Markup to convert.
        url: Base address for relative links.

    Returns:
        The Markdown, or ``""`` when the markup holds no text.
    """
    return _trafilatura_body(_without_xml_declaration(html), url, whole_page=False).markdown


def _without_xml_declaration(html: str) -> str:
    """Drop a leading XML declaration, as browsers and readability do.

    XHTML pages (served as ``text/html`` or ``application/xhtml+xml``) often start with
    ``<?xml ... encoding="UTF-8"?>``. The page is already decoded, so the declaration says
    nothing more, and lxml refuses a ``str`` carrying one ("Unicode strings with encoding
    declaration are not supported"): left in, the page would extract to nothing. Stripped
    here, before any parser, so that lxml, readability and trafilatura all read the same
    markup.
    """
    match = _XML_DECLARATION.match(html)
    return html[match.end() :] if match else html


def _parse(html: str) -> tuple[lxml.html.HtmlElement, str] | None:
    """The page's tree, and the markup the extractors parse again (``html``, or flatter).

    libxml2 stops building the tree 256 elements deep: the rest of a page nested deeper
    (wrapper in wrapper, or a run of unclosed tags) is dropped, and the page used to
    extract to nothing. Such a page is parsed again without that limit (libxml2 still
    stops at 2048) and flattened (:func:`_flatten`), and readability and trafilatura,
    which parse with the limit, are given the flattened markup. Only such a page pays for
    it: the first parse's error log says whether the limit was reached.

    ``huge_tree`` stays bounded: the markup guard has already run, the fetcher caps the
    body at ``max_bytes``, libxml2 keeps its deeper limit, and flattening is linear.
    """
    if not html.strip():
        return None
    parser = lxml.html.HTMLParser()  # one per call: its error log is this page's
    try:
        tree = lxml.html.document_fromstring(html, parser=parser)
        if not _depth_limited(parser.error_log):
            return tree, html
        tree = lxml.html.document_fromstring(html, parser=lxml.html.HTMLParser(huge_tree=True))
    except (lxml.etree.ParserError, ValueError):
        # lxml refuses documents that are only comments/whitespace: no article there. (A
        # str with an XML encoding declaration is refused too: extract_content strips it.)
        return None
    _flatten(tree)
    return tree, str(lxml.html.tostring(tree, encoding="unicode"))


def _depth_limited(errors: Any) -> bool:
    """Whether libxml2 stopped at its nesting limit (``Excessive depth in document``).

    libxml2 2.11 and later give it a type of its own; older ones say so only in words.
    """
    return any(
        error.type_name == "ERR_RESOURCE_LIMIT" or "XML_PARSE_HUGE" in error.message
        for error in errors
    )


def _flatten(tree: lxml.html.HtmlElement) -> None:
    """Dissolve the deep wrappers of a page nested deeper than :data:`_FLAT_DEPTH`.

    Below that depth, an element with more than :data:`_KEPT_HEIGHT` levels inside it is a
    wrapper (a paragraph, a list or a table is shallower). Each outermost wrapper is made
    to hold, side by side, the elements kept inside it and all the text in between, so the
    page nests at most that many levels below that depth and parses whole within libxml2's
    limit, blocks and their text intact. Each kept element moves once, so the work grows
    with the page's size, not with its size times its depth.
    """
    wrappers, outermost = _wrappers(tree)
    for wrapper in outermost:
        texts, kept = _flat_contents(wrapper, wrappers)
        _refill(wrapper, texts, kept, wrappers)


def _wrappers(tree: lxml.html.HtmlElement) -> tuple[set[Any], list[Any]]:
    """Every wrapper :func:`_flatten` dissolves, and the outermost ones, in one walk."""
    wrappers: set[Any] = set()
    outermost = []
    heights = [0]  # per open element: the height of its tallest child so far, plus one
    for event, element in lxml.etree.iterwalk(tree, events=("start", "end")):
        if event == "start":
            heights.append(0)
            continue
        height = heights.pop()
        heights[-1] = max(heights[-1], height + 1)
        depth = len(heights)
        if depth > _FLAT_DEPTH and height > _KEPT_HEIGHT:
            wrappers.add(element)
            if depth == _FLAT_DEPTH + 1:
                outermost.append(element)
    return wrappers, outermost


def _flat_contents(top: Any, wrappers: set[Any]) -> tuple[list[str], list[Any]]:
    """The elements kept inside ``top``, in order, and the text before, between and after.

    Walked with a stack: the wrappers may be nested deeper than Python's recursion limit.
    A space stands where each wrapper's tags were, so the words either side stay apart.
    """
    texts: list[str] = []
    kept: list[Any] = []
    run = [top.text or ""]
    stack: list[tuple[Any, Iterator[Any]]] = [(top, iter(top))]
    while stack:
        node, children = stack[-1]
        child = next(children, None)
        if child is None:
            stack.pop()
            if stack:  # the end of a wrapper inside top
                run.append(f" {node.tail or ''}")
        elif child in wrappers:
            run.append(f" {child.text or ''}")
            stack.append((child, iter(child)))
        elif isinstance(child.tag, str):
            texts.append("".join(run))
            kept.append(child)
            run = [child.tail or ""]
        else:  # a comment or a processing instruction: only the text after it is kept
            run.append(child.tail or "")
    texts.append("".join(run))
    return texts, kept


def _refill(top: Any, texts: list[str], kept: list[Any], wrappers: set[Any]) -> None:
    """Make ``top`` hold ``kept`` side by side, ``texts`` around them, and nothing else."""
    dropped = [child for child in top if child in wrappers or not isinstance(child.tag, str)]
    top.text = texts[0]
    for element, tail in zip(kept, texts[1:], strict=True):
        top.append(element)  # moved out of the wrappers, which are dropped whole below
        element.tail = tail
    for child in dropped:
        top.remove(child)


def _pre_as_code(tree: lxml.html.HtmlElement) -> bool:
    """Hold each ``<pre>`` with no ``<code>`` in one, and say whether any was.

    trafilatura reads a ``<pre>`` as code only when it holds a ``<code>`` (or is classed as
    code); a bare one it makes a quote, whose lines the text and Markdown then run
    together. Preformatted text keeps its lines whatever it holds, and as code it does.
    """
    changed = False
    for pre in tree.iter("pre"):
        if any(True for _ in pre.iter("code")):
            continue
        code = lxml.html.Element("code")
        code.text, pre.text = pre.text, None
        code.extend(list(pre))  # the children move, each with its tail
        pre.append(code)
        changed = True
    return changed


def _inert_stripped(tree: lxml.html.HtmlElement) -> str:
    """Serialise the page without elements that never hold article text.

    Scripts, styles and inline SVG are most of a modern page's bytes and elements, and
    readability's cleaner walks every element and link: dropping them first makes it about
    a third faster with the same result.
    """
    lxml.etree.strip_elements(tree, *_INERT, with_tail=False)
    return str(lxml.html.tostring(tree, encoding="unicode"))


def _main_body(stripped: str, html: str, url: str | None) -> _Body:
    primary = _readability_body(stripped, url)
    if primary is not None and primary.words >= _SHORT_WORDS:
        return primary
    whole = _trafilatura_body(html, url, whole_page=True)
    if primary is None or primary.words < _WORDS_SHARE * whole.words:
        return whole
    return primary


def _simple_body(tree: lxml.html.HtmlElement, url: str | None) -> tuple[_Body, int] | None:
    """All the blocks of a page that is only its content (see :mod:`.simple_page`).

    On such a page the extractors may drop a list or a table, or fall back to a dump of its
    text that keeps no heading or link and breaks lines at each link; and their Markdown
    keeps the source's line breaks inside a paragraph. These blocks are all of the page,
    in order, so they are used unless the extractors found more words, or as many words
    in more blocks.

    Returns:
        The blocks' text and Markdown, and the words of layout left out beside them (a
        menu, a ``<div class="footer">``), which the extractors' dump of a small page
        keeps; or ``None`` when the page is not simple.
    """
    page_body = tree.find("body")
    page = None if page_body is None else simple_blocks(page_body, url)
    if page is None:
        return None
    return _Body(_plain_text(page.blocks), _markdown(page.blocks)), page.left_out


def _readability_body(html: str, url: str | None) -> _Body | None:
    from readability import Document  # type: ignore[import-untyped]
    from readability.readability import Unparseable  # type: ignore[import-untyped]

    try:
        # No url here: readability would rewrite every link of the whole page (a third of
        # its time); the links of the small summary are made absolute afterwards.
        summary = Document(html).summary()
    except (Unparseable, ValueError, lxml.etree.LxmlError) as exc:
        _log.debug("readability could not parse the page: %s", type(exc).__name__)
        return None
    if url:
        summary = _absolute_links(summary, url)
    body = _trafilatura_body(summary, url, whole_page=False)
    return body if body.text else None


def _absolute_links(html: str, url: str) -> str:
    try:
        tree = lxml.html.document_fromstring(html)
    except (lxml.etree.ParserError, ValueError):
        return html
    if isinstance(tree, lxml.html.HtmlElement):
        tree.make_links_absolute(url, resolve_base_href=False, handle_failures="discard")
    return str(lxml.html.tostring(tree, encoding="unicode"))


def _trafilatura_body(html: str, url: str | None, *, whole_page: bool) -> _Body:
    from trafilatura import bare_extraction

    doc = bare_extraction(
        html,
        url=url,
        # On readability's container every remaining block is a candidate: recall.
        # On the whole page trafilatura's own balance (and its fallbacks) apply.
        favor_recall=not whole_page,
        # On the container, trafilatura's own fallbacks (readability again, jusText) would
        # only repeat work: fast mode. On the whole page (the rare short-article case) they
        # are the point.
        fast=not whole_page,
        include_comments=False,
        include_tables=True,
        include_links=True,
        include_formatting=True,
        with_metadata=False,
    )
    body = getattr(doc, "body", None)
    if body is None:
        return _Body("", "")
    return _Body(_plain_text(body), _markdown(body))


def _markdown(body: Any) -> str:
    from trafilatura.xml import xmltotxt

    body = _code_blank_lines_marked(_block_code_marked(_source_lines_joined(body)))
    markdown = _close_fences(_BLANK_RUNS.sub("\n\n", xmltotxt(body, include_formatting=True)))
    if _ONE_LINE_CODE in markdown:
        markdown = _ONE_LINE_CODE_LINES.sub("", markdown)
    return _CODE_BLANK_LINES.sub("", markdown) if _CODE_BLANK in markdown else markdown


def _source_lines_joined(body: Any) -> Any:
    """A copy of ``body`` whose prose holds no line break of the page's source.

    A paragraph written over several source lines (a link on a line of its own, as many
    CMSs write it) is one line in a browser, but trafilatura's Markdown kept each break,
    a name linked mid-sentence on a line of its own. Each run of white space holding a line
    break becomes one space, as a browser renders it, except in code and preformatted text,
    whose lines are the content's; the white space starting a line after a ``<br>`` goes,
    so the break the ``<br>`` makes is the only one. ``body`` itself is left as it was.
    """
    body = copy.deepcopy(body)
    stack: list[tuple[Any, bool]] = [(body, False)]
    while stack:
        node, verbatim = stack.pop()
        inside = verbatim or (node.tag in _VERBATIM and not _in_a_line(node))
        if node.text and not inside:
            node.text = _SOURCE_BREAK.sub(" ", node.text)
        for child in node:
            if child.tail and not inside:
                tail = child.tail
                if child.tag in _LINE_BREAKS:
                    tail = _LEADING_SOURCE_BREAK.sub("", tail)
                joined = _SOURCE_BREAK.sub(" ", tail)
                following = child.getnext()
                if joined != tail and joined.endswith(" ") and _starts_spaced(following):
                    joined = joined[:-1]  # "sad</a>\n<a> arrombamento": one space, not two
                child.tail = joined
            if isinstance(child.tag, str):
                stack.append((child, inside))
    return body


def _starts_spaced(element: Any) -> bool:
    """Whether ``element``'s own text starts with white space (a link's `` name``)."""
    return element is not None and (element.text or "x")[:1].isspace()


def _in_a_line(code: Any) -> bool:
    """Whether ``code`` runs in a line of text (a paragraph's ``<code>``), not a block.

    A browser renders inline code's source line breaks as spaces, as it does the prose's;
    only a block of code (a ``<pre>``) keeps them.
    """
    parent = code.getparent()
    return parent is not None and parent.tag in _LINE_HOLDERS


def _block_code_marked(body: Any) -> Any:
    """``body`` (changed in place) with each one-line code block marked to be fenced.

    trafilatura writes code of one line as inline code (`` `pip install widget` ``) even
    where it stands as a block (a ``<pre>``, which is a block however short): such code,
    one not inside a paragraph, heading, list item or cell, is given a first line of
    :data:`_ONE_LINE_CODE`, so it is fenced, and :func:`_markdown` drops that line. Code
    held in code (trafilatura's ``<code><code>`` for ``<pre><code>``) is made one text.
    """
    for code in list(body.iter("code")):
        parent = code.getparent()
        if parent is None or parent.tag not in _CONTAINERS or _inside_code(parent):
            continue
        if any(child.tag == "code" for child in code):
            text = "".join(_code_text(code))
            for child in list(code):
                code.remove(child)
            code.text = text
        if len(code) == 0 and code.text and "\n" not in code.text.strip("\n"):
            code.text = f"{_ONE_LINE_CODE}\n{code.text.strip(chr(10))}"
    return body


def _inside_code(element: Any) -> bool:
    return element.tag == "code" or any(up.tag == "code" for up in element.iterancestors())


def _code_text(element: Any) -> Iterator[str]:
    """The text of code, a ``<br>`` (trafilatura's ``<lb/>``) read as the line break it is."""
    if element.text:
        yield element.text
    for child in element:
        if isinstance(child.tag, str):
            yield "\n" if child.tag in _LINE_BREAKS else "".join(_code_text(child))
        if child.tail:
            yield child.tail


def _code_blank_lines_marked(body: Any) -> Any:
    """A copy of ``body`` whose code keeps its blank lines through trafilatura's Markdown.

    trafilatura drops every empty line of its output, those inside a code block too: the
    two blank lines between Python functions, the gap between YAML documents or a diff's
    hunks were lost in the Markdown while the plain text kept them. Each blank line of code
    is given :data:`_CODE_BLANK` to hold its place (and to escape the collapsing of blank
    runs), and :func:`_markdown` then empties each line holding only that. ``body`` itself
    is left as it was.
    """
    if not any(_BLANK_CODE_LINE.search("".join(code.itertext())) for code in body.iter("code")):
        return body
    body = copy.deepcopy(body)
    for code in body.iter("code"):
        for node in code.iter():
            if node.text:
                node.text = _BLANK_CODE_LINE.sub(f"\n{_CODE_BLANK}", node.text)
            if node is not code and node.tail:
                node.tail = _BLANK_CODE_LINE.sub(f"\n{_CODE_BLANK}", node.tail)
    return body


def _close_fences(markdown: str) -> str:
    """Put a blank line after each closing code fence (trafilatura runs the next block on).

    Also drops trailing spaces outside code blocks.
    """
    lines: list[str] = []
    in_code = just_closed = False
    for line in markdown.strip().splitlines():
        if just_closed and line.strip():
            lines.append("")
        just_closed = False
        if line.startswith("```"):
            in_code = not in_code
            just_closed = not in_code
        # Trailing spaces outside code are noise (trafilatura ends table rows with "| ").
        lines.append(line if in_code else line.rstrip())
    return "\n".join(lines)


def _plain_text(body: Any) -> str:
    """Render plain text: one paragraph per block, blank lines between.

    List items and table rows stay on consecutive lines of their block and code keeps its
    line breaks, so a list or a table still reads as one unit; a ``<br>`` in a paragraph
    starts a new line of it (see :func:`_inline`). trafilatura's own format is
    flat, but its fallbacks hand back HTML containers (``div``, ``section``) holding the
    blocks: those are walked into.
    """
    text = "\n\n".join(block for block in _blocks(body) if block)
    # A soft hyphen only marks where a word may break: kept, it split "Not\xadfall" in two
    # for anything that reads words (the Markdown has none).
    return text.replace(_SOFT_HYPHEN, "") if _SOFT_HYPHEN in text else text


def _blocks(element: Any) -> Iterator[str]:
    if (element.text or "").strip():
        yield " ".join(element.text.split())
    for child in element:
        if not isinstance(child.tag, str):
            continue
        if child.tag in _CONTAINERS:
            yield from _blocks(child)
        else:
            yield _block_text(child)
        if (child.tail or "").strip():
            yield " ".join(child.tail.split())


def _block_text(element: Any) -> str:
    tag = element.tag
    if tag in {"list", "ul", "ol"}:
        items = (_inline(item, " ") for item in element if item.tag in {"item", "li"})
        return "\n".join(f"- {item}" for item in items if item)
    if tag == "table":
        rows = (
            " | ".join(_inline(c, " ") for c in row if c.tag in {"cell", "td", "th"})
            for row in element.iter("row", "tr")
        )
        return "\n".join(row for row in rows if row.strip(" |"))
    if tag in {"code", "pre"}:
        return "\n".join(_lines(element)).strip("\n")
    return _inline(element, "\n")


def _inline(element: Any, line_break: str) -> str:
    """The element's text with runs of white space made one space.

    Args:
        element: A block (a paragraph, a heading, a list item, a table cell).
        line_break: What a ``<br>`` or an inner block's edge becomes: a new line in a
            paragraph (an address, a list of dates), a space in a list item or a table
            cell, whose lines must stay one line. Never nothing: the words on either side
            of a ``<br>`` used to run together ("Beach, FLJune 10").
    """
    lines = (" ".join(line.split()) for line in _lines(element))
    return line_break.join(line for line in lines if line)


def _lines(element: Any) -> Iterator[str]:
    """The element's text, cut where a ``<br>`` or an inner block starts or ends."""
    line: list[str] = []
    for piece in _pieces(element):
        if piece is None:
            yield "".join(line)
            line = []
        else:
            line.append(piece)
    yield "".join(line)


def _pieces(element: Any) -> Iterator[str | None]:
    """The text under ``element`` in reading order, ``None`` where a line ends.

    Walked with a stack, not recursively, since markup may be nested deeper than Python's
    recursion limit; and not with :func:`lxml.etree.iterwalk`, which skips comments and so
    the text that follows them. A comment's own text is not page text.
    """
    if element.text:
        yield element.text
    stack: list[tuple[Any, Iterator[Any]]] = [(element, iter(element))]
    while stack:
        node, children = stack[-1]
        child = next(children, None)
        if child is None:
            stack.pop()
            if stack:  # not element itself: its tail is outside it
                yield from _closing(node)
        elif isinstance(child.tag, str):
            yield from _opening(child)
            stack.append((child, iter(child)))
        elif child.tail:  # a comment or a processing instruction
            yield child.tail


def _opening(node: Any) -> Iterator[str | None]:
    """What the start of ``node`` adds: a line end for a ``<br>`` or a block, then its text."""
    if node.tag in _BLOCK_EDGES or node.tag in _LINE_BREAKS:
        yield None
    if node.text:
        yield node.text


def _closing(node: Any) -> Iterator[str | None]:
    """What the end of ``node`` adds: a line end for a block, then the text after it."""
    if node.tag in _BLOCK_EDGES:
        yield None
    if node.tail:
        yield node.tail


def _metadata(tree: lxml.html.HtmlElement, url: str | None) -> dict[str, str]:
    from trafilatura import extract_metadata

    # extensive=False: dates from markup (meta tags, JSON-LD, <time>) only, not a scan of
    # every string on the page, which costs more than the rest of the extraction.
    meta = extract_metadata(tree, default_url=url, extensive=False)
    found: dict[str, str] = {}
    for field in ("title", "author", "date", "sitename"):
        value = getattr(meta, field, None)
        if isinstance(value, str) and value.strip():
            found[field] = value.strip()
    return found


def _page_title(tree: lxml.html.HtmlElement, found: str | None) -> str | None:
    """The page's ``<title>`` when trafilatura took a heading of the body that differs.

    trafilatura prefers a page's only ``<h1>`` to its ``<title>``: "Hi" on a page titled
    "Hello page". A heading that is part of the ``<title>`` ("Release notes" of "Release
    notes | Example") stays: it is the title without the site's name.
    """
    element = tree.find("head/title")
    own = " ".join(element.text_content().split()) if element is not None else ""
    if not own or not found:
        return found or own or None
    title = " ".join(found.split())
    if title in own:
        return found
    headings = {" ".join(h.text_content().split()) for h in tree.iter("h1", "h2", "h3")}
    return own if title in headings else found


def _language(tree: lxml.html.HtmlElement) -> str | None:
    candidates = [tree.get("lang"), tree.get("{http://www.w3.org/XML/1998/namespace}lang")]
    for xpath in (
        '//meta[@http-equiv="content-language" or @http-equiv="Content-Language"]/@content',
        '//meta[@property="og:locale"]/@content',
    ):
        candidates.extend(str(v) for v in tree.xpath(xpath))
    for candidate in candidates:
        tag = (candidate or "").split(",")[0].strip()
        if _LANG_TAG.match(tag):
            return tag.replace("_", "-")
    return None
