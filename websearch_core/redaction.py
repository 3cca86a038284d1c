r"""Keep credentials out of everything a model, a log or a store can see.

Upstreams echo keys back in more shapes than the one we sent: lower-cased, URL-encoded,
inside a ``Basic`` header (base64 of ``user:password``), cut short (``sk-abcdef12...``),
escaped as in a JSON string of an error body (``sk-ab\/cd``), or without their first
characters (a type prefix such as ``sk-`` left out, ``...cdef0123456789ab``).
A :class:`Redactor` is built once per set of secrets and replaces every such shape with
``***``, matching case-insensitively.

Example:
    >>> redactor = Redactor(["Sekret-Key-0123456789"])
    >>> redactor("bad key sekret-key-0123456789 (Sekret-Key-0123...)")
    'bad key *** (***...)'
"""

import base64
import functools
import json
import re
from collections.abc import Callable, Iterable
from urllib.parse import quote, quote_plus, unquote, urlsplit

from .dump_lines import dump_readings, line_pieces
from .echo_ends import EndsFinder
from .echo_forms import ENDS_SHOWN, base64_cores, decoded
from .echo_heads import BASE64_HEAD, HEX_HEAD, HeadFinder, hex_form
from .echo_runs import BASE64_RUN, HEX_RUN, RunFinder
from .hex_groups import hex_reading

__all__ = [
    "CUT_SHORT",
    "MASK",
    "Redactor",
    "cookie_secrets",
    "masked_password",
    "proxy_secrets",
    "redact",
    "redactor_for",
    "userinfo_cut_short",
    "userinfo_secrets",
]

MASK = "***"
MIN_SECRET_LENGTH = 4
"""Shorter values are not treated as secrets: masking them would mangle ordinary text."""
PREFIX_LENGTH = 8
"""A run of at least this many leading characters of a token counts as a leak."""
EDGE_BYTES = 2
"""The fewest of a key's bytes at a dump's edge that are masked (``_EchoFinder.edge_spans``).

A key split over two dump lines read apart (one line quoted alone, each in a log record
of its own) shows under :data:`PREFIX_LENGTH` bytes on each: no head, no run, no window
of 8 is there to find. At the very edge of a dump's column, two bytes that are a key's
first (or last) two are taken for it: a request's dump holds them there only by chance
otherwise, and two bytes of a dump masked cost a reader nothing; one byte is any text's."""
MIN_TOKEN_LENGTH = 16
"""Only secrets this long are matched by prefix (a short value's first characters are
ordinary text); see :func:`_is_token` for the shapes left out."""
MAX_PREFIX_TAIL = 64
RUN_LENGTH = 12
"""A run of at least this many consecutive characters of a token, starting anywhere in it,
counts as a leak: an upstream that leaves out a key's type prefix (``sk-``, ``pplx-``) or
shows it as ``****<tail>`` still shows most of it. Longer than :data:`PREFIX_LENGTH`
because the inner characters of a key (its tail, past a ``sim-key-`` or ``tvly-dev-``)
may be a word the text holds (``sim-key-perplexity``'s ``perplexity`` is ten). The last
four characters a provider prints as a hint (``sk-...wxyz``) stay: four characters are
ordinary text too often to mask."""
BLOCK_LENGTH = RUN_LENGTH // 2
"""The length of the blocks a token is cut into to find its runs: a search for the blocks
(a few per key, not one pattern per starting place) finds each run, then grown to its
ends. Each block is one substring search over every answer (:meth:`Redactor.may_hold`),
so the fewer blocks the better, as long as every run holds a whole one."""
BLOCK_STRIDE = RUN_LENGTH - BLOCK_LENGTH + 1
"""How far apart the blocks start (7): the widest spacing at which every run of
:data:`RUN_LENGTH` characters still holds a whole block. A run starting at ``r`` holds the
block starting at ``p`` when ``r <= p <= r + RUN_LENGTH - BLOCK_LENGTH``: that is
``BLOCK_STRIDE`` starting places in a row, and one of them is a multiple of the stride (a
block ending by the run's end ends inside the token). One more and the run from 1 to 13
holds none. A 32-character key has 4 blocks at this stride, where 6 apart made 5."""
_ASCII_LOOKALIKES = (("\u0130", "i"), ("\u0131", "i"), ("\u017f", "s"), ("\u212a", "k"))
"""The only non-ASCII characters a case-insensitive match takes for an ASCII one (``İ`` and
dotless ``ı`` for ``i``, long ``ſ`` for ``s``, the Kelvin sign for ``k``), each with the
letter it stands for; checked over every code point by the tests."""
_KELVIN = "\u212a"
"""The one look-alike outside Latin Extended-A: the others (``İ`` c4 b0, ``ı`` c4 b1, ``ſ``
c5 bf) start with byte c4 or c5 in UTF-8, which :meth:`Redactor.may_hold` looks for in
the bytes it has encoded anyway (one-byte searches, the cheapest there are), and the
Kelvin sign is looked for in the text (a byte search for its e2 84 would trip on every
curly quote and dash, which start with e2)."""


