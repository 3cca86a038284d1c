"""DuckDuckGo's ``kl`` region codes from a request's language and country (pure).

* **Region:** ``language`` (plus ``country`` when the language has no region) becomes a
  locale, then DDG's ``kl`` code: lower-cased, ``_`` to ``-``, a few aliases
  (``en-gb`` → ``uk-en``), otherwise ``ll-rr`` swapped to ``rr-ll`` and kept only if DDG
  lists it; anything else is ``us-en``. A ``country`` whose pairing with the language (or,
  alone, with English) DDG does not list picks that country's first listed region
  (``de`` → ``de-de``). Where DDG writes a code its own way the region is found by that
  (Slovenia ``si`` → ``sl-sl``, Britain ``gb`` → ``uk-en``, Bokmål ``nb`` → ``no-no``).

The module is private; :mod:`websearch_core.providers.duckduckgo` re-exports its public names.
"""

import re
from collections.abc import Mapping
from types import MappingProxyType

__all__ = [
    "DEFAULT_REGION",
    "REGIONS",
    "REGION_ALIASES",
    "carries_country",
    "carries_language",
    "kl_locale",
    "locale_to_kl",
    "region_for",
]

DEFAULT_REGION = "us-en"

REGIONS: tuple[str, ...] = (
    "xa-ar", "xa-en", "ar-es", "au-en", "at-de", "be-fr", "be-nl", "br-pt", "bg-bg", "ca-en",
    "ca-fr", "ct-ca", "cl-es", "cn-zh", "co-es", "hr-hr", "cz-cs", "dk-da", "ee-et", "fi-fi",
    "fr-fr", "de-de", "gr-el", "hk-tzh", "hu-hu", "in-en", "id-id", "id-en", "ie-en", "il-he",
    "it-it", "jp-jp", "kr-kr", "lv-lv", "lt-lt", "xl-es", "my-ms", "my-en", "mx-es", "nl-nl",
    "nz-en", "no-no", "pe-es", "ph-en", "ph-tl", "pl-pl", "pt-pt", "ro-ro", "ru-ru", "sg-en",
    "sk-sk", "sl-sl", "za-en", "es-es", "se-sv", "ch-de", "ch-fr", "ch-it", "tw-tzh", "th-th",
    "tr-tr", "ua-uk", "uk-en", "us-en", "ue-es", "ve-es", "vn-vi", "wt-wt",
)  # fmt: skip
"""DDG's documented ``kl`` values (region-language), in DDG's order."""

REGION_ALIASES: Mapping[str, str] = MappingProxyType(
    {
        "ca-es": "ct-ca",
        "en-gb": "uk-en",
        "es-419": "xl-es",
        "es-us": "ue-es",
        "ja-jp": "jp-jp",
        "ko-kr": "kr-kr",
        "zh-hk": "hk-tzh",
        "zh-tw": "tw-tzh",
    }
)
"""Locales whose ``kl`` is not the plain ``rr-ll`` swap."""

_KL_LANGUAGES: Mapping[str, str] = MappingProxyType({"jp": "ja", "kr": "ko", "tzh": "zh"})
"""``kl`` language parts that are not the ISO 639-1 code (Japan's region is ``jp-jp``)."""
_KL_COUNTRIES: Mapping[str, str | None] = MappingProxyType(
    {"uk": "gb", "ue": "us", "ct": "es", "sl": "si", "xa": None, "xl": None}
)
"""``kl`` region parts that are not the ISO 3166-1 code; ``None``: no one country (Arabia,
Latin America, no region)."""

_KL_REGIONS: Mapping[str, str] = MappingProxyType({"gb": "uk", "si": "sl"})
"""ISO 3166-1 codes whose ``kl`` region part is another (Slovenia is ``sl-sl``): looked up
by the raw code, Slovenia found no region and went as ``us-en``."""
_KL_LANGUAGE_OF: Mapping[str, str] = MappingProxyType({"nb": "no", "nn": "no"})
"""ISO 639-1 codes DDG writes otherwise: Bokmål and Nynorsk are the written forms of the
Norwegian its ``no-no`` region speaks."""

_REGION_SET = frozenset(REGIONS)
_REGION_SUBTAG = re.compile(r"^(?:[a-z]{2}|\d{3})$")


def locale_to_kl(locale: str | None) -> str:
    """DuckDuckGo's ``kl`` region code for a locale such as ``pt-BR`` or ``en_GB``.

    Lower-cases and turns ``_`` into ``-``, applies :data:`REGION_ALIASES`, otherwise swaps
    ``ll-rr`` to ``rr-ll`` and accepts it only when DDG lists it. A script subtag is
    skipped (``zh-Hant-TW`` is read as ``zh-tw``). Anything else, including a bare
    language, gives :data:`DEFAULT_REGION`.

    Example:
        >>> locale_to_kl("pt-BR"), locale_to_kl("en_GB"), locale_to_kl("de")
        ('br-pt', 'uk-en', 'us-en')
    """
    kl = _lookup_kl(locale)
    return kl if kl is not None else DEFAULT_REGION


