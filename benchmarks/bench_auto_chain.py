"""``WebSearch.search`` with the automatic provider chain, the configuration a user starts with.

``bench_overhead.py call`` lists one provider (``providers=("brave",)``), so its plan asks
about Brave alone. With no list the plan covers every provider of the auto order: worked
out by asking each one without a key (the environment, the local credential store) and
then kept while neither changes, so each search reads the variables it read and ``stat``s
the store to know. This measures that call against the same floor as ``call`` (the raw GET
and ``json.loads`` of the same Brave capture), interleaved call by call: Brave's key given
in code, and a credential store holding a key for a provider later in the order
(``serper``), written long enough before the run to count as settled::

    python benchmarks/bench_auto_chain.py [--rounds N]
"""

import argparse
import asyncio
import json
import tempfile
import time
from pathlib import Path

import aiohttp
from bench_overhead import FIXTURES, KEYS, QUERY, _pairs, _raw_get, _serve

from websearch_core import WebSearch
from websearch_core.settings import Settings

SETTLE_SECONDS = 2.5
"""Longer than the credential store's settling time, as for a file stored days ago."""


async def bench_auto(rounds: int) -> None:
    capture = sorted(FIXTURES.glob("*.json"))[0]
    runner, origin = await _serve(capture.read_bytes())
    try:
        with tempfile.TemporaryDirectory() as directory:
            credentials = Path(directory) / "credentials.json"
            credentials.write_text(json.dumps({"serper": {"api_key": "stored"}}))
            time.sleep(SETTLE_SECONDS)
            settings = Settings(
                base_urls={"brave": origin},
                cache=False,
                state_dir=Path(directory) / "state",
                credentials_file=credentials,
            )
            async with (
                aiohttp.ClientSession() as session,
                WebSearch(settings, api_keys=KEYS) as ws,
            ):
                first = await ws.search(QUERY)
                assert first.provider == "brave", first.provider
                raw = _raw_get(session, origin)
                await _pairs("auto chain", lambda: raw(QUERY), lambda: ws.search(QUERY), rounds)
    finally:
        await runner.cleanup()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1000)
    args = parser.parse_args()
    if not sorted(FIXTURES.glob("*.json")):
        print("skipped: ../shared/fixtures/brave/*.json not available")
        return
    asyncio.run(bench_auto(args.rounds))


if __name__ == "__main__":
    main()
