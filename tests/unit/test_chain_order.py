"""A client works out the settings' part of its plan once and asks availability every search.

:class:`ChainOrder` holds what only the settings decide (the ids checked, the exclusions,
the order); :meth:`ChainOrder.resolve` builds each search's plan from it. Kept by a
client's :class:`~websearch_core.call_setup.CallSetup`, it must plan exactly as
:func:`resolve_candidates` does, however often it is reused, and still see a key that
appears after it was made.
"""

import itertools
from pathlib import Path
from typing import cast

import pytest

from websearch_core import Settings, WebSearch
from websearch_core.credentials import Credentials
from websearch_core.errors import ConfigurationError
from websearch_core.orchestration.plan import ChainOrder, ChainPlan, resolve_candidates
from websearch_core.providers import ProviderContext
from websearch_core.transport import Transport

FORCED = (None, "auto", "brave", "tavily", "exa")
"""No force, the word for none, a provider with a key, one without, one without either."""


def _context(environ: dict[str, str]) -> ProviderContext:
    return ProviderContext(
        transport=cast(Transport, None),
        settings=Settings(),
        credentials=Credentials(explicit={"brave": "brave-key"}, environ=environ),
    )


def _summary(plan: ChainPlan) -> tuple[object, ...]:
    """Everything a plan says, in a form two plans compare by."""
    return (
        [provider.info.id for provider in plan.providers],
        [(a.provider, a.outcome, a.detail) for a in plan.skipped],
        plan.forced,
        [(provider.info.id, type(error), str(error)) for provider, error in plan.failures],
    )


@pytest.mark.parametrize(
    ("preferred", "excluded", "listed", "fallback"),
    list(
        itertools.product(
            (None, "brave", "tavily"),
            ((), ("duckduckgo",), ("brave",)),
            ((), ("tavily", "brave", "tavily")),
            (True, False),
        )
    ),
)
def test_one_kept_order_plans_every_search_as_resolve_candidates_does(
    preferred: str | None, excluded: tuple[str, ...], listed: tuple[str, ...], fallback: bool
) -> None:
    context = _context({"EXA_API_KEY": "exa-key"})
    kept = ChainOrder.of(preferred=preferred, excluded=excluded, listed=listed, fallback=fallback)
    for forced in (*FORCED, *reversed(FORCED)):  # reused in both orders: nothing carries over
        fresh = resolve_candidates(
            context,
            forced=forced,
            preferred=preferred,
            excluded=iter(excluded),  # any iterable, read once
            listed=listed,
            fallback=fallback,
        )
        assert _summary(kept.resolve(context, forced)) == _summary(fresh)


def test_a_kept_order_sees_a_key_that_appears_later() -> None:
    environ: dict[str, str] = {}
    context = _context(environ)
    kept = ChainOrder.of(preferred=None, excluded=(), listed=(), fallback=True)
    assert "tavily" not in [p.info.id for p in kept.resolve(context).providers]
    environ["TAVILY_API_KEY"] = "tvly-later"
    assert "tavily" in [p.info.id for p in kept.resolve(context).providers]


def test_unknown_ids_are_named_together_whether_kept_or_not() -> None:
    context = _context({})
    with pytest.raises(ConfigurationError) as fresh:
        resolve_candidates(context, forced="nosuch", excluded=("bogus",))
    assert str(fresh.value).startswith("Unknown search provider: bogus, nosuch (known: ")
    with pytest.raises(ConfigurationError) as settings_only:
        ChainOrder.of(preferred="bogus", excluded=(), listed=(), fallback=True)
    assert str(settings_only.value).startswith("Unknown search provider: bogus (known: ")
    kept = ChainOrder.of(preferred=None, excluded=(), listed=(), fallback=True)
    with pytest.raises(ConfigurationError) as forced_only:
        kept.resolve(context, "nosuch")
    assert str(forced_only.value) == str(fresh.value).replace("bogus, ", "")


async def test_a_client_keeps_its_order_between_searches_and_names_an_unknown_force(
    tmp_path: Path,
) -> None:
    settings = Settings(
        providers=("brave",),
        state_backend="memory",
        cache=False,
        credentials_file=tmp_path / "credentials.json",
    )
    async with WebSearch(settings, api_keys={"brave": "brave-key"}) as ws:
        setup = ws._setup()
        assert [p.info.id for p in setup.plan(None).providers] == ["brave"]
        kept = setup._order
        assert kept is not None
        assert [p.info.id for p in setup.plan("auto").providers] == ["brave"]
        assert setup._order is kept
        expected = "Unknown search provider: nosuch (known: "
        for _ in range(2):
            with pytest.raises(ConfigurationError, match=r"^Unknown search provider: nosuch \("):
                setup.plan("nosuch")
        with pytest.raises(ConfigurationError) as direct:
            resolve_candidates(setup.context, forced="nosuch", listed=("brave",))
        assert str(direct.value).startswith(expected)


@pytest.mark.parametrize(
    ("preferred", "excluded", "listed", "fallback"),
    list(
        itertools.product(
            (None, "brave", "tavily"),
            ((), ("brave",)),
            ((), ("tavily", "brave", "exa")),
            (True, False),
        )
    ),
)
def test_asked_is_the_order_resolve_reaches_and_a_cut_order_plans_its_start(
    preferred: str | None, excluded: tuple[str, ...], listed: tuple[str, ...], fallback: bool
) -> None:
    """What a first search cut short among its providers' imports names is the plan's start.

    Its plan is known up to the first provider of :meth:`ChainOrder.asked` not imported:
    the plan of the order cut there must be the whole plan's providers before that one,
    and the plan's providers must come in ``asked``'s order.
    """
    order = ChainOrder.of(preferred=preferred, excluded=excluded, listed=listed, fallback=fallback)
    context = _context({"EXA_API_KEY": "exa-key"})
    for forced in FORCED:
        asked = order.asked(forced)
        tried = [provider.info.id for provider in order.resolve(context, forced).providers]
        assert [pid for pid in asked if pid in tried] == tried
        for cut in asked[1:]:
            start = order.cut_before(cut).resolve(context, forced).providers
            before = asked[: asked.index(cut)]
            assert [p.info.id for p in start] == [pid for pid in tried if pid in before]
