"""``websearch`` ending in a bug masks every key it could know, wherever the bug is.

Stop 52 masked a search's bug by the secrets the client handed out and the key
variables. Two places were left: a bug after the search (in the command's output) left
the command as Python's own traceback, and a bug quoting a credential store entry the
search never read (another provider's key) showed it. Driven as a user meets it:
``websearch`` in a subprocess against the loopback simulator, its key from a config file
only (no key variable), the store holding another provider's key and sign-in, with a
bug put in one place (the one thing replaced: the command's handling of it is tested).
"""

import json
import pathlib
import subprocess

import pytest

from tests.conformance._leaks import echo_forms_seen, shapes_seen
from tests.conformance.test_secret_audit import _cli_environment
from tests.conformance.test_secret_cli_crash import run_wrapped
from websearch_core.testing import Simulator

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


def _run(
    tmp_path: pathlib.Path, module: str, name: str, bug: str, arguments: list[str]
) -> subprocess.CompletedProcess[str]:
    """``websearch <arguments> "python asyncio"`` with ``bug`` as ``module.name``."""
    code = WRAPPER.format(key=KEY, bug=bug, module=module, name=name)
    with Simulator([PROVIDER]).running_in_thread() as sim:
        env = _cli_environment(PROVIDER, tmp_path, sim[PROVIDER].base_url)
        config = tmp_path / "config.toml"
        config.write_text(f'[api_keys]\n{PROVIDER} = "{KEY}"\n', encoding="utf-8")
        env["WEBSEARCH_CONFIG_FILE"] = str(config)
        store = {
            "tavily": {"api_key": STORED},
            "gemini": {"oauth": {"access_token": STORED_TOKEN, "token_type": "Bearer"}},
        }
        pathlib.Path(env["WEBSEARCH_CREDENTIALS_FILE"]).write_text(json.dumps(store))
        done = run_wrapped(code, arguments, env)
        assert sim[PROVIDER].requests, "the search reached the provider with the config's key"
        assert sim[PROVIDER].requests[0].header("X-Subscription-Token") == KEY
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
def test_a_bug_after_the_search_ends_with_a_masked_report(
    output: str, tmp_path: pathlib.Path
) -> None:
    """Failed before for both outputs: Python's traceback quoted the config file's key."""
    module, name, arguments = AFTER_THE_SEARCH[output]
    done = _run(tmp_path, module, name, "    raise KeyError(CONFIG_KEY)\n", arguments)
    _masked(done, KEY)


def test_a_bug_quoting_the_store_masks_entries_never_read(tmp_path: pathlib.Path) -> None:
    """Failed before: the report masked the client's keys, not a store entry never read."""
    bug = "    raise ValueError(f'bad store {stored()!r}')\n"
    done = _run(tmp_path, *IN_THE_SEARCH[:2], bug, IN_THE_SEARCH[2])
    _masked(done, KEY, STORED, STORED_TOKEN)


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
    bug: str, tmp_path: pathlib.Path
) -> None:
    """A guard (passed before): a bug in the search quoting the settings' repr (their
    keys are ``SecretStr``), a header dict or the config file's text shows no key."""
    done = _run(tmp_path, *IN_THE_SEARCH[:2], GUARDED[bug], IN_THE_SEARCH[2])
    _masked(done, KEY)
