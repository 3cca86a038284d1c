"""How the key-free HTML engines read pages: shared helpers and the CSS results-page reader.

The engines themselves are descriptions run by one provider
(:mod:`websearch_core.providers._html_engine`); what they share to read a page lives here:

* :class:`ResultPage`: how a CSS-selected results page reads, as data (challenge URL,
  result blocks, then for a page without blocks: challenge, genuine "no results", or an
  unrecognised page), giving an engine its ``check`` and ``read``.
* :class:`PageResults`: what one page gave (sources, the next page's request).
* :func:`find_blocks`: the result blocks of a page (a ``tag.class`` selector runs as a
  cheap prefilter plus the exact class test).
* :func:`collect_unique`: parse each result block (the first ``MAX_RESULT_ITEMS`` of a
  page), drop the unusable ones, de-duplicate by URL in page order, optionally stopping at
  a count.
* :func:`scraped_source`: a result with the scrapers' conventions (the URL stands in for a
  missing title, a written date also gives the age).
* :func:`decode_uri_component`: a redirect parameter percent-decoded strictly, as the
  reference's ``decodeURIComponent`` does.
* :func:`check_html_status`: the shared status classifier with the scrapers' fallback text
  ``<Label> HTML error (<status>)``.
* :class:`KeylessProvider`: always available (nothing to configure).

The module is private (leading underscore), so the registry's contract test does not read
it as a provider.
"""

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from functools import cache, lru_cache
from itertools import islice
from typing import Any, TypeVar, cast
from urllib.parse import unquote, unquote_to_bytes

from ..errors import ChallengeError, ResponseParseError
from ..html import (
    Element,
    body_page,
    css,
    has_class,
    parse_page_text,
    select,
)
from ..models import SearchParams, SearchSource
from ..transport import HttpRequest, HttpResponse, raise_for_status
from ._common import MAX_RESULT_ITEMS, age_seconds_from_date
from .base import ProviderContext, ProviderInfo, SearchProvider, clamp_count

__all__ = [
    "KeylessProvider",
    "PageResults",
    "ResultPage",
    "check_html_status",
    "collect_unique",
    "decode_uri_component",
    "find_blocks",
    "result_count",
    "scraped_source",
]

Block = TypeVar("Block")

_BAD_PERCENT = re.compile(r"%(?![0-9A-Fa-f]{2})")


def decode_uri_component(value: str) -> str | None:
    """``value`` percent-decoded strictly, like JavaScript's ``decodeURIComponent``.

    A ``%`` not followed by two hex digits, or escapes that are not UTF-8, give ``None``
    (where JavaScript throws), so the scraper drops the result.

    Example:
        >>> decode_uri_component("https%3A%2F%2Fexample.org%2F"), decode_uri_component("100%")
        ('https://example.org/', None)
    """
    if "%" not in value:
        return value  # nothing escaped: unquote returns it as it is
    if _BAD_PERCENT.search(value):
        return None
    try:
        if value.isascii():  # unquote's one ASCII run, without its run-splitting regex
            return unquote_to_bytes(value).decode("utf-8")
        return unquote(value, errors="strict")
    except UnicodeDecodeError:
        return None


_TAG_DOT_CLASS = re.compile(r"([a-z][a-z0-9]*)\.([A-Za-z_][A-Za-z0-9_-]*)")


@lru_cache(maxsize=64)
def _block_finder(selector: str) -> Callable[[Element], list[Element]]:
    simple = _TAG_DOT_CLASS.fullmatch(selector)
    if simple is None:
        compiled = css(selector)
        return lambda document: select(compiled, document)
    tag, name = simple.groups()
    return lambda document: [
        element
        for element in document.iter(tag)
        if name in (element.get("class") or "") and has_class(element, name)
    ]


def find_blocks(selector: str, document: Element) -> list[Element]:
    """The elements ``selector`` matches in ``document``, in document order.

    A ``tag.class`` selector (every engine's block selector) walks the page's elements of
    that tag, tests the class attribute for the name as a substring, then the exact
    class-name test on the few candidates. The compiled CSS selector normalises and pads
    every candidate's class attribute in XPath, about three times the cost on a large
    page; even an XPath ``contains()`` prefilter costs more than this walk (libxml2 visits
    every node of the page, the walk only the elements of one tag). Anything else runs as
    the compiled CSS selector.

    Example:
        >>> from ..html import parse_document
        >>> page = parse_document('<li class="b_algo x">a</li><li class="b_algox">b</li>')
        >>> [li.text for li in find_blocks("li.b_algo", page)]
        ['a']
    """
    return _block_finder(selector)(document)