def kl_locale(kl: str) -> tuple[str | None, str | None]:
    """The ISO ``(language, country)`` a ``kl`` code stands for (``None``: none).

    Example:
        >>> kl_locale("jp-jp"), kl_locale("uk-en"), kl_locale("wt-wt")
        (('ja', 'jp'), ('en', 'gb'), (None, None))
    """
    region, _, language = kl.partition("-")
    if region == "wt":  # "no region": no language either
        return None, None
    return _KL_LANGUAGES.get(language, language), _KL_COUNTRIES.get(region, region)


def carries_language(language: str | None, country: str | None) -> bool:
    """Whether the ``kl`` sent for this pair holds ``language`` (not the ``us-en`` fallback).

    The plan asks this before :func:`region_for` builds the form, so ``language`` is
    recorded applied only when the region sent speaks it.

    Example:
        >>> carries_language("fr", "CH"), carries_language("af", None), carries_language("de", "US")
        (True, False, False)
    """
    if not language:
        return False
    return kl_locale(region_for(language, country))[0] == _kl_language(language).split("-")[0]


def carries_country(language: str | None, country: str | None) -> bool:
    """Whether the ``kl`` sent for this pair is ``country``'s region (DDG lists no ``ke``).

    Example:
        >>> carries_country(None, "GB"), carries_country("de", "KE")
        (True, False)
    """
    if not country:
        return False
    return kl_locale(region_for(language, country))[1] == country.lower()


def _kl_language(language: str) -> str:
    """``language`` lower-cased, its first subtag as DDG's regions write it (``nb``: ``no``).

    Example:
        >>> _kl_language("nb-NO"), _kl_language("de")
        ('no-no', 'de')
    """
    primary, dash, rest = language.strip().lower().replace("_", "-").partition("-")
    return f"{_KL_LANGUAGE_OF.get(primary, primary)}{dash}{rest}"


def _home_region(language: str) -> str:
    """The region a bare language is most at home in, as DDG lists them."""
    lang = language.strip().lower()
    speaking = [code for code in REGIONS if kl_locale(code)[0] == lang]
    if DEFAULT_REGION in speaking or not speaking:
        return DEFAULT_REGION
    return next((code for code in speaking if code.split("-")[0] == lang), speaking[0])


def _lookup_kl(locale: str | None) -> str | None:
    if not locale:
        return None
    value = locale.strip().lower().replace("_", "-")
    if value in REGION_ALIASES:
        return REGION_ALIASES[value]
    parts = value.split("-")
    if len(parts) < 2:
        return None
    regions = [part for part in parts[1:] if _REGION_SUBTAG.match(part)]
    if not regions:
        return None
    pair = f"{parts[0]}-{regions[0]}"
    if pair in REGION_ALIASES:
        return REGION_ALIASES[pair]
    swapped = f"{regions[0]}-{parts[0]}"
    return swapped if swapped in _REGION_SET else None


def _has_region(language: str) -> bool:
    parts = language.lower().replace("_", "-").split("-")
    return any(_REGION_SUBTAG.match(part) for part in parts[1:])


def region_for(language: str | None, country: str | None) -> str:
    """The ``kl`` value for a request's ``language`` and ``country``.

    A language with a region (``pt-BR``) decides alone. A bare language goes to its home
    region (``de`` to ``de-de``, ``en`` to the default ``us-en``; the reference falls back
    to ``us-en`` for every bare language, which would leave a language filter we declare
    native unapplied). Otherwise the language is paired with ``country`` (English when only
    a country is given); when DDG does not list that pairing, the country's first listed
    region is used. With neither, or nothing that maps, the result is
    :data:`DEFAULT_REGION`.

    Example:
        >>> region_for("fr", "CH"), region_for(None, "de"), region_for("de", None)
        ('ch-fr', 'de-de', 'de-de')
    """
    if language:
        language = _kl_language(language)
    if language and not country and not _has_region(language):
        return _home_region(language)
    if language and (_has_region(language) or not country):
        return locale_to_kl(language)
    if not country:
        return DEFAULT_REGION
    region = _KL_REGIONS.get(country.lower(), country.lower())
    kl = _lookup_kl(f"{language or 'en'}-{region}")
    if kl is None:
        kl = next((code for code in REGIONS if code.split("-")[0] == region), None)
    return kl if kl is not None else DEFAULT_REGION
