"""The proxy the environment names for a request (``HTTP(S)_PROXY``, ``NO_PROXY``), no netrc.

aiohttp's ``trust_env`` would choose it, but it also reads ``~/.netrc`` (or the file
``$NETRC`` names) on every request and sends the login listed for the request's host as
``Authorization: Basic``: a user's netrc password for a host went to the search API
served there (and came back in its error bodies), and a request that already had an
``Authorization`` header (every Bearer key) failed with aiohttp's ``ValueError`` before
it was sent. So the client's own session does not trust the environment, and the
transport asks :class:`EnvironmentProxies` for each request's proxy instead. The rules
are :func:`urllib.request.getproxies` and :func:`urllib.request.proxy_bypass`, which
aiohttp and requests follow (``http_proxy`` before ``HTTP_PROXY``, no ``HTTP_PROXY``
under CGI, ``NO_PROXY`` by host suffix); netrc is consulted for no host, the proxy's
included: a proxy's credentials belong in its URL.

A blank value (empty, or spaces only, as the package's rule for every variable has it:
:func:`~websearch_core.env_values.is_blank`) names no proxy, in either case: a blank
lowercase ``http_proxy`` turns ``HTTP_PROXY`` off, as it does for urllib, requests, curl
and Chromium, and a blank ``HTTP_PROXY`` alone leaves requests direct. urllib takes spaces
for a proxy's URL: the browser's page then failed (``Invalid URL``), and ``ALL_PROXY=" "``
took its traffic off the address-checking proxy, as a real proxy of the user's does, so a
page reached the private addresses that proxy refuses.

The variables are looked at on every request (about a microsecond) and parsed again
only when one changed, so a proxy exported after the client opened is used, and its
credentials known, from the next request on.
"""

import os
import urllib.request
from collections.abc import Callable, Iterable
from urllib.parse import urlsplit

from .env_values import is_blank, values_reader
from .redaction import proxy_secrets

__all__ = ["PROXY_VARIABLES", "SYSTEM_PROXY_SETTINGS", "EnvironmentProxies"]

PROXY_VARIABLES = (
    "http_proxy",
    "HTTP_PROXY",
    "https_proxy",
    "HTTPS_PROXY",
    "all_proxy",
    "ALL_PROXY",
    "no_proxy",
    "NO_PROXY",
    "REQUEST_METHOD",
)
"""The variables whose change is noticed (``ALL_PROXY``: Chromium reads it, see
:meth:`EnvironmentProxies.any_named`). urllib reads every ``*_proxy`` name in any case;
one spelt otherwise (``Https_Proxy``), like a system proxy setting on macOS or Windows, is
read with the others, on the first request and after any of these changed."""

SYSTEM_PROXY_SETTINGS = "the system proxy settings"
"""Where urllib found a proxy no variable names (macOS's or Windows' own settings)."""

MAX_KEPT_HOSTS = 256
"""Hosts whose ``NO_PROXY`` answer is kept (the providers' and their redirects' hosts);
past that the answers are dropped and worked out again."""


class EnvironmentProxies:
    """The environment's proxies, parsed again only when one of their variables changed.

    Args:
        remember: Called with the credentials of every proxy the environment names
            (``http://user:pw@proxy``: its URL, password and ``user:password``) each time
            the variables change, before a request can go through it; the client passes
            :meth:`Credentials.add_secrets <websearch_core.credentials.Credentials.add_secrets>`,
            so they are masked wherever a key is, in every search of its session.
    """

    __slots__ = ("_by_scheme", "_bypassed", "_named", "_read", "_remember", "_seen")

    def __init__(self, remember: Callable[[Iterable[str]], None]) -> None:
        self._read = values_reader(os.environ, PROXY_VARIABLES)
        self._remember = remember
        self._seen: tuple[object, ...] | None = None
        self._by_scheme: dict[str, str] = {}
        self._bypassed: dict[str, bool] = {}
        self._named = False

    def for_url(self, url: str) -> str | None:
        """The proxy a request to ``url`` goes through, or ``None`` (none set, or ``NO_PROXY``)."""
        seen = self._read()
        if seen != self._seen:
            self._reload(seen)
        if not self._by_scheme:
            return None  # the usual case: no proxy in the environment
        parts = urlsplit(url)
        proxy = self._by_scheme.get(parts.scheme.lower())
        if proxy is None:
            return None
        host = parts.hostname or ""
        bypassed = self._bypassed.get(host)
        if bypassed is None:
            if len(self._bypassed) >= MAX_KEPT_HOSTS:
                self._bypassed.clear()
            bypassed = self._bypassed[host] = bool(urllib.request.proxy_bypass(host))
        return None if bypassed else proxy

    def variable_for(self, url: str) -> str | None:
        """The variable naming the proxy a request to ``url`` goes through, else ``None``.

        Its name as set (``https_proxy`` or ``HTTPS_PROXY``), never its value: an
        unreachable proxy's hint says which to check or unset. urllib prefers the
        lowercase name, so it is the one given when both are set; a proxy no variable
        names came from :data:`SYSTEM_PROXY_SETTINGS`.
        """
        if self.for_url(url) is None:
            return None
        wanted = f"{urlsplit(url).scheme.lower()}_proxy"
        named = [name for name in os.environ if name.lower() == wanted]
        named.sort(key=lambda name: name != wanted)  # the lowercase name first, as urllib
        for name in named:
            if not is_blank(os.environ.get(name, "")):
                return name
        return SYSTEM_PROXY_SETTINGS

    def any_named(self) -> bool:
        """Whether the environment names a proxy of any scheme (``ALL_PROXY`` included).

        Headless Chromium reads ``HTTP(S)_PROXY`` and ``ALL_PROXY`` itself when it starts,
        so the page fetcher asks this, not :meth:`for_url`, whether the browser's traffic
        may go through a proxy of the user's. Its credentials are handed over as for a
        request.
        """
        seen = self._read()
        if seen != self._seen:
            self._reload(seen)
        return self._named

    def _reload(self, seen: tuple[object, ...]) -> None:
        """Read the proxies again (``getproxies`` costs ~100 us: only after a change)."""
        # urllib has read the lowercase name first: a blank one there is "no proxy", and
        # a blank one it kept (spaces: "  " is not empty to it) names none either.
        found = {s: url for s, url in urllib.request.getproxies().items() if not is_blank(url)}
        self._remember(
            secret for url in found.values() if "@" in url for secret in proxy_secrets(url)
        )
        self._by_scheme = {scheme: found[scheme] for scheme in ("http", "https") if scheme in found}
        self._named = any(scheme != "no" for scheme in found)
        self._bypassed = {}
        self._seen = seen
