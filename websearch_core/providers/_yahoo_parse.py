"""How a Yahoo results page reads (pure): result blocks, redirect unwrapping, the consent page.

* **Results:** one per ``div.algo`` outside the ad lists (an ancestor or the block itself
  with an ``…Ads`` / ``ads`` class): the heading is the first ``h3``, the link ``h3 a`` or,
  in the layout where the heading sits inside the link, the ``<a>`` around the ``h3``; the
  title is the heading's text and the snippet the first ``.compText``'s. A leading date
  span in the snippet (``<span class="fc-smoke">Mar 13, 2026 · </span>``) becomes
  ``published_date`` (relative dates such as ``2 days ago`` are kept as text, with no
  ``age_seconds``) and is cut from the snippet. Links are unwrapped by :func:`unwrap_url`:
  the ``r.search.yahoo.com/…/RU=<percent-encoded target>/RK=…`` tracker gives its target;
  other Yahoo links, ad redirects and non-``http(s)`` links are dropped. URLs are
  de-duplicated exactly.
* **Errors:** non-2xx statuses go through the shared classifier first, else
  ``Yahoo HTML error (<status>)``. Then the EU consent interstitial is a
  :class:`~websearch_core.errors.ChallengeError` (429): a final URL on
  ``consent.yahoo.com`` / ``guce.yahoo.com``, or a page without results whose forms, links
  or frames point at ``consent.yahoo.com`` or ``collectConsent`` (or, as a last resort,
  that mentions either anywhere). Yahoo's genuine zero-results page (``div.zrp``, "We did
  not find results for") gives zero sources (a 204 for the chain). Anything else without
  results is a :class:`~websearch_core.errors.ResponseParseError`.

Capture vs reference:

* In the real result page (``yahoo/serp_javascript_tutorial_2026.html``) the result links
  are direct targets, not ``RU=`` trackers, and the ``h3`` sits inside the ``<a>``; both
  shapes are supported, as are trackers.
* Every real Yahoo page links to ``guce.yahoo.com`` (terms, privacy) and names it in a
  ``<meta>``; only ``consent.yahoo.com``/``collectConsent`` mark the interstitial, and a
  page that has results is never read as one (a query about "collectConsent" is echoed in
  the title and search box).
* The reference keeps the date prefix inside the snippet; here it moves to
  ``published_date`` so the date is shown once, next to the title.

The module is private; :mod:`websearch_core.providers.yahoo` re-exports its public names.
"""

import re
from functools import lru_cache
from urllib.parse import SplitResult, urlsplit

import lxml.etree

from ..html import Element, css, has_class, resolve_href, resolve_link, text_of
from ..js_trim import trim
from ..models import SearchSource
from ._common import is_http_url
from ._page_markers import Markers, found
from ._scraper import decode_uri_component, scraped_source

__all__ = [
    "YAHOO_BASE_URL",
    "is_consent_page",
    "is_consent_url",
    "is_zero_results_page",
    "parse_block",
    "unwrap_url",
]

YAHOO_BASE_URL = "https://search.yahoo.com/"


_TRACKER_TARGET = re.compile(r"/RU=([^/]+)")


_CONSENT_URL = re.compile(r"^https?://(?:[^/]*\.)?(?:consent|guce)\.yahoo\.com/", re.IGNORECASE)


_CONSENT_HOSTS = frozenset({"consent.yahoo.com"})


_CONSENT_TEXT = Markers(exact=("consent.yahoo.com", "collectConsent"))
"""Mentions of the consent wall: ASCII as written, so found in the body's bytes as they are."""


_DATE_SUFFIX = re.compile(r"\s*·\s*$")


_AD_CLASS = re.compile(r"(?:^|\s)(?:\S*Ads|ads?)(?:\s|$)")


_ZERO_RESULTS = css("div.zrp")