def _variants(secret: str) -> set[str]:
    """The shapes an upstream may echo ``secret`` in."""
    raw = secret.encode("utf-8")
    shapes = {secret, quote(secret, safe=""), quote_plus(secret), *_json_shapes(secret)}
    for encoded in (base64.b64encode(raw), base64.urlsafe_b64encode(raw)):
        text = encoded.decode("ascii")
        shapes.update({text, text.rstrip("=")})
    return {shape for shape in shapes if len(shape) >= MIN_SECRET_LENGTH}


def _json_shapes(secret: str) -> set[str]:
    r"""``secret`` as the inside of a JSON string, in the forms encoders write error bodies in.

    Python's own (``"`` and ``\`` escaped, non-ASCII as ``\uXXXX``), the same with ``/``
    written ``\/`` (PHP's ``json_encode``, and several Java and Ruby encoders), and every
    character as ``\uXXXX`` (an encoder that escapes all it can). The mask matches hex
    digits in either case, as it matches every shape.

    Example:
        >>> sorted(_json_shapes("a/b"))
        ['\\u0061\\u002f\\u0062', 'a/b', 'a\\/b']
    """
    written = json.dumps(secret)[1:-1]
    units = secret.encode("utf-16-be", "surrogatepass")
    every = "".join(
        f"\\u{int.from_bytes(units[index : index + 2], 'big'):04x}"
        for index in range(0, len(units), 2)
    )
    return {written, written.replace("/", "\\/"), every}


def proxy_secrets(proxy_url: str) -> tuple[str, ...]:
    """The secrets in a proxy URL: the URL, its password and ``user:password`` (Basic)."""
    return (proxy_url, *userinfo_secrets(proxy_url))


def masked_password(url: str) -> str:
    """``url`` with the password of its userinfo (``user:pw@``) shown as ``***``.

    For a URL put on display (a ``repr``) rather than scanned for known secrets: the
    password is found by position, so no list of secrets is needed. Userinfo without a
    password (``https://<token>@gateway``) is often a token and is masked whole.

    A password with an unencoded ``/``, ``?`` or ``#`` (``https://u:pa/ss@host``) ends the
    authority early, leaving ``u:pa`` for a host with a port that is no number: such a
    URL cannot be used, but its password must not be shown either, so everything up to
    the first ``@`` is taken for the userinfo then.
    """
    scheme, separator, rest = url.partition("://")
    authority_end = _authority_end(rest)
    userinfo, at, host = rest[:authority_end].rpartition("@")
    if separator and not at and _port_is_no_number(rest[:authority_end]):
        userinfo, at, after = rest.partition("@")
        if at:
            return f"{scheme}://{userinfo.partition(':')[0]}:{MASK}@{after}"
    if not (separator and at):
        return url
    user, colon, _ = userinfo.partition(":")
    shown = f"{user}:{MASK}" if colon else MASK
    return f"{scheme}://{shown}@{host}{rest[authority_end:]}"


def userinfo_cut_short(url: str) -> bool:
    """Whether ``url`` has an ``@`` only after its authority: userinfo cut short.

    ``https://tok/en@gw.internal/v1`` is meant as the token ``tok/en`` before the host
    ``gw.internal``, but an unencoded ``/`` ends the authority first (so do ``?`` and
    ``#``): a client connects to the host ``tok`` (asking DNS for part of the token), and
    what finds userinfo by its position (:func:`masked_password`, :func:`userinfo_secrets`)
    finds none, so the URL is shown whole. An ``@`` in a path or a query is legal, but
    nothing tells it from such a token, so a setting refuses both (:data:`CUT_SHORT`);
    written ``%40`` it is the same path to a server.

    Example:
        >>> userinfo_cut_short("https://tok/en@gw.example/v1")
        True
        >>> userinfo_cut_short("https://t:p@gw.example/@x"), userinfo_cut_short("tok/en@gw")
        (False, False)
    """
    _, separator, rest = url.partition("://")
    end = _authority_end(rest)
    return bool(separator) and "@" not in rest[:end] and "@" in rest[end:]


CUT_SHORT = (
    "has an '@' after its host, as a token or password with an unencoded '/', '?' or '#' "
    "would: write those as %2F, %3F and %23 (and an '@' meant for the path as %40)"
)
"""Why a URL setting for which :func:`userinfo_cut_short` holds is refused. It names the
characters to encode, never the value: the value is the secret."""


def _authority_end(rest: str) -> int:
    """Where the authority of ``rest`` (a URL after ``://``) ends: its first ``/ ? #``."""
    return min((i for i in map(rest.find, "/?#") if i >= 0), default=len(rest))


def _port_is_no_number(authority: str) -> bool:
    """Whether ``authority`` (``host:port``) has a port that is not digits (``u:pa``)."""
    _, colon, port = authority.rpartition(":")
    return bool(colon and port) and not port.isdigit() and "]" not in port


