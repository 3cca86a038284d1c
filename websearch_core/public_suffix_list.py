"""The top-level domains read from a copy of the Public Suffix List, to refresh our table.

:data:`~.top_level_domains.TOP_LEVEL_DOMAINS` is the last label of each rule of the list's
ICANN section (IANA's root zone as publicsuffix.org keeps it), written into the package as
data so that no search reads a file or the network. Its ``LIST_VERSION`` names the list it
was read from; this module reads a copy of the list to show what a newer one changes and to
print the table for that module, and the tests read a copy of the same version to prove
the table is that list's.

Run ``python -m websearch_core.public_suffix_list PATH`` on a copy of
``public_suffix_list.dat`` (publicsuffix.org's, or one a package ships: Debian's
``publicsuffix`` at ``/usr/share/publicsuffix/``, the ``tld`` package's
``res/effective_tld_names.dat.txt``): it prints the list's version, the names it holds
and the table does not (delegated since, for a newer copy) and the other way round
(retired), and the table to paste.
"""

import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Final

__all__ = ["icann_top_level_domains", "list_version", "main"]

_BEGIN: Final = "// ===BEGIN ICANN DOMAINS==="
_END: Final = "// ===END ICANN DOMAINS==="
_VERSION: Final = "// VERSION:"
_WIDTH: Final = 88
"""The table's lines, as ``ruff format`` leaves a string's lines alone (4 spaces in)."""


def list_version(text: str) -> str | None:
    r"""The ``// VERSION:`` line of a published copy of the list (``None``: none given).

    Example:
        >>> list_version("// VERSION: 2026-03-06_02-20-37_UTC\ncom\n")
        '2026-03-06_02-20-37_UTC'
    """
    for line in text.splitlines():
        if line.startswith(_VERSION):
            return line.removeprefix(_VERSION).strip() or None
    return None


def icann_top_level_domains(text: str) -> frozenset[str]:
    r"""The last label of each rule of the list's ICANN section, as a host writes it.

    A wildcard (``*.ck``) and an exception (``!www.ck``) name their top-level domain as a
    plain rule does; an internationalized label is written in its ASCII (``xn--``) form,
    as :func:`~.domain_names.domain_name` writes a host. The PRIVATE section (companies'
    own suffixes, ``github.io``) names no new top-level domain and is not read.

    Raises:
        ValueError: ``text`` has no ICANN section (not a copy of the list).

    Example:
        >>> sorted(icann_top_level_domains(
        ...     "// ===BEGIN ICANN DOMAINS===\nco.uk\n*.ck\n!www.ck\n// c\n香港\n"
        ...     "// ===END ICANN DOMAINS===\n// ===BEGIN PRIVATE DOMAINS===\nx.example\n"))
        ['ck', 'uk', 'xn--j6w193g']
    """
    if _BEGIN not in text:
        raise ValueError("no ICANN section: not a copy of the Public Suffix List")
    section = text.split(_BEGIN, 1)[1].split(_END, 1)[0]
    names: set[str] = set()
    for line in section.splitlines():
        rule = line.split()[0] if line.strip() else ""
        if not rule or rule.startswith("//"):
            continue
        label = rule.lstrip("!*.").rpartition(".")[2].lower()
        names.add(label if label.isascii() else label.encode("idna").decode("ascii"))
    return frozenset(names)


def main(argv: Sequence[str] | None = None) -> int:
    """Print a copy's version, what it changes against our table, and the table.

    Returns:
        0, or 2 when no copy of the list is given or it cannot be read.
    """
    from .top_level_domains import LIST_VERSION, TOP_LEVEL_DOMAINS

    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        print("usage: python -m websearch_core.public_suffix_list PATH", file=sys.stderr)
        return 2
    try:
        text = Path(args[0]).read_text(encoding="utf-8")
        names = icann_top_level_domains(text)
    except (OSError, UnicodeDecodeError, ValueError) as error:
        print(f"cannot read the list: {error}", file=sys.stderr)
        return 2
    print(f"version: {list_version(text)} (the table's: {LIST_VERSION}); {len(names)} names")
    print("in the copy, not the table:", " ".join(sorted(names - TOP_LEVEL_DOMAINS)) or "none")
    print("in the table, not the copy:", " ".join(sorted(TOP_LEVEL_DOMAINS - names)) or "none")
    print(_table(names))
    return 0


def _table(names: frozenset[str]) -> str:
    """``names`` sorted, as the table's lines (never broken inside a name's ``--``).

    Example:
        >>> print(_table(frozenset({"xn--p1ai", "com"})))
            com xn--p1ai
    """
    return textwrap.fill(
        " ".join(sorted(names)),
        _WIDTH,
        initial_indent="    ",
        subsequent_indent="    ",
        break_on_hyphens=False,
        break_long_words=False,
    )


if __name__ == "__main__":
    raise SystemExit(main())
