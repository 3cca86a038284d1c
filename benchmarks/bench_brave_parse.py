"""Brave's ``parse_response`` by piece, against the floors no Brave parser can go below.

Issue 11 asked for Brave's parse a third cheaper; this shows why that is out of reach on
the real capture (``../shared/fixtures/brave/web_search_laravel_2024.json``, 17 results,
44 KiB) and where a future round would have to look. Timed on the same body, interleaved
call by call in a rotating order (so the machine's drift hits every piece alike):

* **jiter floor**: pydantic's ``validate_json`` of the body against a schema that keeps
  nothing (an empty ``TypedDict``). Pydantic parses the whole text before validating, so
  this is what any pydantic decode of this body pays, whatever it builds;
* **decode**: ``decode_projection``, the floor plus the six fields per result as Python
  values;
* **fields**: ``result_fields`` on the decoded page: URLs, text (tags, entities,
  whitespace), dates and ages, in Python;
* **validation**: ``SearchResponse.model_validate`` of those fields, 17 ``SearchSource``
  built and checked (about 1 us each; the sources must stay validated);
* **parse_response**: the whole step as the chain calls it;
* **clean, cut** / **clean, all**: ``clean_response`` of the parsed page with a redactor
  for one key, as the chain's attempt runs it after the parse: a search of 10 (the
  default) cuts the page's 17 results at the cap, one of 20 keeps them all;
* **json.loads**: the standard library's decode of the same body, issue 11's floor; every
  piece prints its ratio to it, so ``ab_compare.py`` can set two commits side by side.

The capture was made with Brave's text decorations on, so 13 of its descriptions carry
``<strong>`` that the provider's requests (``text_decorations=false``) do not get back; the
tag stripping they cost (~9 us of **fields**) is the benchmark's, not a user's. Loopback-
free, bounded loops, no pass/fail::

    python benchmarks/bench_brave_parse.py [--rounds 2000] [--repeat 3]
"""

import argparse
import json
import statistics
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from bench_parsers import _interleaved, _quartiles, _ratio
from pydantic import TypeAdapter
from typing_extensions import TypedDict

from websearch_core.models import SearchParams, SearchResponse
from websearch_core.providers._brave_body import decode_projection
from websearch_core.providers._brave_parse import result_fields
from websearch_core.providers.brave import BraveProvider
from websearch_core.redaction import Redactor
from websearch_core.sanitize import clean_response
from websearch_core.transport import HttpResponse

CAPTURE = (
    Path(__file__).resolve().parents[1].parent
    / "shared/fixtures/brave/web_search_laravel_2024.json"
)


class _Nothing(TypedDict, total=False):
    """A schema with no field: pydantic still parses every byte of the body."""


def pieces(body: bytes) -> dict[str, Callable[[], object]]:
    """The timed steps, each on the same body (``fields`` and ``validation`` on its parts)."""
    provider = BraveProvider()
    response = HttpResponse(status=200, body=body, headers={}, url="http://127.0.0.1/")
    params = SearchParams(query="laravel")
    nothing = TypeAdapter(_Nothing)
    page = decode_projection(body)
    now = datetime.now(UTC)
    fields = result_fields(page, now=now)
    prepared = {"provider": "brave", "sources": fields, "request_id": None, "auth_mode": "api_key"}
    parsed = provider.parse_response(response, params)
    redactor = Redactor(["BSA-0123456789abcdefghijklmnopq"])  # the shape of a Brave key
    return {
        "jiter floor": lambda: nothing.validate_json(body),
        "decode": lambda: decode_projection(body),
        "fields": lambda: result_fields(page, now=now),
        "validation": lambda: SearchResponse.model_validate(prepared),
        "parse_response": lambda: provider.parse_response(response, params),
        "clean, cut": lambda: clean_response(parsed, cap=10, redactor=redactor),
        "clean, all": lambda: clean_response(parsed, cap=20, redactor=redactor),
        "json.loads": lambda: json.loads(body),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    if not CAPTURE.is_file():
        print(f"skipped: {CAPTURE} not available")
        return
    steps = pieces(CAPTURE.read_bytes())
    for _ in range(args.repeat):
        times = dict(zip(steps, _interleaved(list(steps.values()), args.rounds), strict=True))
        whole = statistics.median(times["parse_response"])
        floor = times["json.loads"]
        for name, samples in times.items():
            q1, median, q3 = _quartiles(samples)
            share = median / whole
            print(
                f"brave-parse {name:<15} {median * 1e6:6.1f} us [{q1 * 1e6:.1f}-{q3 * 1e6:.1f}]"
                f"  {share:4.0%} of parse_response  ratio {_ratio(samples, floor)} json.loads"
            )


if __name__ == "__main__":
    main()
