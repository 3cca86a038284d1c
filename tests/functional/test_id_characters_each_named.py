"""An unknown provider id names each distinct odd character it holds, not the first alone.

``test_id_characters_named.py`` names the character that keeps a right-looking id from
being one; only the first was named, so ``b\\u0433\\u0430ve`` (a Cyrillic ghe and a), fixed
at the one character named, was refused again for the other. Now each distinct character
beyond printable ASCII is named in the order it first appears, a repeated one once with
its places, and past three of either the rest are counted. An id with one such character
reads word for word as before (that file's rows, unchanged, are the guards).

Each case goes through the public API (the settings, a call against the loopback
simulator, the command through ``tests/websearch_process.py``).
"""

from typing import Final

import pytest

from tests.functional._sim_helpers import sim_client
from tests.websearch_process import run_websearch
from websearch_core import WebSearch
from websearch_core.testing import Simulator

GHE: Final = "a Cyrillic letter (U+0433 CYRILLIC SMALL LETTER GHE)"
CYRILLIC_A: Final = "a Cyrillic letter (U+0430 CYRILLIC SMALL LETTER A)"
SIX_A: Final = "\u0430" * 6
TWO_CYRILLIC: Final = "b\u0433\u0430ve"
TWO_NAMED: Final = f"'b\u0433\u0430ve' holds {GHE} at character 2, {CYRILLIC_A} at character 3"

NAMED: Final = [
    pytest.param(TWO_CYRILLIC, TWO_NAMED, id="two-letters"),
    pytest.param(
        "br\u0430v\u0430",
        f"'br\u0430v\u0430' holds {CYRILLIC_A} at characters 3 and 5",
        id="one-letter-twice",
    ),
    pytest.param(
        "\u200bbra\x07v\u0435",
        "'\\u200bbra\\x07v\u0435' holds an invisible character (U+200B ZERO WIDTH SPACE) at "
        "character 1, a control character (U+0007) at character 5, a Cyrillic letter "
        "(U+0435 CYRILLIC SMALL LETTER IE) at character 7",
        id="three-kinds-in-order",
    ),
    pytest.param(
        "\u0432\u0433\u0434\u0435\u0436",
        "'\u0432\u0433\u0434\u0435\u0436' holds a Cyrillic letter (U+0432 CYRILLIC SMALL "
        "LETTER VE) at character 1, a Cyrillic letter (U+0433 CYRILLIC SMALL LETTER GHE) at "
        "character 2, a Cyrillic letter (U+0434 CYRILLIC SMALL LETTER DE) at character 3, "
        "and 2 other odd characters",
        id="past-the-cap",
    ),
    pytest.param(
        "br" + SIX_A,
        f"'br{SIX_A}' holds {CYRILLIC_A} at characters 3, 4, 5 and 3 more",
        id="places-past-the-cap",
    ),
]
"""An id as given, and the note its refusal carries: each failed before (the first
character alone was named, at its first place)."""


@pytest.mark.parametrize(("given", "named"), NAMED)
def test_the_provider_setting_names_each_odd_character(given: str, named: str) -> None:
    """Failed before: only the first odd character was named."""
    with pytest.raises(ValueError, match="Unknown search provider") as raised:
        WebSearch(provider=given)

    assert f"; {named} [type=value_error" in str(raised.value)


def test_a_providers_entry_names_both_look_alikes() -> None:
    """Failed before: the list setting's refusal named the ghe alone."""
    with pytest.raises(ValueError, match="unknown provider id") as raised:
        WebSearch(providers=["tavily", TWO_CYRILLIC])

    assert f"; {TWO_NAMED} [type=value_error" in str(raised.value)


async def test_a_call_s_provider_names_both_look_alikes() -> None:
    """Failed before: a call's argument was refused naming the ghe alone."""
    async with Simulator(["brave"]) as sim, sim_client(sim) as ws:
        with pytest.raises(ValueError, match="Unknown search provider") as raised:
            await ws.search("odd id", provider=TWO_CYRILLIC)

    assert str(raised.value).endswith(f"; {TWO_NAMED}")


def test_the_command_s_provider_names_both_look_alikes() -> None:
    """Failed before: ``websearch --provider`` named the ghe alone."""
    done = run_websearch(["--provider", TWO_CYRILLIC, "odd id"])

    assert done.returncode == 2
    assert f"; {TWO_NAMED}" in done.stderr
    assert f"; {TWO_NAMED}," not in done.stderr
