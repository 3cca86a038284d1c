"""Which providers a call tries, in what order, and what resolution left out.

Resolution follows the spec: a forced provider runs alone when it is explicitly available
and otherwise falls back to the auto chain; a preferred provider goes first (gated by its
explicit availability), then the auto order minus it, each gated by ``is_available``;
excluded providers never run. An ordered ``providers`` list replaces the auto order with
exactly those providers, and ``fallback = false`` pins the preferred provider alone.

Pure with respect to I/O: it reads settings and credentials, never the state store, so a
plan can be built and inspected before anything is sent.

Outside :mod:`websearch_core.orchestration` (which re-exports it as ``orchestration.plan``),
whose package imports the whole chain: a first search whose chain was still being imported
when its deadline passed names what this plan would have tried, with only this module and
its providers imported (:mod:`~websearch_core.imports_outlasted`).
"""

from collections.abc import Callable, Iterable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from .chain_unseen import passed_over_note
from .errors import ConfigurationError, ProviderNotConfiguredError
from .models import Attempt
from .provider_ids import preferred_provider, unknown_provider_message
from .providers import (
    PROVIDER_REGISTRY,
    SEARCH_PROVIDER_ORDER,
    ProviderContext,
    SearchProvider,
    get_provider,
)
from .store_passed import PastStore, run_past_store
from .store_unreadable import UnreadableStoreError

if TYPE_CHECKING:
    from .settings import Settings

__all__ = ["FELL_BACK", "ChainOrder", "ChainPlan", "resolve_candidates"]

FELL_BACK = "; fell back to the auto chain"
"""How a forced or preferred provider's reason for not running ends (the command cuts it)."""


@dataclass(slots=True)
class ChainPlan:
    """The providers to try in order, and what resolution left out."""

    providers: list[SearchProvider]
    skipped: list[Attempt] = field(default_factory=list)
    forced: bool = False
    failures: list[tuple[SearchProvider, BaseException]] = field(default_factory=list)
    store_problem: str | None = None
    """What an unreadable credential store cost this plan, with the fix (its advice)."""
    store_error: UnreadableStoreError | None = None
    """The store's error, when it kept a provider out (what :attr:`store_problem` says)."""
    passed_over: str | None = None
    """The auto chain's providers passed over whose keys are set in ``os.environ`` alone,
    where these credentials do not look (:func:`~.chain_unseen.passed_over_note`)."""


def resolve_candidates(
    context: ProviderContext,
    *,
    forced: str | None = None,
    preferred: str | None = None,
    excluded: Iterable[str] = (),
    listed: Sequence[str] = (),
    fallback: bool = True,
    order: Sequence[str] = SEARCH_PROVIDER_ORDER,
) -> ChainPlan:
    """The providers to try, in order, plus a ``skipped`` attempt for each one left out.

    Args:
        context: Used for availability checks.
        forced: A provider id an internal caller insists on (``"auto"`` means none).
        preferred: The configured preferred provider, tried first.
        excluded: Ids never returned, not even as fallbacks.
        listed: An explicit ordered chain; replaces ``order`` and makes each entry explicit.
        fallback: ``False`` pins ``preferred`` alone, with no silent switching.
        order: The auto-chain order.

    Raises:
        ConfigurationError: Some id is unknown; the message names every unknown id.
    """
    excluded = tuple(excluded)  # read once, whatever iterable it is
    _check_known([forced, preferred, *excluded, *listed])
    chain_order = ChainOrder.of(
        preferred=preferred, excluded=excluded, listed=listed, fallback=fallback, order=order
    )
    return chain_order.resolve(context, forced)


