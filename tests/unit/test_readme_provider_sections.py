"""The README's SearXNG, Brave and Parallel, and Public Web sections, claim by claim.

No docs stop since 49 read these three Providers subsections claim by claim. Each claim is
found in its section (in the README's order) and named to the tests that prove it; the
texts the Public Web section quotes are built here by the functions that write them (the
engines' few words, their grouping, the prefixes). All are guards: each claim was true.
"""

from pathlib import Path

from tests.unit._test_names import defined_tests
from websearch_core.errors import (
    BrowserLoadError,
    ChallengeError,
    ProviderConnectionError,
    ProviderTimeoutError,
    RateLimitedError,
    SearchProviderError,
)
from websearch_core.format import format_no_content
from websearch_core.orchestration.engine_failures import brief_failure, engines_failed_text
from websearch_core.orchestration.fanout import ALL_FAILED_PREFIX, NOT_ANSWERED_PREFIX
from websearch_core.providers._parallel_parse import WARNING_PREFIX

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"

_SX = "tests/providers/test_searxng.py"
_SXSIM = "tests/functional/test_searxng_sim.py"
_PAR = "tests/providers/test_parallel.py"
_PARSIM = "tests/functional/test_parallel_sim.py"
_PUB = "tests/functional/test_public.py"
_BRAVE = "tests/providers/test_brave.py"
_HERE = "tests/unit/test_readme_provider_sections.py"

CLAIMS: dict[str, list[tuple[str, list[str]]]] = {
    "### Self-hosted: SearXNG": [
        (
            "`searxng` takes the instance as `https://host` or as its search page",
            [
                f"{_SXSIM}::test_endpoint_alone_routes_requests",
                f"{_SXSIM}::test_endpoint_given_as_the_search_url_is_not_doubled",
                f"{_SX}::test_url_is_endpoint_plus_search",
            ],
        ),
        (
            "The instance must list `json` in `search.formats`",
            [
                f"{_SX}::test_403_html_page_is_the_json_format_being_disabled_not_a_key_problem",
                f"{_SXSIM}::test_json_format_disabled_is_reported_as_what_it_is",
            ],
        ),
        (
            "A query with an external bang",
            [
                f"{_SX}::test_external_bangs_are_refused_before_sending",
                f"{_SXSIM}::test_external_bang_is_refused_and_never_sent",
            ],
        ),
        (
            "Each source keeps the engines that found it",
            [
                f"{_SX}::test_real_capture_keeps_each_results_engines",
                f"{_SXSIM}::test_engines_infobox_and_corrections_reach_the_model",
            ],
        ),
        (
            "infoboxes become part of the answer (their page a citation)",
            [f"{_SX}::test_real_capture_with_an_infobox_and_a_correction"],
        ),
        (
            "spelling corrections lead the related questions",
            [f"{_SX}::test_corrections_lead_the_related_questions_without_repeats"],
        ),
        (
            "engines that failed mark the response `partial` (it is then not cached)",
            [f"{_SXSIM}::test_unresponsive_engines_make_a_partial_uncached_response"],
        ),
    ],
    "### API services: Brave and Parallel": [
        (
            "Brave's `published_date` is ISO 8601 whenever Brave gives an absolute date",
            [f"{_BRAVE}::test_every_capture_result_with_a_date_has_an_iso_published_date"],
        ),
        (
            "`page_age` names no time zone and is read as UTC",
            [
                f"{_BRAVE}::test_capture_ages_are_measured_from_the_iso_date_shown",
                "tests/functional/test_published_date_zone.py::"
                "test_every_provider_gives_a_bare_instant_its_utc_zone",
            ],
        ),
        (
            "Parallel searches in its cheapest mode, `turbo`",
            [f"{_PAR}::test_turbo_only_for_english_and_japanese_queries"],
        ),
        (
            "Parallel's `warnings` (a `country` it does not serve, say) are kept in the",
            [
                f"{_PAR}::test_warnings_become_notes_and_every_result_is_kept",
                f"{_PARSIM}::test_a_warning_is_a_note_and_a_log_line_and_costs_no_result",
                f"{_HERE}::test_the_parallel_note_is_its_parsers",
            ],
        ),
        (
            "an empty answer's error ends with them",
            [f"{_PARSIM}::test_a_warning_explains_an_empty_answer"],
        ),
    ],
    "### The Public Web aggregate": [
        (
            "`public` never runs on its own",
            [
                f"{_PUB}::test_explicit_only_availability",
                f"{_PUB}::test_the_auto_chain_does_not_fan_out",
            ],
        ),
        (
            "It asks every credential-free engine at once and merges",
            [
                f"{_PUB}::test_registered_engines_are_fanned_out_and_merged",
                "tests/unit/test_aggregate.py::test_variants_of_one_page_share_a_key",
                "tests/unit/test_aggregate.py::test_engines_serving_one_index_count_as_one_vote",
                "tests/unit/test_aggregate.py::test_provenance_lists_every_engine_and_its_one_based_rank",
            ],
        ),
        (
            "It returns once every engine has answered",
            [
                f"{_PUB}::test_returns_when_every_engine_settled_before_the_soft_deadline",
                f"{_PUB}::test_real_defaults_are_five_and_thirty_seconds",
                f"{_PUB}::test_hard_cap_never_passes_the_provider_timeout",
                f"{_PUB}::test_an_engine_stopped_by_the_fan_outs_own_time_is_cut_off_not_failed",
            ],
        ),
        (
            "It fails only when every engine failed on its own",
            [
                f"{_PUB}::test_every_engine_failed_is_an_aggregated_503_in_engine_order",
                f"{_HERE}::test_the_public_web_failure_texts_are_the_codes",
            ],
        ),
        (
            "(an engine cooling down reads",
            [
                "tests/unit/test_engine_failures.py::"
                "test_a_hold_ends_with_its_whole_date_when_the_summary_fits",
                "tests/unit/test_engine_failures.py::"
                "test_only_a_summary_too_long_with_the_dates_gives_times_of_day",
            ],
        ),
        (
            "An HTTP status is shown only when a server sent it",
            [
                f"{_PUB}::test_engine_failures_show_only_a_status_a_server_sent",
                f"{_HERE}::test_the_public_web_failure_texts_are_the_codes",
            ],
        ),
        (
            "With an engine cut off and nothing found the error is",
            [
                f"{_PUB}::test_hard_cap_with_no_success_gives_an_empty_response",
                f"{_HERE}::test_the_public_web_failure_texts_are_the_codes",
            ],
        ),
        (
            "a partial answer carries the same line in its `notes`",
            [
                "tests/unit/test_cli_public_partial_notes.py::"
                "test_a_partial_merge_names_the_engines_that_did_not_answer",
                "tests/unit/test_cli_public_partial_notes.py::test_the_note_is_the_one_the_json_holds",
            ],
        ),
    ],
}
"""Each section's claims in the README's order: how each begins, and its tests."""


