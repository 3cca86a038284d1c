r"""What upstream text must pass before a model, a terminal or the cache sees it.

Applied by the core to every provider's response, whatever the provider, so no adapter has
to remember it:

* **Counts:** at most ``min(count, provider max)`` sources (the count being
  ``num_search_results``, else ``limit``), and bounded citations, related
  questions and search queries, however many results an upstream sends.
* **Text:** C0/C1 control characters (ESC and BEL among them, with the terminal sequences
  they start), bidirectional overrides and lone surrogates are removed from titles,
  snippets, answers, the page text a provider sent with a result (Tavily, Exa, Firecrawl,
  Jina), the ``model`` and ``request_id`` it reported and the response's ``notes``
  (upstream text too: an engine's reason, a warning); line breaks and tabs are kept
  where text may have them.
* **Lengths:** one-line text the model reads (source and citation titles, authors, a
  page's site name, related questions and search queries) is cut to :data:`LINE_LIMIT`
  UTF-16 units and a date to :data:`DATE_LIMIT`, ``…`` last: Brave's documented title and
  date rule, for every provider, so no upstream fills an agent's context through one field.
  The rest of what a response carries is bounded too, each by what it is: an answer to
  :data:`ANSWER_LIMIT` (the cut said in it, :data:`ANSWER_CUT_MARK`), a snippet or cited
  text kept in the details and the cache to :data:`KEPT_SNIPPET_LIMIT`, a note to
  :data:`NOTE_LIMIT` (and the notes to :data:`MAX_NOTES`, the last saying how many more
  there were), the ``model``, the ``request_id``, a result's ``category`` and each of its
  ``engines``' names to :data:`ID_LIMIT` (at most :data:`MAX_LIST_ITEMS` engines), and the
  page text a
  provider sent with a result to :data:`PAGE_TEXT_LIMIT`, as a fetched page's body is (the
  cut said in it, :data:`PAGE_CUT_MARK`). Secrets are masked first, so a cut never leaves
  a key's head showing.
* **URLs:** a source or citation URL must be absolute ``http(s)`` with a host, no userinfo
  and nothing around it, and at most :data:`URL_LIMIT` characters; otherwise the entry is
  dropped (a URL cannot be cut: its head is another address).
* **Secrets:** every shape of every credential (:mod:`websearch_core.redaction`) is masked,
  so a key echoed in a 200 body never reaches the model or the cache.

Example:
    >>> clean_text("\x1b]0;pwned\x07Title\u202e here\x1b[2J")
    'Title here'
    >>> is_clean_url("https://user:pw@example.com/"), is_clean_url("https://example.com/a")
    (False, True)
"""

import re
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar
from urllib.parse import urlsplit

from pydantic import BaseModel

from .content.models import PageContent
from .control_chars import (
    BIDI,
    CONTROL_IN_LINE,
    CONTROL_IN_TEXT,
    ESCAPE_SEQUENCE,
    SURROGATES,
    utf8_holds_control,
)
from .models import SearchCitation, SearchParams, SearchResponse, SearchSource, SourceRank
from .note_bound import MAX_NOTES, bounded_notes, own_notes
from .redaction import Redactor
from .utf16_text import truncate_text, utf16_len

__all__ = [
    "ANSWER_CUT_MARK",
    "ANSWER_LIMIT",
    "DATE_LIMIT",
    "ID_LIMIT",
    "KEPT_SNIPPET_LIMIT",
    "LINE_LIMIT",
    "MAX_CITATIONS",
    "MAX_NOTES",
    "MAX_SOURCES",
    "NOTE_LIMIT",
    "PAGE_CUT_MARK",
    "PAGE_TEXT_LIMIT",
    "URL_LIMIT",
    "clean_response",
    "clean_text",
    "cut_line",
    "is_clean_url",
    "lists_left_out",
    "source_cap",
]

_Linked = TypeVar("_Linked", SearchSource, SearchCitation)

