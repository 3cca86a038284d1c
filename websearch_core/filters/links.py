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
of a page gone goes too, its sentence reading on: the words there only for the URL go with
it (``see <url> for details``, the ``, `` of a list of URLs, brackets left empty, a label
line ``Sources: <url>``, a sentence ``Details are at <url>.``, the commas setting it apart,
their kin in German, French and Spanish: :mod:`.link_words`; in Chinese and Japanese,
whose URLs run into the text: :mod:`.links_wide`), and no others (:func:`_closed`). Each
cut reads a window of the text either side (:class:`_Tidied`), so an answer is read in
time that grows with it.

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
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Final
from urllib.parse import urlsplit, urlunsplit

from . import link_words, links_wide

__all__ = ["page_key", "unlinked"]

_LINK: Final = re.compile(
    r"(?P<open>\([ \t]*)?"
    r"\[(?P<words>(?:[^\[\]]|\[[^\[\]]*\])*)\]"
    r"\((?P<url>https?://[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)\)"
    r"(?(open)[ \t]*\))"
)
"""A Markdown link to a web page, with the parentheses around it when it is all they hold
(the spaces before them are :func:`_spaced`'s: a run of them read here would be read again
from each of its characters).

Its words may hold one level of brackets (``[[1]](https://...)``, a numbered citation
written as a link); the URL one level of balanced parentheses (Wikipedia's
``XAI_(company)``)."""
_LABEL: Final = re.compile(r"\[?\d{1,4}\]?|https?://\S*")
"""A link's words that are no words of the answer: a citation's number or the URL itself."""
_STOPS: Final = re.escape(links_wide.WIDE_STOPS)
_BARE: Final = re.compile(
    rf"<?(?P<url>https?://[^\s<>\"'`\[\]{_STOPS}]++(?:[{_STOPS}](?!<?https?://))?)"
)
"""A URL written bare in the text (or as Markdown's ``<url>``); the URL takes a closing
parenthesis or a full stop of the text with it (:func:`_bare_url` gives them back). What
stands before it, a list marker opening its line or a parenthesis it may stand alone in,
is read back from it (:func:`_bare_urls`), each character once.

It ends at a blank, or at a full-width mark closing a sentence or a clause, taking the mark
with it unless a URL follows (a Chinese or Japanese list, ``、``, ``，``, ``；``, parts its
URLs with no space): it ran on to the next blank, and Chinese writes none, so the URLs
after the first in a sentence were read as its path and stayed, and each cut of a dense
wide answer read the rest of it (quadratic). The mark taken lets a source read so by a
parser (``<url>。``) be found (:func:`_gone_url`)."""
_LINE_OPENING: Final = re.compile(r"[ \t]*+(?:[-*+]|\d{1,3}[.)])?[ \t]*+")
"""What may stand between a line's start and a URL alone on it: spaces and a list marker
(the runs possessive: a marker opens with no space, and a run given back would be read
again from each of its characters where the line holds more)."""
_BLANKS: Final = " \t"
_BLANK_RUN: Final = re.compile(r"[ \t]*+")
"""The blanks after a cut URL, read once from it (:meth:`_Tidied.cut`)."""
_RUN_AS_ONE: Final = 32
"""How many blanks in a row a cut's window holds as one (:class:`_Tidied`)."""
_LONG_RUN: Final = re.compile(rf"[ \t]{{{_RUN_AS_ONE},}}+")
"""A run of blanks handed to a cut's tidying as one."""
_TRAILING: Final = ".,!?;:'\""
"""What ends a sentence after a bare URL rather than the URL (as Codex's parser reads one)."""
_TRACKING_PREFIX: Final = "utm_"
"""Query pairs a link adds to say who sent the reader (OpenAI's ``utm_source=openai``): the
same page with or without them."""
_PAIRS: Final = {"(": ")", "[": "]", "<": ">", "（": "）", "【": "】", "「": "」", "《": "》"}
"""Brackets a cut may leave holding nothing (``(see)`` once ``see`` went): they go too."""
_CLAUSE_ENDS: Final = ".!?;:)]>,\n"
"""What may follow a cut URL when the words before it pointed at it alone."""
_ANY_CLAUSE_ENDS: Final = _CLAUSE_ENDS + links_wide.WIDE_STOPS
"""What may follow a cut URL when the words before it pointed at it alone, in any script."""
_HEAD: Final = 200
"""How far either side of a cut its tidying reads: the words written for the URL."""
_WINDOW: Final = 2 * _HEAD
"""How much of the text either side of a cut its tidying is handed (:class:`_Tidied`)."""
_CUT_SHORT: Final = "\x00"
"""Stands for the text past a window's edge: no space, no line's or sentence's end."""


def _words(phrases: Iterable[str]) -> str:
    """``phrases`` as one alternation, longest first, a space standing for any run of them."""
    ordered = sorted(set(phrases), key=len, reverse=True)
    return "|".join(re.escape(phrase).replace(r"\ ", r"[ \t]+") for phrase in ordered)


_WORD_KINDS: Final[dict[str, tuple[str, str]]] = {
    **{
        word.casefold(): (language, "pointer")
        for language, words in link_words.POINTERS.items()
        for word in words
    },
    **{
        word.casefold(): (language, "preposition")
        for language, words in link_words.PREPOSITIONS.items()
        for word in words
    },
}
"""Each pointing word (:mod:`.link_words`), case-folded: its language and its kind. The
pattern matches without case as Unicode does (``ſee`` is ``see`` to it), and so is looked
up case-folded."""
_POINTER: Final = re.compile(
    rf"(?:^|(?<=[\s(\[,;:]))(?P<word>{_words(_WORD_KINDS)})[ \t]*\Z", re.IGNORECASE
)
"""A word that only points at the URL after it: ``see``, ``visit``, ``at``, ``via``, and
their kin in :mod:`.link_words`."""
_POINTER_REACH: Final = 40
"""How far from a cut a pointing word (:data:`_POINTER`) may start: it ends at the cut, and
a pattern anchored at the end is tried at each character it is given."""
_MARKERS_AT_END: Final = re.compile(r"(?:\[\d{1,4}\])+\Z")
"""Numbered citations closing the text before a word (``million.[1]``)."""


def _alternation(phrases: Iterable[str]) -> str:
    """``phrases`` as one alternation whose spaces match any run of spaces or tabs."""
    return "|".join(phrase.replace(" ", r"[ \t]+") for phrase in phrases)


