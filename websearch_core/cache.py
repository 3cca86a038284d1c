"""The result cache: keys from the normalised query and parameters, and (de)serialisation.

Only successful responses are stored, never a partial aggregate. Entries stay fresh for
the TTL (15 minutes by default) and are kept stale for a while longer, so that when every
provider fails a stale answer can be served, marked ``stale``, instead of an error.
"""

import functools
import hashlib
import json
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Final

from pydantic import ValidationError

from .content.models import STORED_ROW
from .endpoint_variables import scope_variables
from .models import SearchParams, SearchResponse
from .note_bound import MAX_NOTES, count_said_by_a_cut

if TYPE_CHECKING:
    from .providers.base import SearchProvider
    from .settings import Settings

__all__ = ["cache_key", "dump_response", "load_response", "settings_scope", "variables_scope"]

_KEY_VERSION = "v2"
"""Version 2 (stop 38): ``repr`` of the set fields hashed with BLAKE2s, in place of v1's
JSON of ``model_dump`` hashed with SHA-256; a v1 entry is not found again (a miss, once)."""


_OPERATOR_WORDS = frozenset({"OR", "AND", "NOT", "NEAR"})
"""Words engines read as operators only in capitals: ``a OR b`` is not ``a or b``."""


def _normalise_query(query: str) -> str:
    return " ".join(word if word in _OPERATOR_WORDS else word.casefold() for word in query.split())


def cache_key(params: SearchParams, scope: str) -> str:
    """A stable key for ``params`` under ``scope`` (the chain configuration).

    Queries that differ only in case or spacing share a key, except the capital operator
    words (``python OR java`` searches for either word, ``python or java`` for both and
    a stop word); any other parameter, and the set of providers the chain could use,
    makes a different key.

    The payload is the ``repr`` of the query and of each field not at its default, one
    a line after the version and the scope: ``repr`` quotes and escapes every string (no
    line or value can pass for another), and the values (strings, numbers, dates, tuples
    of strings, ``None``) print the same in every process. Built so, and hashed with
    BLAKE2s (CPython's own, not OpenSSL's), the key of a search that misses cost ~10 us
    in place instead of ~33 us: ``model_dump``, the JSON encoder and OpenSSL's SHA-256
    each ran cold after the previous search, about 1 us each when warm (stop 38).
    """
    values = params.__dict__
    lines = [_KEY_VERSION, repr(scope), repr(_normalise_query(params.query))]
    for name, default in _optional_fields(type(params)):
        value = values[name]
        if value != default:
            lines.append(f"{name}={value!r}")
    payload = "\n".join(lines).encode("utf-8", "surrogatepass")
    return hashlib.blake2s(payload).hexdigest()


@functools.cache
def _optional_fields(model: type[SearchParams]) -> tuple[tuple[str, Any], ...]:
    """``model``'s fields but the query, each with its default, in declaration order.

    Per class, so that a subclass's own fields make a different key too.
    """
    return tuple(
        (name, field.get_default(call_default_factory=True))
        for name, field in model.model_fields.items()
        if name != "query"
    )


def settings_scope(settings: "Settings") -> str:
    """A digest of the settings that change what the providers answer, for the cache scope.

    Two configurations sharing one state store must not serve each other's answers:
    SearXNG's safesearch, language, categories, engines and endpoint, the Gemini model,
    the base URLs, and the exclusions (which pick the Public Web aggregate's engines, where
    the chain's provider ids say nothing) all change the results. So do the gateways
    trusted with a sign-in (``sign_in_gateways``): the chain's ids name a provider whose
    sign-in is refused all the same (it is skipped when it is tried), so trusting its
    gateway changed who answers while the fallback's cached answer was still served.
    Credentials are left out: they change who pays, not what is found.
    """
    searxng = settings.searxng
    values = {
        "exclude": sorted(settings.exclude),
        "gemini_model": settings.gemini_model,
        "base_urls": dict(settings.base_urls),
        "sign_in_gateways": sorted(settings.sign_in_gateways),
        "searxng": None
        if searxng is None
        else searxng.model_dump(mode="json", exclude={"token", "basic_username", "basic_password"}),
    }
    payload = json.dumps(values, sort_keys=True).encode("utf-8", "surrogatepass")
    return hashlib.sha256(payload).hexdigest()[:16]


