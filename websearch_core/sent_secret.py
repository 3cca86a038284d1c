r"""A secret a provider puts into a request, where the user set it, and the one rule for it.

Every credential a provider sends (an API key, a stored OAuth token, a session cookie
header, a SearXNG token or password) goes into a header, and a header cannot hold a
control character: ``BRAVE_API_KEY="k\r\ney"`` or a hand-edited store entry used to reach
the transport and fail as ``request was not sent``, which names neither the variable nor
the store. Each source is described here as a :class:`SentSecret`, and :meth:`problem`
is the one place that decides and words the refusal, so the providers table, the chain's
skip and a forced provider's fallback all say the same, never showing the value.

Some values can be sent but can never work, and were found out only as an authorization
error from the provider, with nothing pointing at the cause: a key pasted with the quotes
of a ``.env`` file (``"BSA..."``), the whole assignment (``BRAVE_API_KEY=BSA...``), or a
zero-width or no-break space picked up from a web page or a chat. :func:`flaw` names
those too; ``websearch auth set`` and the ``api_keys`` setting refuse a key by the same
rule, so what is refused where a key is set and what is skipped where it is met agree.
"""

import re
import string
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from urllib.parse import unquote

from .control_chars import CONTROL_IN_LINE

__all__ = [
    "AUTHORIZATION_CLASH",
    "UNSENDABLE",
    "CredentialCheck",
    "KeptChecks",
    "SentSecret",
    "check_secrets",
    "first_problem",
    "flaw",
    "in_variable",
    "invisible_at",
    "key_in_code_problem",
    "kind_of",
    "starts_with_assignment",
]

UNSENDABLE = "contains a control character (a line break, a NUL), so it cannot be sent"
"""Why such a secret is refused, between where it is and how to fix it."""

_SENT_AS_PART = "that would be sent as part of it"
"""Why a character that can be sent is still refused: the provider gets it with the key
and refuses the key, in an error that does not say why."""

_LOOK_ALIKE = "API keys are ASCII only, so it is likely a look-alike of an ASCII character"
"""Why a letter beyond ASCII is refused in a key: every provider's keys are letters, digits
and ``-_.=`` of ASCII (sent in a header, which carries ASCII), so a Cyrillic ``а`` or a
fullwidth ``ｋ`` is one copied from a document or typed on another keyboard layout."""

_QUOTES = "\"'`\u2018\u2019\u201a\u201c\u201d\u201e\u00ab\u00bb\u2039\u203a\uff02\uff07"
"""Quote marks, typographic ones included (a key copied from a document or a chat)."""
_QUOTE_OR_SPACE = re.compile(f"[{_QUOTES} ]")
_ASSIGNMENT = re.compile(r"(?:export\s+)?[A-Z][A-Z0-9_]*=(?!=*$)")
"""What no API key holds: a quote mark, a space, a leading ``NAME=`` (the other spaces are
not ASCII, and named with the invisible characters). Provider keys are letters, digits and
``-_.`` (``BSA...``, ``tvly-...``, ``sk-ant-...``, ``AIza...``, a UUID, hex), at most
ending in base64's ``=`` padding, which the look-ahead lets pass (``QUJD==``). A
variable's name is upper case by convention, so ``BRAVE_API_KEY=`` is taken for one and
``abc=`` is not."""
_IGNORABLE = frozenset(
    "\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180e\u180f\u3164\uffa0"
    + "".join(map(chr, range(0xFE00, 0xFE10)))
)
"""Characters that show nothing though they are letters or marks to Unicode (the Hangul
fillers, the variation selectors): Unicode's default-ignorable code points outside the
format category ``Cf``, which holds the rest (U+200B, U+FEFF, the soft hyphen)."""


def _invisible(value: str, *, spaces: bool) -> str | None:
    """The first character of ``value`` that shows nothing, as ``U+200B ZERO WIDTH SPACE``."""
    found = invisible_at(value, spaces=spaces)
    return None if found is None else found[1]


