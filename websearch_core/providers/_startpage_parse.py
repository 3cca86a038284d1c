"""How Startpage's pages read (pure): the home page's form token, results, the CAPTCHA.

* **Results:** one per ``div`` whose class has the exact token ``result`` (the
  ``a-bg-result`` ad/honeypot block does not match). The link is ``a.result-link``; its
  href is resolved against the homepage and must be ``http(s)`` and not on
  ``startpage.com`` (anonymous-view proxy links never count). The title is the text of the
  ``h2``/``h3`` inside the link, else the link's text; the snippet is ``p.description``.
  A leading Google-style date (``14 Oct 2023 ...``) moves from the snippet to
  ``published_date`` (and ``age_seconds``). URLs are de-duplicated exactly.
* **Errors:** a final URL under ``/sp/captcha`` (or any ``/captcha/`` or ``/errors/``
  path) is a :class:`~websearch_core.errors.ChallengeError` (429), checked before the
  status. A page without results is a challenge when a link, form, frame or script points
  at ``/sp/captcha`` or at the ``component---src-pages-captcha`` bundle, or, unless it is a
  "no results" page, mentions either anywhere. Other non-2xx statuses go through the
  shared classifier, else ``Startpage HTML error (<status>)``. A page with no results, no
  "no results" marker and no challenge is a
  :class:`~websearch_core.errors.ResponseParseError`.

Capture vs reference and assumptions:

* The real results capture (``startpage/serp_javascript_tutorial_http_2026.html``) holds
  several ``form[action="/sp/search"]`` (search box, category tabs, pager), all with the
  same ``sc``; the first one with a token is used, as the reference's ``querySelector``
  would. Its snippets open with dates such as ``14 Oct 2023 ...``, which the reference
  leaves in the snippet.
* No real Startpage CAPTCHA page or "no results" page is known (fixtures/SOURCES.md: the
  block is normally a redirect to ``/sp/captcha``). The "no results" markers are an
  assumption: an element whose class starts with ``no-results``/``noresults``, or the
  text "did not match any documents" / "No results found for".

The module is private; :mod:`websearch_core.providers.startpage` re-exports its public names.
"""

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from urllib.parse import urlsplit

from ..html import (
    Element,
    css,
    has_class,
    parse_document,
    resolve_href,
    resolve_link,
    select_first,
    text_matches,
    text_of,
)
from ..js_trim import trim
from ..models import SearchSource
from ._page_markers import Markers, found
from ._scraper import scraped_source

__all__ = [
    "STARTPAGE_HOME_URL",
    "hidden_search_fields",
    "is_challenge_page",
    "is_challenge_url",
    "is_no_results_page",
    "next_page_fields",
    "parse_block",
    "result_url",
    "search_form_fields",
]


STARTPAGE_HOME_URL = "https://www.startpage.com/"


_CHALLENGE_URL = re.compile(r"/(?:errors|captcha)/|/sp/captcha", re.IGNORECASE)


_CHALLENGE_MARKER = re.compile(r"component---src-pages-captcha|/sp/captcha", re.IGNORECASE)


_CHALLENGE_TEXT = Markers(patterns=(_CHALLENGE_MARKER,), span=len("component---src-pages-captcha"))
"""The CAPTCHA's markers anywhere in a page, searched in its bytes a piece of text at a time
(a pattern: ``re.IGNORECASE`` folds ``ſ`` to ``s`` and ``İ`` to ``i``, ``str.lower`` not)."""


_NO_RESULTS_CLASS = re.compile(r"(?:^|\s)no-?results?", re.IGNORECASE)


_NO_RESULTS_TEXT = re.compile(r"did not match any documents|no results found for", re.IGNORECASE)
_NO_RESULTS_SPAN = len("did not match any documents")
"""The longest match of :data:`_NO_RESULTS_TEXT`: the body's text is read in pieces."""


_BODY = css("body")


_PAGER_CLASS = "pagination"


_CURRENT_PAGE = re.compile(r"current page \d+$", re.IGNORECASE)


