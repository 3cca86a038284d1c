"""What each provider looks like right now, and resetting it: for ``websearch providers``.

Both read or write the state store, and both must work when the store does not: a damaged
or unreachable store shows every provider without marks or usage (and says so once), and
``reset --all`` moves a damaged SQLite file aside rather than leaving the user stuck.
"""

import math
import os
import time
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final

from .browser import browser_enabled, browser_unavailable_reason, get_default_browser
from .clauses import join_clauses
from .credentials import Credentials
from .deadline import StoreWaitsWithin
from .ledger import mark_scope
from .orchestration.credit_probe import next_recheck
from .orchestration.quota import (
    SKIPPED_SUFFIX,
    Budget,
    Rate,
    describe_mark,
    period_window,
    utc_text,
)
from .provider_credentials import SignedIn, StoredOAuth
from .provider_ids import FREE_ENGINE_ORDER
from .provider_types import ProviderInfo
from .providers import SEARCH_PROVIDER_ORDER, ProviderContext, SearchProvider, get_provider
from .providers.public import PublicProvider
from .sent_secret import CredentialCheck
from .settings import Settings
from .state.base import (
    CorruptStateError,
    ProviderMark,
    StateStore,
    StateStoreError,
    StateStoreTimeoutError,
)
from .state.failsafe import FailSafeStore, FreshLookStore
from .state.sqlite import SQLiteStore
from .store_passed import run_past_store
from .store_restore import restore_advice
from .store_unreadable import NEEDS_STORE, UnreadableStoreError
from .utc_times import utc_iso

__all__ = [
    "MOVE_ASIDE_HINT",
    "PLAIN_ONLY",
    "STATE_WAIT_SECONDS",
    "ProviderStatus",
    "ResetOutcome",
    "bypass_known_silent",
    "clear_unless_silent",
    "collect_status",
    "credential_store_advice",
    "not_cleared",
    "reset_state",
    "state_problem",
    "status_record",
]


STATE_WAIT_SECONDS: Final = 3.0
"""How long the status and the resets wait for the state store before reporting it silent.

They have no search deadline to end them: behind another process's lock on the SQLite
file, ``websearch providers`` took 20.6 s (two busy timeouts) and each reset 10.4 s, and
with a Redis that accepts and never replies 10.8 s and 5.6 s. A healthy store answers in
milliseconds, opening the file included.
"""

_RESET_WHAT = "cooldowns, quota marks and usage counters"
"""What a reset clears, in the words the command reports it cleared."""

PLAIN_ONLY = "plain fetch only"
"""How a ready engine reads when its headless-browser fallback cannot start."""


@dataclass(frozen=True, slots=True)
class ProviderStatus:
    """One provider's state: usable or not, and why."""

    id: str
    label: str
    kind: str
    available: bool
    """Configured for the auto chain (or explicitly usable without credentials)."""
    reason: str
    """Why it is or is not usable right now, in one line."""
    mark: ProviderMark | None
    used_this_month: int
    budget: str | None
    budget_used: int | None
    browser_missing: str | None = None
    """Why headless Chromium cannot start, for an engine that escalates to it (a page it
    is blocked on then fails instead of being fetched again); ``None`` when it can, when
    escalation is off (``WEBSEARCH_BROWSER=off``), and for every other provider."""
    note: str | None = None
    """What a search learnt that its ready row adds (Gemini's model in place of a default
    the sign-in is not served), kept in the state store by whichever process searched."""
    advice: str | None = None
    """What the unreadable credential store costs the row, and the fix: for a provider
    whose key or sign-in would come from it, and a ready one that runs on a key while a
    sign-in it sends first may be in it (Gemini's), the file, what is wrong with it and
    how to put it right (:meth:`~websearch_core.store_unreadable.UnreadableStoreError.repair`);
    ``None`` otherwise. The command says it once, beside the table; a program reading the
    rows (``provider_status()``, ``websearch providers --json``) has it on each."""


