"""The one list of provider ids, in the spec's auto-chain order.

A leaf with no imports, so :mod:`websearch_core.settings` can check configured ids
against it without importing the providers package (which imports the settings);
:mod:`websearch_core.providers` builds its registry from it and re-exports it.
"""

import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType

__all__ = [
    "BASE_URL_IDS",
    "BASE_URL_ONLY_IDS",
    "FREE_ENGINE_ORDER",
    "GOOGLE_OAUTH_ROUTE",
    "ID_CUTOFF",
    "KEY_IDS",
    "KEY_ONLY_IDS",
    "KEY_ONLY_USES",
    "SEARCH_PROVIDER_ORDER",
    "SIGN_IN_ROUTES",
    "closest_id",
    "did_you_mean",
    "listed_ids",
    "one_provider_only",
    "preferred_provider",
    "several_for_one_message",
    "unknown_ids",
    "unknown_ids_message",
    "unknown_list_ids_message",
    "unknown_one_provider_message",
    "unknown_provider_message",
]

FREE_ENGINE_ORDER: tuple[str, ...] = (
    "duckduckgo",
    "bing",
    "yahoo",
    "startpage",
    "google",
    "ecosia",
    "mojeek",
)
"""The credential-free engines, in priority order: last in the auto chain before
``public``, and the order in which the Public Web fan-out merges them."""

SEARCH_PROVIDER_ORDER: tuple[str, ...] = (
    "perplexity",
    "gemini",
    "anthropic",
    "codex",
    "xai",
    "zai",
    "exa",
    "tinyfish",
    "jina",
    "kagi",
    "tavily",
    "firecrawl",
    "brave",
    "serper",
    "kimi",
    "parallel",
    "synthetic",
    "searxng",
    *FREE_ENGINE_ORDER,
    "public",
)
"""Every provider id, in the spec's auto-chain order: keyed APIs first, self-hosted, then
scrapers. The one list: the registry, the simulator's protocols, the README provider table
and the tests all derive from it."""


def unknown_provider_message(
    *unknown: str,
    known: tuple[str, ...] = SEARCH_PROVIDER_ORDER,
    aliases: Mapping[str, str] | None = None,
) -> str:
    """The reference's text for ids no provider has, with every id there is.

    Args:
        unknown: The ids given.
        known: The ids there are (default: every provider's).
        aliases: Other names for known ids, lower case (``brave_api_key``), suggested as
            the id they name (see :func:`did_you_mean`).

    Example:
        >>> unknown_provider_message("bravo").startswith("Unknown search provider: bravo (known: ")
        True
    """
    meant = did_you_mean(unknown, known, aliases)
    return f"Unknown search provider: {', '.join(unknown)} (known: {listed_ids(known)}){meant}"


def unknown_one_provider_message(given: str, aliases: Mapping[str, str] | None = None) -> str:
    """:func:`unknown_provider_message` for a setting that takes one id, given several.

    ``provider="brave,tavily"`` (``--prefer brave,tavily``, ``WEBSEARCH_PROVIDER=...``) was
    refused as one unknown id, every id listed, and nothing said that ``providers`` is the
    setting that takes a list: a first user read that two ids they knew were wrong. When
    every word of ``given`` is an id, the text (the reference's, kept first) names it.

    Args:
        given: The value as typed.
        aliases: As for :func:`unknown_provider_message`.

    Example:
        >>> print(unknown_one_provider_message("brave,tavily").split(")", 1)[1])
        ... # doctest: +NORMALIZE_WHITESPACE
        ; it takes one provider: to ask brave, then tavily, list them in the providers
        setting (providers=['brave', 'tavily'], or WEBSEARCH_PROVIDERS=brave,tavily)
    """
    message = unknown_provider_message(given, aliases=aliases)
    ids = _ids_in(given.replace(",", " "))
    if not ids:
        return message
    return (
        f"{message}; it takes one provider: to ask {', then '.join(ids)}, list them in the "
        f"providers setting (providers={ids!r}, or WEBSEARCH_PROVIDERS={','.join(ids)})"
    )