MAX_SOURCES = 100
"""The most sources any response keeps when neither the caller nor the provider says less."""
MAX_CITATIONS = 100
MAX_LIST_ITEMS = 20
"""Related questions and search queries kept; how many more there were is kept beside them
(:func:`lists_left_out`), so the text's counts stay the provider's."""
LINE_LIMIT = 300
"""UTF-16 units of one-line upstream text kept, ``…`` included: Brave's documented title cut
(``299`` and ``…``), the one rule any provider's reference gives for a title."""
DATE_LIMIT = 100
"""UTF-16 units of a published date kept: Brave's documented date cut. A date is short; a
longer one is text a provider put where a date belongs."""
ANSWER_LIMIT = 100_000
"""UTF-16 units of an answer kept, :data:`ANSWER_CUT_MARK` included. The answer is the point
of an answer engine, so the bound is generous: about 25,000 tokens, three times the 8,192
Perplexity is asked for by default (the largest budget the spec sends), so no answer a
provider was asked for is cut, while a runaway or hostile one (a megabyte) cannot fill the
model's context, the command's JSON or the cache."""
ANSWER_CUT_MARK = f"\n\n[Answer cut: longer than {ANSWER_LIMIT:,} characters.]"
"""Ends an answer cut to :data:`ANSWER_LIMIT` (after the head kept and ``…``): the
model and a program reading the details are told that more was sent, not left to take the
head for the whole."""
KEPT_SNIPPET_LIMIT = 10_000
"""UTF-16 units of a snippet or cited text kept in the details and the cache (the model's
text cuts it to 240): Parallel's documented per-result excerpt cap
(``max_chars_per_result``), the largest a provider documents (Brave's is 8,000)."""
NOTE_LIMIT = 1_000
"""UTF-16 units of one note kept. A note quotes upstream text (an engine's reason, a
warning) after the core's own words, which are far shorter."""
PAGE_TEXT_LIMIT = 10 * 1024 * 1024
"""UTF-16 units of a provider-sent page's text (and of its Markdown) kept,
:data:`PAGE_CUT_MARK` included: the fetch path's rule for the same kind of text. A fetched
page's body is read to at most 10 MiB (``content.fetch.DEFAULT_MAX_PAGE_BYTES``, said in the
README), and each UTF-16 unit of its text took at least one byte of it, so no fetched page
is longer; a page Tavily, Exa, Firecrawl or Jina sent is held to the same size."""
PAGE_CUT_MARK = f"\n\n[Page text cut: longer than {PAGE_TEXT_LIMIT:,} characters.]"
"""Ends a provider-sent page cut to :data:`PAGE_TEXT_LIMIT` (after the head kept and ``…``),
so a program reading the details or the cache never takes the head for the whole page."""
ID_LIMIT = 100
"""UTF-16 units of the ``model`` and ``request_id`` kept: each is one short token (a model
name, a UUID, ``resp_`` and 48 hex digits); a longer one is text put where an id belongs.
A result's ``category`` and an engine's name (SearXNG's ``general``, ``duckduckgo``) are
such tokens too."""
URL_LIMIT = 8_000
"""Characters of a source or citation URL kept; a longer one drops its entry. RFC 9110
(section 4.1) recommends that senders and recipients support URIs of at least 8,000
octets, so no address a client is expected to open is longer; one that is would fill the
model's text, ``--json`` and the cache through one field, and cannot be cut."""
_GROUP_CHARACTERS = 1 << 18
"""Characters of multi-line text checked at once for cleaning: each of the check's copies
of a group is at most 1 MiB (four bytes a character), however much text a response has."""

_URL_FORBIDDEN = re.compile(f"[\\x00-\\x20\\x7f-\\x9f{BIDI}\\u200b-\\u200f\\ufeff{SURROGATES}]")
_URL_FORBIDDEN_ASCII = bytes([*range(0x21), 0x7F])
"""The ASCII characters :data:`_URL_FORBIDDEN` matches (all its others are non-ASCII)."""


_USERINFO = re.compile(r"(?i)\b(https?://)[^\s/?#@\[\]]+@")
_ANY_USERINFO = re.compile(r"://[^\s/?#@\[\]]+@")
"""Matches wherever :data:`_USERINFO` does (and a little more); starting with a literal, it
scans text several times faster than the case-insensitive pattern."""
_PLAIN_URL = re.compile(r"(?i)https?://[a-z0-9.-]+(?::[0-9]{1,4})?(?:[/?#]|\Z)")
"""An http(s) URL whose host is a plain name or IPv4 address with an optional short port
(always valid): :func:`is_clean_url` accepts it without ``urlsplit``. Anything else (IPv6,
non-ASCII hosts, userinfo, long ports) takes the full check."""
_PLAIN_URLS = re.compile(
    r"(?:[hH][tT][tT][pP][sS]?://[a-zA-Z0-9.-]++(?::[0-9]{1,4})?+(?:[/?#][^ ]*+)?+ )++"
)
"""URLs without spaces, each followed by a space, each of which :data:`_PLAIN_URL`
matches: one ``fullmatch`` for a whole response. ASCII letters only (the
case-insensitive ``[a-z]`` also takes a few non-ASCII letters), so it accepts less, never
more. The quantifiers are possessive because giving back a character can never help
here: the host, port and path each end at a character they cannot take (``:``,
``[/?#]``, a space), so a shorter run would leave one of their own characters next,
which nothing after them accepts. Possessive, the engine keeps no backtracking state per
URL (a third faster on a results page)."""


