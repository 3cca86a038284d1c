"""Invalid settings as one line that names where the bad value came from.

``Settings(...)`` raises pydantic's ``ValidationError`` for a bad value, as any pydantic
model does, and that is what Python callers catch. A model reading a tool result or a
user reading a shell error needs something else: one line naming the environment
variable, config file or option to fix. A tool adapter also must not let a *settings*
``ValidationError`` out of its tool function, where the framework would mistake it for
invalid tool arguments. :func:`configuration_errors` turns it into a
:class:`~websearch_core.errors.ConfigurationError` with that line.
"""

import contextlib
import types
import typing
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from .clauses import join_clauses
from .env_values import env_value, setting_variable_spelling
from .errors import ConfigurationError
from .meant_names import meant
from .provider_ids import KEY_IDS, unknown_ids_message
from .settings import (
    BASE_URL_SUFFIX,
    ENV_PREFIX,
    UNKNOWN_KEY_ID,
    SearxngSettings,
    Settings,
    default_config_file,
    load_config_toml,
    misplaced_setting,
)
from .tool_errors import validator_message

__all__ = ["configuration_errors", "describe_settings_error", "given_text"]

_SPEC_SEARXNG_PREFIX = "SEARXNG_"
"""The spec's own names for the ``searxng`` settings (``SEARXNG_ENDPOINT``, ...)."""


@contextlib.contextmanager
def configuration_errors(given: Mapping[str, str] | None = None) -> Iterator[None]:
    """Raise a settings ``ValidationError`` in the block as a one-line ``ConfigurationError``.

    Args:
        given: How each explicitly passed setting was given, by field name (the CLI maps
            ``timeout_seconds`` to ``--timeout``); such a field is named that way.

    Raises:
        ConfigurationError: Settings failed to validate; other errors pass unchanged.

    Example:
        >>> with configuration_errors({"timeout_seconds": "--timeout"}):
        ...     Settings(timeout_seconds=0)
        Traceback (most recent call last):
        websearch_core.errors.ConfigurationError: --timeout: must be more than 0 and at most ...
    """
    try:
        yield
    except ValidationError as error:
        if error.title != Settings.__name__:
            raise
        raise ConfigurationError(describe_settings_error(error, given)) from error


def describe_settings_error(error: ValidationError, given: Mapping[str, str] | None = None) -> str:
    """Each invalid setting as ``<where>: <problem>``, joined into one line.

    ``<where>`` follows the precedence of :class:`~websearch_core.Settings`: an explicitly
    given value (named as in ``given``, else by its field), then the environment variable
    that is set, then the config file. Values are repeated only where no secret can be
    (see :func:`_given`).
    """
    given = given or {}
    try:
        config_file: Path | None = default_config_file()
    except ConfigurationError:  # WEBSEARCH_CONFIG_FILE itself is at fault: no file to name
        config_file = None
    parts = []
    for detail in error.errors():
        # A table's key is located as (table, key, "[key]"): the entry is what to name.
        location = tuple(str(part) for part in detail["loc"] if part != "[key]")
        if detail["type"] == "extra_forbidden":
            problem = _not_a_setting(location)
        elif detail["type"] == UNKNOWN_KEY_ID:
            problem = _not_a_key_id(location[-1])
        elif detail["type"] == "path_type":
            # Pydantic says "Input is not a valid path for <class 'pathlib.Path'>".
            problem = "should be a path, written as a string"
        else:
            problem = validator_message(detail["msg"])
        written = _SWITCH_FORMS if detail["type"] == "bool_parsing" else ""
        parts.append(f"{_source(location, given, config_file)}: {problem}{_given(detail)}{written}")
    return join_clauses(parts) or str(error)


_SWITCH_FORMS = "; write 1, true, yes or on, or 0, false, no or off"
"""What a switch that is neither on nor off is told to write (``WEBSEARCH_FALLBACK=maybe``):
pydantic's ``Input should be a valid boolean`` named no form it reads, where the command's
own switch (``WEBSEARCH_FETCH_ALLOW_PRIVATE``) lists them."""

_ECHOED_LENGTH = 16
"""The longest value repeated: a number, a switch or a backend name is shorter, every
provider's key longer (Brave's 31 characters, an Exa UUID 36)."""

_UNREAD_KINDS = frozenset({"float_parsing", "int_parsing", "bool_parsing", "literal_error"})
"""Pydantic's error types for text that is no number, switch or choice at all. A number out
of range is not repeated: the message names the bound, and the number is the user's own."""


