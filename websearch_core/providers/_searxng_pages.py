"""What a SearXNG instance's non-JSON answers mean: pure functions over one response.

Split out of :mod:`websearch_core.providers.searxng`, which keeps the request and its hooks.
An instance answers HTML where JSON was asked for in three situations, and each gets an
error that says which one without echoing the page:

* a bot check in front of ``/search`` ("Verifying your request", Anubis, Cloudflare),
  whatever the status: a :class:`~websearch_core.errors.ChallengeError`;
* ``403`` with an HTML page and no ``WWW-Authenticate`` challenge: the instance refusing
  the ``json`` format (``search.formats`` in its ``settings.yml`` lacks it), a
  :class:`~websearch_core.errors.ProviderNotConfiguredError` without an HTTP status, so it
  never reads as a key problem. A ``403`` with a JSON or plain body stays an authorization
  failure: with a token or Basic auth in front of the instance that is what it means;
* any other HTML error page: reported by its status and ``<title>`` only.

A ``200`` that is not JSON is a bot check or a :class:`~websearch_core.errors.ResponseParseError`,
never an empty success.
"""

import re
from typing import Any, Final
from urllib.parse import urlsplit

from ..errors import (
    ChallengeError,
    ProviderNotConfiguredError,
    ResponseParseError,
    SearchProviderError,
)
from ..event_stream_body import invalid_json_text
from ..json_decode import response_json, without_bom
from ..transport import HttpResponse, body_head_text, raise_for_status
from ._common import collapse_whitespace
from ._lowered import found_lowered

__all__ = ["JSON_FORMAT_DISABLED", "decode_json", "detect_challenge", "html_page_error"]

PROVIDER_ID: Final = "searxng"
LABEL: Final = "SearXNG"

JSON_FORMAT_DISABLED: Final = (
    'SearXNG instance{where} does not serve the JSON format (403): enable "json" in '
    "search.formats of its settings.yml."
)
_TITLE_OPEN: Final = re.compile(r"<title", re.IGNORECASE)
"""A title's opening tag up to its attributes; the tag ends at the first ``>`` after it.

If the first ``<title`` has no ``>`` after it, no later one has: one pattern through the
``>`` read the rest of the page again from each (``<title`` repeated: quadratic, stop 56)."""
_TITLE_CLOSE: Final = re.compile(r"</title\s*>", re.IGNORECASE)
"""The first title, found as its two tags: one lazy pattern tried again at each of
thousands of ``<title>`` took seconds on a 32 KiB error page."""
_CHALLENGE_MARKERS: Final = (
    "verifying your request",  # searx.be and other instances behind the same anti-bot
    "verify you are human",
    "checking your browser",
    "making sure you're not a bot",  # Anubis
    "making sure you&#39;re not a bot",
    "just a moment...",  # Cloudflare
    "cf-chl-",
    "challenge-platform",
    "g-recaptcha",
    "h-captcha",
    "cf-turnstile",
)
"""Phrases and markup of bot checks. A bare "captcha" is not one: SearXNG's own HTML
results page names engines that hit a CAPTCHA, and that page is not a challenge."""


def detect_challenge(body: str) -> str | None:
    """A short description of the bot-check page in ``body``, or ``None`` if it is not one.

    Args:
        body: A decoded non-JSON response body.

    Returns:
        The page title (or ``"bot check"``) when a challenge marker is present.

    Example:
        >>> detect_challenge("<title>x | Verifying your request</title>")
        'x | Verifying your request'
    """
    if not found_lowered(body, _CHALLENGE_MARKERS):
        return None
    return _page_title(body) or "bot check"


def _challenge_error(challenge: str) -> ChallengeError:
    return ChallengeError(
        PROVIDER_ID,
        f'SearXNG instance served a bot-check page ("{challenge}") instead of JSON '
        "results; use an instance that allows API access.",
    )


def _looks_like_html(text: str) -> bool:
    head = text.lstrip()[:512].lower()
    return head.startswith("<") and ("<html" in head or "<!doctype" in head or "<title" in head)


def _page_title(text: str) -> str | None:
    opening = _TITLE_OPEN.search(text)
    content = text.find(">", opening.end()) + 1 if opening else 0
    closing = _TITLE_CLOSE.search(text, content) if content else None
    if closing is None:
        return None
    title = collapse_whitespace(text[content : closing.start()])
    return title[:120] or None


def _host(url: str) -> str | None:
    """``host[:port]`` of ``url``, never its user-info (which may hold a password)."""
    try:
        parts = urlsplit(url)
        host, port = parts.hostname, parts.port
    except ValueError:
        return None
    if not host:
        return None
    return f"{host}:{port}" if port is not None else host


def decode_json(response: HttpResponse) -> Any:
    """The decoded body of a 2xx answer.

    Raises:
        ChallengeError: The body is a bot-check page.
        ResponseParseError: Any other body that is not JSON (HTML or otherwise).
    """
    try:
        return response_json(response.body)
    except ValueError:
        pass
    text = without_bom(response.text())  # a page led by the mark is still HTML
    challenge = detect_challenge(text)
    if challenge is not None:
        raise _challenge_error(challenge)
    if text.lstrip().startswith("<"):
        raise ResponseParseError(
            PROVIDER_ID,
            "SearXNG returned HTML instead of JSON; check that searxng.endpoint points at a "
            "SearXNG instance with the json format enabled.",
            502,
        )
    frame = "SearXNG API returned invalid JSON"
    content_type = response.header("Content-Type")
    raise ResponseParseError(
        PROVIDER_ID, invalid_json_text(frame, content_type, response.body), 502
    )


def html_page_error(response: HttpResponse) -> SearchProviderError | None:
    """The error an HTML error page stands for, or ``None`` for a 2xx or a non-HTML body.

    Reads the status, the body's head, the ``WWW-Authenticate`` header and the response
    URL's host, which is why it takes the whole response (see the module docstring).
    """
    status = response.status
    if 200 <= status < 300:
        return None
    text = body_head_text(response.body)
    if not _looks_like_html(text):
        return None
    challenge = detect_challenge(text)
    if challenge is not None:
        return _challenge_error(challenge)
    if status == 403 and response.header("WWW-Authenticate") is None:
        host = _host(response.url)
        where = f" at {host}" if host else ""
        return ProviderNotConfiguredError(PROVIDER_ID, JSON_FORMAT_DISABLED.format(where=where))
    title = _page_title(text)
    reason = f": {title}" if title else ""
    try:
        raise_for_status(PROVIDER_ID, response, f"{LABEL} API error ({status}){reason}")
    except SearchProviderError as error:
        return error
    return None  # not reached: raise_for_status raises for every non-2xx status
