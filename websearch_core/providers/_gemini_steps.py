"""Gemini's protocol state between the request loop's calls: which step, which endpoint.

Kept apart from :mod:`websearch_core.providers.gemini` (the facts, the error and retry
data, the hooks) so the hooks read as the protocol and this module as its bookkeeping.
Everything here reads or writes one search's :class:`~websearch_core.provider_types.Flow`
state, builds requests from it or reads the answer off it; nothing is sent.

``flow.state`` holds ``model`` and ``chosen`` (whether the user set it); ``key`` (API-key
mode) or ``sign_in`` (which :class:`~._gemini_signins.SignIn` the token belongs to),
``endpoint`` (the index of its Cloud Code endpoint in use) and ``project`` (OAuth);
``failures`` (connection resends at the current endpoint); ``step`` (``load`` for
``loadCodeAssist``, ``models`` for the account's model list, else ``stream``) and ``seen``
(how many exchanges there were when that step was built, so a step rebuilt after a token
refresh is told apart from the step after a new response); ``missing`` (the index of the
exchange whose refusal sent us to the account's model list, once it has: one look per
search) and ``replaced`` (the note saying which model replaced the default, and why);
``note`` (the name of the state store's note on the default's replacement, ``None`` when
the model may not be replaced), ``noted`` (the pick that note named, read before the first
request) and ``from_note`` (the default, while the noted pick stands in for it);
``time_filter`` (API-key mode: whether the stream still sends ``timeRangeFilter``) and
``time_filter_refused`` (the note of a refusal of it, :mod:`._gemini_time_refusal`).

A stream refused for its model (a 404, or a 400 whose message names the model, see
:mod:`._gemini_catalog`) asks the sign-in's model list once per client, account (the
sign-in's fingerprint) and project: Antigravity's ``fetchAvailableModels``, the Gemini
CLI's ``retrieveUserQuota``.
The default model is then replaced by the list's pick and the stream sent once more at the
same endpoint (later searches of the client start with that pick), logged at INFO and
said in the response's ``notes``. A model the
user set is never replaced but named, with the models offered, in the error. A list that
offers the model anyway, or that cannot be read, leaves the refusal standing.

The pick is also kept as a note in the state store, named by the sign-in's fingerprint,
the Cloud project set for it and the default (:func:`replacement_note_key`). A client that
has not seen the list itself (a new process) reads it before its first request
(:func:`note_to_read`, :func:`take_note`) and asks the pick first; a refusal of that pick
sends the default again (:func:`_back_to_default`), and the search goes on as without a
note.
"""

import logging
from collections.abc import Callable
from typing import Final

from ..credentials import OAuthToken
from ..errors import (
    ProviderConnectionError,
    ProviderNotConfiguredError,
    ProviderTimeoutError,
    SearchProviderError,
)
from ..json_decode import json_loads
from ..models import SearchResponse
from ..provider_notes import KeptNote
from ..provider_types import DelayedRequest, Flow, ProviderContext, ProviderInfo
from ..transport import HttpRequest, SseResponse, body_head_text
from ._error_map import error_for
from ._gemini_catalog import (
    REPLACEMENT_NOTE_LIFETIME,
    Catalog,
    CatalogKey,
    CatalogSource,
    forget,
    noted_pick,
    recall,
    refuses_model,
    remember,
    replacement_note,
    replacement_note_name,
    table_note,
    unavailable_model_error,
)
from ._gemini_errors import CLOUD_CODE_ERRORS
from ._gemini_filters import MODE_FILTERS
from ._gemini_parse import parse_chunks, project_id, response_chunks
from ._gemini_request import (
    CodeAssistCall,
    code_assist_body,
    code_assist_request,
    developer_request,
    load_request,
    models_request,
)
from ._gemini_signins import SignIn, new_request_id
from ._gemini_time_refusal import (
    TIME_FILTER_STATE,
    drop_time_filter,
    refused_time_filter,
    time_filter_record,
)

__all__ = [
    "CONNECTION_RESENDS",
    "DEFAULT_MODEL",
    "MODEL_ENV",
    "NO_PROJECT",
    "PROJECT_ENV",
    "after_connection_failure",
    "begin",
    "first_step",
    "grounded_answer",
    "has_next_endpoint",
    "model_name",
    "moves_on",
    "next_endpoint",
    "next_step",
    "note_to_read",
    "replacement_note_key",
    "resend",
    "step_request",
    "take_note",
]