def unwrap_url(href: str) -> str | None:
    """The destination of a Yahoo result link, or ``None`` when it must be dropped.

    The href is resolved against ``https://search.yahoo.com/``. When its path holds
    ``/RU=<target>`` (the ``r.search.yahoo.com`` tracker), the target is percent-decoded
    strictly (a malformed escape drops the link) and must be an ``http(s)`` URL. Without
    ``RU=``, links on ``r.search.yahoo.com`` (a tracker with no target) and
    ``search.yahoo.com`` (Yahoo's own navigation) are dropped and any other absolute
    ``http(s)`` URL is kept. Ad redirects (``bing.com/aclick``, Yahoo's ``cbclk``) are
    dropped whichever way they come.

    Example:
        >>> unwrap_url(
        ...     "https://r.search.yahoo.com/_ylt=A0;_ylu=Y2/RV=2/RE=1/RO=10"
        ...     "/RU=https%3a%2f%2fexample.org%2fa%3fb%3d1/RK=2/RS=x-"
        ... )
        'https://example.org/a?b=1'
        >>> unwrap_url("/search?p=more") is None
        True
    """
    found = resolve_link(href, YAHOO_BASE_URL)
    if found is None:
        return None
    url, parts = found
    match = _TRACKER_TARGET.search(parts.path)
    if match is not None:
        target = decode_uri_component(match.group(1))
        if target is None:
            return None
        url = target.strip()
        if not url.lower().startswith(("http://", "https://")) or not is_http_url(url):
            return None
        parts = urlsplit(url)
    elif (parts.hostname or "").lower() in ("r.search.yahoo.com", "search.yahoo.com"):
        return None
    # resolve_link checked the link itself is http(s); the parts are split once
    return None if _is_ad_redirect(parts) else url


def _is_ad_redirect(parts: SplitResult) -> bool:
    host = (parts.hostname or "").lower()
    if (host == "bing.com" or host.endswith(".bing.com")) and parts.path.startswith("/aclick"):
        return True
    return host.endswith("yahoo.com") and "/cbclk" in parts.path


def is_consent_url(url: str) -> bool:
    """Whether the final URL is on Yahoo's consent hosts (``consent.`` / ``guce.yahoo.com``)."""
    return bool(_CONSENT_URL.match(url))


def is_consent_page(document: Element, page: str | bytes) -> bool:
    """Whether a page without results is the consent interstitial (see the module notes).

    Forms, links, frames and scripts pointing at ``consent.yahoo.com`` or a
    ``collectConsent`` path decide first; otherwise the page is the interstitial when it
    mentions either anywhere and is not Yahoo's zero-results page. ``page`` is the page's
    text or the UTF-8 body it decodes from (searched as bytes, the text never built).
    """
    for element in document.iter("form", "a", "iframe", "script", "meta"):
        target = element.get("action") or element.get("href") or element.get("src") or ""
        if element.tag == "meta" and (element.get("http-equiv") or "").lower() == "refresh":
            target = (element.get("content") or "").partition("=")[2]
        if target and _points_at_consent(target):
            return True
    if is_zero_results_page(document):
        return False
    return found(page, _CONSENT_TEXT)


def _points_at_consent(target: str) -> bool:
    url = resolve_href(target, YAHOO_BASE_URL)
    if url is None:
        return False
    parts = urlsplit(url)
    return (parts.hostname or "").lower() in _CONSENT_HOSTS or "collectConsent" in parts.path


def is_zero_results_page(document: Element) -> bool:
    return bool(_ZERO_RESULTS(document))


def _in_ad_list(block: Element) -> bool:
    element: Element | None = block
    while element is not None:
        if _is_ad_class(element.get("class") or ""):
            return True
        element = element.getparent()
    return False


@lru_cache(maxsize=512)
def _is_ad_class(classes: str) -> bool:
    """The ad-list class test, once per distinct class attribute (every ancestor is tested)."""
    return bool(_AD_CLASS.search(classes))


def _link_of(block: Element, heading: Element) -> str | None:
    href = next((a.get("href") for a in heading.iter("a") if a.get("href") is not None), None)
    element = heading.getparent()
    stop = block.getparent()
    while href is None and element is not None and element is not stop:
        if element.tag == "a":
            href = element.get("href")
        element = element.getparent()
    return href


def _snippet_and_date(block: Element) -> tuple[str, str | None]:
    compact = next((e for e in block.iter(lxml.etree.Element) if has_class(e, "compText")), None)
    if compact is None:
        return "", None
    text = text_of(compact)
    span = next(compact.iter("span"), None)
    prefix = text_of(span) if span is not None else ""
    if prefix and text.startswith(prefix) and _DATE_SUFFIX.search(prefix):
        date = _DATE_SUFFIX.sub("", prefix)
        return trim(text[len(prefix) :]), date or None
    return text, None


def parse_block(block: Element) -> SearchSource | None:
    heading = next(block.iter("h3"), None)  # walks are cheaper than selectors on a block
    if heading is None or _in_ad_list(block):
        return None
    href = _link_of(block, heading)
    url = unwrap_url(href) if href is not None else None
    if url is None:
        return None
    snippet, date = _snippet_and_date(block)
    return scraped_source(title=text_of(heading), url=url, snippet=snippet, date=date)