def collect_unique(
    blocks: Iterable[Block],
    parse_block: Callable[[Block], SearchSource | None],
    limit: int | None = None,
) -> list[SearchSource]:
    """The sources of ``blocks`` in order, unusable blocks dropped, URLs de-duplicated exactly.

    Only the first :data:`~._common.MAX_RESULT_ITEMS` blocks are read, whatever ``limit``:
    a page of one result repeated thousands of times would otherwise have each repeat
    parsed before it is dropped as a duplicate.

    Args:
        blocks: The page's result blocks, in page order.
        parse_block: Turns one block into a source, or ``None`` to drop it (an ad, a link
            off the web, a block without a title).
        limit: Stop once this many sources are collected; ``None`` reads every block.

    Example:
        >>> collect_unique(
        ...     ["https://a.example/", "x", "https://a.example/", "https://b.example/"],
        ...     lambda url: SearchSource(title=url, url=url) if url.startswith("http") else None,
        ... ) == [
        ...     SearchSource(title="https://a.example/", url="https://a.example/"),
        ...     SearchSource(title="https://b.example/", url="https://b.example/"),
        ... ]
        True
    """
    sources: list[SearchSource] = []
    seen: set[str] = set()
    for block in islice(blocks, MAX_RESULT_ITEMS):
        source = parse_block(block)
        if source is None or source.url in seen:
            continue
        seen.add(source.url)
        sources.append(source)
        if limit is not None and len(sources) >= limit:
            break
    return sources


_SOURCE_FIELDS = {
    "title": str,
    "url": str,
    "snippet": str | None,
    "published_date": str | None,
    "age_seconds": int | None,
}
"""The fields a scraper sets, with the plain types a trusted source must declare for them."""
_SET_FIELDS = set(_SOURCE_FIELDS)
"""What ``model_fields_set`` holds for a source built with all of them (copied per source)."""
_PLAIN_CONFIG = frozenset({"frozen", "extra", "defer_build"})
"""Model settings that change nothing validation does to a value (``str_strip_whitespace``,
``strict`` and the like would)."""


def _slot_setter(name: str) -> Callable[[SearchSource, Any], None]:
    """The setter of the instance slot ``name`` of :class:`SearchSource` (pydantic's).

    Calling the slot's descriptor directly skips ``object.__setattr__``'s lookup of the
    name through the class hierarchy on every call (about 0.3 us a source over the four
    slots); a slot not found as a data descriptor is set through ``object.__setattr__``.
    """
    for klass in SearchSource.__mro__:
        found = klass.__dict__.get(name)
        if found is not None:
            setter = getattr(found, "__set__", None)
            if setter is not None:
                return cast(Callable[[SearchSource, Any], None], setter)
            break
    return lambda source, value: object.__setattr__(source, name, value)


_new_object = object.__new__
_set_dict = _slot_setter("__dict__")
_set_fields_set = _slot_setter("__pydantic_fields_set__")
_set_extra = _slot_setter("__pydantic_extra__")
_set_private = _slot_setter("__pydantic_private__")


@cache
def _source_defaults() -> dict[str, Any] | None:
    """The values validation gives a source's other fields, or ``None`` if it must validate.

    A source built from values of exactly these types is what validation would build
    only while the model checks nothing beyond the types: no validator, no constraint,
    no alias, no setting that rewrites values, no extra fields kept, no hook after
    construction. Read once, from the model itself (so a field added later is filled
    with its validated default); if the model ever gains such a check, every source is
    validated again.
    """
    fields = SearchSource.model_fields
    decorators = SearchSource.__pydantic_decorators__
    checks = (
        decorators.validators,
        decorators.field_validators,
        decorators.root_validators,
        decorators.model_validators,
    )
    plain = all(
        name in fields
        and fields[name].annotation == annotation
        and not fields[name].metadata
        and fields[name].alias is None
        and fields[name].validation_alias is None
        for name, annotation in _SOURCE_FIELDS.items()
    )
    config = SearchSource.model_config
    plain_config = set(config) <= _PLAIN_CONFIG and config.get("extra") != "allow"
    if not plain or not plain_config or any(checks) or SearchSource.__pydantic_post_init__:
        return None
    return dict(SearchSource(title="", url="").__dict__)


