"""The result cache: keys from the normalised query and parameters, and (de)serialisation.

Only successful responses are stored, never a partial aggregate. Entries stay fresh for
the TTL (15 minutes by default) and are kept stale for a while longer, so that when every
provider fails a stale answer can be served, marked ``stale``, instead of an error.
"""

import hashlib
import json

from pydantic import ValidationError

from .models import SearchParams, SearchResponse

__all__ = ["cache_key", "dump_response", "load_response"]

_KEY_VERSION = "v1"


def _normalise_query(query: str) -> str:
    return " ".join(query.casefold().split())


def cache_key(params: SearchParams, scope: str) -> str:
    """A stable key for ``params`` under ``scope`` (the chain configuration).

    Queries that differ only in case or spacing share a key; any other parameter, and the
    set of providers the chain could use, makes a different key.
    """
    data = params.model_dump(mode="json", exclude_defaults=True)
    data["query"] = _normalise_query(params.query)
    payload = json.dumps({"v": _KEY_VERSION, "scope": scope, "params": data}, sort_keys=True)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def dump_response(response: SearchResponse) -> bytes:
    """Serialise a response for the cache, without per-call provenance."""
    return response.model_dump_json(exclude={"attempts", "cached", "stale"}).encode("utf-8")


def load_response(data: bytes) -> SearchResponse | None:
    """The cached response, or ``None`` when the entry is unreadable (then it is ignored)."""
    try:
        return SearchResponse.model_validate_json(data)
    except ValidationError:
        return None
