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
shape included (``engines=hunterxyzw``): nothing tells the two apart.

Some settings' documents name every value they take (:data:`DOCUMENTED_VALUES`: SearXNG's
autocomplete backends, compiled into the engine): under those a word the documents do not
name is no value at all (``autocomplete=hunterxyzw``), however it is shaped. Others name
values without closing the list (an instance adds engines, categories and themes of its
own): a documented value there is known to be ordinary, the rest is read by shape. A
documented value is no secret whoever writes it (anyone can read it in the documents), so
a quote of ``theme=simple`` keeps it.

Names whose values are free (a deployment's, a model's, a tenant's, a plugin's id) have
no entry: a value there is the setting's whatever its shape. Pure data and two checks.
"""

import re
from typing import Final

__all__ = ["CLOSED_SETTINGS", "DOCUMENTED_VALUES", "SETTING_VALUES", "documented", "fits_setting"]

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
    "safesearch": re.compile(r"[0-2]"),
    # What a base URL's API reads beside its key.
    "api-version": _VERSION,
    "version": _VERSION,
    "locale": _LANGUAGE,
    "lang": _LANGUAGE,
    "country": re.compile(r"[a-z]{2,3}", re.IGNORECASE),
    "country_code": re.compile(r"[a-z]{2,3}", re.IGNORECASE),
    "region": re.compile(r"[a-z]+(?:-[a-z0-9]+)*"),
    # A theme is a directory SearXNG lists (``ui.templates_path``), named as its own are.
    "theme": re.compile(r"[a-z][a-z0-9_-]*"),
}
"""Each setting name (lower case) and the whole shape of the values its reader takes."""

DOCUMENTED_VALUES: Final[dict[str, frozenset[str]]] = {
    # SearXNG's search API: ``theme`` default ``simple``, the one theme it ships now.
    "theme": frozenset({"simple"}),
    # SearXNG's autocomplete backends (``searx/autocomplete.py``'s table, settings.yml's
    # list), over the versions in use: a backend is code, an instance cannot add one.
    "autocomplete": frozenset(
        {
            *("360search", "360so", "baidu", "bing", "brave", "dbpedia", "duckduckgo"),
            *("google", "mwmbl", "naver", "quark", "qwant", "seznam", "sogou"),
            *("startpage", "stract", "swisscows", "wikipedia", "yandex"),
        }
    ),
    # The search API's lists, and the values their readers take besides (``week``).
    "format": frozenset({"json", "csv", "rss", "html"}),
    "time_range": frozenset({"day", "week", "month", "year"}),
    # SearXNG's default categories (its tabs); an engine may bring others.
    "categories": frozenset(
        {"general", "images", "videos", "news", "map", "music", "it", "science", "files"}
    ),
    # Engines SearXNG ships under these names, the ones its documents and default
    # settings name most; an instance names its own too.
    "engines": frozenset(
        {
            *("google", "bing", "duckduckgo", "brave", "qwant", "startpage", "mojeek"),
            *("yahoo", "presearch", "mwmbl", "yandex", "baidu", "wikipedia", "wikidata"),
            *("github", "stackoverflow", "arxiv", "youtube", "reddit", "currency"),
        }
    ),
}
"""Each setting name (lower case) and the values its documents name (lower case)."""

CLOSED_SETTINGS: Final = frozenset({"autocomplete"})
"""The settings whose documented values are all the values their reader takes: a value
outside :data:`DOCUMENTED_VALUES` is none of the setting's (no backend of that name
exists: a backend is code). Not ``theme``: SearXNG lists its themes from a directory an
instance sets (``ui.templates_path``), so a fork's or an instance's own theme is one, and
its name is in every page the instance serves (``static/themes/<name>/``): no secret."""


def documented(name: str, value: str) -> bool:
    """Whether ``value`` is one the documents of the setting ``name`` name (case aside).

    Example:
        >>> documented("theme", "simple"), documented("Engines", "Google")
        (True, True)
        >>> documented("theme", "abcdefghij"), documented("model", "simple")
        (False, False)
    """
    return value.lower() in DOCUMENTED_VALUES.get(name.lower(), frozenset())


def fits_setting(name: str, value: str) -> bool:
    """Whether ``value`` is one the setting ``name`` takes (``True`` for a free setting's).

    A closed setting's value is one its documents name (:data:`CLOSED_SETTINGS`); any
    other's fits the setting's shape, if it has one.

    Example:
        >>> fits_setting("language", "en-US"), fits_setting("language", "Qx7w")
        (True, False)
        >>> fits_setting("format", "json"), fits_setting("engines", "Qx7w")
        (True, False)
        >>> fits_setting("engines", "hunterxyzw"), fits_setting("deployment", "Qx7w")
        (True, True)
        >>> fits_setting("autocomplete", "duckduckgo"), fits_setting("autocomplete", "abcdefgh")
        (True, False)
        >>> fits_setting("theme", "pix-art"), fits_setting("theme", "Qx7w")
        (True, False)
    """
    name = name.lower()
    if name in CLOSED_SETTINGS:
        return documented(name, value)
    shape = SETTING_VALUES.get(name)
    return shape is None or shape.fullmatch(value) is not None