def userinfo_secrets(url: str) -> tuple[str, ...]:
    """The password written in a URL and its ``user:password`` pair, both as sent and decoded.

    A gateway's base URL or a SearXNG endpoint may carry Basic credentials
    (``https://user:pw@host``); those must be masked like any key. The user name alone is
    not a secret. Userinfo without a password is taken for a token
    (``https://<token>@host``) when it is :data:`MIN_TOKEN_LENGTH` characters or longer,
    with ``<token>:``, the pair a client encodes into its ``Basic`` header for it; a shorter
    one is a user name (``https://user@host``), and masking it would turn every ``user`` or
    ``admin`` in an answer into ``***``. A URL put on display hides any userinfo by
    position (:func:`masked_password`), and a proxy's whole URL is a secret
    (:func:`proxy_secrets`), so such a name is still never shown there.

    Example:
        >>> userinfo_secrets("https://tok%2Fen0123456789@gw.example")
        ('tok/en0123456789', 'tok/en0123456789:', 'tok%2Fen0123456789', 'tok%2Fen0123456789:')
        >>> userinfo_secrets("https://user@gw.example"), userinfo_secrets("http://u:pw00@gw")
        ((), ('pw00', 'u:pw00'))
    """
    try:
        parts = urlsplit(url)
        raw_password = parts.password
    except ValueError:
        return ()
    raw_user = parts.username or ""
    if not raw_password:
        user = unquote(raw_user)
        if len(user) < MIN_TOKEN_LENGTH:
            return ()
        # aiohttp sends such a URL as Basic base64("<token>:"): that shape is a secret too.
        return tuple(dict.fromkeys((user, f"{user}:", raw_user, f"{raw_user}:")))
    user, password = unquote(raw_user), unquote(raw_password)
    return tuple(
        dict.fromkeys((password, f"{user}:{password}", raw_password, f"{raw_user}:{raw_password}"))
    )


def cookie_secrets(header: str) -> tuple[str, ...]:
    """The secrets in a ``Cookie`` header: the header, and each value that may be a token.

    A session cookie (``__Secure-next-auth.session-token=<token>``) is sent as a header an
    upstream may echo whole or in part, so the header and every cookie value of at least
    :data:`MIN_TOKEN_LENGTH` characters, or under a name that says it is a session, token
    or auth cookie, are secrets. Short values under other names (``locale=en-US``,
    ``theme=dark``) are not: masking those would mangle ordinary text.

    Example:
        >>> cookie_secrets("__Secure-next-auth.session-token=abcd1234; theme=dark")
        ('__Secure-next-auth.session-token=abcd1234; theme=dark', 'abcd1234')
    """
    found = [header.strip()]
    for pair in header.split(";"):
        name, equals, value = pair.partition("=")
        value = value.strip().strip('"')
        if not equals or not value:
            continue
        lowered = name.strip().lower()
        if len(value) >= MIN_TOKEN_LENGTH or any(
            word in lowered for word in ("session", "token", "auth", "sid")
        ):
            found.append(value)
    return tuple(dict.fromkeys(secret for secret in found if secret))


