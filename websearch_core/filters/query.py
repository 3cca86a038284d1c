"""Search directives as people type them, read out of the query text.

``site:example.com``, ``-site:example.com``, ``after:2025-01-01``, ``before:2025-06-30``,
``"exact phrase"``, ``-term``, ``OR``, ``filetype:pdf``, ``inurl:`` / ``-inurl:``,
``intitle:`` / ``-intitle:`` and ``intext:`` / ``-intext:`` (with the aliases the behaviour
reference's parser reads: ``url:``, ``title:``, ``inbody:``, ``inanchor:``, and ``domain:``
/ ``host:``, ``since:``, ``until:`` for ``site:``, ``after:``, ``before:``), and the
reference's boolean operators (section 6.2): ``NOT`` / ``!`` before a term or directive
negate it (``NOT site:x`` is ``-site:x``; ``NOT -x`` and ``NOT NOT x`` are ``-x``, as the
reference's ``NOT`` is a flag, no toggle), ``|`` and ``||`` are ``OR``, ``AND`` and ``&&``
go (every word is wanted anyway), ``+term`` is an exact phrase; an empty value takes the
next token (``site: example.com``), a lone ``-`` negates the quoted phrase after it (and
goes before anything else), ``--site:x`` is ``-site:x``, ``allintitle:a b`` is
``intitle:a intitle:b`` (so for ``allinurl:`` and ``allintext:``), ``lang:de`` (or
``language:``) is the search's language, and parentheses are split off the words and
dropped (6.1: ``(a OR b)`` is ``a OR b``; a ``)`` balanced in its word stays, as in
``site:en.wikipedia.org/wiki/Rust_(programming_language)``). A model writes
constraints the way it has seen people write them, so the query is where they arrive. A
token that only looks like a directive (``after:lunch``, ``site:`` with no domain,
``intitle:`` with no words, ``!important``, ``AND`` with no word on one side) stays plain
text, so a query is never refused for what might just be words.
"""

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from types import MappingProxyType
from typing import Final, Literal

from ..domain_names import site_domain
from ..language_tags import language_tag

__all__ = [
    "DIRECTIVE_ARGUMENTS",
    "Token",
    "TokenKind",
    "date_bounds",
    "filetype_refusal",
    "is_negated_filetype",
    "parse_date_value",
    "parse_domain",
    "site_refusal",
    "tokenize",
]

TokenKind = Literal[
    "text",
    "or",
    "and",
    "phrase",
    "exclude_term",
    "site",
    "exclude_site",
    "after",
    "before",
    "filetype",
    "exclude_filetype",
    "in_url",
    "exclude_in_url",
    "in_title",
    "exclude_in_title",
    "in_text",
    "exclude_in_text",
    "lang",
]

