"""Watch the fallback chain work, offline: Brave runs out of quota, Tavily answers.

Runs against the loopback simulator shipped in ``websearch_core.testing``, so it needs no
keys and no network::

    python examples/offline_fallback.py
"""

import argparse
import asyncio

from websearch_core import WebSearch
from websearch_core.testing import Fault, Simulator


async def main() -> None:
    async with Simulator(["brave", "tavily", "duckduckgo"]) as sim:
        sim["brave"].always(Fault.payment_required())  # Brave's monthly quota is spent
        settings = sim.settings(providers=("brave", "tavily", "duckduckgo"))
        async with WebSearch(settings, api_keys=sim.api_keys()) as ws:
            first = await ws.run("python asyncio tutorial")
            second = await ws.run("python asyncio tutorial", use_cache=False)
        print(first.text.splitlines()[0])
        for label, result in (("first search", first), ("second search", second)):
            print(f"{label}, served by {result.response.provider}:")
            for attempt in result.response.attempts:
                why = f" - {attempt.detail}" if attempt.detail else ""
                print(f"  {attempt.provider}: {attempt.outcome}{why}")
        print("requests Brave received:", len(sim["brave"].requests))


if __name__ == "__main__":
    # --help says what this does instead of running it; --offline, which the other
    # examples take, is accepted: this one always is.
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--offline", action="store_true", help="always so (the simulator)")
    parser.parse_args()
    asyncio.run(main())