def several_for_one_message(value: object) -> str | None:
    """What to say of a list given to a setting that takes one provider id, else ``None``.

    ``WebSearch(provider=["brave", "duckduckgo"])`` was refused as pydantic's ``Input should
    be a valid string`` alone, where the same ids written ``"brave,duckduckgo"`` are pointed
    to the ``providers`` setting (:func:`unknown_one_provider_message`); now both are.

    Example:
        >>> print(several_for_one_message(["brave", "tavily"]))
        ... # doctest: +NORMALIZE_WHITESPACE
        takes one provider id, not a list: to ask brave, then tavily, list them in the
        providers setting (providers=['brave', 'tavily'], or WEBSEARCH_PROVIDERS=brave,tavily)
        >>> several_for_one_message("brave") is None
        True
    """
    if not isinstance(value, list | tuple) or not all(isinstance(item, str) for item in value):
        return None
    ids = [item.strip().lower() for item in value if item.strip()]
    if len(ids) == 1:
        return f"takes one provider id, not a list: write provider={ids[0]!r}"
    return (
        f"takes one provider id, not a list: to ask {', then '.join(ids)}, list them "
        f"in the providers setting (providers={ids!r}, or WEBSEARCH_PROVIDERS={','.join(ids)})"
    )


def one_provider_only(value: object) -> object:
    """``value`` as given, unless it is a list where one provider id goes: then refused.

    The ``mode="before"`` check of every model with a ``provider`` field (the settings,
    the client's options), so that each says where the list goes in the same words.

    Raises:
        ValueError: ``value`` is a list of ids (:func:`several_for_one_message`).
    """
    several = several_for_one_message(value)
    if several is not None:
        raise ValueError(several)
    return value


def preferred_provider(value: str | None) -> str | None:
    """A preferred-provider option read as the settings read it: an id, or ``None`` for auto.

    The tools keep their options for a client built at the first call; this lets each
    refuse an id no provider has when the tool is built, in one wording.

    Args:
        value: The option given (any case, spaces around it allowed).

    Raises:
        ValueError: No provider has that id; the message lists the ids and the one meant.

    Example:
        >>> preferred_provider(" Brave "), preferred_provider("auto")
        ('brave', None)
    """
    if value is None:
        return None
    given = value.strip()
    value = given.lower()
    if value in ("", "auto"):
        return None
    if value not in SEARCH_PROVIDER_ORDER:
        raise ValueError(unknown_one_provider_message(given))  # as typed: Bravo, not bravo
    return value


KEY_ONLY_USES: Mapping[str, str] = MappingProxyType(
    {"openrouter": "the key Perplexity falls back to"}
)
"""Each id that names an API key but no provider, with what its key is for: said beside it
wherever the ids are listed, since ``openrouter`` among the search providers read as one."""
KEY_ONLY_IDS: tuple[str, ...] = tuple(KEY_ONLY_USES)
"""Ids that name an API key but no provider: Perplexity's OpenRouter fallback reads its key
as ``openrouter``."""
KEY_IDS: tuple[str, ...] = (*SEARCH_PROVIDER_ORDER, *KEY_ONLY_IDS)
"""Every id an API key can be given under (``api_keys``, ``[api_keys]``)."""
GOOGLE_OAUTH_ROUTE = "google_oauth"
"""The base URL of Google's OAuth token endpoint (``https://oauth2.googleapis.com``), where a
Google sign-in of Gemini's is renewed: its own id, not Gemini's, since a gateway in front of
Cloud Code serves no ``/token`` and should never be handed the refresh token."""
BASE_URL_ONLY_IDS: tuple[str, ...] = (GOOGLE_OAUTH_ROUTE,)
"""Ids that name a base URL (``base_urls``, ``WEBSEARCH_<ID>_BASE_URL``) but no provider."""
BASE_URL_IDS: tuple[str, ...] = (*SEARCH_PROVIDER_ORDER, *BASE_URL_ONLY_IDS)
"""Every id a base URL can be given under (``base_urls``, ``WEBSEARCH_<ID>_BASE_URL``)."""
SIGN_IN_ROUTES: tuple[str, ...] = ("anthropic", "codex", "gemini", "perplexity", GOOGLE_OAUTH_ROUTE)
"""The base URL ids a sign-in is sent under, so the only ones ``sign_in_gateways`` may trust:
the providers that send one (their ``credential_kinds`` marked ``sign_in``) and Google's
token endpoint, where Gemini's is renewed. Kept here, not read from the providers, so that
the settings need not import them; a test holds it to what the providers declare."""


