"""A process's first search, status or fetch imports its modules on a worker thread, not the loop.

Provider modules load on first use (:func:`~websearch_core.providers.get_provider`), so that
importing the package stays cheap. The first auto-chain search plans with every provider,
so it imported some hundred modules (the chain, 25 providers, lxml): 0.1-0.2 s during which
the event loop ran nothing else. A server's other requests waited, and asyncio's debug mode
(``python -X dev``, ``PYTHONASYNCIODEBUG=1``) reported ``Executing <Task ...> took 0.2
seconds`` on a newcomer's first search. Imported from a thread while the loop goes on, they
cost the search the same time and the loop none.

Only what the plan asks is imported (a forced provider alone, a pinned one alone, an explicit
list, else the whole order), so ``websearch --provider brave`` still loads Brave alone. A
module that fails to import is left to the plan, which raises as it always did.

A search waits for its imports within its deadline (``within``): when it passes first, the
wait ends with ``TimeoutError`` and the import goes on for the next call
(:mod:`~websearch_core.import_jobs`).
"""

import contextlib
import functools
import importlib
import sys
from collections.abc import Iterable, Sequence
from typing import Literal

from .build_deadline import BuildBound, BuildImportsOutlastedError
from .config_deadlines import read_config_file, read_config_file_sync
from .config_read import ConfigRead
from .deadline import Deadline, call_started
from .import_jobs import imported, imported_sync
from .providers import PROVIDER_REGISTRY, SEARCH_PROVIDER_ORDER, get_provider, is_loaded
from .settings import Settings

__all__ = [
    "Use",
    "build_module_pending",
    "import_for_build",
    "import_for_build_sync",
    "import_for_fetch",
    "import_for_status",
    "import_for_uses",
    "import_off_loop",
    "plan_imported",
    "planned_ids",
]

Use = Literal["search", "fetch", "build"]
"""What a client, tool or retriever will do: search (the chain), fetch pages (the fetcher), or
build a tool's client (its settings' checks and state store)."""

_SETUP_MODULES = (
    "websearch_core.chain_plan",  # first: what the plan would try, as far as imported
    "websearch_core.call_setup",
    "websearch_core.lookups",
    "websearch_core.connect_phase",
    "idna.uts46data",  # IDNA 2008's mapping, read by the filters for an internationalised host
)
"""The chain and its machinery, and the resolver wrapper and connector of the client's own
session, imported by a client's first search."""
_PLAN_MODULE = "websearch_core.chain_plan"
"""The plan's rule, imported before the providers (:func:`_import`)."""
_STATUS_MODULES = ("websearch_core.status", *_SETUP_MODULES)
"""What :meth:`WebSearch.provider_status` imports besides every provider."""
_FETCH_MODULES = (
    "websearch_core.content.service",
    "websearch_core.html",  # navigation headers, with lxml's CSS selectors
    "encodings.idna",  # a host name's encoding
    "websearch_core.env_proxies",
    "websearch_core.orchestration.attempt",
    "websearch_core.state.failsafe",
    "readability",  # the HTML page's extractors, imported by its first extraction
    "trafilatura",
    "pypdf",  # a PDF's reader, imported by its first reading
    "pypdf.filters",  # its stream decoders, which pypdf imports at the first compressed stream
)
"""What a page fetch imports: the fetcher, its parsers and the store wrapper.

The HTML extractors and the PDF reader are among them: imported by the first page's
reading, they were paid for out of that page's deadline (the extractors 0.5-1.2 s of a
4 s fetch on a loaded machine, and a loopback page was refused with "no content within
the 4 s deadline"). Imported here with the rest of the fetcher, before its first page's
server is asked; a call's deadline counts the import (a fetch's as a search's with
``include_content``: when it passes first, every page is too late).
Which reader a page needs is known only from its answer, inside the deadline, so every
first fetch imports both: pypdf adds some 0.05 s (unloaded) to a first fetch, once a
process."""
_BUILD_MODULES = (
    "websearch_core.settings_errors",
    "websearch_core.content.safety",  # the known names a WEBSEARCH_ variable is checked with
    "platformdirs",
    "tomllib",  # the config file's reader, when the settings are read from one
    "websearch_core.refresh_hooks",  # the refresh_hooks setting's check, at every read
)
"""What a tool or retriever imports building its client at its first call on a loop: the
settings' error wording and the environment's check, and what reading the settings
imports (a tool given none reads the environment and the config file there: the TOML
reader and the refresh hooks' check were imported on the loop). Not the state store (0.1-0.2 s at
load 5): the client borrows it at its first use, after its call's own imports, which
take it within the call's deadline; imported here, it held the call with no limit."""
_MODULES_FOR: dict[Use, tuple[str, ...]] = {
    "search": _SETUP_MODULES,
    "fetch": _FETCH_MODULES,
    "build": _BUILD_MODULES,
}
"""The modules each use imports, besides a search's providers."""
_everything_loaded = False
"""Set once every provider and the chain are imported: later searches ask nothing."""
_loaded_plans: set[tuple[str, ...]] = set()
"""The plans (:func:`planned_ids`) found imported with the chain: a client whose plan is
one asks one set lookup a search, not each of its providers (a provider, once loaded,
stays loaded)."""
_MAX_PLANS = 64
"""Plans kept at most: a process that makes clients of ever new orders asks as before."""


