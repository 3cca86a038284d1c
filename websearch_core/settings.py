"""Settings: keyword arguments > environment > TOML config file > defaults.

Built on pydantic-settings so each source and its precedence is declared, not hand-merged.

Environment variables:

* ``WEBSEARCH_PROVIDER`` (preferred provider), ``WEBSEARCH_PROVIDERS`` (an ordered chain) and
  ``WEBSEARCH_EXCLUDE`` (ids never used), each list comma-separated or a JSON list,
  ``WEBSEARCH_TIMEOUT_SECONDS`` (per provider), ``WEBSEARCH_DEADLINE_SECONDS`` (the whole
  call), ``WEBSEARCH_CONNECT_TIMEOUT_SECONDS``, ``WEBSEARCH_MAX_RESPONSE_BYTES``,
  ``WEBSEARCH_CONFIG_FILE`` (path of the TOML file, which must then exist),
  ``WEBSEARCH_CREDENTIALS_FILE``; paths expand ``~``, ``$NAME`` and ``${NAME}``.
* ``WEBSEARCH_<ID>_BASE_URL`` for any provider id (``WEBSEARCH_BRAVE_BASE_URL``): replaces the
  scheme, host and port of every request that provider makes. A sign-in (OAuth token,
  session cookie) goes to such a URL only on loopback, on the service's own host, or when
  ``WEBSEARCH_SIGN_IN_GATEWAYS`` (comma-separated ids) trusts it.
* ``WEBSEARCH_REFRESH_HOOKS``: the ``websearch`` command's refresh hooks by sign-in entry,
  ``codex=my_tokens:refresh_codex,anthropic=...`` (as ``--refresh-hook`` takes each), or one
  per variable as ``WEBSEARCH_REFRESH_HOOKS__CODEX=my_tokens:refresh_codex``.
* The spec's own names for SearXNG: ``SEARXNG_ENDPOINT``, ``SEARXNG_TOKEN``,
  ``SEARXNG_BASIC_USERNAME``, ``SEARXNG_BASIC_PASSWORD``.

A variable set to an empty or blank value is unset (:mod:`websearch_core.env_values`): the
config file's entry, else the default, is used.

The TOML file (default ``~/.config/websearch-tools/config.toml``) holds the same keys::

    provider = "brave"
    exclude = ["google"]
    timeout_seconds = 30

    [api_keys]
    brave = "..."

    [base_urls]
    brave = "http://127.0.0.1:8080"

    [searxng]
    endpoint = "https://searx.example.org"
    categories = "general"
"""

import contextlib
import json
import os
import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, Literal, Self
from urllib.parse import urlsplit

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ModelWrapValidatorHandler,
    SecretStr,
    ValidationError,
    ValidationInfo,
    ValidatorFunctionWrapHandler,
    field_serializer,
    field_validator,
    model_validator,
)
from pydantic.fields import FieldInfo
from pydantic_core import InitErrorDetails, PydanticCustomError
from pydantic_settings import (
    BaseSettings,
    EnvSettingsSource,
    InitSettingsSource,
    NoDecode,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)
from typing_extensions import TypedDict  # one pydantic accepts, on Python 3.11 too

from .config_read import ConfigRead, config_document, handed_read, read_config
from .control_chars import CONTROL_IN_LINE
from .deadline import STORE_SETTING_CAP
from .edited_text import SavedAsUtf16Error
from .env_values import env_value, is_blank, setting_variable, settings_environment
from .errors import ConfigurationError
from .key_variable_names import KEY_VARIABLES
from .meant_names import named_extras
from .provider_ids import (
    BASE_URL_IDS,
    KEY_IDS,
    SEARCH_PROVIDER_ORDER,
    one_provider_only,
    preferred_provider,
    unknown_ids,
    unknown_ids_message,
    unknown_list_ids_message,
)
from .redaction import CUT_SHORT, masked_password, userinfo_cut_short
from .sent_secret import flaw
from .setting_bounds import checked_in_range
from .settings_limits import (
    DEFAULT_CONNECT_TIMEOUT_SECONDS,
    DEFAULT_DEADLINE_SECONDS,
    DEFAULT_MAX_RESPONSE_BYTES,
    DEFAULT_TIMEOUT_SECONDS,
    DEFAULT_TIMEOUTS_BY_KIND,
    MAX_AUTH_COOLDOWN_SECONDS,
    MAX_DEADLINE_SECONDS,
    MAX_STATE_WAIT_SECONDS,
    MAX_TIMEOUT_SECONDS,
)
from .sign_in_advice import own_provider_gateways, signless_gateways, signless_gateways_message
from .url_authority import INVALID_AUTHORITY, authority_problem

__all__ = [
    "DEFAULT_CONNECT_TIMEOUT_SECONDS",
    "DEFAULT_DEADLINE_SECONDS",
    "DEFAULT_MAX_RESPONSE_BYTES",
    "DEFAULT_TIMEOUTS_BY_KIND",
    "DEFAULT_TIMEOUT_SECONDS",
    "MAX_AUTH_COOLDOWN_SECONDS",
    "MAX_DEADLINE_SECONDS",
    "MAX_STATE_WAIT_SECONDS",
    "MAX_TIMEOUT_SECONDS",
    "SearxngSettings",
    "Settings",
    "SettingsOverrides",
    "chosen_config_file",
    "default_config_file",
    "misplaced_setting",
]

APP_NAME = "websearch-tools"

_SEARXNG_ENV = {
    "SEARXNG_ENDPOINT": "endpoint",
    "SEARXNG_TOKEN": "token",
    "SEARXNG_BASIC_USERNAME": "basic_username",
    "SEARXNG_BASIC_PASSWORD": "basic_password",
}
_REDIS_SCHEMES = ("redis://", "rediss://", "unix://")
ENV_PREFIX = "WEBSEARCH_"
"""Every setting's variable starts so (``WEBSEARCH_TIMEOUT_SECONDS``)."""
BASE_URL_SUFFIX = "_BASE_URL"
"""``WEBSEARCH_<ID>_BASE_URL`` sets ``base_urls.<id>``."""
CONFIG_FILE_ENV = f"{ENV_PREFIX}CONFIG_FILE"
"""The variable that names the TOML file (read before the other settings)."""
CREDENTIALS_FILE_ENV = f"{ENV_PREFIX}CREDENTIALS_FILE"
"""The variable that sets ``credentials_file`` (``websearch auth -v`` names it)."""


def _http_base_url(url: str) -> str:
    """One ``base_urls`` value, refused unless an ``http(s)`` URL a connection can be made to.

    Any userinfo must come before the host, and the host and port must be readable
    (:func:`authority_problem`: ``http://h:99999`` failed only at the first search).
    The message does not repeat the value: a gateway URL may carry credentials, and one
    whose token is cut short by an unencoded ``/`` (:func:`userinfo_cut_short`) would
    otherwise be used, and shown, whole.
    """
    if not url.startswith(("http://", "https://")):
        raise ValueError("must be an http(s) URL such as http://127.0.0.1:8080")
    if userinfo_cut_short(url):
        raise ValueError(CUT_SHORT)
    problem = authority_problem(url)
    if problem is not None:
        raise ValueError(problem)
    return url