_LEADING_DATE = re.compile(
    r"^(?P<date>\d{1,2} [A-Z][a-z]{2,8}\.? \d{4}|[A-Z][a-z]{2,8}\.? \d{1,2}, \d{4}"
    r"|\d+ (?:minute|hour|day|week|month|year)s? ago) (?:\.\.\.|…|·|-) ?"
)


def _hidden_fields(form: Element) -> list[tuple[str, str]]:
    """Every hidden input of ``form`` with a name, in document order (a missing value is "")."""
    return [
        (str(element.get("name")), element.get("value") or "")
        for element in form.iter("input")
        if (element.get("type") or "").lower() == "hidden" and element.get("name")
    ]


def hidden_search_fields(page: str) -> list[tuple[str, str]] | None:
    """The hidden inputs of the homepage's search form, or ``None`` without an ``sc`` token.

    The form is the first whose action resolves to ``/sp/search`` on Startpage and that has
    a hidden ``sc`` input with a value. Every hidden input with a name is kept, in document
    order; a missing value is the empty string.

    Example:
        >>> hidden_search_fields(
        ...     '<form action="/sp/search" method="post"><input name="query">'
        ...     '<input type="hidden" name="lui" value="english">'
        ...     '<input type="hidden" name="sc" value="Tok3n00"></form>'
        ... )
        [('lui', 'english'), ('sc', 'Tok3n00')]
    """
    return search_form_fields(parse_document(page))


def search_form_fields(document: Element) -> list[tuple[str, str]] | None:
    """:func:`hidden_search_fields` of a homepage already parsed.

    The provider parses the response body's bytes (:func:`~websearch_core.html.parse_body`),
    so a large homepage is never decoded whole.
    """
    for form in document.iter("form"):
        if not _is_search_action(form.get("action") or ""):
            continue
        fields = _hidden_fields(form)
        if any(name == "sc" and value for name, value in fields):
            return fields
    return None


def next_page_fields(document: Element) -> list[tuple[str, str]] | None:
    """The hidden inputs of the pager's form for the next page, or ``None`` on the last page.

    The pager (``div.pagination``) holds one form per page, each posting to ``/sp/search``
    with the search's hidden inputs and its 1-based ``page`` (plus ``segment`` and the
    ``sc`` token). The page just read is found by :func:`_current_page`; the next page is
    the form whose ``page`` is one more (the capture's "Next" button is one such form). A
    pager without a current page, or without a following one, ends the paging.

    Example:
        >>> pager = (
        ...     '<div class="pagination">'
        ...     '<form action="/sp/search" aria-label="current page 1">'
        ...     '<input type="hidden" name="sc" value="T0"><input type="hidden" name="page" '
        ...     'value="1"></form><form action="/sp/search" aria-label="go to page 2">'
        ...     '<input type="hidden" name="sc" value="T0"><input type="hidden" name="page" '
        ...     'value="2"><input type="hidden" name="pl"></form></div>'
        ... )
        >>> next_page_fields(parse_document(pager))
        [('sc', 'T0'), ('page', '2'), ('pl', '')]
    """
    forms: list[_PagerForm] = []
    for form in document.iter("form"):
        if not _is_search_action(form.get("action") or "") or not _in_pager(form):
            continue
        fields = _hidden_fields(form)
        number = next((value for name, value in fields if name == "page"), "")
        if number.isdecimal():
            forms.append(_PagerForm(form, int(number), fields))
    current = _current_page(forms)
    if current is None:
        return None
    return next((form.fields for form in forms if form.number == current + 1), None)


@dataclass(frozen=True)
class _PagerForm:
    """One pager form that posts a page: the element, its ``page`` and hidden inputs."""

    element: Element
    number: int
    fields: list[tuple[str, str]]

    @property
    def numbered(self) -> bool:
        """Whether its button reads its page number (not a word such as "Next")."""
        button = next(self.element.iter("button"), None)
        return button is not None and text_of(button) == str(self.number)