class Redactor:
    """Replaces every known shape of the given secrets with ``***``.

    Args:
        secrets: Credential values (keys, tokens, passwords, ``user:password`` pairs).
        failure_only: Values masked by :meth:`__call__` (failures, logs) and never by
            :meth:`in_response` (an answer): a word that is a key only where a request
            is quoted (a gateway's, ``?gw=coffee``), and the world's word in an answer.
            Each is masked whole (``pieces`` off): the long ones are a setting's name
            and word together (``"engines":"hunterxyzw"``), whose first characters are
            the name, in every quote of that setting.
        pieces: Whether each secret's encoded shapes (:func:`_variants`) are matched
            as written, and a secret of a token's length is read by its pieces too (its
            head, a run from inside, its ends, its base64 at another alignment). Off,
            a secret is matched as itself, case aside, each blank in it as any run of
            blanks or ``+`` (:func:`_blanks_loose`): where it is used (the failure
            path) escapes are read anyway (``echo_forms.decoded``), and each shape is
            one more alternative every character of a failure's text is tried against.
    """

    __slots__ = (
        "_ascii_probes",
        "_blocks",
        "_echoes",
        "_escaped_probes",
        "_failure",
        "_pattern",
        "_probes",
        "_runs",
    )

    def __init__(
        self, secrets: Iterable[str], failure_only: Iterable[str] = (), *, pieces: bool = True
    ) -> None:
        values = {secret for secret in secrets if secret and len(secret) >= MIN_SECRET_LENGTH}
        words = {word for word in failure_only if len(word) >= MIN_SECRET_LENGTH} - values
        self._failure = Redactor(words, pieces=False) if words else None
        is_token = _is_token if pieces else _never
        shapes: set[str] = set()
        for value in values:
            shapes |= _variants(value) if pieces else {value}
            if is_token(value):
                # The base64 a token alone decides at alignment 0: a Basic pair's or a cut
                # header's too. A part of the whole base64 shape, so no probe is added.
                shapes.update(base64_cores(value)[:2])
        literal = re.escape if pieces else _blanks_loose
        alternatives = [literal(shape) for shape in sorted(shapes, key=len, reverse=True)]
        # A truncated echo: at least PREFIX_LENGTH leading characters of a long secret.
        for value in sorted(values, key=len, reverse=True):
            if is_token(value):
                alternatives.append(_prefix_pattern(value))
        self._pattern = re.compile("|".join(alternatives), re.IGNORECASE) if alternatives else None
        tokens = sorted(value for value in values if is_token(value))
        self._runs = _RunFinder(tokens) if tokens else None
        short = sorted(value for value in values if _is_short_key(value))
        little = sorted(value for value in values if _is_little(value))
        self._echoes = _EchoFinder(tokens, short, little) if tokens or little else None
        heads = {value[:PREFIX_LENGTH] for value in tokens}
        self._blocks = {block for value in tokens for block in _blocks(value)}
        probes = {probe.casefold() for probe in shapes | heads | self._blocks}
        # A shape that contains another probe adds nothing: the shorter one finds it too.
        self._probes = tuple(p for p in probes if not any(q != p and q in p for q in probes))
        # ASCII secrets (API keys, tokens) have ASCII shapes only: probed in UTF-8 bytes.
        ascii_only = all(value.isascii() for value in values)
        encoded = [probe.encode() for probe in self._probes] if ascii_only else []
        # The JSON shapes (``\u0042...``, ``a\/b``) hold a backslash, which ordinary text
        # seldom does: they are probed only in text that has one (see may_hold).
        self._escaped_probes = tuple(probe for probe in encoded if b"\\" in probe)
        self._ascii_probes = (
            tuple(probe for probe in encoded if b"\\" not in probe) if ascii_only else None
        )

    def __bool__(self) -> bool:
        return self._pattern is not None or self._failure is not None

    def __call__(self, text: str) -> str:
        r"""``text`` with every secret shape masked, the forms of an echoed request too.

        :meth:`in_response`, then what an upstream writes of a request it quotes in a
        failure (:mod:`websearch_core.echo_forms`): a token by its ends, its base64 at
        another byte alignment, and every shape read through HTML entities, ``%XX`` and
        ``\uXXXX`` escapes, the escaped characters masked where they were written.
        """
        if (self._echoes is None and self._failure is None) or not text:
            return self.in_response(text)
        spans = self._failure_spans(text)
        if self._failure is not None:
            spans += self._failure._failure_spans(text)
        if any("\n" in text[start:end] for start, end in spans):  # a dump's or grouped lines
            spans = line_pieces(text, spans)
        return _masked(text, spans, joined=True)

    def in_response(self, text: str) -> str:
        """``text`` with every shape :meth:`may_hold` probes for masked.

        What a provider's answer is cleaned with: its results are documents the provider
        found, written before the request, so they hold a key only as a user pasted it
        somewhere, never in the forms a server writes of the request it is answering;
        the failure path (errors, their log lines) masks those too (:meth:`__call__`).
        """
        if self._pattern is None or not text:
            return text
        masked = self._pattern.sub(MASK, text)
        return masked if self._runs is None else _masked(masked, self._runs.spans(masked))

    def _failure_spans(self, text: str) -> list[tuple[int, int]]:
        """Where :meth:`__call__` finds a secret of this redactor's own, escapes read."""
        spans = self._spans(text)
        reading = decoded(text)
        if reading is not None:
            spans += [reading.source(*span) for span in self._spans(reading.text)]
        return spans

    def _spans(self, text: str) -> list[tuple[int, int]]:
        """Where in ``text`` :meth:`__call__` finds a secret, escapes aside.

        A hex dump's columns are read across its lines too (:mod:`.dump_lines`): a key cut
        at each line's end shows a run on none of them.
        """
        spans = self._written_spans(text)
        for reading in dump_readings(text):
            if reading.lone:  # read as written already: only its edges are new
                found = [] if self._echoes is None else self._echoes.edge_spans(reading.text)
            else:
                found = self._written_spans(reading.text)
                if self._echoes is not None:
                    found += self._echoes.inside_spans(reading.text)
                    found += self._echoes.edge_spans(reading.text)
            for start, end in found:
                spans += reading.pieces(start, end)
        return spans

    def _written_spans(self, text: str) -> list[tuple[int, int]]:
        """Where in ``text``, read as it is written, :meth:`__call__` finds a secret."""
        spans = [found.span() for found in self._pattern.finditer(text)] if self._pattern else []
        if self._runs is not None:
            spans += self._runs.spans(text)
        if self._echoes is not None:
            spans += self._echoes.spans(text)
        return spans

    def may_hold(self, text: str, encoded: bytes | None = None) -> bool:
        """``False`` only when ``text`` holds no secret shape (``True`` may be a false alarm).

        A substring test per shape on the lower-cased text, no regular expression: several
        times cheaper than a case-insensitive search, so a whole response can be probed
        once and, as almost always, left alone. Every shape, and the head of every
        prefix-matched token, is a probe, so whatever :meth:`__call__` would mask is found.

        ASCII secrets (the usual case) are probed in the text's UTF-8 bytes, lower-cased
        as ASCII (``bytes.lower``), which costs a fraction of ``str.casefold`` on
        non-ASCII text: an ASCII probe can only match ASCII bytes, and the four
        characters a case-insensitive match also takes for an ASCII letter
        (:data:`_ASCII_LOOKALIKES`) are first replaced by that letter, so the probe finds
        every match of the mask's pattern. Whether there may be one to replace is asked
        of their lead bytes and the Kelvin sign (:data:`_KELVIN`). Other secrets are
        probed in the case-folded text.

        Args:
            text: The text to probe.
            encoded: ``text.encode("utf-8", "surrogatepass")``, when the caller has it
                (``clean_response`` checks the bytes for control characters): not
                encoded a second time.
        """
        if not self._probes:
            return False
        if self._ascii_probes is None:
            folded = text.casefold()
            return any(probe in folded for probe in self._probes)
        # surrogatepass: a lone surrogate (JSON allows one) is bytes >= 0x80, like any
        # other non-ASCII character, instead of an error.
        if encoded is None:
            encoded = text.encode("utf-8", "surrogatepass")
        if not encoded.isascii() and (
            b"\xc4" in encoded or b"\xc5" in encoded or _KELVIN in text
        ):  # maybe a look-alike (or only a neighbour sharing its lead byte)
            encoded = _as_letters(text).encode("utf-8", "surrogatepass")
        lowered = encoded.lower()
        if any(probe in lowered for probe in self._ascii_probes):
            return True
        # A probe with a backslash can only be in text with one: a byte 0x5c is nothing
        # else in UTF-8, and no other character matches it, whatever the case. One
        # ``memchr`` instead of a search per JSON shape over the whole text.
        return b"\\" in encoded and any(probe in lowered for probe in self._escaped_probes)