_VARIABLE = re.compile(r"\$(\w+|\{([^}]*)\})", re.ASCII)
"""``$NAME`` or ``${NAME}``: what :func:`os.path.expandvars` replaces, matched the same way."""


def _expanded_path(path: Path) -> Path:
    """A path setting with ``~`` and then ``$NAME`` / ``${NAME}`` expanded, as a shell would.

    Values from the environment or the config file arrive as written: expanding ``~``
    alone (as opening the store does) would turn ``WEBSEARCH_STATE_DIR=$XDG_STATE_HOME/ws``
    into a directory literally named ``$XDG_STATE_HOME`` under the working directory. A
    variable that is unset or empty is refused rather than left in the path: the first
    would make that ``$NAME`` directory after all, the second move the state to ``/ws``.

    Raises:
        ValueError: The path uses a variable that is unset or empty (named in the message).
    """
    text = os.path.expanduser(path)
    names = {
        match.group(2) if match.group(2) is not None else match.group(1)
        for match in _VARIABLE.finditer(text)
    }
    missing = sorted(name for name in names if env_value(name) is None)
    if missing:
        listed = ", ".join(f"${name}" for name in missing)
        which = (
            "an environment variable that is"
            if len(missing) == 1
            else "environment variables that are"
        )
        raise ValueError(f"uses {which} unset or empty: {listed}")
    return Path(os.path.expandvars(text))


def _provider_key(key: str, known: tuple[str, ...] = SEARCH_PROVIDER_ORDER) -> str:
    """A per-provider table's key (``[budget]``, ``WEBSEARCH_<ID>_BASE_URL``...), lower-cased.

    A mistyped id would otherwise configure nothing, silently: a budget not enforced, a
    gateway not used, a key not found.
    """
    if unknown_ids([key], known):
        raise ValueError(unknown_ids_message([key], known))
    return key.strip().lower()


UNKNOWN_KEY_ID = "unknown_key_id"
"""The error type of an ``[api_keys]`` entry under no id. Its message names the id meant
from the built-in providers' key variables (:data:`~websearch_core.key_variable_names.
KEY_VARIABLES`, data); the settings errors say it again from every registered provider's,
a plugin's too, which this module cannot import (they import the settings)."""


def _key_owner(key: str) -> str:
    """An ``[api_keys]`` key: a provider's id, or the id of a key a provider reads too.

    Raises:
        PydanticCustomError: Of type :data:`UNKNOWN_KEY_ID`, with the key and its message.
    """
    if unknown_ids([key], KEY_IDS):
        # The built-in providers' key variables as data (a ``.env`` line's name copied as
        # the id): ``Settings()`` raised without the id meant, which only the command's
        # and the tools' rewording (``settings_errors``) added.
        message = unknown_ids_message([key], KEY_IDS, KEY_VARIABLES)
        raise PydanticCustomError(UNKNOWN_KEY_ID, message, {"key": key})
    return key.strip().lower()


def _one_line_key(key: SecretStr) -> SecretStr:
    """An ``api_keys`` value, refused when it has a flaw no key has.

    A key with a line break, NUL or other control character in it cannot go into a
    request header, and one with the quotes or the ``NAME=`` of a ``.env`` line or an
    invisible character is refused by the provider: every search with it would fail, far
    from where it was set. The rule is the one every sent key is checked by
    (:func:`~websearch_core.sent_secret.flaw`). The surrounding whitespace the key is
    stripped of when used does not count.
    """
    reason = flaw(key.get_secret_value().strip(), key=True)
    if reason is not None:
        raise ValueError(f"the API key {reason}")
    return key


def _base_url_key(key: str) -> str:
    """A ``[base_urls]`` key: a provider's id, or ``google_oauth`` (Google's token endpoint)."""
    return _provider_key(key, BASE_URL_IDS)


_ProviderKey = Annotated[str, AfterValidator(_provider_key)]
"""The key type of the per-provider tables in the settings."""
_BaseUrlKey = Annotated[str, AfterValidator(_base_url_key)]
"""The key type of ``base_urls``: a provider's id or one of ``BASE_URL_ONLY_IDS``."""
_KeyOwner = Annotated[str, AfterValidator(_key_owner)]
"""The key type of ``api_keys``: a provider's id or one of ``KEY_ONLY_IDS``."""


def _configured_config_file() -> Path | None:
    """``WEBSEARCH_CONFIG_FILE`` with ``~`` and ``$NAME`` expanded; ``None`` when unset or empty.

    Read in any case of its letters, as every setting's variable is
    (:func:`~websearch_core.env_values.setting_variable`): ``websearch_config_file`` set
    the settings' ``config_file`` (so the credential store was looked for beside it), while
    the file read was the default one; a first call's early read of its deadline read the
    default one too.

    Raises:
        ConfigurationError: The path uses a variable that is unset or empty (both named).
    """
    configured = setting_variable(CONFIG_FILE_ENV)
    if configured is None:
        return None
    try:
        return _expanded_path(Path(configured))
    except ValueError as error:
        raise ConfigurationError(f"{CONFIG_FILE_ENV}: {error}") from None


def default_config_file() -> Path:
    """Where the TOML config lives unless ``WEBSEARCH_CONFIG_FILE`` says otherwise.

    The variable is expanded as ``state_dir`` is: ``$HOME/...`` used to be looked up as a
    directory literally named ``$HOME``, which does not exist, so the file was skipped.

    Raises:
        ConfigurationError: ``WEBSEARCH_CONFIG_FILE`` uses a variable that is unset or empty.
    """
    configured = _configured_config_file()
    if configured is not None:
        return configured
    import platformdirs  # here, not at import: a tool's import need not find config dirs

    return platformdirs.user_config_path(APP_NAME) / "config.toml"


def _chosen_config_file(init_settings: PydanticBaseSettingsSource) -> tuple[Path, str | None]:
    """The TOML file to read, and the argument or variable that chose it (``None``: default).

    Raises:
        ConfigurationError: The chosen path uses a variable that is unset or empty.
    """
    explicit = None
    if isinstance(init_settings, InitSettingsSource):
        explicit = init_settings.init_kwargs.get("config_file")
    return chosen_config_file(explicit)


def chosen_config_file(explicit: Any) -> tuple[Path, str | None]:
    """The TOML file the settings read given ``config_file=explicit``, and what chose it.

    A first call reads the file's deadline before its settings
    (:mod:`~websearch_core.config_deadlines`): the same file, chosen here once.

    Args:
        explicit: The ``config_file=`` option given (a path), or ``None``.

    Raises:
        ConfigurationError: The chosen path uses a variable that is unset or empty.
    """
    if explicit:
        try:
            return _expanded_path(Path(explicit)), "config_file"
        except ValueError as error:
            raise ConfigurationError(f"config_file: {error}") from None
    configured = _configured_config_file()
    if configured is not None:
        return configured, CONFIG_FILE_ENV
    return default_config_file(), None


