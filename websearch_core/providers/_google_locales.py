"""The interface languages Google documents for ``hl``, as data (no I/O, no logic).

``hl`` is taken whatever it holds: a language Google has no interface for (``hl=haw``)
is quietly ignored and the page comes back as if none were asked. So the plan needs the
documented list to tell a language that reaches Google's ranking from one that only
reached its URL (:attr:`~websearch_core.filters.support.FilterSupport.languages`).

Source: the "Supported interface languages" table of Google's Custom Search JSON API
reference (developers.google.com/custom-search/v1/reference/rest/v1/cse/list, the ``hl``
parameter, and its XML API appendix of the same name), by primary subtag: ``zh-CN`` and
``zh-TW`` are ``zh``, ``pt-BR`` and ``pt-PT`` are ``pt``. Google writes Hebrew and
Javanese with ISO 639's withdrawn codes ``iw`` and ``jw``, and Norwegian as ``no``; their
current codes (``he``, ``jv``) and Bokmål (``nb``, the written Norwegian ``no`` names)
are listed beside them, since a caller writes those. The table writes Amharic's code as
``sm`` (Samoan's); Amharic is listed as ``am``.

The module is private; :mod:`websearch_core.providers.google` reads it.
"""

from typing import Final

__all__ = ["GOOGLE_HL_LANGUAGES"]

GOOGLE_HL_LANGUAGES: Final[frozenset[str]] = frozenset(
    {
        "af", "am", "ar", "az", "be", "bg", "bh", "bn", "bs", "ca", "cs", "cy", "da", "de",
        "el", "en", "eo", "es", "et", "eu", "fa", "fi", "fo", "fr", "fy", "ga", "gd", "gl",
        "gu", "hi", "hr", "hu", "ia", "id", "is", "it", "iw", "ja", "jw", "ka", "kn", "ko",
        "la", "lt", "lv", "mk", "ml", "mr", "ms", "mt", "ne", "nl", "nn", "no", "oc", "pa",
        "pl", "pt", "ro", "ru", "si", "sk", "sl", "sq", "sr", "su", "sv", "sw", "ta", "te",
        "th", "ti", "tl", "tr", "uk", "ur", "uz", "vi", "xh", "zh", "zu",
        # the current codes of languages the table writes otherwise (see above)
        "he", "jv", "nb",
    }
)  # fmt: skip
"""Primary subtags of Google's documented ``hl`` interface languages (no ``haw``)."""