_WORDS_IN_NAMES: Final = (
    "inurl|url|intitle|title|intext|inbody|inanchor|allintitle|allinurl|allintext"
)
_QUOTES: Final = '"\u201c\u201d'
"""The reference's quote characters (6.1): ``"`` and the typographic ``\u201c`` ``\u201d``
a model or a pasted text may use; any of them opens or closes a quoted span."""
_QUOTED: Final = rf"[{_QUOTES}](?P<{{name}}>\s*+[^{_QUOTES}\s][^{_QUOTES}]*+)[{_QUOTES}]"
"""A quoted span holding a non-blank. Possessive: the span can only end at the next quote,
and the older three-part span tried every split of an unclosed one (16,000 characters:
20 s)."""
_STRAY_QUOTE: Final = rf"[{_QUOTES}](?!\s*+[^{_QUOTES}\s][^{_QUOTES}]*+[{_QUOTES}])"
"""A quote that opens no quoted span (no closing quote after it, or only blanks between):
it stays in its word (``don"t``, ``intitle:"rust``)."""
_WORD: Final = rf"(?P<word>(?:[^\s{_QUOTES}]+|{_STRAY_QUOTE})+)"
"""A word, which a quote opening a span ends (6.1: ``x"a b"`` is ``x`` and ``"a b"``)."""
_TOKEN: Final = re.compile(rf"(?P<open>\(+)|(?P<neg>-?){_QUOTED.format(name='phrase')}|{_WORD}")
"""Opening parentheses, a ``"phrase"`` or a word: a word's leading ``(`` are split off
(reference 6.1), so ``("a b" OR c)`` reads its phrase."""
_TOKEN_OR_QUOTED_VALUE: Final = re.compile(
    rf"(?P<open>\(+)|(?P<neg>-?){_QUOTED.format(name='phrase')}"
    rf"|(?P<named>-?(?i:{_WORDS_IN_NAMES}):){_QUOTED.format(name='quoted')}"
    rf"|(?P<other>-?(?i:[a-z][a-z-]*):){_QUOTED.format(name='swallowed')}"
    rf"|{_WORD}"
)
""":data:`_TOKEN`, or a name with a quoted value: a words-in directive's (``intitle:"error
handling"``) or any other name's, which 6.1 swallows into one word (``error:"not found"``
is the word ``error:not found``, read as a directive if it is one: ``site:"x.org"``).
Used only on a query holding a quote after a ``:`` (:data:`_QUOTED_VALUE`), as it takes
twice the time."""
_QUOTED_VALUE: Final = re.compile(rf":[{_QUOTES}]")
_STRAIGHT: Final = str.maketrans("\u201c\u201d", '""')
"""Typographic quotes to straight ones, in the text a provider is sent."""
_NAMES: Final = (
    rf"site|domain|host|after|since|before|until|filetype|ext|lang|language|{_WORDS_IN_NAMES}"
)
_DIRECTIVE: Final = re.compile(
    rf"^(?P<neg>-?)(?P<key>{_NAMES}):(?P<value>\S+)$",
    re.IGNORECASE,
)
_EMPTY_VALUE: Final = re.compile(rf"^-?(?P<key>{_NAMES}):$", re.IGNORECASE)
"""A directive typed with a space before its value (``site: example.com``)."""
_SAME_AS: Final[Mapping[str, str]] = MappingProxyType(
    {"domain": "site", "host": "site", "since": "after", "until": "before", "language": "lang"}
)
"""The behaviour reference's other names for ``site:``, ``after:``, ``before:``, ``lang:``
(6.2)."""
_WORDS_IN: Final[Mapping[str, tuple[TokenKind, TokenKind]]] = MappingProxyType(
    {
        "inurl": ("in_url", "exclude_in_url"),
        "url": ("in_url", "exclude_in_url"),
        "intitle": ("in_title", "exclude_in_title"),
        "title": ("in_title", "exclude_in_title"),
        "intext": ("in_text", "exclude_in_text"),
        "inbody": ("in_text", "exclude_in_text"),
        "inanchor": ("in_text", "exclude_in_text"),
        "allintitle": ("in_title", "exclude_in_title"),
        "allinurl": ("in_url", "exclude_in_url"),
        "allintext": ("in_text", "exclude_in_text"),
    }
)
"""The directives that ask for words in one part of a page, by the name typed: the token
kind when wanted, and when negated. The names and aliases are the behaviour reference's
(section 6.2); ``inanchor:`` (the words of links to the page) counts as the page's text.
The ``allin`` names (:data:`_ALL_MODES`) also take the words that follow them."""
_ALL_MODES: Final = frozenset({"allintitle", "allinurl", "allintext"})
"""Reference 6.2's "all mode": ``allintitle:a b -cd`` asks for ``a`` and ``b`` in the
title and not ``cd``; every plain word after the directive goes into its field (a
one-letter ``-c`` is a word, not an excluded term: :data:`_EXCLUDED_TERM`)."""
_ALL_MODE_NAME: Final = re.compile(r"allin(?:title|url|text):", re.IGNORECASE)
_SITE: Final = "site:<domain>"
_NOT_SITE: Final = "-site:<domain>"
_AFTER: Final = "after:<YYYY-MM-DD>"
_BEFORE: Final = "before:<YYYY-MM-DD>"
_FILETYPE: Final = "filetype:<extension>"
_LANG: Final = "lang:<code>"
DIRECTIVE_ARGUMENTS: Final[Mapping[str, str]] = MappingProxyType(
    {
        "site": _SITE,
        "domain": _SITE,
        "domains": _SITE,
        "include_domains": _SITE,
        "exclude_site": _NOT_SITE,
        "exclude_domain": _NOT_SITE,
        "exclude_domains": _NOT_SITE,
        "after": _AFTER,
        "date_after": _AFTER,
        "start_date": _AFTER,
        "before": _BEFORE,
        "date_before": _BEFORE,
        "end_date": _BEFORE,
        "filetype": _FILETYPE,
        "file_type": _FILETYPE,
        "ext": _FILETYPE,
        "lang": _LANG,
        "language": _LANG,
    }
)
"""An argument a model may invent for a filter, and the directive :func:`tokenize` reads
in the query instead: a tool that refuses the argument names the directive, so the model
moves the filter into the query rather than dropping it. Beside :data:`_DIRECTIVE`, the
keys it reads, so the two change together."""
_DATE: Final = re.compile(r"^(\d{4})(?:([-/.])(\d{1,2})(?:\2(\d{1,2}))?)?$")
"""``YYYY``, ``YYYY-MM``, ``YYYY-MM-DD``, with ``-``, ``/`` or ``.`` between the parts."""
_MONTH_FIRST: Final = re.compile(r"^(\d{1,2})([-/.])(\d{1,2})\2(\d{4})$")
"""``MM/DD/YYYY`` (or ``DD/MM/YYYY`` when the first part cannot be a month)."""
_EXTENSION: Final = re.compile(r"^\.?([a-z0-9]{1,10})$", re.IGNORECASE)
_CLAUSE_END: Final = ".,;:!?"
"""Punctuation that ends a clause: a directive written last in a sentence carries it
(``filetype:PDF.``, ``what changed site:python.org?``), and no domain, extension, date or
language code ends with one, so it is read as the sentence's, as GitHub's autolinks leave
a trailing ``?``, ``!``, ``.``, ``,`` or ``:`` out of the link."""
_TERM_END: Final = r"[.,;!?]*"
"""What :data:`_CLAUSE_END` ends a ``-term`` or ``+term`` with; not ``:``, as ``-site:``
with its value after a space is a directive still to be read, no term."""
_TERM_WORD: Final = r"[^\W\d_][\w.'+#-](?:[\w'+#-]|\.++)*?"
"""A term's word (a letter, then one or more word characters or ``.'+#-``) up to the clause's
punctuation. Its dots are taken a run at a time: the shortest word ends at a run's end
(or after its second character), and stepping through a run's dots one by one read the
rest of the run again at each (``-a`` and 16,000 dots then ``@``: 1.2 s)."""
_EXCLUDED_TERM: Final = re.compile(rf"^-({_TERM_WORD}){_TERM_END}+$")
"""``-term``: its word, without the clause's punctuation after it (:data:`_CLAUSE_END`):
``python -tutorial.`` was checked on the results as ``tutorial.``, which a snippet saying
"a tutorial for" does not hold, so the result stayed while the record said ``post``; and
``-tutorial,`` was no term at all, a word sent as typed to an API that reads no dash."""
_REQUIRED_TERM: Final = re.compile(rf"^\+({_TERM_WORD}){_TERM_END}+$")
"""``+term``: the reference reads it as an exact phrase (Google's old required word)."""
_PARENS: Final = frozenset({"(", ")"})
"""Split off words (reference 6.1) and then dropped: they group nothing here (6.2)."""
_OR_WORDS: Final = frozenset({"OR", "|", "||"})
_AND_WORDS: Final = frozenset({"AND", "&&"})
_NOT_WORDS: Final = frozenset({"NOT", "!"})
_NEGATED: Final[Mapping[TokenKind, TokenKind]] = MappingProxyType(
    {
        "site": "exclude_site",
        "in_url": "exclude_in_url",
        "in_title": "exclude_in_title",
        "in_text": "exclude_in_text",
        "phrase": "exclude_term",
        "filetype": "exclude_filetype",
    }
)
"""The kinds ``NOT`` / ``!`` turn into their negation, keeping the value."""
_NEGATED_ALREADY: Final = frozenset(_NEGATED.values())
"""The kinds a ``NOT`` / ``!`` before them leaves as they are, itself going."""


