"""A tool's config file: read once per process unless edited, and one error for a bad path.

Stop 53 (firstcall9) left two gaps, each run here in a fresh interpreter whose tool is
given no ``Settings`` (its file named by ``WEBSEARCH_CONFIG_FILE``) and searches the
loopback simulator. Python's audit hook counts the file's opens for reading; a counting
pass-through on ``Path.stat`` counts the looks at its path.

- A tool called on several loops (``asyncio.run`` per call, as a script or a LlamaIndex
  synchronous call does) builds a client per loop, and each build's bounded read opened
  and parsed the file again.
- A path the bounded read could not look at (here a name longer than the file system
  takes) was handed over as nothing: the build's settings looked again, unbounded, and a
  bare ``OSError`` escaped them (``websearch`` printed it as a bug).
"""

import json
import subprocess
import sys
from pathlib import Path

from tests.integrations._readme_scripts import user_env

_SCRIPT = """
import asyncio, json, os, pathlib, sys

from websearch_core.testing import Simulator

CONFIG = os.environ["WEBSEARCH_CONFIG_FILE"]
OPENS = []
LOOKS = []


def hook(event, args):
    if event == "open" and isinstance(args[0], (str, os.PathLike)):
        if os.fspath(args[0]) == CONFIG and args[1] in ("r", "rb"):  # not the edit
            OPENS.append(args[1])


sys.addaudithook(hook)
_stat = pathlib.Path.stat


def counted_stat(self, *args, **kwargs):
    if str(self) == CONFIG:
        LOOKS.append(1)
    return _stat(self, *args, **kwargs)


pathlib.Path.stat = counted_stat


def outcome(query):
    try:
        return str(asyncio.run(TOOL.ainvoke({"query": query})))
    except Exception as error:
        return f"{type(error).__name__}: {error}"


with Simulator(["brave"]).running_in_thread() as sim:
    os.environ["WEBSEARCH_BASE_URLS"] = json.dumps(sim.base_urls())
    from langchain_websearch import WebSearchTool

    TOOL = WebSearchTool()
    seen = []
    for query in json.loads(os.environ["QUERIES"]):
        if query == "EDIT":
            pathlib.Path(CONFIG).write_text(os.environ["EDIT"])
            continue
        text = outcome(query)
        seen.append({"opens": len(OPENS), "looks": len(LOOKS), "text": text})
    sent = [[r.query_dict()["q"], r.header("X-Subscription-Token")] for r in sim["brave"].requests]
    print(json.dumps({"seen": seen, "sent": sent}))
"""

_CONFIG = 'provider = "brave"\ncache = false\n[api_keys]\nbrave = "{key}"\n'


def _run(tmp_path: Path, config: Path, queries: list[str], edit: str = "") -> dict[str, object]:
    env = user_env(
        tmp_path, WEBSEARCH_CONFIG_FILE=str(config), QUERIES=json.dumps(queries), EDIT=edit
    )
    done = subprocess.run(
        [sys.executable, "-c", _SCRIPT], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    answer: dict[str, object] = json.loads(done.stdout)
    return answer


def test_a_tool_on_several_loops_reads_its_file_once_until_it_is_edited(tmp_path: Path) -> None:
    """Failed before: three loops' first calls opened the file three times.

    Each loop's build still looks at the file (one ``stat``) to see whether it changed; an
    edit (here the key) is read on the next loop's build and sent.
    """
    config = tmp_path / "config.toml"
    config.write_text(_CONFIG.format(key="sim-key-brave"))
    edited = _CONFIG.format(key="BSA-edited-key")
    found = _run(tmp_path, config, ["q0", "q1", "q2", "EDIT", "q3"], edit=edited)
    seen = found["seen"]
    assert isinstance(seen, list)
    assert [step["opens"] for step in seen] == [1, 1, 1, 2]
    assert found["sent"] == [
        ["q0", "sim-key-brave"],
        ["q1", "sim-key-brave"],
        ["q2", "sim-key-brave"],
        ["q3", "BSA-edited-key"],
    ]
    assert all(step["text"].startswith("[1] ") for step in seen)


def test_a_path_the_disk_will_not_look_at_is_looked_at_once_and_named(tmp_path: Path) -> None:
    """Failed before: the build's settings looked again and raised a bare ``OSError``.

    Each call (the build fails, so the next call builds again) looks once, and says the
    settings' one line naming the variable and the disk's reason; nothing is searched.
    """
    config = tmp_path / ("a" * 300) / "config.toml"  # a name longer than any file system takes
    found = _run(tmp_path, config, ["q0", "q1"])
    seen = found["seen"]
    assert isinstance(seen, list)
    assert [(step["opens"], step["looks"]) for step in seen] == [(0, 1), (0, 2)]
    said = f"WEBSEARCH_CONFIG_FILE: config file {config} cannot be read: File name too long"
    assert all(said in step["text"] for step in seen), seen
    assert all("OSError" not in step["text"] for step in seen)
    assert found["sent"] == []
