"""The words an answer writes only for a URL, by language: they go when the URL is cut.

:func:`~.links.unlinked` takes a cut page's URL out of an answer, and with it the words
that were there for it alone (:func:`~.links._closed`). The words are data, here, so a
language is a row and not a rule.

Which languages: the answer engines whose answers a cut tidies (Codex, Perplexity and
OpenRouter's route to it: ``ProviderInfo.answer_links_sources``) answer in the language
asked in. The real captures in ``fixtures/`` hold one answer that is not English, Kimi's
in Chinese (``fixtures/kimi``), and it names its pages as Markdown headings' links, whose
words stay: no pointing word there to learn from. German, French and Spanish are here as
the most asked languages after English that write a pointing word and a URL apart with
spaces. Korean writes spaces, but its particle runs into the URL (``<url>를 참조하세요``)
and its verb follows it: :data:`HANGUL_BEFORE` and :data:`HANGUL_AFTER`. Chinese and
Japanese write ``详见`` / ``詳細は`` against the URL with no space, and
a URL runs into the full stop ``。`` or the words after it (``<url>を参照``): their rows,
:data:`WIDE_BEFORE` and :data:`WIDE_AFTER`, are read by :mod:`.links_wide`, which also
says where such a URL ends.

What each row holds, and why each goes only where it is safe:

* :data:`POINTERS`: an imperative that points at the URL after it (``see``). English
  ``see`` and ``visit`` go as stop 55 had them (where the clause ends after the URL, or
  ``for details`` follows it). The other languages' words go only where they open their
  clause (after a sentence's end, a bracket, a comma, a semicolon or a colon, or a list
  marker), as an imperative does: after other words they may be a verb the sentence goes
  on with (French ``Je veux voir <url>.``), and taking it would leave ``Je veux.``. After
  words that only ask the reader to go there (:data:`ASKED`: ``Vous pouvez voir <url>.``)
  they point, and the sentence goes whole.
* :data:`PREPOSITIONS`: a word whose phrase is the URL and nothing else (``at <url>``,
  German ``unter <url>``, French ``sur <url>``, Spanish ``en <url>``): it goes wherever it
  stands before a cut URL.
* :data:`FOR_MORE`: what follows ``see <url>`` to say why (``for details``).
* :data:`LEADS`: the words of a sentence that says only where more is to be read, before
  a preposition and the URL (``More information at <url>.``, ``Weitere Informationen
  finden Sie unter <url>.``): the sentence goes whole, where the URL ends it.
"""

from typing import Final

__all__ = [
    "ASKED",
    "ASKED_FINAL",
    "FOR_MORE",
    "HANGUL_AFTER",
    "HANGUL_BEFORE",
    "HANGUL_PARTICLES",
    "LEADS",
    "OPENING_ONLY",
    "POINTERS",
    "PREPOSITIONS",
    "WIDE_AFTER",
    "WIDE_BEFORE",
]

