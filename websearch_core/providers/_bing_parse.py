"""How a Bing results page reads (pure): result blocks, click-tracker unwrapping, challenges.

* **Results:** one per ``li.b_algo``: the link is the first ``h2 a[href]`` (the sitelinks
  outside the heading are ignored), the title its text, the snippet the first non-empty of
  ``.b_caption p``, ``p[class*=b_lineclamp]`` and ``.b_algoSlug``. A ``span.news_dt`` date at
  the start of the snippet becomes ``published_date`` (and ``age_seconds``) and is cut from
  the snippet with its ``·`` separator. Links go through Bing's click tracker
  ``https://www.bing.com/ck/a?…&u=a1<base64url(target)>&ntb=1``, unwrapped by
  :func:`unwrap_url`; a Bing link that is not such a tracker, an undecodable tracker, a
  non-``http(s)`` target and an ad redirect (``bing.com/aclick``) are dropped. Ads live in
  ``li.b_ad`` blocks and are never read. URLs are de-duplicated exactly.
* **Errors:** a final URL under ``/turing/captcha`` is a
  :class:`~websearch_core.errors.ChallengeError` (429) whatever the status. A page without
  ``li.b_algo`` results is a challenge when it carries challenge markup: the
  "One last step" Cloudflare Turnstile block (``#turnstile-widget``, ``.cf-turnstile``,
  ``div.captcha``/``.captcha_header``), ``#b_captcha``/``#px-captcha``, or a form, frame or
  script pointing at ``/turing/captcha`` or ``challenges.cloudflare.com``; failing those,
  the reference's text markers (``turing/captcha``, ``b_captcha``, ``px-captcha``,
  "verify you are a human") anywhere in the page, unless it is Bing's genuine
  "There are no results" page (``li.b_no``), which gives zero sources (a 204 for the
  chain). Anything else without results is a
  :class:`~websearch_core.errors.ResponseParseError`. Other non-2xx statuses go through
  the shared classifier, else ``Bing HTML error (<status>)``.

Capture vs reference:

* The real challenge capture (``bing/challenge_one_last_step_turnstile_in_serp_2026.html``)
  is a full SERP (title, header, search box) holding a Turnstile widget and no results.
  None of the reference's text markers occur in it, so the reference would have read it
  as an empty result; the structural markers above catch it.
* The real SERP and the Polish fragment use unquoted attributes (``iid=SERP.5318``) and
  put ``<link>`` tags inside ``li.b_algo``; lxml reads both as a browser does.

The module is private; :mod:`websearch_core.providers.bing` re-exports its public names.
"""

import base64
import binascii
import re
from collections.abc import Iterator
from urllib.parse import unquote, urlsplit

import lxml.etree

from ..html import Element, css, has_class, host_of, resolve_link, text_of
from ..models import SearchSource
from ._page_markers import Markers, found
from ._scraper import scraped_source

__all__ = [
    "BING_BASE_URL",
    "is_challenge_page",
    "is_challenge_url",
    "is_no_results_page",
    "parse_block",
    "unwrap_url",
]

BING_BASE_URL = "https://www.bing.com/"


_BASE64URL = re.compile(r"^[A-Za-z0-9_-]+$")


_NO_RESULTS = css("li.b_no")


_DATE_SEPARATOR = re.compile(r"^[\s·\-–—|]+")


_CHALLENGE_ELEMENTS = css(
    "#turnstile-widget, .cf-turnstile, div.captcha, .captcha_header, #b_captcha, .b_captcha, "
    "#px-captcha"
)


_CHALLENGE_ATTRIBUTE = re.compile(r"/turing/captcha|challenges\.cloudflare\.com", re.IGNORECASE)


_CHALLENGE_TEXT = Markers(
    patterns=(
        re.compile(
            r"turing/captcha|b_captcha|px-captcha|verify (?:that )?you are (?:a )?human",
            re.IGNORECASE,
        ),
    ),
    span=len("verify that you are a human"),
)
"""The reference's text markers, searched in the body's bytes a piece of text at a time.

A pattern, not lowered markers: ``re.IGNORECASE`` also folds ``İ``/``ı`` to ``i``, which
``str.lower`` does not, and the answer must stay the reference's."""


def unwrap_url(href: str) -> str | None:
    """The destination of a Bing result link, or ``None`` when it must be dropped.

    The href is resolved against ``https://www.bing.com/``. A link on ``bing.com`` (or a
    subdomain) must be the click tracker ``/ck/a`` whose ``u`` parameter is ``a1``
    followed by the unpadded base64url of the UTF-8 target; anything else on Bing
    (internal navigation, an undecodable ``u``) is dropped. Other links are kept as they
    are. The result must be an absolute ``http(s)`` URL and not a Bing ad redirect
    (``bing.com/aclick``).

    Example:
        >>> unwrap_url("https://www.bing.com/ck/a?!&&p=abc&u=a1aHR0cHM6Ly9leGFtcGxlLm9yZy8&ntb=1")
        'https://example.org/'
        >>> unwrap_url("/images/search?q=x") is None
        True
    """
    found = resolve_link(href, BING_BASE_URL)
    if found is None:
        return None
    url, parts = found
    if not _is_bing_host(host_of(parts)):
        return url  # resolve_link checked it is http(s); only Bing hosts redirect to ads
    if parts.path != "/ck/a":
        return None
    target = _decode_tracker(parts.query)
    if target is None:
        return None
    try:
        target_parts = urlsplit(target)
        target_host = target_parts.hostname
    except ValueError:
        return None
    if target_parts.scheme.lower() not in ("http", "https") or not target_host:
        return None  # is_http_url's test, on the parts split once
    if _is_bing_host(target_host) and target_parts.path.startswith("/aclick"):
        return None  # an ad redirect
    return target