def scraped_source(
    *,
    title: str,
    url: str,
    snippet: str = "",
    date: str | None = None,
    now: datetime | None = None,
) -> SearchSource:
    """One scraped result, with the conventions every scraper follows.

    A result without a readable title shows its URL instead, an empty snippet is no
    snippet, and a date as the page wrote it also gives the result's age (``None`` for a
    relative date such as ``2 days ago``, which stays as text). The age is measured from
    ``now`` (aware; default: the current time): a page's reader passes one instant, so
    every result of the page is aged from the same moment and the clock is read once a
    page rather than once a dated result.

    Every scraped result is built here, and validating a source costs 1.3-2 us (about
    an eighth of reading a DuckDuckGo result). Values of exactly the declared types pass
    validation unchanged, so for them the source is assembled as pydantic's
    ``model_construct`` does (the same ``__dict__`` and fields set, no extras), without
    its general Python loop (8 us). Anything else (a ``str`` subclass, a model that now
    checks more than types) goes through validation.

    Example:
        >>> scraped_source(title="", url="https://a.example/").title
        'https://a.example/'
    """
    title = title or url
    text = snippet or None
    age = age_seconds_from_date(date, now=now) if date else None  # no date, no age, no call
    defaults = _source_defaults()
    if (
        defaults is None
        or type(title) is not str
        or type(url) is not str
        or (text is not None and type(text) is not str)
        or (date is not None and type(date) is not str)
        or (age is not None and type(age) is not int)
    ):
        return SearchSource(
            title=title, url=url, snippet=text, published_date=date, age_seconds=age
        )
    values = defaults.copy()
    values["title"] = title
    values["url"] = url
    values["snippet"] = text
    values["published_date"] = date
    values["age_seconds"] = age
    source = _new_object(SearchSource)
    _set_dict(source, values)
    _set_fields_set(source, _SET_FIELDS.copy())
    _set_extra(source, None)
    _set_private(source, None)
    return source


def check_html_status(info: ProviderInfo, response: HttpResponse) -> None:
    """Raise for a non-2xx status: the shared classifier, else ``<Label> HTML error (<status>)``.

    A scraper's error body is an HTML page, not a message worth quoting, so unlike the API
    providers' text the body is left out.
    """
    raise_for_status(info.id, response, f"{info.label} HTML error ({response.status})")


def result_count(info: ProviderInfo, params: SearchParams) -> int:
    """How many sources a scraper keeps: ``num_search_results or limit`` within its range.

    Raises:
        TypeError: ``info`` gives no ``default_results``/``max_results`` (a programming error
            in the provider module, caught by its first test).
    """
    if info.default_results is None or info.max_results is None:
        raise TypeError(f"{info.id}: a scraper's ProviderInfo needs default and max results")
    return clamp_count(params.result_count, info.default_results, info.max_results)


class PageResults:
    """What one results page gave: its sources in page order, and the next page's request.

    The next request is given as it is (``next_request``) or as the function that reads it
    from the page (``next_from_page``), called only when the engine asks for another page:
    most searches want one page, and an engine whose next request is read from the page's
    own form (DuckDuckGo) then never reads it.
    """

    __slots__ = ("_next", "_next_from_page", "sources")

    def __init__(
        self,
        sources: list[SearchSource],
        next_request: HttpRequest | None = None,
        *,
        next_from_page: Callable[[], HttpRequest | None] | None = None,
    ) -> None:
        """Keep the page's ``sources`` and its next request, or how to read it."""
        self.sources = sources
        self._next = next_request
        self._next_from_page = next_from_page

    @property
    def next_request(self) -> HttpRequest | None:
        """The next page's request, if the page has one (read from the page once)."""
        if self._next_from_page is not None:
            self._next, self._next_from_page = self._next_from_page(), None
        return self._next


