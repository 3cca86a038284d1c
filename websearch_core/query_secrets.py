"""The credentials written into a URL's query string (``?token=...``), by name or by shape.

A SearXNG instance behind a gateway that signs requests in by query parameter is set as
``endpoint = "https://searx.example/?token=<key>"``: the search URL keeps that query, so
the key leaves with every request, and a failing gateway that quotes the request it
refused (``GET /search?token=<key>&q=...``) put the key in the error, its log line and
the tool's text, since only a URL's userinfo was taken for a secret. A base URL may be
written so too. A value is a credential by its name, as for cookies
(:func:`websearch_core.redaction.cookie_secrets`): a name holding a credential word, or
one of the short names gateways read a key from (:data:`CREDENTIAL_NAMES`); or by its
shape (:func:`_is_token_shaped`), since a gateway may name its key as it likes (``?x=``).
A long value of words (``engines=google,duckduckgo,bing``) is a setting, and masking it
would mangle every text naming those engines.

A name no list knows (:data:`SETTING_NAMES`, the credential names) says something too:
SearXNG reads only its own parameters, and a provider's base URL only its API's, so a
parameter nobody named reads is there for something between us and the upstream (a
gateway), which reads its key from it. A single word of
``redaction.MIN_SECRET_LENGTH`` (4) to 15 letters or digits under such a name
(``?t=abcdefgh``, ``?gw=Qx7w``) is taken for that key, letters alone included: nothing in
the word tells it from a key, and a word a user wrote there masked in an answer costs a
word, where a key shown costs the key. A number alone or a switch (``true``, ``json``)
stays a setting's value (:data:`ORDINARY_VALUES`). Such a word is masked in failures and
logs only (where a gateway quotes the request), never in a successful answer: a key is
never in a provider's answer about the world, and a word there is the world's. A word
under a setting's name that the setting never takes (``?language=Qx7w``: no language
tag) is read the same way (:mod:`websearch_core.setting_values`).

A word a setting does take (``?engines=hunterxyzw``), or any word under a setting whose
values are free (``?model=Qx7w``), is told from that setting's value by nothing in it;
masked alone, it would take the engine's name out of the unanswered engines' line and
every such word out of an error. Where it stands after its name, as a gateway quotes the
request it refused (``GET /search?engines=hunterxyzw&q=``, ``engines: hunterxyzw``), or in
quotes, as an error echoes a value it was given (``Invalid value "hunterxyzw"``), the
place says it is the URL's: that pair or quote is masked whole, on the failure path only
(:func:`setting_pairs`). The bare word stays shown. A value the setting's documents name
(``theme=simple``, ``engines=google``) is no secret and stays shown with its name too.
"""

import re
from urllib.parse import parse_qsl, unquote, urlsplit

from .redaction import MIN_SECRET_LENGTH
from .setting_values import documented, fits_setting

__all__ = [
    "CREDENTIAL_NAMES",
    "CREDENTIAL_WORDS",
    "ORDINARY_VALUES",
    "SETTING_NAMES",
    "SHORT_KEY_LENGTH",
    "TOKEN_LENGTH",
    "query_secrets",
    "setting_pairs",
]

