"""When a Gemini model refuses the time filter: the search still answers, dates in the question.

With a key, a date or a recency goes to the Developer API as
``google_search.timeRangeFilter`` (:mod:`._gemini_filters`). Google documents that field
for the Gemini API, but not every model or route may take it: a third-party gateway's
page says Gemini 3 models take at most 24 hours between ``startTime`` and ``endTime``, and
a gateway set as the base URL may not know the field at all. Such a refusal is Google's
``400 INVALID_ARGUMENT`` naming the field, in its message (``Unknown name
"timeRangeFilter"``, ``...google_search.time_range_filter...``) or in the field violations
of its ``google.rpc.BadRequest`` detail, where Google's error model lists which field was
wrong (:func:`._gemini_errors.field_violations`; Gemini's 400s for a bad tool field carry
them, e.g. AAClause/nvda-OpenAI#123, intrafind/ihub-apps#885). Before the field was
sent, the dates went in the question and Gemini always answered, so a refusal must never
cost the answer:

* the stream is sent once more, within the same attempt's time, without the field and with
  the dates written into the question, exactly as the OAuth mode carries them (the filter
  plan with Cloud Code's support, :data:`._gemini_filters.CLOUD_CODE_FILTERS`; a recency
  is then not applied, as with a sign-in);
* the model id is remembered for the process, so later searches with it are planned and
  sent in that form straight away (:func:`refused_before`, read by
  :meth:`GeminiProvider.filter_support` and when a search starts);
* the answer's ``notes`` say so, a recency it could not apply is recorded as ignored, and
  the refusal is logged at DEBUG.

Any other 400 stands as before (the error names it), and the chain moves on. Google's
bodies for a tool configuration it will not take were read for this (stop 46), and none
of those that leave the field unnamed would be helped by the resend:

* ``Search Grounding is not supported.`` (googleapis/go-genai#429) refuses the search tool
  itself; the resend still carries ``google_search`` and would be refused the same way;
* ``Please use google_search field instead of google_search_retrieval field.``
  (google-gemini/deprecated-generative-ai-js#330) is about a tool never sent here;
* ``Request contains an invalid argument.`` with no field violation says nothing of its
  cause (stop 47 found it for unrelated requests on Cloud Code, google-gemini/gemini-cli
  #4701, and on the Developer API through a proxy, Chevey339/kelivo#313); Google's
  troubleshooting page (ai.google.dev/gemini-api/docs/troubleshooting) gives a typo, a
  missing field or a newer API version's feature on an older endpoint as the causes of a
  400 ``INVALID_ARGUMENT``. Taking it for a time-filter refusal would drop the recency for
  the model for the whole process on no evidence.

Limits: Google documents ``timeRangeFilter`` only as an optional ``Interval`` whose start
and end go together (the Gen AI SDKs' ``GoogleSearch``; the ``generativelanguage`` v1beta
``GoogleSearch`` reference), with no span limit and no model list. The 24-hour span for
Gemini 3 models comes from one gateway's page (doc.surgeai.one/8294134m0), not Google; the
SDK's triage on googleapis/python-genai#2399 (2026-05) reports ``gemini-3-flash-preview``
taking the field without an error. So no span is cut or moved into the question here;
should a model refuse a span with a 400 that names the field, or speaks of the time range,
its start or end, a span or a number of hours (the field unnamed), the resend above
applies and the note names the field.
Nothing here sends anything.
"""

import logging
import re
import threading
from typing import Any, Final

from ..filters import plan_filters
from ..filters.support import FilterSupport
from ..models import AppliedFilter
from ..provider_types import Flow, ProviderInfo
from ..transport import HttpRequest, body_head_text
from ._gemini_errors import error_text, field_violations
from ._gemini_filters import MODE_FILTERS

__all__ = [
    "TIME_FILTER_STATE",
    "drop_time_filter",
    "forget_refusals",
    "key_mode_filters",
    "names_time_filter",
    "refused_before",
    "refused_time_filter",
    "remember_refusal",
    "sent_time_filter",
    "time_filter_record",
]

logger = logging.getLogger("websearch_core.providers.gemini")

TIME_FILTER_STATE: Final = "time_filter_refused"
"""The flow state key set once this search sends the question form (the refusal's note)."""
_FIELD: Final = re.compile(r"time[ _]?range[ _]?filter", re.IGNORECASE)
"""The field as Google's messages name it: ``timeRangeFilter`` (JSON) or
``time_range_filter`` (the proto path in a field violation)."""