def cut_line(text: str, mask: Callable[[str], str] | None = None) -> str:
    """``text`` cut to :data:`LINE_LIMIT` UTF-16 units, ``mask``ed first when it is cut.

    For a parser that puts a one-line text inside a longer one (a title an answer repeats),
    where the cleaning of the whole never sees the cut: a key across the cut, masked only
    afterwards, would leave its first characters, too few for the mask's head rule. Masked
    first, it is masked whole, as :meth:`_TextCleaner.line` does. A text within the limit
    is left to the cleaning of the whole (the mask is not even asked).

    Example:
        >>> title = "a" * 296 + "sk-0123"
        >>> cut_line(title)[-5:], cut_line(title, lambda t: t.replace("sk-0123", "***"))[-5:]
        ('ask-…', 'aa***')
    """
    if mask is None or utf16_len(text) <= LINE_LIMIT:
        return truncate_text(text, LINE_LIMIT)
    return truncate_text(mask(text), LINE_LIMIT)


def clean_text(text: str, *, multiline: bool = False) -> str:
    """``text`` without terminal escapes, control characters or bidi overrides.

    Args:
        text: Upstream text.
        multiline: Keep line feeds, carriage returns and tabs (snippets and answers).
    """
    if not text:
        return text
    if "\x1b" in text or "\x9b" in text:
        text = ESCAPE_SEQUENCE.sub("", text)
    pattern = CONTROL_IN_TEXT if multiline else CONTROL_IN_LINE
    text = pattern.sub("", text)
    if "@" in text:  # credentials in a link (``https://user:pw@host``) never reach a model
        text = _USERINFO.sub(r"\1", text)
    return text


def is_clean_url(url: str) -> bool:
    """Whether ``url`` is absolute http(s) with a host, no userinfo and nothing around it."""
    if not url or len(url) > URL_LIMIT or _URL_FORBIDDEN.search(url):
        return False
    if _PLAIN_URL.match(url):
        return True  # what urlsplit would accept, read in one match (most URLs)
    try:
        parts = urlsplit(url)
        port = parts.port  # raises for a malformed port
    except ValueError:
        return False
    del port
    return (
        parts.scheme.lower() in ("http", "https")
        and bool(parts.hostname)
        and "@" not in parts.netloc
    )


def source_cap(params: SearchParams, provider_max: int | None, *, limit_only: bool = False) -> int:
    """The most sources a response to ``params`` may carry from a provider.

    The caller's count as the spec collapses it (``num_search_results``, else ``limit``) and
    the provider's documented maximum, never more than :data:`MAX_SOURCES`; whatever an
    upstream sends.

    Args:
        params: The caller's search.
        provider_max: The provider's documented most results, if it has one.
        limit_only: Count ``limit`` alone: for a provider whose ``num_search_results`` is
            upstream breadth, not a cut (``ProviderInfo.sources_cut_by_limit``).

    Example:
        >>> asked = SearchParams(query="q", limit=4, num_search_results=2)
        >>> source_cap(asked, None), source_cap(asked, None, limit_only=True)
        (2, 4)
    """
    count = params.limit if limit_only else params.result_count
    cap = MAX_SOURCES
    for bound in (count, provider_max):
        if bound and bound < cap:
            cap = bound
    return cap


def clean_response(
    response: SearchResponse, *, cap: int, redactor: Redactor | None = None
) -> SearchResponse:
    """``response`` capped, with clean text and URLs, and every secret masked.

    Args:
        response: What the provider parsed.
        cap: The most sources to keep (see :func:`source_cap`).
        redactor: Masks credentials; ``None`` when the call used none.
    """
    cleaned = _cleaned(response, cap, redactor)
    if (
        len(response.related_questions) <= MAX_LIST_ITEMS
        and len(response.search_queries) <= MAX_LIST_ITEMS
    ):
        return cleaned
    return cleaned.model_copy(update=lists_left_out(response))