def _config_file_source(
    settings_cls: type[BaseSettings], path: Path, chosen_by: str | None = None
) -> TomlConfigSettingsSource:
    """The TOML file as a settings source; a file that cannot be used names itself.

    The default file may be absent (nothing is configured yet). A file someone named, by
    ``WEBSEARCH_CONFIG_FILE`` or ``config_file=``, must be there: a typo in it used to run
    every setting at its default, without a word. Something at the default path that is
    not a file (a directory, a link to nothing) is named too: it was skipped as if absent,
    and every setting the user meant to make there silently ran at its default.

    The disk is asked once (:func:`~websearch_core.config_read.read_config`), or not at
    all when a first call's bounded read is handed over for this path
    (:func:`~websearch_core.config_read.handing`): it had no limit here, on the call's
    thread, right after that read.

    Args:
        settings_cls: The settings model.
        path: The file (expanded).
        chosen_by: The variable or argument that named the file; ``None`` for the default.

    Raises:
        ConfigurationError: A named file is missing or not a file, or the default path
            holds something other than a file; the file is not valid TOML, not UTF-8
            (saved as UTF-16 is said so), or cannot be read.
    """
    import tomllib  # as pydantic-settings does: only when a file is read

    read = handed_read(path) or read_config(path)
    if not read.is_file and (chosen_by is not None or read.state != "missing"):
        named = f"{chosen_by}: " if chosen_by is not None else ""
        raise ConfigurationError(f"{named}config file {path} {read.problem}")
    try:
        return _ConfigFileSource(settings_cls, read if read.is_file else None)
    except tomllib.TOMLDecodeError as error:
        raise ConfigurationError(f"config file {path} is not valid TOML: {error}") from error
    except SavedAsUtf16Error as error:
        raise ConfigurationError(f"config file {path} {error}") from error
    except UnicodeDecodeError as error:
        raise ConfigurationError(
            f"config file {path} is not UTF-8 text (byte {error.start} cannot be decoded)"
        ) from error
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise ConfigurationError(f"config file {path} cannot be read: {reason}") from error


_PATHS_FROM_THE_FILE = ("state_dir", "credentials_file")
"""Config-file entries that are paths: a relative one is taken from the file's directory."""


def _beside(config_file: Path, written: str) -> str:
    """A path written in ``config_file``, a relative one joined to the file's directory.

    ``credentials_file = "credentials.json"`` means the file beside the config, wherever
    the command runs; taken as written, it was looked up in the working directory, so
    each directory had its own store. A path that is absolute once ``~`` and ``$NAME``
    are expanded, or that cannot be expanded, is returned as written: the setting's
    validator expands it, or refuses it naming this entry. (The joined path is expanded
    once more there, so a ``$NAME`` in the config directory's own name would be read as
    a variable; a ``$`` in a directory name is rare enough to leave so.)
    """
    try:
        expanded = _expanded_path(Path(written))
    except ValueError:
        return written
    if expanded.is_absolute():
        return written
    return str(config_file.parent.absolute() / expanded)


def load_config_toml(file_path: Any) -> dict[str, Any]:
    """The TOML document in ``file_path`` (a ``Path`` or a package resource), past a BOM.

    tomllib refuses a leading byte order mark, so a config file saved as "UTF-8 with
    BOM" was reported ``not valid TOML: Invalid statement (at line 1, column 1)``,
    pointing at nothing the user could see.

    Raises:
        OSError: The file cannot be read.
        SavedAsUtf16Error: It is UTF-16 text (a byte order mark, or NUL bytes).
        UnicodeDecodeError: It is not UTF-8 (the byte counted from the file's start).
        tomllib.TOMLDecodeError: It is not TOML.
    """
    with file_path.open(mode="rb") as file:
        return config_document(file.read())


_TABLE_EXAMPLES = {
    "api_keys": 'brave = "..."',
    "budget": 'brave = "2000/month"',
    "rate": 'brave = "1/s"',
    "base_urls": 'brave = "http://127.0.0.1:8080"',
    "searxng": 'endpoint = "https://searx.example.org"',
}
"""Settings that are tables (``[api_keys]`` in the file, a JSON object in a variable), each
with an entry as the file writes it."""
_TABLES = tuple(_TABLE_EXAMPLES)
BOUNDED_NUMBERS = (
    "rate_limit_wait_seconds",
    "auth_cooldown_seconds",
    "cache_ttl_seconds",
    "cache_stale_seconds",
    "timeout_seconds",
    "deadline_seconds",
    "connect_timeout_seconds",
    "state_wait_seconds",
    "max_response_bytes",
)
"""The number settings with bounds: a value past one is refused naming its unit and range."""
_TABLE_ENTRY_NAMES = {table: "SETTING" if table == "searxng" else "PROVIDER" for table in _TABLES}
"""What names an entry of each table, as a variable of one entry writes it
(``WEBSEARCH_BUDGET__<PROVIDER>``, ``WEBSEARCH_SEARXNG__<SETTING>``): a provider id,
except in ``searxng``, whose entries are its settings."""


def _check_tables(config_file: Any, data: dict[str, Any]) -> None:
    """Refuse a table written as anything but a table, saying how the file writes one.

    ``api_keys = "..."`` reached the check meant for ``WEBSEARCH_API_KEYS`` and was told
    to write a JSON object or set ``WEBSEARCH_API_KEYS__<PROVIDER>``: advice for a variable, in
    an error about a file. The value is not repeated (it may be a key).

    An entry of a provider's table written unquoted (``brave = 2000`` under ``[budget]``)
    was answered with pydantic's ``Input should be a valid string``, which does not say
    that the form is ``"2000/month"``; it is refused here with the table's example.

    Raises:
        ConfigurationError: A table setting holds a string, number, list or boolean, or
            an entry of a provider's table is not a string.
    """
    for table, example in _TABLE_EXAMPLES.items():
        if table not in data:
            continue
        if not isinstance(data[table], dict):
            raise ConfigurationError(
                f"config file {config_file} ({table}): must be a table: a line [{table}], "
                f"then one entry per line, such as {example}"
            )
        if _TABLE_ENTRY_NAMES[table] != "PROVIDER":  # searxng's entries have types of their own
            continue
        for key, value in data[table].items():
            if not isinstance(value, str):
                raise ConfigurationError(
                    f"config file {config_file} ({table}.{key}): must be text in quotes"
                    f'{_ENTRY_MEANING.get(table, "")}, as in {key} = "{_as_text(table, value)}"'
                )


