"""The credential store keeps a parsed file only while the file is provably unchanged.

Every search asks the store about each provider without a key, so the parsed file is
kept between lookups; these tests hold it to the old behaviour of reading the file every
time: whatever was written before a lookup is what that lookup sees.
"""

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, cast

import pytest

from websearch_core import credentials
from websearch_core.credentials import Credentials, CredentialStore
from websearch_core.errors import ConfigurationError
from websearch_core.orchestration import resolve_candidates
from websearch_core.providers.base import ProviderContext
from websearch_core.settings import Settings
from websearch_core.transport import Transport

from ._spies import count_calls


def _write_in_place(path: Path, data: Mapping[str, Any]) -> None:
    """Rewrite the same inode, as an editor saving over the file does."""
    with path.open("r+", encoding="utf-8") as handle:
        handle.seek(0)
        handle.truncate()
        handle.write(json.dumps(data))


def test_a_fresh_same_size_edit_in_place_is_seen(tmp_path: Path) -> None:
    path = tmp_path / "creds.json"
    path.write_text(json.dumps({"brave": {"api_key": "aaaa"}}), encoding="utf-8")
    store = CredentialStore(path)
    assert store.get("brave") == "aaaa"
    # Same inode, same size, and likely the same coarse time stamp: only the settling
    # rule keeps this read from being served the old content.
    _write_in_place(path, {"brave": {"api_key": "bbbb"}})
    assert store.get("brave") == "bbbb"


def test_a_settled_file_is_parsed_once_and_changes_still_show(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(credentials, "SETTLED_NS", -1)  # every file counts as settled
    path = tmp_path / "creds.json"
    CredentialStore(path).set("brave", "first")
    store = CredentialStore(path)
    loads = count_calls(store, "_load", monkeypatch)
    assert [store.get("brave"), store.get("brave"), store.get("tavily")] == ["first", "first", None]
    assert len(loads) == 1
    CredentialStore(path).set("brave", "second")  # another process's write
    assert store.get("brave") == "second"
    assert len(loads) == 2


def test_a_file_that_breaks_or_goes_after_a_read_is_not_served_from_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(credentials, "SETTLED_NS", -1)
    path = tmp_path / "creds.json"
    store = CredentialStore(path)
    assert store.get("brave") is None  # missing file
    store.set("brave", "kept")
    assert store.get("brave") == "kept"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(ConfigurationError, match="not valid JSON"):
        store.get("brave")
    path.unlink()
    assert store.get("brave") is None


def test_writes_never_change_what_an_earlier_read_returned(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(credentials, "SETTLED_NS", -1)
    store = CredentialStore(tmp_path / "creds.json")
    store.set("brave", "one")
    before = store._read()
    store.set("tavily", "two")
    assert before == {"brave": {"api_key": "one"}}
    assert store.providers() == ["brave", "tavily"]


class _Recording(Mapping[str, str]):
    """An environment that records which variables were read."""

    def __init__(self, values: Mapping[str, str]) -> None:
        self._data = dict(values)
        self.read: list[str] = []

    def __getitem__(self, name: str) -> str:
        self.read.append(name)
        return self._data[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)


def test_a_key_given_in_code_reads_no_environment_variable() -> None:
    environ = _Recording({"BRAVE_API_KEY": "from-env", "BRAVE_SEARCH_API_KEY": "other"})
    resolver = Credentials(explicit={"brave": "from-code"}, environ=environ)
    assert resolver.api_key("brave", ["BRAVE_API_KEY", "BRAVE_SEARCH_API_KEY"]) == "from-code"
    assert environ.read == []
    # Without one, the variables are read in order and the first key ends the search.
    assert (
        Credentials(environ=environ).api_key("brave", ["BRAVE_API_KEY", "BRAVE_SEARCH_API_KEY"])
        == "from-env"
    )
    assert environ.read == ["BRAVE_API_KEY"]


def test_inside_a_hold_the_file_is_looked_at_once_and_writes_look_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "creds.json"
    store = CredentialStore(path)
    store.set("brave", "one")
    looks = count_calls(store, "_current", monkeypatch)  # each a stat, a read if changed
    with store.held():
        assert [store.get("brave"), store.get("tavily"), store.get("exa")] == ["one", None, None]
        assert len(looks) == 1
        store.set("tavily", "two")  # a write inside the hold is seen inside it
        assert store.get("tavily") == "two"
        assert len(looks) == 2
    _write_in_place(path, {"brave": {"api_key": "three"}})  # after the hold: seen at once
    assert store.get("brave") == "three"


def _plan(context: ProviderContext) -> list[str]:
    return [provider.info.id for provider in resolve_candidates(context).providers]


def test_the_auto_chain_looks_at_the_store_once_and_sees_keys_stored_later(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = CredentialStore(tmp_path / "creds.json")
    context = ProviderContext(
        transport=cast(Transport, None),
        settings=Settings(credentials_file=store.path),
        credentials=Credentials(store=store, environ={}),
    )
    looks = count_calls(store, "_current", monkeypatch)  # each a stat, a read if changed
    assert "tavily" not in _plan(context)
    assert len(looks) == 1  # every provider without a key asked, one look at the file
    CredentialStore(store.path).set("tavily", "stored-after-the-client-was-made")
    assert "tavily" in _plan(context)
