"""Running a README example as a user's script: its block, a process of its own, a clean home.

The README's examples are run as written, each in a new Python process as a user's own
script would be (an ``async with`` inside ``async def main()`` and ``asyncio.run``, as the
Python section says), with an environment that holds nothing of this machine's: its own
home and config directories, an empty credential store, the state in memory. A file of
several examples runs them with :func:`run_scripts`, forked children of one interpreter
that imported the frameworks once (a fresh interpreter spent 1-4 s a script on them).
"""

import json
import os
import re
import subprocess
import sys
from collections.abc import Mapping, Sequence
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from tests.cli_runs import run_all
from websearch_core import SEARCH_PROVIDER_ORDER
from websearch_core.testing import Simulator

__all__ = [
    "README",
    "ROOT",
    "as_script",
    "readme_block",
    "run_script",
    "run_scripts",
    "simulated_env",
    "user_env",
]

README = Path(__file__).resolve().parents[2] / "README.md"
ROOT = README.parent


def readme_block(marker: str, fence: str = "python") -> str:
    """The one README block of ``fence`` holding ``marker``."""
    text = README.read_text(encoding="utf-8")
    (block,) = [b for b in re.findall(rf"```{fence}\n(.*?)```", text, re.S) if marker in b]
    return block


def as_script(block: str, checks: str = "") -> str:
    """``block`` run as the Python section says (in ``main()``, by ``asyncio.run``), then
    ``checks`` in the same coroutine, so they see the names the block made."""
    body = "\n".join(f"    {line}" for line in (block + checks).splitlines())
    return f"import asyncio, json\n\nasync def main():\n{body}\n\nasyncio.run(main())\n"


def run_script(
    script: str, env: Mapping[str, str], tmp_path: Path
) -> subprocess.CompletedProcess[str]:
    """``script`` in a fresh interpreter with ``env``, in ``tmp_path``, importing this tree."""
    return subprocess.run(
        [sys.executable, "-c", script],
        env={**env, "PYTHONPATH": str(ROOT)},
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )


FRAMEWORKS = ("langchain_core.tools", "langchain_websearch", "llama_index.core", "websearch_core")
"""What the README's scripts import, imported once before they are forked (those installed)."""


def run_scripts(
    scripts: Mapping[str, tuple[str, Mapping[str, str], Path]],
    directory: Path,
    commands: Mapping[str, tuple[Sequence[str], Mapping[str, str], Path]] | None = None,
    preload: Sequence[str] = FRAMEWORKS,
) -> dict[str, subprocess.CompletedProcess[str]]:
    """Each ``(script, env, folder)`` run as :func:`run_script` would, and each ``(args,
    env, folder)`` of ``commands`` as ``websearch ARGS`` would, by its name.

    Each is a forked child of one :mod:`tests.cli_runs` interpreter that imported
    ``preload`` (those installed) and nothing of the script: its own process, environment (``env``
    whole, this tree on its path), working folder, empty input and exit, run in order
    (the scripts, then the commands).
    """
    runs: list[dict[str, Any]] = []
    for name, (script, env, folder) in scripts.items():
        path = folder / f"script-{len(runs)}.py"
        path.write_text(script, encoding="utf-8")
        runs.append({"id": name, "script": str(path), "args": [], "cwd": str(folder), "env": env})
    for name, (args, env, folder) in (commands or {}).items():
        runs.append({"id": name, "args": list(args), "cwd": str(folder), "env": env})
    for run in runs:
        run.update(env={**run["env"], "PYTHONPATH": str(ROOT)}, stdin="", stdout="pipe")
    found = tuple(name for name in preload if find_spec(name.partition(".")[0]) is not None)
    said = run_all(runs, directory, user_env(directory), preload=found)
    return {
        run["id"]: subprocess.CompletedProcess(
            [run.get("script", "websearch"), *run["args"]],
            said[run["id"]]["status"],
            said[run["id"]]["stdout"],
            said[run["id"]]["stderr"],
        )
        for run in runs
    }


def user_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """A user's environment with nothing of this machine's: its own home, memory state.

    It imports this tree (``PYTHONPATH``), so a test run from a second checkout runs that
    checkout's code, not the one the environment's editable install points at; ``extra``
    adds or overrides variables.
    """
    keep = {name: os.environ[name] for name in ("PATH", "LANG", "SYSTEMROOT") if name in os.environ}
    return {
        **keep,
        "PYTHONPATH": str(ROOT),
        "HOME": str(tmp_path),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "WEBSEARCH_STATE_BACKEND": "memory",
        "WEBSEARCH_CREDENTIALS_FILE": str(tmp_path / "credentials.json"),
        **extra,
    }


def simulated_env(
    sim: Simulator, tmp_path: Path, base: Mapping[str, str] | None = None
) -> dict[str, str]:
    """``base`` (else :func:`user_env`) searching ``sim``'s providers alone, Brave's key set.

    Every provider the simulator serves is routed to it on loopback and every other one
    excluded, so a README example's search is answered there whatever its chain.
    """
    others = [pid for pid in SEARCH_PROVIDER_ORDER if pid not in sim.providers]
    return {
        **(user_env(tmp_path) if base is None else base),
        "WEBSEARCH_BASE_URLS": json.dumps(sim.base_urls()),
        "WEBSEARCH_EXCLUDE": ",".join(others),
        "BRAVE_API_KEY": sim.api_keys()["brave"],
    }