@dataclass(frozen=True, slots=True)
class ChainOrder:
    """What resolution takes from the settings alone, checked once for a client's searches.

    The ids, the exclusions and the order do not change while a client's settings stay the
    same (and the registry never does); which providers are available does, so
    :meth:`resolve` asks that again every search. Build with :meth:`of`.
    """

    preferred: str | None
    excluded: frozenset[str]
    pinned: bool
    """``fallback = false``: the preferred provider runs alone."""
    listed: bool
    """An explicit list: every entry is explicit, and reported when it cannot run."""
    order: tuple[str, ...]
    """The whole order (a list without repeats, else the auto order)."""
    after_preferred: tuple[str, ...]
    """:attr:`order` without the preferred provider, who is tried first."""

    @classmethod
    def of(
        cls,
        *,
        preferred: str | None,
        excluded: Iterable[str],
        listed: Sequence[str],
        fallback: bool,
        order: Sequence[str] = SEARCH_PROVIDER_ORDER,
    ) -> "ChainOrder":
        """The settings' part of a plan (arguments as :func:`resolve_candidates` takes them).

        Raises:
            ConfigurationError: Some id is unknown; the message names every unknown id.
        """
        excluded_ids = frozenset(excluded)
        _check_known([preferred, *excluded_ids, *listed])
        whole = tuple(dict.fromkeys(listed) if listed else order)
        return cls(
            preferred=preferred,
            excluded=excluded_ids,
            pinned=not fallback,
            listed=bool(listed),
            order=whole,
            after_preferred=tuple(pid for pid in whole if pid != preferred),
        )

    @classmethod
    def from_settings(cls, settings: "Settings") -> "ChainOrder":
        """:meth:`of` with a client's settings: the one reading of them for a plan.

        Raises:
            ConfigurationError: Some id is unknown; the message names every unknown id.
        """
        return cls.of(
            preferred=settings.provider,
            excluded=settings.exclude,
            listed=settings.providers,
            fallback=settings.fallback,
        )

    def asked(self, forced: str | None = None) -> tuple[str, ...]:
        """The ids :meth:`resolve` looks at for ``forced``, in the order it looks at them.

        A forced provider first, then the order it falls back to; else a preferred
        provider first (alone when pinned), then the rest of the order. Excluded ids are
        among them: the plan looks at them to leave them out. A search whose providers
        were still being imported knows the plan up to the first of these not yet
        imported, and no further (:mod:`~websearch_core.imports_outlasted`).

        Raises:
            ConfigurationError: ``forced`` is not a registered id.
        """
        forcing = _forcing(forced)
        if forcing:
            return (forcing, *(pid for pid in self.order if pid != forcing))
        if self.preferred is None:
            return self.order
        if self.pinned:
            return (self.preferred,)
        return (self.preferred, *self.after_preferred)

    def cut_before(self, provider_id: str) -> "ChainOrder":
        """This order ending before ``provider_id``: the plan of what comes before it.

        For a plan that must not look at ``provider_id`` or any after it in
        :meth:`asked` (their modules are still being imported). Not for the forced or
        preferred provider, which :meth:`resolve` looks at first whatever the order.
        """
        return replace(
            self,
            order=_before(self.order, provider_id),
            after_preferred=_before(self.after_preferred, provider_id),
        )

    def resolve(self, context: ProviderContext, forced: str | None = None) -> ChainPlan:
        """This search's plan: ``forced`` (``"auto"`` or ``None``: none), then the order.

        Raises:
            ConfigurationError: ``forced`` is not a registered id.
        """
        forcing = _forcing(forced)
        # The auto chain asks the credential store about every provider without a key: one
        # look at its file serves them all (this step never awaits).
        with context.credentials.store_held():
            plan = self._planned(context, forcing)
            if plan.store_error is not None or context.credentials.store_passed:
                _say_store_problem(plan, context)
        return plan

    def _planned(self, context: ProviderContext, forcing: str | None) -> ChainPlan:
        """:meth:`resolve`'s plan, before what the credential store cost it is said."""
        excluded = self.excluded
        preferred = self.preferred
        plan = ChainPlan(providers=[])
        if forcing:
            if _force(plan, get_provider(forcing), context, excluded):
                return plan
            preferred = None
        if preferred:
            # Pinned (no fallback): an unavailable preferred provider is reported, not
            # skipped.
            _add_explicit(
                plan,
                get_provider(preferred),
                context,
                excluded,
                report_unavailable=self.pinned,
            )
            if self.pinned:
                return plan
        order = self.after_preferred if preferred else self.order
        # A forced provider that could not run is not asked again by the fallback: its
        # why is said first, and a misconfigured one would only be skipped once more.
        self._add_order(plan, context, excluded, order, left_out=forcing)
        return plan

    def _add_order(
        self,
        plan: ChainPlan,
        context: ProviderContext,
        excluded: AbstractSet[str],
        order: Iterable[str],
        *,
        left_out: str | None,
    ) -> None:
        """Add ``order``'s providers that can run; an explicit list reports those that cannot.

        An explicit list replaces the auto order, and each entry is explicit. ``left_out``
        is never added (the forced provider that could not run). The auto order's providers
        that cannot run are passed over unnamed, as the spec has it, unless a key they read
        is set in ``os.environ`` alone: then the plan's :attr:`~ChainPlan.passed_over` says
        so, once for all of them.
        """
        passed: list[tuple[str, tuple[str, ...]]] = []
        for provider_id in order:
            if provider_id == left_out:
                continue
            provider = get_provider(provider_id)
            if self.listed:
                _add_explicit(plan, provider, context, excluded, report_unavailable=True)
            elif provider_id in excluded:
                continue
            elif _passes(plan, provider, provider.is_available, context):
                plan.providers.append(provider)
            else:
                passed.append((provider.info.label, provider.credential_variable_names()))
        if passed:
            plan.passed_over = passed_over_note(passed, context.credentials)


