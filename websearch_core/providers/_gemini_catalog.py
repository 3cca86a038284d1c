"""Which model an OAuth account is served: the account's own model list, read after a refusal.

Why this exists: Cloud Code Assist serves each account its own set of model ids, so our
default model may simply not exist for it. Antigravity's hosts serve per-account,
tier-suffixed ids (``gemini-3.5-flash-low``), not the Developer API's names; a Gemini CLI
account without preview access is not served ``gemini-3-flash-preview``, the Gemini CLI's
own web-search model. The backend says so with Google's ``404 NOT_FOUND`` "Requested entity
was not found." (reported for an id it lacks, e.g. opencode-antigravity-auth issue #46 at
``cloudcode-pa``, antigravity-claude-proxy issue #204 at ``daily-cloudcode-pa``, and for a
preview model a Gemini CLI account may not use in claude-relay-service issue #675), or with
a ``400 INVALID_ARGUMENT`` whose message names the model as the problem
(:data:`MODEL_REFUSALS`). The account's model list then tells what it may use. Pure:
parsing, the choice, the error texts and a per-client memory of each sign-in's and
project's list; the request is built in :mod:`._gemini_request`.

Two lists, one per sign-in (:class:`CatalogSource`):

* **Antigravity:** ``v1internal:fetchAvailableModels`` (field names as CLIProxyAPI
  ``sdk/cliproxy/antigravity_models.go`` and other public clients read them): ``models``
  maps each model id to its details (``displayName``, ``maxTokens``, ``quotaInfo``,
  ``isInternal`` ...); ``webSearchModelIds`` lists the model(s) Antigravity runs its own
  web search on; ``defaultAgentModelId`` is its default chat model; ``deprecatedModelIds``
  maps a retired id to ``{"newModelId": ...}`` (a retired id can stay in ``models`` while
  it is refused). The pick (:data:`PICK_FIELDS`): the first id of ``webSearchModelIds``,
  else ``defaultAgentModelId``, that ``models`` offers (neither retired nor internal).
* **Gemini CLI:** ``v1internal:retrieveUserQuota``, the call the Gemini CLI itself makes
  for its quota display, answers ``{"buckets": [{"modelId", "tokenType",
  "remainingFraction", "resetTime"}]}``, a bucket per model the account may use; the
  Gemini CLI reads the same list to learn whether the account has preview access. The pick
  (:func:`parse_quota`): the first of the stable Flash ids the Gemini CLI falls back to
  without preview access that the list offers, else any other non-preview Flash id in it.

Only the *default* model is ever replaced; a model the user chose never is: its error
names it and lists the models offered.
"""

import hashlib
import re
import time
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from ..credentials import Credentials
from ..errors import ProviderNotConfiguredError
from ..provider_notes import REWRITE_AFTER
from ._gemini_errors import error_text

__all__ = [
    "ANTIGRAVITY_MODELS",
    "GEMINI_CLI_MODELS",
    "GEMINI_CLI_STABLE_FLASH",
    "LIST_LIFETIME",
    "MODEL_REFUSALS",
    "PICK_FIELDS",
    "REPLACEMENT_NOTE_LIFETIME",
    "UNKNOWN_MODEL_STATUSES",
    "Catalog",
    "CatalogKey",
    "CatalogSource",
    "forget",
    "noted_pick",
    "parse_catalog",
    "parse_quota",
    "project_tag",
    "recall",
    "refuses_model",
    "remember",
    "replacement_note",
    "replacement_note_name",
    "table_note",
    "unavailable_model_error",
]