def invisible_at(value: str, *, spaces: bool) -> tuple[int, str] | None:
    r"""The place (from 0) and name of the first character of ``value`` that shows nothing.

    The one test of what cannot be seen in a value we quote back (a secret's flaw, a
    provider id no provider has): Unicode's format characters (U+200B, U+FEFF, the soft
    hyphen), the default-ignorable letters and marks, and with ``spaces`` every space
    beyond ASCII. ASCII text holds none (its spaces and controls are checked on their
    own), so it is looked at character by character only when it has a character beyond.

    Example:
        >>> invisible_at("\ufeffbrave", spaces=False)
        (0, 'U+FEFF ZERO WIDTH NO-BREAK SPACE')
        >>> invisible_at("brave", spaces=True) is None
        True
    """
    if value.isascii():
        return None
    for place, character in enumerate(value):
        if character.isascii():
            continue
        category = unicodedata.category(character)
        if (
            category == "Cf"
            or character in _IGNORABLE
            or 0xE0100 <= ord(character) <= 0xE01EF  # the supplementary variation selectors
            or (spaces and category in ("Zs", "Zl", "Zp"))
        ):
            name = unicodedata.name(character, "")
            return place, f"U+{ord(character):04X} {name}".rstrip()
    return None


_KINDS = {"L": "letter", "N": "digit", "P": "punctuation mark", "S": "symbol", "M": "mark"}
"""What a character beyond ASCII is called by its Unicode category's first letter."""
_WIDTHS = ("FULLWIDTH", "HALFWIDTH")
"""The first word of a name that says a letter is an ASCII one drawn wide or narrow."""


def _beyond_ascii(value: str) -> str | None:
    """The first character of ``value`` beyond ASCII, by kind and place, not by itself.

    ``a Cyrillic letter at character 7``: the script (or ``fullwidth``) and the
    category say why a key that looks right is refused (a look-alike of ``a`` or ``o``),
    and the place lets the user find it, while the character, a part of the key, is
    never shown.
    """
    if value.isascii():
        return None
    for position, character in enumerate(value, start=1):
        if not character.isascii():
            return f"{kind_of(character)} at character {position}"
    return None


def kind_of(character: str) -> str:
    r"""What a character beyond ASCII is, with its article, never the character itself.

    The one naming of a look-alike, for a key (where the character, a part of a secret,
    is never shown) and a provider id (where its code point follows): the script or the
    width says why text that reads right is refused.

    Example:
        >>> kind_of("\u0430"), kind_of("\uff42"), kind_of("\u00e9")
        ('a Cyrillic letter', 'a fullwidth letter', 'a Latin letter beyond ASCII')
    """
    kind = _KINDS.get(unicodedata.category(character)[0], "character")
    first = unicodedata.name(character, "").partition(" ")[0]
    if first in _WIDTHS:
        kind = f"{first.lower()} {kind}"
    elif kind == "letter" and first.isalpha() and first != "LATIN":
        kind = f"{first.capitalize()} letter"
    else:
        kind = f"{kind} beyond ASCII" if kind != "letter" else "Latin letter beyond ASCII"
    article = "an" if kind[0] in "AEIOUaeiou" else "a"
    return f"{article} {kind}"


_IN_URL = frozenset(string.ascii_letters + string.digits + "-._~!$&'()*+,;=:%")
"""What the user info of a URL holds as written (RFC 3986: unreserved, sub-delims, ``:``
and percent escapes); anything else is sent as no one meant it, or not at all."""
_ENCODE_IT = "which a URL holds only percent-encoded (a space as %20)"


def _url_flaw(value: str) -> str | None:
    """Why a user name or password as written into a URL cannot be what is meant.

    Written into ``https://user:pw@host``, a password is sent as ``Authorization: Basic``:
    a space, a ``"`` or a letter beyond ASCII that a URL cannot hold as it is came from
    pasting (a password's own space is written ``%20``); one wrapped in ``'...'`` has
    the quotes of a shell or ``.env`` line around it. What its escapes decode to is then
    checked as any secret is (a ``%0A`` line break, a ``%E2%80%8B`` zero-width space).
    """
    if CONTROL_IN_LINE.search(value) is not None:
        return UNSENDABLE
    for character in value:
        if character in _IN_URL:
            continue
        if character == " ":
            return f"contains a space, {_ENCODE_IT}"
        if character in _QUOTES:
            return f"contains a quote mark ({character}), {_ENCODE_IT}"
        if character.isascii():
            return f"contains a character ({character}) {_ENCODE_IT}"
        invisible = _invisible(character, spaces=True)
        named = f"an invisible character ({invisible})" if invisible else _beyond_ascii(value)
        return f"contains {named}, {_ENCODE_IT}"
    if len(value) >= 2 and value[0] == value[-1] == "'":
        return f"is wrapped in quote marks (') {_SENT_AS_PART}"
    return flaw(unquote(value), key=False)


