"""Threads loading providers at once all get the one instance of each.

First searches on loops in several threads import their providers at the same moment (off
each loop, :mod:`websearch_core.provider_imports`). Each thread found no instance, made its
own and stored it, so callers held different instances of one provider, and whatever a
provider keeps for the process (a model catalog, a renewal in flight) was split among them.
Runs in a fresh interpreter, where no provider is loaded yet.
"""

import json
import subprocess
import sys
import textwrap

_SCRIPT = textwrap.dedent(
    """
    import json, threading
    from websearch_core.providers import SEARCH_PROVIDER_ORDER, get_provider

    start = threading.Barrier(8)
    seen = {}

    def load(worker):
        start.wait()
        seen[worker] = [id(get_provider(pid)) for pid in SEARCH_PROVIDER_ORDER]

    threads = [threading.Thread(target=load, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    split = [
        pid
        for index, pid in enumerate(SEARCH_PROVIDER_ORDER)
        if len({ids[index] for ids in seen.values()}) > 1
    ]
    print(json.dumps(split))
    """
)


def test_threads_loading_providers_at_once_share_each_instance() -> None:
    completed = subprocess.run(
        [sys.executable, "-c", _SCRIPT], capture_output=True, text=True, timeout=120
    )
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout) == []
