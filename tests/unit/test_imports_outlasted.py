"""A first search whose imports outlast its deadline ends as the chain ends one out of time.

The chain says ``the 4s deadline for the whole search ran out; not tried: brave, tavily``
when its deadline runs out before it asks a provider: one failure (the first provider's,
a ``DeadlineExceededError``, status 504) and a skip per provider. A search whose imports
outlasted the deadline has no chain to say it (it is what is being imported); it says the
same from the settings, naming the providers the plan would reach in its order.
"""

import importlib

import pytest

from websearch_core import Settings, WebSearch
from websearch_core.deadline import CANDIDATES_NAMED, Deadline, not_tried_text
from websearch_core.errors import AllProvidersFailedError, DeadlineExceededError
from websearch_core.imports_advice import with_imports_advice
from websearch_core.imports_outlasted import ImportsOutlastedDeadline, not_tried_ids
from websearch_core.provider_imports import planned_ids
from websearch_core.providers import SEARCH_PROVIDER_ORDER, get_provider


def test_a_listed_chain_names_its_entries_in_order() -> None:
    settings = Settings(state_backend="memory", providers=("tavily", "brave"))
    assert not_tried_ids(settings, None) == ("tavily", "brave")


def test_the_auto_chain_names_its_order_preferred_first_without_the_excluded() -> None:
    settings = Settings(state_backend="memory", provider="exa", exclude=("brave",))
    ids = not_tried_ids(settings, "auto")
    assert ids[0] == "exa"
    assert set(ids) == set(SEARCH_PROVIDER_ORDER) - {"brave"}
    assert list(ids[1:]) == [i for i in SEARCH_PROVIDER_ORDER if i not in {"exa", "brave"}]


def test_a_forced_or_pinned_provider_is_named_alone() -> None:
    assert not_tried_ids(Settings(state_backend="memory"), "tavily") == ("tavily",)
    pinned = Settings(state_backend="memory", provider="brave", fallback=False)
    assert not_tried_ids(pinned, None) == ("brave",)


def test_search_raises_the_chains_deadline_failure() -> None:
    settings = Settings(state_backend="memory", providers=("brave", "tavily"))
    error = ImportsOutlastedDeadline(settings, None, Deadline(4.0)).search_error()
    text = "the 4s deadline for the whole search ran out; not tried: brave, tavily"
    assert isinstance(error, AllProvidersFailedError)
    assert str(error) == with_imports_advice(text)
    (failure,) = error.failures
    assert isinstance(failure, DeadlineExceededError)
    assert (failure.provider, failure.status, failure.message) == ("brave", 504, text)


def test_the_tool_result_is_the_error_text_with_each_provider_skipped() -> None:
    settings = Settings(state_backend="memory", providers=("brave", "tavily"))
    result = ImportsOutlastedDeadline(settings, None, Deadline(1.5)).tool_result()
    text = "the 1.5s deadline for the whole search ran out; not tried: brave, tavily"
    assert result.text == f"Error: {with_imports_advice(text)}"
    assert result.error == with_imports_advice(text)
    assert result.response.provider == "brave"
    assert [(a.provider, a.outcome, a.detail) for a in result.response.attempts] == [
        ("brave", "skipped", "deadline reached"),
        ("tavily", "skipped", "deadline reached"),
    ]
    assert [(f.provider, f.error) for f in result.failures] == [("brave", text)]


def test_the_settings_contradictions_follow_the_message(caplog: pytest.LogCaptureFixture) -> None:
    settings = Settings(state_backend="memory", provider="brave", exclude=("brave",))
    outlasted = ImportsOutlastedDeadline(settings, None, Deadline(2.0))
    assert outlasted.message.startswith("the 2s deadline for the whole search ran out")
    assert "The settings contradict:" in outlasted.message
    assert "The settings contradict" not in outlasted.failure.message
    assert [r.getMessage() for r in caplog.records] == [f"web search {outlasted.message}"]