def starts_with_assignment(value: str) -> bool:
    """Whether ``value`` opens as a ``.env`` line or an ``export``: ``BRAVE_API_KEY=...``.

    The one test :func:`flaw` refuses a key's leading ``NAME=`` by, for a command that says
    more about it (``websearch auth set``, given the whole line).

    Example:
        >>> starts_with_assignment("export BRAVE_API_KEY=BSAabc"), starts_with_assignment("QUJD==")
        (True, False)
    """
    return _ASSIGNMENT.match(value) is not None


def flaw(value: str, *, key: bool) -> str | None:
    """Why ``value`` cannot be sent or can never be accepted, as a clause, or ``None``.

    The clause follows what the value is and where it was set (``Brave API key in
    BRAVE_API_KEY <clause>``) and names the character, never the value. Every secret is
    refused a control character (it cannot go into a header) and an invisible one; an
    API key (``key=True``) also a quote mark, a space of any kind, a leading ``NAME=``,
    and any other character beyond ASCII (a Cyrillic ``а`` in ``BSAаbc``), named by its
    kind and place. A cookie header or a password may hold those, so they are not refused.

    Args:
        value: The secret as it would be sent (already trimmed).
        key: Whether it is an API key, whose shapes are known.

    Example:
        >>> flaw('"BSAabc"', key=True)
        'contains a quote mark (") that would be sent as part of it'
        >>> flaw("BSA\u200babc", key=False)
        'contains an invisible character (U+200B ZERO WIDTH SPACE) that would be sent as part of it'
        >>> flaw("QUJDRA==", key=True) is None
        True
        >>> flaw("BSA\u0430bc", key=True)  # doctest: +ELLIPSIS
        'contains a Cyrillic letter at character 4 (API keys are ASCII only, ...
    """
    if CONTROL_IN_LINE.search(value) is not None:
        return UNSENDABLE
    if key:
        # A stand-in is named first: a quote or space around it is not what to fix.
        stand_in = _placeholder(value) if value.isascii() else None
        if stand_in is not None:
            return stand_in
        if _ASSIGNMENT.match(value) is not None:
            return f"starts with a variable's name and an equals sign (NAME=) {_SENT_AS_PART}"
        mark = _QUOTE_OR_SPACE.search(value)
        if mark is not None and mark.group() == " ":
            return f"contains a space {_SENT_AS_PART}"
        if mark is not None:
            return f"contains a quote mark ({mark.group()}) {_SENT_AS_PART}"
    invisible = _invisible(value, spaces=key)
    if invisible is not None:
        return f"contains an invisible character ({invisible}) {_SENT_AS_PART}"
    if key:
        beyond = _beyond_ascii(value)
        if beyond is not None:
            return f"contains {beyond} ({_LOOK_ALIKE}) {_SENT_AS_PART}"
    return None


