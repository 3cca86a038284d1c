"""Which model an OAuth account is served: Antigravity's ``fetchAvailableModels`` catalogue.

Why this exists: the Cloud Code Assist hosts that Antigravity sign-ins reach serve a
per-account set of model ids (tier-suffixed ones such as ``gemini-3.5-flash-low``), not the
Developer API's names, so our default model may simply not exist there. The backend says
so with Google's ``404 NOT_FOUND`` "Requested entity was not found." (reported for an id it
lacks, e.g. opencode-antigravity-auth issue #46 at ``cloudcode-pa``, and at
``daily-cloudcode-pa`` in antigravity-claude-proxy issue #204). The catalogue then tells
what the account may use. Pure: parsing, the choice, the error texts and a per-client
memory of each project's catalogue; the request is built in :mod:`._gemini_request`.

The reply (field names as CLIProxyAPI ``sdk/cliproxy/antigravity_models.go`` and other
public clients read them): ``models`` maps each model id to its details (``displayName``,
``maxTokens``, ``quotaInfo``, ``isInternal`` ...); ``webSearchModelIds`` lists the model(s)
Antigravity runs its own web search on; ``defaultAgentModelId`` is its default chat model;
``deprecatedModelIds`` maps a retired id to ``{"newModelId": ...}`` (a retired id can stay
in ``models`` while it is refused).

The rule, as data (:data:`PICK_FIELDS`): only the *default* model is ever replaced, by the
first id of ``webSearchModelIds``, else ``defaultAgentModelId``, that ``models`` offers
(neither retired nor internal). A model the user chose is never replaced: its error names
it and lists the models offered.
"""

import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from ..credentials import Credentials
from ..errors import ProviderNotConfiguredError

__all__ = [
    "PICK_FIELDS",
    "UNKNOWN_MODEL_STATUSES",
    "Catalog",
    "parse_catalog",
    "recall",
    "remember",
    "unavailable_model_error",
]

UNKNOWN_MODEL_STATUSES: Final = frozenset({404})
"""What a Cloud Code stream answers for a model id the account is not served."""
PICK_FIELDS: Final = ("webSearchModelIds", "defaultAgentModelId")
"""Where a replacement for the default model is looked for, in order of preference."""
LISTED_AT_MOST: Final = 20
"""How many offered ids an error lists before it says how many more there are."""

_catalogs: "weakref.WeakKeyDictionary[Credentials, dict[str, Catalog]]" = (
    weakref.WeakKeyDictionary()
)
"""Each client's catalogues by project, for the client's life (its credentials' life)."""


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


def remember(credentials: Credentials, project: str, catalog: Catalog) -> None:
    """Keep ``project``'s catalogue for as long as the client that owns ``credentials``."""
    _catalogs.setdefault(credentials, {})[project] = catalog


def recall(credentials: Credentials, project: str) -> Catalog | None:
    """The catalogue :func:`remember` kept for ``project`` in this client, if any."""
    return _catalogs.get(credentials, {}).get(project)


def _listing(offered: tuple[str, ...]) -> str:
    if not offered:
        return "none"
    shown = ", ".join(offered[:LISTED_AT_MOST])
    more = len(offered) - LISTED_AT_MOST
    return f"{shown} (and {more} more)" if more > 0 else shown


def unavailable_model_error(
    provider_id: str, prefix: str, model: str, catalog: Catalog, *, chosen: bool
) -> ProviderNotConfiguredError:
    """The error for a model the account is not served, naming it and what is offered.

    ``chosen`` is whether the user set the model (``GEMINI_SEARCH_MODEL`` or the
    ``gemini_model`` setting); otherwise it is the default and the catalogue named no
    replacement.
    """
    whose = "" if chosen else "the default model "
    reason = "" if chosen else " and it names no web-search model to use instead"
    return ProviderNotConfiguredError(
        provider_id,
        f"{prefix} (404): {whose}{model!r} is not served to this account{reason}; the account"
        f" is offered: {_listing(catalog.offered)}. Set GEMINI_SEARCH_MODEL (or the"
        " gemini_model setting) to one of them.",
        404,
    )