def lists_left_out(response: SearchResponse) -> dict[str, int]:
    """How many related questions and search queries a cut to :data:`MAX_LIST_ITEMS` leaves out.

    The spec's counts (``## Related``'s ``<n> questions``, ``Search queries: <n>``) are what
    the provider sent; the lists are kept bounded, so the counts left out are kept beside
    them (folded into any count ``response`` carries) and the text adds them back.

    Example:
        >>> asked = SearchResponse(provider="p", search_queries=tuple("q" * 25))
        >>> lists_left_out(asked)
        {'related_questions_left_out': 0, 'search_queries_left_out': 5}
    """
    questions = max(len(response.related_questions) - MAX_LIST_ITEMS, 0)
    queries = max(len(response.search_queries) - MAX_LIST_ITEMS, 0)
    return {
        "related_questions_left_out": response.related_questions_left_out + questions,
        "search_queries_left_out": response.search_queries_left_out + queries,
    }


def _cleaned(response: SearchResponse, cap: int, redactor: Redactor | None) -> SearchResponse:
    """:func:`clean_response` but for the counts of list items left out."""
    reachable, sources_plain = _reachable(response, cap)
    lines, blocks, urls, too_long = _texts(reachable)
    if not too_long and not _texts_need_cleaning(lines, blocks, urls, redactor):
        # The URLs the check joined are the quick pass's too (the sources' come first).
        return _capped(reachable, cap, sources_plain=sources_plain, urls=urls)
    clean = _TextCleaner(redactor)
    sources = tuple(map(clean.source, _first_kept(response.sources, cap, clean.keeps_url)))
    citations = tuple(
        map(clean.citation, _first_kept(response.citations, MAX_CITATIONS, clean.keeps_url))
    )
    update = _changed(
        response,
        answer=clean.answer(response.answer),
        sources=sources,
        citations=citations,
        related_questions=tuple(map(clean.line, response.related_questions[:MAX_LIST_ITEMS])),
        search_queries=tuple(map(clean.line, response.search_queries[:MAX_LIST_ITEMS])),
        model=clean.optional_line(response.model, ID_LIMIT),
        request_id=clean.optional_line(response.request_id, ID_LIMIT),
        **clean.notes(response),
    )
    return response.model_copy(update=update) if update else response


