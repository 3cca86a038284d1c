"""Small, dependency-free HTML helpers shared by the scraping providers.

* :data:`BROWSER_HEADERS` and :func:`navigation_headers`: a desktop-Chrome navigation
  profile as data, with the per-request overlay (``Referer`` makes the fetch same-origin).
* :func:`replace_tags`, :func:`decode_entities` and :func:`fragment_text`: turn a markup
  fragment into the plain text a model reads (inline highlighting such as ``<b>`` does
  not split words; block boundaries do).
* :func:`parse_attributes` and :func:`find_forms`: read tag attributes and ``<form>``
  inputs in any attribute order, for engines that paginate or hand out tokens through
  hidden form fields.
* :func:`parse_document`, :func:`text_of`, :func:`resolve_href` and :func:`is_http_url`:
  the lxml side, for scrapers that select with CSS (Bing, Yahoo, Startpage and the
  browser-backed engines): a lenient whole-page parse, an element's readable text, and
  result links resolved against the page they came from.

Everything here is pure and works on strings, so scrapers that parse with regular
expressions (as the DuckDuckGo one does, on purpose) and scrapers that use lxml can share
it.
"""

import html
import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import cast
from urllib.parse import urljoin

import lxml.etree
import lxml.html

from .providers._common import collapse_whitespace, is_http_url

