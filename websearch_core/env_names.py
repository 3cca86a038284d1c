"""``WEBSEARCH_*`` variables that set nothing, said once, with the name probably meant.

Every setting can come from a ``WEBSEARCH_`` variable, and pydantic-settings ignores the
ones it has no field for: ``WEBSEARCH_TIMEOUT=30`` (for ``WEBSEARCH_TIMEOUT_SECONDS``)
silently changes nothing. :func:`report_unknown_variables` names each such variable once
per process, as a warning of the ``websearch_core`` logger (the command prints it as a
``websearch: warning:`` line), so a typo shows where the setting was meant to take effect.
"""

import difflib
import functools
import logging
import os
from collections.abc import Callable, Mapping

from .provider_ids import BASE_URL_IDS, SEARCH_PROVIDER_ORDER
from .said_once import first_time
from .settings import BASE_URL_SUFFIX, ENV_PREFIX, Settings

__all__ = ["report_unknown_variables", "unknown_variables", "variables_waiting"]

logger = logging.getLogger("websearch_core")


@functools.cache
def _known_names() -> tuple[frozenset[str], tuple[str, ...]]:
    """The variables that set something: exact names, and prefixes of nested ones."""
    from .browser import BROWSER_ENV, CHROMIUM_PATH_ENV
    from .content.safety import ALLOW_PRIVATE_ENV

    fields = [name.upper() for name in Settings.model_fields]
    exact = {f"{ENV_PREFIX}{field}" for field in fields}
    # Any *_BASE_URL is left to the settings; these are here as names to suggest.
    exact |= {f"{ENV_PREFIX}{pid.upper()}{BASE_URL_SUFFIX}" for pid in BASE_URL_IDS}
    exact |= {BROWSER_ENV, CHROMIUM_PATH_ENV, ALLOW_PRIVATE_ENV}
    nested = tuple(f"{ENV_PREFIX}{field}__" for field in fields)  # WEBSEARCH_BUDGET__BRAVE
    return frozenset(exact), nested


def unknown_variables(
    environ: Mapping[str, str], asks: Callable[[str], bool] | None = None
) -> list[str]:
    """One sentence for each ``WEBSEARCH_*`` variable in ``environ`` that sets nothing.

    Names are compared without regard to case, as the settings read them. A
    ``WEBSEARCH_<ID>_BASE_URL`` with an unknown id is left to the settings, which refuse
    it by name. A ``WEBSEARCH_<ID>_..KEY..`` is answered with the variable the provider
    reads, from its module: one ``asks`` refuses (not imported, at a client's build, which
    has no deadline to bound the import by) is left out, to be said later.

    Example:
        >>> unknown_variables({"WEBSEARCH_TIMEOUT": "30", "WEBSEARCH_PROVIDER": "brave"})
        ['WEBSEARCH_TIMEOUT sets nothing and is ignored; did you mean WEBSEARCH_TIMEOUT_SECONDS?']
    """
    candidates = [name for name in environ if name.upper().startswith(ENV_PREFIX)]
    if not candidates:
        return []
    exact, nested = _known_names()
    sentences = []
    for name in sorted(candidates):
        upper = name.upper()
        if upper in exact or upper.startswith(nested) or upper.endswith(BASE_URL_SUFFIX):
            continue
        note = _search_parameter_note(upper)
        keyed = None if note else _keyed_provider(upper)
        if keyed is not None and asks is not None and not asks(keyed):
            continue
        meant = None if note else _key_variable(keyed) or _closest(upper, exact)
        hint = f"; did you mean {meant}?" if meant else (f"; {note}" if note else "")
        sentences.append(f"{name} sets nothing and is ignored{hint}")
    return sentences


def _search_parameter_note(name: str) -> str | None:
    """For ``WEBSEARCH_LIMIT`` and the like: that the limit is given with each search."""
    from .models import search_parameter_note  # only for a variable that sets nothing

    return search_parameter_note(name[len(ENV_PREFIX) :])


def _closest(name: str, known: frozenset[str]) -> str | None:
    """The known name nearest to ``name``, compared without the prefix they all share."""
    suffixes = sorted(other[len(ENV_PREFIX) :] for other in known if other.startswith(ENV_PREFIX))
    close = difflib.get_close_matches(name[len(ENV_PREFIX) :], suffixes, n=1, cutoff=0.6)
    return f"{ENV_PREFIX}{close[0]}" if close else None


def _keyed_provider(name: str) -> str | None:
    """For ``WEBSEARCH_BRAVE_API_KEY`` and the like: the provider named (no module read)."""
    if "KEY" not in name:
        return None
    for provider_id in SEARCH_PROVIDER_ORDER:
        if name.startswith(f"{ENV_PREFIX}{provider_id.upper()}_"):
            return provider_id
    return None


def _key_variable(provider_id: str | None) -> str | None:
    """The variable ``provider_id`` reads its key from, from its module; ``None`` for none."""
    if provider_id is None:
        return None
    from .providers import get_provider

    env_vars = get_provider(provider_id).info.env_vars
    return env_vars[0] if env_vars else None


def variables_waiting(environ: Mapping[str, str], asks: Callable[[str], bool]) -> bool:
    """Whether :func:`unknown_variables` left a variable of ``environ`` out for ``asks``.

    Example:
        >>> variables_waiting({"WEBSEARCH_BRAVE_KEY": "x"}, lambda _id: False)
        True
        >>> variables_waiting({"WEBSEARCH_TIMEOUT": "3"}, lambda _id: False)
        False
    """
    for name in environ:
        upper = name.upper()
        if upper.startswith(ENV_PREFIX):
            keyed = _keyed_provider(upper)
            if keyed is not None and not asks(keyed):
                return True
    return False


def report_unknown_variables(
    report: Callable[[str], None] | None = None, asks: Callable[[str], bool] | None = None
) -> None:
    """Say each unknown ``WEBSEARCH_*`` variable of the environment, once per process.

    A ``WEBSEARCH_BROWSER`` that is neither on nor off is said the same way.

    Args:
        report: Where the sentence goes; a warning of the ``websearch_core`` logger by
            default.
        asks: As for :func:`unknown_variables`.
    """
    sentences = unknown_variables(os.environ, asks)
    if any(name.upper().startswith(ENV_PREFIX) for name in os.environ):
        from .browser import browser_setting_problem  # read per call there: checked here once

        problem = browser_setting_problem(os.environ)
        if problem is not None:
            sentences.append(problem)
    for sentence in sentences:
        if first_time(("sets nothing", sentence)):
            (report or logger.warning)(sentence)