def _forcing(forced: str | None) -> str | None:
    """The forced provider's id (``None`` for none or ``"auto"``).

    Raises:
        ConfigurationError: ``forced`` is not a registered id.
    """
    try:  # read as the ``provider`` setting reads an id; several get the list setting
        return preferred_provider(forced)
    except ValueError as unknown:
        raise ConfigurationError(str(unknown)) from None


def _before(ids: tuple[str, ...], provider_id: str) -> tuple[str, ...]:
    """``ids`` up to, not including, ``provider_id`` (all of them when it is not there)."""
    return ids[: ids.index(provider_id)] if provider_id in ids else ids


def _passes(
    plan: ChainPlan,
    provider: SearchProvider,
    check: Callable[[ProviderContext], bool],
    context: ProviderContext,
) -> bool:
    """A provider's availability ``check``, false when it needs an unreadable credential store.

    The spec's probes swallow lookup errors: a store that cannot be read leaves out the
    providers that need it, and the keyless engines and keys from elsewhere still answer,
    as does a provider whose sign-in lookup failed while it has a key from elsewhere
    (:mod:`websearch_core.store_passed`). The plan keeps the reason, which the answer's
    notes or the failure text say. ``check`` is ``is_available`` (the auto chain) or
    ``is_explicitly_available``.
    """
    try:
        return check(context)
    except UnreadableStoreError as exc:
        if _run_past_store(provider, context) is None:
            plan.store_error = exc
            return False
    try:
        return check(context)
    except UnreadableStoreError as exc:  # a lookup of its own beyond its credential kinds
        plan.store_error = exc
        return False


def _run_past_store(provider: SearchProvider, context: ProviderContext) -> PastStore | None:
    """:func:`~websearch_core.store_passed.run_past_store` for ``provider``."""
    return run_past_store(provider.credential_kinds, provider.info, context.credentials)


def _say_store_problem(plan: ChainPlan, context: ProviderContext) -> None:
    """Put the unreadable store's advice in the plan, naming who ran on a key past a sign-in.

    Asked when the store kept a provider out or once a provider ran past it: then each
    search's plan says so, as the store is asked again. A store read again forgets what
    was passed over.
    """
    credentials = context.credentials
    error = plan.store_error or credentials.store_error()
    if error is None:
        credentials.store_passed.clear()
        return
    keyed = []
    for provider in plan.providers:
        past = _run_past_store(provider, context)
        if past is not None and past.sign_in_unread:
            keyed.append(provider.info.label)
    plan.store_problem = error.advice(keyed)