UNKNOWN_MODEL_STATUSES: Final = frozenset({404})
"""What a Cloud Code stream answers, whatever its text, for a model id the account lacks."""
MODEL_REFUSALS: Final = re.compile(
    r"model name is invalid"
    r"|\.model: unexpected model name format"
    r"|(?<!\S)(?>\S*?\bmodels/)\S++ is (?:not found|no longer available)",
    re.IGNORECASE,
)
"""Texts of a ``400 INVALID_ARGUMENT`` that name the model as the problem, as users report
them: Antigravity's "You don't have access to this model or the model name is invalid"
(antigravity2api-nodejs issue #16), the Developer API's "* GenerateContentRequest.model:
unexpected model name format" (one-api issue #938), and the Developer API's texts for a
retired id ("models/gemini-pro is not found for API version v1beta, or is not supported
for generateContent", "This model models/gemini-2.0-flash is no longer available to new
users"), reported with a 404 but naming the model whatever the status. Not matched, so
such a 400 keeps its outcome: "Request contains an invalid argument." (names nothing;
also seen for a served model whose request the backend disliked) and "Invalid JSON
payload received. Unknown name ..." (a body field, not the model). A ``models/`` is
looked for once per run of non-blanks: every later one in the run ends where the first
does, and trying each again made ``models/models/...`` quadratic (16,000 characters:
0.5 s)."""
PICK_FIELDS: Final = ("webSearchModelIds", "defaultAgentModelId")
"""Where a replacement for the default model is looked for, in order of preference."""
REPLACEMENT_NOTE_LIFETIME: Final = 24 * 3600.0
"""Seconds a note on a default's replacement holds (the providers table shows it, and a new
client searches with its pick first) after the last search that saw the refusal or used a
list this client read (kept again by later ones; a search that only trusted the note does
not renew it). An account can be given preview access later, and a day-old pick is still
the likely one, a week-old one less so; the behaviour reference says nothing of how long
Google's refusal holds, and a wrong note costs one refused request (then the usual way)."""
MODEL_ID: Final = r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}"
"""A model id as a note may name it: Google's ids are letters, digits, dots and dashes."""
_NOTED_PICK: Final = re.compile(rf"searches with '({MODEL_ID})': ")
_PLAIN_PROJECT: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9.:_-]{0,99}")
"""A Cloud project id (``my-project``, or a domain-scoped ``example.com:my-project``)."""
LISTED_AT_MOST: Final = 20
"""How many offered ids an error lists before it says how many more there are."""

GEMINI_CLI_STABLE_FLASH: Final = ("gemini-3-flash", "gemini-3.5-flash", "gemini-2.5-flash")
"""The stable Flash ids the Gemini CLI searches with instead of ``gemini-3-flash-preview``
when the account has no preview access, newest first: ``resolveModel`` in its
``packages/core/src/config/models.ts`` downgrades a preview Flash to
``DEFAULT_GEMINI_FLASH_MODEL``, ``gemini-2.5-flash`` in google-gemini/gemini-cli's
releases; a later copy of that file (in a fork) names ``gemini-3.5-flash``, sent to Code
Assist as ``gemini-3-flash``. Only an id the account's list offers is ever picked."""

CatalogKey = tuple[str, str, str]
"""Whose list: the sign-in's entry, its fingerprint (which account) and the project."""

LIST_LIFETIME: Final = REPLACEMENT_NOTE_LIFETIME * REWRITE_AFTER
"""Seconds a client trusts a list it read before it searches as a new client would.

A client that kept its list for its whole life searched with that list's pick forever,
renewing the store's note (every half lifetime) on a list that may be days old: an account
given preview access later was never asked the default again. Half the note's lifetime, the
interval at which a long-running client rewrites its note, so no renewal rests on a list
older than that; after it the client reads the note as a new client does, without renewing
it, and the default is asked again once the note expires."""

_catalogs: "weakref.WeakKeyDictionary[Credentials, dict[CatalogKey, tuple[Catalog, float]]]" = (
    weakref.WeakKeyDictionary()
)
"""Each client's lists by sign-in, account and project, with when each was read (monotonic
seconds), for :data:`LIST_LIFETIME` (its credentials' life at most). Keyed by the sign-in's
fingerprint, not only its entry: another account imported into the entry while the client
runs is another account's list to ask for."""


@dataclass(frozen=True, slots=True)
class Catalog:
    """What ``fetchAvailableModels`` offered one project."""

    offered: tuple[str, ...]
    """Model ids the account may use, in the reply's order (retired and internal ones left
    out)."""
    candidates: tuple[str, ...]
    """Offered ids :data:`PICK_FIELDS` name, best first: replacements for the default."""

    def serves(self, model: str) -> bool:
        """Whether ``model`` is one the account is offered."""
        return model in self.offered

    @property
    def pick(self) -> str | None:
        """The replacement for the default model, or ``None`` when the catalogue names none."""
        return self.candidates[0] if self.candidates else None


@dataclass(frozen=True, slots=True)
class CatalogSource:
    """Where one sign-in's model list is asked for and how its reply is read."""

    path: str
    """The Cloud Code method, asked at the sign-in's endpoint with ``{"project": ...}``."""
    read: Callable[[Any], Catalog | None]
    """The reply's JSON to a :class:`Catalog`; ``None`` when it holds no list."""
    pick_kind: str
    """What kind of model it picks (``web-search model``), for the error naming none."""
    pick_reason: str
    """What the pick is, for the response's note and the log (``the account's web-search
    model (fetchAvailableModels)``)."""


