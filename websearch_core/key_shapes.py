"""Saying that a key looks like another provider's: a Tavily ``tvly-...`` key in BRAVE_API_KEY.

A first user pasted a Tavily key into ``BRAVE_API_KEY`` and read only ``Brave authorization
failed (401)``, which did not say why. Some providers document how their keys begin
(:attr:`~websearch_core.provider_types.ProviderInfo.key_prefixes`, kept beside each
provider's other facts); a key with another provider's prefix and none of its own provider's
was pasted into the wrong place. It is said in two places: after the refusal's text when
the provider answers 401/403 (:func:`refusal_hint`, the spec's words first, unchanged), and
once as a warning at a client's build and first search (:func:`report_key_shapes`), beside
the misnamed key variables (:mod:`~websearch_core.key_names`). A key with no known shape,
or with its own, is never named. Only the documented prefix of a key is ever shown.

The checks are pure and read only :class:`ProviderInfo` values; which providers they may
read is the caller's (a build reads only those already imported).
"""

import contextlib
import logging
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING

from .provider_types import ProviderInfo
from .said_once import first_time

if TYPE_CHECKING:
    from .providers.base import ProviderContext, SearchProvider

__all__ = [
    "every_info",
    "imported_infos",
    "key_shape_warnings",
    "other_shape",
    "refusal_hint",
    "refusal_hint_for",
    "report_key_shapes",
    "shape_sentence",
]

logger = logging.getLogger("websearch_core.key_shapes")
"""A child of the core's logger, so the command can let its warning through
(:func:`~websearch_core.cli._quiet_library_logging`): nothing else in a search's output
says it when the key is not refused."""


def other_shape(
    value: str, own: ProviderInfo, others: Iterable[ProviderInfo]
) -> tuple[ProviderInfo, str] | None:
    """The other provider whose documented prefix ``value`` starts with, and that prefix.

    ``None`` when the key starts with a prefix of ``own`` (a longer own prefix wins too:
    nothing is said of a key that is its provider's), or with nobody's. Of two prefixes
    that fit, the longer says more and wins.

    Example:
        >>> brave = ProviderInfo(id="brave", label="Brave", kind="api", description="",
        ...     docs_url="", env_vars=("BRAVE_API_KEY",))
        >>> tavily = ProviderInfo(id="tavily", label="Tavily", kind="api", description="",
        ...     docs_url="", env_vars=("TAVILY_API_KEY",), key_prefixes=("tvly-",))
        >>> other_shape("tvly-abc", brave, [brave, tavily])[1]
        'tvly-'
        >>> other_shape("BSAabc", brave, [tavily]) is None
        True
    """
    if any(value.startswith(prefix) for prefix in own.key_prefixes):
        return None
    found: tuple[ProviderInfo, str] | None = None
    for info in others:
        if info.id == own.id:
            continue
        for prefix in info.key_prefixes:
            if value.startswith(prefix) and (found is None or len(prefix) > len(found[1])):
                found = (info, prefix)
    return found


def shape_sentence(
    where: str, value: str, own: ProviderInfo, others: Iterable[ProviderInfo]
) -> str | None:
    """What to say of a key set ``where`` (``in BRAVE_API_KEY``) for ``own``, if anything.

    The sentence names the prefix, never the rest of the key, and where the other
    provider's key is read from.

    Example:
        >>> brave = ProviderInfo(id="brave", label="Brave", kind="api", description="",
        ...     docs_url="", env_vars=("BRAVE_API_KEY",))
        >>> tavily = ProviderInfo(id="tavily", label="Tavily", kind="api", description="",
        ...     docs_url="", env_vars=("TAVILY_API_KEY",), key_prefixes=("tvly-",))
        >>> shape_sentence("in BRAVE_API_KEY", "tvly-secret", brave, [tavily])
        "the key in BRAVE_API_KEY looks like a Tavily key (tvly-...); Tavily's is read from \
TAVILY_API_KEY"
    """
    found = other_shape(value, own, others)
    if found is None:
        return None
    other, prefix = found
    read_from = " or ".join(other.env_vars) or f"its own setting ({other.id})"
    return (
        f"the key {where} looks like a {other.label} key ({prefix}...); "
        f"{other.label}'s is read from {read_from}"
    )