@dataclass(frozen=True, slots=True)
class Token:
    """One piece of the query: plain text or a directive with its value."""

    kind: TokenKind
    value: str
    """The normalised value: a domain, an ISO date, a phrase, a term, an extension."""
    raw: str
    """The text as typed, sent unchanged to a provider that understands it."""
    path: str = ""
    """A site's path, lower-cased (``site:github.com/Anthropics``: ``/anthropics``): the
    reference checks it on the URL (6.6), for ``-site:`` too (only that path is unwanted)."""


def parse_domain(text: str) -> str | None:
    """The host name in ``text`` (``https://www.github.com/x`` -> ``github.com``), or ``None``.

    A ``site:`` value is read as an ``include_domains`` entry is
    (:func:`~websearch_core.domain_names.site_domain`, a path allowed), so a query never
    filters to a site the parameter refuses: a port (``site:example.com:8080``), another
    scheme (``site:ftp://x.com``), a user name or an IP address give ``None``. Such a word
    stays plain query text, as ``site:1.2.3.4`` already did, rather than failing the
    search: reference 6.2 keeps a directive value it cannot read as a plain term
    (``before:soon``), the query is what a model wrote and is otherwise passed unchanged,
    and the engine that gets the word may still make sense of it.

    Examples:
        >>> parse_domain("WWW.GitHub.com/laravel")
        'github.com'
        >>> parse_domain("https://*.docs.rs./")
        'docs.rs'
        >>> parse_domain("Bücher.de")
        'xn--bcher-kva.de'
        >>> parse_domain("example.com:8080") is None
        True
        >>> parse_domain("not a domain") is None
        True
    """
    try:
        return site_domain(text.strip().removeprefix("*."))
    except ValueError:  # no host, or one the domain lists refuse: the word stays plain text
        return None


