"""The credential check reads the trusted sign-in gateways only where a sign-in is sent.

``SearchProvider.credential_check`` runs before every attempt. A provider sending a key (the
usual case) sends no sign-in, so the gateways a sign-in may go to do not decide anything for
it and are not read; one sending a stored sign-in is judged against them as before (the
functional ``test_sign_in_*`` files hold where a sign-in may go, through this check).
"""

from collections.abc import Collection

import pytest

from tests.providers._helpers import key_context
from websearch_core.provider_types import ProviderContext
from websearch_core.providers import get_provider


def _counting_reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every read of ``ProviderContext.sign_in_gateways`` from now on (each still answers)."""
    reads: list[int] = []
    prop = ProviderContext.sign_in_gateways
    assert isinstance(prop, property) and prop.fget is not None
    getter = prop.fget

    def counted(self: ProviderContext) -> Collection[str]:
        reads.append(1)
        return getter(self)

    monkeypatch.setattr(ProviderContext, "sign_in_gateways", property(counted))
    return reads


@pytest.mark.parametrize("provider_id", ["brave", "tavily", "exa"])
def test_a_keyed_providers_check_reads_no_sign_in_gateways(
    provider_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    provider = get_provider(provider_id)
    context = key_context(provider_id, "k-123")
    reads = _counting_reads(monkeypatch)
    verdict = provider.credential_check(context)
    assert verdict.problem is None
    assert reads == []


def test_a_keyed_providers_check_still_names_a_key_it_cannot_send(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Guard: the check still judges the key (a line break in it) where the key was set."""
    provider = get_provider("brave")
    _counting_reads(monkeypatch)
    verdict = provider.credential_check(key_context("brave", "k-1\n23"))
    assert verdict.problem is not None
    assert 'api_keys["brave"]' in verdict.problem and "control character" in verdict.problem
    assert "k-1" not in verdict.problem