def status_record(status: ProviderStatus, *, counts_known: bool = True) -> dict[str, Any]:
    """``status`` as plain data for ``websearch providers --json``: what the table shows.

    A script that checks quotas before a batch of searches read the table's padded text;
    this is the same row with its parts apart. Counts are ``None`` when the state store
    could not be read (the table's ``?``), and a mark's end is an ISO time in UTC. The
    mark's scope (a fingerprint of the credential it was earned with) is left out: it
    means nothing outside the store.
    """
    mark = status.mark
    return {
        "id": status.id,
        "label": status.label,
        "kind": status.kind,
        "available": status.available,
        "status": status.reason,
        "used_this_month": status.used_this_month if counts_known else None,
        "budget": status.budget,
        "budget_used": (status.budget_used or 0) if counts_known and status.budget else None,
        "mark": None
        if mark is None
        else {
            "kind": mark.kind,
            "until": utc_iso(mark.until),
            "reason": mark.reason,
        },
        "browser_missing": status.browser_missing,
        "note": status.note,
        "advice": status.advice,
    }


def _missing_browser(context: ProviderContext) -> str | None:
    """Why the browser the escalating engines would use cannot start (``None``: it can).

    ``None`` as well when escalation is off: those engines then fetch plainly by choice.
    """
    if not browser_enabled(context.settings):
        return None
    browser = get_default_browser() or context.browser
    return browser_unavailable_reason(browser.executable_path if browser else None)


def _not_configured(info: ProviderInfo) -> str:
    """``not configured``, with what to set when the provider says."""
    hint = info.setup_needed
    return f"not configured ({hint})" if hint else "not configured"


def _setup_reason(
    info: ProviderInfo,
    available: bool,
    explicit: bool,
    browser_missing: str | None,
    sign_in: str | None = None,
    unseen: str = "",
) -> str:
    """What its setup alone says of a provider nothing else holds back (mark, budget...).

    ``sign_in`` names the stored OAuth token a search would send first, if one is: which
    of a provider's credentials is used is otherwise invisible (Gemini's token wins over
    its key, and of its two sign-ins the first stored one is used). ``unseen`` is what a
    row that is not ready adds when its variables are set where the ``Credentials`` do not
    look (:meth:`~websearch_core.providers.base.SearchProvider.unseen_clause`): ``not
    configured (set BRAVE_API_KEY ...)`` alone, to a user who had, hid the cause.
    """
    if available:
        if sign_in is not None:
            return f"ready ({sign_in})"
        return "ready" if browser_missing is None else f"ready ({PLAIN_ONLY}: {browser_missing})"
    said = _explicit_only(info) if explicit else _not_configured(info)
    return f"{said};{unseen.removesuffix('.')}" if unseen else said


def _explicit_only(info: ProviderInfo) -> str:
    """``explicit selection only``, with how to select it and, if a key adds it, the chain.

    The bare words left a newcomer's first ``websearch providers`` with three rows that
    neither said how to use them nor what would put them in the auto chain.
    """
    hint = info.setup_needed
    chain = f"; {hint} to add it to the auto chain" if hint else ""
    return f"explicit selection only (--provider {info.id}{chain})"


def _chain_of(settings: Settings) -> tuple[frozenset[str] | None, str]:
    """The providers the settings name as the chain, or ``None`` for the auto chain.

    With the setting's words for a provider they leave out. A named provider (the
    ``providers`` list, the preferred ``provider``) is asked as if selected explicitly, so
    an explicit-only one (``public``) runs there; the auto chain asks the rest. Public Web
    in the chain brings the credential-free engines it asks with it.
    """
    preferred = {settings.provider} if settings.provider else set()
    if preferred and not settings.fallback:
        named, left_out = preferred, f"not asked: fallback = false pins {settings.provider}"
    elif settings.providers:
        named, left_out = set(settings.providers) | preferred, "not in the providers setting"
    else:
        return None, ""
    if "public" in named:  # Public Web asks every credential-free engine itself
        named.update(FREE_ENGINE_ORDER)
    return frozenset(named), left_out


