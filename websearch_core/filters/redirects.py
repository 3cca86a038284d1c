"""Result URLs that lead through a provider's redirect, and the host the result names instead.

Gemini's grounding sources come as ``https://vertexaisearch.cloud.google.com/
grounding-api-redirect/<token>`` (both real captures, ``fixtures/gemini/``), the page's
site only in the chunk's ``title`` (``weather.gov``, ``accuweather.com``); Google's types
also document a ``domain`` field ("Domain of the (original) URI"), filled on Vertex AI
alone and in no capture, read first where given (:func:`redirected_host`). Judged on its
URL, such a source is on Google's host with a path naming no file type:
``site:weather.gov`` dropped all five sources of the capture and the answer with them,
while ``-site:weather.gov`` and ``-filetype:pdf`` kept every one under a record saying
they were checked. The URL stays what the provider sent (resolving it would
cost a request per source, see the Gemini provider's notes); only the checks read the host
from where the provider names it, and a result whose host nothing names is kept and its
filter recorded as not checked on it.

The other answer engines' captures (Perplexity, Anthropic, xAI, OpenAI and Codex, Z.AI,
Kimi) give each page's own URL, OpenAI's with ``utm_source=openai`` added: no redirect.
"""

import re
from dataclasses import dataclass
from typing import Final
from urllib.parse import SplitResult

from ..domain_names import domain_name
from ..top_level_domains import TOP_LEVEL_DOMAINS

__all__ = ["REDIRECTS", "Redirect", "is_redirect", "named_host", "redirected_host"]


@dataclass(frozen=True, slots=True)
class Redirect:
    """A provider's redirect: URLs on ``host`` whose path starts with ``path_prefix``."""

    provider: str
    host: str
    path_prefix: str


REDIRECTS: Final[tuple[Redirect, ...]] = (
    Redirect("gemini", "vertexaisearch.cloud.google.com", "/grounding-api-redirect/"),
)
"""Every redirect a provider hands out as a result's URL (the one place this is known)."""
_PLAIN_NAME: Final = re.compile(r"^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$")
"""An ASCII host name ending in a letters-only label: no IP address, nothing to encode."""


def is_redirect(parts: SplitResult) -> bool:
    """Whether a split URL leads through one of :data:`REDIRECTS` (its host says nothing).

    Example:
        >>> from urllib.parse import urlsplit
        >>> is_redirect(urlsplit(
        ...     "https://vertexaisearch.cloud.google.com/grounding-api-redirect/AUZ"))
        True
        >>> is_redirect(urlsplit("https://vertexaisearch.cloud.google.com/other"))
        False
    """
    # The path first: it is a plain string, where ``hostname`` is parsed on each access,
    # and every result of every filtered search passes through here.
    return any(
        parts.path.startswith(redirect.path_prefix) and parts.hostname == redirect.host
        for redirect in REDIRECTS
    )


def redirected_host(title: str, domain: str | None) -> str | None:
    """The host a redirected result is on: the ``domain`` its provider gave, else its title's.

    Gemini's ``web.domain`` (documented, filled on Vertex AI only) names the page's
    domain outright, so it wins over a title, which names one only by the way Google
    titles a source (:func:`named_host`); ``None`` when neither names a host.

    Example:
        >>> redirected_host("Node.js", "nodejs.org"), redirected_host("weather.gov", None)
        ('nodejs.org', 'weather.gov')
        >>> redirected_host("Node.js", None) is None
        True
    """
    if domain:
        host = domain.strip().lower().removeprefix("www.")
        if host and not any(host == redirect.host for redirect in REDIRECTS):
            return host
    return named_host(title)


def named_host(title: str) -> str | None:
    """The host a redirected result's title names, when the title is written as one.

    Gemini titles a grounding source with its site's domain as a host is written, in
    lower case (every one in both captures: ``weather.gov``, ``wunderground.com``,
    ``accuweather.com``, ``timeanddate.com``, and in the Interactions API's capture
    ``marketingprofs.com``, ``sap.com``, ``youtube.com``, ``etcjournal.com``); a title that
    is a page's words (``Weather information for San Francisco``) names no host. Neither
    does a name written with capitals: ``Node.js``, ``Vue.js`` and ``ASP.NET`` have a
    domain's shape, yet are a product's or a page's name, and read as hosts they dropped a
    page of nodejs.org for ``site:nodejs.org``. Nor one written in lower case whose last
    label is no top-level domain (:data:`~..top_level_domains.TOP_LEVEL_DOMAINS`):
    ``node.js`` and ``three.js`` are products, as no host can end in ``.js``. A product
    named as its own site is (``socket.io`` is Socket.IO's): its page is on that host or
    one Google names so. ``None`` says the host is unknown rather than guessed.

    Example:
        >>> named_host("www.weather.gov"), named_host("Weather in Paris")
        ('weather.gov', None)
        >>> named_host("Node.js"), named_host("ASP.NET"), named_host("Vue.js")
        (None, None, None)
        >>> named_host("node.js"), named_host("socket.io")
        (None, 'socket.io')
        >>> named_host("vertexaisearch.cloud.google.com") is None
        True
    """
    text = title.strip()
    # Upper case read against (not ``islower``, false for a name in a script without case).
    if not text or text != text.lower() or any(character.isspace() for character in text):
        return None
    text = text.removeprefix("www.")
    if _PLAIN_NAME.match(text):  # the titles seen: read at once, not through the checks
        host = text
    else:
        try:
            host = domain_name(text)
        except ValueError:
            return None
    if host.rpartition(".")[2] not in TOP_LEVEL_DOMAINS:
        return None  # a product's name (``node.js``), not a host's
    # A title naming the redirect's own host (a URL given as its title) names no page's.
    return None if any(host == redirect.host for redirect in REDIRECTS) else host
