"""Environment variables as every part of the package reads them: one rule, and fast reads.

The rule: **a variable set to an empty or blank value is unset.** ``WEBSEARCH_TIMEOUT_SECONDS=``
(a ``.env`` template's blank entry, an ``export VAR=`` meant to clear it) lets the next source
answer, the config file's entry and then the default, as if the variable were absent. It
used to depend on the variable: some such values were errors (``Input should be a valid
number``), some hid the config file's entry (``WEBSEARCH_PROVIDER=`` dropped its
``provider``), some were empty values (``SEARXNG_ENDPOINT=``), some meant the default.
:func:`env_value` applies it; the settings' sources, the browser's and the fetcher's switches
and the providers' own variables read through it. The proxy variables follow it in their
own way (:mod:`~websearch_core.env_proxies`): a blank one names no proxy, in either case,
and the lowercase name is read first, as the standard library, requests, curl and Chromium
read them, so a blank lowercase ``http_proxy`` means "no proxy" even with ``HTTP_PROXY`` set.

Settings that may change while a client lives (a key exported later, a proxy switched)
are asked again per search or per request; comparing their values is how an answer
worked out from them is kept. ``os.environ`` encodes each name on every lookup, which is
what makes the plain way slow (:func:`values_reader`). The fast reads use its private
table (``_data``, ``encodekey``, ``decodevalue``; checked on CPython 3.11.7) only when all
three are there in the shapes that release has; otherwise every name is asked through
``os.environ.get``, the same answers at the plain speed.
"""

import os
from collections.abc import Callable, Mapping

__all__ = [
    "env_value",
    "is_blank",
    "setting_variable",
    "settings_environment",
    "value_getter",
    "values_reader",
]


def is_blank(value: str | None) -> bool:
    """Whether a variable's value counts as unset: absent, empty, or whitespace only."""
    return value is None or not value.strip()


def env_value(name: str, environ: Mapping[str, str] | None = None) -> str | None:
    """``name``'s value as written, or ``None`` when it is unset, empty or blank.

    Example:
        >>> env_value("WEBSEARCH_PROVIDER", {"WEBSEARCH_PROVIDER": "  "}) is None
        True
    """
    value = (os.environ if environ is None else environ).get(name)
    return None if is_blank(value) else value


def settings_environment(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment as the settings read it: each name lowercased, a blank one left out.

    The settings match their variables whatever the case of the letters
    (``websearch_deadline_seconds`` is ``WEBSEARCH_DEADLINE_SECONDS``), as pydantic-settings
    does by default. Two spellings set at once: the later in the environment's order wins,
    as there. A blank spelling is unset (the rule above), so it leaves the other's value:
    left in, a blank ``websearch_deadline_seconds`` set after ``WEBSEARCH_DEADLINE_SECONDS=5``
    hid the 5 and the config file's value or the default answered.

    One function, so that what a call knows before its settings are read
    (:func:`setting_variable`) is what they then read.

    Example:
        >>> settings_environment({"WEBSEARCH_A": "1", "websearch_a": " ", "X": "2"})
        {'websearch_a': '1', 'x': '2'}
    """
    return {
        name.lower(): value
        for name, value in (os.environ if environ is None else environ).items()
        if not is_blank(value)
    }


def setting_variable(name: str, environ: Mapping[str, str] | None = None) -> str | None:
    """Setting variable ``name``'s value as the settings read it (:func:`settings_environment`).

    Reads the whole environment (some dozens of names): for a call's first build, not for
    every search.

    Example:
        >>> setting_variable("WEBSEARCH_DEADLINE_SECONDS", {"websearch_deadline_seconds": "3"})
        '3'
    """
    return settings_environment(environ).get(name.lower())


def setting_variable_spelling(name: str, environ: Mapping[str, str] | None = None) -> str | None:
    """The spelling of setting variable ``name`` the settings read, as it is set; else ``None``.

    A value set as ``websearch_timeout_seconds=0`` was refused as ``timeout_seconds: ...``,
    a line naming no variable, where ``WEBSEARCH_TIMEOUT_SECONDS=0`` named its own: an
    error names the variable as the user wrote it. Of two spellings set, the later in the
    environment is the one read (:func:`settings_environment`), so it is the one named.

    Example:
        >>> setting_variable_spelling("WEBSEARCH_A", {"websearch_a": "1", "Websearch_A": " "})
        'websearch_a'
    """
    wanted, spelling = name.lower(), None
    for given, value in (os.environ if environ is None else environ).items():
        if given.lower() == wanted and not is_blank(value):
            spelling = given
    return spelling


def values_reader(
    environ: Mapping[str, str], names: tuple[str, ...]
) -> Callable[[], tuple[object, ...]]:
    """A call that gives the values of ``names`` in ``environ``, equal when they are.

    ``os.environ`` encodes each name on every lookup (20 variables: about 14 us); its own
    table, with the names encoded once, is read in one pass (under 1 us). That is where
    every write through ``os.environ`` (``monkeypatch.setenv`` too) lands, and what every
    lookup reads, so the values compare as the lookups' answers do. Any other mapping is
    asked name by name.

    Example:
        >>> read = values_reader({"A": "1"}, ("A", "B"))
        >>> read()
        ('1', None)
    """
    table = getattr(environ, "_data", None)
    encode = getattr(environ, "encodekey", None)
    if environ is os.environ and isinstance(table, dict) and callable(encode):
        keys = tuple(encode(name) for name in names)
        lookup = table.get
        return lambda: tuple(map(lookup, keys))
    get = environ.get
    return lambda: tuple(map(get, names))


def value_getter(environ: Mapping[str, str]) -> Callable[[str], str | None]:
    """``environ.get`` as one call, for the variables a client reads on every search.

    For ``os.environ`` it reads the same table as :func:`values_reader`, each name encoded
    once rather than at every lookup, and an unset variable is a ``None`` from that table
    instead of the ``KeyError`` ``os.environ.get`` raises and catches inside: a key or a
    base URL looked up per search cost about 0.7 us that way. The value is decoded as
    ``os.environ`` decodes it, so the answer is the one ``environ.get`` gives. Any other
    mapping is asked as it is.

    Example:
        >>> value_getter({"A": "1"})("A"), value_getter({"A": "1"})("B")
        ('1', None)
    """
    table = getattr(environ, "_data", None)
    encode = getattr(environ, "encodekey", None)
    decode = getattr(environ, "decodevalue", None)
    if not (
        environ is os.environ and isinstance(table, dict) and callable(encode) and callable(decode)
    ):
        return environ.get
    keys: dict[str, object] = {}  # the names a client reads: a few dozen at most
    lookup = table.get

    def get(name: str) -> str | None:
        key = keys.get(name)
        if key is None:
            key = keys[name] = encode(name)
        value = lookup(key)
        if value is None:
            return None
        decoded: str = decode(value)
        return decoded

    return get