_UNCHECKED = CredentialCheck()
"""What is said of the credentials of a provider that is not set up: nothing."""


def _passed_over(checked: CredentialCheck) -> str:
    """``; passed over: <problem>`` for each credential a provider runs without.

    Perplexity with working cookies and a bad key runs on the cookies; the key is named
    all the same, so the user learns of it before it is the one left.
    """
    return "".join(f"; passed over: {note}" for note in checked.passed_over)


def _setup_problem(
    provider: SearchProvider, context: ProviderContext, checked: CredentialCheck
) -> str | None:
    """Why a provider's setup keeps it from running though it is configured, or ``None``.

    A credential that cannot be sent (``checked``: the check of one that would run), or
    Public Web with every engine it asks excluded: it read ``ready`` and failed each search.
    """
    if isinstance(provider, PublicProvider) and not provider.engines(context):
        return "no engine to ask: exclude lists every credential-free engine"
    return None if checked.problem is None else f"misconfigured: {checked.problem}"


@dataclass(frozen=True, slots=True)
class _RefusedSignIn:
    """What a stored sign-in whose refresh was refused for good changes in its row.

    Attributes:
        problem: It blocks the provider (``sign-in refused (OAuth token); ...``), or ``None``.
        note: Added to the row (``"; passed over: ..."``, ``"; refresh refused: ..."``) or ``""``.
        passed_over: A search goes on to the provider's next credential instead of it.
    """

    problem: str | None = None
    note: str = ""
    passed_over: bool = False


def _refused_sign_in(
    provider: SearchProvider, context: ProviderContext, signed: list[SignedIn]
) -> _RefusedSignIn:
    """A stored sign-in whose refresh was refused for good: what blocks, or what it adds.

    A search with it fails at once, without asking (the refusal is kept beside the
    token), yet the table read ``ready`` until one did. It blocks the provider when a
    search sends it first and nothing after it (Gemini's sign-in wins over its key); a
    provider that tries its next credential (Perplexity's key) runs on that one, and the
    sign-in is named as passed over, as a bad key is. Both say what brings it back.

    Only once its access token is due for renewal, though: a search sends a token that is
    not (its provider's margin before expiry), whatever became of a renewal. A one-off
    401 made a search renew a token with an hour left, the renewal was refused for good,
    and the row said ``sign-in refused`` while the next searches were answered. Such a row
    reads ready, with when the token stops being sent and what to do before then.
    """
    credentials = context.credentials
    refused = next((s for s in signed if credentials.oauth_refused(s.entry)), None)
    if refused is None:
        return _RefusedSignIn()
    token = credentials.oauth_token(refused.entry)
    margin = provider.oauth_margin(refused.entry)
    if token is not None and not token.is_expired(skew=margin):
        until = "it expires" if token.expires_at is None else utc_text(token.expires_at - margin)
        return _RefusedSignIn(
            note=f"; refresh refused: works until {until}, then {refused.sign_in_again}"
        )
    if provider.tries_every_credential and len(provider.sent_secrets(context)) > 1:
        note = f"; passed over: {refused.name} (sign-in refused; {refused.sign_in_again})"
        return _RefusedSignIn(note=note, passed_over=True)
    return _RefusedSignIn(problem=f"sign-in refused ({refused.name}); {refused.sign_in_again}")


@dataclass(frozen=True, slots=True)
class _Setup:
    """What a provider's credentials make of its row.

    Attributes:
        explicit: It runs when chosen explicitly.
        available: It runs where the settings ask it (the auto chain, or named).
        checked: The check of the credentials it would send.
        signed: The stored sign-ins among them.
        refused: What a sign-in refused for good changes in its row.
        unread_store: Why the credential store cannot be read, when its key or sign-in
            would come from there: it cannot run, and the rest says nothing.
        sign_in_unread: Why the store cannot be read, when the provider runs on a key
            from elsewhere though a sign-in it sends first may be in the file.
    """

    explicit: bool = False
    available: bool = False
    checked: CredentialCheck = _UNCHECKED
    signed: list[SignedIn] = field(default_factory=list)
    refused: _RefusedSignIn = _RefusedSignIn()
    unread_store: UnreadableStoreError | None = None
    sign_in_unread: UnreadableStoreError | None = None