CREDENTIAL_WORDS = ("key", "token", "auth", "secret", "pass", "sig", "session", "credential")
"""A query parameter whose name holds one of these (case aside) carries a credential:
``key``, ``api_key``, ``apikey``, ``access_token``, ``auth``, ``client_secret``,
``password``, ``sig``/``signature``, ``session``, ``credentials``. The one name the
behaviour reference documents for a key in a query, Exa MCP's ``exaApiKey``, is one."""
CREDENTIAL_NAMES = frozenset({"code", "pw", "pwd", "jwt", "hmac", "q", "k"})
"""Whole names (case aside) that carry a credential though they hold no credential word:
Azure Functions' function key (``?code=``), a password (``?pwd=``), a signed token
(``?jwt=``, ``?hmac=``), and the short names a gateway reads its key from (``?q=``, ``?k=``:
the search's own query is never part of a configured URL). Whole names only:
``country_code=de`` or ``language_code=en-US`` is a setting."""
TOKEN_LENGTH = 16
"""A value holding a run this long of letters and digits mixed is a credential under any
name (``?x=<key>``): the shape of a key (``redaction``'s ``MIN_TOKEN_LENGTH``), never of
a setting's words."""
_RUN = re.compile(rf"[A-Za-z0-9]{{{TOKEN_LENGTH},}}")
SHORT_KEY_LENGTH = 8
"""A value that is one word of this many letters and digits mixed, nothing else, is a
credential under any name too (``?t=Zq81mWx4``): a short key the user wrote into the
URL. As many characters as a key's head (``redaction.PREFIX_LENGTH``); a setting's value
is words (``simple``, ``general``), numbers or dates (``2024-06-01``), or names written
with separators (``gpt-4o-mini``), and a short value of letters alone (``?t=abcdefgh``)
stays unread: nothing tells it from a setting's word."""
_SHORT_KEY = re.compile(rf"[A-Za-z0-9]{{{SHORT_KEY_LENGTH},{TOKEN_LENGTH - 1}}}")
SETTING_NAMES = frozenset(
    {
        # SearXNG's search parameters and preferences, as its search API documents them.
        "q",
        "categories",
        "engines",
        "language",
        "pageno",
        "time_range",
        "format",
        "results_on_new_tab",
        "image_proxy",
        "autocomplete",
        "safesearch",
        "theme",
        "enabled_plugins",
        "disabled_plugins",
        "enabled_engines",
        "disabled_engines",
        # What a base URL's API reads beside its key (Azure's version and deployment).
        "api-version",
        "deployment",
        "tenant",
        "model",
        "region",
        "locale",
        "lang",
        "country",
        "country_code",
        "version",
    }
)
"""Names (case aside) whose values are settings read by SearXNG or a provider's API: a
word under one is that setting's value. ``q`` is a credential name too (a gateway's),
so it is read as one: the search's own query is never part of a configured URL."""
ORDINARY_VALUES = frozenset(
    {"true", "false", "none", "null", "auto", "json", "html", "xml", "rss", "csv", "default"}
)
"""Words that are a switch's or a format's value under any name, never a key."""
_WORD = re.compile(rf"[A-Za-z0-9]{{{MIN_SECRET_LENGTH},{TOKEN_LENGTH - 1}}}")


def query_secrets(url: str, *, unread_words: bool = True) -> tuple[str, ...]:
    """The values of ``url``'s query parameters that are credentials, by name or shape.

    Each as written (``%2B`` and all: a server quoting the request line echoes it so)
    and decoded (as a server that read the parameter quotes it). Empty values are none.

    Args:
        url: The configured URL (the SearXNG endpoint, a base URL).
        unread_words: Whether a word under a name nothing reads (:func:`_is_unread_word`)
            is one: ``False`` for the mask of a successful answer, which such a word may
            be (``coffee``), where a key is never; errors and logs mask it.

    Example:
        >>> query_secrets("https://searx.example/?token=ab%2Bcd&format=json")
        ('ab+cd', 'ab%2Bcd')
        >>> query_secrets("https://searx.example/?engines=google,bing"), query_secrets("x")
        ((), ())
    """
    found: list[str] = []
    for pair in _query(url).split("&"):
        name, equals, written = pair.partition("=")
        if not equals or not written:
            continue
        value = unquote(written)
        if not (
            _names_credential(name)
            or _is_token_shaped(value)
            or (unread_words and _is_unread_word(name, value))
        ):
            continue
        decoded = parse_qsl(pair, keep_blank_values=True)
        found.extend([value for _, value in decoded])
        found.append(written)
    return tuple(dict.fromkeys(value for value in found if value))


