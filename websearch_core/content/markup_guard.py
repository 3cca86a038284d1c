"""Markup that would keep lxml busy for minutes, found before lxml sees it.

libxml2's HTML parser checks each attribute of a start tag against every one before it,
so an element with *n* distinct attributes costs n squared comparisons: 40,000
attributes take about two seconds, 80,000 about eight, and the few megabytes a fetched page
may hold fit hundreds of thousands (minutes, on a thread that cannot be stopped, while
the call's deadline has long passed). No page of the annotated article set or of the
engines' captures has an element with more than 49 attributes, so an element with
:data:`MAX_ATTRIBUTES` or more is taken as hostile.

The scan reads start tags as the HTML tokenizer does, so attributes cannot hide from it:
a quoted value may hold ``>`` or ``<`` (``a0=">" a1=">" ...``), a quoted value may be
followed by the next name without a space, ``/`` separates attributes like a space, and
the text of ``<script>`` and ``<style>`` elements is skipped whole (it holds no tags, and
code such as ``i<n ? a="x" : b="y"`` would otherwise read like attributes). It costs about
half as much as lxml's parse of the same page (0.5 ms a page on the annotated pages, 174 KB
on average), so it guards the page fetcher, whose extraction costs some fifty times that,
and not the engines' results pages: they come from the engines themselves, and are parsed
on the path ``benchmarks/bench_parsers.py`` holds to 1.5x lxml's parse.
"""

import re

__all__ = ["MAX_ATTRIBUTES", "CrowdedMarkupError", "check_markup", "crowded_element"]

MAX_ATTRIBUTES = 256
"""Attributes on one element from which a page is refused (real pages stay under 50)."""

_SEPARATORS = r"[\t\n\f\r /]*+"
_NAME = r"[^\t\n\f\r />][^\t\n\f\r /=>]*+"
_VALUE = r"(?>[\t\n\f\r ]*+=[\t\n\f\r ]*+(?>\"[^\"]*+\"?|'[^']*+'?|[^\t\n\f\r >]*+))?+"
_ATTRIBUTE = f"(?>{_SEPARATORS}{_NAME}{_VALUE})"
_FEWER = f"{_ATTRIBUTE}{{0,{MAX_ATTRIBUTES - 1}}}+(?!{_ATTRIBUTE})"
"""Fewer than MAX_ATTRIBUTES attributes, and all of them."""
_TAG_NAME = r"[A-Za-z][^\t\n\f\r />]*+"


def _raw_text(name: str) -> str:
    """A ``name`` element with fewer attributes than the limit, and its text."""
    return (
        rf"<{name}(?![^\t\n\f\r />]){_FEWER}{_SEPARATORS}>?"
        # Its text, in runs without "<", to the first "</name": where HTML5 ends it, or
        # earlier (older libxml2 stops at the name alone), never later, so nothing lxml
        # reads as markup is skipped. (No group and back-reference for the name: inside
        # the possessive walk, CPython's re raises SystemError on one.)
        rf"[^<]*+(?:<(?!/{name})[^<]*+)*+"
    )


_WALK = re.compile(
    # One pass from the start, every part possessive: what it has read it never reads
    # again (a search that restarts at each "<" reads "<a<a<a..." quadratically), and it
    # stops at the first start tag with MAX_ATTRIBUTES or more attributes, if any.
    rf"(?>[^<]++|<(?![A-Za-z])|{_raw_text('script')}|{_raw_text('style')}"
    rf"|<{_TAG_NAME}{_FEWER})*+"
    rf"(?P<crowded><{_TAG_NAME}){_ATTRIBUTE}{{{MAX_ATTRIBUTES}}}",
    re.IGNORECASE,
)


def crowded_element(html: str) -> str | None:
    """The start of the first element with :data:`MAX_ATTRIBUTES` or more attributes.

    Args:
        html: A decoded page.

    Returns:
        Its tag name (``<div``), or ``None`` when every element has fewer.

    Example:
        >>> crowded_element("<p class=x>" + "<script>i<n</script>")
        >>> crowded_element("<div " + " ".join(f'a{i}=">"' for i in range(300)) + ">")
        '<div'
    """
    found = _WALK.match(html)  # anchored: one walk through the page, never a restart
    return None if found is None else found.group("crowded")[:40]


class CrowdedMarkupError(ValueError):
    """A page holds an element with :data:`MAX_ATTRIBUTES` or more attributes; not parsed.

    Args:
        tag: The start of the element's tag (``<div``).
    """

    def __init__(self, tag: str) -> None:
        super().__init__(
            f"the page has an element ({tag}) with {MAX_ATTRIBUTES} or more attributes, which "
            "would take minutes to parse; it was not read"
        )
        self.tag = tag


def check_markup(html: str) -> None:
    """Raise :class:`CrowdedMarkupError` for a page :func:`crowded_element` finds one in."""
    tag = crowded_element(html)
    if tag is not None:
        raise CrowdedMarkupError(tag)
