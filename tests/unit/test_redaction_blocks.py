"""The blocks a token is cut into: every run of a key holds one, and only one.

``Redactor.may_hold`` searches every answer once per block of every key, and the mask
grows each block it finds into the run around it. So each run of ``RUN_LENGTH``
characters must hold a whole block (or a run would be shown, and the probe would not
even look), and the blocks should be no denser than that needs: each block more is one
more substring search over every answer a search returns.
"""

import pytest

from websearch_core import redaction
from websearch_core.redaction import MASK, MIN_TOKEN_LENGTH, RUN_LENGTH, Redactor

LENGTHS = range(RUN_LENGTH, 81)
"""Token lengths checked: from the shortest that has a run up to well past a real key's."""
TOKEN_LENGTHS = range(MIN_TOKEN_LENGTH, LENGTHS.stop)
"""The lengths the mask looks for runs in (a shorter secret is masked only whole)."""


def _token(length: int) -> str:
    """A token of ``length`` characters in which no six characters repeat, so a block is
    found at one place only (``find`` gives its start)."""
    digits = "".join(f"{index:03d}Q" for index in range(length))
    return ("sk" + digits)[:length]


def _runs_blocks(token: str) -> list[int]:
    """For each run of ``RUN_LENGTH`` characters of ``token``, how many whole blocks it holds."""
    starts = [token.find(block) for block in redaction._blocks(token)]
    assert all(start >= 0 for start in starts)
    width = redaction.BLOCK_LENGTH
    return [
        sum(1 for start in starts if run <= start and start + width <= run + RUN_LENGTH)
        for run in range(len(token) - RUN_LENGTH + 1)
    ]


@pytest.mark.parametrize("length", LENGTHS)
def test_each_run_of_a_token_holds_exactly_one_whole_block(length: int) -> None:
    """At least one: the mask and the probe find every run. At most one: no block is
    searched for that another already finds in each run holding it.

    Failed before the blocks were spaced 7 apart: 6 apart, the run starting at each
    multiple of 6 held two whole blocks (a 32-character key had 5 blocks, now 4).
    """
    assert set(_runs_blocks(_token(length))) == {1}


def test_a_real_keys_length_is_probed_with_four_blocks() -> None:
    """Four substring searches over each answer for a 32-character key (five before).

    Failed before the blocks were spaced 7 apart.
    """
    assert len(redaction._blocks(_token(32))) == 4


@pytest.mark.parametrize("length", TOKEN_LENGTHS)
def test_every_run_at_every_offset_is_masked_and_probed(length: int) -> None:
    """A guard (it passed with the blocks 6 apart too): for every token length and every
    place a run of ``RUN_LENGTH`` characters starts, in either case, the probe answers
    ``True`` and the mask leaves none of the run. Fails with the blocks 8 apart, where
    the run from 1 to 13 holds no whole block.
    """
    token = _token(length)
    redactor = Redactor([token])
    for start in range(length - RUN_LENGTH + 1):
        run = token[start : start + RUN_LENGTH]
        for shown in (run, run.upper()):
            echo = f"upstream said: key ..{shown}.. is not valid"
            assert redactor.may_hold(echo), (length, start, shown)
            assert redactor(echo) == f"upstream said: key ..{MASK}.. is not valid"