def _section(heading: str) -> str:
    """The section under ``heading``, to the next heading, line breaks joined."""
    text = README.read_text(encoding="utf-8")
    start = text.index(f"{heading}\n") + len(heading)
    end = text.index("\n#", start)
    return " ".join(text[start:end].split())


def test_each_claim_is_in_its_section_in_order_and_named_to_tests() -> None:
    """A guard: every claim listed is still written, in order, and its tests exist."""
    for heading, claims in CLAIMS.items():
        section = _section(heading)
        at = 0
        for begins, nodes in claims:
            found = section.find(begins, at)
            assert found >= 0, (heading, begins)
            at = found + len(begins)
            for node in nodes:
                path, name = node.split("::")
                assert name in defined_tests(path), node


def test_the_public_web_failure_texts_are_the_codes() -> None:
    """A guard: the section's example texts, built by what writes them."""
    section = _section("### The Public Web aggregate")
    wall = ChallengeError("duckduckgo", "wall")
    failed = engines_failed_text(
        [
            ("duckduckgo", wall),
            ("google", ChallengeError("google", "wall")),
            ("bing", RateLimitedError("bing", "slow down", 429)),
            ("yahoo", SearchProviderError("yahoo", "Yahoo HTML error (503)", 503)),
        ]
    )
    assert f"`{ALL_FAILED_PREFIX}{failed}`" in section
    assert f"`{format_no_content('Public Web')}`" in section
    not_answered = engines_failed_text([("duckduckgo", wall), ("google", None), ("mojeek", None)])
    assert f"`{NOT_ANSWERED_PREFIX}{not_answered}.`" in section
    assert f"`websearch: note: {NOT_ANSWERED_PREFIX}...`" in section
    # Our own 503 and 504 for a connection and a timeout are not shown as a server's.
    words = [
        brief_failure(ProviderConnectionError("ecosia", "connection reset", 503)),
        brief_failure(ProviderTimeoutError("ecosia", "timed out after 5s", 504)),
        brief_failure(BrowserLoadError("mojeek", "net::ERR_FAILED", 502)),
    ]
    assert "reads `{}`, `{}` or `{}`".format(*words) in section


def test_the_parallel_note_is_its_parsers() -> None:
    """A guard: the note's form and the logger the section names."""
    section = _section("### API services: Brave and Parallel")
    assert f"(`{WARNING_PREFIX}...`)" in section
    # The record's logger and level are read off a search in the simulator test named.
    assert "logged at WARNING on `websearch_core.providers.parallel`" in section
