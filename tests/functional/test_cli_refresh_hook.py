"""``websearch --refresh-hook ENTRY=MODULE:FUNCTION`` renews an expired hooked sign-in.

Codex, Anthropic and Perplexity sign-ins are renewed only by a hook passed in code
(``WebSearch(oauth_refreshers=...)``). The command line could pass none, so once a stored
token expired every ``websearch`` search with it failed (``no refresh hook is configured``).
The option imports the named async function before the search; one that cannot be used is
refused with exit status 2, naming what is wrong, and nothing is searched.

Driven through :func:`websearch_core.cli.main` against the Codex simulator, whose token
endpoint the hook (:mod:`tests.token_hook`) asks, as a user's hook would ask ChatGPT's.
"""

import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.functional._sim_helpers import credential_store
from websearch_core.cli import EXIT_FAILED, EXIT_OK, EXIT_USAGE, main
from websearch_core.credentials import OAuthToken
from websearch_core.testing import Simulator
from websearch_core.testing.protocols._oauth_refresh import TOKEN_PATH, RefreshGrant

EXPIRED = OAuthToken("sim-codex-old-access", "sim-codex-old-refresh", time.time() - 60)
HOOK_MODULE = """
import os
from tests.token_hook import refresher

refresh = refresher(os.environ["CLI_HOOK_TOKEN_URL"])

def plain(entry, token):
    return token

NOT_A_FUNCTION = "refresh"
"""


@pytest.fixture
def sim(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Simulator]:
    """The Codex simulator in a thread, the command routed to it, an expired token stored."""
    with Simulator(["codex"]).running_in_thread() as simulator:
        base = simulator["codex"].base_url
        monkeypatch.setenv("WEBSEARCH_CODEX_BASE_URL", base)
        monkeypatch.setenv("WEBSEARCH_PROVIDERS", "codex")
        monkeypatch.setenv("WEBSEARCH_STATE_BACKEND", "memory")
        monkeypatch.setenv("CLI_HOOK_TOKEN_URL", f"{base}{TOKEN_PATH}")
        (tmp_path / "cli_hooks.py").write_text(HOOK_MODULE)
        monkeypatch.syspath_prepend(str(tmp_path))
        # Imported afresh: an earlier test's module asks an earlier simulator's endpoint.
        monkeypatch.delitem(sys.modules, "cli_hooks", raising=False)
        credential_store(simulator).set_oauth("codex", EXPIRED)
        yield simulator


def _asked(sim: Simulator, path: str) -> int:
    return [r.path for r in sim["codex"].requests].count(path)


def test_an_expired_sign_in_is_renewed_through_the_named_hook(
    sim: Simulator, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["--refresh-hook", "codex=cli_hooks:refresh", "python", "asyncio"])
    out, err = capsys.readouterr()
    assert status == EXIT_OK, err
    assert _asked(sim, TOKEN_PATH) == 1
    grant = getattr(sim["codex"].protocol, "sign_in", None)
    assert isinstance(grant, RefreshGrant)
    stored = credential_store(sim).get_oauth("codex")
    assert stored is not None and stored.access_token == grant.issued[-1]
    assert grant.issued[-1] not in out + err  # the new token is never shown


def test_without_a_hook_the_error_says_how_to_pass_one(
    sim: Simulator, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["python", "asyncio"]) == EXIT_FAILED
    err = capsys.readouterr().err
    assert "codex: OAuth token expired and no refresh hook is configured" in err
    assert "websearch --refresh-hook codex=MODULE:FUNCTION" in err
    assert _asked(sim, TOKEN_PATH) == 0