class _TextCleaner:
    """The full pass's rules: text without control characters, then every secret masked.

    Args:
        redactor: Masks credentials; ``None`` when the call used none.
    """

    __slots__ = ("_mask",)

    def __init__(self, redactor: Redactor | None) -> None:
        self._mask: Callable[[str], str] = redactor.in_response if redactor else _same

    def line(self, text: str, limit: int = LINE_LIMIT) -> str:
        """One-line text (titles, names), cut to ``limit`` UTF-16 units.

        Masked before it is cut: a key across the cut is masked whole, never shown in part.
        """
        return truncate_text(self._mask(clean_text(text)), limit)

    def optional_line(self, text: str | None, limit: int = LINE_LIMIT) -> str | None:
        """:meth:`line` for a field that may be absent."""
        return self.line(text, limit) if text else text

    def block(self, text: str | None, limit: int | None = None) -> str | None:
        """Text that keeps its line breaks and tabs (snippets, answers, page text).

        Args:
            text: Upstream text, if any.
            limit: UTF-16 units kept, ``…`` last (masked first, as :meth:`line` is);
                ``None`` keeps it whole (a provider-sent page).
        """
        if not text:
            return text
        kept = self._mask(clean_text(text, multiline=True))
        return kept if limit is None else truncate_text(kept, limit)

    def answer(self, text: str | None) -> str | None:
        """An answer: :meth:`block`, cut to :data:`ANSWER_LIMIT` UTF-16 units.

        The cut ends in ``…`` and :data:`ANSWER_CUT_MARK`, so whoever reads it knows it
        is not the whole answer. It falls where the limit does, not at a word: the head of
        text with one megabyte-long word would keep nothing of it.
        """
        return _cut_said(self.block(text), ANSWER_LIMIT, ANSWER_CUT_MARK)

    def notes(self, response: SearchResponse) -> dict[str, object]:
        """``notes`` each a :meth:`line` of :data:`NOTE_LIMIT`, at most :data:`MAX_NOTES`.

        Past :data:`MAX_NOTES` the first ones are kept and a last note says how many more
        there were (:func:`~websearch_core.note_bound.bounded_notes`, a count an engine's
        cut said folded in), so the cut is told, not hidden; only the kept ones are cleaned.
        The count is ``response``'s own field, never read from a note (a provider's note
        may read ``3 more notes were left out.``).
        """
        notes, left_out = bounded_notes(own_notes(response), (), response.notes_left_out)
        return {
            "notes": tuple(self.line(note, NOTE_LIMIT) for note in notes),
            "notes_left_out": left_out,
        }

    def keeps_url(self, url: str) -> bool:
        """Whether a source or citation with ``url`` is kept: clean, and holding no secret."""
        return is_clean_url(url) and self._mask(url) == url

    def source(self, source: SearchSource) -> SearchSource:
        """``source`` with its texts and provider-sent page cleaned (itself when unchanged)."""
        update = _changed(
            source,
            title=self.line(source.title),
            snippet=self.block(source.snippet, KEPT_SNIPPET_LIMIT),
            published_date=self.optional_line(source.published_date, DATE_LIMIT),
            author=self.optional_line(source.author),
            content=self.page(source.content),
            category=self.optional_line(source.category, ID_LIMIT),
            engines=self.engines(source.engines),
        )
        return source.model_copy(update=update) if update else source

    def engines(self, ranks: tuple[SourceRank, ...]) -> tuple[SourceRank, ...]:
        """A result's engines: at most :data:`MAX_LIST_ITEMS`, each name an :data:`ID_LIMIT` line.

        SearXNG names the engines a result came from as it likes (up to 200 of them), and
        the names reach ``--json`` and the cache as sent.
        """
        kept = ranks[:MAX_LIST_ITEMS]
        cleaned = tuple(
            rank
            if (name := self.line(rank.engine, ID_LIMIT)) == rank.engine
            else rank.model_copy(update={"engine": name})
            for rank in kept
        )
        return cleaned if cleaned != ranks else ranks

    def citation(self, citation: SearchCitation) -> SearchCitation:
        """``citation`` with its texts cleaned (itself when unchanged)."""
        update = _changed(
            citation,
            title=self.line(citation.title),
            cited_text=self.block(citation.cited_text, KEPT_SNIPPET_LIMIT),
        )
        return citation.model_copy(update=update) if update else citation

    def page(self, page: PageContent | None) -> PageContent | None:
        """A provider-sent page (Tavily, Exa, Firecrawl, Jina) with its texts cleaned."""
        if page is None:
            return None
        text = self.page_text(page.text)
        # A provider's page is one text in both fields: cleaned, masked and cut once.
        markdown = text if page.markdown == page.text else self.page_text(page.markdown)
        update = _changed(
            page,
            title=self.optional_line(page.title),
            text=text,
            markdown=markdown,
            author=self.optional_line(page.author),
            site_name=self.optional_line(page.site_name),
        )
        return page.model_copy(update=update) if update else page

    def page_text(self, text: str) -> str:
        """A provider-sent page's text or Markdown: :meth:`block`, bounded as a fetched page.

        Cut to :data:`PAGE_TEXT_LIMIT` UTF-16 units, ending ``…`` and :data:`PAGE_CUT_MARK`.
        """
        return _cut_said(self.block(text), PAGE_TEXT_LIMIT, PAGE_CUT_MARK) or ""


def _cut_said(text: str | None, limit: int, mark: str) -> str | None:
    """``text`` within ``limit`` UTF-16 units: whole, or its head, ``…`` and ``mark``.

    The cut falls where the limit does, not at a word (a megabyte-long word would leave
    no head); ``text`` is masked already, so no key shows in part.
    """
    if not text or not _longer((text,), limit):
        return text
    return truncate_text(text, limit - utf16_len(mark)) + mark