_LETTER_OR_DIGIT = re.compile("[A-Za-z0-9]")
"""A key is ASCII by the time it is looked at here (:func:`flaw` asks only then); a search
stops at the first match, the key's first character (0.1 us, not a generator's 0.6)."""
_PLACEHOLDER = "is a placeholder, not a key"
"""Why a template's stand-in is refused: what follows says which shape gave it away."""
_TEMPLATE_WORD = re.compile(
    r"(?<![a-z0-9])(?:your|here|changeme|todo|fixme|replace|insert|placeholder|x{4,})"
    r"(?![a-z0-9])",
    re.IGNORECASE,
)
"""A word only a template writes where a key goes, standing alone between the ends or
characters that are not letters or digits (``YOUR_BRAVE_API_KEY``, ``api_key_here``,
``REPLACE_ME``, ``INSERT_KEY``, the captures' ``fc-YOUR_API_KEY``), or ``xxxx`` and longer
for hidden characters (``xxxxxxxx``, ``sk-XXXX-XXXX``). A provider's key is random after its
prefix (``BSA``, ``sk-ant-``): hex holds none of these, and random base64 one cut out by
``-``, ``_`` or ``.`` on both sides about once in a billion keys. ``key``, ``api``,
``token`` and a repeated letter other than x are not among them: test and local keys are
made of those (``fake-gemini-key``, ``aaaa``); a value that is such a word and nothing
else is :data:`_TEMPLATE_NAME`, and three x's are :data:`_THREE_XS`."""
_THREE_XS = r"(?i:(?:[a-z0-9]{1,5}[-_]){0,3}xxx)"
"""Three x's for the key, alone or after a provider's prefix (``xxx``, ``sk-xxx``,
``tvly-dev-xxx``), matched whole: at most 21 characters, shorter than any issued key.
Looked for anywhere, ``-xxx-`` turns up in about one URL-safe random key in a million,
and a real key must never be refused."""
_TEMPLATE_NAME = r"(?i:(?:(?:your|my)[-_]?)?(?:api[-_]?)?(?:key|token|secret)(?:[-_]?here)?)"
"""A template's name for a key, written alone where the key goes: ``API_KEY``,
``YOURKEY``, ``apikey``, ``MY_TOKEN``, ``KEYHERE``. Matched whole, so a test key that
has one of these words among others (``fake-gemini-key``, ``sim-key-brave``) passes."""
_NO_VALUE = r"(?i:none|null|nil|undefined)"
"""What a program or a template prints for a value it does not have (Python's ``None``,
JSON's ``null``, JavaScript's ``undefined``), matched whole: ``export
BRAVE_API_KEY=$(get-key)`` of a lookup that found nothing."""
_VARIABLE_NAME = r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_(?:KEY|TOKEN|SECRET)"
"""A variable's name written as its value (``BRAVE_API_KEY=BRAVE_API_KEY``): upper case
words joined by ``_`` and ending in ``_KEY``, ``_TOKEN`` or ``_SECRET``, matched whole.
A random URL-safe base64 key of 32 characters is upper case, digits and ``_`` throughout,
and ends so, fewer than once in 10**13 keys; hex keys hold no ``_``."""
_REFERENCE = r"\$\{?(?P<unix>[A-Za-z_][A-Za-z0-9_]*)\}?|%(?P<windows>[A-Za-z_][A-Za-z0-9_]*)%"
"""A reference to a variable left as written (``$BRAVE_API_KEY``, ``${BRAVE_API_KEY}``,
Windows' ``%BRAVE_API_KEY%``), matched whole: a ``.env`` or compose file whose reader
does not expand references, or a value quoted with ``'`` in a shell. No key holds ``$``
or ``%``."""
_WHOLE_STAND_IN = re.compile(
    f"(?P<xs>{_THREE_XS})|(?P<no_value>{_NO_VALUE})|(?P<template_name>{_TEMPLATE_NAME})"
    f"|(?P<variable>{_VARIABLE_NAME})|{_REFERENCE}"
)
"""The shapes a stand-in has as a whole, in one pattern: one ``fullmatch`` (five of them,
one a shape, made the whole check of a key 1.5x as long)."""
_LONGEST_SHORT_STAND_IN = 21
"""The longest value the short shapes match: three x's after three 5-character parts
(``tvly-dev-xxx`` and the like), ``your_api_secret_here``, ``undefined``. Only a variable's
name (ending ``_KEY``, ``_TOKEN``, ``_SECRET``) or a reference (``$`` or ``%`` first) is
longer, so a longer value that is neither is no stand-in without running the pattern: an
issued key is longer, and its check costs what it did before these shapes."""
_NAME_ENDINGS = ("_KEY", "_TOKEN", "_SECRET")
_ELLIPSIS = "..."
"""What the README and providers' documentation write for the rest of a key (``sk-...``,
``BSA...``); no key holds two dots in a row, let alone three."""


