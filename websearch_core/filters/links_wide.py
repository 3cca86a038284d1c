"""Chinese and Japanese text around a cut URL: where the URL ends, and the words it takes.

:func:`~.links.unlinked` takes a cut page's URL out of an answer, and the words written for
it alone (:func:`~.links._closed`). Those rules read words between spaces; Chinese and
Japanese write none, and end their sentences and clauses with full-width marks (``。``,
``，``, ``：``, ``（）``). Two things differ:

* Where a bare URL ends. ``详情请见https://a.org/p。`` and ``https://a.org/pを参照`` run
  the URL into the text: a URL pattern takes ``p。`` or ``pを参照`` as its path (Codex's
  parser does: the source it makes keeps them). :func:`url_ends` gives the places a
  written URL may end, longest first: as written, without the full-width marks closing
  it, and before each run of wide characters that follows an ASCII one.
* The words that point at it (Korean's too: :data:`.link_words.HANGUL_BEFORE`,
  :data:`.link_words.HANGUL_AFTER`). A reader of ``很大。详情请见 <url>。`` expects ``很大。``:
  the sentence said only where the details are. The pointing words are
  :data:`.link_words.WIDE_BEFORE` (``详见``, ``参见``, ``請參考``, ``詳しくは``) and
  :data:`.link_words.WIDE_AFTER` (``を参照``, ``をご覧ください``); :func:`pointed` finds
  them, and what the URL's clause or sentence was.
"""

import re
from dataclasses import dataclass
from typing import Final

from . import link_words

__all__ = [
    "WIDE_STOPS",
    "Pointed",
    "ends_pointing",
    "is_spaceless",
    "is_wide",
    "particle",
    "pointed",
    "url_ends",
]

_WIDE_CHARS: Final = (
    "\u3000-\u30ff"  # CJK symbols and punctuation, hiragana, katakana
    "\u3400-\u4dbf"  # CJK extension A
    "\u4e00-\u9fff"  # CJK unified ideographs
    "\uac00-\ud7af"  # Hangul syllables
    "\uf900-\ufaff"  # CJK compatibility ideographs
    "\uff00-\uffef"  # half-width and full-width forms
)
_WIDE: Final = re.compile(f"[{_WIDE_CHARS}]")
_WIDE_AFTER_ASCII: Final = re.compile(f"(?<=[\\x21-\\x7e])[{_WIDE_CHARS}]")
"""A wide character right after an ASCII one in a URL as written: a place it may end."""
WIDE_STOPS: Final = "。，、；：！？）」』】》〉．；：！？"
"""Full-width marks that close a sentence, a clause or a bracket: never a URL's last
character as a page writes it (a URL ending so ran into the text)."""
_SENTENCE_ENDS: Final = "。！？!?."
_CLAUSE_MARKS: Final = "，、；：,;:"
_OPENINGS: Final = "（(【「『《"
_CLOSINGS: Final = "）)】」』》"
_LISTED: Final = re.compile(r"[ \t]*(?:<?https?://|\[)")
"""A URL or a link after a clause mark: the cut URL was a list's item."""
_ITEM: Final = re.compile(r"(?:\A|\n)[ \t]*(?:[-*+]|\d{1,3}[.)])\Z")
"""A list item's marker, alone before the words opening the item."""
_SAID: Final = re.compile(
    r"(?:[^\x00\n。！？!?()（）\[\]:/.]|\.(?=\d)){0,200}+(?=[。！？!?\n）)]|\.(?!\d)|\Z)"
)
"""The words of a sentence after a pointed-at URL, to its end: no bracket, no URL in them,
at most 200 characters (as far as :mod:`.links` reads past a cut) and none of its window's
end (``\\x00``)."""
_REACH: Final = 40
"""How far back from a cut a wide pointing word may start."""
_HANGUL: Final = re.compile("[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]")
"""Korean letters: wide, but Korean writes spaces between its words."""
_PARTICLE: Final = re.compile(
    "(?:"
    + "|".join(sorted(link_words.HANGUL_PARTICLES, key=len, reverse=True))
    + r")(?=[\s.,!?)]|\Z)"
)
"""A Korean particle written against the URL before it, ending its word."""


def _words(phrases: tuple[str, ...]) -> str:
    """``phrases`` as one alternation, longest first, a space standing for any run of them."""
    ordered = sorted(phrases, key=len, reverse=True)
    return "|".join(re.escape(phrase).replace(r"\ ", r"[ \t]+") for phrase in ordered)