def planned_ids(settings: Settings, forced: str | None) -> Sequence[str]:
    """The providers a plan for ``forced`` under ``settings`` looks at, as it resolves.

    As :meth:`~websearch_core.orchestration.plan.ChainOrder.resolve` reaches them: a forced
    provider is asked alone (its fallback, when it cannot run, imports the rest there), a
    preferred provider with ``fallback = false`` alone, an explicit list its entries, and
    otherwise every provider in the order; a preferred provider first. The import follows
    this order, so a search whose deadline passes during it knows its plan as far as
    possible (:mod:`~websearch_core.imports_outlasted`).
    """
    if forced and forced != "auto":
        return (forced,)
    preferred = settings.provider
    if preferred and not settings.fallback:
        return (preferred,)
    order = tuple(settings.providers) if settings.providers else SEARCH_PROVIDER_ORDER
    if preferred is None:
        return order
    return (preferred, *(provider_id for provider_id in order if provider_id != preferred))


def plan_imported(settings: Settings, forced: str | None) -> bool:
    """Whether :func:`import_off_loop` has nothing to import for this plan, known already.

    Its first two answers as a plain call: a search asks this first and awaits
    :func:`import_off_loop` only when it says ``False`` (the first searches of a plan), so
    every later search is spared building and awaiting that coroutine for a set lookup.
    """
    return _everything_loaded or tuple(planned_ids(settings, forced)) in _loaded_plans


async def import_off_loop(
    settings: Settings, forced: str | None, within: Deadline | None = None
) -> None:
    """Import what this search's plan needs on a worker thread, if any of it is not yet.

    Args:
        settings: The client's settings, which decide the plan's providers.
        forced: The search's ``provider`` argument.
        within: The search's deadline, which the wait ends by; ``None`` waits for the end.

    Raises:
        TimeoutError: ``within`` passed first; the import goes on for the next call.
    """
    global _everything_loaded
    if _everything_loaded:
        return
    plan = tuple(planned_ids(settings, forced))
    if plan in _loaded_plans:
        return
    missing = [
        provider_id
        for provider_id in plan
        if provider_id in PROVIDER_REGISTRY and not is_loaded(provider_id)
    ]
    if missing or not _loaded(_SETUP_MODULES):
        await _imported(_SETUP_MODULES, missing, within)
    if not _loaded(_SETUP_MODULES):
        return
    _everything_loaded = all(map(is_loaded, PROVIDER_REGISTRY))
    if len(_loaded_plans) < _MAX_PLANS and all(
        is_loaded(pid) for pid in plan if pid in PROVIDER_REGISTRY
    ):
        _loaded_plans.add(plan)


async def import_for_uses(uses: Iterable[Use], within: Deadline | None = None) -> None:
    """Import what ``uses`` need (every plan's chain, the fetcher) on a worker thread, if not yet.

    Entering a client, tool or retriever calls this, so its first call is not the one that
    pays for them: the chain 0.2 s on an idle machine and the fetcher 0.3 s, up to some
    seconds each on a loaded one, which a first search pays out of its deadline. A search's
    plan's providers are left to that search, which imports only those it asks (a few
    milliseconds each). One worker thread imports them all.

    Args:
        uses: What the caller will do; an empty one imports nothing.
        within: The deadline of the call waiting, which the wait ends by; ``None`` (entering
            a client, tool or retriever) waits for the end.

    Raises:
        TimeoutError: ``within`` passed first; the import goes on for the next call.
    """
    modules = tuple(name for use in dict.fromkeys(uses) for name in _MODULES_FOR[use])
    if not _loaded(modules):
        await _imported(modules, (), within)


async def import_for_build(deadline_seconds: float | BuildBound | None) -> ConfigRead | None:
    """Import what building a client needs off the loop, by the call's deadline if known.

    The deadline counts from the call's start (:class:`~websearch_core.deadline.CallClock`),
    as the search's own does. A call whose build reads its config file reads the file
    first, by the deadline known without it (:mod:`~websearch_core.config_deadlines`), and
    its imports end by the file's; the read is returned, for the build's settings to take
    (:func:`~websearch_core.config_read.handing`) rather than read the disk again, unbounded.

    Args:
        deadline_seconds: The call's deadline
            (:func:`~websearch_core.build_deadline.known_deadline`), or the options it is
            worked out from (:class:`~websearch_core.build_deadline.BuildBound`); ``None``
            waits for the imports however long they take.

    Returns:
        The config file as read, or ``None`` when it was not read here.

    Raises:
        BuildImportsOutlastedError: The deadline passed first; the import (or the read)
            goes on for the next call.
    """
    if deadline_seconds is None:
        await import_for_uses(("build",))
        return None
    started = call_started()
    seconds, read = await _build_seconds(deadline_seconds, started)
    deadline = Deadline(seconds, started=started)
    try:
        await import_for_uses(("build",), deadline)
    except TimeoutError:
        raise BuildImportsOutlastedError(seconds, build_module_pending()) from None
    return read