def variables_scope(
    providers: Iterable["SearchProvider"], read: Callable[[str], str | None]
) -> str:
    """A digest of the variables set that change what ``providers`` answer, for the scope.

    Endpoint variables (``ANTHROPIC_BASE_URL``), models (``GEMINI_SEARCH_MODEL``), a time
    zone (Perplexity's ``TZ``): each provider declares them
    (:func:`~websearch_core.endpoint_variables.scope_variables`). They are read from the
    environment, not the settings, on every search (``read`` is :meth:`Credentials.env
    <websearch_core.credentials.Credentials.env>`): changing one changes what the provider
    answers, or whether its sign-in may be sent, so whether it runs at all, while the
    chain's provider ids stay the same. Empty when none is set (the usual case); otherwise a
    digest, as one may hold a secret (a password in a gateway's URL) and the scope, like
    the key, must never carry it in clear.
    """
    pairs = [
        (name, value)
        for provider in providers
        for name in scope_variables(provider)
        if (value := read(name))
    ]
    if not pairs:
        return ""
    payload = json.dumps(pairs).encode("utf-8", "surrogatepass")
    return hashlib.sha256(payload).hexdigest()[:16]


_STORED: Final = {STORED_ROW: True}
"""The context a cache row is written and read in (a page's one text stored once)."""


def dump_response(response: SearchResponse) -> bytes:
    """Serialise a response for the cache, without per-call provenance.

    The model's serializer gives UTF-8 bytes; ``model_dump_json`` decodes them to a ``str``,
    which the store needs encoded again (the two copies of a 6.5 KB answer with non-ASCII
    text cost ~4.5 us of a search that misses the cache). The bytes are the same. A page
    whose Markdown is its text holds it once
    (:data:`~websearch_core.content.models.STORED_ROW`): a provider's 10 MiB page made a
    20 MiB row.
    """
    provenance = {"attempts", "cached", "stale"}
    row = type(response).__pydantic_serializer__.to_json(
        response, exclude=provenance, context=_STORED
    )
    if response.notes_left_out or len(response.notes) == MAX_NOTES:
        # The notes' count, left out of every dump but this row's (a cached answer given a
        # stale answer's age folds it): put first in the object, which always holds
        # ``provider`` so it is never empty. Said even when it is 0 at 20 notes: a row
        # that says it is this release's, so its 20th note is never read as an old count.
        row = b'{"notes_left_out":%d,%s' % (response.notes_left_out, row[1:])
    if response.related_questions_left_out or response.search_queries_left_out:
        # The lists' counts, likewise: a cached answer of 25 queries says 25, not the 20 kept.
        row = b'{"related_questions_left_out":%d,"search_queries_left_out":%d,%s' % (
            response.related_questions_left_out,
            response.search_queries_left_out,
            row[1:],
        )
    return row


def load_response(data: bytes) -> SearchResponse | None:
    """The cached response, or ``None`` when the entry is unreadable (then it is ignored).

    A row written before the notes' count was stored (no ``notes_left_out``, 20 notes, the
    last the count's text) has it read from that note (:func:`~websearch_core.note_bound.
    count_said_by_a_cut`): read as an ordinary note, the next cut (a stale answer's age)
    dropped it and said ``2 more notes were left out.`` for 183. Such rows expire with the
    cache. A row of this release with 20 notes always says its count, 0 when nothing was
    cut, so a provider's 20th note worded as the count stays a note: read as an old row's
    count, it was dropped by the next cut and its words added to the count.
    """
    try:
        response = SearchResponse.model_validate_json(data, context=_STORED)
    except ValidationError:
        return None
    if len(response.notes) == MAX_NOTES and "notes_left_out" not in response.model_fields_set:
        said = count_said_by_a_cut(response.notes)
        if said:
            return response.model_copy(update={"notes_left_out": said})
    return response
