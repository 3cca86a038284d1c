"""Where a secret sits in a value about to leave the process: its path, never the secret.

Pickling refuses what holds a secret, naming where it is (``api_keys.brave``,
``settings.searxng.token``): :mod:`websearch_core.tool_pickles` for tools and
:mod:`websearch_core.settings_pickles` for settings. Both walk a value the same way, here.
A leaf: it knows no settings model, so the settings can refuse through it without an
import cycle; which plain names count as secret is the caller's to say.
"""

from collections.abc import Collection, Iterator, Mapping
from typing import Any

from pydantic import BaseModel, SecretBytes, SecretStr

from .redaction import userinfo_secrets

__all__ = ["mentions_secret", "secret_places"]


def secret_places(
    path: str, value: object, *, named: bool, names: Collection[str] = ()
) -> Iterator[str]:
    """Where in ``value`` (found at ``path``) each secret is, as a dotted path.

    Args:
        path: Where ``value`` was found (an option's or field's name).
        value: A model, mapping, sequence or leaf value.
        named: Whether ``path``'s own name says a plain string there is a secret.
        names: Mapping keys under which a plain string is a secret (options kept as given,
            ``searxng={"token": "..."}``, not yet validated into ``SecretStr``). A model's
            fields say so themselves, by their type.

    Example:
        >>> list(secret_places("settings", {"proxy": "http://u:pw@h:1", "k": 5}, named=False))
        ['settings.proxy']
    """
    if _is_secret(value, named=named):
        yield path
        return
    for key, item, inner_named in _parts(value, named=named, names=names):
        yield from secret_places(f"{path}.{key}", item, named=inner_named, names=names)


def mentions_secret(annotation: Any) -> bool:
    """Whether ``annotation`` is, or holds, ``SecretStr`` (``dict[str, SecretStr] | None``)."""
    if annotation is SecretStr:
        return True
    return any(mentions_secret(argument) for argument in getattr(annotation, "__args__", ()))


def _is_secret(value: object, *, named: bool) -> bool:
    """A non-empty secret value, a non-empty string under a secret name, a URL's password."""
    if isinstance(value, SecretStr | SecretBytes):
        return bool(value.get_secret_value())
    if isinstance(value, str):
        return bool(named and value) or bool(userinfo_secrets(value))
    return False


def _parts(
    value: object, *, named: bool, names: Collection[str]
) -> Iterator[tuple[object, object, bool]]:
    """Each part of a model, mapping or sequence: its key, its value, whether it is named secret."""
    if isinstance(value, BaseModel):
        for field, info in type(value).model_fields.items():
            yield field, getattr(value, field), mentions_secret(info.annotation)
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield key, item, named or str(key) in names
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            yield index, item, named
