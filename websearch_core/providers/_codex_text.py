"""Links and snippets in a Codex answer's text: cited URLs, markdown links, bare URLs.

Pure string work, kept apart from the event and item reading in
:mod:`websearch_core.providers._codex_parse`.

A ``url_citation``'s citation text is the answer around it (±100 characters, markdown
links reduced to their text, at most 300 characters), cut at word boundaries: a word the
window or the length limit cuts through is left out, and a cut end is marked ``…`` as
:func:`websearch_core.format.truncate_text` marks it, a cut start with a leading ``…`` (the
reference cuts mid-word and marks only the length limit, with ``...``). When no
``url_citation`` came, markdown links and bare URLs in the answer are sources too.
``utm_source=openai`` is removed from every URL.
"""

import re
from typing import Any, Final
from urllib.parse import urlsplit, urlunsplit

from ..format import ELLIPSIS, truncate_text, whole_words
from ..js_trim import trim
from ._common import collapse_whitespace, is_http_url

__all__ = ["is_image_placeholder", "links_in_text", "snippet_around", "strip_openai_utm"]

SNIPPET_CONTEXT: Final = 100
SNIPPET_LIMIT: Final = 300
_IMAGE_PLACEHOLDERS: Final = frozenset(
    {
        "see attached image",
        "attached image",
        "see the attached image",
        "see image",
        "see image above",
        "image above",
        "see image below",
        "image below",
    }
)
_MARKDOWN_LINK_START = re.compile(r"\[([^\[\]]*)\]\(")
_MARK: Final = "\ufeff"
"""U+FEFF, a blank to JavaScript's ``\\s`` (the reference reads bare URLs as
``https?://\\S+``) and not to Python's: it ends a URL, bare or a link's target, as a
space does, so a mark beside a URL never becomes part of the source's address. Python's
``\\s`` also holds U+001C..U+001F and U+0085, which JavaScript's does not; they end a
URL here too (no address holds a control)."""
_WIDE: Final = (
    ("\u1100", "\u11ff"),  # Hangul jamo
    ("\u2e80", "\u2fdf"),  # CJK radicals
    ("\u3000", "\u30ff"),  # CJK symbols and punctuation, hiragana, katakana
    ("\u3130", "\u318f"),  # Hangul compatibility jamo
    ("\u3400", "\u4dbf"),  # CJK extension A
    ("\u4e00", "\u9fff"),  # CJK unified ideographs
    ("\uac00", "\ud7af"),  # Hangul syllables
    ("\uf900", "\ufaff"),  # CJK compatibility ideographs
    ("\uff00", "\uffef"),  # half-width and full-width forms
)
"""Chinese, Japanese and Korean characters and full-width forms, as code point ranges."""
_WIDE_STOPS: Final = "\u3000。，、；：！？（）「」『』【】《》〈〉"
"""The ideographic space, and full-width marks that close a sentence or a clause or open
or close a bracket: never part of an address as written, so a bare URL ends at one."""
_NOT_URL: Final = f"\\s{_MARK}<>\"'`"
_WIDE_OPENERS: Final = "-/.=#_"
"""ASCII characters a wide run may follow inside a URL: a path segment, host label, query
value or fragment written in Chinese, Japanese or Korean begins after one of them."""


def _ranges_without(ranges: tuple[tuple[str, str], ...], left_out: str) -> str:
    """A character class body for ``ranges`` less the characters of ``left_out``.

    Built once, so the URL pattern reads a wide run as one class (a lookahead per
    character made reading a wide path about 4x slower than reading an ASCII one).

    Example:
        >>> _ranges_without((("a", "e"),), "c")
        'a-bd-e'
    """
    gaps = sorted(map(ord, left_out))
    parts: list[str] = []
    for low, high in ranges:
        first = ord(low)
        for gap in (point for point in gaps if ord(low) <= point <= ord(high)):
            if first < gap:
                parts.append(f"{chr(first)}-{chr(gap - 1)}")
            first = gap + 1
        if first <= ord(high):
            parts.append(f"{chr(first)}-{high}")
    return "".join(parts)


