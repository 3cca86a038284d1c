"""``websearch`` ending in a bug masks every key it could know, wherever the bug is.

Stop 52 masked a search's bug by the secrets the client handed out and the key
variables. Two places were left: a bug after the search (in the command's output) left
the command as Python's own traceback, and a bug quoting a credential store entry the
search never read (another provider's key) showed it. Driven as a user meets it:
``websearch`` in a subprocess against the loopback simulator, its key from a config file
only (no key variable), the store holding another provider's key and sign-in, with a
bug put in one place (the one thing replaced: the command's handling of it is tested).
The runs fork from one interpreter (:mod:`tests.conformance._wrapped_runs`).
"""

import json
import pathlib
import subprocess

import pytest

from tests.conformance._leaks import echo_forms_seen, shapes_seen
from tests.conformance._wrapped_runs import Case, Ran, key_in_config, run_cases

PROVIDER = "brave"
KEY = "BSAq7Zx2Lm9Kp4Wv8Rt3Yn6Hc1Jd5Fg0"
"""Brave's key, written in the config file only: Brave's shape, 32 characters."""
STORED = "tvly-dev-9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0"
"""Another provider's key in the credential store, never read by a search on Brave."""
STORED_TOKEN = "ya29.a0AfB_byC3kLmN0pQrStUvWxYz1234567890abcd"
"""A stored sign-in's access token, never read either."""
WRAPPER = """
import importlib, json, os, sys
CONFIG_KEY = {key!r}
def stored():
    with open(os.environ["WEBSEARCH_CREDENTIALS_FILE"]) as file:
        return json.load(file)
def broken(*arguments, **options):
{bug}
setattr(importlib.import_module({module!r}), {name!r}, broken)
from websearch_core.__main__ import main
sys.exit(main())
"""
AFTER_THE_SEARCH = {
    "plain": ("websearch_core.cli", "_say_what_gave_way", []),
    "json": ("websearch_core.cli", "search_json", ["--json"]),
}
"""Where the command's output is built once the search answered, by output."""
IN_THE_SEARCH = ("websearch_core.client", "format_for_llm", [])


def _config_and_store(env: dict[str, str], home: pathlib.Path) -> None:
    """Brave's key in a config file only; another provider's key and sign-in stored."""
    key_in_config(env, home, PROVIDER, KEY)
    store = {
        "tavily": {"api_key": STORED},
        "gemini": {"oauth": {"access_token": STORED_TOKEN, "token_type": "Bearer"}},
    }
    pathlib.Path(env["WEBSEARCH_CREDENTIALS_FILE"]).write_text(json.dumps(store))


def _case(module: str, name: str, bug: str, arguments: list[str]) -> Case:
    """``websearch <arguments> "python asyncio"`` with ``bug`` as ``module.name``."""
    code = WRAPPER.format(key=KEY, bug=bug, module=module, name=name)
    return Case(code, [*arguments, "python asyncio"], _config_and_store)


STORE_BUG = "    raise ValueError(f'bad store {stored()!r}')\n"
"""A bug in the search quoting the whole credential store."""


@pytest.fixture(scope="module")
def ran(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Ran]:
    """Every case of this file, forked from one interpreter, by id."""
    cases = {
        f"after-{output}": _case(module, name, "    raise KeyError(CONFIG_KEY)\n", arguments)
        for output, (module, name, arguments) in AFTER_THE_SEARCH.items()
    }
    cases["store"] = _case(*IN_THE_SEARCH[:2], STORE_BUG, IN_THE_SEARCH[2])
    for bug, body in GUARDED.items():
        cases[f"guarded-{bug}"] = _case(*IN_THE_SEARCH[:2], body, IN_THE_SEARCH[2])
    return run_cases(PROVIDER, cases, tmp_path_factory.mktemp("sources"))


def _done(ran: dict[str, Ran], case: str) -> subprocess.CompletedProcess[str]:
    """The case's end, once its search reached the provider with the config's key."""
    done, requests = ran[case]
    assert requests, "the search reached the provider with the config's key"
    assert requests[0].header("X-Subscription-Token") == KEY
    return done


def _masked(done: subprocess.CompletedProcess[str], *secrets: str) -> None:
    """The command ended in the masked report, none of ``secrets`` in any form."""
    assert done.returncode == 1, done.stderr
    assert "internal error" in done.stderr and "in broken" in done.stderr, done.stderr
    seen = [done.stdout, done.stderr]
    for secret in secrets:
        assert shapes_seen(secret, seen) == [], secret
        assert echo_forms_seen(secret, seen) == [], secret


@pytest.mark.parametrize("output", sorted(AFTER_THE_SEARCH))
def test_a_bug_after_the_search_ends_with_a_masked_report(output: str, ran: dict[str, Ran]) -> None:
    """Failed before for both outputs: Python's traceback quoted the config file's key."""
    _masked(_done(ran, f"after-{output}"), KEY)


def test_a_bug_quoting_the_store_masks_entries_never_read(ran: dict[str, Ran]) -> None:
    """Failed before: the report masked the client's keys, not a store entry never read."""
    _masked(_done(ran, "store"), KEY, STORED, STORED_TOKEN)


GUARDED = {
    "settings_repr": (
        "    from websearch_core.settings import Settings\n    raise ValueError(repr(Settings()))\n"
    ),
    "header_dict": (
        "    headers = {'X-Subscription-Token': CONFIG_KEY, 'Accept': 'application/json'}\n"
        "    raise ValueError(f'bad headers {headers!r}')\n"
    ),
    "config_file_text": (
        "    raise ValueError(open(os.environ['WEBSEARCH_CONFIG_FILE']).read())\n"
    ),
}


@pytest.mark.parametrize("bug", sorted(GUARDED))
def test_guard_a_bug_in_the_search_quoting_the_config_is_masked(
    bug: str, ran: dict[str, Ran]
) -> None:
    """A guard (passed before): a bug in the search quoting the settings' repr (their
    keys are ``SecretStr``), a header dict or the config file's text shows no key."""
    _masked(_done(ran, f"guarded-{bug}"), KEY)