_SPAN_WORDS: Final = re.compile(
    r"time[ _-]?range|start[ _]?time|end[ _]?time|\b(?:span|interval)\b|\b\d+\s*hours?\b",
    re.IGNORECASE,
)
"""A refusal of the filter's span in words, the field unnamed: the time range, its start or
end time, the span or interval, a number of hours (a gateway's page words Gemini 3's limit
as "the span cannot exceed 24 hours"). Read only in a 400 to a request whose one time
field is ``timeRangeFilter``, so the words can be about nothing else sent."""

_refusing: set[str] = set()
"""Model ids whose Developer API refused ``timeRangeFilter`` in this process."""
_lock: Final = threading.Lock()
"""Clients on several threads share :data:`_refusing`."""


def names_time_filter(status: int, body: str) -> bool:
    """Whether an error is a 400 whose message or field violations name the time filter.

    Only Google's ``error.message`` (else the body) and the fields its ``BadRequest``
    detail lists are read: a 400 for anything else, a bad key or a model, stands as it
    did, and so does a bare "Request contains an invalid argument." with no field named.
    A refusal of the span in words (:data:`_SPAN_WORDS`: "the time range cannot exceed 24
    hours") names it too: its caller asks only about a request that sent the filter, the
    request's one field about time, and the answer's note then names the field.

    Example:
        >>> names_time_filter(400, '{"error": {"code": 400, "message": "Invalid value '
        ...     'at tools[0].google_search.time_range_filter", "status": "INVALID_ARGUMENT"}}')
        True
        >>> names_time_filter(400, '{"error": {"message": "API key not valid."}}')
        False
        >>> names_time_filter(400, '{"error": {"message": "The span cannot exceed 24 hours."}}')
        True
    """
    if status != 400:
        return False
    texts = (error_text(body), *field_violations(body))
    return any(_FIELD.search(text) or _SPAN_WORDS.search(text) for text in texts)


def remember_refusal(model: str) -> None:
    """Note that ``model`` refused the time filter: this process sends it no more."""
    with _lock:
        _refusing.add(model)


def refused_before(model: str) -> bool:
    """Whether ``model`` refused the time filter earlier in this process."""
    with _lock:
        return model in _refusing


def forget_refusals() -> None:
    """Forget every refusal (a test's clean start; a new process starts with none)."""
    with _lock:
        _refusing.clear()


def key_mode_filters(model: str) -> FilterSupport:
    """The Developer API's support for ``model``: Cloud Code's once it refused the field."""
    return MODE_FILTERS["oauth" if refused_before(model) else "api_key"]


def sent_time_filter(request: HttpRequest) -> bool:
    """Whether ``request``'s body carries ``timeRangeFilter`` in a ``google_search`` tool."""
    body = request.json if isinstance(request.json, dict) else {}
    tools: Any = body.get("tools")
    return any(
        isinstance(tool, dict)
        and isinstance(tool.get("google_search"), dict)
        and "timeRangeFilter" in tool["google_search"]
        for tool in (tools if isinstance(tools, list) else [])
    )


def refused_time_filter(flow: Flow) -> bool:
    """A key-mode stream that sent the time filter, answered by a 400 naming it (once)."""
    last = flow.last
    response = last.response
    return (
        flow.token is None
        and TIME_FILTER_STATE not in flow.state
        and sent_time_filter(last.request)
        and names_time_filter(response.status, body_head_text(response.as_http().body))
    )


def drop_time_filter(flow: Flow, info: ProviderInfo, *, refused: bool) -> None:
    """Send this search's dates in the question from now on, as the OAuth mode does.

    The planned search is planned once more with Cloud Code's support, which writes the
    dates into the question (``after:`` / ``before:``) and lets a recency go; planning an
    already planned search again gives the same text, so a search planned either way ends
    up in the same form. With ``refused``, the model is remembered and the answer's note
    prepared.

    Args:
        flow: The search in API-key mode (``flow.state["model"]`` set).
        info: The provider's facts, which the plan reads.
        refused: This search saw the refusal (else an earlier one did).
    """
    model: str = flow.state["model"]
    oauth_form = MODE_FILTERS["oauth"]
    flow.params = plan_filters(flow.params, info, oauth_form).params
    flow.state["time_filter"] = False
    if not refused:
        return
    remember_refusal(model)
    note = (
        f"Gemini model {model} refused google_search.timeRangeFilter; the dates were sent "
        "in the question instead and a recency was not applied (for this process)."
    )
    flow.state[TIME_FILTER_STATE] = note
    logger.debug("%s", note)


def time_filter_record(flow: Flow) -> tuple[AppliedFilter, ...]:
    """A recency the search asked but could not send, recorded as ignored; else nothing."""
    recency = flow.params.recency
    if flow.state.get("time_filter", True) or recency is None:
        return ()
    return (AppliedFilter(name="recency", value=recency, applied=("ignored",)),)
