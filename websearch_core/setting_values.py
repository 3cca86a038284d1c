"""The values each query setting a URL's reader knows takes: what a setting's value looks like.

A configured URL's query names a setting SearXNG (or a provider's API) reads, or a
credential, or something a gateway reads (:mod:`websearch_core.query_secrets`). A word
under a setting's name was taken for that setting whatever it was, so a key written
there (``?language=Qx7w``, ``?format=Kp9vTq``, under a name the engine also sends) was
quoted whole when a gateway refused the request. Each setting takes values of one shape,
as its reader documents them: a language tag, a format's name, a page's number. A value
of another shape is no value the reader takes as that setting (SearXNG refuses
``format=Qx7w``, ignores ``language=Qx7w``), so it is there for something else: read as a
word under a name nothing reads. A value that fits stays the setting's, a key of that
shape included (``theme=abcdefgh``): nothing tells the two apart.

Names whose values are free (a deployment's, a model's, a tenant's, a plugin's id) have
no entry: a value there is the setting's whatever its shape. Pure data and one check.
"""

import re
from typing import Final

__all__ = ["SETTING_VALUES", "fits_setting"]

_LANGUAGE: Final = re.compile(r"all|auto|[a-z]{2,3}(?:[-_][a-z0-9]{2,8}){0,2}", re.IGNORECASE)
"""A language tag (``en``, ``en-US``, ``zh-Hant-TW``; ``en_US`` as a locale writes it), or
SearXNG's ``all`` and ``auto``."""
_VERSION: Final = re.compile(r"\d{4}-\d{2}-\d{2}(?:-preview)?|v?\d+(?:\.\d+)*", re.IGNORECASE)
"""An API's version: a date (Azure's ``2024-06-01``, ``2024-05-01-preview``) or numbers."""
_SWITCH: Final = re.compile(r"0|1|true|false|on|off", re.IGNORECASE)
_NAMES: Final = re.compile(r"[a-z0-9][a-z0-9 ._-]*(?:,[a-z0-9][a-z0-9 ._-]*)*")
"""A comma list of names as SearXNG writes its engines: lower case, digits (``360search``),
spaces (``bing images``), dots and hyphens."""

SETTING_VALUES: Final[dict[str, re.Pattern[str]]] = {
    # SearXNG's search parameters and preferences, as its search API documents them.
    "categories": re.compile(r"[a-z][a-z _&-]*(?:,[a-z][a-z _&-]*)*", re.IGNORECASE),
    "engines": _NAMES,
    "enabled_engines": _NAMES,
    "disabled_engines": _NAMES,
    "language": _LANGUAGE,
    "pageno": re.compile(r"\d+"),
    "time_range": re.compile(r"day|week|month|year", re.IGNORECASE),
    "format": re.compile(r"json|csv|rss|html", re.IGNORECASE),
    "results_on_new_tab": _SWITCH,
    "image_proxy": _SWITCH,
    "autocomplete": re.compile(r"[a-z0-9]*"),
    "safesearch": re.compile(r"[0-2]"),
    "theme": re.compile(r"[a-z][a-z0-9_-]*"),
    # What a base URL's API reads beside its key.
    "api-version": _VERSION,
    "version": _VERSION,
    "locale": _LANGUAGE,
    "lang": _LANGUAGE,
    "country": re.compile(r"[a-z]{2,3}", re.IGNORECASE),
    "country_code": re.compile(r"[a-z]{2,3}", re.IGNORECASE),
    "region": re.compile(r"[a-z]+(?:-[a-z0-9]+)*"),
}
"""Each setting name (lower case) and the whole shape of the values its reader takes."""


def fits_setting(name: str, value: str) -> bool:
    """Whether ``value`` is one the setting ``name`` takes (``True`` for a free setting's).

    Example:
        >>> fits_setting("language", "en-US"), fits_setting("language", "Qx7w")
        (True, False)
        >>> fits_setting("format", "json"), fits_setting("engines", "Qx7w")
        (True, False)
        >>> fits_setting("theme", "abcdefgh"), fits_setting("deployment", "Qx7w")
        (True, True)
    """
    shape = SETTING_VALUES.get(name.lower())
    return shape is None or shape.fullmatch(value) is not None
