"""The top-level domains table: the Public Suffix List's ICANN section of the version named.

Stop 55 (filters57): the table (``websearch_core/top_level_domains.py``) was read from
Debian's ``publicsuffix`` 20230209 and nothing proved it or said how to refresh it. It is
now the list published at ``LIST_VERSION`` (2026-03-06, the copy the ``tld`` package ships:
``hotel``, ``merck`` and ``wed`` delegated since, 45 brand names retired), read by
:mod:`websearch_core.public_suffix_list`, which also prints a newer copy's table.
"""

import importlib.util
from pathlib import Path

import pytest

from websearch_core.public_suffix_list import icann_top_level_domains, list_version, main
from websearch_core.top_level_domains import LIST_VERSION, TOP_LEVEL_DOMAINS

EXCERPT = """// This Source Code Form is subject to the terms of the Mozilla Public License.
// VERSION: 2026-03-06_02-20-37_UTC
// COMMIT: a7621207f34b3a739a5cfb2c47a518b0b9054fe6

// ===BEGIN ICANN DOMAINS===

// ac : Ascension Island
ac
com.ac
// ck : https://en.wikipedia.org/wiki/.ck
*.ck
!www.ck
// xn--j6w193g ("Hong Kong", Chinese) : HK
香港
公司.香港
// hotel : 2026 delegation
HOTEL

// ===END ICANN DOMAINS===
// ===BEGIN PRIVATE DOMAINS===
github.io
blogspot.example
// ===END PRIVATE DOMAINS===
"""
"""An excerpt in the list's own layout (its rules as publicsuffix.org writes them)."""


def _copies() -> list[Path]:
    """The copy of the list the test extra's ``tld`` ships (pinned to the list's version)."""
    spec = importlib.util.find_spec("tld")
    if spec is None or spec.origin is None:
        return []
    found = Path(spec.origin).parent / "res" / "effective_tld_names.dat.txt"
    return [found] if found.is_file() else []


def test_the_icann_section_is_read_as_hosts_write_their_last_label() -> None:
    # Failed before: no reader of the list; the table was pasted with nothing to check it.
    assert icann_top_level_domains(EXCERPT) == {"ac", "ck", "xn--j6w193g", "hotel"}
    assert list_version(EXCERPT) == "2026-03-06_02-20-37_UTC"


def test_text_with_no_icann_section_is_refused() -> None:
    with pytest.raises(ValueError, match="not a copy of the Public Suffix List"):
        icann_top_level_domains("com\nnet\n")


def test_the_table_is_the_icann_section_of_the_list_it_names() -> None:
    # Failed before: the table named no version, and read as the 2023 list (1490 names,
    # `hotel` missing, `lancia` and 44 more retired since still in it).
    same = [path for path in _copies() if list_version(path.read_text("utf-8")) == LIST_VERSION]
    if not same:
        pytest.skip(f"no copy of the list at {LIST_VERSION} on this machine")
    for path in same:
        assert icann_top_level_domains(path.read_text("utf-8")) == TOP_LEVEL_DOMAINS, path


def test_the_table_holds_the_names_delegated_by_its_version() -> None:
    # Failed before: `hotel` (delegated 2024) read as no top-level domain.
    assert {"hotel", "merck", "wed", "io", "com", "xn--p1ai"} <= TOP_LEVEL_DOMAINS
    assert not {"lancia", "xfinity", "js"} & TOP_LEVEL_DOMAINS
    assert len(TOP_LEVEL_DOMAINS) == 1448


def test_the_refresh_command_prints_what_a_copy_changes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    copy = tmp_path / "public_suffix_list.dat"
    copy.write_text(EXCERPT, encoding="utf-8")
    assert main([str(copy)]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[0] == f"version: {LIST_VERSION} (the table's: {LIST_VERSION}); 4 names"
    assert printed[1] == "in the copy, not the table: none"
    assert printed[-1] == "    ac ck hotel xn--j6w193g"
    assert main([str(tmp_path / "missing.dat")]) == 2