POINTERS: Final[dict[str, tuple[str, ...]]] = {
    "en": ("please see", "please visit", "see also", "see", "visit"),
    "de": ("siehe auch", "siehe", "besuchen Sie"),
    "fr": ("voir aussi", "voir", "voyez", "consulter", "consultez", "visiter", "visitez"),
    "es": (
        "véase también",
        "véase",
        "ver también",
        "ver",
        "consulte",
        "consulta",
        "consultar",
        "visite",
        "visita",
        "visitar",
    ),
}
"""Imperatives pointing at the URL after them, by language (ISO 639-1)."""
OPENING_ONLY: Final = frozenset(("de", "fr", "es"))
"""Languages whose pointing words go only where they open their clause (see above)."""
PREPOSITIONS: Final[dict[str, tuple[str, ...]]] = {
    "en": ("at", "via"),
    "de": ("unter",),
    "fr": ("sur",),
    "es": ("en",),
}
"""Words whose phrase is the URL alone, wherever they stand."""
FOR_MORE: Final[dict[str, str]] = {
    "en": r"for (?:more )?(?:details|information|info|more)",
    "de": r"für (?:weitere |mehr )?(?:Details|Informationen|Einzelheiten)",
    "fr": r"pour (?:plus de détails|plus d['’]informations|en savoir plus)",
    "es": r"para (?:más )?(?:detalles|información)",
}
"""Patterns (a space standing for any run of them) of what ``see <url>`` goes on with."""
LEADS: Final[dict[str, str]] = {
    "en": r"(?:more |further )?(?:details|information|info)",
    "de": r"(?:weitere |mehr )?(?:Details|Informationen)(?: (?:finden Sie|gibt es|erhalten Sie))?",
    "fr": r"(?:plus d['’]informations|plus de détails|pour en savoir plus)(?: (?:est|sont))?",
    "es": r"(?:más )?(?:información|detalles)(?: (?:está|están|disponibles?))?",
}
"""Patterns of a sentence's words before a preposition and the URL, saying only where more
is to be read (a space standing for any run of them)."""
ASKED: Final[dict[str, str]] = {
    "en": r"(?:(?:for (?:more )?(?:details|information|info)|also|alternatively),? )?"
    r"(?:you|readers|users) (?:can|could|may|might)(?: also)?",
    "de": r"(?:weitere |mehr )?(?:Details|Informationen|Einzelheiten)",
    "fr": r"(?:(?:pour (?:plus de détails|plus d['’]informations|en savoir plus)),? )?"
    r"(?:vous|on) (?:pouvez|pourrez|pourriez|peut)(?: (?:aussi|également))?",
    "es": r"(?:para (?:más )?(?:detalles|información),? )?"
    r"(?:puedes|puede|pueden|podrás|podrá|podéis)(?: también)?",
}
"""Patterns of a sentence's words before a pointing word that only ask the reader to go to
the URL (``You can visit <url>.``, ``Vous pouvez voir <url>.``, German's ``Weitere Details
siehe <url>.``; a space standing for any run of them): with the URL gone the sentence asks
nothing, and goes. A pointing word of :data:`OPENING_ONLY` after them points too."""
WIDE_BEFORE: Final = (
    # Chinese, simplified and traditional: "for details see", "see", "please refer to".
    "详情请见",
    "詳情請見",
    "详情请参见",
    "詳情請參見",
    "详情请参阅",
    "详情请访问",
    "詳情請訪問",
    "更多信息请见",
    "更多信息请访问",
    "详见",
    "詳見",
    "请见",
    "請見",
    "参见",
    "參見",
    "请参见",
    "請參見",
    "参阅",
    "參閱",
    "请参阅",
    "請參閱",
    "请参考",
    "請參考",
    "请访问",
    "請訪問",
    # Japanese: "for details", "for more".
    "詳しくは",
    "詳細は",
    "詳細については",
    "詳しい情報は",
)
"""Chinese and Japanese words written before a URL only to point at it (:mod:`.links_wide`)."""
WIDE_AFTER: Final = (
    # Japanese: "(please) see", "(please) refer to".
    "をご覧ください",
    "をご覧下さい",
    "をご参照ください",
    "を参照してください",
    "を参照して下さい",
    "を参照",
    "参照",
)
"""Japanese words written after a URL only to point at it (:mod:`.links_wide`)."""
ASKED_FINAL: Final[dict[str, tuple[str, str]]] = {
    "de": (
        r"(?:Sie|du) (?:können|könnt|kannst)(?: auch)?|(?:können|kannst) (?:Sie|du)(?: auch)?",
        r"(?:besuchen|aufrufen|einsehen|nachlesen|abrufen|nachsehen|ansehen)",
    ),
}
"""Languages that close an asking sentence with its verb after the URL (German ``Sie
können <url> besuchen.``): the words before the URL and the verb after it, patterns (a
space standing for any run of them). Both there, and only the sentence's end after the
verb, the sentence asked nothing else, and goes."""
HANGUL_BEFORE: Final = (
    # "For details", "for more information", "see the following:", "reference:".
    "자세한 내용은",
    "자세한 정보는",
    "자세한 사항은",
    "더 자세한 내용은",
    "더 많은 정보는",
    "다음을 참조하세요:",
    "다음을 참고하세요:",
    "다음을 보세요:",
    "다음을 확인하세요:",
    "다음 링크를 참조하세요:",
    "다음 링크를 참고하세요:",
    "참조:",
    "참고:",
)
"""Korean words written before a URL only to point at it (:mod:`.links_wide`; a space
stands for any run of them)."""
_HANGUL_PARTICLES: Final = ("을", "를", "")
_HANGUL_VERBS: Final = (
    "참조하세요",
    "참조하십시오",
    "참조해 주세요",
    "참고하세요",
    "참고하십시오",
    "참고해 주세요",
    "방문하세요",
    "방문하십시오",
    "확인하세요",
    "확인하십시오",
    "보세요",
)
HANGUL_AFTER: Final = (
    *(
        f"{particle} {verb}" if particle else verb
        for particle in _HANGUL_PARTICLES
        for verb in _HANGUL_VERBS
    ),
    "에서 확인하세요",
    "에서 확인하십시오",
    "에서 확인할 수 있습니다",
    "에서 볼 수 있습니다",
    "에서 찾을 수 있습니다",
    "참조",
    "참고",
)
"""Korean words written after a URL only to point at it: the particle run into the URL
(``을``/``를``, ``에서``) and the verb (``<url>를 참조하세요``, ``(<url> 참조)``)."""
HANGUL_PARTICLES: Final = (
    "에서는",
    "에서",
    "에는",
    "에",
    "을",
    "를",
    "은",
    "는",
    "이",
    "가",
    "의",
    "으로",
    "로",
    "와",
    "과",
    "도",
)
"""Korean particles a sentence writes against a URL (``<url>에서``): with the URL cut
they mark nothing, and go (:func:`.links_wide.particle`)."""