logger = logging.getLogger("websearch_core.providers.gemini")

DEFAULT_MODEL: Final = "gemini-3.5-flash-lite"
"""Google's named replacement for ``gemini-2.5-flash`` (the spec's default), which the Gemini
API shut down on 2026-12-01 (ai.google.dev/gemini-api/docs/deprecations); it has Google
Search grounding. ``GEMINI_SEARCH_MODEL`` or the ``gemini_model`` setting pick another.
No public source shows the Antigravity hosts serving this id (their ids carry tier
suffixes and vary by account), so with OAuth a 404 for it gives way to the account's own
web-search model (:mod:`._gemini_catalog`)."""
MODEL_ENV: Final = "GEMINI_SEARCH_MODEL"
PROJECT_ENV: Final = ("GOOGLE_CLOUD_PROJECT", "GOOGLE_CLOUD_PROJECT_ID")
CONNECTION_RESENDS: Final = 3
"""Resends of a step after a connection failure (four attempts in all, as for statuses)."""
NO_PROJECT: Final = (
    "Gemini OAuth: no Cloud Code Assist project for this account. Set GOOGLE_CLOUD_PROJECT, "
    "or sign in once with the Gemini CLI so the account is onboarded."
)
MOVE_ON: Final = frozenset({429})
"""With any 5xx: statuses that move OAuth from an endpoint that is not the last to the next
(where they are not retried: one attempt each but the last's, as in the reference)."""


def chosen_model(context: ProviderContext) -> str | None:
    """``GEMINI_SEARCH_MODEL``, else the ``gemini_model`` setting: the user's model, if any."""
    return context.credentials.env(MODEL_ENV) or context.settings.gemini_model or None


def model_name(context: ProviderContext) -> str:
    """``GEMINI_SEARCH_MODEL``, else the ``gemini_model`` setting, else :data:`DEFAULT_MODEL`."""
    return chosen_model(context) or DEFAULT_MODEL


def replacement_note_key(context: ProviderContext, sign_in: SignIn) -> str | None:
    """The name of the note saying which model replaced the default for this sign-in.

    What the providers table reads from the state store (:meth:`GeminiProvider.
    status_note_name`); a search that replaces the default writes it (:func:`_replace`),
    so a new process (every ``websearch providers`` command) shows it too. ``None`` for a
    model the user chose (never replaced) and a sign-in without a model list or token.
    """
    token = context.credentials.oauth_token(sign_in.entry)
    return None if token is None else _note_name(context, sign_in, token)


def _note_name(context: ProviderContext, sign_in: SignIn, token: OAuthToken) -> str | None:
    """The note's name for this sign-in's account, its set project and its default model.

    The project is the one set (``GOOGLE_CLOUD_PROJECT``), not the one ``loadCodeAssist``
    may report later: the table names the note without asking Cloud Code, and the search
    reads it before its first request.
    """
    if chosen_model(context) is not None or sign_in.catalog is None:
        return None
    project = _set_project(context)
    default = sign_in.default_model or DEFAULT_MODEL
    return replacement_note_name(sign_in.entry, token.fingerprint(), project, default)


def _set_project(context: ProviderContext) -> str | None:
    """``GOOGLE_CLOUD_PROJECT``, else ``GOOGLE_CLOUD_PROJECT_ID``; ``None`` when neither is set."""
    return next(filter(None, map(context.credentials.env, PROJECT_ENV)), None)


def begin(
    flow: Flow,
    *,
    token: OAuthToken | None = None,
    sign_in: SignIn | None = None,
    key: str | None = None,
) -> None:
    """Start the flow's state: OAuth at the sign-in's first endpoint, or the API key.

    With OAuth the project is ``GOOGLE_CLOUD_PROJECT`` (or ``GOOGLE_CLOUD_PROJECT_ID``);
    without one, ``loadCodeAssist`` is asked first. A model the user set wins over the
    sign-in's own default, which wins over :data:`DEFAULT_MODEL`.
    """
    context, state = flow.context, flow.state
    chosen = chosen_model(context)
    default = sign_in.default_model if token is not None and sign_in is not None else None
    state["model"] = chosen or default or DEFAULT_MODEL
    state["chosen"] = chosen is not None
    state["failures"] = 0
    if token is not None:
        if sign_in is None:
            raise ValueError("an OAuth token needs the sign-in it belongs to")
        flow.token = token
        flow.token_entry = sign_in.entry
        state["sign_in"] = sign_in
        state["project"] = _set_project(context)
        state["endpoint"] = 0
        state["note"] = _note_name(context, sign_in, token)
    else:
        state["key"] = key
        state["time_filter"] = True