def import_for_build_sync(deadline_seconds: float | BuildBound) -> ConfigRead | None:
    """:func:`import_for_build` for a synchronous call: its thread waits by the deadline.

    A synchronous first call (a tool's ``invoke``, a LlamaIndex tool's ``call``) built its
    client on its own thread, importing with no limit; the imports now run on the thread
    the loops' calls use, and this call stops waiting when its deadline passes.

    Args:
        deadline_seconds: The call's deadline, or the options it is worked out from, as
            :func:`import_for_build` takes them; counted from the call's start when a
            :class:`~websearch_core.deadline.CallClock` is open.

    Returns:
        The config file as read, as :func:`import_for_build` returns it.

    Raises:
        BuildImportsOutlastedError: The deadline passed first; the import (or the read)
            goes on for the next call.
    """
    started = call_started()
    seconds, read = _build_seconds_sync(deadline_seconds, started)
    if _loaded(_BUILD_MODULES):
        return read
    deadline = Deadline(seconds, started=started)
    run = functools.partial(_import, _BUILD_MODULES, ())
    try:
        imported_sync(run, (_BUILD_MODULES, ()), deadline.remaining())
    except TimeoutError:
        raise BuildImportsOutlastedError(seconds, build_module_pending()) from None
    return read


async def _build_seconds(
    bound: float | BuildBound, started: float | None
) -> tuple[float, ConfigRead | None]:
    """The build's deadline (``bound``, or worked out from it, the file read first), and the read.

    Raises:
        BuildImportsOutlastedError: The deadline known without the file passed while
            reading it.
    """
    if not isinstance(bound, BuildBound):
        return bound, None
    seconds = bound.seconds()
    if not bound.reads_config_file:
        return seconds, None
    within = Deadline(seconds, started=started)
    read, written = await read_config_file(bound.config_file, seconds, within)
    return bound.seconds(written), read


def _build_seconds_sync(
    bound: float | BuildBound, started: float | None
) -> tuple[float, ConfigRead | None]:
    """:func:`_build_seconds` for a synchronous call.

    Raises:
        BuildImportsOutlastedError: As :func:`_build_seconds` raises it.
    """
    if not isinstance(bound, BuildBound):
        return bound, None
    seconds = bound.seconds()
    if not bound.reads_config_file:
        return seconds, None
    within = Deadline(seconds, started=started)
    read, written = read_config_file_sync(bound.config_file, seconds, within)
    return bound.seconds(written), read


async def import_for_status() -> None:
    """Import what a provider status reads on a worker thread: every provider, the chain."""
    missing = [provider_id for provider_id in PROVIDER_REGISTRY if not is_loaded(provider_id)]
    if missing or not _loaded(_STATUS_MODULES):
        await _imported(_STATUS_MODULES, missing, None)


async def import_for_fetch(within: Deadline | None = None) -> None:
    """Import the page fetcher and its parsers on a worker thread, if not yet.

    Raises:
        TimeoutError: ``within`` passed first; the import goes on for the next call.
    """
    await import_for_uses(("fetch",), within)


async def _imported(
    modules: Sequence[str], provider_ids: Sequence[str], within: Deadline | None
) -> None:
    """Import ``modules`` and ``provider_ids`` on their thread, waiting until ``within`` ends.

    Raises:
        TimeoutError: ``within`` passed first.
    """
    run = functools.partial(_import, modules, provider_ids)
    key = (tuple(modules), tuple(provider_ids))
    await imported(run, key, None if within is None else within.remaining())


def build_module_pending() -> str:
    """The first module building a client imports that is not in yet: the one held.

    They are imported in order on one thread, so the first missing is the one under way
    (or, once all are in, the last).
    """
    for name in _BUILD_MODULES:
        if name not in sys.modules:
            return name
    return _BUILD_MODULES[-1]


def _loaded(modules: Sequence[str]) -> bool:
    return all(name in sys.modules for name in modules)


def _import(modules: Sequence[str], provider_ids: Sequence[str]) -> None:
    """Import the plan's rule, the providers in the plan's order, then the rest of ``modules``.

    A search whose deadline passes while the rest of the chain is still being imported
    can then say which of them its plan would have tried (those with a key), as the chain
    says it; one whose deadline passes among the providers can say it of those before
    (:mod:`~websearch_core.imports_outlasted`).
    """
    if _PLAN_MODULE in modules:
        importlib.import_module(_PLAN_MODULE)  # light: the providers' registry is in
    for provider_id in provider_ids:
        with contextlib.suppress(Exception):  # the plan raises it, where it always did
            get_provider(provider_id)
    for name in modules:
        importlib.import_module(name)
