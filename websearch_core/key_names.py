"""What credentials are called: the variables keys are read from, the entries tokens are under.

``websearch auth set BRAVE_API_KEY`` (the variable where the id goes) and ``websearch auth
remove brav`` (a typo) were answered with every provider id, or with ``no stored API key
for brav``, and nothing said which id was meant. The variables come from what the providers
declare they send (:attr:`~websearch_core.providers.base.SearchProvider.credential_kinds`),
so a provider's new variable is known here without a second list.
"""

import functools
import logging
import os
from collections.abc import Callable, Collection, Mapping

from .provider_credentials import ApiKey, StoredOAuth
from .providers import PROVIDER_REGISTRY, get_provider
from .said_once import first_time

__all__ = [
    "key_checks_waiting",
    "key_variables",
    "left_out",
    "misnamed_key_variables",
    "oauth_entries",
    "report_misnamed_key_variables",
]

logger = logging.getLogger("websearch_core")


def key_variables() -> dict[str, str]:
    """Every variable a provider reads an API key from, lower-cased, with its key's id.

    The id is the one the key is stored under: ``openrouter`` for ``OPENROUTER_API_KEY``,
    which Perplexity reads, ``gemini`` for ``GOOGLE_API_KEY``. Imports every provider
    module, so it is for a command's error path, not for a search.

    Example:
        >>> key_variables()["openrouter_api_key"]
        'openrouter'
    """
    names: dict[str, str] = {}
    for provider_id in PROVIDER_REGISTRY:
        provider = get_provider(provider_id)
        for kind in provider.credential_kinds:
            if not isinstance(kind, ApiKey):
                continue
            env_vars = provider.info.env_vars if kind.env_vars is None else kind.env_vars
            for name in env_vars:
                names.setdefault(name.lower(), kind.owner or provider_id)
    return names


def oauth_entries() -> tuple[str, ...]:
    """Every store entry a provider reads an OAuth token from, in registry order.

    ``gemini`` and ``gemini-cli`` for Gemini's two sign-ins, ``codex``... : the ids
    ``websearch auth remove --oauth`` takes. Imports every provider module, as
    :func:`key_variables` does, so it is for a command, not for a search.

    Example:
        >>> "gemini-cli" in oauth_entries()
        True
    """
    entries: dict[str, None] = {}
    for provider_id in PROVIDER_REGISTRY:
        for kind in get_provider(provider_id).credential_kinds:
            if isinstance(kind, StoredOAuth):
                entries.setdefault(kind.entry or provider_id, None)
    return tuple(entries)


def self_refreshing_entries() -> frozenset[str]:
    """The store entries whose sign-in renews an expiring token from its refresh token.

    ``gemini-cli`` and ``gemini`` (the Gemini CLI's and Antigravity's OAuth clients, at
    Google's token endpoint): what ``websearch auth import`` needs to say whether an
    imported token outlives its hour. Imports every provider module, as
    :func:`oauth_entries` does.

    Example:
        >>> sorted(self_refreshing_entries())
        ['gemini', 'gemini-cli']
    """
    return frozenset(
        kind.entry or provider_id
        for provider_id in PROVIDER_REGISTRY
        for kind in get_provider(provider_id).credential_kinds
        if isinstance(kind, StoredOAuth) and kind.refreshes_itself
    )