def unknown_ids(
    ids: list[str] | tuple[str, ...], known: tuple[str, ...] = SEARCH_PROVIDER_ORDER
) -> list[str]:
    """The ids among ``ids`` that ``known`` lacks, compared trimmed and lower-cased.

    Example:
        >>> unknown_ids([" Brave", "brav"])
        ['brav']
    """
    return [pid for pid in ids if pid.strip().lower() not in known]


def unknown_ids_message(
    unknown: list[str],
    known: tuple[str, ...] = SEARCH_PROVIDER_ORDER,
    aliases: Mapping[str, str] | None = None,
) -> str:
    """The settings' text for ids no provider has in a list or table, with every id there is.

    Args:
        unknown: The ids given.
        known: The ids there are.
        aliases: Other names for known ids (a key's variable), as for :func:`did_you_mean`.

    Example:
        >>> unknown_ids_message(["brav"]).startswith("unknown provider id brav (known: ")
        True
    """
    meant = did_you_mean(unknown, known, aliases)
    return f"unknown provider id {', '.join(unknown)} (known: {listed_ids(known)}){meant}"


def listed_ids(known: Sequence[str]) -> str:
    """``known`` as a refusal lists them, a key-only id last with what its key is for.

    ``WEBSEARCH_API_KEYS__BRAVO`` was answered ``(known: ..., mojeek, public, openrouter)``:
    an id no search provider has, among those that are. It is kept (a key stored under it
    is used), and said for what it is.

    Example:
        >>> listed_ids(("brave", "public", "openrouter"))
        'brave, public; openrouter names no provider: the key Perplexity falls back to'
    """
    providers = ", ".join(pid for pid in known if pid not in KEY_ONLY_USES)
    key_only = [
        f"{pid} names no provider: {use}" for pid, use in KEY_ONLY_USES.items() if pid in known
    ]
    return "; ".join([providers, *key_only] if providers else key_only)


def unknown_list_ids_message(unknown: list[str]) -> str:
    """:func:`unknown_ids_message` for the list settings, naming ids run together.

    ``WEBSEARCH_PROVIDERS="brave tavily"`` (or ``brave;tavily``, ``exclude="bing
    duckduckgo"``) was refused as one unknown id, with ``did you mean duckduckgo?`` for the
    second: the user read that an id was mistyped, not that the list is split at commas. An
    entry whose words are all ids is now named with that fix, and no id is guessed for it.

    Args:
        unknown: The entries of the list no provider has, as given.

    Example:
        >>> unknown_list_ids_message(["brave tavily"]).split(")", 1)[1]
        '; brave tavily holds 2 ids: separate them with commas, as brave,tavily'
    """
    together = {entry: _ids_in(entry) for entry in unknown}
    fixes = [
        f"{entry.strip()} holds {len(ids)} ids: separate them with commas, as {','.join(ids)}"
        for entry, ids in together.items()
        if ids
    ]
    if not fixes:
        return unknown_ids_message(unknown)
    listed = ", ".join(SEARCH_PROVIDER_ORDER)
    meant = did_you_mean([entry for entry, ids in together.items() if not ids])
    return f"unknown provider id {', '.join(unknown)} (known: {listed}){meant}; " + "; ".join(fixes)


