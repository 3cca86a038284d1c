"""A provider's clash advice is worked out once per class, and follows what the class holds.

The credential check asks every provider for it before each attempt (what to do when a
URL's user info and a credential both need the ``Authorization`` header). It is kept on
the class with the ``credential_kinds`` and ``info`` it was read from; a class given
others later (a user's subclass, a test's) gets the advice of what it holds now.
"""

from dataclasses import replace

import pytest

from websearch_core.provider_credentials import ApiKey, clash_advice
from websearch_core.provider_types import ProviderInfo
from websearch_core.providers.brave import BraveProvider


def test_asked_again_it_hashes_neither_the_info_nor_the_kinds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    expected = clash_advice(BraveProvider.credential_kinds, BraveProvider.info)
    assert BraveProvider.clash_advice() == expected
    hashed: list[str] = []
    real_hash = ProviderInfo.__hash__

    def counted(info: ProviderInfo) -> int:
        hashed.append(info.id)
        return real_hash(info)

    monkeypatch.setattr(ProviderInfo, "__hash__", counted)
    assert BraveProvider().clash_advice() == BraveProvider.clash_advice() == expected
    assert hashed == []


def test_kinds_or_info_set_later_give_the_advice_of_what_the_class_holds() -> None:
    # A guard: it passes with the advice worked out on every call as well as kept.
    class Gateway(BraveProvider):
        pass

    assert Gateway.clash_advice() == BraveProvider.clash_advice()
    assert "sends no credential in another header" in Gateway.clash_advice()
    Gateway.credential_kinds = (ApiKey(header="x-api-key"),)
    moved = Gateway.clash_advice()
    assert moved.endswith("in the x-api-key header")
    assert "a Brave API key" in moved
    Gateway.info = replace(BraveProvider.info, label="Gateway")
    assert "a Gateway API key" in Gateway.clash_advice()
    assert "sends no credential in another header" in BraveProvider.clash_advice()
