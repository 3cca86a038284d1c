"""A plan is kept while the credentials it rests on stay the same.

Which providers can run is decided by keys in code and config, the environment and the
credential store alone. A client keeps the last plan and asks every provider again only
when one of those changed since: a key exported, unset, stored or removed between two
searches shows in the very next plan, exactly as when every plan was worked out afresh.
"""

import json
from collections.abc import AsyncIterator, Iterator, Mapping
from pathlib import Path

import aiohttp
import pytest

from websearch_core import credentials
from websearch_core.call_setup import CallSetup
from websearch_core.credentials import Credentials, CredentialStore, OAuthToken
from websearch_core.errors import ConfigurationError
from websearch_core.models import Attempt
from websearch_core.settings import Settings

from ._spies import count_calls

BRAVE_KEY = "brave-key-given-in-code-0123456789"
TAVILY_KEY = "tvly-exported-between-searches-0123456789"
SERPER_KEY = "serper-stored-between-searches-0123456789"
CODEX_ACCESS = "codex-access-token-signed-in-later-0123456789"
FREE_ENGINES = ["duckduckgo", "bing", "yahoo", "startpage", "google", "ecosia", "mojeek"]


class _Environment(Mapping[str, str]):
    """An environment a test can change between two plans."""

    def __init__(self) -> None:
        self.values: dict[str, str] = {}

    def __getitem__(self, name: str) -> str:
        return self.values[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.values)

    def __len__(self) -> int:
        return len(self.values)


@pytest.fixture
def settled(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every credential file counts as settled, as one written days ago does."""
    monkeypatch.setattr(credentials, "SETTLED_NS", -1)


@pytest.fixture
async def session() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as opened:
        yield opened


def _setup(
    session: aiohttp.ClientSession,
    store: CredentialStore,
    environ: Mapping[str, str] | None = None,
    listed: tuple[str, ...] = (),
) -> CallSetup:
    """The auto chain's setup (or the ``listed`` chain's), with Brave's key given in code."""
    resolver = Credentials(explicit={"brave": BRAVE_KEY}, store=store, environ=environ)
    settings = Settings(state_backend="memory", providers=listed)
    return CallSetup(session, settings, resolver, None)


def _ids(setup: CallSetup, forced: str | None = None) -> list[str]:
    return [provider.info.id for provider in setup.plan(forced).providers]


