"""A provider of your own, installed but not imported, named in ``sign_in_gateways``.

Stop 51 (signins4) made the settings' refusal of a plugin's id say where its gateway is
trusted (the ``Transport`` built for it), but only when the plugin's class was alive: the
command, a tool, or a script building its settings before importing the plugin met the
bare ``unknown provider id``. A package may now declare its provider under the entry-point
group ``websearch_core.providers`` (named by its id), and the refusal names it from the
installed metadata in every process, without importing it (the settings are checked
before a plugin may be, and importing one to word an error would run its code).

The installed package is made here: a module and its ``.dist-info`` on ``sys.path``, the
module's import recorded. The advice is then followed through a real transport, the
simulator playing the HTTP proxy, and what it sent read from what the proxy recorded.
"""

import sys
from collections.abc import Callable, Iterator
from importlib.metadata import entry_points
from pathlib import Path

import pytest
from pydantic import ValidationError

from tests.functional.test_plugin_sign_in_send_time import FOREIGN, SESSION, VARIABLE
from tests.proxied_sign_ins import PROXY_SERVICE, proxied_context, seen_by_proxy
from websearch_core import Credentials, SearchParams
from websearch_core.errors import ConfigurationError
from websearch_core.provider_entry_points import PROVIDER_GROUP
from websearch_core.settings import Settings
from websearch_core.testing import Simulator

PLUGIN = "installed-plugin"
MODULE = "installed_plugin_pkg"
NAMED = f"{PLUGIN} is a provider of your own (installed: {PLUGIN}: {MODULE}:InstalledPlugin of "
ADVICE = f'trust its gateway on the Transport you build for it, with sign_in_gateways=["{PLUGIN}"]'
PLUGIN_SOURCE = f"""
from typing import ClassVar

from tests.functional.test_plugin_sign_in_send_time import SessionPlugin, _info

IMPORTED = True


class InstalledPlugin(SessionPlugin):
    info: ClassVar = _info("{PLUGIN}", "Installed Plugin")
"""


def _install(root: Path, group: str) -> None:
    """The plugin's module and its distribution's metadata, declaring it in ``group``."""
    (root / f"{MODULE}.py").write_text(PLUGIN_SOURCE, encoding="utf-8")
    info = root / "installed_plugin_dist-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: installed-plugin-dist\nVersion: 1.0\n", encoding="utf-8"
    )
    (info / "entry_points.txt").write_text(
        f"[{group}]\n{PLUGIN} = {MODULE}:InstalledPlugin\n", encoding="utf-8"
    )


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The plugin installed on ``sys.path`` under the providers' group, not imported."""
    _install(tmp_path, PROVIDER_GROUP)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    sys.modules.pop(MODULE, None)


def _refusal(build: Callable[[], object]) -> str:
    with pytest.raises((ValidationError, ConfigurationError)) as refused:
        build()
    return str(refused.value)


def test_the_keyword_names_an_installed_plugin_without_importing_it(installed: Path) -> None:
    """Failed before (``unknown provider id installed-plugin`` and the built-in ids only):
    the refusal names the plugin's entry point and its package, and the advice; its
    module is not imported."""
    text = _refusal(lambda: Settings(sign_in_gateways=[PLUGIN]))
    assert f"unknown provider id {PLUGIN}" in text
    assert NAMED + "installed-plugin-dist 1.0), which the settings do not know" in text
    assert ADVICE in text
    assert MODULE not in sys.modules


def test_the_variable_names_an_installed_plugin(
    installed: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Failed before: ``WEBSEARCH_SIGN_IN_GATEWAYS`` met the same bare refusal. The
    plugin's session, set in the environment, is not in it."""
    monkeypatch.setenv(VARIABLE, SESSION)
    monkeypatch.setenv("WEBSEARCH_SIGN_IN_GATEWAYS", f"codex,{PLUGIN}")
    text = _refusal(Settings)
    assert NAMED in text and ADVICE in text
    assert SESSION not in text and MODULE not in sys.modules


def test_the_config_file_names_an_installed_plugin(
    installed: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Failed before: the config file's entry, the same."""
    config = tmp_path / "config.toml"
    config.write_text(f'sign_in_gateways = ["{PLUGIN}"]\n', encoding="utf-8")
    monkeypatch.setenv("WEBSEARCH_CONFIG_FILE", str(config))
    text = _refusal(Settings)
    assert ADVICE in text and MODULE not in sys.modules


def test_guard_an_entry_point_of_another_group_is_not_a_provider(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Guard (passes before and after): the same name declared in another group is not
    taken for a provider; the refusal stays the bare one."""
    _install(tmp_path, "someone_elses.plugins")
    monkeypatch.syspath_prepend(str(tmp_path))
    text = _refusal(lambda: Settings(sign_in_gateways=[PLUGIN]))
    assert f"unknown provider id {PLUGIN}" in text and "of your own" not in text


async def test_guard_the_advice_followed_sends_the_installed_plugins_sign_in(
    installed: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Guard (passes before and after): the caller loads the plugin from its entry point and
    builds the Transport as the refusal says; the session reaches its gateway (through the
    proxy), as it does for a plugin imported the usual way."""
    monkeypatch.setenv(VARIABLE, SESSION)
    (entry,) = (e for e in entry_points(group=PROVIDER_GROUP) if e.name == PLUGIN)
    plugin = entry.load()()
    async with Simulator([PROXY_SERVICE]) as sim:
        settings = sim.settings(base_urls={}, cache=False)
        async with proxied_context(
            sim,
            settings,
            Credentials(),
            routes={PLUGIN: FOREIGN},
            gateways=[PLUGIN],
            own_transport=True,
        ) as trusted:
            answer = await plugin.search(SearchParams(query="q"), trusted)
    assert answer.answer == "sent"
    assert SESSION in seen_by_proxy(sim)