def refuses_model(status: int, body: str) -> bool:
    """Whether a stream's error says the model is the problem: any 404, or a model 400.

    Example:
        >>> refuses_model(400, '{"error": {"message": "Request contains an invalid argument."}}')
        False
    """
    if status in UNKNOWN_MODEL_STATUSES:
        return True
    return status == 400 and bool(MODEL_REFUSALS.search(error_text(body)))


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _ids(value: Any) -> list[str]:
    """Model ids from a field that holds one id or a list of them."""
    items: Sequence[Any] = [value] if isinstance(value, str) else value
    if not isinstance(items, Sequence):
        return []
    return [item.strip() for item in items if isinstance(item, str) and item.strip()]


def parse_catalog(body: Any) -> Catalog | None:
    """The catalogue in a ``fetchAvailableModels`` reply; ``None`` without a ``models`` map.

    Example:
        >>> reply = {"models": {"m-low": {}, "m-high": {}}, "webSearchModelIds": ["m-high"]}
        >>> parse_catalog(reply).pick
        'm-high'
    """
    data = _mapping(body)
    models = data.get("models")
    if not isinstance(models, Mapping):
        return None
    retired = set(_ids(list(_mapping(data.get("deprecatedModelIds")))))
    offered: dict[str, None] = {}
    for key, details in models.items():
        internal = _mapping(details).get("isInternal") is True
        for name in _ids(key):
            if name not in retired and not internal:
                offered[name] = None
    named = (name for field in PICK_FIELDS for name in _ids(data.get(field)))
    candidates = tuple(dict.fromkeys(name for name in named if name in offered))
    return Catalog(offered=tuple(offered), candidates=candidates)


def parse_quota(body: Any, preferred: Sequence[str] = GEMINI_CLI_STABLE_FLASH) -> Catalog | None:
    """The Gemini CLI account's list in a ``retrieveUserQuota`` reply; ``None`` without one.

    Offered: each bucket's ``modelId``. Candidates: the ``preferred`` ids offered, in that
    order, then any other offered Flash id that is not a preview (Flash-Lite last).

    Example:
        >>> reply = {"buckets": [{"modelId": "gemini-2.5-pro"}, {"modelId": "gemini-2.5-flash"}]}
        >>> parse_quota(reply).pick
        'gemini-2.5-flash'
    """
    buckets = _mapping(body).get("buckets")
    if not isinstance(buckets, list):
        return None
    offered = tuple(
        dict.fromkeys(name for bucket in buckets for name in _ids(_mapping(bucket).get("modelId")))
    )
    stable_flash = sorted(
        (name for name in offered if "flash" in name and "preview" not in name),
        key=lambda name: "lite" in name,
    )
    ranked = [name for name in preferred if name in offered] + stable_flash
    return Catalog(offered=offered, candidates=tuple(dict.fromkeys(ranked)))


def remember(credentials: Credentials, key: CatalogKey, catalog: Catalog) -> None:
    """Keep the list of ``key`` (entry, fingerprint, project) for :data:`LIST_LIFETIME`."""
    _catalogs.setdefault(credentials, {})[key] = (catalog, time.monotonic())


def recall(credentials: Credentials, key: CatalogKey) -> Catalog | None:
    """The list :func:`remember` kept for ``key`` (entry, fingerprint, project), if any.

    ``None`` once it is older than :data:`LIST_LIFETIME` (it is forgotten then).
    """
    lists = _catalogs.get(credentials, {})
    kept = lists.get(key)
    if kept is None:
        return None
    catalog, read_at = kept
    if time.monotonic() - read_at >= LIST_LIFETIME:
        del lists[key]
        return None
    return catalog


def forget(credentials: Credentials, key: CatalogKey) -> None:
    """Drop the list kept for ``key``: a model it offered was refused, so it no longer holds."""
    _catalogs.get(credentials, {}).pop(key, None)


def _listing(offered: tuple[str, ...]) -> str:
    if not offered:
        return "none"
    shown = ", ".join(offered[:LISTED_AT_MOST])
    more = len(offered) - LISTED_AT_MOST
    return f"{shown} (and {more} more)" if more > 0 else shown