def _given(detail: ErrorDetails) -> str:
    """``, got 'soon'``: the text a number, switch or choice was given, where no secret can be.

    ``WEBSEARCH_TIMEOUT_SECONDS=soon`` read ``... unable to parse string as a number``,
    leaving the user to find what was set, where a bad search option says ``got 'five'``.
    Only a field typed as a number, a switch or a fixed choice has its text repeated, and
    only a short one: a key pasted into the wrong variable stays unsaid.
    """
    given = detail["input"]
    location = detail["loc"]
    if detail["type"] not in _UNREAD_KINDS or len(location) != 1:
        return ""
    field = Settings.model_fields.get(str(location[0]))
    return given_text(given, field.annotation) if field is not None else ""


def given_text(given: object, kind: object) -> str:
    """``, got '<given>'`` for short text given to a number, a switch or a choice, else ``""``.

    Args:
        given: What was given (text from an option, a variable or the config file).
        kind: The type the setting wants (a field's annotation).
    """
    if not isinstance(given, str) or len(given) > _ECHOED_LENGTH or not _plain_kind(kind):
        return ""
    return f", got {given!r}"


def _plain_kind(annotation: object) -> bool:
    """Whether a field of this type holds a number, a switch or a fixed choice (``None`` too)."""
    if annotation in (int, float, bool):
        return True
    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        return True
    if origin in (typing.Union, types.UnionType):
        kinds = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
        return bool(kinds) and all(_plain_kind(kind) for kind in kinds)
    return False


def _not_a_setting(location: Sequence[str]) -> str:
    """What to say of a key no setting has, with the one probably meant.

    Pydantic's own words, ``Extra inputs are not permitted``, left a user who wrote
    ``timeout = 30`` in the config file to find out which of the settings was meant.
    """
    problem = misplaced_setting(tuple(location))
    if problem is not None:
        return problem
    fields = SearxngSettings.model_fields if location[:1] == ("searxng",) else None
    names = list(fields if fields is not None else Settings.model_fields)
    return f"not a setting{meant(location[-1], names)}"


def _not_a_key_id(key: str) -> str:
    """What to say of an ``[api_keys]`` entry under no id, with the id probably meant.

    A typo (``bravee``) was answered with the id meant, but the variable's name
    (``BRAVE_API_KEY = "..."``, copied from a ``.env`` file) with every id there is and
    nothing more; the variables each provider reads its key from are its other names.
    """
    from .key_names import key_variables  # imports every provider: only on this error

    return unknown_ids_message([key], KEY_IDS, key_variables())


_SETTINGS_PREFIX = ENV_PREFIX.upper()
"""The prefix of the variables :func:`~.env_values.settings_environment` reads in any case."""


def _source(location: Sequence[str], given: Mapping[str, str], config_file: Path | None) -> str:
    dotted = ".".join(location) or "settings"
    field = location[0] if location else ""
    if field in given:
        return given[field]
    for name in _environment_names(location):
        # The WEBSEARCH_ names are read in any case of letters; a blank one set nothing.
        if name.startswith(_SETTINGS_PREFIX):
            spelling = setting_variable_spelling(name)
            if spelling is not None:
                return spelling
        elif env_value(name) is not None:
            return name
    if config_file is not None and _in_config_file(config_file, field):
        return f"config file {config_file} ({dotted})"
    return dotted


def _in_config_file(path: Path, field: str) -> bool:
    try:
        return field in load_config_toml(path)
    except (OSError, ValueError):  # absent or unreadable: the value came from elsewhere
        return False


def _environment_names(location: Sequence[str]) -> list[str]:
    """The variables that can set this setting, highest precedence first.

    An entry's own variable (``WEBSEARCH_BUDGET__BRAVE``) comes before its table's
    (``WEBSEARCH_BUDGET``): where both are set, the entry's variable is the one read.
    """
    if not location:
        return []
    field, rest = location[0], location[1:]
    names = [f"{ENV_PREFIX}{field}".upper()]
    if rest:
        names.insert(0, f"{ENV_PREFIX}{field}__{rest[0]}".upper())
        if field == "searxng":
            names.append(f"{_SPEC_SEARXNG_PREFIX}{rest[0]}".upper())
        if field == "base_urls":
            names.append(f"{ENV_PREFIX}{rest[0]}{BASE_URL_SUFFIX}".upper())
    return names
