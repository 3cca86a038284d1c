"""The README's "What every provider is held to", item by item, each named to its tests.

Stop 51 (docs51) left that section as seven bullets of up to 31 lines (Budgets alone held
fourteen claims), read but never held item by item. It is now one short item per claim
under seven labels, and :data:`HELD_BY` names, for every item in the README's order, the
tests that prove it: an item added without its tests, or a test renamed or removed under
an item, fails here. The texts the section quotes are matched against the code that
writes them, and the outcomes the logging paragraph lists against the attempt's type.
The layout test failed on the README before (bullets of up to 31 lines); the outcome list
failed on it too (it named ``served`` and ``retried``, and an attempt's outcome is
``success``, ``failed``, ``skipped`` or ``cached``); the rest are guards.
"""

import re
import typing
from pathlib import Path

import pytest

from tests.unit._test_names import defined_tests
from websearch_core.connection_causes import proxy_refusal
from websearch_core.format import format_no_content
from websearch_core.models import AttemptOutcome
from websearch_core.orchestration import ledger
from websearch_core.orchestration.fanout import ALL_FAILED_PREFIX
from websearch_core.orchestration.quota import Budget

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
HEADING = "### What every provider is held to\n"
AFTER = "Every response lists its `attempts`"
LONGEST_ITEM = 5
"""Lines an item may take: a claim and its quote, not a paragraph of claims."""

_BUDGETS = "tests/functional/test_budget_last_resort.py"
_WAIT = "tests/functional/test_budget_store_wait.py"
_GIVEN_UP = "tests/functional/test_budget_given_up.py"
_CLOCK = "tests/unit/test_state_clock.py"
_FAULTS = "tests/contract/test_faults.py"
_HOSTILE = "tests/contract/test_hostile_bodies.py"
_SANITIZE = "tests/unit/test_sanitize.py"
_SOURCES = "tests/functional/test_secret_sources.py"
_LATE = "tests/functional/test_late_secrets.py"
_HERE = "tests/unit/test_readme_held_to.py"