def _ids_in(entry: str) -> list[str]:
    """The ids ``entry`` holds when it is two or more run together, else ``[]``.

    Spaces, semicolons and bars are the separators a list is written with elsewhere.
    """
    words = entry.lower().replace(";", " ").replace("|", " ").split()
    if len(words) < 2 or any(word not in SEARCH_PROVIDER_ORDER for word in words):
        return []
    return words


def did_you_mean(
    unknown: Iterable[str],
    known: tuple[str, ...] = SEARCH_PROVIDER_ORDER,
    aliases: Mapping[str, str] | None = None,
) -> str:
    r"""``; did you mean brave?`` for ids one typo away from a known one, else ``""``.

    The one way a mistyped provider id is answered, wherever an id is typed (an option,
    a setting, a variable, a command, a call): each suggestion is :func:`closest_id`'s.

    An id holding a character that shows nothing (a byte-order mark an editor or a
    clipboard put first, a zero-width space) was shown as the id it was meant to be, so
    ``Unknown search provider: brave ...; did you mean brave?`` read as a refusal of the
    right id; that character is now named first, by its code point and place, as the
    query's check names a control character. So are a control character (``bra\x07ve``)
    and a letter beyond ASCII that looks like an ASCII one (a Cyrillic ``\u0430``), which read
    as the same ``did you mean brave?`` alone (:func:`_odd_character`).

    Args:
        unknown: The ids given.
        known: The ids there are.
        aliases: Other names for known ids, as for :func:`closest_id`.

    Example:
        >>> did_you_mean(["bravo", "tavlly", "altavista"])
        '; did you mean brave, tavily?'
        >>> did_you_mean(["BRAVE_API_KEY"], ("brave",), {"brave_api_key": "brave"})
        '; did you mean brave?'
        >>> print(did_you_mean(["\ufeffbrave"]))  # doctest: +NORMALIZE_WHITESPACE
        ; '\ufeffbrave' holds an invisible character (U+FEFF ZERO WIDTH NO-BREAK SPACE) at
        character 1; did you mean brave?
    """
    given = tuple(unknown)
    meant = [close for pid in given if (close := closest_id(pid, known, aliases))]
    suggestion = f"; did you mean {', '.join(dict.fromkeys(meant))}?" if meant else ""
    return _unseen_characters(given) + suggestion


def _unseen_characters(given: tuple[str, ...]) -> str:
    r"""``; '\u200bbrave' holds an invisible character (...) at character 1`` for each such id.

    The id is shown by ``repr``, whose escapes make an invisible or control character
    seen; ASCII ids of printable characters (nearly every one) cost an ``isascii`` and an
    ``isprintable`` each.
    """
    notes = []
    for pid in given:
        if pid.isascii() and pid.isprintable():
            continue
        found = _odd_character(pid)
        if found is not None:
            notes.append(f"; {pid!r} holds {found}")
    return "".join(notes)


ODD_CHARACTERS_NAMED = 3
"""How many distinct odd characters an id's note names before it counts the rest: enough
for a word typed in the wrong keyboard layout (``b\u0433\u0430ve``), few enough that an id
pasted from anywhere still reads as one line."""


def _odd_character(pid: str) -> str | None:
    r"""Each distinct character of ``pid`` that keeps it from the id it reads as, or ``None``.

    Every id is printable ASCII, so any other character is why a word that looks right
    is refused: one that shows nothing (U+FEFF, U+200B), a control (``BEL``, which a
    terminal rings rather than shows), a look-alike beyond ASCII (a Cyrillic ``а`` in
    ``brаve``, which ``repr`` shows as itself), each by its code point and name and
    where it sits. Naming only the first hid the rest: ``bгаve`` (two Cyrillic
    letters) named the ``г`` alone, and fixing it left a refusal still. They come in
    the order they first appear, a repeated one named once with each of its places, and
    past :data:`ODD_CHARACTERS_NAMED` of them the rest are counted.

    Example:
        >>> _odd_character("brave")
        'a control character (U+0007) at character 4'
        >>> _odd_character("brаve")
        'a Cyrillic letter (U+0430 CYRILLIC SMALL LETTER A) at character 3'
        >>> print(_odd_character("bгаvа"))  # doctest: +NORMALIZE_WHITESPACE
        a Cyrillic letter (U+0433 CYRILLIC SMALL LETTER GHE) at character 2, a Cyrillic
        letter (U+0430 CYRILLIC SMALL LETTER A) at characters 3 and 5
    """
    places: dict[str, list[int]] = {}
    for place, character in enumerate(pid, start=1):
        if not (character.isascii() and character.isprintable()):
            places.setdefault(character, []).append(place)
    if not places:
        return None
    named = [
        f"{_odd_kind(character)} at {_places_text(at)}"
        for character, at in list(places.items())[:ODD_CHARACTERS_NAMED]
    ]
    rest = len(places) - len(named)
    if rest:
        named.append(f"and {rest} other odd character{'s' if rest > 1 else ''}")
    return ", ".join(named)