def resend(flow: Flow, backoff: Callable[[int], float]) -> DelayedRequest | None:
    """The step in flight once more after a connection failure, after its back-off.

    ``backoff(n)`` is the wait before the ``n``-th resend (from 0); ``None`` once
    :data:`CONNECTION_RESENDS` are spent.
    """
    failures: int = flow.state["failures"]
    if failures >= CONNECTION_RESENDS:
        return None
    flow.state["failures"] = failures + 1
    return DelayedRequest(step_request(flow, flow.state["step"]), backoff(failures))


def moves_on(status: int) -> bool:
    """Whether ``status`` moves OAuth on to the next Cloud Code endpoint (429 or any 5xx)."""
    return status in MOVE_ON or status >= 500


def has_next_endpoint(flow: Flow) -> bool:
    """Whether OAuth is at a Cloud Code endpoint with another after it."""
    index = flow.state.get("endpoint")
    return index is not None and index + 1 < len(_sign_in(flow).endpoints)


def _sign_in(flow: Flow) -> SignIn:
    sign_in: SignIn = flow.state["sign_in"]
    return sign_in


def next_endpoint(flow: Flow) -> bool:
    """Move OAuth on to the next Cloud Code endpoint; ``False`` when none is left.

    The new endpoint starts with no connection resends spent.
    """
    if not has_next_endpoint(flow):
        return False
    flow.state["endpoint"] += 1
    flow.state["failures"] = 0
    return True


def step_request(flow: Flow, step: str) -> HttpRequest:
    """The request for ``step`` in the flow's mode, noted as the step in flight.

    API-key mode has one step (the Developer API stream); OAuth has ``load`` and
    ``stream`` at the current Cloud Code endpoint, each ``stream`` with a fresh request id.
    """
    state = flow.state
    state["step"], state["seen"] = step, len(flow.exchanges)
    prompt = flow.context.system_prompt
    if flow.token is None:
        filters = MODE_FILTERS["api_key" if state["time_filter"] else "oauth"]
        return developer_request(
            flow.params, prompt, model=state["model"], key=state["key"], filters=filters
        )
    if step == "stream":
        _use_known_replacement(flow)
    sign_in = _sign_in(flow)
    call = CodeAssistCall(
        sign_in=sign_in,
        endpoint=sign_in.endpoints[state["endpoint"]],
        token=flow.token.access_token,
        model=state["model"],
    )
    if step == "load":
        return load_request(call)
    if step == "models":
        return models_request(call, state["project"])
    return code_assist_request(
        call,
        code_assist_body(
            flow.params,
            prompt,
            model=state["model"],
            project=state["project"],
            request_id=new_request_id(sign_in),
            sign_in=sign_in,
        ),
    )


def first_step(flow: Flow) -> HttpRequest:
    """The Developer API stream, or the first Cloud Code step at the current endpoint.

    OAuth asks ``loadCodeAssist`` first while no project is known.
    """
    if flow.token is None:
        return step_request(flow, "stream")
    return step_request(flow, "stream" if flow.state["project"] else "load")


def next_step(flow: Flow, info: ProviderInfo) -> HttpRequest | None:
    """The step after the last exchange: the stream after ``loadCodeAssist``, the next endpoint.

    With nothing new (the loop refreshed the token) the same step is built again. An error
    status that leaves no endpoint to move to ends the exchange (``None``); the loop reads it.
    An OAuth stream refused for its model asks the account's list first
    (:func:`_after_unknown_model`).

    Raises:
        ProviderNotConfiguredError: ``loadCodeAssist`` answered 2xx without a project (no
            status for the loop to read), or the model is not served to the account.
        SearchProviderError: The stream's refusal, when the list does not explain it.
    """
    state = flow.state
    if len(flow.exchanges) == state["seen"]:
        return step_request(flow, state["step"])
    response = flow.last.response
    if state["step"] == "models":
        return _after_catalog(flow, info, _read_catalog(flow))
    if 200 <= response.status < 300:
        if state["step"] != "load":
            return None
        found = project_id(response.as_http().json(info.id, info.label))
        if found is None:
            raise ProviderNotConfiguredError(info.id, NO_PROJECT)
        state["project"] = found
        return step_request(flow, "stream")
    if refused_time_filter(flow):  # the same search again, the dates in the question
        drop_time_filter(flow, info, refused=True)
        return step_request(flow, "stream")
    if _noted_pick_refused(flow):
        return _back_to_default(flow)
    if _unknown_model(flow):
        return _after_unknown_model(flow, info)
    if moves_on(response.status) and next_endpoint(flow):
        return first_step(flow)
    return None