HELD_BY: dict[str, list[tuple[str, list[str]]]] = {
    "Budgets": [
        (
            "A budget is never spent unseen",
            [
                f"{_BUDGETS}::test_a_budget_is_still_not_spent_while_another_provider_answers",
                f"{_WAIT}::test_a_budget_a_silent_redis_cannot_check_is_not_spent",
            ],
        ),
        (
            "A broken state store never fails a search",
            ["tests/functional/test_quota.py::test_a_broken_state_store_costs_no_answer"],
        ),
        (
            "While the store cannot count a request",
            [
                f"{_WAIT}::test_a_budget_behind_a_locked_file_skips_its_provider_and_the_next_answers",
                f"{_HERE}::test_the_budget_texts_are_the_ledgers",
            ],
        ),
        (
            "A Public Web engine with a budget",
            [
                f"{_WAIT}::test_a_public_engine_whose_budget_cannot_be_checked_is_skipped_not_cut_off"
            ],
        ),
        (
            "Only when nothing else answered",
            [
                f"{_BUDGETS}::test_a_skipped_budget_is_asked_last_after_every_other_provider_failed",
                f"{_BUDGETS}::test_a_chain_of_one_budgeted_provider_answers_uncounted_behind_a_locked_file",
                f"{_BUDGETS}::test_a_forced_or_pinned_budgeted_provider_answers_uncounted_from_a_silent_redis",
            ],
        ),
        (
            "The last resort is said once",
            [
                f"{_BUDGETS}::test_a_failed_last_resort_reads_its_failure_and_uncounted_note_as_one_sentence",
                f"{_BUDGETS}::test_public_web_answering_as_the_last_resort_says_so_in_its_attempt_and_its_notes",
                f"{_HERE}::test_the_budget_texts_are_the_ledgers",
            ],
        ),
        (
            "A retry after a short rate limit",
            [f"{_BUDGETS}::test_a_last_resort_retried_after_a_short_rate_limit_reserves_once"],
        ),
        (
            "Public Web asks its budgeted engines so only when",
            [
                f"{_BUDGETS}::test_public_web_asks_an_unchecked_engine_only_when_the_others_failed",
                f"{_BUDGETS}::test_engine_results_that_all_fail_public_webs_own_filter_hold_its_unchecked_engine",
                f"{_BUDGETS}::test_public_web_with_an_engine_cut_off_and_the_rest_empty_holds_its_unchecked_engine",
            ],
        ),
        (
            "Earlier in the chain its turn ends as usual",
            [
                f"{_BUDGETS}::test_an_unchecked_engine_waits_for_the_providers_after_public_web",
                f"{_HERE}::test_the_public_web_texts_are_the_codes",
            ],
        ),
        (
            "If none of them answers, Public Web is asked again",
            [
                f"{_BUDGETS}::test_public_web_is_asked_again_for_its_unchecked_engines_when_the_chain_failed",
                f"{_BUDGETS}::test_public_web_last_behind_a_held_provider_asks_its_unchecked_engine_in_chain_order",
                f"{_BUDGETS}::test_a_failed_last_resort_still_names_the_engines_that_failed_in_the_first_pass",
            ],
        ),
        (
            "Providers without a budget are asked as usual",
            [f"{_BUDGETS}::test_a_skipped_budget_is_asked_last_after_every_other_provider_failed"],
        ),
        (
            "A reservation given up on is not kept",
            [
                f"{_GIVEN_UP}::test_a_budget_reservation_given_up_behind_a_locked_file_is_not_counted_later",
                f"{_GIVEN_UP}::test_a_redis_budget_reservation_answered_after_it_was_given_up_is_given_back",
                "tests/unit/test_state_withdrawal.py::test_a_write_withdrawn_before_it_starts_is_never_made",
            ],
        ),
        (
            "Only a reply that never comes",
            ["tests/unit/test_state_withdrawal.py::test_a_write_that_started_cannot_be_withdrawn"],
        ),
    ],
    "Clock steps": [
        (
            "A cooldown ends no later than",
            [f"{_CLOCK}::test_a_clock_stepping_back_does_not_stretch_a_mark"],
        ),
        (
            "Rate-limit bookings keep their spacing",
            [
                f"{_CLOCK}::test_a_clock_stepping_back_does_not_hold_up_the_rate_limit",
                f"{_CLOCK}::test_redis_rate_booking_made_before_the_server_clock_stepped_back",
            ],
        ),
    ],
    "Rate-limit hints": [
        (
            "Any `Retry-After` or reset value",
            [
                f"{_FAULTS}::test_any_retry_after_is_clamped_and_never_poisons_the_state",
                "tests/unit/test_transport.py::test_retry_after_forms",
            ],
        ),
        (
            "A stored mark can never make a search raise",
            [f"{_FAULTS}::test_any_retry_after_is_clamped_and_never_poisons_the_state"],
        ),
    ],
    "Redirects": [
        (
            "Redirects are followed by us",
            [
                "tests/contract/test_broken_replies.py::test_a_redirect_loop_stops_at_the_bound",
                f"{_FAULTS}::test_a_redirect_to_a_non_http_scheme_is_refused",
            ],
        ),
        (
            "A request that carries a credential",
            [f"{_FAULTS}::test_a_redirect_to_another_origin_never_carries_credentials"],
        ),
        (
            "aiohttp's silent re-send",
            [
                "tests/functional/test_brave_sim.py::test_a_reset_on_a_reused_connection_is_not_silently_resent"
            ],
        ),
    ],
    "Results": [
        (
            "At most `num_search_results`",
            [
                f"{_FAULTS}::test_ten_thousand_results_are_capped_at_the_limit",
                f"{_SANITIZE}::test_the_source_cap_is_the_collapsed_count_within_the_provider_max",
            ],
        ),
        (
            "Control characters, terminal escape sequences",
            [
                f"{_FAULTS}::test_hostile_text_and_urls_are_cleaned",
                f"{_SANITIZE}::test_titles_lose_escapes_controls_and_overrides",
            ],
        ),
        (
            "A URL with userinfo, junk around it",
            [
                f"{_SANITIZE}::test_only_clean_absolute_http_urls_pass",
                f"{_FAULTS}::test_hostile_text_and_urls_are_cleaned",
            ],
        ),
        (
            "Each reader looks at the first 200",
            [
                f"{_HOSTILE}::test_a_json_item_past_the_bound_is_never_read",
                f"{_HOSTILE}::test_results_past_the_bound_of_a_page_are_never_read",
                f"{_HOSTILE}::test_the_bound_is_above_every_count_a_provider_documents",
            ],
        ),
        (
            "So is a list inside one result",
            [f"{_HOSTILE}::test_a_list_inside_a_result_is_read_up_to_the_bound"],
        ),
        (
            "Brave and Serper build only the fields",
            [
                "tests/providers/test_serper_body.py::test_an_unread_object_of_300000_keys_in_a_result_is_never_built",
                "tests/providers/test_brave_body.py::test_edge_bodies_project_or_step_aside",
            ],
        ),
        (
            "Each HTML engine parses a UTF-8 page from its bytes",
            [
                "tests/providers/test_html_bytes.py::test_a_large_page_with_results_is_read_without_its_whole_text",
                "tests/providers/test_html_bytes.py::test_a_large_page_is_checked_without_its_whole_text",
                "tests/providers/test_html_engine_memory.py::test_a_search_of_several_large_pages_holds_one_body_at_a_time",
            ],
        ),
        (
            "A JSON body is decoded whole",
            [
                "tests/providers/test_brave_body.py::test_random_bodies_project_to_what_the_whole_decode_gives"
            ],
        ),
    ],
    "Secrets": [
        (
            "Keys and tokens are masked",
            [
                "tests/unit/test_redaction_blocks.py::test_every_run_at_every_offset_is_masked_and_probed",
                "tests/unit/test_redaction_echo_forms.py::test_an_escaped_key_is_masked_where_it_was_written",
                "tests/unit/test_redaction_shapes.py::test_bare_token_userinfo_covers_the_basic_header_aiohttp_sends",
                "tests/unit/test_redaction_shapes.py::test_keys_with_slash_or_colon_are_masked_when_echoed_truncated",
                f"{_FAULTS}::test_a_key_echoed_in_a_success_body_never_reaches_the_model_or_the_cache",
            ],
        ),
        (
            "No raised error keeps an aiohttp exception",
            [
                "tests/conformance/test_secret_error_objects.py::test_guard_no_error_object_carries_the_key"
            ],
        ),
        (
            "That holds for a key first read during the search",
            [
                f"{_LATE}::test_a_key_first_read_inside_the_attempt_is_masked",
                f"{_LATE}::test_an_oauth_token_refreshed_during_the_call_is_masked",
            ],
        ),
        (
            "It holds for the other credentials a request carries",
            [
                f"{_SOURCES}::test_perplexity_session_cookie_is_masked",
                f"{_SOURCES}::test_bare_token_in_a_base_url_is_masked_in_its_basic_form",
                f"{_SOURCES}::test_environment_proxy_credentials_are_masked",
                f"{_SOURCES}::test_a_proxy_exported_after_the_client_opened_is_masked",
            ],
        ),
        (
            "Page fetches mask them as searches do",
            [
                "tests/conformance/test_secret_fetch_errors.py::test_a_returned_fetch_error_holds_no_proxy_password",
                "tests/content/test_fetch_proxy.py::test_a_proxy_exported_later_is_used_and_its_credentials_masked_in_the_page",
            ],
        ),
        (
            "A proxy refusing the tunnel is named by its status alone",
            [
                f"{_SOURCES}::test_a_proxy_refusing_the_tunnel_is_named_as_such_without_its_password",
                "tests/content/test_fetch_proxy.py::test_a_refused_tunnel_is_named_without_the_proxys_password",
                f"{_HERE}::test_the_proxy_refusal_is_the_transports",
            ],
        ),
        (
            "A user name alone (`http://user@host`) is not a secret",
            [
                f"{_SOURCES}::test_a_user_name_alone_in_a_url_leaves_the_answer_intact",
                "tests/unit/test_redaction_shapes.py::test_a_user_name_alone_in_a_url_is_not_masked_in_text",
            ],
        ),
    ],
    "`~/.netrc`": [
        (
            "Never read: the client's session does not trust the environment",
            [f"{_SOURCES}::test_a_netrc_login_is_never_sent_to_a_provider"],
        ),
        (
            "The proxy from `HTTP(S)_PROXY` / `NO_PROXY` is chosen per request",
            [
                "tests/functional/test_proxy.py::test_requests_go_through_the_proxy",
                f"{_SOURCES}::test_environment_proxy_credentials_are_masked",
            ],
        ),
        (
            "A session you pass in (`WebSearch(session=...)`) keeps its own settings",
            [f"{_SOURCES}::test_a_proxy_exported_after_the_client_opened_is_masked"],
        ),
    ],
}
"""Each label's items, in the README's order: how each item begins, and its tests."""