_TYPED_SITE: Final = re.compile(r"^(?:-+|!)?site:(?P<value>\S+)$", re.IGNORECASE)
"""A ``site:`` written with its value, as engines read the operator (not its aliases)."""


def site_refusal(tokens: tuple[Token, ...]) -> str | None:
    """Why a ``site:`` left as plain text cannot be searched, or ``None`` when none is.

    A ``site:`` whose value the domain lists refuse (a port, a user name, another scheme,
    a query string, an IP address, no host name at all) is plain text here, but an
    engine that reads ``site:`` in its query (Brave, the scraped engines) still reads it
    as its operator: ``site:example.com:8080`` kept the search to no site of ours and the
    engine's to a site with no pages, so the search failed as the engine's ("returned no
    renderable search content"), or to a site the engine read its own way. What the
    writer meant is a filter the search cannot keep, so the search is refused naming the
    word, saying how to write the site or how to search the text (quoted, a phrase, read
    as words, never as a directive here). Only ``site:`` itself: its
    aliases ``domain:`` and ``host:`` are no engine's operator (``host:port`` is prose),
    and ``site:`` with a space before its value (``my site: wordpress``) is words.

    Examples:
        >>> site_refusal(tokenize("docs site:example.com")) is None
        True
        >>> print(site_refusal(tokenize("docs site:x.com:8080")))  # doctest: +ELLIPSIS
        query: site:x.com:8080 keeps the search to no site (not a domain name: ...port...
    """
    for token in tokens:
        typed = _TYPED_SITE.match(token.value) if token.kind == "text" else None
        if typed is None:
            continue
        try:
            site_domain(typed["value"])
        except ValueError as error:
            return (
                f"query: {token.raw} keeps the search to no site ({error}); write "
                "site:<domain>, or put the whole word in quotes to search it as text"
            )
    return None


_TYPED_FILETYPE: Final = re.compile(r"^filetype:(?P<value>\S+)$", re.IGNORECASE)
"""A wanted ``filetype:`` written with its value, as engines read the operator."""


def filetype_refusal(tokens: tuple[Token, ...]) -> str | None:
    """Why a ``filetype:`` left as plain text cannot be searched, or ``None`` when none is.

    The same gap :func:`site_refusal` closes for ``site:``: a value that is no one
    extension (``filetype:pdf,docx``, ``filetype:pdf/docx``, ``filetype:.tar.gz``) stays
    plain text here, but an engine that reads ``filetype:`` (Brave, the scraped engines)
    reads it as its operator and keeps the search to an extension no page has, so the
    search failed as the engine's ("returned no renderable search content"). The writer
    asked for file types the search cannot keep, so it is refused naming the word and
    how to ask for several. A negated one (``-filetype:pdf,docx``) only keeps out pages
    that do not exist and stays a word, as do ``ext:`` (no such operator to Brave or
    DuckDuckGo) and ``filetype:`` with a space after it (words to an engine).

    Examples:
        >>> filetype_refusal(tokenize("report filetype:PDF")) is None
        True
        >>> print(filetype_refusal(tokenize("report filetype:pdf,docx")))
        ... # doctest: +NORMALIZE_WHITESPACE
        query: filetype:pdf,docx keeps the search to no file type ('pdf,docx' is not one
        extension such as pdf); write one filetype:<extension> for each type, joined
        with OR (filetype:pdf OR filetype:docx), or put the whole word in quotes to search
        it as text
    """
    for token in tokens:
        typed = _TYPED_FILETYPE.match(token.value) if token.kind == "text" else None
        if typed is None:
            continue
        value = typed["value"]
        return (
            f"query: {token.raw} keeps the search to no file type ({value!r} is not one "
            "extension such as pdf); write one filetype:<extension> for each type, joined "
            "with OR (filetype:pdf OR filetype:docx), or put the whole word in quotes to "
            "search it as text"
        )
    return None