@pytest.mark.usefixtures("settled")
async def test_a_second_plan_with_nothing_changed_asks_no_provider_again(
    session: aiohttp.ClientSession, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = CredentialStore(tmp_path / "credentials.json")
    store.set("serper", SERPER_KEY)
    setup = _setup(session, store, _Environment())
    lookups = count_calls(store, "_read", monkeypatch)  # one a provider asked

    first = _ids(setup)
    asked = len(lookups)
    assert asked > 10  # the store is asked about every provider without a key
    # The first plan read the file before it was kept, so the second asks again and pins
    # what it read; from then on nothing is asked while nothing changes.
    assert _ids(setup) == first
    assert len(lookups) == 2 * asked
    assert _ids(setup) == _ids(setup) == first == ["brave", "serper", *FREE_ENGINES]
    assert len(lookups) == 2 * asked


@pytest.mark.usefixtures("settled")
async def test_a_key_exported_or_unset_between_plans_shows_in_the_next(
    session: aiohttp.ClientSession, tmp_path: Path
) -> None:
    environment = _Environment()
    setup = _setup(session, CredentialStore(tmp_path / "credentials.json"), environment)
    assert _ids(setup) == _ids(setup) == ["brave", *FREE_ENGINES]

    environment.values["TAVILY_API_KEY"] = TAVILY_KEY
    assert _ids(setup) == ["tavily", "brave", *FREE_ENGINES]
    environment.values["TAVILY_API_KEY"] = "   "  # blank is no key
    assert _ids(setup) == ["brave", *FREE_ENGINES]
    environment.values["PERPLEXITY_COOKIES"] = "session=abc"  # read by Credentials.env
    assert _ids(setup)[0] == "perplexity"
    del environment.values["PERPLEXITY_COOKIES"]
    assert _ids(setup) == ["brave", *FREE_ENGINES]


@pytest.mark.usefixtures("settled")
async def test_the_process_environment_is_followed_too(
    session: aiohttp.ClientSession, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TAVILY_API_KEY", raising=False)
    setup = _setup(session, CredentialStore(tmp_path / "credentials.json"))
    assert _ids(setup) == _ids(setup) == ["brave", *FREE_ENGINES]
    monkeypatch.setenv("TAVILY_API_KEY", TAVILY_KEY)
    assert _ids(setup) == ["tavily", "brave", *FREE_ENGINES]
    monkeypatch.delenv("TAVILY_API_KEY")
    assert _ids(setup) == ["brave", *FREE_ENGINES]


@pytest.mark.usefixtures("settled")
async def test_a_key_stored_or_removed_between_plans_shows_in_the_next(
    session: aiohttp.ClientSession, tmp_path: Path
) -> None:
    path = tmp_path / "credentials.json"
    setup = _setup(session, CredentialStore(path), _Environment())
    assert _ids(setup) == _ids(setup) == ["brave", *FREE_ENGINES]  # no file yet

    CredentialStore(path).set("serper", SERPER_KEY)  # another process's write
    assert _ids(setup) == _ids(setup) == ["brave", "serper", *FREE_ENGINES]
    CredentialStore(path).remove("serper")
    assert _ids(setup) == ["brave", *FREE_ENGINES]
    path.unlink()
    assert _ids(setup) == ["brave", *FREE_ENGINES]


@pytest.mark.usefixtures("settled")
async def test_guard_a_sign_in_stored_after_plans_without_a_file_shows_in_the_next(
    session: aiohttp.ClientSession, tmp_path: Path
) -> None:
    """Guard (stop 42; passes before and after): ``websearch auth`` signing in later.

    The common start: no credential file at all, kept as such over several plans; a
    sign-in written then by the CLI (another process) is in the very next plan, and its
    removal (a sign-out) too.
    """
    path = tmp_path / "config" / "credentials.json"  # not even its directory yet
    setup = _setup(session, CredentialStore(path), _Environment())
    assert _ids(setup) == _ids(setup) == _ids(setup) == ["brave", *FREE_ENGINES]
    CredentialStore(path).set_oauth("codex", OAuthToken(access_token=CODEX_ACCESS))
    signed_in = _ids(setup)
    assert "codex" in signed_in and signed_in == _ids(setup)
    CredentialStore(path).remove("codex")
    assert _ids(setup) == ["brave", *FREE_ENGINES]


async def test_a_store_changed_just_now_is_asked_again_every_plan(
    session: aiohttp.ClientSession, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Within the settling time a same-size edit in place may keep the file's signature,
    # so nothing read from the file may be kept: every plan asks the store again.
    path = tmp_path / "credentials.json"
    path.write_text(json.dumps({"serper": {"api_key": "aaaa-aaaa"}}), encoding="utf-8")
    store = CredentialStore(path)
    setup = _setup(session, store, _Environment())
    lookups = count_calls(store, "_read", monkeypatch)  # one a provider asked
    assert _ids(setup) == ["brave", "serper", *FREE_ENGINES]
    asked = len(lookups)
    assert _ids(setup) == ["brave", "serper", *FREE_ENGINES]
    assert len(lookups) == 2 * asked
    with path.open("r+", encoding="utf-8") as handle:  # same inode, same size
        handle.write(json.dumps({"tavily": {"api_key": "aaaa-aaaa"}}))
    assert _ids(setup) == ["tavily", "brave", *FREE_ENGINES]


@pytest.mark.usefixtures("settled")
async def test_a_forced_provider_and_the_auto_chain_are_kept_apart(
    session: aiohttp.ClientSession, tmp_path: Path
) -> None:
    setup = _setup(session, CredentialStore(tmp_path / "credentials.json"), _Environment())
    assert _ids(setup) == ["brave", *FREE_ENGINES]
    forced = setup.plan("bing")
    assert [p.info.id for p in forced.providers] == ["bing"] and forced.forced
    again = setup.plan("bing")
    assert [p.info.id for p in again.providers] == ["bing"] and again.forced
    auto = setup.plan(None)
    assert not auto.forced and [p.info.id for p in auto.providers] == ["brave", *FREE_ENGINES]


@pytest.mark.usefixtures("settled")
async def test_a_plan_that_reports_something_is_worked_out_every_time(
    session: aiohttp.ClientSession, tmp_path: Path
) -> None:
    # A forced provider that cannot run is reported by every search, each with its own
    # error object (a caller may raise or annotate it).
    setup = _setup(session, CredentialStore(tmp_path / "credentials.json"), _Environment())
    first, second = setup.plan("tavily"), setup.plan("tavily")
    assert [attempt.provider for attempt in first.skipped] == ["tavily"]
    assert first.failures[0][1] is not second.failures[0][1]
    assert [p.info.id for p in second.providers] == ["brave", *FREE_ENGINES]


@pytest.mark.usefixtures("settled")
async def test_a_listed_chain_of_keys_in_code_is_asked_once_and_looks_at_no_file(
    session: aiohttp.ClientSession, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Fails before (stop 43): an explicit list was asked again every search (two key
    # lookups for two plans), and keeping it would have cost a stat of the store a plan.
    path = tmp_path / "credentials.json"
    path.write_text(json.dumps({"serper": {"api_key": SERPER_KEY}}), encoding="utf-8")
    setup = _setup(session, CredentialStore(path), _Environment(), listed=("brave",))
    lookups = count_calls(setup.context.credentials, "_find_key", monkeypatch)
    looks: list[str] = []
    real_stat = credentials.os.stat

    def stat(target: object, *args: object, **kwargs: object) -> object:
        looks.append(str(target))
        return real_stat(target, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(credentials.os, "stat", stat)
    assert _ids(setup) == _ids(setup) == _ids(setup) == ["brave"]
    assert len(lookups) == 1
    assert str(path) not in looks


@pytest.mark.usefixtures("settled")
async def test_guard_a_listed_chain_follows_a_key_stored_removed_or_exported(
    session: aiohttp.ClientSession, tmp_path: Path
) -> None:
    """Guard (passes with the list worked out every search as well as kept)."""
    path = tmp_path / "credentials.json"
    environment = _Environment()
    setup = _setup(session, CredentialStore(path), environment, listed=("tavily", "brave"))
    first, second = setup.plan(None), setup.plan(None)  # no key for Tavily: reported
    assert [p.info.id for p in second.providers] == ["brave"]
    assert [attempt.provider for attempt in second.skipped] == ["tavily"]
    assert first.failures[0][1] is not second.failures[0][1]  # each search's own error

    environment.values["TAVILY_API_KEY"] = TAVILY_KEY
    assert _ids(setup) == _ids(setup) == ["tavily", "brave"]
    del environment.values["TAVILY_API_KEY"]
    assert [attempt.provider for attempt in setup.plan(None).skipped] == ["tavily"]
    CredentialStore(path).set("tavily", TAVILY_KEY)  # another process's write
    assert _ids(setup) == _ids(setup) == ["tavily", "brave"]
    CredentialStore(path).remove("tavily")
    assert _ids(setup) == ["brave"]


@pytest.mark.usefixtures("settled")
async def test_guard_a_listed_chain_of_keys_in_code_sees_a_key_exported_later(
    session: aiohttp.ClientSession, tmp_path: Path
) -> None:
    """Guard (passes before and after): an entry that cannot run reads the environment.

    The list reads no file while every key is in code; the entry without one reads its
    variable and the store, and the first key found in either shows in the next plan.
    """
    path = tmp_path / "credentials.json"
    environment = _Environment()
    setup = _setup(session, CredentialStore(path), environment, listed=("brave", "serper"))
    assert [p.info.id for p in setup.plan(None).providers] == ["brave"]
    environment.values["SERPER_API_KEY"] = SERPER_KEY
    assert _ids(setup) == _ids(setup) == ["brave", "serper"]
    del environment.values["SERPER_API_KEY"]
    assert _ids(setup) == ["brave"]


@pytest.mark.usefixtures("settled")
async def test_each_plan_is_the_callers_own(session: aiohttp.ClientSession, tmp_path: Path) -> None:
    setup = _setup(session, CredentialStore(tmp_path / "credentials.json"), _Environment())
    first = setup.plan(None)
    first.providers.clear()
    first.skipped.append(Attempt(provider="tavily", outcome="skipped", detail="a caller's note"))
    second = setup.plan(None)
    assert [p.info.id for p in second.providers] == ["brave", *FREE_ENGINES]
    assert second.skipped == [] and second.failures == []


def test_sources_version_follows_every_variable_read_and_only_those(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TAVILY_API_KEY", raising=False)
    monkeypatch.setattr(credentials, "SETTLED_NS", -1)
    resolver = Credentials(store=CredentialStore(tmp_path / "credentials.json"))
    assert resolver.api_key("tavily", ("TAVILY_API_KEY",)) is None
    before = resolver.sources_version()
    assert before is not None and resolver.sources_version() == before
    monkeypatch.setenv("SOME_UNREAD_VARIABLE", "x")
    assert resolver.sources_version() == before
    monkeypatch.setenv("TAVILY_API_KEY", TAVILY_KEY)
    assert resolver.sources_version() != before
    monkeypatch.delenv("TAVILY_API_KEY")
    assert resolver.sources_version() == before
    assert resolver.env("WEBSEARCH_TEST_UNSET_VARIABLE") is None  # read: now part of it
    widened = resolver.sources_version()
    monkeypatch.setenv("WEBSEARCH_TEST_UNSET_VARIABLE", "set")
    assert resolver.sources_version() not in (before, widened)


def test_sources_version_of_a_given_environment(tmp_path: Path) -> None:
    environment = _Environment()
    resolver = Credentials(environ=environment)  # no store
    assert resolver.api_key("tavily", ("TAVILY_API_KEY",)) is None
    before = resolver.sources_version()
    assert before is not None and resolver.sources_version() == before
    environment.values["TAVILY_API_KEY"] = TAVILY_KEY
    assert resolver.sources_version() != before
    del environment.values["TAVILY_API_KEY"]
    assert resolver.sources_version() == before


def test_store_version_pins_only_content_it_keeps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "credentials.json"
    store = CredentialStore(path)
    missing = store.version()
    assert missing is not None and store.version() == missing
    store.set("serper", SERPER_KEY)
    assert store.version() is None  # nothing read yet
    assert store.get("serper") == SERPER_KEY
    assert store.version() is None  # written just now: not kept, so not pinned
    monkeypatch.setattr(credentials, "SETTLED_NS", -1)
    assert store.get("serper") == SERPER_KEY
    pinned = store.version()
    assert pinned is not None and pinned != missing and store.version() == pinned
    CredentialStore(path).set("serper", "another-key-0123456789")
    assert store.version() is None  # changed since it was read
    assert store.get("serper") == "another-key-0123456789"
    assert store.version() not in (None, pinned)


def test_a_store_that_cannot_be_looked_at_pins_nothing_once_read(tmp_path: Path) -> None:
    in_a_file = tmp_path / "a-file"
    in_a_file.write_text("", encoding="utf-8")
    resolver = Credentials(store=CredentialStore(in_a_file / "credentials.json"))
    unread = resolver.sources_version()  # nothing rests on it yet: nothing to unpin
    assert unread is not None and resolver.sources_version() == unread
    with pytest.raises(ConfigurationError, match="cannot read credential store"):
        resolver.api_key("serper", ())
    assert resolver.sources_version() is None


def test_store_version_looks_at_no_file_before_a_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Fails before (stop 43): every version stat the file, read or not.
    monkeypatch.setattr(credentials, "SETTLED_NS", -1)
    path = tmp_path / "credentials.json"
    CredentialStore(path).set("serper", SERPER_KEY)
    store = CredentialStore(path)
    looks = count_calls(credentials.os, "stat", monkeypatch)
    unread = store.version()
    assert unread is not None and store.version() == unread
    assert looks == []
    assert store.get("serper") == SERPER_KEY  # the first read changes the version
    read = store.version()
    assert read not in (None, unread) and looks