_FOR_MORE: Final = re.compile(
    r"[ \t]+(?:" + _alternation(link_words.FOR_MORE.values()) + r")\b",
    re.IGNORECASE,
)
"""What ``see <url>`` goes on with and nothing else does (``see <url> for details``)."""
_ASKED: Final = re.compile(
    r"(?:" + _alternation(link_words.ASKED.values()) + r")\Z",
    re.IGNORECASE,
)
"""A sentence's words before a pointing word that only ask the reader to go to the URL
(``You can visit <url>.``, ``Vous pouvez voir <url>.``, :data:`.link_words.ASKED`): with
the URL gone the sentence asks nothing."""
_CLAUSE_JOIN: Final = re.compile(r"(?:,?[ \t]+(?:and|et|y|und)|;)\Z", re.IGNORECASE)
"""What joins a clause that only asked the reader to go to the URL to the sentence before it
(``Big, and you can see <url>.``, ``Big; you can visit <url>.``, ``Grand, et vous pouvez
voir <url>.``)."""
_ON_THE_URL: Final = re.compile(r"[ \t]*,[ \t]+(?:which|where)\b[^.!?\n()\[\]<>]*(?=[.!?\n])")
"""A relative clause on the URL after ``see <url>``, to its sentence's end (:func:`_on_the_url`)."""
_ASKED_REACH: Final = 80
"""How far before a pointing word :data:`_ASKED` or :data:`_LEAD` may start."""
_ASKED_BEFORE_FINAL: Final = re.compile(
    r"\b(?:" + _alternation(before for before, _ in link_words.ASKED_FINAL.values()) + r")\Z",
    re.IGNORECASE,
)
"""The words before a URL of a sentence whose verb follows it (``Sie können <url>``)."""
_FINAL_VERB: Final = re.compile(
    r"[ \t]+(?:"
    + "|".join(verb for _, verb in link_words.ASKED_FINAL.values())
    + r")(?=[ \t]*(?:[.!?\n)]|\Z))",
    re.IGNORECASE,
)
"""The verb closing such a sentence right after the URL (``<url> besuchen.``)."""
_LEAD: Final = re.compile(
    r"\b(?:" + _alternation(link_words.LEADS.values()) + r")\Z",
    re.IGNORECASE,
)
"""A sentence's words before ``at <url>`` (or its kin) saying only where more is to be read
(``More information at <url>.``, :data:`.link_words.LEADS`)."""
_ITEM_MARKER: Final = re.compile(r"[ \t]*+(?:[-*+]|\d{1,3}[.)])[ \t]*+")
"""A list item's marker, alone before a sentence that opens the item."""
_APPOSITION_NOT: Final = frozenset(
    {"and", "or", "but", "nor", "then", "which", "where", "that", "who", "whose", "whom"}
)
"""Words after ``, <url>,`` that say the second comma is a list's or the URL's clause's:
it stays (:func:`_apposition`)."""
_SENTENCE_REST: Final = re.compile(r"[^.!?\n()]*[.!?]?")
"""The rest of a sentence, up to its end or the parentheses it stands in."""
_CONNECTOR_AFTER: Final = re.compile(
    r"(?:(?:[ \t]*,)?[ \t]+(?:and|or)[ \t]+|[ \t]*[,;、，；][ \t]*)(?=https?://|<https?://|\[)"
)
"""``, ``, ``; `` or `` and `` (or Chinese and Japanese ``、``, ``，``, ``；``) joining the
cut URL to the next item of a list (a URL or a link)."""
_CONNECTOR_BEFORE: Final = re.compile(r"(?:,?[ \t]+(?:and|or)|[,;、，；])[ \t]*\Z")
"""``, ``, `` and `` or ``, or `` (or ``、``, ``，``, ``；``) joining the cut URL to the
item before it (or ``;`` ending the clause before a ``see <url>`` that went)."""
_LABEL_LINE: Final = re.compile(
    r"(?:\A|(?<=\n)|(?<=[.!?])[ \t]++|(?<=\])[ \t]++)"
    r"(?P<marker>[ \t]*(?:[-*+]|\d{1,3}[.)])[ \t]+)?"
    r"(?:\*\*|__)?(?P<label>[^\W_][^\n.!?:;,()\[\]<>*_]{0,60}?)(?:\*\*|__)?:(?:\*\*|__)?[ \t]*\Z"
)
"""A label opening a line (or a sentence) and introducing the cut URL alone (``Sources:``,
``- Tokyo:``, ``**Source:**``): with the URL gone it labels nothing. The blanks after a
sentence's end are taken whole: what follows them starts with none, and handing each split
of them to the marker was quadratic (a full stop and 16k blanks: seconds, stop 56)."""
_URL_LINE: Final = re.compile(r"[ \t]*(?:(?:[-*+]|\d{1,3}[.)])[ \t]+)?(?:<?https?://|\[)")
"""A line (or list item) opening with a URL or a link: a label above it may be its too."""
_LABEL_WORDS: Final = 6
"""The most words a label has: more, and the words before the colon are a sentence's."""
_COPULA_AT: Final = re.compile(
    r"(?P<subject>[^\W\d_][^\n.!?;:,()\[\]]{0,80}?)[ \t]+"
    r"(?:is|are|was|were|(?:can|could|may|might|will|would)[ \t]+be(?:[ \t]+found)?)"
    r"(?:[ \t]+also)?\Z",
    re.IGNORECASE,
)
"""A sentence's subject and a bare ``is`` / ``are`` / ``can be found`` before ``at <url>``:
its predicate was where the URL is and nothing else (``Details are at <url>.``)."""
_NOT_A_SUBJECT: Final = frozenset(
    {"is", "are", "was", "were", "be", "and", "but", "or", "that", "which", "who", "if"}
)
"""Words that say the text before the verb is more than a subject: a clause of its own."""
_SUBJECT_JOIN: Final = re.compile(r"(?:,?[ \t]+(?:and|but|while)|;)[ \t]+", re.IGNORECASE)
"""What joins a clause to the one before it inside what :data:`_COPULA_AT` took as a
subject (``Tokyo is big and data`` before ``is at <url>``): :func:`_joined_clause`."""
_LEADING_JOIN: Final = re.compile(r"(?:and|but|while)[ \t]+", re.IGNORECASE)
"""A join opening what :data:`_COPULA_AT` took as a subject after a comma."""
_CLAUSE_VERBS: Final = frozenset(
    {"is", "are", "was", "were", "has", "have", "had", "grew", "grows", "rose", "rises"}
    | {"fell", "falls", "remains", "remained", "became", "becomes", "shows", "showed"}
)
"""Verbs that say the words before a join are a clause of their own (``Tokyo is big``,
``Tokyo grew``), not a list of subjects (``Tokyo and Osaka are at <url>``); a word of two
syllables or more ending ``-ed`` does too (:func:`_a_clause`)."""
_SINGULAR: Final = frozenset({"is", "was"})
"""A copula that says its subject is one thing: ``Tokyo grew and data is at <url>`` is two
clauses, as ``A and B`` would take ``are``."""
_DETERMINERS: Final = frozenset(
    {"the", "a", "an", "its", "their", "his", "her", "our", "your", "my", "this", "these"}
    | {"those", "that"}
)
"""Words opening a noun phrase: ``the report and the data are at <url>`` names two things."""
_LIST_PARTS: Final = re.compile(r"(?<![ \t])[ \t]++(?:and|or)[ \t]++", re.IGNORECASE)
"""What parts a list of subjects (``Tokyo and Osaka``): :func:`_names_only`. Tried only
at a run of blanks' start, so a run is read once, not again from each of its blanks."""
_AND_GOES_ON: Final = re.compile(
    r"[ \t]+and[ \t]+(?:(?P<pronoun>it|they)[ \t]+)?(?P<verb>[a-z]+)\b"
)
"""``and`` and the verb a sentence goes on with after ``is at <url>`` (``Data is at <url>
and shows X.``, ``It is at <url> and it shows X.``, the pronoun standing for the subject):
:func:`_only_where`."""
_PRONOUN_COPULAS: Final = {"it": frozenset({"is", "was"}), "they": frozenset({"are", "were"})}
"""Copulas whose subject a pronoun after ``and`` may stand for: ``it`` for one thing."""
_AND_ELSEWHERE: Final = re.compile(
    r"[ \t]+and[ \t]+(?:more|elsewhere|other[ \t]+(?:sites|pages|sources))(?=[ \t]*[.!?\n)])"
)
"""``and more`` after ``is at <url>``, closing the sentence: it too says only where
(``Data is at <url> and more.``), and goes with the URL."""
_NOT_A_VERB: Final = frozenset(
    {"the", "a", "an", "it", "its", "they", "their", "them", "this", "that", "these"}
    | {"those", "there", "he", "she", "we", "you", "i", "his", "her", "our", "your", "my"}
    | {"more", "other", "others", "also", "so", "then", "not", "many", "some", "all"}
    | {"each", "every", "no", "one", "two", "both", "at", "in", "on", "for", "from", "to"}
)
"""Words after ``is at <url> and`` opening a clause (or a list) of their own, no verb of
the subject's: ``Data is at <url> and the rest is at <kept>`` keeps its words."""


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
    shown = {page_key(url) for url in kept}
    gone = {page_key(url) for url in dropped} - shown
    if not gone:
        return answer
    text = _Tidied(answer)
    end = 0
    previous = 0
    for match in _LINK.finditer(answer):
        start, previous = _spaced(answer, match, previous), match.end()
        if not _link_gone(match["url"], gone):
            continue
        words = match["words"].strip()
        if match["open"] is None and words and not _LABEL.fullmatch(words):
            text.add(answer[end:start] + match["words"])
            end = match.end()
            continue
        # A citation alone in its parentheses, or a link whose words are its number or
        # its URL: nothing of the answer's words is in it, and it goes whole.
        text.add(answer[end:start])
        end = match.end() + text.cut(match.end())
    text.add(answer[end:])
    return _unbared(text.joined(), gone, shown)


