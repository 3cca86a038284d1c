""" "When providers fail or run out", item by item: what each says you see is what you see.

The section was one list of long bullets, so "what happens when my Brave quota runs out"
took reading a paragraph; it is now a table of what you see and one short item per failure
(what you see, what the library does, what you can do), with the details after each. The
items quote texts no bullet quoted before (the quota skip, the budget spent, the deadline,
the status row of a provider with no key); each quote is read from the README here and
compared with what the code writes, and the quota item is also played through the loopback
simulator. The layout checks failed on the README before the change (no table, no items);
the texts are guards on the code they quote.
"""

import asyncio
import re
from pathlib import Path

from websearch_core import WebSearch
from websearch_core.deadline import Deadline, not_tried_text
from websearch_core.errors import SearchProviderError
from websearch_core.format import format_provider_failure
from websearch_core.orchestration.ledger import _over_budget
from websearch_core.orchestration.quota import Budget, describe_mark
from websearch_core.providers import get_provider
from websearch_core.settings import Settings
from websearch_core.state.base import ProviderMark
from websearch_core.status import _not_configured
from websearch_core.testing import Fault, Simulator

README = Path(__file__).resolve().parents[2] / "README.md"
FAILURES = ("No key", "Quota spent", "Rate limited", "Provider down", "All failed", "Deadline")
"""The failures a user meets, each an item of its own (the brief's list)."""
LABELS = ("**You see:**", "**The library:**", "**You can:**")


def _section() -> str:
    text = README.read_text(encoding="utf-8")
    return text.split("## When providers fail or run out\n", 1)[1].split("\n## ", 1)[0]


def _prose(text: str) -> str:
    return " ".join(text.split())


def _items() -> dict[str, str]:
    """Each ``###`` part of the section, by heading."""
    parts = re.split(r"^### (.+)\n", _section(), flags=re.M)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def _seen(heading: str) -> str:
    """The item's "You see" line, joined."""
    found = re.search(r"\*\*You see:\*\* (.*?)\n- \*\*The library", _items()[heading], re.S)
    assert found is not None, heading
    return _prose(found[1])


def test_each_failure_a_user_meets_is_an_item_of_its_own() -> None:
    """Failed before: the failures were bullets of up to 40 lines, with no such items."""
    items = _items()
    for failure in FAILURES:
        assert failure in items, failure
        bullets = [line for line in items[failure].splitlines() if line.startswith("- **")]
        assert len(bullets) >= len(LABELS), failure
        for bullet, label in zip(bullets, LABELS, strict=False):  # then the item's own
            assert bullet.removeprefix("- ").startswith(label), (failure, bullet)


def test_the_table_sends_each_text_to_its_item() -> None:
    """Failed before (no table): every row links to an item of the section."""
    table = _section().split("| you see | the failure |", 1)[1].split("\n\n", 1)[0]
    anchors = re.findall(r"\]\(#([a-z-]+)\)", table)
    headings = {re.sub(r"[^a-z0-9 -]", "", h.lower()).replace(" ", "-"): h for h in _items()}
    assert len(anchors) >= len(FAILURES)
    assert set(anchors) <= set(headings), set(anchors) - set(headings)


def test_each_item_s_lines_are_short_enough_to_scan() -> None:
    """Each of an item's three lines is at most four lines of text (a guard on the items,
    which the README before the change did not have)."""
    for heading, body in _items().items():
        for label in LABELS:
            found = re.search(rf"^- {re.escape(label)}.*?(?=^- |^$|\Z)", body, re.S | re.M)
            if found is not None:
                assert found[0].count("\n") <= 4, (heading, label)


def test_the_no_key_row_is_the_status_the_command_prints() -> None:
    """A guard: `not configured (set BRAVE_API_KEY)` is Brave's status row without a key."""
    row = _not_configured(get_provider("brave").info)
    assert f"`{row}`" in _seen("No key")


def test_the_quota_skip_is_the_sentence_the_chain_writes() -> None:
    """A guard: the quoted skip is :func:`describe_mark`'s for a spent Brave quota."""
    mark = ProviderMark(
        kind="exhausted",
        until=1767225600.0,
        reason="brave: credits exhausted",
        set_at=1764547200.0,
    )
    written = describe_mark("Brave", mark, provider_id="brave")
    assert f"`{written}`" in _seen("Quota spent")