def _reachable(response: SearchResponse, cap: int) -> tuple[SearchResponse, bool]:
    """``response`` cut after the entries the quick pass can keep, for the check to read.

    The quick pass (:func:`_capped`) keeps the first ``cap`` sources (and
    :data:`MAX_CITATIONS` citations) whose URL :func:`is_clean_url` accepts, so nothing
    after the entry where it has accepted ``cap`` is ever kept by it. When the check
    finds nothing in what is left (no control character, no secret, a URL holding a
    secret included), the full pass would keep the very same entries, unchanged: the
    quick pass over the cut response is the answer. When it finds something, the full
    pass runs over the whole response, as before (a URL dropped for a secret there lets
    one past the cut in). So a provider that sent 200 pages of text, each searched for
    control characters and secrets, has the ten the caller asked for searched. Related
    questions and search queries past the :data:`MAX_LIST_ITEMS` kept go too. A response
    within its caps is returned as it is.

    Returns:
        The cut response, and whether its sources were cut to ``cap`` entries whose URLs
        :func:`_all_plain` accepts: then the quick pass has none of them to drop and
        need not read their URLs a second time.
    """
    update: dict[str, object] = {}
    sources_plain = False
    if len(response.sources) > cap:
        update["sources"], sources_plain = _through_cap(response.sources, cap)
    if len(response.citations) > MAX_CITATIONS:
        update["citations"], _ = _through_cap(response.citations, MAX_CITATIONS)
    for name, lines in (
        ("related_questions", response.related_questions),
        ("search_queries", response.search_queries),
    ):
        if len(lines) > MAX_LIST_ITEMS:
            update[name] = lines[:MAX_LIST_ITEMS]
    return (response.model_copy(update=update) if update else response), sources_plain


def _through_cap(entries: tuple[_Linked, ...], cap: int) -> tuple[tuple[_Linked, ...], bool]:
    """``entries`` up to the one where :func:`is_clean_url` has accepted ``cap`` URLs.

    The usual case, the first ``cap`` URLs all plain, is told by one :func:`_all_plain`
    over them (two scans of the joined URLs) instead of :func:`is_clean_url` on each:
    it accepts all of them, so the ``cap``-th is where the count is reached.

    Returns:
        The entries, and whether they are the first ``cap``, all accepted by
        :func:`_all_plain` (``False``: not known).
    """
    head = entries[:cap]
    if len(head) == cap and _all_plain([entry.url for entry in head]):
        return head, True
    accepted = 0
    for index, entry in enumerate(entries):
        if accepted >= cap:
            return entries[:index], False
        if is_clean_url(entry.url):
            accepted += 1
    return entries, False


def _first_kept(
    entries: tuple[_Linked, ...], cap: int, keep: Callable[[str], bool]
) -> list[_Linked]:
    """The first ``cap`` of ``entries`` whose URL ``keep`` accepts."""
    kept: list[_Linked] = []
    for entry in entries:
        if len(kept) >= cap:
            break
        if keep(entry.url):
            kept.append(entry)
    return kept


def _needs_cleaning(response: SearchResponse, redactor: Redactor | None) -> bool:
    """Whether any text or URL of ``response`` would change in the full pass.

    Control characters, terminal escapes, credentials in a link, or a secret would.
    One check per kind over the joined text instead of a substitution per field: almost
    every response is clean, and then nothing needs copying. Control characters are
    looked for in the texts' UTF-8 by
    :func:`~websearch_core.control_chars.utf8_holds_control`; secrets are probed by
    :meth:`Redactor.may_hold`. The fields are joined with a space, which none of the
    patterns can match across (a secret with a space in it may, and only sends the
    response through the full pass, which is always correct).
    """
    lines, blocks, urls, too_long = _texts(response)
    return too_long or _texts_need_cleaning(lines, blocks, urls, redactor)


def _texts_need_cleaning(
    lines: list[str], blocks: list[str], urls: list[str], redactor: Redactor | None
) -> bool:
    """:func:`_needs_cleaning` of the texts :func:`_texts` read, which the caller keeps."""
    lines_read = _Lines(" ".join(lines), " ".join(urls))
    if utf8_holds_control(lines_read.encoded):
        return True
    if sum(map(len, blocks)) < _GROUP_CHARACTERS:  # almost always: one group, no generator
        return _group_needs_cleaning(" ".join(blocks), redactor, lines_read)
    groups = _joined_groups(blocks)
    if _group_needs_cleaning(next(groups), redactor, lines_read):
        return True
    return any(_group_needs_cleaning(group, redactor) for group in groups)