def setting_pairs(url: str) -> tuple[str, ...]:
    """Each word under a setting's name in ``url``'s query, with its name: ``model=Qx7w``.

    And quoted alone (``'Qx7w'``, :func:`_quoted_pairs`). What a failure's mask adds to
    :func:`query_secrets` (never an answer's, nor a fetched page's: the word is the
    setting's there). A value :func:`query_secrets` takes
    is masked alone already, so it is left out; so is a value the setting's documents
    name (:func:`~.setting_values.documented`): anyone can read it there, and masking it
    costs the reader the request's settings for nothing.

    Example:
        >>> setting_pairs("https://searx.example/?model=Qx7w&pageno=2")[:3]
        ('model=Qx7w', '"model": "Qx7w"', '"model":"Qx7w"')
        >>> setting_pairs("https://searx.example/?language=Qx7w&format=json"), setting_pairs("x")
        ((), ())
        >>> setting_pairs("https://searx.example/?theme=simple&engines=google")
        ()
    """
    found: list[str] = []
    for pair in _query(url).split("&"):
        name, equals, written = pair.partition("=")
        value = unquote(written)
        if equals and value in query_secrets(f"?{pair}"):
            continue
        if equals and _is_setting_word(name, value) and not documented(unquote(name), value):
            found.extend(_quoted_pairs(name, written, value))
    return tuple(dict.fromkeys(found))


def _query(url: str) -> str:
    """``url``'s query string, or ``""`` for a URL with none or one that will not split.

    A bad port or bracket: the URL's own check names it where it is set.

    Example:
        >>> _query("https://searx.example/?theme=simple"), _query("https://[x/?a=b")
        ('theme=simple', '')
    """
    if "?" not in url:
        return ""
    try:
        return urlsplit(url).query
    except ValueError:
        return ""


def _is_setting_word(name: str, value: str) -> bool:
    """Whether ``value`` is one word under a setting's ``name``, as a short key would be.

    The shape :func:`_is_unread_word` takes under a name nothing reads (4-15 letters or
    digits, no number alone, no switch), under a name SearXNG or an API does read.

    Example:
        >>> _is_setting_word("theme", "abcdefghij"), _is_setting_word("model", "Qx7w")
        (True, True)
        >>> _is_setting_word("model", "gpt-4o-mini"), _is_setting_word("pageno", "2")
        (False, False)
        >>> _is_setting_word("format", "json"), _is_setting_word("gw", "Qx7w")
        (False, False)
    """
    if unquote(name).lower() not in SETTING_NAMES or _WORD.fullmatch(value) is None:
        return False
    return not value.isdigit() and value.lower() not in ORDINARY_VALUES


_PAIR_FORMS = (
    '"{name}": "{value}"',
    '"{name}":"{value}"',
    "'{name}': '{value}'",
    "{name}: {value}",
    '{name}: "{value}"',
    "{name} = {value}",
    '{name}="{value}"',
    "{name}='{value}'",
    '"{name}" => "{value}"',
    '"{name}"=>"{value}"',
    "'{name}' => '{value}'",
    "[{name}] => {value}",
    "{name} => {value}",
)
"""The forms a log or an error writes a parameter's name and value in, besides the query's
``name=value``: JSON (compact too), a Python ``repr``, YAML (plain and quoted), ``name =
value``, logfmt, and the arrows of Ruby's ``inspect`` (spaced since 3.4), Perl's
``Data::Dumper``, PHP's ``print_r`` and a plain log. Each is masked whole as a literal
(``Redactor``'s failure-only words, the crash report's too), its blanks read as any run of
blanks or ``+`` (a spaced pair inside a query string), so each costs one more alternative:
the mask stays linear in the text."""
_ALONE_FORMS = ("'{value}'", '"{value}"', "`{value}`")
"""The word quoted alone, as a value echoed back is: a ``repr``, SearXNG's own ``Invalid
value "<value>" for parameter <name>``, OpenAI's ``The model `<value>` does not exist``.
The quote says the text quotes a value it was given; the bare word stays (an engine's name
in the unanswered engines' line, the word anywhere else in an error)."""