def _link_gone(url: str, gone: set[str]) -> bool:
    """Whether a link's target names a page gone, as written or as Codex's parser reads it.

    The parser takes a full-width mark closing a target (``[x](https://a.org/p。)``) off
    the source's address; a capture read before it did keeps it: either names the page.

    Example:
        >>> _link_gone("https://a.org/p。", {"https://a.org/p"})
        True
    """
    if page_key(url) in gone:
        return True
    return not url.isascii() and page_key(url.rstrip(links_wide.WIDE_STOPS)) in gone


def _spaced(answer: str, match: re.Match[str], previous: int) -> int:
    """Where ``match`` (:data:`_LINK`) starts with the spaces before its parenthesis.

    A citation alone in its parentheses takes the spaces before them with it; they are read
    back from the parenthesis, no further than the end of the link before (``previous``).
    """
    start = match.start()
    if match["open"] is None:
        return start
    return _blanks_from(answer, start, previous)


def _blanks_from(answer: str, stop: int, floor: int) -> int:
    """Where the run of spaces and tabs ending at ``stop`` starts, not before ``floor``."""
    return floor + len(answer[floor:stop].rstrip(_BLANKS))


class _Tidied:
    """The text a cut tidies, built in pieces: each cut reads only the end of it.

    Every rule of :func:`_closed` reads at most :data:`_HEAD` characters either side of a
    cut (a label's line, a sentence's subject, a pointing word), so the text before is
    handed it as its last :data:`_WINDOW` characters and the text after as its next ones:
    the work of a cut is the same in a short answer as in a long one, and an answer with
    thousands of URLs cut is read in time that grows with it, not with its square. Where
    a window stops short of the text's end, :data:`_CUT_SHORT` stands in for the rest: a
    character no rule reads as a space, a line's end or a sentence's, so no rule takes
    what it cannot see.

    A run of :data:`_RUN_AS_ONE` blanks or more is handed as its first one (the rules read
    a run as one anyway): ``Big.``, 1,000 blanks and ``Sources: <url>`` showed the label
    rule only blanks before ``Sources:`` (the sentence's end was past the window), and the
    line stayed. The text so far is kept as pieces (:attr:`done`), each long run a piece of
    its own, found once as the text comes in: a cut reads back a window's worth of pieces,
    and a run of any length costs it one.
    """

    def __init__(self, answer: str) -> None:
        self.answer = answer
        self.done: list[tuple[str, int, int, bool]] = []
        """The text so far as pieces, each a string, the span of it kept, and whether it is
        a long run of blanks: a span shortened in place, so a cut copies no more."""
        self.tail = ""
        """What was added since the last cut, not yet split into pieces."""

    def add(self, piece: str) -> None:
        """``piece`` of the answer, kept as written."""
        self.tail += piece

    def cut(self, stop: int) -> int:
        """Tidy the text so far before what follows ``stop`` (:func:`_closed`).

        A run of blanks either side of the cut is read as one: the blanks before it go
        (:meth:`_unblanked`), those after it are handed as their last one, so what stands
        past a run longer than a window is read as if the run were a space.

        Returns:
            How many characters after ``stop`` go too.
        """
        self._settle()
        self._unblanked()
        left, shown = self._view()
        run = _BLANK_RUN.match(self.answer, stop)
        shift = max(0, (run.end() if run else stop) - stop - 1)
        start = stop + shift
        right = self.answer[start : start + _WINDOW]
        if start + _WINDOW < len(self.answer):
            right += _CUT_SHORT
        tidied, skip = _closed(left, right)
        # What `_closed` gives back is a start of the window, its blanks at the end taken
        # out, and the space the text goes on after: that space is no blank of the window's
        # (a long run read as one would be kept whole for it).
        kept = len(tidied.rstrip(_BLANKS))
        self._keep(shown, max(0, kept - len(_CUT_SHORT)) if left.startswith(_CUT_SHORT) else kept)
        self.tail = tidied[kept:]
        return skip + shift if skip else 0

    def _settle(self) -> None:
        """What was added since the last cut, split into pieces at its long blank runs."""
        text, self.tail = self.tail, ""
        at = 0
        for run in _LONG_RUN.finditer(text):
            if run.start() > at:
                self._words(text, at, run.start())
            self.done.append((text, run.start(), run.end(), True))
            at = run.end()
        if at < len(text):
            self._words(text, at, len(text))

    def _words(self, text: str, begin: int, end: int) -> None:
        """``text[begin:end]`` (no long run in it) as the last piece, joined to a short one.

        Cuts close together leave pieces of a few characters: joined (copying at most
        two windows), a window is read back from a few pieces, not from dozens.
        """
        if self.done and not self.done[-1][3]:
            last, first, stop, _ = self.done[-1]
            if stop - first < 2 * _WINDOW:
                joined = last[first:stop] + text[begin:end]
                self.done[-1] = (joined, 0, len(joined), False)
                return
        self.done.append((text, begin, end, False))

    def _unblanked(self) -> None:
        """The blanks ending the text so far taken out, each read once.

        :func:`_closed` takes them out anyway; taken out here, they leave the window
        handed to it a window of words, not of blanks.
        """
        while self.done:
            text, begin, end, run = self.done[-1]
            if not run:
                end = begin + len(text[begin:end].rstrip(_BLANKS))
                if end > begin:
                    self.done[-1] = (text, begin, end, False)
                    return
            self.done.pop()

    def _view(self) -> tuple[str, list[tuple[int, int]]]:
        """The window handed to :func:`_closed`, and where each part of it stands.

        Returns:
            The last :data:`_WINDOW` characters of the text so far, each long run of
            blanks as one, :data:`_CUT_SHORT` first where the text goes on before them;
            and for each piece read, from the first, its index in :attr:`done` and where
            the part of it read starts.
        """
        parts: list[str] = []
        shown: list[tuple[int, int]] = []
        size = 0
        index = len(self.done)
        short = False
        while index and size < _WINDOW:
            index -= 1
            text, begin, end, run = self.done[index]
            if not run and end - begin > _WINDOW - size:
                begin, short = end - (_WINDOW - size), True
            part = text[begin] if run else text[begin:end]
            parts.append(part)
            shown.append((index, begin))
            size += len(part)
        parts.append(_CUT_SHORT if short or index else "")
        shown.reverse()
        return "".join(reversed(parts)), shown

    def _keep(self, shown: list[tuple[int, int]], kept: int) -> None:
        """The text so far cut to the first ``kept`` characters of the pieces ``shown``.

        :func:`_closed` gives back a start of the window it was handed (and a space): the
        text so far ends where that start does, a long run read as one kept whole or not.
        """
        for index, begin in shown:
            text, first, end, run = self.done[index]
            width = 1 if run else end - begin
            if kept < width:
                del self.done[index:]
                if begin + kept > first:  # a run's `kept` is 0 here: it goes whole
                    self.done.append((text, first, begin + kept, run))
                return
            kept -= width

    def joined(self) -> str:
        """The text, whole."""
        return "".join(text[begin:end] for text, begin, end, _ in self.done) + self.tail


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