__all__ = [
    "BROWSER_HEADERS",
    "CHROME_USER_AGENT",
    "HtmlForm",
    "decode_entities",
    "find_forms",
    "fragment_text",
    "is_http_url",
    "navigation_headers",
    "parse_attributes",
    "parse_document",
    "replace_tags",
    "resolve_href",
    "text_of",
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

_TAG = re.compile(r"<\s*/?\s*([A-Za-z][A-Za-z0-9:-]*)?[^>]*>")
_INLINE_TAGS = frozenset(
    {
        "a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "dfn", "em", "font", "i",
        "kbd", "mark", "q", "s", "samp", "small", "span", "strong", "sub", "sup", "time",
        "u", "var", "wbr",
    }
)  # fmt: skip
_ATTRIBUTE = re.compile(
    r"""([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?""",
)
_TAG_NAME = re.compile(r"^<\s*[A-Za-z][A-Za-z0-9:-]*")
_FORM = re.compile(r"<form\b([^>]*)>(.*?)</form\s*>", re.IGNORECASE | re.DOTALL)
_INPUT = re.compile(r"<input\b[^>]*>", re.IGNORECASE)


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


def replace_tags(fragment: str) -> str:
    """``fragment`` without markup, keeping words apart only where the layout did.

    Inline formatting tags (``b``, ``em``, ``a``, ``span``, ...) vanish, so highlighting
    does not split words (``<b>Eino</b>-ext`` gives ``Eino-ext``); every other tag and
    comment becomes a space (``a<br>b`` gives ``a b``). Entities are left for
    :func:`decode_entities`.

    Example:
        >>> replace_tags("<b>Eino</b>-ext<br/>is <em>fast</em></p><p>really")
        'Eino-ext is fast  really'
    """
    return _TAG.sub(_tag_replacement, fragment)


def _tag_replacement(match: re.Match[str]) -> str:
    name = match.group(1)
    return "" if name is not None and name.lower() in _INLINE_TAGS else " "


def decode_entities(text: str) -> str:
    """Decode every character reference: named (``&amp;``), decimal and hexadecimal.

    Decoding happens once, so text that literally shows an entity stays literal:
    ``&amp;lt;`` gives ``&lt;``, not ``<``.

    Example:
        >>> decode_entities("&quot;fast&quot; &amp; free &#x41;&#66;")
        '"fast" & free AB'
    """
    return html.unescape(text)


def fragment_text(fragment: str) -> str:
    """The readable text of a markup fragment.

    Tags go as :func:`replace_tags` says, entities are decoded, and whitespace (no-break
    spaces included) is collapsed and trimmed.

    Example:
        >>> fragment_text("<b>Eino</b> is&nbsp; a   framework &amp; more")
        'Eino is a framework & more'
    """
    return collapse_whitespace(decode_entities(replace_tags(fragment)))


def parse_attributes(tag: str) -> dict[str, str]:
    """The attributes of one start tag, whatever their order or quoting.

    Names are lower-cased; values are entity-decoded; a bare attribute (``disabled``) has
    the empty string as its value. The first occurrence of a repeated name wins, as in
    browsers.

    Args:
        tag: The start tag, from ``<`` to ``>`` (for example ``<input name="q" value=x>``).

    Example:
        >>> parse_attributes('<input value=10 type="hidden" name=s disabled />')
        {'value': '10', 'type': 'hidden', 'name': 's', 'disabled': ''}
    """
    body = _TAG_NAME.sub("", tag.strip(), count=1)
    body = body.removesuffix(">").rstrip().removesuffix("/")
    attributes: dict[str, str] = {}
    for match in _ATTRIBUTE.finditer(body):
        name = match.group(1).lower()
        if name in attributes:
            continue
        raw = next((g for g in match.group(2, 3, 4) if g is not None), "")
        attributes[name] = decode_entities(raw)
    return attributes


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


def find_forms(page: str) -> list[HtmlForm]:
    """Every ``<form>…</form>`` in ``page`` with its submittable inputs, in document order.

    Example:
        >>> form = find_forms('<form action="/x"><input name="s" value="10"></form>')[0]
        >>> form.action, form.fields
        ('/x', (('s', '10'),))
    """
    forms: list[HtmlForm] = []
    for match in _FORM.finditer(page):
        attributes = parse_attributes(f"<form {match.group(1)}>")
        fields: list[tuple[str, str]] = []
        for tag in _INPUT.findall(match.group(2)):
            input_attributes = parse_attributes(tag)
            name = input_attributes.get("name")
            value = input_attributes.get("value")
            if name and value is not None:
                fields.append((name, value))
        forms.append(
            HtmlForm(
                action=attributes.get("action", ""),
                method=attributes.get("method", "get").lower(),
                attributes=MappingProxyType(attributes),
                fields=tuple(fields),
            )
        )
    return forms


# --- lxml helpers ------------------------------------------------------------------------------

_EMPTY_DOCUMENT = b"<html><head></head><body></body></html>"
_INVISIBLE_TEXT = "[not(ancestor::script) and not(ancestor::style) and not(ancestor::template)]"
_VISIBLE_TEXT = lxml.etree.XPath(f"descendant-or-self::text(){_INVISIBLE_TEXT}")
_URL_NOISE = re.compile(r"[\t\n\r]")
_EMPTY_AUTHORITY = re.compile(r"^(?:[A-Za-z][A-Za-z0-9+.-]*:)?//(?:[/?#]|$)")


def parse_document(html: str) -> lxml.html.HtmlElement:
    """Parse a whole HTML page leniently into its ``<html>`` root element.

    Never raises for bad input: broken markup is repaired the way lxml's HTML parser does,
    an XML encoding declaration is tolerated (the text is already decoded), and an empty or
    whitespace-only page gives an empty ``<html><head/><body/></html>`` document.

    Args:
        html: The decoded page.

    Returns:
        The root element; select inside it with ``cssselect`` or XPath.

    Example:
        >>> root = parse_document("<p class=x>Hello <b>world</b>")
        >>> root.tag, [p.text_content() for p in root.cssselect("p.x")]
        ('html', ['Hello world'])
    """
    parser = lxml.html.HTMLParser(encoding="utf-8", remove_comments=False)
    data = html.encode("utf-8", errors="replace")
    if data.strip():
        try:
            return lxml.html.document_fromstring(data, parser=parser)
        except (lxml.etree.ParserError, ValueError):
            pass
    return lxml.html.document_fromstring(_EMPTY_DOCUMENT, parser=parser)


def text_of(element: lxml.html.HtmlElement) -> str:
    """The text a reader sees in ``element``, whitespace collapsed and trimmed.

    Like the DOM's ``textContent`` (descendant text concatenated, entities decoded, no
    separator added between elements, so ``<b>Ja</b>va`` reads ``Java``), except that the
    contents of ``<script>``, ``<style>`` and ``<template>`` and comments are left out.
    Whitespace, no-break spaces included, is collapsed to single spaces.

    Example:
        >>> text_of(parse_document("<p> Hi&nbsp; <b>the</b>re<script>x()</script><!-- c --></p>"))
        'Hi there'
    """
    parts = cast(list[str], _VISIBLE_TEXT(element))
    return collapse_whitespace("".join(parts))


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
    cleaned = _URL_NOISE.sub("", href.strip())
    if not cleaned or _EMPTY_AUTHORITY.match(cleaned):
        return None
    try:
        url = urljoin(base, cleaned)
    except ValueError:
        return None
    return url if is_http_url(url) else None
