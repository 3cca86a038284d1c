"""The clash advice a provider class keeps follows its credential kinds and info.

``SearchProvider.clash_advice`` is kept on the class (the credential check asks for it
before every attempt); a subclass or a class whose ``credential_kinds`` changed must not
get the wording of the credentials it no longer sends.
"""

import pytest

from websearch_core.provider_credentials import ApiKey, clash_advice
from websearch_core.providers.brave import BraveProvider
from websearch_core.providers.kimi import KimiProvider


class _OtherHeader(BraveProvider):
    credential_kinds = (ApiKey(header="x-other-key"),)


class _NoOtherHeader(BraveProvider):
    credential_kinds = (ApiKey(authorization=True),)


def test_each_class_gets_the_advice_for_its_own_credentials() -> None:
    asked = [cls.clash_advice() for cls in (BraveProvider, _OtherHeader, _NoOtherHeader)]
    assert asked == [
        clash_advice(cls.credential_kinds, cls.info)
        for cls in (BraveProvider, _OtherHeader, _NoOtherHeader)
    ]
    assert "x-other-key" in asked[1]
    assert "sends no credential in another header" in asked[2]
    assert KimiProvider.clash_advice() == clash_advice(
        KimiProvider.credential_kinds, KimiProvider.info
    )


def test_changed_credential_kinds_are_worded_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    before = _OtherHeader.clash_advice()
    monkeypatch.setattr(_OtherHeader, "credential_kinds", (ApiKey(header="x-renamed"),))
    after = _OtherHeader.clash_advice()
    assert "x-other-key" in before
    assert "x-renamed" in after and "x-other-key" not in after