def test_a_spent_brave_quota_is_skipped_as_the_item_says() -> None:
    """A guard through the simulator: a 402 moves on at once, the next search sends Brave
    nothing, and its attempt says the item's words with the reset command."""

    async def scenario() -> tuple[list[str], int, str | None]:
        async with Simulator(["brave", "duckduckgo"]) as sim:
            sim["brave"].enqueue(Fault.payment_required())
            settings = sim.settings(api_keys=sim.api_keys())
            async with WebSearch(settings) as ws:
                first = await ws.search("python")
                sent = len(sim["brave"].requests)
                second = await ws.search("rust")
            outcomes = [f"{a.provider}:{a.outcome}" for a in (*first.attempts, *second.attempts)]
            assert len(sim["brave"].requests) == sent == 1
            return outcomes, sent, second.attempts[0].detail

    outcomes, _sent, detail = asyncio.run(scenario())
    assert outcomes[:2] == ["brave:failed", "duckduckgo:success"]
    assert outcomes[2:] == ["brave:skipped", "duckduckgo:success"]
    assert detail is not None
    seen = _seen("Quota spent")
    assert detail.startswith("Brave is out of quota until ") and "Brave is out of quota" in seen
    assert detail.endswith("`websearch providers reset brave` clears this mark.")
    assert "`websearch providers reset brave` clears this mark.`" in seen


def test_the_budget_spent_text_is_the_ledger_s() -> None:
    """A guard: the quoted budget skip is the ledger's for a spent ``2000/month``."""
    skip = _over_budget("brave", "Brave", Budget.parse("brave", "2000/month"), 2000)
    assert f"`{skip.message}`" in _seen("Your budget reached")


def test_the_refused_key_text_is_the_spec_s_normalisation() -> None:
    """A guard: a 401's text is `Brave authorization failed (401). Check API key or ...`."""
    error = SearchProviderError("brave", "Brave API error (401): invalid token", status=401)
    assert f"`{format_provider_failure(error, 'Brave')}`" in _seen("Key refused")


def test_the_deadline_text_is_the_default_deadline_s() -> None:
    """A guard: the quoted deadline text is the default deadline's, as the code words it."""
    written = not_tried_text(Deadline(Settings().deadline_seconds), ["brave", "tavily"])
    assert f"`{written}`" in _seen("Deadline")


def test_the_mark_sentences_quoted_begin_as_the_chain_writes_them() -> None:
    """A guard: `refused its credentials`, `cooling down`, `rate limited` skips' openings."""
    for heading, kind in (
        ("Key refused", "unauthorized"),
        ("Provider down", "circuit_open"),
        ("Rate limited", "rate_limited"),
    ):
        mark = ProviderMark(kind=kind, until=1767225600.0, reason="x", set_at=1767225000.0)  # type: ignore[arg-type]
        opening = describe_mark("Brave", mark).split(" 2026-")[0]
        assert f"`{opening} ..." in _seen(heading), heading


def test_a_short_rate_limit_reads_as_the_item_says() -> None:
    """A guard through the simulator: a 429 whose wait is short is a failed attempt saying
    it retries, then the same provider's answer; the item quotes that attempt's words."""

    async def scenario() -> list[tuple[str, str, str | None]]:
        async with Simulator(["brave", "duckduckgo"]) as sim:
            sim["brave"].enqueue(Fault.rate_limited(retry_after=0))
            async with WebSearch(sim.settings(api_keys=sim.api_keys())) as ws:
                response = await ws.search("python")
            assert len(sim["brave"].requests) == 2
            return [(a.provider, a.outcome, a.detail) for a in response.attempts]

    attempts = asyncio.run(scenario())
    assert attempts == [
        ("brave", "failed", "rate limited; retrying after 0s"),
        ("brave", "success", None),
    ]
    quoted = re.search(r"`(rate limited; retrying after) \d+s`", _seen("Rate limited"))
    assert quoted is not None and attempts[0][2] is not None
    assert attempts[0][2].startswith(quoted[1])