def misnamed_key_variables(
    environ: Mapping[str, str],
    has_key: Callable[[str, tuple[str, ...]], bool],
    asks: Callable[[str], bool] | None = None,
) -> list[str]:
    """One sentence per variable that looks like a provider's key but is read by nothing.

    A user who had ``BRAVE_SEARCH_API_KEY`` set (the name other tools read) searched the
    free engines and was told nothing: Brave reads ``BRAVE_API_KEY``. A variable is named
    when it is set, its name starts with a provider's id (or another name of the service,
    :data:`OTHER_SERVICE_NAMES`: ``PPLX_KEY``) and holds ``KEY`` (``BRAVE_KEY``,
    ``TAVILY_SEARCH_KEY``, ``KIMI_API_KEY``) or is one of the provider's variables misspelt
    (``BRAVE_API_KYE``, ``BRAVE_API_TOKEN``), that provider does not read it, and it has
    no key from anywhere else (``has_key``); the value is only checked for being blank.
    Other names (``GOOGLE_MAPS_API_KEY``: Google takes no key) are not guessed at. Only
    the named provider's module is imported, and none when no name starts so.

    Args:
        environ: The environment.
        has_key: Whether a provider has a key, given its id and the variables it reads.
        asks: Whether a provider may be asked now; ``None`` asks every one. The check
            reads the provider's module, so a client's build asks only those imported
            (:func:`~websearch_core.providers.is_loaded`): its build has no deadline yet,
            and a module whose import hangs would hang it. The rest are checked later.

    Example:
        >>> for sentence in misnamed_key_variables({"BRAVE_KEY": "x"}, lambda _i, _n: False):
        ...     print(sentence)
        BRAVE_KEY is set, but nothing reads it: Brave reads its key from BRAVE_API_KEY
    """
    sentences = []
    # A set lookup per name first: the scan runs at every client's start.
    for name in [name for name in environ if name.partition("_")[0].lower() in _FIRST_WORDS]:
        named = _provider_named_by(name)
        if named is None:
            continue
        provider_id, note = named
        if asks is not None and not asks(provider_id):
            continue
        upper = name.upper()
        names = _own_key_variables(provider_id)
        if not names or upper in names or not environ[name].strip():
            continue
        if not _looks_like_a_key(upper, names) or has_key(provider_id, names):
            continue
        label = get_provider(provider_id).info.label
        sentences.append(
            f"{name} is set, but nothing reads it: {label} reads its key from "
            f"{' or '.join(names)}{note}"
        )
    return sorted(sentences)


OTHER_SERVICE_NAMES: Mapping[str, tuple[str, str]] = {
    "pplx": ("perplexity", ""),  # Perplexity's own short name (PPLX_API_KEY, which is read)
    "perplexityai": ("perplexity", ""),  # LiteLLM reads PERPLEXITYAI_API_KEY
    "moonshot": (
        "kimi",
        " (a Kimi Code Console key: a Moonshot Open Platform key is refused there)",
    ),  # Moonshot's Open Platform docs and SDK examples: MOONSHOT_API_KEY
    "zhipuai": ("zai", ""),  # the zhipuai SDK and LangChain's ChatZhipuAI: ZHIPUAI_API_KEY
    "metaphor": ("exa", ""),  # Exa was Metaphor: its old SDKs' examples, METAPHOR_API_KEY
    "jinaai": ("jina", ""),  # Zilliz's deep-searcher and Weaviate's Jina examples
    "google_genai": ("gemini", ""),  # Genkit's Google AI plugin: GOOGLE_GENAI_API_KEY
    "google_generative_ai": ("gemini", ""),  # Vercel's AI SDK: GOOGLE_GENERATIVE_AI_API_KEY
}
"""The other names a keyed service goes by in variable names, lower case, each with its
provider's id and what the sentence adds. A name starting with one (then ``_``) is taken
as that provider's, as a name starting with the id is: ``PPLX_KEY`` and ``MOONSHOT_API_KEY``
searched without a word. Only names a service's own documents or an SDK use are here."""

_OTHER_NAME_FIRST_WORDS = frozenset(other.partition("_")[0] for other in OTHER_SERVICE_NAMES)
_FIRST_WORDS = _OTHER_NAME_FIRST_WORDS | frozenset(PROVIDER_REGISTRY)
"""The first words, lower case, a name of a provider's key can start with."""


