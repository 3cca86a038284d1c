"""Serper: Google search results (organic, answer box, knowledge graph) as JSON.

* **Endpoint:** ``POST https://google.serper.dev/search`` with a JSON body ``q``, ``num``
  and, when asked, ``tbs`` (``recency`` as ``qdr:d|w|m|y``), ``gl`` (``country``, lower
  case) and ``hl`` (``language``, lower case, as Google's ``hl`` codes are written:
  ``pt-br``).
* **Auth:** header ``X-API-KEY: <key>`` (``SERPER_API_KEY``).
* **Limits:** ``num`` is ``num_search_results`` or ``limit``, default 10, clamped to 1..100.
* **Answer:** the answer box first: its ``title`` on one line, then its ``answer`` (else
  ``snippet``, else the ``snippetHighlighted`` lines). Without one, the knowledge graph's
  ``description``, followed by one ``Name: value`` line per ``attributes`` entry.
* **Sources:** ``organic[]`` in Google's order (``title``, ``link``, ``snippet``, ``date``;
  ``position`` and ``sitelinks`` are not used), then the answer box's ``link`` and the
  knowledge graph's ``descriptionLink`` (else ``website``) so the answer can be cited. Each
  URL appears once: a URL whose host (without ``www.``), path (without a trailing slash)
  and query match an earlier one is dropped, whatever its scheme or fragment. Mobile
  Wikipedia hosts (``en.m.wikipedia.org``) are rewritten to the desktop ones. ``date``
  becomes ``published_date`` (``Mar 9, 2023`` parses; ``3 days ago`` does not).
* **Related questions:** ``peopleAlsoAsk[].question``, then ``relatedSearches[].query``.
* **Request id:** the ``x-request-id`` response header.
* **Errors:** ``Serper API error (<status>): <body>`` after the shared classifier, so a 401
  or 403 reads ``Serper authorization failed (...)``.

The behaviour reference only sketches Serper (Appendix C: a later upstream variant). The
real capture (``fixtures/serper/search_amazon_knowledge_graph_2023.json``) has a
``knowledgeGraph`` with ``attributes``, ``descriptionSource`` and ``descriptionLink``,
``organic[]`` results with ``sitelinks`` and ``imageUrl`` but no ``date``, and
``relatedSearches``; it has no ``answerBox`` and no ``peopleAlsoAsk``. Where the appendix
lists the answer box and knowledge graph sources *before* the organic ones, they come after
them here: the organic ranking is kept intact and, as in the capture, the knowledge graph
link is usually an organic result already.

The body is decoded by ``_serper_body`` (only the fields read are built) and read by
``_serper_parse``.

Docs: https://serper.dev/playground
"""

from collections.abc import Callable
from typing import Any, Final

from ..call_secrets import response_mask
from ..filters import QUERY_OPERATORS, FilterSupport
from ..models import SearchParams, SearchResponse
from ..transport import HttpRequest, HttpResponse
from ._json_api import GOOGLE_TBS_RECENCY, honours
from ._serper_body import decode_projection
from ._serper_parse import dedupe_key, parse_answer, parse_related, parse_sources
from .base import Flow, ProtocolProvider, ProviderContext, ProviderInfo, clamp_count

__all__ = [
    "INFO",
    "SERPER_ENDPOINT",
    "SerperProvider",
    "dedupe_key",
    "parse_answer",
    "parse_related",
    "parse_sources",
    "request_body",
]

SERPER_ENDPOINT: Final = "https://google.serper.dev/search"
DEFAULT_RESULTS: Final = 10
MAX_RESULTS: Final = 100

_FILTERS: Final = FilterSupport(
    native=frozenset({"recency", "language", "country"}),
    query=QUERY_OPERATORS | {"date_after", "date_before"},
)
INFO = ProviderInfo(
    id="serper",
    label="Serper",
    kind="api",
    description="Requires SERPER_API_KEY",
    docs_url="https://serper.dev/playground",
    env_vars=("SERPER_API_KEY",),
    honours=honours(_FILTERS),
    default_results=DEFAULT_RESULTS,
    max_results=MAX_RESULTS,
    index="google",
    filters=_FILTERS,
)


def request_body(params: SearchParams) -> dict[str, Any]:
    """The JSON body Serper receives for ``params`` (pure).

    Example:
        >>> request_body(SearchParams(query="x", recency="day", country="DE", language="de"))
        {'q': 'x', 'num': 10, 'tbs': 'qdr:d', 'gl': 'de', 'hl': 'de'}
    """
    body: dict[str, Any] = {
        "q": params.query,
        "num": clamp_count(params.result_count, DEFAULT_RESULTS, MAX_RESULTS),
    }
    if params.recency is not None:
        body["tbs"] = GOOGLE_TBS_RECENCY[params.recency]
    if params.country is not None:
        body["gl"] = params.country.lower()
    if params.language is not None:
        body["hl"] = params.language.lower()
    return body


class SerperProvider(ProtocolProvider):
    """The Serper provider (see the module docstring for the wire details)."""

    info = INFO

    def build_request(self, params: SearchParams, context: ProviderContext) -> HttpRequest:
        """The POST request for ``params``."""
        key = self.require_api_key(context)
        return HttpRequest(
            method="POST",
            url=SERPER_ENDPOINT,
            headers={"Content-Type": "application/json", "X-API-KEY": key},
            json=request_body(params),
        )

    def parse(self, flow: Flow) -> SearchResponse:
        """:meth:`parse_response` of the last response, with the call's mask for its answer.

        The answer box's title is cut inside the answer (:func:`.parse_answer`), where the
        cleaning of the whole never sees the cut: masked first, a key across it is masked
        whole.
        """
        http = flow.last.response.as_http()
        return self.parse_response(http, flow.params, mask=response_mask(flow.context))

    def parse_response(
        self,
        response: HttpResponse,
        params: SearchParams,
        *,
        mask: Callable[[str], str] | None = None,
    ) -> SearchResponse:
        """Answer, sources and related questions of a 2xx body, with the request id.

        Only the fields the parser reads are decoded (:mod:`._serper_body`); a body that
        does not fit their shape is decoded whole, as before, so the result is the same
        either way. ``mask``: the call's, for the answer box's title when it is cut.
        """
        data = decode_projection(response.body)
        if data is None:
            data = response.json(self.info.id, self.info.label)
        sources = parse_sources(data)  # checks that data is a mapping
        return SearchResponse(
            provider=self.info.id,
            answer=parse_answer(data, mask),
            sources=sources,
            related_questions=parse_related(data),
            request_id=response.header("x-request-id"),
            auth_mode="api_key",
        )
