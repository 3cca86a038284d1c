"""Every real capture for a registered provider is read by some test.

The captures in ../shared/fixtures are the ground truth for parsers; a capture that no test
reads is a parser that may silently disagree with the live service.
"""

from pathlib import Path

import pytest

from tests.conftest import SHARED_FIXTURES
from websearch_core.providers import SEARCH_PROVIDER_ORDER

TESTS = Path(__file__).resolve().parents[1]


def _test_sources() -> str:
    return "\n".join(path.read_text(encoding="utf-8") for path in TESTS.rglob("test_*.py"))


@pytest.mark.parametrize("provider_id", SEARCH_PROVIDER_ORDER)
def test_every_capture_of_a_registered_provider_is_used(provider_id: str) -> None:
    folder = SHARED_FIXTURES / provider_id
    if not SHARED_FIXTURES.is_dir():
        pytest.skip("../shared/fixtures not available")
    if not folder.is_dir():
        pytest.skip(f"no captures for {provider_id}")
    sources = _test_sources()
    unused = sorted(path.name for path in folder.iterdir() if path.name not in sources)
    assert not unused, f"captures of {provider_id} no test reads: {unused}"


def test_socket_policy_allows_loopback_only(pytestconfig: pytest.Config) -> None:
    allowed = pytestconfig.getoption("allow_hosts")
    assert allowed is not None
    # Loopback only; 127.0.0.2 is a second loopback origin for the redirect tests.
    assert set(str(allowed).split(",")) <= {"127.0.0.1", "127.0.0.2", "::1", "localhost"}