_NEGATED_FILETYPE: Final = re.compile(r"^-(?:filetype|ext):", re.IGNORECASE)


def is_negated_filetype(token: Token) -> bool:
    """Whether ``token`` is the word ``-filetype:<x>`` with no one extension as its value.

    ``-filetype:pdf,docx`` is no excluded file type here (:data:`_EXTENSION`), so the word
    goes to the provider as typed; ``-filetype:pdf`` is the filter ``exclude_filetype``.

    Examples:
        >>> [is_negated_filetype(t) for t in tokenize("a -filetype:pdf,doc -filetype:pdf")]
        [False, True, False]
        >>> [t.kind for t in tokenize("a NOT filetype:pdf !filetype:doc")]
        ['text', 'exclude_filetype', 'exclude_filetype']
    """
    return token.kind == "text" and _NEGATED_FILETYPE.match(token.raw) is not None


def _site_path(text: str) -> str:
    """The path a site value carries, lower-cased, without its trailing ``/`` (or ``""``).

    Examples:
        >>> _site_path("https://GitHub.com/Anthropics/")
        '/anthropics'
        >>> _site_path("github.com")
        ''
    """
    without_scheme = text.split("://", 1)[-1]
    _, slash, path = without_scheme.partition("/")
    return f"/{path.lower().rstrip('/')}" if slash and path.strip("/") else ""


def parse_date_value(text: str, *, end: bool) -> date | None:
    """A directive's date; ``2025`` or ``2025-03`` mean the period's first (or last) day.

    The forms are the behaviour reference's (section 6.2): a model writes the dates it
    has seen, ``2025/03/01`` and ``03/01/2025`` among them; a year before 1000 is a typo.

    Args:
        text: ``YYYY-MM-DD``, ``YYYY-MM`` or ``YYYY`` (``/`` or ``.`` between the parts
            too), or ``MM/DD/YYYY``, read as ``DD/MM/YYYY`` when the first part is over 12
            and the second is not.
        end: Whether the value closes a range (``before:``), so a partial date means its
            last day.

    Examples:
        >>> parse_date_value("2025-02", end=True)
        datetime.date(2025, 2, 28)
        >>> parse_date_value("31.01.2025", end=False)
        datetime.date(2025, 1, 31)
        >>> parse_date_value("yesterday", end=False) is None
        True
    """
    month_first = _MONTH_FIRST.match(text)
    if month_first is not None:
        first, second = int(month_first[1]), int(month_first[3])
        month, day = (second, first) if first > 12 and second <= 12 else (first, second)
        return _day(int(month_first[4]), month, day)
    match = _DATE.match(text)
    if match is None or int(match[1]) < 1000:
        return None
    year = int(match[1])
    if match[3] is None:
        return _day(year, 12, 31) if end else _day(year, 1, 1)
    month = int(match[3])
    if match[4] is not None:
        return _day(year, month, int(match[4]))
    if not end or not 1 <= month <= 12:
        return _day(year, month, 1)
    if month == 12:  # ``before:9999-12`` has no 1 January to step back from
        return date(year, 12, 31)
    return date.fromordinal(date(year, month + 1, 1).toordinal() - 1)


def _day(year: int, month: int, day: int) -> date | None:
    """The date, or ``None`` when there is no such day (or the year is before 1000)."""
    if year < 1000:
        return None
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _unpunctuated(value: str) -> str:
    """``value`` without the clause's punctuation (and unbalanced ``)``) typed after it.

    Only at the end: ``pdf;docx`` and ``x.com?y=1`` keep theirs, and are refused as before.

    Examples:
        >>> _unpunctuated("PDF."), _unpunctuated("x.com),"), _unpunctuated("x.com?y=1")
        ('PDF', 'x.com', 'x.com?y=1')
    """
    kept = value
    while True:
        stripped, _ = _closing_split(kept.rstrip(_CLAUSE_END))
        if stripped == kept:
            return kept
        kept = stripped


