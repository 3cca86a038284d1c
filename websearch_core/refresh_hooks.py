"""Refresh hooks named on the command line as ``ENTRY=MODULE:FUNCTION``.

Why this exists: an expired Codex, Anthropic or Perplexity sign-in is renewed only by a hook
the library's user passes in code (``WebSearch(oauth_refreshers=...)``), and the command line
had no way to pass one, so once its token expired every search with it failed. The
``--refresh-hook`` option names an importable async function the way an entry point does;
it is imported before the search, and one that cannot be used is refused first, naming what
is wrong with it, instead of failing later as a hook that "raised TypeError".

The same hooks can be configured once instead of on every command line: the
``refresh_hooks`` setting (``WEBSEARCH_REFRESH_HOOKS=codex=my_tokens:refresh_codex,...``,
``WEBSEARCH_REFRESH_HOOKS__CODEX=my_tokens:refresh_codex`` or ``[refresh_hooks]`` in the
config file), whose form the settings check with :func:`hook_table` and
:func:`check_hook_form`, the same refusals in the same words; a flag for an entry replaces it.
"""

import importlib
import inspect
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from .credentials import TokenRefresher
from .provider_ids import did_you_mean

__all__ = ["HOOK_FORM", "RefreshHookError", "check_hook_form", "hook_table", "load_refresh_hooks"]

HOOK_FORM = "ENTRY=MODULE:FUNCTION"
"""How a hook is written: the sign-in's store entry, then where its function lives."""

_EXAMPLE = "codex=my_tokens:refresh_codex"


class RefreshHookError(ValueError):
    """A ``--refresh-hook`` that cannot be used; the message names the problem."""


def load_refresh_hooks(specs: Sequence[str], entries: Collection[str]) -> dict[str, TokenRefresher]:
    """The hooks ``specs`` name, by store entry, each imported and checked.

    Args:
        specs: Each ``ENTRY=MODULE:FUNCTION`` as given (``FUNCTION`` may be dotted, as
            ``Class.method``).
        entries: The store entries a sign-in is kept under (``codex``, ``gemini-cli``...).

    Raises:
        RefreshHookError: A spec is not of that form, names an unknown or repeated entry,
            a module that cannot be imported, a missing attribute, or something that is not
            an async function.
    """
    hooks: dict[str, TokenRefresher] = {}
    for spec in specs:
        entry, target = _split(spec)
        _check_entry(entry, entries)
        if entry in hooks:
            raise RefreshHookError(f"{entry!r} is given more than one hook")
        hooks[entry] = _imported(target)
    return hooks


def hook_table(value: Any) -> Any:
    """The ``refresh_hooks`` setting as a table by entry, from text or a table.

    Text is ``ENTRY=MODULE:FUNCTION`` items separated by commas, as ``--refresh-hook``
    takes each (``codex=my_tokens:refresh_codex,anthropic=my_tokens:refresh_claude``); a
    table (the config file's, a JSON object) has its entries' names lower-cased, as the
    flag's are. Anything else is left to the setting's type to refuse.

    Raises:
        RefreshHookError: An item is not of that form, or an entry is given twice.
    """
    if isinstance(value, str):
        if value.lstrip().startswith("{"):  # JSON the environment source could not decode
            raise RefreshHookError(
                "not a valid JSON object; write ENTRY=MODULE:FUNCTION items separated by "
                f"commas (e.g. {_EXAMPLE})"
            )
        items = [_split(item) for item in value.split(",") if item.strip()]
    elif isinstance(value, Mapping):
        items = [(str(key).strip().lower(), target) for key, target in value.items()]
    else:
        return value
    table: dict[str, Any] = {}
    for entry, target in items:
        if entry in table:
            raise RefreshHookError(f"{entry!r} is given more than one hook")
        table[entry] = target.strip() if isinstance(target, str) else target
    return table


def check_hook_form(entry: str, target: str) -> None:
    """Refuse ``entry``'s ``target`` as ``--refresh-hook`` would refuse its form.

    Whether ``entry`` is a sign-in's is checked where the hooks are loaded: the entries
    come from the providers, which the settings must not import.

    Raises:
        RefreshHookError: ``target`` is not ``MODULE:FUNCTION``.
    """
    _split(f"{entry}={target}")


def _check_entry(entry: str, entries: Collection[str]) -> None:
    if entry not in entries:
        raise RefreshHookError(
            f"{entry!r} is not a sign-in's entry (one of {', '.join(sorted(entries))})"
            f"{did_you_mean([entry], tuple(sorted(entries)))}"
        )


def _split(spec: str) -> tuple[str, str]:
    """``spec``'s entry and ``MODULE:FUNCTION``, both non-empty."""
    entry, equals, target = spec.partition("=")
    module, colon, function = target.partition(":")
    if not (equals and colon and entry.strip() and module.strip() and function.strip()):
        raise RefreshHookError(f"{spec!r} is not {HOOK_FORM} (e.g. {_EXAMPLE})")
    return entry.strip().lower(), target.strip()


def _imported(target: str) -> TokenRefresher:
    """The async function ``MODULE:FUNCTION`` names, imported."""
    module_name, _, path = target.partition(":")
    module_name, path = module_name.strip(), path.strip()
    try:
        found: object = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        missing = exc.name or module_name
        raise RefreshHookError(
            f"cannot import {module_name!r}: no module named {missing!r} "
            "(is its directory on PYTHONPATH?)"
        ) from None
    except Exception as exc:  # the module's own code failed; its text may say anything
        raise RefreshHookError(
            f"cannot import {module_name!r}: importing it raised {type(exc).__name__}"
        ) from None
    for name in path.split("."):
        if not hasattr(found, name):
            raise RefreshHookError(f"{target!r}: {module_name!r} has no {path!r}")
        found = getattr(found, name)
    if not callable(found):
        raise RefreshHookError(f"{target!r} is not callable (it is {type(found).__name__})")
    if not (
        inspect.iscoroutinefunction(found)
        or inspect.iscoroutinefunction(getattr(found, "__call__", None))  # noqa: B004
    ):
        raise RefreshHookError(
            f"{target!r} is not an async function: a refresh hook is awaited, as "
            "async def refresh(entry, token) -> OAuthToken"
        )
    hook: TokenRefresher = found  # checked above: an async callable
    return hook