@pytest.mark.parametrize(
    ("spec", "problem"),
    [
        ("cli_hooks:refresh", "'cli_hooks:refresh' is not ENTRY=MODULE:FUNCTION"),
        ("codex=cli_hooks", "'codex=cli_hooks' is not ENTRY=MODULE:FUNCTION"),
        ("codx=cli_hooks:refresh", "'codx' is not a sign-in's entry (one of anthropic,"),
        ("codx=cli_hooks:refresh", "; did you mean codex?"),
        (
            "codex=no_such_hooks:refresh",
            "cannot import 'no_such_hooks': no module named 'no_such_hooks' "
            "(is its directory on PYTHONPATH?)",
        ),
        ("codex=cli_hooks:refresh_codex", "'cli_hooks:refresh_codex': 'cli_hooks' has no"),
        ("codex=cli_hooks:NOT_A_FUNCTION", "is not callable (it is str)"),
        ("codex=cli_hooks:plain", "'cli_hooks:plain' is not an async function"),
    ],
)
def test_a_hook_that_cannot_be_used_is_refused_before_searching(
    sim: Simulator, capsys: pytest.CaptureFixture[str], spec: str, problem: str
) -> None:
    assert main(["--refresh-hook", spec, "python", "asyncio"]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert err.startswith("websearch: --refresh-hook: ")
    assert problem in err
    assert err.count("\n") == 1
    assert sim["codex"].requests == []


def test_one_entry_given_two_hooks_is_refused(
    sim: Simulator, capsys: pytest.CaptureFixture[str]
) -> None:
    args = [
        "--refresh-hook",
        "codex=cli_hooks:refresh",
        "--refresh-hook",
        "codex=cli_hooks:refresh",
    ]
    assert main([*args, "q"]) == EXIT_USAGE
    assert "'codex' is given more than one hook" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("variable", "value", "in_config"),
    [
        ("WEBSEARCH_REFRESH_HOOKS", "codex=cli_hooks:refresh", False),
        ("WEBSEARCH_REFRESH_HOOKS", " Codex = cli_hooks:refresh , ", False),
        ("WEBSEARCH_REFRESH_HOOKS__CODEX", "cli_hooks:refresh", False),
        ("", '[refresh_hooks]\ncodex = "cli_hooks:refresh"\n', True),
    ],
    ids=["variable", "variable-spaced", "variable-per-entry", "config-file"],
)
def test_a_configured_hook_renews_the_sign_in_without_the_flag(
    sim: Simulator,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    variable: str,
    value: str,
    in_config: bool,
) -> None:
    # The hook had to be named on every command line: a shell alias, or a script's every
    # call, carried it, and a search without it failed once the token expired.
    if in_config:
        (tmp_path / "config.toml").write_text(value)
    else:
        monkeypatch.setenv(variable, value)
    status = main(["python", "asyncio"])
    err = capsys.readouterr().err
    assert status == EXIT_OK, err
    assert err == ""
    assert _asked(sim, TOKEN_PATH) == 1


def test_the_flag_replaces_the_configured_hook_of_its_entry(
    sim: Simulator, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("WEBSEARCH_REFRESH_HOOKS", "codex=cli_hooks:plain")  # not usable
    status = main(["--refresh-hook", "codex=cli_hooks:refresh", "python", "asyncio"])
    assert status == EXIT_OK, capsys.readouterr().err
    assert _asked(sim, TOKEN_PATH) == 1


@pytest.mark.parametrize(
    ("variable", "value", "problem"),
    [
        ("WEBSEARCH_REFRESH_HOOKS", "codex=cli_hooks", "'codex=cli_hooks' is not ENTRY=MODULE"),
        ("WEBSEARCH_REFRESH_HOOKS", "codx=cli_hooks:refresh", "did you mean codex?"),
        (
            "WEBSEARCH_REFRESH_HOOKS",
            "codex=cli_hooks:refresh,codex=cli_hooks:plain",
            "'codex' is given more than one hook",
        ),
        ("WEBSEARCH_REFRESH_HOOKS", '{"codex": ', "not a valid JSON object"),
        ("WEBSEARCH_REFRESH_HOOKS", "codex=cli_hooks:plain", "is not an async function"),
        ("WEBSEARCH_REFRESH_HOOKS__CODEX", "no_such_hooks:refresh", "cannot import"),
    ],
)
def test_a_configured_hook_that_cannot_be_used_is_refused_naming_its_variable(
    sim: Simulator,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    variable: str,
    value: str,
    problem: str,
) -> None:
    monkeypatch.setenv(variable, value)
    assert main(["python", "asyncio"]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert err.startswith(f"websearch: {variable}: ")
    assert problem in err
    assert err.count("\n") == 1
    assert sim["codex"].requests == []