def _words_in(named: str, value: str, raw: str) -> Token:
    """A words-in directive: ``named`` is its ``-?name:``, ``value`` the words asked for."""
    wanted, unwanted = _WORDS_IN[named.lstrip("-").removesuffix(":").lower()]
    return Token(unwanted if named.startswith("-") else wanted, value, raw)


def _directive(word: str) -> Token | None:
    """The directive ``word`` is, or ``None`` when it only looks like one."""
    directive = _DIRECTIVE.match(word)
    if directive is None:
        return None
    negated = directive["neg"] == "-"
    key = directive["key"].lower()
    key = _SAME_AS.get(key, key)
    value = directive["value"]
    if key in _WORDS_IN:
        # ``intext:""`` asks for no words; a stray quote (``intitle:"rust``) is not one.
        words = value.strip(_QUOTES)
        return _words_in(word[: directive.start("value")], words, word) if words else None
    # A site, date, language or extension never ends in a clause's punctuation; words
    # asked for in a title or URL may (``intitle:why?``), so theirs stays.
    value = _unpunctuated(value)
    if not value:
        return None
    if key == "site":
        domain = parse_domain(value)
        if domain is None:
            return None
        kind: TokenKind = "exclude_site" if negated else "site"
        return Token(kind, domain, word, _site_path(value) if "/" in value else "")
    if key in ("after", "before"):
        # A dash on a date is ignored (reference 6.2): ``-before:2024`` still bounds it.
        day = parse_date_value(value, end=key == "before")
        bound: TokenKind = "after" if key == "after" else "before"
        return None if day is None else Token(bound, day.isoformat(), word)
    if key == "lang":
        # The search's ``language``, canonical (``pt_br``: ``pt-BR``); a dash is ignored
        # (reference 6.2), and a value that is no tag (``lang:rust``) stays a word.
        tag = language_tag(value)
        return None if tag is None else Token("lang", tag, word)
    extension = _EXTENSION.match(value)
    if extension is None:
        return None  # ``-filetype:pdf,docx`` stays the word typed (an engine reads it)
    return Token("exclude_filetype" if negated else "filetype", extension[1].lower(), word)


def _word(word: str) -> Token:
    directive = _directive(word)
    if directive is not None:
        return directive
    if word.startswith("--"):
        # ``--site:x`` is ``-site:x`` (reference 6.2); ``--verbose`` stays a word.
        dashed = _directive(f"-{word.lstrip('-')}")
        if dashed is not None:
            return dashed
    if word in _OR_WORDS:
        return Token("or", word, word)
    if word in _AND_WORDS:
        return Token("and", word, word)
    excluded = _EXCLUDED_TERM.match(word)
    if excluded is not None:
        return Token("exclude_term", excluded[1], word)
    required = _REQUIRED_TERM.match(word)
    if required is not None:
        return Token("phrase", required[1], f'"{required[1]}"')
    if word.startswith("!"):
        # ``!site:x`` is ``-site:x``; ``!important`` (CSS) or ``!w`` (a bang) stays a word.
        bang = _directive(word[1:])
        if bang is not None and bang.kind in _NEGATED:
            return Token(_NEGATED[bang.kind], bang.value, f"-{bang.raw}", bang.path)
    return Token("text", word, word)


def _quoted_value(match: re.Match[str]) -> Token:
    """A ``name:"quoted value"`` matched by :data:`_TOKEN_OR_QUOTED_VALUE`."""
    typed = match.group(0)
    if match["named"] is not None:
        value = " ".join(match["quoted"].split())
        return _words_in(match["named"], value, typed.translate(_STRAIGHT))
    return _swallowed(match["other"], match["swallowed"], typed)


def _swallowed(name: str, quoted: str, typed: str) -> Token:
    """``name:"quoted"`` for a name that is no words-in directive, as one word (6.1).

    The quoted span is the value (``error:"not found"`` is the word ``error:not found``),
    so it stays one term, in an all mode's field too; the text sent keeps its quotes. A
    value that makes a directive (``site:"x.org"``, ``lang:"de"``) is that directive.
    """
    word = f"{name}{' '.join(quoted.split())}"
    directive = _directive(word)
    if directive is not None:
        return directive
    return Token("text", word, typed.translate(_STRAIGHT))