_WIDE_ALL: Final = "".join(f"{low}-{high}" for low, high in _WIDE)
_WIDE_WORD: Final = _ranges_without(_WIDE, _WIDE_STOPS)
_WIDE_WITHIN: Final = r"(?=[/?#&=%]|[-._~+][0-9A-Za-z])"
"""What follows a wide run inside an address (``/abc日本/x``, ``www.abc日本.jp``): the
address goes on in ASCII past it, so the run was no text after the URL."""
_BARE_URL = re.compile(
    f"https?://(?:[^{_NOT_URL}{_WIDE_ALL}]++|(?<=[{_WIDE_OPENERS}])[{_WIDE_WORD}]++"
    f"|[{_WIDE_WORD}]++{_WIDE_WITHIN})++"
)
"""A bare URL: up to a blank, a quote or ``<>``, a full-width mark, or wide text run on.

The reference reads ``https?://\\S+``, so ``https://a.org/p。``, ``https://a.org/pを参照``
and ``https://a.org/x，https://b.org/y`` each became one source with the text in its
address, a page no one wrote. Chinese, Japanese and Korean put no blank between a URL and
their words; an address carries such characters percent-encoded (every capture's do) or,
as a browser shows it, as a whole IDN host label or path segment. So a full-width mark
always ends the URL, and a wide character continues it only where such a label or segment
begins (after ``- / . = # _``) or within one: ``https://例え.jp/`` and
``https://zh.wikipedia.org/wiki/东京`` stay whole, ``https://a.org/pを参照`` reads
``https://a.org/p``. A segment mixing ASCII and wide letters keeps its wide part where the
address goes on in ASCII after it (``/abc日本/x``, ``www.abc日本.jp``: :data:`_WIDE_WITHIN`);
one ending the URL (``/abc日本`` then a blank) loses it, and a wide word written right
after ``/`` (``https://a.org/を参照``) stays: there no reading can tell the address from
the text (``https://a.org/pを参照`` is written the same way)."""
_TRAILING = ".,!?;:'\""
_PAIRS: Final = {")": "(", "]": "[", "}": "{"}
_OPENAI_MARK: Final = "utm_source=openai"
"""The query pair OpenAI appends to every URL it cites (reference: removed from each)."""


def strip_openai_utm(url: str) -> str:
    """``url`` without the ``utm_source=openai`` marker OpenAI adds to cited links.

    Only that pair is taken out; the rest of the query stays as the page's address wrote
    it. Decoding the query and encoding it again (as this did) rewrote the address:
    ``%20`` became ``+``, a bare ``?id`` became ``?id=``, so the source named a URL the
    page never had and ``inurl:`` judged that one.

    Example:
        >>> strip_openai_utm("https://a.example/p?x=1&utm_source=openai")
        'https://a.example/p?x=1'
        >>> strip_openai_utm("https://a.example/p?q=a%20b&utm_source=openai&id#top")
        'https://a.example/p?q=a%20b&id#top'
    """
    parts = urlsplit(url)
    pairs = parts.query.split("&")
    if _OPENAI_MARK not in pairs:
        return url
    query = "&".join(pair for pair in pairs if pair != _OPENAI_MARK)
    return urlunsplit(parts._replace(query=query))


def _trim_url(url: str) -> str:
    while url:
        last = url[-1]
        unbalanced = last in _PAIRS and url.count(_PAIRS[last]) < url.count(last)
        if last not in _TRAILING and not unbalanced:
            break
        url = url[:-1]
    return url


def _is_blank(char: str) -> bool:
    """Whether ``char`` is a blank a link's target may be wrapped in: not a line break."""
    return (char.isspace() or char == _MARK) and char != "\n"


def _link_end(text: str, start: int) -> int:
    """Index of the ``)`` that closes a markdown link target opened just before ``start``.

    The reference reads the target up to its balanced ``)`` and trims it, so blanks (a
    byte-order mark among them) before and after the address still make a link:
    ``[docs]( https://a.example/x )`` was no link here, its title lost to the bare URL's.
    A blank inside the target, or a line break anywhere (the reference stops there too),
    makes it no link (``-1``): an address holds no blank, and the scan stays within the
    text up to the first blank after the address.
    """
    end = len(text)
    first = start
    while first < end and _is_blank(text[first]):
        first += 1
    depth = 1
    for index in range(first, end):
        char = text[index]
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return index
        elif char.isspace() or char == _MARK:
            after = index
            while after < end and _is_blank(text[after]):
                after += 1
            closes = depth == 1 and after < end and text[after] == ")"
            return after if closes else -1
    return -1