def _group_needs_cleaning(
    block_text: str, redactor: Redactor | None, lines: "_Lines | None" = None
) -> bool:
    """:func:`_needs_cleaning` for one group of multi-line texts.

    The first group is checked with the one-line texts and the URLs (``lines``; the
    lines' own control test is done), as the whole text was. They are joined once: the
    link credentials are looked for in the texts before the URLs (a URL's own userinfo
    is :func:`is_clean_url`'s to judge), the secrets in all of it. Control characters
    are looked for in the UTF-8 bytes, which the secret probe then reads instead of
    encoding the text again (the UTF-8 of texts joined is their UTF-8 joined).
    """
    encoded = _utf8(block_text)
    if utf8_holds_control(encoded, multiline=True):
        return True
    text, urls = block_text, ""
    if lines is not None:
        urls = lines.urls
        text = f"{lines.text} {block_text} {urls}"
        if redactor is not None:
            encoded = b" ".join((lines.encoded, encoded, _utf8(urls)))
    texts_end = len(text) - len(urls)
    if text.find("@", 0, texts_end) >= 0 and _ANY_USERINFO.search(text, 0, texts_end):
        return True
    return redactor is not None and redactor.may_hold(text, encoded)


class _Lines:
    """A response's one-line texts joined, their UTF-8, and its URLs joined.

    Args:
        text: The one-line texts, joined with spaces.
        urls: The source and citation URLs, joined with spaces.
    """

    __slots__ = ("encoded", "text", "urls")

    def __init__(self, text: str, urls: str) -> None:
        self.text = text
        self.urls = urls
        self.encoded = _utf8(text)


def _utf8(text: str) -> bytes:
    """``text`` in UTF-8, a lone surrogate (JSON may escape one) written as it is."""
    return text.encode("utf-8", "surrogatepass")


def _joined_groups(blocks: list[str]) -> Iterator[str]:
    """``blocks`` joined with spaces, :data:`_GROUP_CHARACTERS` at a time (one group at least).

    Each check copies the text it reads (joined, encoded, lower-cased, line breaks
    replaced), so joining every page a provider sent made five copies of all of them at
    once: 200 Firecrawl pages of Markdown (held at four bytes a character for one emoji)
    peaked at 60 MB over the 27 MB the response itself holds. A group is checked and
    dropped before the next is joined. A block is never split, and no pattern matches
    across the space between two, so the groups find whatever the whole text would; an
    ordinary response is one group, checked as before.
    """
    group: list[str] = []
    size = 0
    for block in blocks:
        if group and size + len(block) > _GROUP_CHARACTERS:
            yield " ".join(group)
            group, size = [], 0
        group.append(block)
        size += len(block) + 1
    yield " ".join(group)


def _texts(response: SearchResponse) -> tuple[list[str], list[str], list[str], bool]:
    """Every upstream text of ``response``: one-line texts, multi-line texts and URLs.

    Returns:
        The three lists, and whether a text is longer than the full pass keeps it (a line,
        a date, an id, a note, a snippet, the answer or a page; :data:`LINE_LIMIT` and the
        other limits), or the notes are more than :data:`MAX_NOTES`: then that pass must run.
    """
    lines: list[str] = [*response.related_questions, *response.search_queries]
    # The model and the request id, each a short token, have their own bound.
    ids = [text for text in (response.model, response.request_id) if text]
    answer = response.answer
    blocks: list[str] = [answer] if answer else []
    snippets: list[str] = []
    pages: list[str] = []
    urls: list[str] = []
    dates: list[str] = []
    many_engines = False
    for source in response.sources:
        lines.append(source.title)
        urls.append(source.url)
        if source.published_date:
            dates.append(source.published_date)
        if source.author:
            lines.append(source.author)
        if source.category:
            ids.append(source.category)
        if source.engines:
            many_engines = many_engines or len(source.engines) > MAX_LIST_ITEMS
            ids.extend(rank.engine for rank in source.engines)
        if source.snippet:
            snippets.append(source.snippet)
        if source.content is not None:
            _page_texts(source.content, lines, pages)
    for citation in response.citations:
        lines.append(citation.title)
        urls.append(citation.url)
        if citation.cited_text:
            snippets.append(citation.cited_text)
    # Notes quote upstream text too (an engine's reason, a warning): as likely to echo a key.
    notes = response.notes
    too_long = (
        _longer(lines, LINE_LIMIT)
        or _longer(dates, DATE_LIMIT)
        or _longer(ids, ID_LIMIT)
        or _longer(snippets, KEPT_SNIPPET_LIMIT)
        or _longer(notes, NOTE_LIMIT)
        or len(notes) > MAX_NOTES
        or many_engines
        or bool(answer and _longer((answer,), ANSWER_LIMIT))
        or _longer(pages, PAGE_TEXT_LIMIT)
    )
    lines += dates
    lines += ids
    lines += notes
    blocks += pages
    blocks += snippets
    return lines, blocks, urls, too_long