def _placeholder(value: str) -> str | None:
    """Why ``value``, an API key, is a template's stand-in for one, or ``None``.

    The README's quick start writes ``export BRAVE_API_KEY=...`` and its config example
    ``brave = "..."``; copied as they are, the provider read as ready and the key failed
    only on the network, as its authorization error, after the chain had moved on. A
    provider's key is letters and digits drawn at random after a fixed prefix, so these
    shapes give a stand-in away, each one a random key all but never has: no letter or
    digit at all (``...``, ``***``, or only the quotes of an empty ``""``), a whole value
    that is no value (``None``, ``null``), a template's name for a key (``API_KEY``,
    ``YOURKEY``), a variable's name (``BRAVE_API_KEY`` as its own value) or a reference to
    one not expanded (``$BRAVE_API_KEY``), angle brackets around it (``<your-key>``),
    ``...`` inside it (``sk-...``), or a template's word standing alone (``YOUR_KEY``,
    ``changeme``, ``TODO``, ``xxx``; see :data:`_TEMPLATE_WORD`). The value is quoted
    only where the whole of it is matched by one of these shapes, which no secret has.
    """
    if _LETTER_OR_DIGIT.search(value) is None:
        if not value.strip(f"{_QUOTES} "):  # BRAVE_API_KEY='""': what is shown is no secret
            return "is only quote marks, an empty value whose quotes were kept"
        return f"{_PLACEHOLDER}: it holds no letter or digit (the README writes ... for a key)"
    if value.startswith("<") and value.endswith(">"):
        return f"{_PLACEHOLDER}: it is wrapped in angle brackets (<...>)"
    if _ELLIPSIS in value:
        return f"{_PLACEHOLDER}: it holds ... where the rest of a key goes"
    word = _TEMPLATE_WORD.search(value)
    if word is not None:
        return f"{_PLACEHOLDER}: it holds {word.group().upper()}, a word a template writes"
    return _whole_stand_in(value)


def _whole_stand_in(value: str) -> str | None:
    """Why ``value`` as a whole is a stand-in for a key (``None``, ``API_KEY``), or ``None``.

    Each shape is matched whole, so the value quoted in the reason is that shape and no
    secret: a key with such a word among its characters is not refused.
    """
    if (
        len(value) > _LONGEST_SHORT_STAND_IN
        and value[0] not in "$%"
        and not value.endswith(_NAME_ENDINGS)
    ):
        return None
    found = _WHOLE_STAND_IN.fullmatch(value)
    if found is None:
        return None
    shape = found.lastgroup
    if shape == "xs":
        return f"{_PLACEHOLDER}: it holds XXX, a word a template writes"
    if shape == "no_value":
        return f"{_PLACEHOLDER}: it is {value}, what a program writes for no value"
    if shape == "template_name":
        return f"{_PLACEHOLDER}: it is {value}, a template's name for a key"
    if shape == "variable":
        return f"{_PLACEHOLDER}: it is a variable's name ({value}), not the variable's value"
    return (
        f"{_PLACEHOLDER}: it is a reference to the variable {found.group(shape or 'unix')}, "
        "left as written where it was not expanded"
    )


def key_in_code_problem(provider: str, value: str) -> str | None:
    """Why a key given in code (``api_keys={"brave": ...}``) is refused, or ``None``.

    A key set by a program is a bug in it, not a setup the user fixes later: refused when
    the client or adapter is built, by :func:`flaw`, rather than skipped at each search as
    one in a variable is. Surrounding whitespace is trimmed when a key is used, and a
    blank key is no key, so neither counts.

    Example:
        >>> key_in_code_problem("brave", '"BSAabc"')
        'api_keys["brave"]: the API key contains a quote mark (") that would be sent as part of it'
    """
    reason = flaw(value.strip(), key=True) if value.strip() else None
    return None if reason is None else f'api_keys["{provider}"]: the API key {reason}'