def _section() -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index(HEADING) + len(HEADING)
    return text[start : text.index(AFTER, start)]


def _items() -> dict[str, list[list[str]]]:
    """Each bold label's items, each item as its lines (the label's own line excluded)."""
    found: dict[str, list[list[str]]] = {}
    items: list[list[str]] | None = None
    for line in _section().splitlines():
        label = re.match(r"\*\*(.+?):?\*\*", line)
        if label:
            items = found.setdefault(label.group(1), [])
        elif line.startswith("- "):
            assert items is not None, f"an item before any label: {line}"
            items.append([line[2:]])
        elif line.startswith("  ") and items:
            items[-1].append(line.strip())
    return found


def _prose(lines: list[str]) -> str:
    return " ".join(" ".join(lines).split())


def test_every_item_is_one_short_claim() -> None:
    """Failed before: Budgets was one bullet of 31 lines, Results one of 24."""
    items = _items()
    assert list(items) == list(HELD_BY)
    for label, claims in items.items():
        for lines in claims:
            assert len(lines) <= LONGEST_ITEM, (label, lines[0])


def test_every_item_is_named_to_tests_that_exist() -> None:
    """Failed before (no such items): every README item, in order, has its tests here."""
    for label, claims in _items().items():
        held = HELD_BY[label]
        assert len(claims) == len(held), label
        for lines, (begins, nodes) in zip(claims, held, strict=True):
            assert _prose(lines).startswith(begins), (label, _prose(lines), begins)
            assert nodes, (label, begins)
            for node in nodes:
                path, name = node.split("::")
                assert name in defined_tests(path), node