def _catalog_source(flow: Flow) -> CatalogSource | None:
    """Where the sign-in's model list is asked for; ``None`` in API-key mode."""
    return None if flow.token is None else _sign_in(flow).catalog


def _catalog_key(flow: Flow) -> CatalogKey:
    """Whose list: the sign-in's entry, the account signed in there, and the project.

    The account is the token's fingerprint (kept across refreshes): another account
    imported into the same entry while the client runs may be served other models.
    """
    token = flow.token
    if token is None:
        raise ValueError("only an OAuth sign-in has a model list")
    return (_sign_in(flow).entry, token.fingerprint(), flow.state["project"])


def _unknown_model(flow: Flow) -> bool:
    """An OAuth stream refused for its model (a 404 or a model 400), not yet looked into."""
    state, response = flow.state, flow.last.response
    return (
        _catalog_source(flow) is not None
        and state["step"] == "stream"
        and "missing" not in state
        and refuses_model(response.status, body_head_text(response.as_http().body))
    )


def _after_unknown_model(flow: Flow, info: ProviderInfo) -> HttpRequest | None:
    """The list's request, or with the list already known this client, the decision."""
    state = flow.state
    state["missing"] = len(flow.exchanges) - 1
    known = recall(flow.context.credentials, _catalog_key(flow))
    return step_request(flow, "models") if known is None else _after_catalog(flow, info, known)


def _read_catalog(flow: Flow) -> Catalog | None:
    """The list in the sign-in's model-list reply, kept for the client; else ``None``."""
    response = flow.last.response.as_http()
    source = _catalog_source(flow)
    if source is None or not 200 <= response.status < 300:
        return None
    try:
        catalog = source.read(json_loads(response.text()))
    except ValueError:
        return None
    if catalog is not None:
        remember(flow.context.credentials, _catalog_key(flow), catalog)
    return catalog


def _after_catalog(flow: Flow, info: ProviderInfo, catalog: Catalog | None) -> HttpRequest:
    """The stream again with the list's model, or the error that ends the search.

    Raises:
        ProviderNotConfiguredError: The model is not offered and may not be replaced (the
            user chose it) or has no replacement.
        SearchProviderError: The stream's own refusal, when the list could not be read or
            offers the model (the refusal meant something else).
    """
    state = flow.state
    model = state["model"]
    prefix = CLOUD_CODE_ERRORS.prefix or f"{info.label} API error"
    missing = flow.exchanges[state["missing"]].response
    if catalog is None or catalog.serves(model):
        raise error_for(info, CLOUD_CODE_ERRORS, missing) or SearchProviderError(
            info.id, f"{prefix} ({missing.status})", missing.status
        )
    pick = None if state["chosen"] else catalog.pick
    if pick is None:
        source = _catalog_source(flow)
        raise unavailable_model_error(
            info.id,
            prefix,
            model,
            catalog,
            chosen=state["chosen"],
            status=missing.status,
            pick_kind=source.pick_kind if source is not None else "model",
        )
    _replace(flow, pick, missing.status)
    return step_request(flow, "stream")


def _replace(flow: Flow, pick: str, status: int | None, *, keep: bool = True) -> None:
    """Search with ``pick`` instead of the default model, saying so in the log and the notes.

    The response's note says it to the model; with ``keep``, the note kept in the state
    store (through the flow, :mod:`websearch_core.provider_notes`) says it to the providers
    table and to new clients. A pick read from that note is not kept again: only a refusal
    this client saw renews it, so a note outlives such a refusal by its lifetime at most.
    """
    state = flow.state
    source = _catalog_source(flow)
    if source is None:
        raise ValueError("only an OAuth sign-in with a model list replaces its model")
    default: str = state["model"]
    state["replaced"] = replacement_note(default, pick, source, status)
    logger.info("%s", state["replaced"])
    state["model"] = pick
    name: str | None = state.get("note")
    if keep and name is not None:  # under the sign-in's fingerprint and set project
        flow.notes.append(KeptNote(name, table_note(default, pick), REPLACEMENT_NOTE_LIFETIME))