@dataclass(frozen=True, slots=True)
class SentSecret:
    """One secret a provider would send, named by what it is and where it was set.

    Attributes:
        value: The secret as it would be sent (hidden from ``repr``).
        what: What it is, e.g. ``Brave API key`` or ``Gemini OAuth token``.
        where: Where it was set, e.g. ``in BRAVE_API_KEY`` or ``stored in the credential
            store /home/u/.config/websearch-tools/credentials.json``.
        fix: What to do about it, e.g. ``remove it from BRAVE_API_KEY``.
        key: Whether it is an API key, checked for the shapes no key has (see
            :func:`flaw`).
    """

    value: str = field(repr=False)
    what: str
    where: str
    fix: str
    key: bool = False
    in_url: bool = False
    authorization: bool = False
    """Whether it goes in the ``Authorization`` header, which a URL's user info (sent as
    ``Basic``) needs too: with both, no request can be sent (see :func:`check_secrets`)."""
    """Whether ``value`` is written into a URL's user info (a password in a base URL), as
    written there: checked for what a URL cannot hold, then decoded (see :func:`_url_flaw`)."""
    sign_in: bool = False
    """Whether it opens the user's whole account (an OAuth token, a session cookie) rather
    than one API: it goes only where :mod:`websearch_core.sign_in_destination` allows."""
    refused: str | None = None
    """Why it may not go where the provider's requests go, decided by that rule, as the
    whole sentence; ``None``: nothing refuses it there."""
    variable: str | None = None
    """The environment variable it was read from (:func:`in_variable`), or ``None``."""

    def problem(self) -> str | None:
        """Why this secret cannot be sent, in one sentence, or ``None`` when it can."""
        if self.refused is not None:
            return self.refused
        reason = _url_flaw(self.value) if self.in_url else flaw(self.value, key=self.key)
        if reason is None:
            return None
        fix = self.fix
        if self.variable is not None and reason.startswith(_PLACEHOLDER):
            # "remove it from BRAVE_API_KEY" said nothing of where the key goes, for the
            # README's own BRAVE_API_KEY=... too; nor, for BRAVE_API_KEY=BRAVE_API_KEY,
            # that the name is the variable's own.
            if self.value.strip() == self.variable:
                reason = f"{_PLACEHOLDER}: {_OWN_NAME}"
            fix = f"set {self.variable} to your {self.what}, or unset it"
        return f"{self.what} {self.where} {reason}; {fix}."


_OWN_NAME = "the variable holds its own name"
"""Why a variable set to its own name (``BRAVE_API_KEY=BRAVE_API_KEY``, a template's line
copied whole, or ``export NAME=NAME`` meant as ``export NAME=$NAME``) holds no key."""


def in_variable(value: str, what: str, name: str, *, key: bool = False) -> SentSecret:
    """A secret read from the environment variable ``name``: where it is, and the fix there.

    Example:
        >>> secret = in_variable("BRAVE_API_KEY", "Brave API key", "BRAVE_API_KEY", key=True)
        >>> secret.problem().endswith("; set BRAVE_API_KEY to your Brave API key, or unset it.")
        True
    """
    return SentSecret(value, what, f"in {name}", f"remove it from {name}", key=key, variable=name)


AUTHORIZATION_CLASH = (
    "goes out as Authorization: Basic, and {what} needs the Authorization header too; {advice}"
)
"""Why a credential sent as ``Authorization`` cannot go beside a URL's user info: the
transport's refusal (``request was not sent: ...``) and the credential check both say it,
with what to do about it for that provider (``provider_credentials.clash_advice``)."""
REMOVE_USER_INFO = "remove the user info from the URL"
"""The advice where nothing more is known of the provider's credentials."""


def _clash(
    user: SentSecret | None, secret: SentSecret, advice: str = REMOVE_USER_INFO
) -> str | None:
    """Why ``secret`` cannot be sent beside the URL user info ``user``, or ``None``.

    ``https://user:pw@gateway`` goes out as ``Authorization: Basic``; a bearer credential
    needs that header too, and aiohttp refuses the request before sending it. Said
    before a request, the providers table reads ``misconfigured`` and the chain skips the
    provider, instead of ``ready`` and a failed attempt.
    """
    if user is None or not secret.authorization:
        return None
    clash = AUTHORIZATION_CLASH.format(what=f"the {secret.what} {secret.where}", advice=advice)
    return f"{user.what} {user.where} {clash}."