def test_the_chains_plan_decides_who_is_named_once_its_providers_are_imported() -> None:
    """Tavily, listed first without a key, is left out by the plan: the chain never names it.

    The providers are imported (the import job imports them before the rest of the chain),
    so the plan's own rule is asked of the client's keys.
    """
    for provider_id in ("tavily", "brave"):
        get_provider(provider_id)
    importlib.import_module("websearch_core.chain_plan")  # the plan's rule, imported with them
    settings = Settings(state_backend="memory", providers=("tavily", "brave"))
    credentials = WebSearch(settings, api_keys={"brave": "brave-key"}).credentials
    outlasted = ImportsOutlastedDeadline(settings, None, Deadline(4.0), credentials)
    assert outlasted.provider_ids == ("brave",)
    said = "the 4s deadline for the whole search ran out; not tried: brave"
    assert outlasted.message == with_imports_advice(said)
    assert [a.provider for a in outlasted.tool_result().response.attempts] == ["brave"]


def test_without_the_keys_every_provider_the_plan_looks_at_is_named() -> None:
    """Guard: with no credentials to ask, the text stays the settings' alone, as before."""
    settings = Settings(state_backend="memory", providers=("tavily", "brave"))
    assert not_tried_ids(settings, None) == ("tavily", "brave")


def test_providers_whose_part_is_not_known_are_counted_not_named() -> None:
    """A plan known in part names its start and counts the rest, in the chain's wording."""
    deadline = Deadline(2.0)
    said = "the 2s deadline for the whole search ran out; not tried: "
    assert not_tried_text(deadline, ["exa"], more=5) == f"{said}exa, and 5 more"
    assert not_tried_text(deadline, [], more=3) == f"{said}any of 3 providers"
    assert not_tried_text(deadline, ["exa", "brave"]) == f"{said}exa, brave"


def test_providers_none_of_whose_part_is_known_are_named_as_the_plans_candidates() -> None:
    """With none of the plan known, its providers are counted and named, in its order.

    "any of 2 providers" told the user less than the settings they wrote; the ids the
    plan would have looked at are known without their modules, and "any of" says that
    which of them could run is not. (After named ones, see the next test.)
    Failed before (no ``unknown``).
    """
    deadline = Deadline(2.0)
    said = "the 2s deadline for the whole search ran out; not tried: "
    named = not_tried_text(deadline, [], unknown=("exa", "brave"))
    assert named == f"{said}any of 2 providers (exa, brave)"


def test_providers_whose_part_is_not_known_after_named_ones_are_named_as_candidates() -> None:
    """After named providers, the rest are counted and named too, as what it may have tried.

    "tavily, and 2 more" hid which two: the ids are the plan's, known from the settings
    alone; "maybe" says that whether it would have tried them is not known. Failed before
    (counted only).
    """
    deadline = Deadline(2.0)
    said = "the 2s deadline for the whole search ran out; not tried: "
    named = not_tried_text(deadline, ["tavily"], unknown=("exa", "brave"))
    assert named == f"{said}tavily, and maybe 2 more (exa, brave)"


def test_candidates_are_named_up_to_a_width_and_counted_in_full() -> None:
    """Past :data:`CANDIDATES_NAMED` the list ends with "...": the count says how many.

    The auto chain's plan looks at two dozen providers; named in full, the sentence buried
    the deadline it is about. Failed before (all named, or none after a named one).
    """
    deadline = Deadline(2.0)
    said = "the 2s deadline for the whole search ran out; not tried: "
    unknown = SEARCH_PROVIDER_ORDER[1:]
    shown = ", ".join(unknown[:CANDIDATES_NAMED])
    after_one = not_tried_text(deadline, SEARCH_PROVIDER_ORDER[:1], unknown=unknown)
    first = SEARCH_PROVIDER_ORDER[0]
    assert after_one == f"{said}{first}, and maybe {len(unknown)} more ({shown}, ...)"
    alone = not_tried_text(deadline, [], unknown=unknown)
    assert alone == f"{said}any of {len(unknown)} providers ({shown}, ...)"
    exactly = unknown[:CANDIDATES_NAMED]
    assert not_tried_text(deadline, [], unknown=exactly).endswith(f"({', '.join(exactly)})")


def test_the_import_takes_a_preferred_provider_first() -> None:
    """The plan looks at a preferred provider first: its import comes first too.

    A search cut short among the providers' imports knows its plan only up to the first
    not imported; importing in the plan's order makes that as much of it as can be.
    """
    preferred = Settings(state_backend="memory", provider="brave", providers=("tavily", "exa"))
    assert planned_ids(preferred, None) == ("brave", "tavily", "exa")
    auto = planned_ids(Settings(state_backend="memory", provider="exa"), None)
    assert auto == ("exa", *(pid for pid in SEARCH_PROVIDER_ORDER if pid != "exa"))
