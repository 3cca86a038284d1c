"""The credential check's per-search work is kept while what it looks at stays the same.

The check runs before every attempt; it used to resolve and judge every secret anew (about
4.5 us a search, issue 11). The environment is now read through its own table
(``value_getter``), a key handed out again is the same object, and a provider's verdict on
an equal list is kept (``KeptChecks``). None of it may keep an answer a change should
alter: a key exported, replaced or removed between searches is checked as it is then.
"""

import os

import pytest

from websearch_core import WebSearch
from websearch_core.credentials import Credentials
from websearch_core.env_values import value_getter
from websearch_core.sent_secret import KeptChecks, SentSecret
from websearch_core.testing import Simulator

from ._spies import count_calls

NAME = "WEBSEARCH_TEST_KEPT_VALUE"
CONTROL = "contains a control character (a line break, a NUL), so it cannot be sent"


def test_the_environment_getter_answers_as_os_environ_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    get = value_getter(os.environ)
    monkeypatch.delenv(NAME, raising=False)
    assert get(NAME) is None and os.environ.get(NAME) is None
    monkeypatch.setenv(NAME, "  BSAkey ")
    assert get(NAME) == os.environ.get(NAME) == "  BSAkey "
    monkeypatch.delenv(NAME)
    assert get(NAME) is None


@pytest.mark.skipif(not hasattr(os, "environb"), reason="the environment is bytes on POSIX only")
def test_the_environment_getter_decodes_as_os_environ_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Bytes that are not UTF-8 come back as os.environ decodes them (surrogate escapes).
    get = value_getter(os.environ)
    monkeypatch.setitem(os.environb, NAME.encode(), b"k\xffey")
    assert get(NAME) == os.environ.get(NAME) == "k\udcffey"


def test_the_environment_getter_asks_any_other_mapping_itself() -> None:
    assert value_getter({NAME: "1"})(NAME) == "1"
    assert value_getter({})(NAME) is None


def test_a_key_handed_out_again_is_the_same_secret_until_it_changes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    credentials = Credentials(store=None)
    monkeypatch.setenv("BRAVE_API_KEY", "BSAfirst")
    first = credentials.key_secret("brave", ("BRAVE_API_KEY",), "Brave API key")
    assert first is credentials.key_secret("brave", ("BRAVE_API_KEY",), "Brave API key")
    monkeypatch.setenv("BRAVE_API_KEY", "BSAsecond")
    second = credentials.key_secret("brave", ("BRAVE_API_KEY",), "Brave API key")
    assert second is not None and second.value == "BSAsecond"
    assert second.where == "in BRAVE_API_KEY"
    assert "BSAsecond" in credentials.secrets()  # remembered for redaction as before


def _key(value: str) -> SentSecret:
    return SentSecret(value, "Brave API key", "in BRAVE_API_KEY", "fix it", key=True)


def test_a_verdict_is_kept_for_an_equal_list_only() -> None:
    checks = KeptChecks()
    good = checks.check("brave", (), [_key("BSAgood")], every=False)
    assert good.problem is None
    assert checks.check("brave", (), [_key("BSAgood")], every=False) is good
    bad = checks.check("brave", (), [_key("BSA\nbad")], every=False)
    assert bad.problem == f"Brave API key in BRAVE_API_KEY {CONTROL}; fix it."
    assert checks.check("brave", (), [], every=False).problem is None
    assert checks.check("other", (), [_key("BSA\nbad")], every=False) == bad


async def test_a_key_changed_between_searches_is_checked_as_it_is_then(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async with Simulator(["brave", "serper"]) as sim:
        settings = sim.settings(providers=("brave", "serper"))
        async with WebSearch(settings, api_keys={"serper": "fake-serper"}) as ws:
            monkeypatch.setenv("BRAVE_API_KEY", "BSAgood")
            first = await ws.run("python", use_cache=False)
            monkeypatch.setenv("BRAVE_API_KEY", "BSA\r\nbad")
            second = await ws.run("python", use_cache=False)
            monkeypatch.setenv("BRAVE_API_KEY", "BSAgood")
            third = await ws.run("python", use_cache=False)
        assert len(sim["brave"].requests) == 2  # the bad key was never sent
    assert first.response.provider == third.response.provider == "brave"
    assert second.response.provider == "serper"
    skipped = second.response.attempts[0]
    assert (skipped.provider, skipped.outcome) == ("brave", "skipped")
    assert skipped.detail == (
        f"Brave API key in BRAVE_API_KEY {CONTROL}; remove it from BRAVE_API_KEY."
    )


async def test_a_base_url_without_user_info_sends_the_check_to_no_variable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The check before every attempt looked up which variable had set the base URL (to
    # name it in a problem) even for a URL with no user info, so nothing to check in it;
    # a URL that holds a password still has its password checked and its source named.
    async with Simulator(["brave"]) as sim:
        settings = sim.settings(providers=("brave",))
        async with WebSearch(settings, api_keys={"brave": "BSAgood"}) as ws:
            context = ws._context()
            brave = ws._setup().plan(None).providers[0]
            reads = count_calls(context.credentials, "env", monkeypatch)
            assert brave.credential_check(context).problem is None
            assert brave.credential_check(context).problem is None
            assert reads == []
            first = await ws.run("python", use_cache=False)
        assert first.response.provider == "brave"
        origin = settings.base_urls["brave"].replace("://", "://user:pa%0Ass@", 1)
        with_password = settings.model_copy(update={"base_urls": {"brave": origin}})
        async with WebSearch(with_password, api_keys={"brave": "BSAgood"}) as ws:
            second = await ws.run("python", use_cache=False)
        assert len(sim["brave"].requests) == 1  # the password was never sent
    skipped = second.response.attempts[0]
    assert (skipped.provider, skipped.outcome) == ("brave", "skipped")
    assert "the base_urls.brave setting" in (skipped.detail or "")