class _ConfigFileSource(TomlConfigSettingsSource):
    """The TOML file as read once, its relative paths made its own.

    pydantic-settings' own source asks the disk whether the file is there, twice, then
    reads it; this one is given what the disk answered (a
    :class:`~websearch_core.config_read.ConfigRead`), so the settings touch the disk once,
    or not at all when a first call's bounded read is handed over.

    Args:
        settings_cls: The settings model.
        read: The file as read; ``None`` when there is none (the default file, absent).

    Raises:
        OSError, SavedAsUtf16Error, UnicodeDecodeError, tomllib.TOMLDecodeError: As
            :meth:`~websearch_core.config_read.ConfigRead.document` raises them.
    """

    def __init__(self, settings_cls: type[BaseSettings], read: ConfigRead | None) -> None:
        self._config_read = read  # before the base reads its "files" (_read_files)
        super().__init__(settings_cls, toml_file=None if read is None else read.path)

    def _read_files(self, files: Any, deep_merge: bool = False) -> dict[str, Any]:
        # pydantic-settings' hook for its files; typed loosely so that a module of its
        # internals it is typed with is not imported here.
        read = self._config_read
        if read is None:
            return {}
        data = read.document()
        _check_tables(read.path, data)
        for key in _PATHS_FROM_THE_FILE:
            value = data.get(key)
            if isinstance(value, str) and value:
                data[key] = _beside(read.path, value)
        return data

    @classmethod
    def _any_file_exists(cls, paths: Any) -> bool:
        # The base asks the disk again here (for a table header this model does not use).
        return False


def _split_ids(value: Any) -> Any:
    """Provider ids from a variable: ``brave, exa``, or the JSON list ``["brave", "exa"]``.

    pydantic-settings reads every other list variable as JSON, so a user who knows it
    writes this one so too; a value that starts with ``[`` is read as JSON and must be a
    list of strings, anything else is split at commas.
    """
    if not isinstance(value, str):
        return value
    if not value.lstrip().startswith("["):
        return tuple(part.strip().lower() for part in value.split(",") if part.strip())
    try:
        items = json.loads(value)
    except json.JSONDecodeError as error:
        raise ValueError(
            f"not a JSON list ({error.msg} at character {error.pos + 1}); "
            'write the ids as ["brave", "exa"] or brave,exa'
        ) from None
    if not isinstance(items, list) or not all(isinstance(item, str) for item in items):
        raise ValueError('a JSON list of provider ids must hold strings only, as ["brave", "exa"]')
    return tuple(item.strip().lower() for item in items if item.strip())


def _each_entry(table: dict[str, str], parse: Callable[[str, str], object]) -> dict[str, str]:
    """``table`` once ``parse(key, text)`` accepted each entry; each refusal located at its key.

    A budget or rate is checked whole, by the parser the chain uses, which needs the
    provider id; a refusal raised as such would be located at the table, and the error
    would name ``WEBSEARCH_BUDGET`` (or no variable at all) rather than the
    ``WEBSEARCH_BUDGET__BRAVE`` that holds it. Raised as a ``ValidationError`` with the key
    as location, pydantic puts each under the table's (``budget.brave``).

    Raises:
        ValidationError: One or more entries were refused (the parser's message each).
    """
    refused: list[InitErrorDetails] = []
    for key, text in table.items():
        try:
            parse(key, text)
        except ValueError as error:
            refused.append(
                InitErrorDetails(type="value_error", loc=(key,), input=text, ctx={"error": error})
            )
    if refused:
        raise ValidationError.from_exception_data("Settings", refused)
    return table


def _json_table(value: Any, field: str) -> Any:
    """A table given as text, refused with what is wrong with its JSON.

    A ``WEBSEARCH_API_KEYS`` (``_BUDGET``, ``_RATE``, ``_BASE_URLS``, ``_SEARXNG``) that is
    not valid JSON reaches validation as written (see :class:`_EnvSource`); the message
    says where the JSON breaks, never the text, which may hold keys. Text that is valid
    JSON is passed on: the table's type then says what it must be (a JSON object).
    """
    if not isinstance(value, str):
        return value
    one_each = f"{ENV_PREFIX}{field.upper()}__<{_TABLE_ENTRY_NAMES[field]}>"
    try:
        decoded = json.loads(value)
    except json.JSONDecodeError as error:
        raise ValueError(
            f"not valid JSON ({error.msg} at character {error.pos + 1}); write a JSON object, "
            f"or set one entry per variable, as {one_each}"
        ) from None
    if decoded is not None and not isinstance(decoded, dict):
        raise ValueError(
            f"must be a JSON object ({{...}}), not {_json_kind(decoded)}; write one, or set one "
            f"entry per variable, as {one_each}"
        )
    return value


def _json_kind(decoded: Any) -> str:
    """What a decoded JSON value is, in words (never the value: it may be a key).

    Example:
        >>> _json_kind([1]), _json_kind(5), _json_kind("k"), _json_kind(True)
        ('a list', 'a number', 'a string', 'true or false')
    """
    if isinstance(decoded, bool):
        return "true or false"
    if isinstance(decoded, list):
        return "a list"
    if isinstance(decoded, str):
        return "a string"
    return "a number"


def _unquoted_entries(table: Any, field: str) -> None:
    """Refuse a provider's entry given as a number (``{"brave": 2000}``), showing it as text.

    The JSON of ``WEBSEARCH_BUDGET`` (or a table given in code) with a number in it was
    answered with pydantic's ``Input should be a valid string``, which does not say that
    a budget is ``"2000/month"``. A budget's or rate's number is shown written as it
    should be; another table's value is not repeated (it may be a key).

    Raises:
        ValueError: An entry of a provider's table is a number, list, object or boolean.
    """
    if not isinstance(table, dict) or _TABLE_ENTRY_NAMES.get(field) != "PROVIDER":
        return
    for key, entry in table.items():
        if isinstance(entry, str) or entry is None:
            continue
        raise ValueError(
            f"{key}: must be text in quotes{_ENTRY_MEANING.get(field, '')}, "
            f'as in {{"{key}": "{_as_text(field, entry)}"}}'
        )


def _as_text(table: str, entry: object) -> str:
    """What a provider table's entry given as a number (or list...) was meant to say.

    The config file's check and the variables' both show it (``2000`` in ``budget`` reads
    ``2000/month``); another table's value is not repeated, as it may be a key.
    """
    period = _ENTRY_FORMS.get(table)
    is_count = isinstance(entry, int | float) and not isinstance(entry, bool)
    return f"{entry}{period}" if period is not None and is_count else "..."


_ENTRY_FORMS = {"budget": "/month", "rate": "/s"}
"""The period a number given alone most likely counts, per table: the form shown back."""
_ENTRY_MEANING = {
    "budget": " (a count and its period, such as 2000/month or 100/day)",
    "rate": " (a count and its period, such as 1/s or 60/minute)",
}
"""What an entry of each table says, for a number given without it."""


class _PicklesWithoutSecrets:
    """Settings that ``pickle`` refuses while a field holds a secret (both settings models).

    Pickle would write a key, token or password in clear text (to a pipe, a checkpoint
    database); see :mod:`websearch_core.settings_pickles`, and the rule tools follow in
    :mod:`websearch_core.tool_pickles`. ``copy.copy``/``copy.deepcopy`` do not come here:
    copies keep their secrets.
    """

    def __getstate__(self) -> Any:
        """What ``pickle`` keeps: the model's state, refused when a field holds a secret.

        Raises:
            TypeError: A field holds a secret; the message names it, never its value.
        """
        from .settings_pickles import picklable_settings  # only when pickled

        picklable_settings(self)  # type: ignore[arg-type]  # only mixed into the models
        return super().__getstate__()


