"""What a pickled tool, spec or retriever holds: its configuration, and never a secret.

Programs send tools across processes: a ``multiprocessing`` pool pickles what it hands a
worker, and a LangGraph checkpoint may pickle what its state holds. ``pickle.dumps(tool)``
used to fail on a lock deep inside the tool's clients (``Can't pickle local object
'WeakKeyDictionary.__init__.<locals>.remove'``), naming nothing the caller could act on.
The rule, written once here for every adapter:

* a tool pickles as its configuration (provider, timeout, options such as a retriever's
  ``k``); the copy opens its own clients on first use, as a copy does
  (:mod:`websearch_core.tool_copies`), and reads the environment, the config file and the
  credential store where it runs, as any tool built without keys does;
* a tool holding a secret given in code (an ``api_keys`` entry, a proxy, Redis or base URL
  with a password, ``settings`` holding any of these) is refused, naming where the secret
  is and not its value: pickle would write it in clear text, to a pipe or to a checkpoint
  database. Keys belong in the environment or the credential store, which the copy reads;
* a tool holding a live object given in code (a ``web_search`` client, an aiohttp
  ``session``, a ``browser``) is refused too: none of them can cross a process.

Both refusals are ``TypeError``, what ``pickle`` raises for an object it cannot pickle.

:class:`~websearch_core.Settings` pickled on their own follow the same rule
(:mod:`websearch_core.settings_pickles`); both find a secret the same way
(:mod:`websearch_core.secret_places`).
"""

import functools
from collections.abc import Mapping

from .secret_places import mentions_secret, secret_places

__all__ = ["picklable_options"]

_LIVE = ("web_search", "session", "browser")
"""Options holding an open object of this process (sessions, a store, a browser)."""

_ADVICE = "build the tool in the process that uses it"


def picklable_options(owner: str, options: Mapping[str, object]) -> None:
    """Check that an adapter's ``options`` (name to value, as given) may be pickled.

    Args:
        owner: The adapter's class, for the message (``WebSearchTool``).
        options: The configuration the adapter keeps, by the name it was given as.

    Raises:
        TypeError: An option holds a secret or a live object; the message names the
            option (``api_keys.brave``, ``settings.proxy``), never a secret's value.

    Example:
        >>> picklable_options("Tool", {"provider": "brave", "timeout_seconds": 5})
        >>> picklable_options("Tool", {"api_keys": {"brave": "sk-..."}})
        Traceback (most recent call last):
        ...
        TypeError: cannot pickle Tool: it holds a secret given in code (api_keys.brave), which pickle would write in clear text; give keys through the environment or the credential store (websearch auth set), which the unpickled tool reads where it runs, or build the tool in the process that uses it
    """  # noqa: E501
    for name, value in options.items():
        if value is None:
            continue
        if name in _LIVE:
            raise TypeError(
                f"cannot pickle {owner}: it holds a {name} given in code, which cannot cross "
                f"a process; give its configuration instead, or {_ADVICE}"
            )
        where = _first_secret(name, value)
        if where is not None:
            raise TypeError(
                f"cannot pickle {owner}: it holds a secret given in code ({where}), which "
                "pickle would write in clear text; give keys through the environment or the "
                "credential store (websearch auth set), which the unpickled tool reads where "
                f"it runs, or {_ADVICE}"
            )


def _first_secret(name: str, value: object) -> str | None:
    """Where the first secret in option ``name``'s ``value`` is, or ``None``."""
    names = _secret_names()
    return next(secret_places(name, value, named=name in names, names=names), None)


@functools.cache
def _secret_names() -> frozenset[str]:
    """The settings a plain ``str`` given for is still a secret: those typed ``SecretStr``.

    Read from the settings models, so a secret setting added there is known here. A
    tool's options are kept as given (``api_keys={"brave": "..."}``, ``searxng={"token":
    ...}``), not yet validated into ``SecretStr``.
    """
    from .settings import SearxngSettings, Settings  # only when a tool is pickled

    return frozenset(
        name
        for model in (Settings, SearxngSettings)
        for name, field in model.model_fields.items()
        if mentions_secret(field.annotation)
    )