def _gone_url(written: str, gone: set[str], shown: set[str]) -> tuple[str, str] | None:
    """A bare URL as matched split into a gone page's URL and what the text goes on with.

    ``None`` if it names no page gone. A URL run into Chinese or Japanese text
    (``https://a.org/p。``, ``https://a.org/pを参照``) is tried at each place it may end
    (:func:`.links_wide.url_ends`), longest first, up to a page shown; the full-width marks
    closing it go back to the text.

    Example:
        >>> _gone_url("https://a.org/p。", {"https://a.org/p"}, set())
        ('https://a.org/p', '。')
        >>> _gone_url("https://a.org/p).", {"https://a.org/p"}, set())
        ('https://a.org/p', ').')
    """
    if written.isascii():  # the common case, read at each bare URL
        url, rest = _bare_url(written)
        key = page_key(url)
        return (url, rest) if key in gone else None
    for end in links_wide.url_ends(_bare_url(written)[0]):
        url = _bare_url(end)[0]
        key = page_key(url)
        if key in shown:
            return None
        if key in gone:
            cut = url.rstrip(links_wide.WIDE_STOPS)
            return cut, written[len(cut) :]
    return None


def _unbared(answer: str, gone: set[str], shown: set[str]) -> str:
    """``answer`` without the URLs written bare in it of the ``gone`` pages.

    Codex's answer with no ``url_citation`` names its sources so (its parser makes a source
    of each such URL), as does OpenRouter's route to Perplexity: a URL cut from the sources
    stayed in the text, pointing at a page the response no longer shows. One alone in
    parentheses (or in ``<>``) goes with them, one alone on a line (a list item) with its
    line, one in a sentence so that the sentence reads on (:func:`_closed`). A URL inside
    a Markdown link is the link's business (:func:`unlinked`): only URLs outside any link
    are looked at.
    """
    if "://" not in answer:
        return answer
    text = _Tidied(answer)
    end = 0
    for found in _bare_urls(answer):
        start = found.url_start
        if _in_link(answer, start):
            continue
        split = _gone_url(found.url, gone, shown)
        if split is None:
            continue
        url, rest = split
        stop = start + len(url)
        if answer[start - 1 : start] == "<" and answer[stop : stop + 1] == ">":
            start, stop = start - 1, stop + 1  # Markdown's `<url>`: its brackets go with it
            rest = rest.removeprefix(">")
        alone = found.open_start is not None and rest.startswith(")")
        if found.line and not alone and _ends_line(answer, max(stop, found.end)):
            # The line (a list item) held the URL alone: it goes.
            text.add(answer[end : found.start])
            end = answer.find("\n", found.end) + 1 or len(answer)
            continue
        if found.open_start is not None and alone:
            start, stop = found.open_start, stop + 1  # the parentheses held the URL alone
        text.add(answer[end:start])
        end = stop + text.cut(stop)
    text.add(answer[end:])
    return text.joined()


@dataclass(frozen=True)
class _Bare:
    """A URL written bare (:data:`_BARE`) and what stands before it on its line."""

    start: int
    """Where it starts with its list marker's line, or the parenthesis before it and the
    spaces before that."""
    url_start: int
    url: str
    """The URL as matched, with the punctuation it may have taken (:func:`_bare_url`)."""
    end: int
    line: bool
    """Only spaces and a list marker stand between the line's start and the URL (or the
    parenthesis before it)."""
    open_start: int | None
    """Where the parenthesis before the URL (spaces between them allowed) starts, with the
    spaces before it unless the URL's line holds only them before it; ``None``: none."""


def _bare_urls(answer: str) -> Iterator[_Bare]:
    """Every URL written bare in ``answer`` (:data:`_BARE`), read back to what is before it.

    Reading the list marker and the parenthesis backwards from each URL (never past the
    one before) reads each character once; a pattern that tried them at each character
    read a run of spaces again from each of its characters.

    Example:
        >>> [(u.start, u.line, u.open_start) for u in _bare_urls("- (https://a.org) b")]
        [(0, True, 2)]
    """
    previous = 0
    for match in _BARE.finditer(answer):
        before = match.start()
        paren = _blanks_from(answer, before, previous)
        opened = paren > previous and answer[paren - 1] == "("
        opening = paren - 1 if opened else before
        line_start = answer.rfind("\n", previous, opening) + 1
        if line_start == 0 and previous > 0:
            line_start = -1  # the line opened before the URL before: no marker of this one's
        line = line_start >= 0 and _LINE_OPENING.fullmatch(answer, line_start, opening) is not None
        open_start = None
        if opened:
            open_start = paren - 1
            if not line:
                open_start = _blanks_from(answer, open_start, previous)
        start = line_start if line else (open_start if open_start is not None else before)
        yield _Bare(start, match.start("url"), match["url"], match.end(), line, open_start)
        previous = match.end()