def _quoted(begins: str) -> str:
    """The code span of the section that begins with ``begins`` (line breaks joined)."""
    found = re.search(re.escape(begins) + r"[^`]*`", " ".join(_section().split()))
    assert found, f"the README no longer quotes {begins!r}"
    return found.group(0)


def test_the_budget_texts_are_the_ledgers() -> None:
    """A guard: the skip and the last resort's note, as the ledger writes them."""
    budget = Budget.parse("brave", "2000/month")
    skip = ledger._budget_unchecked("brave", "Brave", budget).message
    note = ledger._uncounted("brave", "Brave", budget).uncounted
    section = " ".join(_section().split())
    assert f"`{skip}`" in section
    assert f"`{note}`" in section


def test_the_public_web_texts_are_the_codes() -> None:
    """A guard: the prefix of every Public Web failure and its empty answer's text."""
    section = " ".join(_section().split())
    assert f"`{ALL_FAILED_PREFIX}...`" in section
    assert f"`{ALL_FAILED_PREFIX}duckduckgo, bing: failed (HTTP 503)`" in section
    assert f"`{format_no_content('Public Web')}`" in section


def test_the_proxy_refusal_is_the_transports() -> None:
    """A guard: the 407's words, after the label and host every connection failure has."""
    import aiohttp

    said = proxy_refusal(aiohttp.ClientHttpProxyError(None, (), status=407))  # type: ignore[arg-type]
    quote = "`Serper search failed: the connection failed (google.serper.dev): " + f"{said}`"
    assert quote in " ".join(_section().split())


def test_the_outcomes_a_log_record_carries_are_the_attempts() -> None:
    """Failed before: the README listed ``served`` and ``retried``, which no attempt has."""
    text = " ".join(README.read_text(encoding="utf-8").split())
    found = re.search(r"each record of an attempt \(outcome ([^;]+);", text)
    assert found, "the README no longer lists the outcomes of a log record"
    listed = re.findall(r"`(\w+)`", found.group(1))
    assert listed == list(typing.get_args(AttemptOutcome))
    assert "a retry is a `failed` attempt that says it is retrying" in text
    # Played through the simulator there: the short 429's attempt is `failed`, "retrying".
    retry = "test_a_short_rate_limit_reads_as_the_item_says"
    assert retry in defined_tests("tests/unit/test_readme_failures_items.py")


@pytest.mark.parametrize("label", list(HELD_BY))
def test_each_label_is_written_once(label: str) -> None:
    """A guard: the section's labels stay unique, so an item is found under one label."""
    assert _section().count(f"**{label}") == 1