def _as_letters(text: str) -> str:
    """``text`` with each :data:`_ASCII_LOOKALIKES` character replaced by its letter."""
    for lookalike, letter in _ASCII_LOOKALIKES:
        if lookalike in text:
            text = text.replace(lookalike, letter)
    return text


def _is_token(value: str) -> bool:
    """Whether a truncated echo of ``value`` (its first characters) is masked.

    Any secret of :data:`MIN_TOKEN_LENGTH` characters or more, base64-style keys with
    ``/`` and ``+`` and ``id:secret`` pairs included, but for three shapes whose first
    characters are ordinary text rather than part of a key: a URL (``https://``), a
    value with whitespace (a passphrase, ``Bearer <token>``) and a ``name=value`` pair
    (a cookie header: ``__Secure-...``). Their secret parts are registered on their own
    (the password, the token, the cookie's value), and matched by prefix there.

    Example:
        >>> _is_token("ab12cd34/ef56gh78+ij90=="), _is_token("sid=ab12cd34ef56gh78ij90")
        (True, False)
    """
    if len(value) < MIN_TOKEN_LENGTH or "://" in value or "=" in value.rstrip("="):
        return False
    return not any(char.isspace() for char in value)


_LOOSE_BLANKS = r"[ \t+]+"
"""What a blank of a failure-only word matches: one or more blanks, tabs or ``+``."""


def _blanks_loose(word: str) -> str:
    r"""``word`` as a pattern whose every blank matches any run of blanks or ``+``.

    For the failure-only words (``Redactor``'s ``pieces`` off): a setting's pair with a
    space (``engines: hunterxyzw``) is written with two or a tab where a log lines its
    columns up, and with ``+`` inside a query string (``?detail=engines:+hunterxyzw``,
    which ``%XX`` decoding leaves as it is).

    Example:
        >>> bool(re.fullmatch(_blanks_loose("a: b c"), "a:+b \t c")), _blanks_loose("a+b")
        (True, 'a\\+b')
    """
    return _LOOSE_BLANKS.join(re.escape(part) for part in word.split(" "))


def _never(value: str) -> bool:
    """No value is a token: for a redactor whose secrets are masked whole."""
    return False


def _is_short_key(value: str) -> bool:
    """Whether ``value`` is a key too short to be read by its pieces, read by its hex whole.

    A key of :data:`PREFIX_LENGTH` to :data:`MIN_TOKEN_LENGTH` characters (``Zq81mWx4``,
    a SearXNG token, a key under a query name of its own) is masked as itself; its
    head or a run from inside is as likely a word. Its hex is no word: a dump of the
    request shows the key as hex digits, masked from any 8 of its bytes in a row on
    (:func:`_inner_heads`), its head as a token's.

    Example:
        >>> _is_short_key("Zq81mWx4"), _is_short_key("abc123"), _is_short_key("a b c d e")
        (True, False, False)
    """
    if not PREFIX_LENGTH <= len(value) < MIN_TOKEN_LENGTH:
        return False
    return not any(char.isspace() for char in value)


