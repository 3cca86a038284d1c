"""Settings that contradict each other, each said in one sentence naming the settings.

Every setting can be valid alone and the combination still leave nothing to do, or do
something else than it says: ``fallback = false`` with a list of several ``providers``
(the list is still tried in turn), ``provider = "brave"`` also in ``exclude``, every
entry of ``providers`` excluded, ``public`` chosen with every credential-free engine
excluded. A search then failed with the spec's ``No web search provider configured.``
(or one provider's error) and nothing said why; :func:`settings_conflicts` gives the
reason, which the failure text carries after the spec's text and ``websearch providers``
and the command's successful searches print as a warning.
"""

from .clauses import join_clauses
from .provider_ids import FREE_ENGINE_ORDER
from .settings import Settings

__all__ = ["settings_conflicts", "with_conflicts"]


def _ids(ids: list[str] | tuple[str, ...]) -> str:
    return ", ".join(ids)


def settings_conflicts(settings: Settings) -> list[str]:
    """One sentence for each pair of settings that contradict each other, if any.

    Example:
        >>> settings_conflicts(Settings(provider="brave", exclude=["brave"], config_file=None))
        ['provider = brave is also in exclude, so it is never tried']
    """
    provider, listed, excluded = settings.provider, settings.providers, set(settings.exclude)
    found: list[str] = []
    if not settings.fallback and provider is None:
        what = (
            f"providers ({_ids(listed)}) are still tried in turn"
            if len(listed) > 1
            else "the chain still falls back"
        )
        found.append(f"fallback = false pins nothing without a provider setting: {what}")
    if provider is not None and provider in excluded:
        found.append(
            f"fallback = false pins provider = {provider}, which exclude also lists"
            if not settings.fallback
            else f"provider = {provider} is also in exclude, so it is never tried"
        )
    elif provider is not None and not settings.fallback:
        unused = [pid for pid in listed if pid != provider]
        if unused:
            found.append(
                f"fallback = false pins provider = {provider} alone, so providers "
                f"({_ids(unused)}) {'is' if len(unused) == 1 else 'are'} never asked"
            )
    dropped = [pid for pid in listed if pid in excluded]
    if dropped and settings.fallback:
        if len(dropped) == len(set(listed)):
            found.append(f"every entry of providers ({_ids(dropped)}) is also in exclude")
        else:
            they = "it is" if len(dropped) == 1 else "they are"
            found.append(f"providers lists {_ids(dropped)}, also in exclude, so {they} never tried")
    chosen = {provider, *listed} if settings.fallback or provider is None else {provider}
    if "public" in chosen and "public" not in excluded and excluded >= set(FREE_ENGINE_ORDER):
        found.append(
            "public is chosen, but exclude lists every credential-free engine it asks "
            f"({_ids(FREE_ENGINE_ORDER)})"
        )
    return found


def with_conflicts(message: str, settings: Settings) -> str:
    """``message`` (the spec's text first, unchanged), then why the settings contradict.

    ``No web search provider configured. The settings contradict: provider = brave is
    also in exclude, so it is never tried.``
    """
    conflicts = settings_conflicts(settings)
    if not conflicts:
        return message
    ended = message if message.endswith((".", "!", "?")) else f"{message}."
    return f"{ended} The settings contradict: {join_clauses(conflicts)}."
