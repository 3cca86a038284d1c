"""The search command's filter options: --site, --exclude-site, --after, --before."""

import contextlib
import json
from collections.abc import Iterator

import pytest

from websearch_core import SEARCH_PROVIDER_ORDER
from websearch_core.cli import EXIT_OK, EXIT_USAGE, main
from websearch_core.testing import SimResult, Simulator

PAGES = [
    SimResult("Laravel", "https://github.com/laravel/laravel", "The PHP framework.", None),
    SimResult("Laravel guide", "https://builtin.com/laravel", "A guide.", None),
    SimResult("Laravel docs", "https://laravel.com/docs", "Documentation.", None),
]


@pytest.fixture
def brave(monkeypatch: pytest.MonkeyPatch) -> Iterator[Simulator]:
    """A simulated Brave serving three sites, the only provider the CLI may use."""
    with contextlib.ExitStack() as stack:
        sim = stack.enter_context(Simulator(["brave"]).running_in_thread())
        sim["brave"].results = list(PAGES)
        monkeypatch.setenv("WEBSEARCH_BRAVE_BASE_URL", sim["brave"].base_url)
        monkeypatch.setenv("BRAVE_API_KEY", "sim-key-brave")
        others = [pid for pid in SEARCH_PROVIDER_ORDER if pid != "brave"]
        monkeypatch.setenv("WEBSEARCH_EXCLUDE", ",".join(others))
        monkeypatch.setenv("WEBSEARCH_CACHE", "off")
        yield sim


def test_sites_and_dates_reach_the_provider_and_the_json(
    brave: Simulator, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["laravel", "--site", "github.com", "--site", "laravel.com"]
    argv += ["--exclude-site", "builtin.com", "--after", "2025-01-01", "--before", "2025-06-30"]
    assert main([*argv, "--json"]) == EXIT_OK
    sent = brave["brave"].requests[0].query_dict()
    assert sent["q"] == "laravel (site:github.com OR site:laravel.com) -site:builtin.com"
    assert sent["freshness"] == "2025-01-01to2025-06-30"
    response = json.loads(capsys.readouterr().out)["response"]
    assert [s["url"] for s in response["sources"]] == [
        "https://github.com/laravel/laravel",
        "https://laravel.com/docs",
    ]
    assert response["filters"] == [
        {"name": "include_domains", "value": "github.com", "applied": ["query", "post"]},
        {"name": "include_domains", "value": "laravel.com", "applied": ["query", "post"]},
        {"name": "exclude_domains", "value": "builtin.com", "applied": ["query", "post"]},
        {"name": "date_after", "value": "2025-01-01", "applied": ["native"]},
        {"name": "date_before", "value": "2025-06-30", "applied": ["native"]},
    ]


def test_options_and_query_directives_merge(
    brave: Simulator, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["laravel", "site:github.com", "--exclude-site", "builtin.com", "--json"]) == 0
    response = json.loads(capsys.readouterr().out)["response"]
    assert [(f["name"], f["value"]) for f in response["filters"]] == [
        ("include_domains", "github.com"),
        ("exclude_domains", "builtin.com"),
    ]


@pytest.mark.parametrize(
    ("argv", "names"),
    [
        (["x", "--after", "last week"], ("date_after", "--after")),
        (["x", "--before", "2025-02-30"], ("date_before", "--before")),
        (["x", "--site", "not a domain"], ("include_domains", "--site")),
        (["x", "--after", "2025-06-01", "--before", "2025-01-01"], ("date_after",)),
    ],
)
def test_a_bad_filter_option_exits_2_naming_it(
    brave: Simulator, capsys: pytest.CaptureFixture[str], argv: list[str], names: tuple[str, ...]
) -> None:
    assert main(argv) == EXIT_USAGE
    err = capsys.readouterr().err
    for name in names:
        assert name in err
    assert brave["brave"].requests == []