def _setup_past_store(
    provider: SearchProvider, context: ProviderContext, named: bool, excluded: Collection[str]
) -> _Setup:
    """:func:`_setup_of`, as a search sees it while the credential store cannot be read.

    A provider with a credential from elsewhere is shown running on it
    (:mod:`websearch_core.store_passed`), as the chain runs it; one whose key or sign-in
    would come from the store is marked as needing it: the table's other rows are shown,
    where the store's one-line error once ended the command.
    """
    try:
        return _setup_of(provider, context, named, excluded)
    except UnreadableStoreError as error:
        past = run_past_store(provider.credential_kinds, provider.info, context.credentials)
        if past is None:
            return _Setup(unread_store=error)
    try:
        setup = _setup_of(provider, context, named, excluded)
    except UnreadableStoreError as error:  # a lookup of its own beyond its credential kinds
        return _Setup(unread_store=error)
    return replace(setup, sign_in_unread=past.error) if past.sign_in_unread else setup


def _setup_of(
    provider: SearchProvider, context: ProviderContext, named: bool, excluded: Collection[str]
) -> _Setup:
    """Whether ``provider`` can run (``named``: asked as if chosen) and what it would send."""
    explicit = provider.is_explicitly_available(context)
    available = explicit if named else provider.is_available(context)
    if not (available or explicit) or provider.info.id in excluded:
        return _Setup(explicit, available)
    checked = provider.credential_check(context)
    signed = provider.signed_in(context)
    return _Setup(explicit, available, checked, signed, _refused_sign_in(provider, context, signed))


async def _budget_state(
    store: StateStore, provider_id: str, budget_text: str | None, now: float
) -> tuple[int | None, float | None]:
    """A budget's use in its current window, and when it ends if the budget is spent."""
    if budget_text is None:
        return None, None
    budget = Budget.parse(provider_id, budget_text)
    window, ends = budget.window(now)
    used = await store.get_usage(provider_id, f"budget:{window}")
    return used, ends if used >= budget.limit else None


async def _next_slot(store: StateStore, provider_id: str, rate_text: str, now: float) -> str:
    """``; next request slot at 16:40:12 UTC (in 42 s, rate 1/min)``, or ``""`` when free.

    A ready provider under a ``[rate]`` whose next send slot is booked ahead read
    ``ready`` alone, and the search that followed waited for the slot, or was skipped
    when it lay further off than the search could wait.
    """
    wait = await store.rate_slot_wait(provider_id)
    if wait <= 0:
        return ""
    at = utc_text(now + wait).split(" ", 1)[1]
    rate = Rate.parse(provider_id, rate_text)
    return f"; next request slot at {at} (in {math.ceil(wait)} s, rate {rate})"


def _recheck_text(recheck: float | None, now: float) -> str:
    """When a spent prepaid balance is checked again with one request, or ``""``.

    A user who topped the balance up sees that no reset is needed, and from when.
    """
    if recheck is None:
        return ""
    if recheck <= now:
        return "; its credits are checked again by the next search"
    return f"; its credits are checked again from {utc_text(recheck)}"


async def _kept_note(
    store: StateStore, provider: SearchProvider, context: ProviderContext, now: float
) -> str | None:
    """The note its searches kept in the store (in any process) for how it is set up now.

    Gemini's row said which model replaced a default only in the client that searched: a
    new ``websearch providers`` command read ``ready`` alone.
    """
    name = provider.status_note_name(context)
    return None if name is None else await store.get_note(provider.info.id, name, now)