def _is_bing_host(host: str | None) -> bool:
    host = (host or "").lower()
    return host == "bing.com" or host.endswith(".bing.com")


def _decode_tracker(query: str) -> str | None:
    value = _query_value(query, "u")
    if not value.startswith("a1"):
        return None
    encoded = value[2:]
    if not _BASE64URL.match(encoded):
        return None
    try:
        raw = base64.urlsafe_b64decode(encoded + "=" * (-len(encoded) % 4))
        return raw.decode("utf-8").strip()
    except (binascii.Error, ValueError):
        return None


def _query_value(query: str, name: str) -> str:
    """The first value of ``name`` in a query string, decoded as ``parse_qsl`` decodes it.

    Only the wanted field is decoded: Bing's tracker carries long ``p`` and ``fclid`` fields
    that ``parse_qsl`` would decode for nothing (most of the cost of unwrapping a link). A
    key is decoded only when it holds an escape (``%``) or a ``+``.
    """
    for field in query.split("&"):
        key, _, value = field.partition("=")
        if key == name or (("%" in key or "+" in key) and _decode_query_part(key) == name):
            return _decode_query_part(value)
    return ""


def _decode_query_part(part: str) -> str:
    return unquote(part.replace("+", " ")) if "%" in part or "+" in part else part


def is_challenge_url(url: str) -> bool:
    """Whether the final URL is Bing's CAPTCHA page (``/turing/captcha``)."""
    return "/turing/captcha" in url.lower()


def is_challenge_page(document: Element, page: str | bytes) -> bool:
    """Whether a page without results is a bot challenge (see the module notes).

    Call it only for a page that has no ``li.b_algo`` result: Bing's result pages carry
    the challenge's CSS and scripts too. Structural markers decide first; the reference's
    text markers decide only when the page is not Bing's genuine "no results" page.
    ``page`` is the page's text or the UTF-8 body it decodes from (the whole text is then
    never built: see :func:`~._page_markers.found`).
    """
    if _CHALLENGE_ELEMENTS(document):
        return True
    for element in document.iter("form", "iframe", "script"):
        target = element.get("action") or element.get("src") or ""
        if _CHALLENGE_ATTRIBUTE.search(target):
            return True
    if is_no_results_page(document):
        return False
    return found(page, _CHALLENGE_TEXT)


def is_no_results_page(document: Element) -> bool:
    return bool(_NO_RESULTS(document))


def _title_link(block: Element) -> Element | None:
    """The first ``h2 a[href]`` in ``block``: a link with an ``href`` under a heading.

    Headings are visited in document order and each one's links in order, which is the
    document order of the matches: a later heading that is not inside an earlier one
    starts after the earlier one ends. A selector call costs more than this walk over a
    block's one or two headings.
    """
    for heading in block.iter("h2"):
        for anchor in heading.iter("a"):
            if anchor.get("href") is not None:
                return anchor
    return None


def _snippet_candidates(block: Element) -> Iterator[Element]:
    """``.b_caption p``, ``p[class*='b_lineclamp']`` and ``.b_algoSlug``, in that order.

    Each group is in document order, as the CSS selectors would give it; walking the few
    elements of a block in Python costs less than running three compiled selectors on it.
    The groups are read lazily: the first non-empty candidate ends the search, and it is
    nearly always the first caption paragraph, so the later groups are rarely walked.
    """
    paragraphs = list(block.iter("p"))
    for paragraph in paragraphs:
        if _in_caption(paragraph, block):
            yield paragraph
    for paragraph in paragraphs:
        if "b_lineclamp" in (paragraph.get("class") or ""):
            yield paragraph
    for element in block.iter(lxml.etree.Element):
        if has_class(element, "b_algoSlug"):
            yield element


def _in_caption(paragraph: Element, block: Element) -> bool:
    ancestor = paragraph.getparent()
    while ancestor is not None:
        if has_class(ancestor, "b_caption"):
            return True
        if ancestor is block:
            return False
        ancestor = ancestor.getparent()
    return False


def _news_date(element: Element) -> str:
    """The text of the first ``span.news_dt`` in ``element`` (itself included), or ``""``."""
    stamp = next((span for span in element.iter("span") if has_class(span, "news_dt")), None)
    return text_of(stamp) if stamp is not None else ""


def _snippet_and_date(block: Element) -> tuple[str, str | None]:
    for element in _snippet_candidates(block):
        text = text_of(element)
        if not text:
            continue
        date = _news_date(element)
        if date and text.startswith(date):
            return _DATE_SEPARATOR.sub("", text[len(date) :]), date
        return text, None
    return "", None


def parse_block(block: Element) -> SearchSource | None:
    """One ``li.b_algo`` block as a source, or ``None`` without a usable title link."""
    anchor = _title_link(block)
    if anchor is None:
        return None
    url = unwrap_url(anchor.get("href", ""))
    if url is None:
        return None
    snippet, date = _snippet_and_date(block)
    return scraped_source(title=text_of(anchor), url=url, snippet=snippet, date=date)
