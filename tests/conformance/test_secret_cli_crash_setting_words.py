"""``websearch`` ending in a bug masks a setting's word from the endpoint as a failure does.

The crash report masked every secret of the settings as a key: a compact pair such as
``"engines":"hunterxyzw"`` (16 characters and more, no space) was read as a token, so its
first 8 characters, ``"engines``, were masked in every line quoting that setting, whatever
its value (``{"engines":"google"}`` read ``{***google"}``), and the forms the failure path
masks since keys60 (the word quoted alone, ``name => value``) showed. Driven as a user
meets it: ``websearch`` in a subprocess against the loopback simulator, the SearXNG
endpoint holding ``?engines=hunterxyzw``, a bug put into the formatting of the answer.
"""

import pathlib

import pytest

from tests.conformance._wrapped_runs import Case, Ran, run_cases

PROVIDER = "searxng"
WORD = "hunterxyzw"
"""A key written under ``engines`` in the endpoint: a word of an engine's shape."""
WRAPPER = """
import sys
import websearch_core.client as client
def broken(response, notes):
    raise ValueError({message!r})
client.format_for_llm = broken
from websearch_core.__main__ import main
sys.exit(main())
"""
KEPT = {
    "another_value": '{"engines":"bing","q":"x"}',
    "documented_value": '{"engines":"google","q":"x"}',
}
"""A bug quoting the setting with a value that is not the URL's: shown whole."""
MASKED = {
    "quoted_alone": f"unknown engine '{WORD}'",
    "php_arrow": f"Array ( [engines] => {WORD} [q] => x )",
}
"""A bug quoting the URL's word in the forms the failure path masks."""
GUARDED = {
    "compact_pair": f'{{"engines":"{WORD}","q":"x"}}',
    "ruby_arrow": f'{{"engines"=>"{WORD}", "q"=>"x"}}',
}
"""The same, masked before too: the compact pair whole, and ``"hunterxyzw"`` as 12
characters in a row of it (a run)."""


def _endpoint(env: dict[str, str], home: pathlib.Path) -> None:
    """The SearXNG endpoint on the simulator, with the word under ``engines``."""
    env["SEARXNG_ENDPOINT"] = f"{env['WEBSEARCH_SEARXNG_BASE_URL']}/?engines={WORD}"


@pytest.fixture(scope="module")
def ran(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Ran]:
    """Each bug's run, forked from one interpreter, by id."""
    cases = {
        name: Case(WRAPPER.format(message=message), ["python asyncio"], _endpoint)
        for name, message in {**KEPT, **MASKED, **GUARDED}.items()
    }
    return run_cases(PROVIDER, cases, tmp_path_factory.mktemp("words"))


def _report(ran: dict[str, Ran], case: str) -> str:
    """The case's report, once its search reached SearXNG with the word."""
    done, requests = ran[case]
    assert requests and ("engines", WORD) in requests[0].query, "the word is sent"
    assert done.returncode == 1, done.stderr
    assert "internal error" in done.stderr and "in broken" in done.stderr, done.stderr
    return done.stdout + done.stderr


@pytest.mark.parametrize("case", sorted(KEPT))
def test_a_bug_quoting_the_setting_with_another_value_keeps_it(
    case: str, ran: dict[str, Ran]
) -> None:
    """The setting's name and a value that is not the URL's read as the bug wrote them."""
    report = _report(ran, case)
    assert KEPT[case] in report and "***" not in report


@pytest.mark.parametrize("case", sorted(MASKED))
def test_a_bug_quoting_the_urls_word_masks_it(case: str, ran: dict[str, Ran]) -> None:
    """The URL's word, with its name or quoted alone, is masked whole."""
    report = _report(ran, case)
    assert WORD not in report.lower() and "***" in report


@pytest.mark.parametrize("case", sorted(GUARDED))
def test_guard_a_bug_quoting_the_urls_compact_pair_masks_it(case: str, ran: dict[str, Ran]) -> None:
    """A guard (passed before, the pair read as a token): the compact pairs stay masked."""
    report = _report(ran, case)
    assert WORD not in report.lower() and "***" in report