def _negated(token: Token) -> tuple[bool, Token]:
    """Whether ``NOT`` / ``!`` before ``token`` goes, and what ``token`` is read as.

    A term, phrase or directive with a negation is negated and the operator goes; so it
    goes before one negated already (``NOT -x`` is ``-x``: the reference's ``NOT`` sets a
    flag the next term reads, as its dash does, so the two say the same, and reading
    ``x`` as wanted would ask for the opposite of what was typed). Before a date or a
    ``lang:`` it goes too, as the reference ignores negation there; before anything
    without a negation (an ``OR``, a number) it stays a word. ``NOT filetype:pdf`` is
    ``-filetype:pdf``, the excluded file type, as typed with a dash. Left as ``NOT`` and
    ``filetype:pdf``, the word was refused as a ``filetype:`` no filter reads, naming
    ``'pdf'`` as "not one extension such as pdf"; read as wanted it would ask for the
    opposite of what was typed.
    """
    if token.kind in _NEGATED:
        return True, Token(_NEGATED[token.kind], token.value, f"-{token.raw}", token.path)
    if token.kind in _NEGATED_ALREADY or token.kind in ("after", "before", "lang"):
        return True, token
    if token.kind == "text":
        excluded = _EXCLUDED_TERM.match(f"-{token.raw}")
        if excluded is not None:
            return True, Token("exclude_term", excluded[1], f"-{token.raw}")
    return False, token


def _adopted(token: Token, following: Token) -> Token | None:
    """``token`` (``site:`` or a lone ``-``) joined with the ``following`` token, or ``None``.

    The behaviour reference (6.2): an empty value takes the next token, unless that is an
    operator or a directive of its own (``site: OR``, ``intitle: site:x`` stay as typed);
    a lone ``-`` negates a quoted phrase after it, and only that (``- java`` is two words,
    as the dash may be a typed dash).
    """
    if token.raw == "-":
        if following.kind == "phrase" and following.raw.startswith('"'):
            return Token("exclude_term", following.value, f"-{following.raw}")
        return None
    if following.raw in _PARENS:
        return None
    empty = _EMPTY_VALUE.match(token.raw)
    if empty is None or following.kind not in ("text", "phrase"):
        return None
    if following.raw in _NOT_WORDS:
        return None
    if following.kind == "phrase":
        if empty["key"].lower() not in _WORDS_IN:
            return None
        return _words_in(token.raw, following.value, f"{token.raw}{following.raw}")
    return _directive(f"{token.raw}{following.raw}")


def _read_empty_values(tokens: list[Token]) -> list[Token]:
    """``tokens`` with each ``site:`` or lone ``-`` joined to what follows, where it may.

    A lone ``-`` that negates no phrase goes (reference 6.2: ``- site:x`` is ``site:x``,
    ``- java`` is ``java``); a query left with no directive is still sent as typed.
    """
    read: list[Token] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        index += 1
        if token.kind == "text" and index < len(tokens):
            joined = _adopted(token, tokens[index])
            if joined is not None:
                read.append(joined)
                index += 1
                continue
        if token.kind != "text" or token.raw != "-":
            read.append(token)
    return read


def _is_not(token: Token) -> bool:
    return token.kind == "text" and token.raw in _NOT_WORDS


def _closing_split(word: str) -> tuple[str, int]:
    """``word`` without the trailing ``)`` it does not open, and how many there were.

    The reference (6.1) splits off a trailing ``)`` only while it is unbalanced in the
    word, so ``site:en.wikipedia.org/wiki/Rust_(programming_language)`` stays one token.

    Examples:
        >>> _closing_split("b))"), _closing_split("Rust_(lang)"), _closing_split("f(x))")
        (('b', 2), ('Rust_(lang)', 0), ('f(x)', 1))
    """
    kept = word
    while kept.endswith(")") and kept.count(")") > kept.count("("):
        kept = kept[:-1]
    return kept, len(word) - len(kept)


def _read_operators(tokens: list[Token]) -> tuple[Token, ...]:
    """``tokens`` with ``NOT`` / ``!`` applied to what follows them.

    An ``AND`` without a word on each side is read as a word (``AND gate``). ``NOT``s in
    a row are one, as the reference's flag is (``NOT NOT x`` is ``-x``): they all go, or
    all stay words where what follows has no negation.
    """
    read: list[Token] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        index += 1
        if _is_not(token):
            following = index
            while following < len(tokens) and _is_not(tokens[following]):
                following += 1
            if following < len(tokens):
                consumed, negated = _negated(tokens[following])
                if not consumed:
                    read.extend(tokens[index - 1 : following])
                read.append(negated)
                index = following + 1
                continue
        read.append(token)
    last = len(read) - 1
    return tuple(
        Token("text", token.raw, token.raw)
        if token.kind == "and" and position in (0, last)
        else token
        for position, token in enumerate(read)
    )


