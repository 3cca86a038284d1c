"""Where a page's ``<meta http-equiv="refresh">`` sends the reader, and when.

A page that only says "this page has moved" and refreshes to its new address at once is
a redirect written in HTML; the fetcher follows it like an HTTP redirect (same limit, same
address rules) when the page has little text of its own. Pure: markup in, URL out.
"""

import re
from urllib.parse import urldefrag, urljoin

import lxml.etree
import lxml.html

__all__ = ["MAX_REFRESH_SECONDS", "refresh_target"]

MAX_REFRESH_SECONDS = 5
"""A longer delay is a page meant to be read first (or one that reloads itself)."""
_CONTENT = re.compile(
    r"""\A\s*(?=[\d.])(\d*)[\d.]*\s*[;,]?\s*(?:url\s*=\s*)?(.*)\Z""", re.IGNORECASE | re.DOTALL
)
"""A refresh's ``content``: a delay in seconds, then the URL (``0; url='/new'``), as the
HTML standard reads it: whole seconds first (what follows a dot is skipped), then the
separator, ``url=`` and quotes, each optional."""
_REFRESH_METAS = "//meta[translate(@http-equiv, 'REFSH', 'refsh') = 'refresh']/@content"


def refresh_target(html: str, url: str) -> str | None:
    """The absolute URL the page's first refresh leads to within :data:`MAX_REFRESH_SECONDS`.

    Args:
        html: The page's markup (already past the markup guard).
        url: The page's own URL, which relative targets are read against.

    Returns:
        The target, or ``None`` when the page has no such refresh, refreshes later, or
        refreshes to itself (a page that reloads is not a redirect).

    Example:
        >>> refresh_target('<meta http-equiv="Refresh" content="0; URL=/new">', "https://a.example/old")
        'https://a.example/new'
        >>> refresh_target('<meta http-equiv="refresh" content="300">', "https://a.example/")
    """
    try:
        tree = lxml.html.document_fromstring(html)
    except (lxml.etree.ParserError, ValueError):
        return None
    contents = tree.xpath(_REFRESH_METAS)
    for content in contents if isinstance(contents, list) else ():
        target = _soon(str(content))
        if target is None:
            continue
        try:
            absolute = urljoin(url, target)
        except ValueError:  # url=http://[x: no URL to follow
            continue
        return None if urldefrag(absolute).url == urldefrag(url).url else absolute
    return None


def _soon(content: str) -> str | None:
    """The URL of a refresh ``content`` when it is due soon, else ``None``."""
    match = _CONTENT.match(content)
    if match is None:
        return None
    seconds, target = match.groups()
    seconds = seconds.lstrip("0")
    # Two digits at most before int(): a page may write a delay of any length.
    soon = len(seconds) <= 2 and int(seconds or "0") <= MAX_REFRESH_SECONDS
    target = _unquoted(target.strip())
    return target if soon and target else None


def _unquoted(target: str) -> str:
    """``target`` without the quotes around it (``'/new'``), up to the closing one."""
    if target[:1] in {"'", '"'}:
        return target[1:].split(target[0], 1)[0].strip()
    return target