async def collect_status(
    context: ProviderContext, store: StateStore, settings: Settings
) -> list[ProviderStatus]:
    """Availability, marks, usage and budgets of every registered provider.

    A failing store reads as empty (see :func:`state_problem` for what went wrong), and so
    does one that has not answered within :data:`STATE_WAIT_SECONDS` in all, or that this
    process already knows to be silent (:func:`bypass_known_silent`): its first read
    queued behind the call still unanswered and waited the 3 s again. A store that failed
    a search before and is not known silent is asked anew (:class:`FreshLookStore`):
    searches leave it alone for a while, but the table shows what it holds now. A mark
    earned with another key or endpoint than the current one is not shown: the chain
    would try the provider again.
    """
    silent = bypass_known_silent(store)
    inner = store.inner if isinstance(store, FailSafeStore) else store
    reads = FreshLookStore(inner, given_up=silent is not None)
    with StoreWaitsWithin(STATE_WAIT_SECONDS):
        return await _collect_status(context, reads, settings)


async def _collect_status(
    context: ProviderContext, safe: FailSafeStore, settings: Settings
) -> list[ProviderStatus]:
    now = time.time()
    month, _ = period_window("month", now)
    statuses: list[ProviderStatus] = []
    missing_browser = _missing_browser(context)
    chain, left_out = _chain_of(settings)
    for provider_id in SEARCH_PROVIDER_ORDER:
        provider = get_provider(provider_id)
        info = provider.info
        named = provider_id == settings.provider or (chain is not None and provider_id in chain)
        setup = _setup_past_store(provider, context, named, settings.exclude)
        explicit, available, refused = setup.explicit, setup.available, setup.refused
        in_chain = chain is None or provider_id in chain
        browser_missing = missing_browser if provider.escalates_to_browser else None
        mark = await safe.get_mark(provider_id, now)
        if (
            mark is not None
            and setup.unread_store is None
            and not mark.applies_to(mark_scope(context, provider_id))
        ):
            mark = None
        budget_text = settings.budget.get(provider_id)
        budget_used, over_budget_until = await _budget_state(safe, provider_id, budget_text, now)
        problem = _setup_problem(provider, context, setup.checked) or refused.problem
        note: str | None = None
        if provider_id in settings.exclude:
            reason = "excluded by settings"
        elif setup.unread_store is not None:
            reason = problem = NEEDS_STORE
        elif problem is not None:
            reason = problem
        elif mark is not None:
            described = describe_mark(info.label, mark, keyless=info.credential_free)
            reason = described.removesuffix(f"; {SKIPPED_SUFFIX}")
            reason += _recheck_text(await next_recheck(safe, provider_id, mark, now), now)
        elif over_budget_until is not None:
            reason = f"over budget until {utc_text(over_budget_until)}"
        elif not in_chain:
            reason = left_out
        else:
            sending = [s for s in setup.signed if s.first and not refused.passed_over]
            sign_in = next((s.name for s in sending), None)
            unseen = "" if available else provider.unseen_clause(context)
            reason = _setup_reason(info, available, explicit, browser_missing, sign_in, unseen)
            note = await _kept_note(safe, provider, context, now) if available else None
            reason = join_clauses([reason, note])
            rate_text = settings.rate.get(provider_id)
            if available and rate_text is not None:
                reason += await _next_slot(safe, provider_id, rate_text, now)
        reason += _passed_over(setup.checked) + refused.note
        usable = mark is None and over_budget_until is None and problem is None
        available = available and usable and in_chain and provider_id not in settings.exclude
        statuses.append(
            ProviderStatus(
                id=provider_id,
                label=info.label,
                kind=info.kind,
                available=available,
                reason=reason,
                mark=mark,
                used_this_month=await safe.get_usage(provider_id, month),
                budget=budget_text,
                budget_used=budget_used,
                browser_missing=browser_missing,
                note=note,
                advice=_store_advice(setup, provider, available=available),
            )
        )
    return statuses