class SearxngSettings(_PicklesWithoutSecrets, BaseModel):
    """A self-hosted SearXNG instance and how to reach it."""

    model_config = ConfigDict(frozen=True, extra="forbid", hide_input_in_errors=True)

    endpoint: str | None = None
    token: SecretStr | None = None
    basic_username: SecretStr | None = None
    basic_password: SecretStr | None = None
    categories: str | None = None
    engines: str | None = None
    language: str | None = None
    safesearch: int | None = None

    @field_validator("endpoint")
    @classmethod
    def _check_endpoint(cls, value: str | None) -> str | None:
        """Refuse an endpoint the search could not use, where it is set.

        ``ftp://x`` or ``searx.example.org`` (no scheme) used to pass: ``websearch
        providers`` showed SearXNG ready, and only the search failed, naming no variable.
        Blank means not configured, as the provider reads it. The value is not repeated:
        it may carry a password, and one cut short by an unencoded ``/`` is refused as a
        base URL is (:func:`_http_base_url`).
        """
        if value is None or not value.strip():
            return value
        stripped = value.strip()
        if not stripped.lower().startswith(("http://", "https://")) or CONTROL_IN_LINE.search(
            value
        ):
            raise ValueError("must be an http(s) URL such as https://searx.example.org")
        if userinfo_cut_short(stripped):
            raise ValueError(CUT_SHORT)
        problem = authority_problem(stripped)  # a port past 65535, say
        if problem == INVALID_AUTHORITY:
            raise ValueError(problem)
        if problem is not None:
            raise ValueError("must be an http(s) URL such as https://searx.example.org")
        return value

    @field_validator("safesearch")
    @classmethod
    def _safesearch(cls, value: int | None) -> int | None:
        if value is not None and value not in (0, 1, 2):
            raise ValueError("searxng.safesearch must be 0 (off), 1 (moderate), or 2 (strict).")
        return value

    def __repr_args__(self) -> Iterable[tuple[str | None, Any]]:
        """The fields as pydantic shows them, a password written into the endpoint masked."""
        for name, value in super().__repr_args__():
            if name == "endpoint" and isinstance(value, str):
                value = masked_password(value)
            yield name, value

    @field_serializer("endpoint", when_used="json")
    def _endpoint_for_json(self, value: str | None) -> str | None:
        """In JSON (a serialised tool or retriever, a log), the password masked as in repr."""
        return None if value is None else masked_password(value)


class _EnvSource(EnvSettingsSource):
    """The ``WEBSEARCH_*`` variables, a table that is not valid JSON passed on as written.

    pydantic-settings decodes a table variable (``WEBSEARCH_API_KEYS='{"brave": ...}'``)
    inside the source, and a typo there raised its own ``SettingsError``: a traceback that
    names the field, not the variable, and no ``ValidationError`` for the command or a tool
    to put in one line. Passed on, the text is refused by the table's validator
    (:func:`_json_table`) like any other bad value, so the error names the variable.
    """

    def _load_env_vars(self) -> Mapping[str, str | None]:
        # The package's rule (env_values.settings_environment): a blank variable is unset,
        # so another spelling, the config file's entry or the default answers.
        # pydantic-settings' env_ignore_empty skips "" only, and lowercased the names
        # before the blank ones were left out here, so a blank spelling could hide a set one.
        return settings_environment()

    def decode_complex_value(self, field_name: str, field: FieldInfo, value: Any) -> Any:
        """The variable's JSON decoded, or its text as written when it is not JSON.

        A table's variable whose JSON is no object (``WEBSEARCH_RATE=5``, ``[1]``) is kept
        as written too, so :func:`_json_table` says what to write; decoded, it met
        pydantic's ``Input should be a valid dictionary`` (for SearXNG ``... or instance of
        SearxngSettings``, a class name), which named neither the fix nor the
        one-entry variables.
        """
        try:
            decoded = super().decode_complex_value(field_name, field, value)
        except ValueError:
            return value
        if field_name in _TABLES and decoded is not None and not isinstance(decoded, dict):
            return value
        return decoded


class _SpecEnvSource(PydanticBaseSettingsSource):
    """Environment names that do not follow the ``WEBSEARCH_`` prefix.

    The spec's ``SEARXNG_*`` names and the per-provider ``WEBSEARCH_<ID>_BASE_URL`` names
    are mapped onto nested settings here, ranked just below the prefixed variables.
    """

    def get_field_value(self, field: Any, field_name: str) -> tuple[Any, str, bool]:
        return None, field_name, False

    def __call__(self) -> dict[str, Any]:
        values: dict[str, Any] = {}
        searxng = {key: value for env, key in _SEARXNG_ENV.items() if (value := env_value(env))}
        if searxng:
            values["searxng"] = searxng
        # In any case of letters, as the prefixed settings' names are read (the later of
        # two spellings wins): websearch_brave_base_url was silently not read at all.
        base_urls = {
            name[len(ENV_PREFIX) : -len(BASE_URL_SUFFIX)].lower(): value
            for name, value in os.environ.items()
            if name.upper().startswith(ENV_PREFIX)
            and name.upper().endswith(BASE_URL_SUFFIX)
            and not is_blank(value)
        }
        base_urls = {key: url for key, url in base_urls.items() if key}
        if base_urls:
            values["base_urls"] = base_urls
        return values


def _setting_names(location: tuple[str | int, ...]) -> Collection[str] | None:
    """The names a setting at ``location`` can have: the settings', or SearXNG's, or none."""
    if len(location) == 1:
        return Settings.model_fields.keys()
    if len(location) == 2 and location[0] == "searxng":
        return SearxngSettings.model_fields.keys()
    return None


def misplaced_setting(location: tuple[str | int, ...]) -> str | None:
    """What to say of a provider id or a search parameter written as a setting, or ``None``.

    A newcomer's config file held ``[brave]`` with ``api_key = "..."`` in it, and was
    answered ``not a setting; did you mean rate?``: the nearest setting by spelling, not
    where a provider's values go. (``searxng`` is a setting of its own, so never here.)
    ``limit = 5`` was ``not a setting`` alone: a limit is given with each search.

    Example:
        >>> misplaced_setting(("tavily",))[:51]
        'not a setting; tavily is a provider: its key (if it'
        >>> misplaced_setting(("limit",))[:42]
        'not a setting; limit is a search parameter'
    """
    if len(location) != 1:
        return None
    name = str(location[0]).strip().lower()
    from .models import search_parameter_note  # only for this error

    note = search_parameter_note(name)
    if note is not None:
        return f"not a setting; {note}"
    if name not in SEARCH_PROVIDER_ORDER or name in Settings.model_fields:
        return None
    # Whether it takes a key is not said: that is the providers' to know, and they import
    # this module (reading it here would close an import cycle).
    return (
        f"not a setting; {name} is a provider: its key (if it takes one), URL and limits go "
        f'in [api_keys], [base_urls], [budget] and [rate] as {name} = "..." (the settings of '
        f'those names); exclude = ["{name}"] leaves it out'
    )