def first_problem(secrets: Iterable[SentSecret | None]) -> str | None:
    """The first of ``secrets`` that cannot be sent, as :meth:`SentSecret.problem` says it.

    ``None`` entries (a source with nothing set) are passed over.
    """
    for secret in secrets:
        if secret is not None:
            problem = secret.problem()
            if problem is not None:
                return problem
    return None


@dataclass(frozen=True, slots=True)
class CredentialCheck:
    """What the credential check found for one provider.

    Attributes:
        problem: Why the provider cannot run (``misconfigured: <problem>``), or ``None``.
        passed_over: The problems of credentials a search leaves out because another one
            set can be sent (Perplexity's bad key behind good cookies): the provider runs,
            and the providers table and the chain's attempt name each.
    """

    problem: str | None = None
    passed_over: tuple[str, ...] = ()


def check_secrets(
    needed: Iterable[SentSecret],
    alternatives: Sequence[SentSecret],
    *,
    every: bool,
    advice: str = REMOVE_USER_INFO,
) -> CredentialCheck:
    """The one verdict on what a provider would send, for the table and the chain alike.

    Args:
        needed: What every request carries (the user info of its URL): any problem there
            stops the provider.
        alternatives: Its credentials in sending order (see ``sent_secrets``).
        every: Whether the provider tries its next credential when one fails: then a bad
            one is passed over while another one can be sent, and stops the provider only
            when none can. Otherwise each one listed is sent, and any problem stops it.
        advice: What to do when the URL's user info and a credential both need the
            ``Authorization`` header (the provider's ``clash_advice``).
    """
    in_url = list(needed)
    problem = first_problem(in_url)
    user = in_url[0] if in_url else None  # the user name (or token) of the URL's user info
    found = (_clash(user, secret, advice) or secret.problem() for secret in alternatives)
    if problem is not None or not every:
        return CredentialCheck(problem if problem is not None else next(filter(None, found), None))
    problems = [text for text in found if text is not None]
    if problems and len(problems) == len(alternatives):
        return CredentialCheck(problems[0])
    return CredentialCheck(None, tuple(problems))


class KeptChecks:
    """Each provider's last credential check, kept while what it checked is the same.

    The check runs before every attempt, and what it looks at (a key given in code or
    exported once, a base URL) almost never changes while a client lives; the verdict is a
    function of the secrets alone, so an equal list gets the same verdict without the
    rules running again (about 1 us a search). What the secrets are is still resolved
    each time, so a key exported, stored or removed since is checked as it is now.
    """

    __slots__ = ("_last",)

    def __init__(self) -> None:
        self._last: dict[
            str,
            tuple[tuple[SentSecret, ...], tuple[SentSecret, ...], bool, str, CredentialCheck],
        ] = {}

    def check(
        self,
        provider: str,
        needed: Sequence[SentSecret],
        alternatives: Sequence[SentSecret],
        *,
        every: bool,
        advice: str = REMOVE_USER_INFO,
    ) -> CredentialCheck:
        """:func:`check_secrets` of the arguments, or its verdict on an equal list before.

        Args:
            provider: The provider whose check it is (one verdict kept for each).
            needed: As for :func:`check_secrets`.
            alternatives: As for :func:`check_secrets`.
            every: As for :func:`check_secrets`.
            advice: As for :func:`check_secrets`.
        """
        needed, alternatives = tuple(needed), tuple(alternatives)
        kept = self._last.get(provider)
        if (
            kept is not None
            and kept[2] is every
            and kept[3] == advice
            and kept[1] == alternatives  # a key's secret is usually the same object again
            and kept[0] == needed
        ):
            return kept[4]
        verdict = check_secrets(needed, alternatives, every=every, advice=advice)
        self._last[provider] = (needed, alternatives, every, advice, verdict)
        return verdict