def _closed(left: str, right: str) -> tuple[str, int]:
    """The text before a cut made readable, and how many characters after it go too.

    A cut URL took no words of the answer with it, but the words around it were written
    for it. Each rule takes out only what was there for the URL alone:

    * a word that pointed at it (``see``, ``visit``, ``at``, ``via``, and their kin in
      German, French and Spanish: :mod:`.link_words`) where nothing but a clause's end (or
      ``for details``) follows; a sentence opened by ``See <url>`` whole, as one that only
      asked the reader to go there (``You can visit <url>.``, ``Sie können <url>
      besuchen.``: :func:`_asked_around`); Chinese and Japanese pointing words with their
      sentence or clause (``很大。详见<url>。``: :func:`.links_wide.pointed`);
    * a sentence whose predicate was ``at <url>`` alone (``Details are at <url>.``), or
      that said only where more is read (``More information at <url>.``); a list item
      whose sentence went whole goes with its marker (``- See <url>.``);
    * the ``, `` or `` and `` that joined it to another URL of a list, and a ``:`` that
      introduced it at a line's or sentence's end; a label's line (``Sources: <url>``)
      whole when the URL was all it labelled;
    * brackets left holding nothing (``(see <url>)``), a comma or full stop doubled, a
      comma the URL ended left before nothing (``Data <url>,`` at a line's end), both
      commas that set it apart (``The site, <url>, lists it.``: :func:`_apposition`);
    * the spaces: one between words, none before punctuation.

    Args:
        left: The text before the cut (the answer so far, already tidied).
        right: The text after it, to the answer's end.

    Returns:
        ``left`` tidied (with the space the text goes on after, if any) and how many
        leading characters of ``right`` go.

    Example:
        >>> _closed("The figures (see", ") differ.")
        ('The figures ', 2)
        >>> _closed("Sources: https://a.org/ and", ".")
        ('Sources: https://a.org/', 0)
        >>> _closed("Sources:", ", https://b.org/.")
        ('Sources: ', 2)
    """
    left = left.rstrip(" \t")
    head = right[:_HEAD]
    after = _CONNECTOR_AFTER.match(head)
    pointer = _pointing(left)
    if after and (
        pointer or not left or left[-1] in "\n([<:：（，、" or links_wide.ends_pointing(left)
    ):
        # The next item of a list takes the cut one's place: `see a or b` reads `see b`.
        spaced = left and left[-1] not in "\n([<" and not links_wide.is_spaceless(left[-1])
        return left + (" " if spaced else ""), after.end()
    if _ends_line(right, 0) and (label := _label_line(left)) is not None:
        line_end = right.find("\n")
        if line_end >= 0 and _URL_LINE.match(right, line_end + 1):
            return left, line_end  # the label goes on to the URLs of the lines below
        return _unlabelled(left[:label], right)
    skip = 0
    if asked := _asked_around(left, right):
        left, skip = asked
    elif wide := links_wide.pointed(left, right):
        left, skip = left[: wide.start], wide.skip
        if wide.whole:
            left, skip = _sentence_gone(left, right, skip)
    elif pointer:
        left, skip = _unpointed(left, right, pointer)
    else:
        skip = links_wide.particle(right)  # `<url>에서 발표했습니다`: the particle was its
    return _tidied(left, right, skip)


def _asked_around(left: str, right: str) -> tuple[str, int] | None:
    """The sentence around a cut URL gone, if it only asked the reader to go there.

    German writes the verb after the URL: ``Sie können <url> besuchen.`` read ``Sie
    können besuchen.``. The words before it (:data:`.link_words.ASKED_FINAL`) opening
    the sentence and its verb closing it, the sentence asked nothing else.

    Example:
        >>> _asked_around("Groß. Sie können", " besuchen. Mehr.")
        ('Groß.', 10)
        >>> _asked_around("Wir können", " besuchen.") is None
        True
    """
    verb = _FINAL_VERB.match(right, 0, _HEAD)
    if verb is None:
        return None
    asked = _ASKED_BEFORE_FINAL.search(left, max(0, len(left) - _ASKED_REACH))
    opening = left[: asked.start()].rstrip(" \t") if asked else ""
    sentence = _SENTENCE_REST.match(right, verb.end(), _HEAD)
    if asked is None or not _opens_sentence(opening) or not _said(right[:_HEAD], sentence):
        return None
    return _sentence_gone(opening, right, sentence.end() if sentence else verb.end())


def _pointing(left: str) -> re.Match[str] | None:
    """The word ending ``left`` that points at the cut URL after it, if one does.

    A word of a language that writes it as a verb too (:data:`.link_words.OPENING_ONLY`)
    points only where it opens its clause: ``(siehe <url>)``, ``Voir <url>.``, ``; ver
    <url>``, or follows words that only ask the reader to go there (``Vous pouvez voir
    <url>``: :func:`_asks_only`); after other words (``Je veux voir <url>``) it is the
    sentence's verb.

    Example:
        >>> _pointing("Big (siehe")["word"], _pointing("Je veux voir") is None
        ('siehe', True)
    """
    pointer = _POINTER.search(left, max(0, len(left) - _POINTER_REACH))
    if pointer is None:
        return None
    language, kind = _kind(pointer)
    if not kind:
        return None
    if kind == "pointer" and language in link_words.OPENING_ONLY:
        before = left[: pointer.start()].rstrip(" \t")
        if not (_opens_sentence(before) or before[-1:] in ("", "[", ",", ";", ":")):
            return pointer if _asks_only(before) else None
    return pointer


def _asks_only(before: str) -> bool:
    """Whether ``before`` ends with words that only ask the reader to go to the URL.

    :data:`_ASKED` (``Vous pouvez``), opening their sentence or joined to the one before
    (``Grand, et vous pouvez``): the verb after them points at the URL. ``Je veux voir
    <url>`` asks nothing, and its verb stays.

    Example:
        >>> _asks_only("Grand. Vous pouvez"), _asks_only("Je veux")
        (True, False)
    """
    asked = _ASKED.search(before, max(0, len(before) - _ASKED_REACH))
    if asked is None:
        return False
    opening = before[: asked.start()].rstrip(" \t")
    return _opens_sentence(opening) or _CLAUSE_JOIN.search(opening) is not None


def _kind(pointer: re.Match[str]) -> tuple[str, str]:
    """The language and kind (``pointer``, ``preposition``) of a :data:`_POINTER` match.

    ``("", "")`` for a match no row names, if Unicode's caseless matching finds one.

    Example:
        >>> _kind(_POINTER.search("Big. ſee"))
        ('en', 'pointer')
    """
    return _WORD_KINDS.get(" ".join(pointer["word"].casefold().split()), ("", ""))


def _label_line(left: str) -> int | None:
    r"""Where the label that ends ``left`` starts, if a label (``Sources:``) ends it.

    A label opens a line (after a list marker, if any) or a sentence, has at most
    :data:`_LABEL_WORDS` words and no sentence's punctuation, and, unless a list marker
    stands before it, opens with a capital (or a letter of a script with none,
    :func:`_caseless`): ``- tokyo:`` is one, ``the ministry:`` (a sentence's words broken
    over lines) is none.

    Example:
        >>> _label_line("Big.\n\n**Sources:**"), _label_line("Big. Note:")
        (6, 4)
        >>> _label_line("Figures of the ministry of health of Japan:") is None
        True
    """
    line_start = left.rfind("\n") + 1
    found = _LABEL_LINE.search(left, line_start)
    if found is None or len(found["label"].split()) > _LABEL_WORDS:
        return None
    first = found["label"][0]
    if found["marker"] is None and not (first.isupper() or _caseless(first)):
        return None
    return found.start()