def _inner_heads(key: str) -> range:
    """Where a short key's 8-byte windows start: its head, and each place inside it.

    A dump that starts inside the key (its first line cut from a longer one, a log that
    quotes from an offset) shows its hex without the head; any :data:`PREFIX_LENGTH`
    bytes of it in a row are as much a key as its head is (no word's hex, and a dump
    is the only place they show). Fewer stay shown: the floor a head sets.

    Example:
        >>> list(_inner_heads("Zq81mWx4")), list(_inner_heads("Zq81mWx4Tr"))
        ([0], [0, 1, 2])
    """
    return range(len(key.encode()) - PREFIX_LENGTH + 1) if key.isascii() else range(1)


def _is_little(value: str) -> bool:
    """Whether ``value`` is a key shorter than a token, read by its base64 inside others.

    A key of :data:`MIN_SECRET_LENGTH` to :data:`MIN_TOKEN_LENGTH` characters (``Qx7w``,
    ``Zq81mWx4``) is masked as itself and as its own whole base64; inside a longer base64
    value (``Basic`` of ``user:key``) it starts at a byte offset of 0, 1 or 2 modulo 3,
    and the characters its bytes alone decide there (its cores) are masked whole. A
    token's are read by their heads and runs already.

    Example:
        >>> _is_little("Qx7w"), _is_little("Qx7"), _is_little("a b c"), _is_little("a" * 16)
        (True, False, False, False)
    """
    if not MIN_SECRET_LENGTH <= len(value) < MIN_TOKEN_LENGTH:
        return False
    return not any(char.isspace() for char in value)


def _block_starts(token: str) -> range:
    """Where ``token``'s whole :data:`BLOCK_LENGTH` blocks start: every :data:`BLOCK_STRIDE`.

    Example:
        >>> list(_block_starts("abcdef0123456XYZ"))
        [0, 7]
    """
    return range(0, len(token) - BLOCK_LENGTH + 1, BLOCK_STRIDE)


def _blocks(token: str) -> list[str]:
    """``token``'s whole :data:`BLOCK_LENGTH` blocks, at :func:`_block_starts`.

    Example:
        >>> _blocks("abcdef0123456XYZ")
        ['abcdef', '123456']
    """
    return [token[start : start + BLOCK_LENGTH] for start in _block_starts(token)]


def _same(shown: str, secret: str) -> bool:
    """Whether the character ``shown`` is taken for ``secret``'s, as the mask's pattern would.

    Case aside, by :data:`_ASCII_LOOKALIKES` too: ``ſ`` for ``s``, the Kelvin sign for ``k``.
    """
    return shown == secret or _as_letters(shown).lower() == secret.lower()


class _RunFinder:
    """Finds the runs of :data:`RUN_LENGTH` or more characters of tokens, from anywhere in them.

    One pattern per token and starting place would grow with the square of a token's length
    (a JWT sign-in is over a thousand characters); instead each token's blocks are sought,
    and each block found is grown left and right for as long as the text goes on as the
    token does around that block.

    Args:
        tokens: The secrets matched by prefix (:func:`_is_token`).
    """

    __slots__ = ("_at", "_seed")

    def __init__(self, tokens: Iterable[str]) -> None:
        self._at: dict[str, list[tuple[str, int]]] = {}
        for token in tokens:
            for start in _block_starts(token):
                block = token[start : start + BLOCK_LENGTH]
                self._at.setdefault(block.lower(), []).append((token, start))
        ordered = sorted(self._at, key=len, reverse=True)
        self._seed = re.compile("|".join(map(re.escape, ordered)), re.IGNORECASE)

    def spans(self, text: str) -> list[tuple[int, int]]:
        """Where each run of :data:`RUN_LENGTH` or more token characters is in ``text``."""
        spans: list[tuple[int, int]] = []
        for found in self._seed.finditer(text):
            block = _as_letters(found.group()).lower()
            for token, offset in self._at.get(block, ()):
                span = _grown(text, found.start(), found.end(), token, offset)
                if span[1] - span[0] >= RUN_LENGTH:
                    spans.append(span)
        return spans


_HEX_DIGITS = re.compile("[0-9A-Fa-f]+")
_HEX_BLOCK = re.compile(f"[0-9A-Fa-f]{{{HEX_RUN // 2}}}")
"""The fewest hex digits in a row a key's hex is found by: a block of a run (12), fewer
than a head (16)."""