def _store_advice(setup: _Setup, provider: SearchProvider, *, available: bool) -> str | None:
    """A row's advice when the credential store cannot be read and that costs it something.

    A provider that needs the file is told the file and its fix, the fix naming how to
    store again what it looks up there (a key, a sign-in); one that runs on a key while a
    sign-in it sends first may be in the file (Gemini's), that it did so too, and how to
    store the sign-ins alone (its key is set elsewhere).
    """
    kinds = provider.credential_kinds
    if setup.unread_store is not None:
        return setup.unread_store.repair(restore=restore_advice(kinds, provider.info))
    if available and setup.sign_in_unread is not None:
        sign_ins = tuple(kind for kind in kinds if isinstance(kind, StoredOAuth))
        restore = restore_advice(sign_ins, provider.info)
        return setup.sign_in_unread.repair([provider.info.label], restore)
    return None


def credential_store_advice(
    credentials: Credentials, statuses: Sequence[ProviderStatus]
) -> str | None:
    """What an unreadable credential store costs the table, said once beside it; else ``None``.

    The file, its problem and the fix (the store's advice, as a search says it), naming the
    ready providers that run on a key while a sign-in they send first may be in the file.
    """
    error = credentials.store_error()
    if error is None:
        return None
    keyed = []
    for status in statuses:
        provider = get_provider(status.id)
        past = run_past_store(provider.credential_kinds, provider.info, credentials)
        if status.available and past is not None and past.sign_in_unread:
            keyed.append(status.label)
    return error.advice(keyed)


MOVE_ASIDE_HINT = "'websearch providers reset --all' moves a damaged state file aside"
"""What repairs a damaged SQLite file: said wherever the damage is reported."""


def _with_repair_hint(error: StateStoreError, store: StateStore) -> str:
    """The error's text, with the command that repairs it when ``reset --all`` can."""
    repairable = (
        isinstance(error, CorruptStateError)
        and isinstance(store, SQLiteStore)
        and os.path.lexists(store.path)  # what reset --all would move (not a missing dir)
    )
    return join_clauses([str(error), MOVE_ASIDE_HINT]) if repairable else str(error)


def bypass_known_silent(store: StateStore) -> StateStoreTimeoutError | None:
    """Take a store this process knows to be silent for down at once; why, or ``None``.

    Its calls would queue behind the one given up on, still unanswered (see
    :meth:`~websearch_core.state.base.StateStore.known_silent`), and wait
    :data:`STATE_WAIT_SECONDS` each time for nothing: the fail-safe wrapper then answers
    the status's reads without asking it, as after a failed call.
    """
    silent = store.known_silent()
    if silent is not None:
        inner = store.inner if isinstance(store, FailSafeStore) else store
        FailSafeStore(inner).report_failure(silent)
    return silent


async def state_problem(store: StateStore) -> str | None:
    """Why the store cannot be used right now, in one line, or ``None`` when it can.

    A damaged SQLite file's line ends with :data:`MOVE_ASIDE_HINT`: nothing else repairs
    it, and the user meets the damage here first. A store silent for
    :data:`STATE_WAIT_SECONDS` is named with that; one this process already knows to be
    silent (a call it gave up on is still unanswered) is named at once, as a failing one
    is, rather than waited for again. Either way the store is then taken for down (see
    :class:`~websearch_core.state.failsafe.FailSafeStore`) by the searches; what spares
    :func:`collect_status` a second wait is the call still unanswered (it is known
    silent), and a store that failed fast fails its first read as fast.
    """
    inner = store.inner if isinstance(store, FailSafeStore) else store
    silent = bypass_known_silent(inner)
    if silent is not None:
        return str(silent)
    try:
        with StoreWaitsWithin(STATE_WAIT_SECONDS):
            await inner.all_marks(time.time())
    except StateStoreError as exc:
        FailSafeStore(inner).report_failure(exc)  # searches need not wait for it again
        return _with_repair_hint(exc, inner)
    return None