def unavailable_model_error(
    provider_id: str,
    prefix: str,
    model: str,
    catalog: Catalog,
    *,
    chosen: bool,
    status: int = 404,
    pick_kind: str = "web-search model",
) -> ProviderNotConfiguredError:
    """The error for a model the account is not served, naming it and what is offered.

    ``chosen`` is whether the user set the model (``GEMINI_SEARCH_MODEL`` or the
    ``gemini_model`` setting); otherwise it is the default and the list named no
    replacement (of ``pick_kind``). ``status`` is what the stream answered (404, or a 400
    naming the model).
    """
    whose = "" if chosen else "the default model "
    reason = "" if chosen else f" and it names no {pick_kind} to use instead"
    return ProviderNotConfiguredError(
        provider_id,
        f"{prefix} ({status}): {whose}{model!r} is not served to this account{reason}; the"
        f" account is offered: {_listing(catalog.offered)}. Set GEMINI_SEARCH_MODEL (or the"
        " gemini_model setting) to one of them.",
        status,
    )


def replacement_note(model: str, pick: str, source: CatalogSource, status: int | None) -> str:
    """What the response's note and the log say when ``pick`` searched instead of ``model``.

    ``status`` is the stream's refusal; ``None`` when this client learned it earlier.
    """
    why = f"Cloud Code answered {status}" if status is not None else "found earlier"
    return (
        f"gemini: the default model {model!r} is not served to this account ({why}), so"
        f" {pick!r}, {source.pick_reason}, was used instead"
    )


def project_tag(project: str | None) -> str:
    """How a note's name tells one Cloud project from another (``-``: the account's own).

    ``project`` is the one set with ``GOOGLE_CLOUD_PROJECT``; ``None`` stands for the
    project ``loadCodeAssist`` assigns the sign-in, which only the sign-in decides. A plain
    project id is kept as it is (readable in the store); anything else, which a name could
    not carry, becomes a digest of it.

    Example:
        >>> project_tag(None), project_tag("my-project"), project_tag("a b")[:7]
        ('-', 'my-project', 'sha256:')
    """
    if project is None:
        return "-"
    if _PLAIN_PROJECT.fullmatch(project):
        return project
    return "sha256:" + hashlib.sha256(project.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def replacement_note_name(entry: str, fingerprint: str, project: str | None, default: str) -> str:
    """The state store's name for the note on ``default``'s replacement for one sign-in.

    ``entry`` is the sign-in's credential store entry and ``fingerprint`` its token's
    secret-free fingerprint (which account), so another account's pick is never shown;
    ``project`` the Cloud project set for it (:func:`project_tag`), since two projects of
    one account may be allowed different models; ``default`` keeps a pick made for an
    older default from standing for a new one.

    Example:
        >>> replacement_note_name("gemini-cli", "0123abcd", "p-1", "gemini-3-flash-preview")
        'model:gemini-cli:0123abcd:p-1:gemini-3-flash-preview'
    """
    return f"model:{entry}:{fingerprint}:{project_tag(project)}:{default}"


def table_note(default: str, pick: str) -> str:
    """What the providers table adds to the row of a sign-in whose ``default`` was replaced.

    :func:`noted_pick` reads the pick back: the note is both the row's text and what a new
    client starts its searches with.

    Example:
        >>> table_note("m-preview", "m-flash")
        "searches with 'm-flash': the default model 'm-preview' is not served to this account"
    """
    return f"searches with {pick!r}: the default model {default!r} is not served to this account"


def noted_pick(text: str, default: str) -> str | None:
    """The model a :func:`table_note` for ``default`` names; ``None`` for any other text.

    The store is a file or a server other programs can write, and the pick goes into a
    request body and the Gemini CLI's ``User-Agent``: only a plain model id, in a text
    exactly as :func:`table_note` writes it for this ``default``, is taken.

    Example:
        >>> noted_pick(table_note("m-preview", "m-flash"), "m-preview")
        'm-flash'
        >>> noted_pick(table_note("m-preview", "m-flash"), "m-other") is None
        True
        >>> noted_pick(table_note("m-preview", "m flash"), "m-preview") is None
        True
    """
    found = _NOTED_PICK.match(text)
    if found is None:
        return None
    pick = found.group(1)
    return pick if table_note(default, pick) == text else None


ANTIGRAVITY_MODELS: Final = CatalogSource(
    path="/v1internal:fetchAvailableModels",
    read=parse_catalog,
    pick_kind="web-search model",
    pick_reason="the account's web-search model (fetchAvailableModels)",
)
GEMINI_CLI_MODELS: Final = CatalogSource(
    path="/v1internal:retrieveUserQuota",
    read=parse_quota,
    pick_kind="non-preview Flash model",
    pick_reason="a non-preview Flash model the account has quota for (retrieveUserQuota)",
)
