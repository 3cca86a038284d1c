"""A provider id that reads right but holds a control or a look-alike letter names it.

``test_bom_heads_and_ids.py`` names an invisible character in an id no provider has. Two
kinds were still refused in words that point at nothing: an id holding an ASCII control
(``bra\\x07ve``: a terminal rings the bell and shows ``brave``) and one holding a letter
beyond ASCII that looks like an ASCII one (``br\\u0430ve``, a Cyrillic a, which ``repr``
shows as itself): both read ``Unknown search provider: ...; did you mean brave?`` alone.
The character is now named by its code point and name, and where it sits. A plain typo
reads as before, word for word.

Each case goes through the public API (the settings, a call against the loopback
simulator, the command through ``tests/websearch_process.py``).
"""

from typing import Final

import pytest

from tests.functional._sim_helpers import sim_client
from tests.websearch_process import run_websearch
from websearch_core import WebSearch
from websearch_core.provider_ids import SEARCH_PROVIDER_ORDER
from websearch_core.testing import Simulator

CYRILLIC: Final = "br\u0430ve"
CYRILLIC_NAMED: Final = (
    "'br\u0430ve' holds a Cyrillic letter (U+0430 CYRILLIC SMALL LETTER A) at character 3"
)
BELL: Final = "bra\x07ve"
BELL_NAMED: Final = "'bra\\x07ve' holds a control character (U+0007) at character 4"
KNOWN: Final = ", ".join(SEARCH_PROVIDER_ORDER)

NAMED: Final = [
    pytest.param(BELL, BELL_NAMED, id="bell"),
    pytest.param("bra\x1bve", "'bra\\x1bve' holds a control character (U+001B)", id="escape"),
    pytest.param("bra\x85ve", "'bra\\x85ve' holds a control character (U+0085)", id="c1"),
    pytest.param(CYRILLIC, CYRILLIC_NAMED, id="cyrillic"),
    pytest.param(
        "\uff42rave",
        "'\uff42rave' holds a fullwidth letter (U+FF42 FULLWIDTH LATIN SMALL LETTER B)",
        id="fullwidth",
    ),
    pytest.param(
        "brav\u00e9",
        "'brav\u00e9' holds a Latin letter beyond ASCII (U+00E9 LATIN SMALL LETTER E WITH ACUTE)",
        id="accent",
    ),
]
"""An id as given, and how the refusal names its character."""


@pytest.mark.parametrize(("given", "named"), NAMED)
def test_the_provider_setting_names_the_character(given: str, named: str) -> None:
    """Failed before: ``...; did you mean brave?`` with nothing naming the character."""
    with pytest.raises(ValueError, match="Unknown search provider") as raised:
        WebSearch(provider=given)

    assert f"; {named}" in str(raised.value)
    assert "; did you mean brave?" in str(raised.value)


def test_a_providers_entry_names_its_look_alike() -> None:
    """Failed before: ``unknown provider id br\\u0430ve ...; did you mean brave?``."""
    with pytest.raises(ValueError, match="unknown provider id") as raised:
        WebSearch(providers=["tavily", CYRILLIC])

    assert f"; {CYRILLIC_NAMED}; did you mean brave?" in str(raised.value)


async def test_a_call_s_provider_names_its_control_character() -> None:
    """Failed before: the call's argument was refused in the same words."""
    async with Simulator(["brave"]) as sim, sim_client(sim) as ws:
        with pytest.raises(ValueError, match="Unknown search provider") as raised:
            await ws.search("odd id", provider=BELL)

    assert f"; {BELL_NAMED}; did you mean brave?" in str(raised.value)


@pytest.mark.parametrize(
    ("given", "named"),
    [(CYRILLIC, CYRILLIC_NAMED), (BELL, BELL_NAMED)],
    ids=["cyrillic", "bell"],
)
def test_the_command_s_provider_names_the_character(given: str, named: str) -> None:
    """Failed before: ``websearch --provider`` refused it in the same words."""
    done = run_websearch(["--provider", given, "odd id"])

    assert done.returncode == 2
    assert f"; {named}; did you mean brave?" in done.stderr


@pytest.mark.parametrize("given", ["bravo", "Brav", "bra ve", "duckduckgoo"])
def test_a_plain_typo_reads_word_for_word_as_before(given: str) -> None:
    """A guard (held before): a printable ASCII id gets the reference's text and no note."""
    with pytest.raises(ValueError) as raised:
        WebSearch(provider=given)

    meant = "duckduckgo" if given.startswith("duck") else "brave"
    expected = f"Unknown search provider: {given} (known: {KNOWN}); did you mean {meant}?"
    assert f"Value error, {expected} [type=value_error" in str(raised.value)
