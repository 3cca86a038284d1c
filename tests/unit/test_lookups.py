"""The client's resolver wrapper knows which names still have no answer, and only those.

A name counts as waiting only while a lookup of it is under way: one answered, failed or
cancelled leaves nothing behind, or a later timeout of a slow provider would read as a host
not found; two lookups of one name at once count until both end.
"""

import asyncio
import socket

import aiohttp.abc
import pytest

from websearch_core.lookups import PendingLookups


class _Gate(aiohttp.abc.AbstractResolver):
    """A name server that answers (or fails) each name when told to."""

    def __init__(self) -> None:
        self.gates: dict[str, asyncio.Future[bool]] = {}

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[aiohttp.abc.ResolveResult]:
        gate = self.gates.setdefault(host, asyncio.get_running_loop().create_future())
        if not await asyncio.shield(gate):
            raise OSError(socket.EAI_NONAME, "Name or service not known")
        return [
            {
                "hostname": host,
                "host": "127.0.0.1",
                "port": port,
                "family": family,
                "proto": 0,
                "flags": socket.AI_NUMERICHOST,
            }
        ]

    async def close(self) -> None:
        return None


@pytest.mark.parametrize("answer", [True, False], ids=["answered", "failed"])
async def test_a_name_waits_only_until_its_lookups_end(answer: bool) -> None:
    gate = _Gate()
    lookups = PendingLookups(gate)
    first = asyncio.create_task(lookups.resolve("example.org", 443))
    second = asyncio.create_task(lookups.resolve("example.org", 443))
    await asyncio.sleep(0)
    assert lookups.pending("example.org") and lookups.pending(None, "example.org.")
    first.cancel()  # the other lookup of the name is still under way
    await asyncio.wait([first])
    assert lookups.pending("example.org")
    assert not lookups.pending("other.example", None)
    gate.gates["example.org"].set_result(answer)
    await asyncio.wait([second])
    assert not lookups.pending("example.org")


async def test_a_cancelled_lookup_leaves_nothing_waiting() -> None:
    lookups = PendingLookups(_Gate())
    task = asyncio.create_task(lookups.resolve("example.org", 443))
    await asyncio.sleep(0)
    assert lookups.pending("example.org")
    task.cancel()
    await asyncio.wait([task])
    assert not lookups.pending("example.org")