def note_to_read(flow: Flow) -> str | None:
    """The note to read before the first request, whose pick the search then starts with.

    ``None`` when there is none to read (API key, a model the user chose, a sign-in
    without a model list) or this client already knows the list of the set project.
    """
    state = flow.state
    name: str | None = state.get("note")
    if name is None or state["project"] is None:
        return name
    return None if recall(flow.context.credentials, _catalog_key(flow)) is not None else name


def take_note(flow: Flow, text: str | None) -> None:
    """Start with the pick the note ``text`` names for the default model, if it names one."""
    pick = None if text is None else noted_pick(text, flow.state["model"])
    if pick is not None:
        flow.state["noted"] = pick


def _use_known_replacement(flow: Flow) -> None:
    """Start with the replacement this client, or the store's note, found for the default.

    Only for the default (a user's model is never replaced). The list this client kept
    for the sign-in and project wins (while it is recent, see
    :data:`~._gemini_catalog.LIST_LIFETIME`): when it does not offer the default, the
    search does not look again. Else the note's pick is tried. Either pick's refusal
    brings the default back (:func:`_noted_pick_refused`), and the list's is forgotten:
    a long-running client whose pick Google retired failed every search with it, since
    its list said not to look again.
    """
    state = flow.state
    if state["chosen"] or "missing" in state or _catalog_source(flow) is None:
        return
    known = recall(flow.context.credentials, _catalog_key(flow))
    if known is not None:
        if not known.serves(state["model"]) and known.pick is not None:
            state["missing"] = None
            state["from_note"] = state["model"]
            state["from_list"] = True
            _replace(flow, known.pick, None)
        return
    noted: str | None = state.pop("noted", None)
    if noted is not None and noted != state["model"]:
        state["from_note"] = state["model"]
        _replace(flow, noted, None, keep=False)


def _noted_pick_refused(flow: Flow) -> bool:
    """A stream with a kept pick refused for its model: the note (or list) no longer holds."""
    state, response = flow.state, flow.last.response
    return (
        "from_note" in state
        and state["step"] == "stream"
        and refuses_model(response.status, body_head_text(response.as_http().body))
    )


def _back_to_default(flow: Flow) -> HttpRequest:
    """The stream with the default model again, as if no note or list had been read.

    Its refusal then asks the account's list, whose pick is kept as the new note. A pick
    from the list this client kept forgets that list, so that it is read again.
    """
    state = flow.state
    logger.info(
        "gemini: %r, the model kept for this account, was refused; trying %r again",
        state["model"],
        state["from_note"],
    )
    if state.pop("from_list", False):
        forget(flow.context.credentials, _catalog_key(flow))
        del state["missing"]
    state["model"] = state.pop("from_note")
    del state["replaced"]
    return step_request(flow, "stream")


def after_connection_failure(
    flow: Flow, error: SearchProviderError, backoff: Callable[[int], float]
) -> HttpRequest | DelayedRequest | None:
    """After a connection failure (not a timeout): the next endpoint, or a delayed resend.

    The last endpoint resends up to :data:`CONNECTION_RESENDS` times, waiting ``backoff(n)``
    as the retry policy does for a status; any other failure stands (``None``).
    """
    if isinstance(error, ProviderTimeoutError) or not isinstance(error, ProviderConnectionError):
        return None
    if next_endpoint(flow):
        return first_step(flow)
    return resend(flow, backoff)


def grounded_answer(flow: Flow) -> SearchResponse:
    """The grounded answer of the last stream (events, or a plain JSON body).

    When the default model was replaced, the response's ``notes`` say by which and why;
    when the model refused the time filter, they say so, and a recency it could not apply
    is recorded as ignored (:mod:`._gemini_time_refusal`).
    """
    response = flow.last.response
    events = response.events if isinstance(response, SseResponse) else ()
    answer = parse_chunks(
        response_chunks(events, response.body),
        requested_model=flow.state["model"],
        auth_mode="api_key" if flow.token is None else "oauth",
        limit=flow.params.result_count,
    )
    said = (flow.state.get("replaced"), flow.state.get(TIME_FILTER_STATE))
    notes = tuple(note for note in said if note is not None)
    update: dict[str, object] = {"notes": notes} if notes else {}
    record = time_filter_record(flow)
    if record:
        update["filters"] = record
    return answer.model_copy(update=update) if update else answer