def _caseless(letter: str) -> bool:
    """Whether ``letter`` is a letter of a script with no case (Korean, Chinese, Japanese).

    Such a script has no capital to open a label with: ``출처: <url>`` ("source") is one.

    Example:
        >>> _caseless("출"), _caseless("t"), _caseless("2")
        (True, False, False)
    """
    return letter.isalpha() and letter.lower() == letter.upper()


def _unlabelled(left: str, right: str) -> tuple[str, int]:
    """``left`` (the text before a label that introduced a cut URL alone) and what goes.

    The rest of the label's line goes: on a line of its own, the line with its end (and
    a blank line doubled by it); after a sentence, the label and the space before it.
    """
    line_end = right.find("\n")
    if left and not left.endswith("\n"):  # a label after a sentence on its line
        return left.rstrip(" \t"), len(right) if line_end < 0 else line_end
    if line_end < 0:  # the answer's last line: the line break before it goes too
        return left.rstrip("\n"), len(right)
    skip = line_end + 1
    if (not left or left.endswith("\n\n")) and right[skip : skip + 1] == "\n":
        skip += 1
    return left, skip


def _unpointed(left: str, right: str, pointer: re.Match[str]) -> tuple[str, int]:
    """``left`` without the word that pointed at a cut URL, and what of ``right`` goes.

    ``at`` and ``via`` go wherever they stand (their phrase was the URL); ``see`` and
    ``visit`` where the clause ends after the URL, or ``for details`` follows it; a
    sentence opened by them goes whole, as does one that said only where a thing is
    (``Details are at <url>.``: :func:`_bare_subject`). Else the verb stays: the sentence
    goes on.
    """
    head = right[:_HEAD]
    before = left[: len(left) - len(pointer[0])].rstrip(" \t")
    preposition = _kind(pointer)[1] == "preposition"
    phrase = _FOR_MORE.match(head) or (None if preposition else _on_the_url(head))
    skip = phrase.end() if phrase else 0
    rest = head[skip:].lstrip(" \t")
    sentence = _SENTENCE_REST.match(head, skip)
    if pointer["word"].casefold() == "at" and (gone := _only_where(before, right, skip)):
        return gone
    if preposition or phrase or not rest or rest[0] in _CLAUSE_ENDS:
        if sentence is not None and _said(head, sentence):
            ends = not rest or rest[0] in ".!?\n)"
            gone = _said_only_where(before, right, sentence, preposition=preposition, ends=ends)
            if gone is not None:
                return gone
        return before, skip
    if _opens_sentence(before) and sentence and _said(head, sentence):
        return _sentence_gone(before, right, sentence.end())  # `See <url> for the figures.`
    return left, 0


def _only_where(before: str, right: str, skip: int) -> tuple[str, int] | None:
    """The sentence ``<subject> is at <url>`` gone whole, if it said only where a thing is.

    Its subject is bare (:func:`_bare_subject`: ``Details are at <url>.``), and nothing but
    its end follows the URL, or a clause on the page (``Data is at <url>, which shows
    it.``: :func:`_on_the_url`, read ``Data is, which shows it.``), which speaks of the URL
    as the sentence did, or ``and more`` (:data:`_AND_ELSEWHERE`), which says only where
    too. A subject going on with ``and`` and a verb keeps that verb (``Data is at <url>
    and shows X.``, ``It is at <url> and it shows X.``). ``None``: the sentence says more,
    and only ``at`` goes.

    Args:
        before: The text before ``at``.
        right: The text after the cut URL.
        skip: What of ``right`` goes already (``for details``).
    """
    head = right[:_HEAD]
    predicate = _COPULA_AT.search(before)
    if predicate is None:
        return None
    elsewhere = None if skip else _AND_ELSEWHERE.match(head)
    if elsewhere and (gone := _said_where(before, right, predicate, elsewhere.end())):
        return gone  # `Data is at <url> and more.`
    clause = None if skip else _on_the_url(head)
    end = clause.end() if clause else skip
    rest = head[end:].lstrip(" \t")
    if rest and rest[0] not in ".!?\n)":
        going_on = None if end else _AND_GOES_ON.match(head)
        if going_on is None or going_on["verb"] in _NOT_A_VERB:
            return None
        pronoun = going_on["pronoun"]
        if pronoun and _copula(before, predicate) not in _PRONOUN_COPULAS[pronoun]:
            return None  # `They are at <url> and it shows X.`: `it` is no `they`
        # `Data is at <url> and shows X.`: the subject goes on with its other verb.
        return before[: predicate.end("subject")], going_on.start("verb")
    return _said_where(before, right, predicate, end)


def _said_where(
    before: str, right: str, predicate: re.Match[str], end: int
) -> tuple[str, int] | None:
    """The sentence (or clause) of ``predicate`` gone, if it said only where, else ``None``.

    Args:
        before: The text before ``at``.
        right: The text after the cut URL.
        predicate: :data:`_COPULA_AT` in ``before``.
        end: Where in ``right`` the words saying only where end.
    """
    head = right[:_HEAD]
    sentence = _SENTENCE_REST.match(head, end)
    if not (sentence and _said(head, sentence)) or head[end:].lstrip(" \t")[:1] not in (
        "",
        *".!?\n)",
    ):
        return None
    if _bare_subject(before, predicate):
        return _sentence_gone(before[: predicate.start()], right, sentence.end())
    if (joined := _joined_clause(before, predicate)) is not None:
        # `Tokyo is big and data is at <url>.`: the clause goes, the sentence's end stays.
        stops = sentence[0].endswith((".", "!", "?"))
        return before[:joined].rstrip(" \t"), sentence.end() - stops
    if _names_only(before, predicate):
        # `Tokyo and Osaka are at <url>.`: where two things are was all it said.
        return _sentence_gone(before[: predicate.start()], right, sentence.end())
    return None