def _provider_named_by(name: str) -> tuple[str, str] | None:
    """The provider ``name`` starts with (another name of its service, else its id).

    With what its sentence adds; ``None`` for most names, after one or two set lookups.
    """
    lower = name.lower()
    # Provider ids hold no "_": the word before the first one is the id, if any.
    first = lower.partition("_")[0]
    if first in _OTHER_NAME_FIRST_WORDS:
        starts = [other for other in OTHER_SERVICE_NAMES if lower.startswith(other + "_")]
        if starts:
            return OTHER_SERVICE_NAMES[max(starts, key=len)]
    return (first, "") if first in PROVIDER_REGISTRY else None


def report_misnamed_key_variables(
    has_key: Callable[[str, tuple[str, ...]], bool],
    report: Callable[[str], None] | None = None,
    asks: Callable[[str], bool] | None = None,
) -> None:
    """Say each key variable of the environment nothing reads, once per process.

    Args:
        has_key: As for :func:`misnamed_key_variables`.
        report: Where the sentence goes; a warning of the ``websearch_core`` logger by
            default.
        asks: As for :func:`misnamed_key_variables`.
    """
    for sentence in misnamed_key_variables(os.environ, has_key, asks):
        if first_time(("not read", sentence)):
            (report or logger.warning)(sentence)


def key_checks_waiting(environ: Mapping[str, str], asks: Callable[[str], bool]) -> bool:
    """Whether a variable of ``environ`` names a provider ``asks`` refuses (still to check).

    Set lookups on the names alone, no module imported: a client built before a provider
    it would check is imported checks it at its first search, after that search's imports.

    Example:
        >>> key_checks_waiting({"BRAVE_KEY": "x", "HOME": "/"}, lambda _id: False)
        True
        >>> key_checks_waiting({"HOME": "/"}, lambda _id: False)
        False
    """
    for name in environ:
        if name.partition("_")[0].lower() not in _FIRST_WORDS:
            continue
        named = _provider_named_by(name)
        if named is not None and not asks(named[0]):
            return True
    return False


def left_out(provider_id: str, exclude: Collection[str], providers: Collection[str]) -> bool:
    """Whether the settings leave ``provider_id`` out of every search (no key is missed).

    A key under another name of a service the user does not search with (a Moonshot chat
    key in ``MOONSHOT_API_KEY`` beside ``exclude = ["kimi"]``) is not a mistake: naming it
    at every start would only be noise. ``exclude`` and ``providers`` are the settings'.

    Example:
        >>> left_out("kimi", ("kimi",), ()), left_out("kimi", (), ("brave",))
        (True, True)
        >>> left_out("kimi", (), ()), left_out("kimi", (), ("kimi", "brave"))
        (False, False)
    """
    return provider_id in exclude or (bool(providers) and provider_id not in providers)


@functools.lru_cache(maxsize=256)  # asked at every client's start: difflib once a name
def _looks_like_a_key(name: str, names: tuple[str, ...]) -> bool:
    """Whether ``name`` says KEY, or is one of ``names`` misspelt (``BRAVE_API_KYE``)."""
    if "KEY" in name:
        return True
    import difflib  # only for a name that starts with a keyed provider's id

    return bool(difflib.get_close_matches(name, names, n=1, cutoff=_MISSPELT))


_MISSPELT = 0.85
"""How alike a name must be to a key's variable to be taken for it: ``BRAVE_API_TOKEN``
(0.86) and ``BRAVE_API_KYE`` (0.92) are, ``BRAVE_BROWSER_PATH`` (0.45) is not."""


@functools.cache
def _own_key_variables(provider_id: str) -> tuple[str, ...]:
    """The variables ``provider_id`` reads its own key from (not a key of another id's)."""
    provider = get_provider(provider_id)
    names: dict[str, None] = {}
    for kind in provider.credential_kinds:
        if isinstance(kind, ApiKey) and kind.owner in (None, provider_id):
            env_vars = provider.info.env_vars if kind.env_vars is None else kind.env_vars
            names.update(dict.fromkeys(name.upper() for name in env_vars))
    return tuple(names)
