"""Whether a request may carry any sign-in handed out: one check, built when one is recorded.

Why this exists: while a Perplexity cookie or a plugin's sign-in was recorded, every request
off this machine to any other provider was looked through once per value handed out (the
cookie header and its session token: two scans, ~2.5 us a Brave search), though it carries
none. The values are known when they are recorded, not per request, so the shortest ones
are picked then (a value holding another, as the cookie header holds its token, is found
only where that one is) and a request's text is looked through once for all of them. Only a
request holding one goes on to the full judgement
(:func:`~websearch_core.sign_in_sends.judged_refusal`), which says which value and whether
its destination may have it; so this only ever answers "maybe" too often, never too seldom.
"""

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final, Protocol

__all__ = ["NO_SIGN_IN_VALUES", "Sent", "SignInValues"]

_FEW: Final = 4
"""Up to this many values, each is looked for on its own (a substring search is the fastest
there is); past it, one compiled pattern finds any of them in one pass."""


class Sent(Protocol):
    """What of a request is looked through; the transport's ``HttpRequest`` has it.

    Read by shape, so that this module, which the transport imports, imports nothing of it.
    """

    @property
    def url(self) -> str:
        """The URL the provider built."""

    @property
    def params(self) -> Sequence[tuple[str, str]]:
        """Its query parameters."""

    @property
    def headers(self) -> Mapping[str, str]:
        """Its headers."""

    @property
    def form(self) -> Sequence[tuple[str, str]] | None:
        """Its form fields, if it sends a form."""

    @property
    def json(self) -> Any:
        """Its JSON body, if it sends one."""


class SignInValues:
    """The sign-in values handed out, as one check of a request (immutable; built again).

    Args:
        values: Every value recorded (access tokens, refresh tokens, given sign-ins).
        entries: The ids they are recorded under (store entries, provider ids, variables):
            a request to a host every one of them declares needs no look at all.

    Example:
        >>> from websearch_core.transport import HttpRequest
        >>> cookie = "__Secure-next-auth.session-token=abcdef0123456789; theme=dark"
        >>> values = SignInValues([cookie, "abcdef0123456789"])
        >>> values.needles  # the header holds its token: looking for the token finds both
        ('abcdef0123456789',)
        >>> values.may_be_in(HttpRequest(method="GET", url="https://a.example/?q=x"))
        False
        >>> values.may_be_in(HttpRequest(method="GET", url="https://a.example/",
        ...                              headers={"Cookie": cookie}))
        True
    """

    __slots__ = ("_pattern", "entries", "needles")

    def __init__(self, values: Iterable[str], entries: Iterable[str] = ()) -> None:
        self.entries: tuple[str, ...] = tuple(dict.fromkeys(entries))
        """The ids the values are recorded under, each once."""
        needles: list[str] = []
        for value in sorted({value for value in values if value}, key=len):
            if not any(needle in value for needle in needles):
                needles.append(value)
        self.needles: tuple[str, ...] = tuple(needles)
        """The values looked for: none of them holds another."""
        self._pattern = (
            re.compile("|".join(map(re.escape, needles))) if len(needles) > _FEW else None
        )

    def __bool__(self) -> bool:
        return bool(self.needles)

    def may_be_in(self, request: Sent) -> bool:
        """Whether ``request`` may carry one of the values (its URL, a header, a field, JSON).

        ``False`` is certain: no value is anywhere :func:`~websearch_core.sign_in_sends.
        carries` looks. Its JSON body is written out only when nothing else holds one.
        """
        parts = [request.url, *request.headers.values()]
        parts += [value for _, value in request.params]
        form = request.form
        if form:
            parts += [value for _, value in form]
        # Joined by NUL, which no environment variable holds: a value within one part is
        # within the whole, so none is missed (one search of a list's parts cost twice this).
        if self._found("\0".join(parts)):
            return True
        body = request.json
        return body is not None and self._found(json.dumps(body, default=str))

    def _found(self, text: str) -> bool:
        pattern = self._pattern
        if pattern is not None:
            return pattern.search(text) is not None
        return any(map(text.__contains__, self.needles))  # no generator frame of ours


NO_SIGN_IN_VALUES: Final = SignInValues(())
"""Nothing handed out yet."""