def _markdown_links(text: str) -> list[tuple[str, str]]:
    """``(title, target)`` of each Markdown link, the target as an address ends.

    A target closing with a full-width mark (``[x](https://a.org/p。)``: the sentence's
    ``。`` written inside the parentheses) loses it, as a bare URL does (``_BARE_URL``):
    no address as written ends with one.
    """
    links: list[tuple[str, str]] = []
    for match in _MARKDOWN_LINK_START.finditer(text):
        end = _link_end(text, match.end())
        if end > 0:
            target = trim(text[match.end() : end])
            links.append((trim(match.group(1)), target.rstrip(_WIDE_STOPS)))
    return links


def links_in_text(text: str) -> list[tuple[str, str]]:
    """``(title, url)`` for every markdown link, then every bare ``http(s)`` URL, in order.

    A bare URL ends at wide text run into it as a reader sees it end (see ``_BARE_URL``).

    Example:
        >>> links_in_text("See [docs](https://a.example/x_(y)) and https://b.example/z.")
        [('docs', 'https://a.example/x_(y)'), ('', 'https://b.example/z')]
        >>> links_in_text("详见https://a.example/p，https://b.example/东京。")
        [('', 'https://a.example/p'), ('', 'https://b.example/东京')]
    """
    found = [(title, url) for title, url in _markdown_links(text) if is_http_url(url)]
    seen = {url for _, url in found}
    for match in _BARE_URL.finditer(text):
        url = _trim_url(match.group(0))
        if url not in seen and is_http_url(url):
            seen.add(url)
            found.append(("", url))
    return found


def _reduce_links(text: str) -> str:
    """``text`` with each markdown link replaced by its title as written.

    By the link's place, not its text rebuilt: a title or target the reading trims
    (``[ docs ](https://a.example/x)``, a target wrapped in blanks) was left unreduced,
    as ``[{title}]({url})`` was not found in the text.
    """
    parts: list[str] = []
    done = 0
    for match in _MARKDOWN_LINK_START.finditer(text):
        end = _link_end(text, match.end()) if match.start() >= done else -1
        if end > 0:
            parts += (text[done : match.start()], match.group(1))
            done = end + 1
    return "".join(parts) + text[done:]


def _word_start(text: str, start: int, limit: int) -> int:
    """``start``, or past the rest of a word it falls inside (never beyond ``limit``).

    A ``start`` at or past the end (indices beyond the text) is kept: the window is empty.
    """
    if start == 0 or start >= len(text) or text[start - 1].isspace() or text[start].isspace():
        return start
    for index in range(start, limit):
        if text[index].isspace():
            return index
    return start


def snippet_around(text: str, start: Any, end: Any) -> str | None:
    """The answer around a citation's indices (a citation carries no quoted text of its own).

    ±100 characters, markdown links reduced to their text, at most 300 characters; a word
    cut by the window or the limit is left out (the cited span itself is kept), and ``…``
    marks a cut at either end (the leading one counts towards the limit). ``None`` when the
    indices are missing or out of order.

    Example:
        >>> text = "The quick brown fox jumps over the lazy dog. " * 6
        >>> text[22:26], text[226:230]  # the ±100 window of 122..130 is text[22:230]
        ('mps ', 'he q')
        >>> snippet = snippet_around(text, 122, 130)
        >>> snippet[:15], snippet[-14:]
        ('…over the lazy ', 'lazy dog. The…')
    """
    if not isinstance(start, int) or not isinstance(end, int) or not 0 <= start <= end:
        return None
    first = _word_start(text, max(0, start - SNIPPET_CONTEXT), min(start, len(text)))
    last = min(len(text), end + SNIPPET_CONTEXT)
    window = text[first:last]
    cut = last < len(text)
    if cut:
        kept = max(0, min(end, last) - first)
        head = whole_words(text[first : last + 1], window)
        window = head if len(head) >= kept else window[:kept]
    snippet = collapse_whitespace(_reduce_links(window))
    if snippet and cut:
        snippet += ELLIPSIS
    if snippet and text[:first].strip():  # the window starts after some of the answer
        snippet = ELLIPSIS + snippet
    return truncate_text(snippet, SNIPPET_LIMIT, at_word=True) or None


def is_image_placeholder(answer: str) -> bool:
    """Whether ``answer`` only points at an image it cannot show (``see attached image``)."""
    cleaned = re.sub(r"[\[\]()\"'`*_#>~]", "", answer).strip().rstrip(".!?:;,").strip()
    return cleaned.lower() in _IMAGE_PLACEHOLDERS