def _read_all_modes(tokens: tuple[Token, ...]) -> tuple[Token, ...]:
    """``tokens`` with the words after an ``allintitle:`` moved into its field.

    So for ``allinurl:`` and ``allintext:``: a word or phrase after it is wanted in that
    field, a ``-term`` unwanted there.

    The directive's own value, if any, is already a token of that field; one typed with
    nothing to take (``allintitle:`` before an ``OR``) only opens the mode. A later
    ``allin`` directive opens its own; other directives and operators stay as read.
    """
    read: list[Token] = []
    mode: tuple[TokenKind, TokenKind] | None = None
    for token in tokens:
        name = token.raw.partition(":")[0].lower()
        if name in _ALL_MODES:
            mode = _WORDS_IN[name]
            if token.kind != "text":
                read.append(token)
            continue
        if mode is not None and token.kind in ("text", "phrase", "exclude_term"):
            kind = mode[1] if token.kind == "exclude_term" else mode[0]
            read.append(Token(kind, token.value, token.raw))
            continue
        read.append(token)
    return tuple(read)


_READ_QUERIES: Final = 64
"""How many queries' tokens :func:`tokenize` keeps: a search reads its query's tokens
when its parameters are checked (``site:``, dates) and again when its filters are merged,
maybe with other searches' awaits between; 64 outlasts that for as many searches at once
and holds at most 64 queries of the 2000-character bound."""


@lru_cache(maxsize=_READ_QUERIES)
def tokenize(query: str) -> tuple[Token, ...]:
    """Split a query into text and directives, in the order typed.

    Read once per query text: the tokens are frozen, so the search's checks
    (``SearchParams``' ``site:`` and date checks) and its filter merge share one reading
    rather than each splitting the query again (a ``site:`` query was split twice, 6 us).

    Examples:
        >>> [(t.kind, t.value) for t in tokenize('site:github.com "web search" -java')]
        [('site', 'github.com'), ('phrase', 'web search'), ('exclude_term', 'java')]
        >>> [(t.kind, t.value) for t in tokenize('intitle:"error handling" -inurl:forum')]
        [('in_title', 'error handling'), ('exclude_in_url', 'forum')]
    """
    tokens: list[Token] = []
    quoted_values = _QUOTED_VALUE.search(query) is not None
    split_values = False
    parens = False
    for match in (_TOKEN_OR_QUOTED_VALUE if quoted_values else _TOKEN).finditer(query):
        word = match["word"]
        if word is not None:  # the most common, asked first
            closing = 0
            if word.endswith(")"):
                word, closing = _closing_split(word)
            split_values = split_values or word == "-" or word.endswith(":")
            if word:
                tokens.append(_word(word))
            if closing:
                parens = True
                tokens.extend(Token("text", ")", ")") for _ in range(closing))
        elif match["phrase"] is not None:
            phrase = " ".join(match["phrase"].split())
            kind: TokenKind = "exclude_term" if match["neg"] else "phrase"
            tokens.append(Token(kind, phrase, match.group(0).translate(_STRAIGHT)))
        elif quoted_values and match["open"] is None:
            tokens.append(_quoted_value(match))
        else:
            parens = True
            tokens.extend(Token("text", "(", "(") for _ in match["open"])
    if split_values:
        tokens = _read_empty_values(tokens)  # before the parentheses go: they end a value
    if parens:
        tokens = [t for t in tokens if t.kind != "text" or t.raw not in _PARENS]
    read = _read_operators(tokens)
    return _read_all_modes(read) if _ALL_MODE_NAME.search(query) else read


def date_bounds(
    tokens: tuple[Token, ...], after: date | None, before: date | None
) -> tuple[date | None, date | None]:
    """The ``after:``/``before:`` directives merged with the given bounds: the narrower wins.

    Both the caller and the model ask for the range, so each bound is the stricter of all
    given: the latest ``after``, the earliest ``before``.
    """
    afters = [date.fromisoformat(t.value) for t in tokens if t.kind == "after"]
    befores = [date.fromisoformat(t.value) for t in tokens if t.kind == "before"]
    return (
        max((*afters, *([after] if after else [])), default=None),
        min((*befores, *([before] if before else [])), default=None),
    )
