"""Which ids a ``Transport`` of your own may be told to trust with a sign-in.

``Settings(sign_in_gateways=["brave"])`` is refused: Brave sends no sign-in, so trusting its
URL could only let another service's through (the ChatGPT one, sent under
``route="brave"``). A ``Transport`` built with ``sign_in_gateways=["brave"]`` took it
silently, and the refusal advice sends own-transport users to exactly that argument; it
now refuses the same ids in the same words (one rule: :func:`~websearch_core.
sign_in_advice.signless_gateways`). A plugin's own id, which no setting knows, is still
the transport's to trust.
"""

import gc
from collections.abc import Iterable
from typing import ClassVar

import aiohttp
import pytest
from pydantic import ValidationError

from tests.functional.test_plugin_sign_in_send_time import SessionPlugin
from websearch_core.errors import ConfigurationError
from websearch_core.provider_credentials import Credential, SecretVariable
from websearch_core.providers.base import ProviderInfo, SearchProvider
from websearch_core.settings import Settings
from websearch_core.sign_in_declarations import declares_a_sign_in
from websearch_core.transport import Transport


def _settings_text(ids: list[str]) -> str:
    """What the settings say when told to trust ``ids`` (pydantic's wrapping left off)."""
    with pytest.raises(ValidationError) as refused:
        Settings(sign_in_gateways=ids)
    (error,) = refused.value.errors()
    return str(error["ctx"]["error"])


def _transport(session: aiohttp.ClientSession, ids: Iterable[str]) -> Transport:
    """A transport as a user builds one: no credentials, trusting ``ids``."""
    return Transport(session, timeout_seconds=5.0, max_response_bytes=1000, sign_in_gateways=ids)


@pytest.mark.parametrize("ids", [["brave"], ["codex", "exa", "brave"]])
async def test_a_transport_refuses_an_id_no_sign_in_is_sent_under_as_the_settings_do(
    ids: list[str],
) -> None:
    """Failed before: the transport kept ``brave`` (and ``exa``) as trusted gateways."""
    async with aiohttp.ClientSession() as session:
        with pytest.raises(ConfigurationError) as refused:
            _transport(session, ids)
    assert isinstance(refused.value, ValueError)
    assert str(refused.value) == f"sign_in_gateways: {_settings_text(ids)}"
    assert "codex" not in str(refused.value).split(":")[1]  # only the refused ids named


async def test_a_transport_refuses_such_an_id_added_to_those_it_trusts() -> None:
    """Failed before: ``trust_sign_in_gateways`` (an owner's ids added after building it)
    added any id; it refuses as building the transport does and trusts none of it."""
    async with aiohttp.ClientSession() as session:
        transport = _transport(session, ["codex"])
        with pytest.raises(ConfigurationError) as refused:
            transport.trust_sign_in_gateways(["gemini", "tavily"])
    assert str(refused.value) == f"sign_in_gateways: {_settings_text(['tavily'])}"
    assert transport.sign_in_gateways == {"codex"}


async def test_guard_a_transport_trusts_a_plugins_id_and_every_sign_in_route() -> None:
    """Guard (passes before and after): the ids the refusal advice names for an own
    transport, a plugin's own (no setting knows it) and those a sign-in is sent under."""
    assert SessionPlugin.info.id == "session-plugin"
    ids = ["session-plugin", "anthropic", "codex", "gemini", "perplexity", "google_oauth"]
    async with aiohttp.ClientSession() as session:
        transport = _transport(session, iter(ids))
    assert transport.sign_in_gateways == set(ids)


async def test_a_built_in_id_a_living_plugin_declares_a_sign_in_under_is_trusted() -> None:
    """A user's class with the id ``brave`` declaring a session of its own is advised to
    trust ``brave`` on its transport, so the transport takes it (a guard: passes before and
    after, fails if the transport applied the settings' rule alone); once the class is
    gone, the id is refused again (failed before: nothing was refused)."""

    class OwnBrave(SearchProvider):
        info: ClassVar[ProviderInfo] = ProviderInfo(
            id="brave",
            label="Own Brave",
            kind="api",
            description="a user's class that took a built-in id",
            docs_url="https://own-brave.example/docs",
        )
        credential_kinds: ClassVar[tuple[Credential, ...]] = (
            SecretVariable("OWN_BRAVE_COOKIE", "Own Brave session cookie", sign_in=True),
        )
        sign_in_hosts: ClassVar[tuple[str, ...]] = ("own-brave.example",)

    async with aiohttp.ClientSession() as session:
        assert declares_a_sign_in("brave")
        assert _transport(session, ["brave"]).sign_in_gateways == {"brave"}
        del OwnBrave
        gc.collect()
        assert not declares_a_sign_in("brave")
        with pytest.raises(ConfigurationError):
            _transport(session, ["brave"])
