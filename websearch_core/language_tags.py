"""Language tags as the search parameter and the query's ``lang:`` directive both read them.

One place, so ``language="pt_br"`` and ``lang:pt_br`` in the query reach a provider as the
same canonical tag (``pt-BR``), and what one refuses the other does not read; a ``lang:``
is also checked against the ISO 639 codes (:mod:`.iso_639`), as ``lang:go`` means a
programming language. Imported by :mod:`websearch_core.models` and
:mod:`websearch_core.filters.query`.
"""

import re
from typing import Final

from .iso_639 import ISO_639_1, ISO_639_2, ISO_639_2_ONLY, TWO_LETTER

__all__ = [
    "canonical_tag",
    "is_language_tag",
    "language_tag",
    "names_no_language",
    "two_letter_tag",
]

_LANGUAGE: Final = re.compile(r"^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$")

_WITHDRAWN_TWO_LETTER: Final = frozenset({"in", "iw", "ji", "jw", "mo", "sh"})
"""Two-letter codes ISO 639-1 withdrew or never listed that the IANA language subtag
registry still holds (``iw`` for Hebrew, as older Java locales write it): still tags."""


def canonical_tag(value: str) -> str:
    """``en_US``, ``EN``, ``en-us`` -> ``en-US``, ``en``: the casing BCP 47 recommends.

    Models and shells write locales every way; providers map the canonical form to their own
    codes (a region where they want one, the language where they want that).

    Examples:
        >>> canonical_tag("PT_br"), canonical_tag("zh-HANS-cn")
        ('pt-BR', 'zh-Hans-CN')
    """
    parts = value.strip().replace("_", "-").split("-")
    canonical = [parts[0].lower()]
    for part in parts[1:]:
        if len(part) == 2 and part.isalpha():
            canonical.append(part.upper())
        elif len(part) == 4 and part.isalpha():
            canonical.append(part.title())
        else:
            canonical.append(part.lower())
    return "-".join(canonical)


def is_language_tag(value: str) -> bool:
    """Whether ``value`` (already canonical) has the shape of a BCP 47 tag."""
    return _LANGUAGE.match(value) is not None


def names_no_language(tag: str) -> bool:
    """Whether ``tag`` (canonical, of a tag's shape) starts with two letters naming no language.

    ``language="zz"`` passed the shape check and reached providers, which ignored it: the
    user read results in any language with no word why. Every two-letter language subtag
    is an ISO 639-1 code, so one not listed (:data:`~websearch_core.iso_639.ISO_639_1`,
    or a withdrawn one still registered) names none. Three letters are read by shape
    alone: ISO 639-3's thousands of codes (``yue``) are tags too, and not listed here.

    Examples:
        >>> names_no_language("zz"), names_no_language("zz-DE"), names_no_language("pt-BR")
        (True, True, False)
        >>> names_no_language("iw"), names_no_language("yue")
        (False, False)
    """
    primary = tag.partition("-")[0]
    return len(primary) == 2 and primary not in ISO_639_1 and primary not in _WITHDRAWN_TWO_LETTER


def language_tag(value: str) -> str | None:
    """``value`` as a canonical tag, or ``None`` when it is no tag (or ``auto``).

    What a ``lang:`` directive names: its language (the tag's first part) must be an ISO
    639 code, so ``lang:go`` and ``lang:js`` stay words; the ``language`` field checks the
    shape only, a caller's value being deliberate.

    Examples:
        >>> language_tag("DE"), language_tag("auto"), language_tag("1337") is None
        ('de', None, True)
        >>> language_tag("go") is None, language_tag("deu"), language_tag("ga_ie")
        (True, 'deu', 'ga-IE')
        >>> language_tag("haw"), language_tag("lua") is None
        ('haw', True)
    """
    if value.strip().lower() == "auto":
        return None
    tag = canonical_tag(value)
    if not is_language_tag(tag):
        return None
    primary = tag.partition("-")[0]
    known = primary in ISO_639_1 or primary in ISO_639_2 or primary in ISO_639_2_ONLY
    return tag if known else None


def two_letter_tag(tag: str) -> str | None:
    """``tag`` with its language in two letters (``deu-AT``: ``de-AT``), or ``None``.

    What a provider whose language parameter takes only ISO 639-1 codes is sent: a
    three-letter code with a two-letter twin becomes the twin; one without (``haw``) is
    not sent, and is recorded as not applied.

    Examples:
        >>> two_letter_tag("pt-BR"), two_letter_tag("ger-AT"), two_letter_tag("haw")
        ('pt-BR', 'de-AT', None)
    """
    primary, dash, rest = tag.partition("-")
    if len(primary) == 2:
        return tag
    twin = TWO_LETTER.get(primary)
    return None if twin is None else f"{twin}{dash}{rest}"