def refusal_hint(where: str, value: str, own: ProviderInfo, others: Iterable[ProviderInfo]) -> str:
    """The sentence a 401/403's text gains (``" The key in ..."``), or ``""``.

    Appended after the spec's ``<Label> authorization failed (<status>). Check API key or
    base URL.``, whose words stay as they are.
    """
    sentence = shape_sentence(where, value, own, others)
    if sentence is None:
        return ""
    return f" {sentence[0].upper()}{sentence[1:]}."


def key_shape_warnings(environ: Mapping[str, str], infos: Iterable[ProviderInfo]) -> list[str]:
    """One sentence per variable of ``infos``' that holds a key shaped like another's.

    Args:
        environ: The environment.
        infos: The providers to check and to compare with (a build's: those imported).
    """
    known = list(infos)
    if not any(info.key_prefixes for info in known):
        return []  # no shape to compare with: nothing to read
    sentences = []
    for info in known:
        for name in info.env_vars:
            value = (environ.get(name) or "").strip()
            if not value:
                continue
            sentence = shape_sentence(f"in {name}", value, info, known)
            if sentence is not None:
                sentences.append(sentence[0].upper() + sentence[1:])
    return sorted(sentences)


def report_key_shapes(
    infos: Iterable[ProviderInfo],
    environ: Mapping[str, str],
    report: Callable[[str], None] | None = None,
) -> None:
    """Say each key variable holding another provider's shape of key, once per process.

    Args:
        infos: As for :func:`key_shape_warnings`.
        environ: The environment.
        report: Where the sentence goes; a warning of the ``websearch_core`` logger by
            default.
    """
    for sentence in key_shape_warnings(environ, infos):
        if first_time(("key shape", sentence)):  # the sentence holds no more than a prefix
            (report or logger.warning)(sentence)


def imported_infos() -> list[ProviderInfo]:
    """The facts of every provider imported by now: what a build may compare keys with.

    Imports nothing: a build has no deadline to bound an import by (see
    :func:`~websearch_core.key_names.misnamed_key_variables`).
    """
    from .providers import PROVIDER_REGISTRY, get_provider, is_loaded

    return [get_provider(pid).info for pid in PROVIDER_REGISTRY if is_loaded(pid)]


async def every_info(within: float | None) -> list[ProviderInfo]:
    """Every provider's facts, their modules imported off the loop for ``within`` s at most.

    Asked on a refusal's path only (a key refused is worth the imports, once a process):
    a module that cannot be imported is left out, and a wait that outlasts ``within``
    compares with the providers imported by then.
    """
    from .import_jobs import imported

    with contextlib.suppress(TimeoutError):
        await imported(_import_every_provider, ("key shapes",), within)
    return imported_infos()


def _import_every_provider() -> None:
    """Import each provider's module (one that fails is skipped: its key has no shape)."""
    from .providers import PROVIDER_REGISTRY, get_provider

    for provider_id in PROVIDER_REGISTRY:
        with contextlib.suppress(Exception):  # an optional provider may not import here
            get_provider(provider_id)


async def refusal_hint_for(
    provider: "SearchProvider", context: "ProviderContext", within: float | None
) -> str:
    """What a refusal of ``provider``'s key adds to its text (see :func:`refusal_hint`).

    Read from the credential the provider sends first, only when it is an API key (a
    refused sign-in is not a key in the wrong place). A key with its own provider's
    prefix is let be before any import; otherwise every provider's facts are read
    (:func:`every_info`, within ``within`` seconds), once a process.
    """
    sent = provider.sent_secrets(context)
    if not sent or not sent[0].key or not sent[0].value:
        return ""
    key = sent[0]
    if any(key.value.startswith(prefix) for prefix in provider.info.key_prefixes):
        return ""
    return refusal_hint(key.where, key.value, provider.info, await every_info(within))