_BEFORE_WORDS: Final = _words(link_words.WIDE_BEFORE + link_words.HANGUL_BEFORE)
_BEFORE: Final = re.compile(rf"(?P<word>(?:{_BEFORE_WORDS})(?:[ \t]*(?:{_BEFORE_WORDS}))?)[ \t]*\Z")
"""Pointing words before the URL, two of them at most (Korean ``자세한 내용은 다음을
참조하세요:``)."""
_AFTER: Final = re.compile(
    r"[ \t]*(?P<word>" + _words(link_words.WIDE_AFTER + link_words.HANGUL_AFTER) + ")"
)


def is_wide(char: str) -> bool:
    """Whether ``char`` is a Chinese, Japanese or Korean character or full-width mark.

    Example:
        >>> is_wide("。"), is_wide("京"), is_wide("a"), is_wide("")
        (True, True, False, False)
    """
    return char >= "\u3000" and _WIDE.fullmatch(char) is not None


def is_spaceless(char: str) -> bool:
    """Whether ``char`` is of a script written with no spaces (Chinese, Japanese) or a mark.

    Korean's letters are wide but take spaces between words.

    Example:
        >>> is_spaceless("京"), is_spaceless("。"), is_spaceless("서"), is_spaceless("a")
        (True, True, False, False)
    """
    return is_wide(char) and _HANGUL.fullmatch(char) is None


def particle(right: str) -> int:
    """How long the Korean particle run into a cut URL is (``<url>에서``), or 0.

    Korean writes its particle against the word it marks, here the URL: with the URL gone
    it marks nothing (``서울 인구는 에서 발표했습니다.``), and goes with it.

    Example:
        >>> particle("에서 발표했습니다."), particle("에서는 더."), particle("에어컨")
        (2, 3, 0)
    """
    if not _HANGUL.match(right):
        return 0  # the common case, read at each cut
    found = _PARTICLE.match(right)
    return found.end() if found else 0


def url_ends(written: str) -> list[str]:
    """The URLs ``written`` (a bare URL as a pattern took it) may be, longest first.

    As written; without the full-width marks closing it (``https://a.org/东京。``); before
    each run of wide characters after an ASCII one (``https://a.org/pを参照``). A URL
    whose path is wide (``/wiki/东京``) is tried whole first, so a page named so is found.

    Example:
        >>> url_ends("https://a.org/pをご覧ください。")
        ['https://a.org/pをご覧ください。', 'https://a.org/pをご覧ください', 'https://a.org/p']
        >>> url_ends("https://a.org/p")
        ['https://a.org/p']
    """
    if written.isascii():
        return [written]  # the common case, read at each bare URL
    ends = [written, written.rstrip(WIDE_STOPS)]
    ends += [
        written[: found.start()] for found in reversed(list(_WIDE_AFTER_ASCII.finditer(written)))
    ]
    return list(dict.fromkeys(end for end in ends if end))


def ends_pointing(left: str) -> bool:
    """Whether ``left`` ends with a Chinese or Japanese word pointing at the URL after it.

    Example:
        >>> ends_pointing("很大。参见"), ends_pointing("很大。")
        (True, False)
    """
    return _BEFORE.search(left, max(0, len(left) - _REACH)) is not None


@dataclass(frozen=True)
class Pointed:
    """What the words around a cut URL pointed at it with, in a sentence with no spaces."""

    start: int
    """Where what goes starts in the text before the cut."""
    skip: int
    """How many characters of the text after the cut go."""
    whole: bool
    """The sentence went whole: ``start`` is just after the sentence before's end."""


