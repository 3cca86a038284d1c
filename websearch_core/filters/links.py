"""An answer's links to its sources, taken out when the sources they name are not shown.

OpenAI (Codex) writes its answer with a Markdown link to each page it cites, in
parentheses after the sentence: ``...about 37 million. ([macrotrends.net](https://www.
macrotrends.net/cities/21671/tokyo/population?utm_source=openai))`` in
``fixtures/openai/responses_web_search_verbatim_gpt4o_mini.json``, one such link for each
``url_citation``; with no ``url_citation`` its links are its sources outright. Once a
filter or a cut takes a source out, such a link still pointed at a page the response no
longer lists: ``-site:macrotrends.net`` dropped the source and its citation, and the answer
went on citing it. A link whose page is gone is taken out here: a citation in parentheses
holding nothing but the link goes whole (its words are the site's name, no words of the
answer's), a link in the text keeps its words (``[Node.js](https://nodejs.org/)`` reads
``Node.js``). A link to a page that was never a source is none of the filters' business and
stays, as does a link to a page one of the sources shown is on. With no ``url_citation``,
Codex's answer may name a page as a bare URL (its parser makes a source of it): such a URL
of a page gone goes too, its sentence reading on.

Declared per provider (``ProviderInfo.answer_links_sources``). Perplexity numbers its
sources (:mod:`.markers`), and through OpenRouter its answer cites OpenAI-style: the
captured one (``fixtures/openrouter/chat_completions_web_search_url_citation.json``) is its
first page's URL alone, so it declares both. Of the other answer engines' captures, Kimi's
chat answer links its pages the same way (``# [Kimi K2.6 ...]
(https://www.yumiok.com/archives/6077.html)``), but the Kimi provider calls Kimi Code's
search API, which returns pages and no answer; xAI's answer names no URL (its citations are
annotations), Gemini's none.
"""

import re
from collections.abc import Iterable
from typing import Final
from urllib.parse import urlsplit, urlunsplit

__all__ = ["page_key", "unlinked"]

_LINK: Final = re.compile(
    r"(?P<open>[ \t]*\([ \t]*)?"
    r"\[(?P<words>[^\[\]]*)\]"
    r"\((?P<url>https?://[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)\)"
    r"(?(open)[ \t]*\))"
)
"""A Markdown link to a web page, with the parentheses around it when it is all they hold.

The URL may hold one level of balanced parentheses (Wikipedia's ``XAI_(company)``)."""
_BARE: Final = re.compile(
    r"(?P<line>^[ \t]*(?:[-*+]|\d{1,3}[.)])?[ \t]*)?"
    r"(?P<open>[ \t]*\([ \t]*)?"
    r"(?P<url>https?://[^\s<>\"'`\[\]]+)",
    re.MULTILINE,
)
"""A URL written bare in the text, with the list marker of a line or the parentheses it
stands alone in (the URL takes a closing parenthesis or a full stop of the text with it:
:func:`_bare_url` gives them back)."""
_TRAILING: Final = ".,!?;:'\""
"""What ends a sentence after a bare URL rather than the URL (as Codex's parser reads one)."""
_TRACKING_PREFIX: Final = "utm_"
"""Query pairs a link adds to say who sent the reader (OpenAI's ``utm_source=openai``): the
same page with or without them."""


def page_key(url: str) -> str:
    """``url`` as the page it names: no fragment, no ``utm_*`` pair, host in lower case.

    OpenAI's parser takes its ``utm_source=openai`` out of each source's URL and its answer
    keeps it in the link: both name one page.

    Example:
        >>> page_key("https://www.Macrotrends.net/tokyo?utm_source=openai#top")
        'https://www.macrotrends.net/tokyo'
        >>> page_key("https://a.org/p?id=1&utm_medium=x")
        'https://a.org/p?id=1'
    """
    parts = urlsplit(url)
    query = "&".join(
        pair for pair in parts.query.split("&") if pair and not pair.startswith(_TRACKING_PREFIX)
    )
    return urlunsplit((parts.scheme.lower(), parts.netloc.lower(), parts.path, query, ""))


