"""The environment a ``websearch`` command reads, pointed at the loopback simulator.

The CLI tests run :func:`websearch_core.cli.main` as a user would: it reads its providers'
base URLs and the exclusions from the environment, not from a ``Settings`` the test hands
it. How a simulated provider is reached that way, and how every provider not simulated is
kept from running (a keyless engine would otherwise reach the real site), is written here
once.
"""

from collections.abc import Mapping

import pytest

from websearch_core import SEARCH_PROVIDER_ORDER
from websearch_core.testing import Simulator

__all__ = ["allow_only", "route_to_simulator"]


def route_to_simulator(
    monkeypatch: pytest.MonkeyPatch, sim: Simulator, elsewhere: Mapping[str, str] | None = None
) -> None:
    """Set ``WEBSEARCH_<ID>_BASE_URL`` for each provider ``sim`` serves, to its simulator.

    Args:
        monkeypatch: The test's monkeypatch, which undoes the variables afterwards.
        sim: The running simulator.
        elsewhere: Base URLs that replace the simulator's for some ids (a refused port).
    """
    for provider_id in sim.providers:
        base_url = (elsewhere or {}).get(provider_id, sim[provider_id].base_url)
        monkeypatch.setenv(f"WEBSEARCH_{provider_id.upper()}_BASE_URL", base_url)


def allow_only(monkeypatch: pytest.MonkeyPatch, *provider_ids: str) -> None:
    """Exclude every provider but ``provider_ids`` through ``WEBSEARCH_EXCLUDE``.

    An allowed provider without its key still cannot run; an excluded one never does.
    """
    others = [pid for pid in SEARCH_PROVIDER_ORDER if pid not in provider_ids]
    monkeypatch.setenv("WEBSEARCH_EXCLUDE", ",".join(others))