class Settings(_PicklesWithoutSecrets, BaseSettings):
    """Everything configurable, resolved once per :class:`~websearch_core.WebSearch`.

    Example:
        >>> Settings(provider="brave", timeout_seconds=30).timeout_seconds
        30.0
    """

    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX,
        extra="forbid",
        frozen=True,
        env_nested_delimiter="__",
        # A refused value may be a URL with a password (redis_url, proxy, a base URL) or
        # a key: pydantic's error would print it. Our messages name the setting instead.
        hide_input_in_errors=True,
    )

    provider: str | None = None
    """Preferred provider: tried first, then the auto chain. ``auto`` or unset: auto chain."""
    providers: Annotated[tuple[str, ...], NoDecode] = ()
    """An ordered chain of exactly these providers (replaces the auto order)."""
    fallback: bool = True
    """``False`` pins ``provider`` alone: no silent switching to another provider."""
    exclude: Annotated[tuple[str, ...], NoDecode] = ()
    """Providers never used, not even as a fallback."""
    budget: dict[_ProviderKey, str] = Field(default_factory=dict)
    """Request budgets per provider, e.g. ``{"brave": "2000/month"}``."""
    rate: dict[_ProviderKey, str] = Field(default_factory=dict)
    """Request rates per provider (``[rate]`` in the config file), e.g. ``{"brave": "1/s"}``
    or ``"30/min"``: requests are spaced out before sending, across processes too."""
    rate_limit_wait_seconds: float = Field(default=2.0, ge=0, le=60, allow_inf_nan=False)
    """Wait out a ``Retry-After`` up to this long and retry the same provider once."""
    auth_cooldown_seconds: float = Field(
        default=300.0, ge=0, le=MAX_AUTH_COOLDOWN_SECONDS, allow_inf_nan=False
    )
    """How long a provider that refused its credentials is left out (at most 31 days)."""
    cache: bool = True
    """Serve repeated queries from the result cache."""
    cache_ttl_seconds: float = Field(default=900.0, gt=0, allow_inf_nan=False)
    """How long a cached answer counts as fresh."""
    cache_stale_seconds: float = Field(default=7 * 86_400.0, ge=0, allow_inf_nan=False)
    """How long past its TTL a cached answer is kept for when every provider fails."""
    state_backend: Literal["auto", "sqlite", "redis", "memory"] = "auto"
    """Where cooldowns, budgets and the cache live: ``auto`` is Redis when ``redis_url`` is set,
    else SQLite under ``state_dir``."""
    state_dir: Path | None = None
    """Directory of the SQLite state file (default: the user's state directory). ``~`` and
    ``$NAME`` / ``${NAME}`` are expanded; an unset or empty variable is an error. A relative
    path in the config file is taken from the file's directory, elsewhere from the working
    directory."""
    redis_url: str | None = None
    """``WEBSEARCH_REDIS_URL``: share state among processes and machines through Redis."""
    timeout_seconds: float | None = Field(
        default=None, gt=0, le=MAX_TIMEOUT_SECONDS, allow_inf_nan=False
    )
    """Per-provider timeout: one provider's whole attempt, retries included. Unset, it
    depends on the provider's kind (:data:`DEFAULT_TIMEOUTS_BY_KIND`)."""
    deadline_seconds: float = Field(
        default=DEFAULT_DEADLINE_SECONDS, gt=0, le=MAX_DEADLINE_SECONDS, allow_inf_nan=False
    )
    """``WEBSEARCH_DEADLINE_SECONDS``: the whole call (every provider, retry and back-off)."""
    connect_timeout_seconds: float = Field(
        default=DEFAULT_CONNECT_TIMEOUT_SECONDS, gt=0, le=MAX_TIMEOUT_SECONDS, allow_inf_nan=False
    )
    """How long opening one connection may take."""
    state_wait_seconds: float | None = Field(
        default=None, gt=0, le=MAX_STATE_WAIT_SECONDS, allow_inf_nan=False
    )
    """``WEBSEARCH_STATE_WAIT_SECONDS``: how long a search's or fetch's cache lookup, each
    reservation, each provider's failure count or mark (or a success's forgiveness of
    failures) and the cache write may wait for the state store. Unset, a tenth of the
    deadline, at least 0.25 s and at most 1 s: milliseconds are what a local file or a
    nearby Redis takes, so a store that has not answered by then is stuck. A Redis far
    away (a first TLS connection takes several round trips) may need more; at most half
    of ``deadline_seconds``, which it comes out of."""
    proxy: SecretStr | None = None
    """``WEBSEARCH_PROXY``: an HTTP(S) proxy for every provider request (it may carry
    credentials, so it is kept secret). Without it the standard ``HTTPS_PROXY`` /
    ``HTTP_PROXY`` / ``NO_PROXY`` variables apply."""
    gemini_model: str | None = None
    """Gemini grounding model (``WEBSEARCH_GEMINI_MODEL``; ``GEMINI_SEARCH_MODEL`` overrides it,
    as the spec says); default ``gemini-3.5-flash-lite`` (the spec's ``gemini-2.5-flash``
    was shut down by Google on 2026-12-01). With OAuth, a default the account is not served
    gives way to the account's web-search model; a model set here never does."""
    max_response_bytes: int = Field(default=DEFAULT_MAX_RESPONSE_BYTES, ge=1024)
    """Response bodies larger than this are refused, not read."""
    fence_results: bool = False
    """``WEBSEARCH_FENCE_RESULTS``: wrap the search text a model reads between random
    boundary markers as untrusted data, as fetched pages always are. Off by default: the
    spec fixes the plain layout, and short snippets are a small injection surface."""
    api_keys: dict[_KeyOwner, Annotated[SecretStr, AfterValidator(_one_line_key)]] = Field(
        default_factory=dict
    )
    """Keys from the config file (environment variables and explicit arguments rank higher).
    A key holding a control character (a line break, a NUL) is refused, naming its entry."""
    base_urls: dict[_BaseUrlKey, Annotated[str, AfterValidator(_http_base_url)]] = Field(
        default_factory=dict
    )
    """Per-provider origin overrides for gateways, mirrors and tests. Each URL is checked
    on its own, so an error is located at ``base_urls.<id>`` and names the variable or
    config-file entry that set it. ``google_oauth`` is the origin of Google's token
    endpoint, where a Google sign-in is renewed (not Gemini's: its gateway has no ``/token``,
    and is not handed the refresh token)."""
    refresh_hooks: dict[str, str] = Field(default_factory=dict)
    """What renews an expired sign-in for the ``websearch`` command, by its store entry:
    ``MODULE:FUNCTION`` naming an async function, as ``--refresh-hook ENTRY=MODULE:FUNCTION``
    does (a flag for an entry replaces the setting's). ``WEBSEARCH_REFRESH_HOOKS`` takes
    ``codex=my_tokens:refresh_codex,anthropic=...``, ``WEBSEARCH_REFRESH_HOOKS__CODEX`` one,
    the config file a ``[refresh_hooks]`` table. Checked here for its form; the command
    checks each entry and imports its hook, refusing one it cannot use in the same words
    (:mod:`websearch_core.refresh_hooks`).
    In Python, pass ``WebSearch(oauth_refreshers=...)`` instead."""
    sign_in_gateways: Annotated[tuple[str, ...], NoDecode] = ()
    """``WEBSEARCH_SIGN_IN_GATEWAYS``: the ``base_urls`` ids (``codex``, ``google_oauth``...)
    whose URL, though neither the service's own host nor a loopback address, may receive a
    sign-in (an OAuth token, a session cookie). Without it such a provider is
    ``misconfigured`` (:mod:`websearch_core.sign_in_destination`): a sign-in opens the
    user's whole account, so trusting a gateway with it is said in so many words. An id
    trusts the URL set under it (its ``base_urls`` entry, or its provider's own URL
    variable), never another host its requests are built for; only the ids a sign-in is
    sent under may be named (``SIGN_IN_ROUTES``), any other is refused here. A provider of
    your own is not one: its gateway is trusted on the ``Transport`` you build for it
    (:func:`~websearch_core.sign_in_advice.own_provider_gateways` says why, and the
    refusal names it)."""
    searxng: SearxngSettings = Field(default_factory=SearxngSettings)
    credentials_file: Path | None = None
    """The local credential store; default beside the config file. Expanded and resolved
    as ``state_dir`` is."""
    config_file: Path | None = None
    """The TOML file read for this instance (``WEBSEARCH_CONFIG_FILE`` or the default),
    expanded as ``state_dir`` is; one named here or in the variable must exist."""

    @field_validator(*_TABLES, mode="before")
    @classmethod
    def _parse_table(cls, value: Any, info: ValidationInfo) -> Any:
        table = _json_table(value, info.field_name or "")
        _unquoted_entries(table, info.field_name or "")
        return table

    @field_validator("exclude", "providers", "sign_in_gateways", mode="before")
    @classmethod
    def _parse_ids(cls, value: Any) -> Any:
        return _split_ids(value)

    @field_validator("sign_in_gateways")
    @classmethod
    def _known_base_url_ids(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        unknown = unknown_ids(value, BASE_URL_IDS)
        if unknown:
            message = unknown_ids_message(unknown, BASE_URL_IDS)
            raise ValueError(message + own_provider_gateways(unknown))
        ids = tuple(dict.fromkeys(pid.strip().lower() for pid in value))
        signless = signless_gateways(ids)
        if signless:
            raise ValueError(signless_gateways_message(signless))
        return ids

    @field_validator("exclude", "providers")
    @classmethod
    def _known_ids(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        unknown = unknown_ids(value)
        if unknown:
            raise ValueError(unknown_list_ids_message(unknown))
        return value

    @field_validator("state_dir", "credentials_file", "config_file", mode="before")
    @classmethod
    def _blank_path_is_unset(cls, value: object) -> object:
        # pydantic reads "" as Path("."): an empty WEBSEARCH_STATE_DIR (a .env template's
        # blank entry) put the state file in the working directory, and an empty
        # WEBSEARCH_CREDENTIALS_FILE failed every search over "credential store .". Empty
        # means the default, as it always did for WEBSEARCH_CONFIG_FILE's file.
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @field_validator("state_dir", "credentials_file", "config_file")
    @classmethod
    def _expand_paths(cls, value: Path | None) -> Path | None:
        return None if value is None else _expanded_path(value)

    @field_validator("refresh_hooks", mode="before")
    @classmethod
    def _parse_refresh_hooks(cls, value: Any) -> Any:
        from .refresh_hooks import hook_table

        return hook_table(value)

    @field_validator("refresh_hooks")
    @classmethod
    def _check_refresh_hooks(cls, value: dict[str, str]) -> dict[str, str]:
        from .refresh_hooks import check_hook_form

        return _each_entry(value, check_hook_form)

    @field_validator("budget")
    @classmethod
    def _check_budgets(cls, value: dict[str, str]) -> dict[str, str]:
        if not value:  # the parser's import brings the chain and the store: 0.2 s, none needed
            return value
        from .quota import Budget

        return _each_entry(value, Budget.parse)

    @field_validator(*BOUNDED_NUMBERS, mode="wrap")
    @classmethod
    def _in_range(
        cls, value: object, handler: ValidatorFunctionWrapHandler, info: ValidationInfo
    ) -> object:
        """A number past its bounds, worded with its unit and range (:mod:`.setting_bounds`)."""
        field = str(info.field_name)
        return checked_in_range(value, handler, field, cls.model_fields[field].metadata)

    @field_validator("rate")
    @classmethod
    def _check_rates(cls, value: dict[str, str]) -> dict[str, str]:
        if not value:  # as for budgets: nothing to parse, nothing to import
            return value
        from .quota import Rate

        return _each_entry(value, Rate.parse)

    @field_validator("provider", mode="before")
    @classmethod
    def _one_provider(cls, value: Any) -> Any:
        return one_provider_only(value)  # a list, where providers takes one

    @field_validator("provider")
    @classmethod
    def _normalise_provider(cls, value: str | None) -> str | None:
        # Failing where the setting is read, as the lists do; a call's ``provider`` argument
        # and the tools' option read an id through the same function.
        return preferred_provider(value)

    @field_validator("proxy")
    @classmethod
    def _check_proxy(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not value.get_secret_value().startswith(("http://", "https://")):
            raise ValueError("proxy must be an http(s) URL")
        if value is not None and userinfo_cut_short(value.get_secret_value()):
            raise ValueError(f"proxy {CUT_SHORT}")
        problem = None if value is None else authority_problem(value.get_secret_value())
        if problem is not None:
            raise ValueError(f"proxy {problem}")
        return value

    @field_validator("redis_url")
    @classmethod
    def _check_redis_url(cls, value: str | None) -> str | None:
        if value and not value.startswith(_REDIS_SCHEMES):
            schemes = ", ".join(_REDIS_SCHEMES)
            raise ValueError(f"redis_url must start with one of {schemes}")
        # A socket path is a file name, where an '@' is ordinary (/run/user@1000/...).
        if value and not value.startswith("unix://") and userinfo_cut_short(value):
            raise ValueError(f"redis_url {CUT_SHORT}")
        if value:
            try:  # what the Redis client reads when it connects, checked where it is set
                _ = urlsplit(value).port
            except ValueError:
                raise ValueError(f"redis_url {INVALID_AUTHORITY}") from None
        return value or None

    @model_validator(mode="wrap")
    @classmethod
    def _unknown_names_meant(cls, data: Any, handler: ModelWrapValidatorHandler[Self]) -> Self:
        """Refuse a name no setting has with the setting probably meant.

        ``WebSearch(timeout=5)`` was refused with pydantic's ``Extra inputs are not
        permitted`` alone; now ``timeout: not a setting; did you mean timeout_seconds?``.
        The error keeps its type (``extra_forbidden``), location and every other error.
        """
        try:
            return handler(data)
        except ValidationError as error:
            named = named_extras(error, _setting_names, "not a setting", instead=misplaced_setting)
            if named is None:
                raise
            raise named from None

    @model_validator(mode="after")
    def _redis_backend_has_a_url(self) -> Self:
        """Refuse ``state_backend = "redis"`` without ``redis_url`` where it is read.

        It used to pass here and fail at the first search (and ``websearch providers``) as
        ``state_backend 'redis' needs redis_url``, naming neither the config file nor the
        variable that asked for Redis. Raised located at ``state_backend``, the error names
        the entry that set it.
        """
        if self.state_backend == "redis" and not self.redis_url:
            problem = ValueError("'redis' needs a redis_url (WEBSEARCH_REDIS_URL) to connect to")
            detail = InitErrorDetails(
                type="value_error", loc=("state_backend",), input="redis", ctx={"error": problem}
            )
            raise ValidationError.from_exception_data(type(self).__name__, [detail])
        return self

    @model_validator(mode="after")
    def _state_wait_within_the_deadline(self) -> Self:
        """Refuse a store wait longer than half the deadline it comes out of.

        The store's waits are taken from the search's time: a longer one would leave the
        providers little or nothing behind a stuck store, which is what the bound is for.
        A search would cap it at half its deadline (see
        :func:`~websearch_core.deadline.store_share`): refused here, it does not do less
        than it says without a word.
        """
        wait = self.state_wait_seconds
        if wait is not None and wait > self.deadline_seconds * STORE_SETTING_CAP:
            problem = ValueError(
                f"{wait:g} s is more than half of deadline_seconds "
                f"({self.deadline_seconds:g} s), which the state store's waits come out of"
            )
            detail = InitErrorDetails(
                type="value_error", loc=("state_wait_seconds",), input=wait, ctx={"error": problem}
            )
            raise ValidationError.from_exception_data(type(self).__name__, [detail])
        return self

    def __repr_args__(self) -> Iterable[tuple[str | None, Any]]:
        """The fields as pydantic shows them, passwords written into URLs masked."""
        for name, value in super().__repr_args__():
            if name == "redis_url" and isinstance(value, str):
                value = masked_password(value)
            elif name == "base_urls" and isinstance(value, dict):
                value = {pid: masked_password(url) for pid, url in value.items()}
            yield name, value

    @field_serializer("redis_url", when_used="json")
    def _redis_url_for_json(self, value: str | None) -> str | None:
        """In JSON (``model_dump_json`` of a tool or retriever), the password masked.

        Only in JSON: a Python-mode dump is how settings are copied, and must keep them.
        """
        return None if value is None else masked_password(value)

    @field_serializer("base_urls", when_used="json")
    def _base_urls_for_json(self, value: dict[str, str]) -> dict[str, str]:
        """In JSON, each base URL's password masked (see :meth:`_redis_url_for_json`)."""
        return {pid: masked_password(url) for pid, url in value.items()}

    @field_validator("base_urls")
    @classmethod
    def _lower_case_ids(cls, value: dict[str, str]) -> dict[str, str]:
        return {provider.lower(): url for provider, url in value.items()}

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """Rank the sources: kwargs, prefixed env, spec env names, then the TOML file.

        The prefixed variables are read by :class:`_EnvSource`, configured from
        ``model_config`` as ``env_settings`` is (nothing here passes ``_env_*`` arguments).
        """
        toml = _config_file_source(settings_cls, *_chosen_config_file(init_settings))
        return (init_settings, _EnvSource(settings_cls), _SpecEnvSource(settings_cls), toml)

    def provider_timeout(self, kind: str) -> float:
        """The time one provider of ``kind`` gets: ``timeout_seconds``, else its kind's default."""
        if self.timeout_seconds is not None:
            return self.timeout_seconds
        return DEFAULT_TIMEOUTS_BY_KIND.get(kind, DEFAULT_TIMEOUT_SECONDS)

    def resolved_config_file(self) -> Path:
        """The TOML path this instance reads (whether or not it exists)."""
        return self.config_file or default_config_file()

    def state_dir_chosen_by(self) -> str | None:
        """What set ``state_dir``: ``WEBSEARCH_STATE_DIR``, the setting, or ``None`` (default).

        A state store that cannot be opened says its path; a user who did not choose that
        path also needs to know where to change it. The variable, or the config file's
        entry, is named when its value, expanded, is the directory in use (an argument
        outranks both, and is named ``state_dir``). The file is read again only here, when
        a store is opened under a directory the settings chose.
        """
        if self.state_dir is None:
            return None
        variable = f"{ENV_PREFIX}STATE_DIR"
        written = env_value(variable)
        with contextlib.suppress(ValueError):  # a bad variable set nothing in force
            if written is not None and _expanded_path(Path(written)) == self.state_dir:
                return variable
        config_file = self.resolved_config_file()
        with contextlib.suppress(OSError, ValueError):  # unreadable: it set nothing
            entry = load_config_toml(config_file).get("state_dir")
            given = entry if isinstance(entry, str) and entry.strip() else None  # blank: unset
            if given and _expanded_path(Path(_beside(config_file, given))) == self.state_dir:
                return f"config file {config_file} (state_dir)"
        return "state_dir"

    def resolved_credentials_file(self) -> Path:
        """The credential store path: explicit, else beside the config file."""
        if self.credentials_file is not None:
            return self.credentials_file
        return self.resolved_config_file().parent / "credentials.json"


class SettingsOverrides(TypedDict, total=False):
    """The settings ``WebSearch(**overrides)`` takes, typed for a type checker.

    Each key is a :class:`Settings` field (``api_keys`` aside: ``WebSearch`` takes keys as
    its own argument), typed as what the field accepts, so ``WebSearch(timeout=5)`` fails
    under mypy, not only when it runs. A test keeps the keys equal to the fields and each
    type equal to what its field accepts: constraints unchecked, any ``Mapping`` for a
    ``dict``, ``Sequence[str]`` for a list also read from ``"a,b"`` text, ``str`` or
    ``os.PathLike`` for a ``Path``, ``str`` for a ``SecretStr``, a mapping for ``searxng``.
    """

    provider: str | None
    providers: Sequence[str]
    fallback: bool
    exclude: Sequence[str]
    budget: Mapping[str, str]
    rate: Mapping[str, str]
    rate_limit_wait_seconds: float
    auth_cooldown_seconds: float
    cache: bool
    cache_ttl_seconds: float
    cache_stale_seconds: float
    state_backend: Literal["auto", "sqlite", "redis", "memory"]
    state_dir: str | os.PathLike[str] | None
    redis_url: str | None
    timeout_seconds: float | None
    deadline_seconds: float
    connect_timeout_seconds: float
    state_wait_seconds: float | None
    proxy: str | SecretStr | None
    gemini_model: str | None
    max_response_bytes: int
    fence_results: bool
    base_urls: Mapping[str, str]
    refresh_hooks: Mapping[str, str]
    sign_in_gateways: Sequence[str]
    searxng: SearxngSettings | Mapping[str, object]
    credentials_file: str | os.PathLike[str] | None
    config_file: str | os.PathLike[str] | None