def _longer(texts: Sequence[str], limit: int) -> bool:
    """Whether one of ``texts`` is over ``limit`` UTF-16 units.

    A character is at most two units, so texts all within ``limit // 2`` characters are
    told by one ``max`` over their lengths, without counting units (nearly every response).
    """
    if not texts or max(map(len, texts)) * 2 <= limit:
        return False
    return any(utf16_len(text) > limit for text in texts)


def _page_texts(page: PageContent, lines: list[str], pages: list[str]) -> None:
    """Add the texts of a provider-sent page to those :func:`_needs_cleaning` checks."""
    lines.extend(text for text in (page.title, page.author, page.site_name) if text)
    pages.append(page.text)
    if page.markdown != page.text:
        pages.append(page.markdown)


def _capped(
    response: SearchResponse,
    cap: int,
    *,
    sources_plain: bool = False,
    urls: list[str] | None = None,
) -> SearchResponse:
    """A clean ``response`` with bad URLs dropped and the counts capped (texts unchanged).

    Args:
        response: A response the check found clean.
        cap: The most sources to keep.
        sources_plain: Its sources are already known to be at most ``cap``, each with a
            URL :func:`_all_plain` accepts (:func:`_reachable` has read them): none to drop.
        urls: Its sources' URLs in order, then its citations' (:func:`_texts` read them
            for the check), so that they are not gathered a second time.
    """
    sources_urls = None if urls is None else urls[: len(response.sources)]
    sources = None if sources_plain else _kept(response.sources, cap, sources_urls)
    # Most providers send no citations: nothing to keep, no list or check built for them.
    citations = _kept(response.citations, MAX_CITATIONS) if response.citations else None
    update: dict[str, object] = {}
    if sources is not None:
        update["sources"] = sources
    if citations is not None:
        update["citations"] = citations
    if len(response.related_questions) > MAX_LIST_ITEMS:
        update["related_questions"] = response.related_questions[:MAX_LIST_ITEMS]
    if len(response.search_queries) > MAX_LIST_ITEMS:
        update["search_queries"] = response.search_queries[:MAX_LIST_ITEMS]
    return response.model_copy(update=update) if update else response


def _kept(
    entries: tuple[_Linked, ...], cap: int, urls: list[str] | None = None
) -> tuple[_Linked, ...] | None:
    """The first ``cap`` entries with a clean URL, or ``None`` when that is all of them.

    ``urls`` are the entries' URLs in order, when the caller has them already.
    """
    if len(entries) <= cap and _all_plain(
        [entry.url for entry in entries] if urls is None else urls
    ):
        return None
    kept = _first_kept(entries, cap, is_clean_url)
    return None if len(kept) == len(entries) else tuple(kept)


def _all_plain(urls: list[str]) -> bool:
    """Whether :func:`is_clean_url` accepts every URL by its quick path (``False``: maybe not).

    One check for a forbidden character over the URLs run together (a forbidden character
    is in the joined text exactly when it is in some URL, and spaces are forbidden), then
    one match over them each followed by a space, instead of a search and a match per URL.
    No pass over the URLs one by one: one longer than :data:`URL_LIMIT` makes the joined
    text longer than that too, so their lengths are read only then (a page's URLs run to a
    few thousand characters together), and an empty URL needs no test of its own, as the
    match takes none (it would leave two spaces in a row, or one at the start).
    """
    if not urls:
        return True
    joined = "".join(urls)
    if len(joined) > URL_LIMIT and max(map(len, urls)) > URL_LIMIT:
        return False
    if joined.isascii():  # the usual case, told by a flag the string carries
        # In ASCII the class is the controls, the space and DEL: deleting them by table
        # leaves the bytes as long as they were exactly when there is none (half the cost
        # of ``isprintable``, which looks each character up).
        if len(joined.encode("ascii").translate(None, _URL_FORBIDDEN_ASCII)) != len(joined):
            return False
    # Every forbidden character but the space is unprintable: printable text without a
    # space holds none, and one isprintable scan costs half the class search.
    elif not (joined.isprintable() and " " not in joined) and _URL_FORBIDDEN.search(joined):
        return False
    return _PLAIN_URLS.fullmatch(f"{' '.join(urls)} ") is not None


def _changed(original: BaseModel, /, **values: object) -> dict[str, object]:
    """The subset of ``values`` that differ from ``original``'s (copying only when needed)."""
    return {name: value for name, value in values.items() if getattr(original, name) != value}


def _same(text: str) -> str:
    return text