@dataclass(frozen=True, slots=True, kw_only=True)
class ResultPage:
    """How one engine's CSS-selected results page reads, as data plus small pure functions.

    The flow (:meth:`parse`) is the same for every such engine; only these facts differ.
    """

    info: ProviderInfo
    block_selector: str
    """Selects the result blocks (``li.b_algo`` on Bing); see :func:`find_blocks`."""
    parse_block: Callable[[Element], SearchSource | None]
    """One block to a source, or ``None`` to drop it."""
    is_challenge_url: Callable[[str], bool]
    """Whether the final URL alone shows a challenge (a CAPTCHA or consent redirect)."""
    is_challenge_page: Callable[[Element, str | bytes], bool]
    """Whether a page without result blocks is a challenge: ``(document, page)``, the page
    as its text or as the UTF-8 body it decodes from (the answer the same either way)."""
    is_no_results_page: Callable[[Element], bool]
    """Whether a page without result blocks is the engine's genuine "no results" page."""
    challenge_message: str
    unrecognised_message: str
    challenge_before_status: bool = True
    """Whether :meth:`check` looks for a challenge before the status (a CAPTCHA served with
    an error status must still read as a challenge); Yahoo checks only the status."""
    next_page: Callable[[Element], HttpRequest | None] | None = None
    """The request for the page after a results page, read from its document (its pager);
    ``None`` for an engine read one page at a time."""

    def parse(
        self, page: str, final_url: str = "", *, source: bytes | None = None
    ) -> list[SearchSource]:
        """Parse one results page (pure): its sources in page order, URLs de-duplicated.

        Args:
            page: The decoded body of a 2xx response.
            final_url: The URL the response came from after redirects.
            source: The body ``page`` came from, as :func:`~websearch_core.html.decoded_page`
                gives it (parsed instead of ``page``, for the same tree).

        Raises:
            ChallengeError: A challenge instead of results.
            ResponseParseError: Neither results, nor a "no results" page, nor a challenge.
        """
        return self._parse_document(page, final_url, source=source)[0]

    def _parse_document(
        self, page: str | bytes, final_url: str, *, source: bytes | None = None
    ) -> tuple[list[SearchSource], Element]:
        """:meth:`parse`, and the document it read (for the next-page link).

        ``page`` may also be the body itself, as :func:`~websearch_core.html.utf8_source`
        hands it on: it is parsed as it is and handed on as it is to
        :attr:`is_challenge_page`, which looks for its markers in the bytes, so no page,
        with results or without, builds its whole text.
        """
        if self.is_challenge_url(final_url):
            raise ChallengeError(self.info.id, self.challenge_message)
        document = parse_page_text(page, source=source)
        blocks = find_blocks(self.block_selector, document)
        if not blocks:
            if self.is_challenge_page(document, page):
                raise ChallengeError(self.info.id, self.challenge_message)
            if self.is_no_results_page(document):
                return [], document
            raise ResponseParseError(self.info.id, self.unrecognised_message, 502)
        return collect_unique(blocks, self.parse_block), document

    def check(self, response: HttpResponse) -> None:
        """Raise for a challenge (when checked first), then for a non-2xx status."""
        if self.challenge_before_status:
            self._check_challenge(response)
        check_html_status(self.info, response)

    def read(self, response: HttpResponse) -> PageResults:
        """:meth:`parse` of a response, as :attr:`HtmlEngine.read`, with the next page's request.

        The next page is read only when the engine has a pager (:attr:`next_page`) and the
        page had results.
        """
        sources, document = self._parse_document(body_page(response.body), response.url)
        if self.next_page is None or not sources:
            return PageResults(sources)
        return PageResults(sources, self.next_page(document))

    def _check_challenge(self, response: HttpResponse) -> None:
        if self.is_challenge_url(response.url):
            raise ChallengeError(self.info.id, self.challenge_message)
        if 200 <= response.status < 300:
            return  # a 2xx page is judged by parse, which sees whether it has results
        page = body_page(response.body)
        document = parse_page_text(page)
        blocks = find_blocks(self.block_selector, document)
        if not blocks and self.is_challenge_page(document, page):
            raise ChallengeError(self.info.id, self.challenge_message)


class KeylessProvider(SearchProvider):
    """A provider that needs no key, so the auto chain may always use it."""

    def is_available(self, context: ProviderContext) -> bool:
        """Always: a key-free scraper has nothing to configure."""
        return True