def _quoted_pairs(name: str, written: str, value: str) -> list[str]:
    """A setting's word with its name, as a quoted request writes it: ``engines=hunterxyzw``.

    As written in the URL and decoded, and in the forms a gateway's log writes a request's
    parameters in (:data:`_PAIR_FORMS`): a JSON object's member (``"engines":
    "hunterxyzw"``), a Python ``repr``'s, YAML's ``engines: hunterxyzw``, ``engines =
    hunterxyzw``, logfmt's ``engines="hunterxyzw"``, ``engines => hunterxyzw``; and the
    word quoted alone (:data:`_ALONE_FORMS`: ``'hunterxyzw'``). The bare word is as likely
    the setting's own (an engine named in the unanswered engines' line), so only these
    are masked, and only on the failure path.

    Example:
        >>> _quoted_pairs("engines", "hunterxyzw", "hunterxyzw")[:3]
        ['engines=hunterxyzw', '"engines": "hunterxyzw"', '"engines":"hunterxyzw"']
        >>> _quoted_pairs("model", "Qx%37w", "Qx7w")[:2]
        ['model=Qx%37w', 'model=Qx7w']
    """
    decoded = unquote(name)
    pairs = [f"{name}={written}", f"{decoded}={value}"]
    for form in _PAIR_FORMS:
        pairs.append(form.format(name=decoded, value=value))
    pairs.extend(form.format(value=value) for form in _ALONE_FORMS)
    return list(dict.fromkeys(pairs))


def _names_credential(name: str) -> bool:
    """Whether a query parameter's name (as written) says its value is a credential."""
    lowered = name.lower()
    return lowered in CREDENTIAL_NAMES or any(word in lowered for word in CREDENTIAL_WORDS)


def _is_token_shaped(value: str) -> bool:
    """Whether ``value`` looks like a key whatever its name: a run of letters and digits.

    A run of :data:`TOKEN_LENGTH` letters and digits, both in it, with no separator: a key's
    random part (``sk-proj-<32>``, ``tvly-dev-<32>``, ``BSA<28>``); or the whole value such
    a word of :data:`SHORT_KEY_LENGTH` or more (``Zq81mWx4``). A setting's words, a
    model's name, a date or a version (``gpt-4o-mini-2024-07-18``, ``2024-06-01``) have
    none, so a base URL's ``?api-version=`` or ``?deployment=`` stays ordinary text.

    Example:
        >>> _is_token_shaped("tvly-dev-2f9c1e7a5b3d4c6e8f0a")
        True
        >>> _is_token_shaped("Zq81mWx4"), _is_token_shaped("Zq81mWx4,bing")
        (True, False)
        >>> _is_token_shaped("gpt-4o-mini-2024-07-18"), _is_token_shaped("general,science")
        (False, False)
    """
    runs = _RUN.findall(value)
    if _SHORT_KEY.fullmatch(value):
        runs.append(value)
    return any(
        any(char.isdigit() for char in run) and any(char.isalpha() for char in run) for run in runs
    )


def _is_unread_word(name: str, value: str) -> bool:
    """Whether ``value`` is one word no reader takes under ``name``: a key.

    Under a name neither SearXNG nor an API reads; or under a setting's name, of a shape
    that setting never takes (:func:`~.setting_values.fits_setting`: ``?language=Qx7w``,
    ``?format=Kp9vTq``), which SearXNG refuses or ignores as that setting.

    Example:
        >>> _is_unread_word("t", "abcdefgh"), _is_unread_word("gw", "Qx7w")
        (True, True)
        >>> _is_unread_word("theme", "simple"), _is_unread_word("debug", "true")
        (False, False)
        >>> _is_unread_word("page", "20240601"), _is_unread_word("t", "abc")
        (False, False)
        >>> _is_unread_word("language", "Qx7w"), _is_unread_word("language", "en-US")
        (True, False)
    """
    name = unquote(name).lower()
    if (name in SETTING_NAMES and fits_setting(name, value)) or _WORD.fullmatch(value) is None:
        return False
    return not value.isdigit() and value.lower() not in ORDINARY_VALUES
