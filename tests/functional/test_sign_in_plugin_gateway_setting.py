"""A provider of your own's id in the ``sign_in_gateways`` setting.

Decided: the settings keep refusing it (``own_provider_gateways`` in
``websearch_core.sign_in_advice`` says why: every process reads them, the command and the
tools run no plugin, and they are checked before a plugin's module may be imported), and
a plugin's gateway is trusted on the ``Transport`` its caller builds. What was wrong: the
refusal said only ``unknown provider id session-plugin (known: ...)``, so a user who had
written the provider, set the keyword, the variable or the config file's entry, was not
told where its trust goes. It now says, whichever of the three named it.

The simulator plays the HTTP proxy for every non-loopback host, so the advice is followed
through a real transport and what it sent is read from what the proxy recorded.
"""

from collections.abc import Callable
from pathlib import Path

import pytest
from pydantic import ValidationError

from tests.functional.test_plugin_sign_in_send_time import (
    FOREIGN,
    SESSION,
    VARIABLE,
    SessionPlugin,
)
from tests.proxied_sign_ins import PROXY_SERVICE, proxied_context, seen_by_proxy
from websearch_core import Credentials, SearchParams
from websearch_core.errors import ConfigurationError, ProviderNotConfiguredError
from websearch_core.settings import Settings
from websearch_core.testing import Simulator

PLUGIN = SessionPlugin.info.id
ADVICE = f'trust its gateway on the Transport you build for it, with sign_in_gateways=["{PLUGIN}"]'


def _refusal(build: Callable[[], object]) -> str:
    with pytest.raises((ValidationError, ConfigurationError)) as refused:
        build()
    return str(refused.value)


def test_the_keyword_naming_a_plugins_id_is_told_where_its_trust_goes() -> None:
    """Failed before (``unknown provider id`` and the built-in ids only)."""
    text = _refusal(lambda: Settings(sign_in_gateways=[PLUGIN]))
    assert f"unknown provider id {PLUGIN}" in text
    assert f"{PLUGIN} is a provider of your own, which the settings do not know" in text
    assert ADVICE in text


def test_the_variable_naming_a_plugins_id_is_told_where_its_trust_goes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Failed before: ``WEBSEARCH_SIGN_IN_GATEWAYS=session-plugin`` met the same bare
    refusal."""
    monkeypatch.setenv("WEBSEARCH_SIGN_IN_GATEWAYS", f"codex,{PLUGIN}")
    assert ADVICE in _refusal(Settings)


def test_the_config_file_naming_a_plugins_id_is_told_where_its_trust_goes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Failed before: the config file's ``sign_in_gateways`` entry, the same."""
    config = tmp_path / "config.toml"
    config.write_text(f'sign_in_gateways = ["{PLUGIN}"]\n', encoding="utf-8")
    monkeypatch.setenv("WEBSEARCH_CONFIG_FILE", str(config))
    assert ADVICE in _refusal(Settings)


def test_guard_a_typo_of_a_built_in_id_is_not_called_a_provider_of_yours() -> None:
    """Guard (passes before and after): ``codx`` is an unknown id with its suggestion,
    and no advice about a provider of your own."""
    text = _refusal(lambda: Settings(sign_in_gateways=["codx"]))
    assert "did you mean codex?" in text and "of your own" not in text


async def test_guard_the_advice_followed_sends_the_plugins_sign_in_to_its_gateway(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Guard (passes before and after): the Transport built as the refusal says sends the
    plugin's session to its gateway (through the proxy); built without the id, the same
    search is refused and nothing is sent. The refusal never holds the session."""
    monkeypatch.setenv(VARIABLE, SESSION)
    async with Simulator([PROXY_SERVICE]) as sim:
        settings = sim.settings(base_urls={}, cache=False)
        routes = {PLUGIN: FOREIGN}
        async with proxied_context(
            sim, settings, Credentials(), routes=routes, own_transport=True
        ) as untrusted:
            with pytest.raises(ProviderNotConfiguredError) as refused:
                await SessionPlugin().search(SearchParams(query="q"), untrusted)
        assert sim[PROXY_SERVICE].requests == []
        assert SESSION not in str(refused.value)
        async with proxied_context(
            sim, settings, Credentials(), routes=routes, gateways=[PLUGIN], own_transport=True
        ) as trusted:
            answer = await SessionPlugin().search(SearchParams(query="q"), trusted)
        assert answer.answer == "sent"
        assert SESSION in seen_by_proxy(sim)