def _joined_clause(before: str, predicate: re.Match[str]) -> int | None:
    """Where the clause ``<subject> is`` joined to the clause before it starts, if one.

    :data:`_COPULA_AT` takes ``Tokyo is big and data`` as the subject of ``is at <url>``:
    the words after the last join (:data:`_SUBJECT_JOIN`) are a bare subject, and those
    before it a clause (a verb of :data:`_CLAUSE_VERBS`, or a comma or semicolon joining
    them), so the clause ``and data is at <url>`` said only where a thing is, and goes.
    ``Tokyo and Osaka are at <url>`` is one subject: ``None``.

    Example:
        >>> before = "Tokyo is big and data is"
        >>> before[: _joined_clause(before, _COPULA_AT.search(before))]
        'Tokyo is big'
        >>> _joined_clause("Tokyo and Osaka are", _COPULA_AT.search("Tokyo and Osaka are"))
    """
    subject = predicate["subject"]
    opening = before[: predicate.start()].rstrip(" \t")
    if (lead := _LEADING_JOIN.match(subject)) and opening.endswith((",", ";")):
        # `Tokyo is big, and data is at <url>.`: the comma ended the subject's reading.
        return len(opening) - 1 if _own_subject(subject[lead.end() :]) else None
    joins = list(_SUBJECT_JOIN.finditer(subject))
    if not joins or not _opens_sentence(opening):
        return None
    join = joins[-1]
    first = subject[: join.start()].lower().split()
    if not _own_subject(subject[join.end() :]):
        return None
    singular = _copula(before, predicate) in _SINGULAR and _no_noun_phrase(
        subject[: join.start()].split()
    )
    if not (_a_clause(first) or singular or join[0].lstrip(" \t")[:1] in (",", ";")):
        return None
    return predicate.start("subject") + join.start()


def _no_noun_phrase(words: list[str]) -> bool:
    """Whether ``words`` (as written) before a join may be a clause, read by their shape.

    Two words or more, not opened by a determiner nor all with a capital: ``Tokyo grew``
    may be a clause, ``the report``, ``New York`` and ``Research`` (``Research and
    development is ...``, one thing) are none.

    Example:
        >>> _no_noun_phrase(["Tokyo", "grew"]), _no_noun_phrase(["New", "York"])
        (True, False)
    """
    return (
        len(words) >= 2
        and words[0].lower() not in _DETERMINERS
        and not all(word[:1].isupper() for word in words)
    )


def _copula(before: str, predicate: re.Match[str]) -> str:
    """The first word of what follows the subject in ``predicate`` (``is``, ``are``, ``can``)."""
    words = before[predicate.end("subject") :].split()
    return words[0].lower() if words else ""


def _a_clause(words: list[str]) -> bool:
    """Whether ``words`` (lower case) before a join hold a verb: they are a clause.

    A verb of :data:`_CLAUSE_VERBS`, or a last word of five letters or more ending ``-ed``
    (``Tokyo expanded``), not a noun's ``-eed`` (``the speed``), in words that may be a
    clause by their shape (:func:`_no_noun_phrase`: ``the data collected`` may be a
    subject).

    Example:
        >>> _a_clause(["tokyo", "grew"]), _a_clause(["tokyo", "expanded"])
        (True, True)
        >>> _a_clause(["tokyo"]), _a_clause(["the", "figures", "collected"])
        (False, False)
    """
    if _CLAUSE_VERBS.intersection(words):
        return True
    last = words[-1] if words else ""
    return (
        _no_noun_phrase(words)
        and len(last) >= 5
        and last.endswith("ed")
        and not last.endswith("eed")
    )


def _names_only(before: str, predicate: re.Match[str]) -> bool:
    """Whether ``predicate``'s subject is a list of names or noun phrases opening the sentence.

    ``Tokyo and Osaka are at <url>.`` said only where they are, as ``Details are at
    <url>.`` did (:func:`_bare_subject`), and goes whole. Each part one word, words each
    with a capital (``New York``), or opened by a determiner (``the report``), none a verb
    (:func:`_a_clause`): ``Tokyo expanded and the figures are`` holds a clause.

    Example:
        >>> b = "Big. Tokyo and Osaka are"
        >>> _names_only(b, _COPULA_AT.search(b))
        True
        >>> b = "Tokyo expanded and the figures are"
        >>> _names_only(b, _COPULA_AT.search(b))
        False
    """
    subject = predicate["subject"]
    parts = _LIST_PARTS.split(subject)
    if len(parts) < 2 or not _opens_sentence(before[: predicate.start()].rstrip(" \t")):
        return False
    for part in parts:
        words = part.split()
        lower = [word.lower() for word in words]
        if not words or len(words) > 4 or _NOT_A_SUBJECT.intersection(lower) or _a_clause(lower):
            return False
        named = all(word[:1].isupper() for word in words)
        if not (len(words) == 1 or named or lower[0] in _DETERMINERS):
            return False
    return True


def _own_subject(words: str) -> bool:
    """Whether ``words`` may be a clause's bare subject: a few words, none a verb or join."""
    own = words.lower().split()
    return bool(own) and len(own) <= _LABEL_WORDS + 2 and not _NOT_A_SUBJECT.intersection(own)


def _said(head: str, sentence: re.Match[str] | None) -> bool:
    """Whether the rest of a sentence (:data:`_SENTENCE_REST`) holds no URL and no link.

    It stops at a parenthesis, so a link's words (``[b](https://...)``) were in it and its
    URL not: main took ``(see <url>, lists [b](<kept>))`` whole to the link's ``(`` and left
    ``((<kept>))``, a page shown losing its link.

    Example:
        >>> _said("x, lists [b](https://b.org/)).", _SENTENCE_REST.match("x, lists [b]("))
        False
    """
    if sentence is None or "://" in sentence[0]:
        return False
    return not (sentence[0].endswith("]") and head.startswith("(", sentence.end()))


def _on_the_url(head: str) -> re.Match[str] | None:
    """A clause on the URL that ``see <url>`` goes on with to its sentence's end, if one.

    ``For details, see <url>, which lists them.`` read ``For details, which lists them.``:
    the ``which`` clause spoke of the page, and goes with it as ``for details`` does. Not
    where it holds a URL or a link, or runs past what is read of it.

    Example:
        >>> _on_the_url(", which lists them. More.")[0]
        ', which lists them'
    """
    clause = _ON_THE_URL.match(head)
    return clause if clause is not None and "://" not in clause[0] else None


def _said_only_where(
    before: str, right: str, sentence: re.Match[str], *, preposition: bool, ends: bool
) -> tuple[str, int] | None:
    """The sentence (or clause) of a pointing word that said nothing but where the URL is.

    ``See <url>.`` and ``You can visit <url> for details.`` (:data:`_ASKED`) go whole, as
    does ``More information at <url>.`` (:data:`_LEAD`, where the URL ends the sentence);
    ``Big, and you can see <url>.`` loses its clause and keeps its full stop. ``None``: the
    sentence says more, and only the pointing word goes.

    Args:
        before: The text before the pointing word.
        right: The text after the cut URL.
        sentence: The rest of the sentence after it (:data:`_SENTENCE_REST`), no URL in it.
        preposition: The word is a preposition (``at``), not an imperative (``see``).
        ends: The sentence ends right after the URL.
    """
    reach = max(0, len(before) - _ASKED_REACH)
    if preposition:
        lead = _LEAD.search(before, reach) if ends else None
        opening = before[: lead.start()].rstrip(" \t") if lead else ""
        if lead and _opens_sentence(opening):
            return _sentence_gone(opening, right, sentence.end())  # `Details at <url>.`
        return None
    if _opens_sentence(before):
        return _sentence_gone(before, right, sentence.end())  # `See <url>.`
    asked = _ASKED.search(before, reach)
    if asked is None:
        return None
    opening = before[: asked.start()].rstrip(" \t")
    if _opens_sentence(opening):
        return _sentence_gone(opening, right, sentence.end())  # `You can see <url>.`
    if joined := _CLAUSE_JOIN.search(opening):
        # `Big, and you can see <url>.`: the clause asked only that; its end stays.
        stops = sentence[0].endswith((".", "!", "?"))
        return opening[: joined.start()].rstrip(" \t"), sentence.end() - stops
    return None