class _EchoFinder:
    r"""Finds the forms of tokens only an echoed request holds (see :meth:`Redactor.__call__`).

    A token's base64 at any byte alignment (matched case-sensitively, as base64 is read)
    and its hex (a short key's too, from its first bytes: :func:`_is_short_key`): whole,
    cut short after its first :data:`~.echo_heads.HEAD_BYTES` bytes (a
    ``Basic`` header or a dump that ends inside the key: :mod:`.echo_heads`), or a run of
    :data:`~.echo_runs.RUN_BYTES` bytes from inside it (an echo that starts past the key's
    head: :mod:`.echo_runs`); the hex also where a dump writes it in groups (``73 6b``,
    ``\x73\x6b``, lines: :mod:`.hex_groups`). And the token shown by its ends with
    :data:`ENDS_SHOWN` or more of its characters (``sk-abc...9xyz``). A key shorter than
    a token by its base64 cores, whole, at each byte alignment (:func:`_is_little`), and
    one shorter than a head (4-7 characters) by its whole hex, plain, grouped or in a dump.

    Args:
        tokens: The secrets matched by prefix (:func:`_is_token`).
        short: The short keys read by their hex from its head (:func:`_is_short_key`).
        little: The keys shorter than a token read by their base64 cores whole.
    """

    __slots__ = (
        "_core_runs",
        "_cores",
        "_edge_hex",
        "_edge_text",
        "_ends",
        "_hex",
        "_hex_runs",
        "_inside",
        "_little_cores",
        "_little_hex",
    )

    def __init__(
        self, tokens: Iterable[str], short: Iterable[str] = (), little: Iterable[str] = ()
    ) -> None:
        tokens = list(tokens)
        cores = {core for token in tokens for core in base64_cores(token)}
        hexed = [hex_form(token) for token in tokens]
        self._cores = HeadFinder(cores, BASE64_HEAD, ignore_case=False)
        self._core_runs = RunFinder(cores, BASE64_RUN, ignore_case=False)
        inside = [hex_form(key[start:]) for key in short for start in _inner_heads(key)]
        self._hex = HeadFinder([*hexed, *inside], HEX_HEAD, ignore_case=True)
        windows = {
            key[start : start + PREFIX_LENGTH] for key in short for start in _inner_heads(key)
        }
        self._inside = (
            re.compile(f"(?=({'|'.join(map(re.escape, sorted(windows)))}))", re.IGNORECASE)
            if windows
            else None
        )
        self._hex_runs = RunFinder(hexed, HEX_RUN, ignore_case=True)
        self._ends = [EndsFinder(token) for token in tokens]
        # Case-sensitive, as base64 is read; a core under the floor's length is left out.
        small = {core for key in little for core in base64_cores(key)}
        ordered = sorted((core for core in small if len(core) >= MIN_SECRET_LENGTH), key=len)
        self._little_cores = (
            re.compile("|".join(map(re.escape, reversed(ordered)))) if ordered else None
        )
        # A key under a head's length has no head to find its hex by: its whole hex is.
        whole = sorted({hex_form(key) for key in little if len(key) < PREFIX_LENGTH}, key=len)
        self._little_hex = (
            re.compile("|".join(map(re.escape, reversed(whole))), re.IGNORECASE) if whole else None
        )
        self._edge_text = _EdgePieces([*tokens, *little], str.lower)
        self._edge_hex = _EdgePieces([*tokens, *little], hex_form)

    def spans(self, text: str) -> list[tuple[int, int]]:
        """Where each such form is in ``text``."""
        spans = self._cores.spans(text) + self._core_runs.spans(text) + self._hex_spans(text)
        if self._little_cores is not None:
            spans += [found.span() for found in self._little_cores.finditer(text)]
        reading = hex_reading(text)
        if reading is not None:
            spans += [reading.source(*span) for span in self._hex_spans(reading.text)]
        if ".." in text or "**" in text or "\u2026" in text or "\u2022" in text:
            for ends in self._ends:
                spans += [
                    found.span()
                    for found in ends.finditer(text)
                    if len(found["head"] or "") + len(found["tail"]) >= ENDS_SHOWN
                ]
        return spans

    def inside_spans(self, text: str) -> list[tuple[int, int]]:
        """Where a dump's text column shows 8 of a short key's characters in a row.

        Only a dump's: there the text is the request's bytes, so a short key's inside is
        the key (a dump starting past its head); in prose it may be a word.
        """
        if self._inside is None:
            return []
        return [(found.start(), found.end(1)) for found in self._inside.finditer(text)]

    def edge_spans(self, text: str) -> list[tuple[int, int]]:
        """Where a dump's column ends in a key's head or opens with its tail (``_EdgePieces``).

        Only a dump's column, read whole: its ends are where the dump itself starts and
        stops (a log that quotes one line of it, a dump cut short), so what stands there
        is the request's bytes, and a piece of a key there is that key cut by the dump.
        A hex column (all hex digits) is read for the pieces' hex, any column as text.
        """
        spans = self._edge_text.spans(text)
        if _HEX_DIGITS.fullmatch(text):
            spans += self._edge_hex.spans(text)
        return spans

    def _hex_spans(self, text: str) -> list[tuple[int, int]]:
        """Where a key's hex is in ``text``: from its head, a run from inside it, or whole.

        A token's and a short key's need :data:`_HEX_BLOCK` digits in a row; most texts
        have none, and one scan of a character class says so faster than either finder's
        search. A key of 4-7 characters is found by its whole hex (8-14 digits): no
        word's hex, and its bytes are the key whatever stands around them.
        """
        spans = []
        if self._little_hex is not None:
            spans = [found.span() for found in self._little_hex.finditer(text)]
        if _HEX_BLOCK.search(text) is None:
            return spans
        return spans + self._hex.spans(text) + self._hex_runs.spans(text)