def _odd_kind(character: str) -> str:
    """What an odd ``character`` is, with its code point (and name, where one helps)."""
    # Only for an id no provider has, which is rare: this module is a leaf.
    from .sent_secret import invisible_at, kind_of

    found = invisible_at(character, spaces=True)
    if found is not None:
        return f"an invisible character ({found[1]})"
    if unicodedata.category(character) == "Cc":
        return f"a control character (U+{ord(character):04X})"
    name = f"U+{ord(character):04X} {unicodedata.name(character, '')}".rstrip()
    return f"{kind_of(character)} ({name})"


def _places_text(places: list[int]) -> str:
    """Where an odd character sits: ``character 3``, ``characters 3 and 5``.

    Past :data:`ODD_CHARACTERS_NAMED` places the rest are counted (``characters 1, 2, 3
    and 7 more``), so an id of a thousand marks is one line still.

    Example:
        >>> _places_text([3]), _places_text([3, 5]), _places_text(list(range(1, 11)))
        ('character 3', 'characters 3 and 5', 'characters 1, 2, 3 and 7 more')
    """
    if len(places) == 1:
        return f"character {places[0]}"
    if len(places) > ODD_CHARACTERS_NAMED:
        shown = ", ".join(map(str, places[:ODD_CHARACTERS_NAMED]))
        return f"characters {shown} and {len(places) - ODD_CHARACTERS_NAMED} more"
    return f"characters {', '.join(map(str, places[:-1]))} and {places[-1]}"


def closest_id(
    given: str,
    known: tuple[str, ...] = SEARCH_PROVIDER_ORDER,
    aliases: Mapping[str, str] | None = None,
) -> str | None:
    """The id of ``known`` that ``given`` (trimmed, any case) is a typo of, or ``None``.

    Args:
        given: The id as typed.
        known: The ids there are.
        aliases: Other names for known ids, lower case, such as the variable a provider
            reads its key from (``brave_api_key`` for ``brave``): ``websearch auth set
            BRAVE_API_KEY`` means ``brave``, and an alias one typo away does too. An alias
            for an id ``known`` lacks is passed over.

    Example:
        >>> closest_id("duckduckgoo"), closest_id("serpapi")
        ('duckduckgo', None)
    """
    from .meant_names import closest_name  # only when an id is wrong: this module is a leaf

    names = {pid: pid for pid in known}
    for alias, pid in (aliases or {}).items():
        if pid in names:
            names.setdefault(alias, pid)
    close = closest_name(given.strip(), names, cutoff=ID_CUTOFF)
    return None if close is None else names[close]


ID_CUTOFF = 0.75
"""How alike (difflib's ratio) a name must be to a provider id to be suggested for it.

``bravee`` (0.91), ``tavlly`` and ``searx`` (0.83) and ``public_web`` (0.75) are;
``serpapi`` (0.67 to ``serper``, another service), ``exa.ai`` (0.67 to ``xai``) and
``brave_search`` (0.59) are not. The 0.6 that setting names are matched with
(:func:`~websearch_core.meant_names.closest_name`) would suggest the first two wrongly:
ids are short, so one letter weighs more."""
