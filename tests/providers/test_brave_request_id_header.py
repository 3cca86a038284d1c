"""Brave's request id is read from the response's headers in one pass, with the old answer.

``x-request-id``, else ``request-id`` (when the first is absent or empty), each by a
case-insensitive name. It was two look-ups, each lower-casing every header's name: without
an ``x-request-id`` every header was read twice a search.
"""

import itertools
import json
import random
from collections.abc import ItemsView

from websearch_core.models import SearchParams
from websearch_core.providers.brave import BraveProvider
from websearch_core.transport import HttpResponse

BODY = json.dumps({"web": {"results": [{"url": "https://a.example/", "title": "A"}]}}).encode()
NAMES = ["x-request-id", "X-Request-Id", "X-REQUEST-ID", "request-id", "Request-Id", "Date"]
VALUES = ["", "abc", "def-1"]


class _CountedHeaders(dict[str, str]):
    """A response's headers that count how often they are read entry by entry."""

    reads = 0

    def items(self) -> ItemsView[str, str]:
        self.reads += 1
        return super().items()


def _parsed(headers: dict[str, str]) -> str | None:
    response = HttpResponse(status=200, body=BODY, headers=headers, url="")
    return BraveProvider().parse_response(response, SearchParams(query="q")).request_id


def test_headers_without_x_request_id_are_read_once() -> None:
    headers = _CountedHeaders(
        {"Content-Type": "application/json", "Date": "Tue, 08 Dec 2026 00:00:00 GMT"}
    )
    headers["Request-Id"] = "abc"
    assert _parsed(headers) == "abc"
    assert headers.reads == 1


def test_every_mix_of_the_two_names_gives_what_the_two_look_ups_gave() -> None:
    """A guard: the one pass against ``header(x) or header(y)`` on the same headers."""
    rng = random.Random(20261208)
    mixes: list[list[tuple[str, str]]] = [[]]
    for size in (1, 2, 3):
        for names in itertools.permutations(NAMES, size):
            for _ in range(4):
                mixes.append([(name, rng.choice(VALUES)) for name in names])
    for mix in mixes:
        headers = dict(mix)
        reply = HttpResponse(status=200, body=BODY, headers=headers, url="")
        expected = reply.header("x-request-id") or reply.header("request-id")
        assert _parsed(headers) == expected, mix
    assert len(mixes) > 400