def unlinked(answer: str, dropped: Iterable[str], kept: Iterable[str]) -> str:
    """``answer`` without its links to the ``dropped`` pages (pure).

    Args:
        answer: The answer as the provider wrote it.
        dropped: The URLs of the sources taken out (by a filter, a ``limit``, a cut).
        kept: The URLs of the sources shown: a link to one of them stays, though a dropped
            source named the same page.

    Returns:
        The answer with each link to a dropped page reduced to its words, or taken out
        with its parentheses when it stood alone in them, and each such page's URL written
        bare taken out (:func:`_unbared`).

    Example:
        >>> unlinked("Big. ([a.org](https://a.org/x?utm_source=openai)) See "
        ...          "[B's page](https://b.org/) and [c](https://c.org/).",
        ...          ["https://a.org/x", "https://b.org/"], ["https://c.org/"])
        "Big. See B's page and [c](https://c.org/)."
    """
    gone = {page_key(url) for url in dropped} - {page_key(url) for url in kept}
    if not gone:
        return answer

    def link(match: re.Match[str]) -> str:
        if page_key(match["url"]) not in gone:
            return match[0]
        return "" if match["open"] is not None else match["words"]

    return _unbared(_LINK.sub(link, answer), gone)


def _bare_url(written: str) -> tuple[str, str]:
    """``written`` (a bare URL as matched) split into the URL and what the text goes on with.

    Trailing punctuation ends the sentence, and a ``)`` the URL never opened closes the
    text's parentheses, as Codex's parser reads a bare URL (``_codex_text``).

    Example:
        >>> _bare_url("https://a.org/x_(y)).")
        ('https://a.org/x_(y)', ').')
    """
    url = written
    while url and (url[-1] in _TRAILING or (url[-1] == ")" and url.count("(") < url.count(")"))):
        url = url[:-1]
    return url, written[len(url) :]


def _unbared(answer: str, gone: set[str]) -> str:
    """``answer`` without the URLs written bare in it of the ``gone`` pages.

    Codex's answer with no ``url_citation`` names its sources so (its parser makes a source
    of each such URL): a URL cut from the sources stayed in the text, pointing at a page the
    response no longer shows. One alone in parentheses goes with them, one alone on a line
    (a list item) with its line, one in a sentence with the space before it, so the
    sentence reads on (``See https://a.org/x.`` reads ``See.``). A URL inside a Markdown link
    is the link's business (:func:`unlinked`): only URLs outside any link are looked at.
    """
    if "://" not in answer:
        return answer
    kept: list[str] = []
    end = 0
    for match in _BARE.finditer(answer):
        start = match.start("url")
        if _in_link(answer, start):
            continue
        url, rest = _bare_url(match["url"])
        if page_key(url) not in gone:
            continue
        alone = match["open"] is not None and rest.startswith(")")
        if alone:  # the parentheses held the URL alone: they go with it
            start, tail = match.start("open"), rest[1:]
        else:
            tail = rest
        stop = match.end()
        if match["line"] is not None and not alone and _ends_line(answer, stop):
            start = match.start()  # the line (a list item) held the URL alone: it goes
            stop = answer.find("\n", stop) + 1 or len(answer)
            tail = ""
        else:
            while start > end and answer[start - 1] in " \t":
                start -= 1
        kept.append(answer[end:start] + tail)
        end = stop
    kept.append(answer[end:])
    return "".join(kept)


def _in_link(answer: str, start: int) -> bool:
    """Whether the URL at ``start`` is a Markdown link's target (``](`` just before it)."""
    return answer[max(0, start - 2) : start] == "]("


def _ends_line(answer: str, stop: int) -> bool:
    """Whether nothing but spaces or a sentence's end follows ``stop`` on its line."""
    line_end = answer.find("\n", stop)
    rest = answer[stop : len(answer) if line_end < 0 else line_end]
    return not rest.strip(" \t" + _TRAILING)
