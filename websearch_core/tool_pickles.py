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

:class:`~websearch_core.Settings` (and :class:`~websearch_core.settings.SearxngSettings`)
pickled on their own follow the same rule: without a secret they pickle as they are; with
one (a key, a proxy, a token, a password in a URL) they are refused, naming the field
(:func:`picklable_settings`). They used to write every key into the pickle in clear text.
Refused rather than pickled without the secret: an unpickled model is a snapshot, which
does not read the environment again, so a copy quietly missing its keys would search
without them. ``copy.copy`` and ``copy.deepcopy`` (pydantic's own, which frameworks use to
copy tools) do not pickle and still copy settings whole, secrets included.
"""

import functools
from collections.abc import Iterator, Mapping
from typing import Any

from pydantic import BaseModel, SecretBytes, SecretStr

from .redaction import userinfo_secrets

__all__ = ["picklable_options", "picklable_settings"]

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


def picklable_settings(settings: BaseModel) -> None:
    """Check that a settings model (``Settings``, ``SearxngSettings``) may be pickled.

    Args:
        settings: The model being pickled.

    Raises:
        TypeError: A field holds a secret, wherever it was read from (code, environment,
            config file); the message names the field (``api_keys.brave``), never its value.

    Example:
        >>> from websearch_core.settings import SearxngSettings
        >>> picklable_settings(SearxngSettings(endpoint="https://searx.example.org"))
        >>> picklable_settings(SearxngSettings(token="..."))
        Traceback (most recent call last):
        ...
        TypeError: cannot pickle SearxngSettings: it holds a secret (token), which pickle would write in clear text; build the settings in the process that uses them: Settings() reads the environment and the config file where it runs, and a client the credential store (websearch auth set)
    """  # noqa: E501
    owner = type(settings).__name__
    for name in type(settings).model_fields:
        where = _first_secret(name, getattr(settings, name))
        if where is not None:
            raise TypeError(
                f"cannot pickle {owner}: it holds a secret ({where}), which pickle would write "
                "in clear text; build the settings in the process that uses them: Settings() "
                "reads the environment and the config file where it runs, and a client the "
                "credential store (websearch auth set)"
            )


def _first_secret(name: str, value: object) -> str | None:
    """Where the first secret in option or field ``name``'s ``value`` is, or ``None``."""
    return next(_secrets(name, value, named=name in _secret_names()), None)


def _secrets(path: str, value: object, *, named: bool) -> Iterator[str]:
    """Where in ``value`` (found at ``path``) a secret is; ``named``: the name says so."""
    if _is_secret(value, named=named):
        yield path
        return
    for key, item, inner_named in _parts(value, named=named):
        yield from _secrets(f"{path}.{key}", item, named=inner_named)


def _is_secret(value: object, *, named: bool) -> bool:
    """A non-empty secret value, a non-empty string under a secret name, a URL's password."""
    if isinstance(value, SecretStr | SecretBytes):
        return bool(value.get_secret_value())
    if isinstance(value, str):
        return bool(named and value) or bool(userinfo_secrets(value))
    return False


def _parts(value: object, *, named: bool) -> Iterator[tuple[object, object, bool]]:
    """Each part of a model, mapping or sequence: its key, its value, whether it is named secret."""
    if isinstance(value, BaseModel):
        for field in type(value).model_fields:
            yield field, getattr(value, field), field in _secret_names()
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield key, item, named or str(key) in _secret_names()
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            yield index, item, named


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
        if _mentions_secret(field.annotation)
    )


def _mentions_secret(annotation: Any) -> bool:
    """Whether ``annotation`` is, or holds, ``SecretStr`` (``dict[str, SecretStr] | None``)."""
    if annotation is SecretStr:
        return True
    return any(_mentions_secret(argument) for argument in getattr(annotation, "__args__", ()))