def _sentence_gone(before: str, right: str, end: int) -> tuple[str, int]:
    """``before`` and what of ``right`` goes once a sentence ending at ``end`` went whole.

    A sentence that was its line's all takes the line with it (:func:`_unlabelled`): no
    empty line is left where it stood; one that was a list item's all takes its item, the
    marker with it (``- See <url>.`` left ``-.``).
    """
    item = _item_start(before.rstrip(" \t"))
    if item is not None and _ends_line(right, end):
        before = before[:item]
    if (not before or before.endswith("\n")) and _ends_line(right, end):
        left, skip = _unlabelled(before, right[end:])
        return left, end + skip
    return before.rstrip(" \t"), end


def _bare_subject(before: str, predicate: re.Match[str]) -> bool:
    """Whether ``predicate`` (:data:`_COPULA_AT`) is a sentence's all before ``at <url>``.

    It opens the sentence, and its subject is no clause (no verb, no ``and``): ``Details
    are at <url>.`` said only where the details are, and goes whole; ``Tokyo is big and
    details are at <url>.`` said more, and only ``at <url>`` goes.

    Example:
        >>> _bare_subject("Big. Details are", _COPULA_AT.search("Big. Details are"))
        True
    """
    words = predicate["subject"].lower().split()
    return (
        len(words) <= _LABEL_WORDS + 2
        and not _NOT_A_SUBJECT.intersection(words)
        and _opens_sentence(before[: predicate.start()].rstrip(" \t"))
    )


def _tidied(left: str, right: str, skip: int) -> tuple[str, int]:
    """``left`` and ``right[skip:]`` joined (:func:`_closed`), and what of ``right`` goes.

    No connector, colon or brackets left for nothing, no punctuation doubled, one space
    between words.
    """
    while True:
        rest = right[skip:]
        stripped = rest.lstrip(" \t")
        spaces, follows = len(rest) - len(stripped), stripped[:1]
        last = left[-1:]
        ends = not follows or follows in _ANY_CLAUSE_ENDS
        ends = ends or _FOR_MORE.match(rest) is not None
        if last in _PAIRS and follows == _PAIRS[last]:
            left, skip = left[:-1].rstrip(" \t"), skip + spaces + 1
        elif ends and (found := _CONNECTOR_BEFORE.search(left[-_HEAD:])):
            left = left[: len(left) - len(found[0])].rstrip(" \t")
            if found[0] == "," and follows == "," and _apposition(left, rest[spaces + 1 :]):
                skip += spaces + 1  # `, <url>,` set the URL apart: both its commas go
        elif last == ":" and (not follows or follows in ".!?\n"):
            left = left[:-1].rstrip(" \t")
        elif _doubled(last, follows) or (follows == "," and _ends_clause(rest[spaces + 1 :])):
            skip += spaces + 1
        else:
            break
    joins = left and left[-1] not in "\n([<" and follows and follows not in _CLAUSE_ENDS
    if joins and _wide_join(left[-1], follows):
        return left, skip + spaces
    return left + (" " if joins else ""), skip + spaces


def _wide_join(last: str, follows: str) -> bool:
    """Whether ``last`` and ``follows`` join with no space.

    Chinese or Japanese on both sides, or a full-width mark on either: such text writes
    none (``很大（<url>）。`` reads ``很大。``).
    """
    wide_last, wide_follows = links_wide.is_spaceless(last), links_wide.is_spaceless(follows)
    marks = links_wide.WIDE_STOPS + "（【「『《"
    return (wide_last and wide_follows) or last in marks or follows in marks


def _apposition(before: str, after: str) -> bool:
    """Whether the cut URL stood between commas as a word's apposition, both commas its.

    ``The official site, <url>, lists it.`` read ``The official site, lists it.``: the
    commas set the URL apart, and go with it. Only between a word (no URL, link, number or
    bracket: a list's item) and a word in lower case that goes on the sentence (not a
    list's ``and`` / ``or``, nor ``which`` / ``that`` opening a clause on the URL): ``In
    Tokyo, <url>, the population grew.`` reads ``In Tokyo the population grew.``, its
    comma after a short opening being one English may leave out.

    Example:
        >>> _apposition("The site", " lists it."), _apposition("See a.org", " b.org.")
        (True, False)
    """
    word = before.rsplit(None, 1)[-1:]
    following = after.split(None, 1)[:1]
    if not word or not following or not after[:1].isspace():
        return False
    going_on = following[0].isalpha() and following[0].islower()
    return word[0].isalpha() and going_on and following[0] not in _APPOSITION_NOT


def _doubled(last: str, follows: str) -> bool:
    """Whether ``follows`` (a comma or a sentence's end) repeats or has nothing to end.

    Chinese and Japanese marks (``，``, ``。``) count as their kin.
    """
    if follows in (",", "，", "、"):
        return not last or last in "\n([<:,;.!?（，、；：。！？"
    ends = ".!?;:。！？；："
    return bool(follows) and follows in ends and (not last or last in "\n" + ends)


def _ends_clause(rest: str) -> bool:
    """Whether ``rest`` (what follows a comma) opens with nothing the comma could come before.

    A comma the cut URL ended (``Data <url>,`` at a line's end, ``(Data <url>,)``) is left
    before nothing, and goes; one before words (``Data <url>, per the census``) may be the
    sentence's own (``In Tokyo <url>, it grew``) and stays.
    """
    follows = rest.lstrip(" \t")[:1]
    return not follows or follows in "\n)]>.!?;:"


def _opens_sentence(before: str) -> bool:
    """Whether a word after ``before`` opens a sentence (or a parenthesis).

    A sentence's markers (``million.[1] See``) stand after its full stop.

    Example:
        >>> _opens_sentence("Big.[1][2]"), _opens_sentence("Big, and")
        (True, False)
    """
    before = _MARKERS_AT_END.sub("", before)
    return not before or before[-1] in "\n.!?(" or _item_start(before) is not None


def _item_start(before: str) -> int | None:
    r"""Where the line of ``before`` starts if all it holds is a list item's marker.

    Example:
        >>> _item_start("Big.\n- "), _item_start("Big.\n12."), _item_start("Big -")
        (5, 5, None)
    """
    line_start = before.rfind("\n") + 1
    return line_start if _ITEM_MARKER.fullmatch(before, line_start) else None


def _in_link(answer: str, start: int) -> bool:
    """Whether the URL at ``start`` is a Markdown link's target (``](`` just before it)."""
    return answer[max(0, start - 2) : start] == "]("


def _ends_line(answer: str, stop: int) -> bool:
    """Whether nothing but spaces or a sentence's end follows ``stop`` on its line."""
    line_end = answer.find("\n", stop)
    rest = answer[stop : len(answer) if line_end < 0 else line_end]
    return not rest.strip(" \t" + _TRAILING)