def _force(
    plan: ChainPlan, provider: SearchProvider, context: ProviderContext, excluded: AbstractSet[str]
) -> bool:
    """Put a forced provider alone in the plan; False (and a skip) when it cannot run.

    It cannot run when excluded, not configured, or configured with a credential that
    cannot be sent (a key with a line break): that one would fail without a request
    whatever is asked, so the auto chain answers as it does for a missing key, and the
    credential's problem is the reason given first.
    """
    provider_id = provider.info.id
    try:
        usable, problem = _usable(provider, context, excluded)
    except UnreadableStoreError:
        # The store's own error when the provider needs it, as before; one with a key
        # from elsewhere runs on it (its advice is said for it by the plan).
        if _run_past_store(provider, context) is None:
            raise
        usable, problem = _usable(provider, context, excluded)
    if usable and problem is None:
        plan.providers.append(provider)
        plan.forced = True
        return True
    why = problem.removesuffix(".") if problem else _why_unavailable(provider, excluded, context)
    error = ProviderNotConfiguredError(
        provider_id,
        f"{provider.info.label} was forced but cannot run ({why}){FELL_BACK}",
    )
    # Listed first in a failure, so the caller reads why before what the fallback did.
    plan.failures.append((provider, error))
    plan.skipped.append(Attempt(provider=provider_id, outcome="skipped", detail=error.message))
    return False


def _usable(
    provider: SearchProvider, context: ProviderContext, excluded: AbstractSet[str]
) -> tuple[bool, str | None]:
    """Whether a forced provider is configured, and why its credential cannot be sent."""
    usable = provider.info.id not in excluded and provider.is_explicitly_available(context)
    return usable, provider.key_problem(context) if usable else None


def _why_unavailable(
    provider: SearchProvider, excluded: AbstractSet[str], context: ProviderContext
) -> str:
    """What keeps ``provider`` from running: exclusion, or the setup it is missing.

    The setup's advice is followed by where its variable is set when the ``Credentials``
    do not read it (:meth:`~websearch_core.providers.base.SearchProvider.unseen_clause`):
    ``no API key: set BRAVE_API_KEY`` alone, to a user who had, hid the cause.
    """
    info = provider.info
    if info.id in excluded:
        return "it is excluded by the exclude setting or WEBSEARCH_EXCLUDE"
    needed = info.setup_advice
    unseen = provider.unseen_clause(context).removesuffix(".")
    if needed is None:
        return f"not configured{';' if unseen else ''}{unseen}"
    missing = "not configured" if info.setup_hint else "no API key"
    return f"{missing}: {needed}{';' if unseen else ''}{unseen}"


def _check_known(ids: Iterable[str | None]) -> None:
    unknown = sorted({i for i in ids if i and i != "auto" and i not in PROVIDER_REGISTRY})
    if unknown:
        raise ConfigurationError(unknown_provider_message(*unknown))


def _add_explicit(
    plan: ChainPlan,
    provider: SearchProvider,
    context: ProviderContext,
    excluded: AbstractSet[str],
    *,
    report_unavailable: bool,
) -> None:
    provider_id = provider.info.id
    if provider_id in excluded:
        plan.skipped.append(Attempt(provider=provider_id, outcome="skipped", detail="excluded"))
    elif _passes(plan, provider, provider.is_explicitly_available, context):
        plan.providers.append(provider)
    elif report_unavailable:
        # The spec's text for an explicitly chosen provider that cannot run, then what to
        # set: the text alone left the user to find the variable's name.
        needed = provider.info.setup_advice
        error = ProviderNotConfiguredError(
            provider_id,
            f"{provider.info.label} web search is unavailable. Configure its credentials or "
            "select the automatic provider chain."
            + (f" To configure it, {needed}." if needed else "")
            + provider.unseen_clause(context),
        )
        plan.failures.append((provider, error))
        plan.skipped.append(Attempt(provider=provider_id, outcome="skipped", detail=error.message))
    else:
        # A preferred provider that cannot run gives way to the auto chain, as the spec has
        # it, but says why, as a forced one does: WebSearch(provider="brave") without a key
        # failed (or answered from another provider) with no word of Brave or its key.
        why = _why_unavailable(provider, excluded, context)
        error = ProviderNotConfiguredError(
            provider_id,
            f"{provider.info.label} was preferred but cannot run ({why}){FELL_BACK}",
        )
        plan.failures.append((provider, error))
        plan.skipped.append(Attempt(provider=provider_id, outcome="skipped", detail=error.message))