class _EdgePieces:
    """Keys' heads and tails a dump's edge may show, in one form (text, or hex), lower case.

    Attributes:
        heads: Each key's first :data:`EDGE_BYTES` to ``len - 1`` bytes, up to a token's
            length (a longer piece is a head or a run the other readers find).
        tails: Each key's last bytes of the same lengths.
        longest: The longest piece, in characters.
    """

    __slots__ = ("ends", "heads", "longest", "opens", "shortest", "tails")

    def __init__(self, keys: Iterable[str], form: Callable[[str], str]) -> None:
        heads: set[str] = set()
        tails: set[str] = set()
        for key in keys:
            if not key.isascii():  # a byte is a character only in ASCII
                continue
            for size in range(EDGE_BYTES, min(len(key), MIN_TOKEN_LENGTH)):
                heads.add(form(key[:size]).lower())
                tails.add(form(key[-size:]).lower())
        self.heads = frozenset(heads)
        self.tails = frozenset(tails)
        self.longest = max(map(len, heads | tails), default=0)
        self.shortest = len(form("x" * EDGE_BYTES))
        # What every head ends in and every tail opens with: one look says most edges hold
        # none, before a look per length.
        self.ends = frozenset(head[-self.shortest :] for head in heads)
        self.opens = frozenset(tail[: self.shortest] for tail in tails)

    def spans(self, text: str) -> list[tuple[int, int]]:
        """Where ``text`` ends in the longest head it holds, and opens with the longest tail.

        Example:
            >>> pieces = _EdgePieces(["Qx7w"], hex_form)
            >>> sorted(pieces.heads), pieces.spans("41415178"), pieces.spans("37774141")
            (['5178', '517837'], [(4, 8)], [(0, 4)])
        """
        spans: list[tuple[int, int]] = []
        if len(text) < self.shortest:
            return spans
        sizes = range(min(len(text), self.longest), self.shortest - 1, -1)
        if text[-self.shortest :].lower() in self.ends:
            lowered = text[-self.longest :].lower()
            head = next((size for size in sizes if lowered[-size:] in self.heads), 0)
            if head:
                spans.append((len(text) - head, len(text)))
        if text[: self.shortest].lower() in self.opens:
            lowered = text[: self.longest].lower()
            tail = next((size for size in sizes if lowered[:size] in self.tails), 0)
            if tail:
                spans.append((0, tail))
        return spans


def _masked(text: str, spans: list[tuple[int, int]], *, joined: bool = False) -> str:
    """``text`` with each of ``spans`` (overlapping ones as one) replaced by ``***``.

    Args:
        text: The text to mask.
        spans: Where the secrets are.
        joined: Whether spans that touch are one too: an escaped head and a plain tail of
            one key are found apart, and ``******`` would say where they met.
    """
    if not spans:
        return text
    pieces: list[str] = []
    done = -1
    for start, end in sorted(spans):
        if end <= done:
            continue
        if start > done or (start == done and not joined):
            pieces.extend([text[max(done, 0) : start], MASK])
        done = end
    return "".join([*pieces, text[done:]])


def _grown(text: str, start: int, end: int, token: str, offset: int) -> tuple[int, int]:
    """The span around ``text[start:end]`` (``token`` from ``offset``) that goes on as it does."""
    before = offset
    while start > 0 and before > 0 and _same(text[start - 1], token[before - 1]):
        start, before = start - 1, before - 1
    after = offset + BLOCK_LENGTH
    while end < len(text) and after < len(token) and _same(text[end], token[after]):
        end, after = end + 1, after + 1
    return start, end


def _prefix_pattern(secret: str) -> str:
    """A pattern for the first ``PREFIX_LENGTH`` or more characters of ``secret``."""
    head = re.escape(secret[:PREFIX_LENGTH])
    tail = secret[PREFIX_LENGTH : PREFIX_LENGTH + MAX_PREFIX_TAIL]
    optional = "".join(f"(?:{re.escape(char)}" for char in tail) + ")?" * len(tail)
    return head + optional


@functools.lru_cache(maxsize=64)
def redactor_for(secrets: tuple[str, ...], failure_only: tuple[str, ...] = ()) -> Redactor:
    """A cached :class:`Redactor` (building the pattern costs more than using it)."""
    return Redactor(secrets, failure_only)


def redact(text: str, secrets: Iterable[str]) -> str:
    """Replace every shape of every secret (of 4+ characters) in ``text`` with ``***``."""
    return redactor_for(tuple(sorted(set(secrets))))(text)