def pointed(left: str, right: str) -> Pointed | None:
    """The words pointing at a cut URL written in Chinese or Japanese, and what goes.

    A pointing word before the URL (``详见``, ``詳しくは``) or after it (``を参照``), with
    nothing but the sentence's or the clause's end after them, said only where more is to
    be read: opening its sentence (or a bracket) it goes with the sentence, and its end
    (``很大。详见<url>。`` reads ``很大。``); after a clause mark it goes with the mark
    (``数据很多，详见<url>。`` reads ``数据很多。``). Words going on after a pointing word
    and the URL speak of its page (``参见<url>中的表格。``, "see the table in <url>"), and
    go with it to the sentence's end (``参见中的表格。`` was left); where they hold a URL,
    a link or a bracket, or no word points, ``None``. Korean writes spaces, and a particle
    and verb after the URL (``자세한 내용은 <url>를 참조하세요.``): the same rule reads it.

    Args:
        left: The text before the cut, its blanks at the end taken out.
        right: The text after it.

    Example:
        >>> pointed("很大。详情请见", "。更多。")
        Pointed(start=3, skip=1, whole=True)
        >>> pointed("数据很多，详见", "。")
        Pointed(start=4, skip=0, whole=False)
        >>> pointed("参见", "中的表格。")
        Pointed(start=0, skip=5, whole=True)
        >>> pointed("서울은 큽니다. 자세한 내용은", "를 참조하세요. 더.")
        Pointed(start=8, skip=8, whole=True)
    """
    last = left[-2:-1] if left[-1:] == ":" else left[-1:]  # `참고: <url>`
    if not (is_wide(last) or is_wide(right[: _REACH + 1].lstrip(" \t")[:1])):
        return None  # no wide word either side: the common case, read at each cut
    before = _BEFORE.search(left, max(0, len(left) - _REACH))
    after = _AFTER.match(right)
    if before is None and after is None:
        return _opening_its_sentence(left, right)
    start = before.start() if before else len(left)
    opening = left[:start].rstrip(" \t")
    skip = after.end() if after else 0
    blanks = len(right) - skip - len(right[skip:].lstrip(" \t"))
    follows = right[skip + blanks : skip + blanks + 1]
    if before is None and opening[-1:].isascii() and opening[-1:].isalnum():
        return None  # `see <url>を参照` mixes scripts: the general rules' to read
    if follows and follows not in _SENTENCE_ENDS + _CLAUSE_MARKS + _CLOSINGS + "\n":
        said = _said_of(right, skip + blanks) if before and not after else None
        if said is None:
            return None
        skip, blanks, follows = said, 0, right[said : said + 1]
    if follows in _CLAUSE_MARKS and _LISTED.match(right, skip + blanks + 1):
        return None  # `参见<url>、<url>`: the next URL takes its place (a list's rule)
    mark = opening[-1:]
    if _ITEM.search(opening) or not mark or mark == "\n" or mark in _SENTENCE_ENDS + _OPENINGS:
        if follows and follows in _SENTENCE_ENDS + _CLAUSE_MARKS:
            skip += blanks + 1  # the sentence (or clause) it opened ends here, and goes
        return Pointed(len(opening), skip, whole=True)
    if mark in _CLAUSE_MARKS:
        return Pointed(len(opening) - 1, skip, whole=False)
    return None


def _opening_its_sentence(left: str, right: str) -> Pointed | None:
    """The sentence a URL opens with no pointing word, run into the words on its page.

    ``很大。<url>中的表格。`` ("the table in <url>") read ``很大。中的表格。``: the URL
    opened its sentence (after a sentence's end, a bracket, a list marker or at a line's
    start) and Chinese or Japanese words ran on from it, with no blank, to the sentence's
    end: they spoke of the page, and go with it, as after ``参见``. Not where a blank or a
    mark follows the URL, the URL stands inside a sentence (``东京<url>很大``), or the words
    hold a URL, a link or a bracket (:func:`_said_of`).

    Example:
        >>> _opening_its_sentence("很大。", "中的表格。更多。")
        Pointed(start=3, skip=5, whole=True)
        >>> _opening_its_sentence("东京", "很大。") is None
        True
    """
    first = right[:1]
    if not is_spaceless(first) or first in WIDE_STOPS + _OPENINGS + "\u3000":
        return None
    opening = left.rstrip(" \t")
    mark = opening[-1:]
    if not (
        _ITEM.search(opening) or not mark or mark == "\n" or mark in _SENTENCE_ENDS + _OPENINGS
    ):
        return None
    said = _said_of(right, 0)
    if said is None:
        return None
    follows = right[said : said + 1]
    return Pointed(len(opening), said + (follows in _SENTENCE_ENDS), whole=True)


def _said_of(right: str, at: int) -> int | None:
    """Where the sentence ends whose words after a pointed-at URL speak of its page.

    ``参见<url>中的表格。`` ("see the table in <url>") pointed at the page and said
    nothing else: its words go with it to the sentence's (or the bracket's) end. ``None``
    where they are not Chinese, Japanese or Korean, hold a URL, a link or a bracket, or run
    past what a cut reads (:data:`_HEAD`).

    Example:
        >>> _said_of("中的表格。更多。", 0), _said_of("中的 https://b.org/ 表格。", 0)
        (4, None)
    """
    if not is_wide(right[at : at + 1]):
        return None
    said = _SAID.match(right, at)
    return said.end() if said else None
