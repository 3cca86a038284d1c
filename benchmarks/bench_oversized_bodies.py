"""What a 200 MB answer costs each JSON API provider, through the real transport.

A broken or hostile upstream can answer far past any sane size. Every provider's body is
read by :class:`~websearch_core.transport.Transport`, which stops at the size cap
(``max_response_bytes``, 8 MiB by default; Brave's own is 2 MiB). This runs one search per
API and answer-engine provider against the loopback simulator, whose
:meth:`~websearch_core.testing.Fault.oversized` fault streams the body a piece at a time
(the server never holds it), in each framing: with its ``Content-Length``, in chunks with
none, and gzip-compressed in chunks (a few hundred kilobytes on the wire, 200 MB
inflated). The line gives the wall time of the search, the peak of Python's memory during
it (``tracemalloc``, the server's pieces included) and the text the model reads. Reading
begins with a search not timed (the first run imports the provider).

Run one process per measurement set::

    python benchmarks/bench_oversized_bodies.py [--size 200000000] [provider ...]
"""

import argparse
import asyncio
import base64
import gc
import json
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import get_args

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from websearch_core import WebSearch
from websearch_core.credentials import CredentialStore, OAuthToken
from websearch_core.providers import get_provider, provider_ids
from websearch_core.testing import PROTOCOLS, Fault, Framing, Simulator

KEY = "sk-bench-0123456789abcdef"
_CLAIMS = {"https://api.openai.com/auth": {"chatgpt_account_id": "acct-bench"}}
TOKEN = "eyJhbGciOiJSUzI1NiJ9.{}.c2ln".format(
    base64.urlsafe_b64encode(json.dumps(_CLAIMS).encode()).decode().rstrip("=")
)
"""A JWT-shaped token for Codex, which signs in rather than taking a key."""


def json_providers() -> list[str]:
    """Every simulated provider that speaks an API (not an HTML engine)."""
    return [
        pid
        for pid in provider_ids()
        if pid in PROTOCOLS and get_provider(pid).info.kind in ("api", "answer")
    ]


async def one_search(provider: str, size: int, framing: Framing, store: Path) -> tuple[str, float]:
    """The text of one forced search whose every answer is ``size`` bytes in ``framing``,
    and the seconds the search took (the simulator's start and stop left out: after a
    compressed body's client has gone, the server still compresses the rest to notice)."""
    async with Simulator([provider]) as sim:
        sim[provider].always(Fault.oversized(size=size, framing=framing))
        settings = sim.settings(credentials_file=store, cache=False, rate_limit_wait_seconds=0)
        keys = {} if provider == "codex" else {provider: KEY}
        async with WebSearch(settings, api_keys=keys) as client:
            started = time.perf_counter()
            result = await client.run("hostile", provider=provider)
            seconds = time.perf_counter() - started
    return result.text, seconds


def bench(provider: str, size: int, framing: Framing, store: Path) -> None:
    gc.collect()
    tracemalloc.start()
    text, seconds = asyncio.run(one_search(provider, size, framing, store))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(
        f"{provider:11} {framing:8} {size / 1e6:5.0f} MB  {seconds:5.2f} s  "
        f"peak {peak / 1e6:5.1f} MB  {text[:70]}",
        flush=True,
    )


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    options.add_argument("providers", nargs="*", help="provider ids (default: every API one)")
    options.add_argument("--size", type=int, default=200_000_000, help="body bytes")
    args = options.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        store = Path(folder) / "credentials.json"
        CredentialStore(store).set_oauth(
            "codex", OAuthToken(access_token=TOKEN, expires_at=time.time() + 3600)
        )
        for provider in args.providers or json_providers():
            for framing in get_args(Framing):
                bench(provider, args.size, framing, store)


if __name__ == "__main__":
    main()