def _current_page(forms: list[_PagerForm]) -> int | None:
    """The page the pager marks as the one shown, by the first signal that names one.

    The capture marks it three ways, and only the first is English: (1) the form's
    ``aria-label`` reads ``current page N``; (2) its ``class`` is the only one among the
    numbered forms (1 has ``css-1y4ij50``, 2 to 5 share ``css-eaucvd``), which needs at
    least three numbered forms to be unambiguous; (3) the pager ends in a form whose button
    is a word, not a number ("Next", posting ``page=2``), so the current page is one
    before it. A Startpage page in another language keeps (2) and (3). No capture shows a
    "Previous" button; one is assumed to come before the numbers, as pagers put it.
    """
    for form in forms:
        if _CURRENT_PAGE.match(form.element.get("aria-label") or ""):
            return form.number
    numbered = [form for form in forms if form.numbered]
    classes = Counter(form.element.get("class") or "" for form in numbered)
    odd = [form for form in numbered if classes[form.element.get("class") or ""] == 1]
    if len(odd) == 1 and len(numbered) >= 3:
        return odd[0].number
    if numbered and not forms[-1].numbered:
        before = forms[-1].number - 1
        return before if any(form.number == before for form in numbered) else None
    return None


def _in_pager(form: Element) -> bool:
    return any(has_class(ancestor, _PAGER_CLASS) for ancestor in form.iterancestors())


def _is_search_action(action: str) -> bool:
    url = resolve_href(action, STARTPAGE_HOME_URL)
    if url is None:
        return False
    parts = urlsplit(url)
    return _is_startpage_host(parts.hostname) and parts.path.rstrip("/") == "/sp/search"


def _is_startpage_host(host: str | None) -> bool:
    host = (host or "").lower()
    return host == "startpage.com" or host.endswith(".startpage.com")


def is_challenge_url(url: str) -> bool:
    """Whether the final URL is a Startpage CAPTCHA or error page."""
    return bool(_CHALLENGE_URL.search(urlsplit(url).path)) if url else False


def is_challenge_page(document: Element, page: str | bytes) -> bool:
    """Whether a page without results is the CAPTCHA (see the module notes).

    ``page`` is the page's text or the UTF-8 body it decodes from (the whole text is then
    never built: see :func:`~._page_markers.found`).
    """
    for element in document.iter("a", "form", "iframe", "script", "link"):
        target = element.get("href") or element.get("action") or element.get("src") or ""
        if _CHALLENGE_MARKER.search(target):
            return True
    if is_no_results_page(document):
        return False
    return found(page, _CHALLENGE_TEXT)


def is_no_results_page(document: Element) -> bool:
    for element in document.iter():
        if isinstance(element.tag, str) and _NO_RESULTS_CLASS.search(element.get("class") or ""):
            return True
    body = select_first(_BODY, document)
    return body is not None and text_matches(body, _NO_RESULTS_TEXT, _NO_RESULTS_SPAN)


def result_url(href: str) -> str | None:
    """The result link as an absolute ``http(s)`` URL off Startpage, or ``None``.

    Example:
        >>> result_url("https://www.w3schools.com/js/")
        'https://www.w3schools.com/js/'
        >>> result_url("https://us2-browse.startpage.com/av/proxy?ep=1") is None
        True
    """
    found = resolve_link(href, STARTPAGE_HOME_URL)
    if found is None or _is_startpage_host(found[1].hostname):
        return None
    url = found[0]
    return url


def _split_date(snippet: str) -> tuple[str, str | None]:
    match = _LEADING_DATE.match(snippet)
    if match is None:
        return snippet, None
    return trim(snippet[match.end() :]), match.group("date")


def _first_with_class(elements: Iterator[Element], name: str) -> Element | None:
    return next((element for element in elements if has_class(element, name)), None)


def parse_block(block: Element) -> SearchSource | None:
    # Walks over the block's few links and paragraphs (``a.result-link[href]``,
    # ``p.description``) cost less than compiled selectors on each block.
    anchor = next(
        (a for a in block.iter("a") if a.get("href") is not None and has_class(a, "result-link")),
        None,
    )
    if anchor is None:
        return None
    url = result_url(anchor.get("href", ""))
    if url is None:
        return None
    heading = next(anchor.iter("h2", "h3"), None)
    title = text_of(heading) if heading is not None else ""
    description = _first_with_class(block.iter("p"), "description")
    snippet, date = _split_date(text_of(description) if description is not None else "")
    return scraped_source(title=title or text_of(anchor), url=url, snippet=snippet, date=date)