@dataclass(slots=True)
class ResetOutcome:
    """What :func:`reset_state` did.

    Attributes:
        cleared: The state was cleared in place.
        moved_to: Where a damaged state file was moved (``reset --all`` only).
        moved_from: The damaged file's own path, where a fresh store now starts.
        damage: What the store said of the damaged file (its path and SQLite's error).
        error: Why nothing could be done, in one line.
    """

    cleared: bool = False
    moved_to: Path | None = None
    moved_from: Path | None = None
    damage: str | None = None
    error: str | None = field(default=None)


async def reset_state(store: StateStore, provider_id: str | None) -> ResetOutcome:
    """Clear one provider's marks and counters, or every provider's (``None``).

    Resetting every provider also repairs a damaged SQLite file: it is renamed beside
    itself (``state.sqlite3.broken-<UTC time>``), never deleted, and the next use starts a
    fresh one. A damaged store cannot be cleared for one provider alone; the error says to
    reset all. A store silent for :data:`STATE_WAIT_SECONDS` (a file another process holds
    locked, a Redis that never replies) is given up on, and its clear withdrawn unless it
    had begun; the error names the store and which it was (:func:`not_cleared`). One this
    process already knows to be silent is not asked at all (:func:`clear_unless_silent`).
    """
    inner = store.inner if isinstance(store, FailSafeStore) else store
    with StoreWaitsWithin(STATE_WAIT_SECONDS):
        return await _reset(inner, provider_id)


async def _reset(inner: StateStore, provider_id: str | None) -> ResetOutcome:
    try:
        await clear_unless_silent(inner, provider_id)
    except CorruptStateError as exc:
        if provider_id is not None or not isinstance(inner, SQLiteStore):
            return ResetOutcome(error=_with_repair_hint(exc, inner))
        try:
            moved = await inner.move_aside()
        except StateStoreError as move_error:
            return ResetOutcome(error=str(move_error))
        if moved is None:
            return ResetOutcome(error=f"{exc}; there is no state file to move aside")
        return ResetOutcome(cleared=True, moved_to=moved, moved_from=inner.path, damage=str(exc))
    except StateStoreError as exc:
        return ResetOutcome(error=not_cleared(exc, provider_id))
    return ResetOutcome(cleared=True)


async def clear_unless_silent(store: StateStore, provider_id: str | None) -> None:
    """Clear one provider's state (``None``: every provider's), unless the store is known silent.

    The caller bounds the wait (:data:`STATE_WAIT_SECONDS`). A store this process already
    knows not to answer (:meth:`~websearch_core.state.base.StateStore.known_silent`) is
    not given the clear: queued behind the call still unanswered, it waited the 3 s for
    nothing, then said "not cleared". Refused before it is queued, it can never land
    later, so the refusal is ``withdrawn`` and :func:`not_cleared` says "not cleared".

    Raises:
        StateStoreTimeoutError: The store is known silent (withdrawn), or did not answer.
        StateStoreError: The store failed.
    """
    silent = store.known_silent()
    if silent is not None:
        raise StateStoreTimeoutError(str(silent), withdrawn=True)
    if provider_id is None:
        await store.clear_all()
    else:
        await store.clear(provider_id)


def not_cleared(error: StateStoreError, provider_id: str | None) -> str:
    """The error's text, and what became of the reset (``None``: every provider's).

    A reset given up on is withdrawn when its clear had not started (see
    :class:`~websearch_core.state.base.StateStoreTimeoutError`): nothing is cleared later.
    One that had started cannot be withdrawn, and is said to be unconfirmed: it lands if the
    store answers while the process lives, which "not cleared" would have denied.
    """
    whose = "every provider's" if provider_id is None else f"{provider_id}'s"
    if isinstance(error, StateStoreTimeoutError) and not error.withdrawn:
        begun = (
            f"clearing {whose} {_RESET_WHAT} had begun and is not confirmed: "
            "it is done if the store answers before this process exits"
        )
        return join_clauses([str(error), begun])
    return join_clauses([str(error), f"{whose} {_RESET_WHAT} were not cleared"])
