"""The two Google OAuth sign-ins Gemini searches with, as one table of facts.

Why this exists: a Google account signed in through the Gemini CLI and one signed in
through Antigravity reach the same Cloud Code Assist API (``v1internal:...``) but at
different hosts, with a different client's headers and body fields, and their tokens come
from different OAuth clients (so each is refreshed by its own hook, or with no hook through
its own client's facts here: :data:`GEMINI_CLI_OAUTH`, :data:`ANTIGRAVITY_OAUTH`; a token
sent as the other client's is refused by Google). Before this table every
stored Gemini token was sent as Antigravity's, so a Gemini CLI token went to Antigravity's
daily hosts with Antigravity's headers. Each sign-in is kept in its own credential store
entry, tried in the reference's order (``google-gemini-cli``, then
``google-antigravity``), the first with a stored token being used:

* ``gemini-cli`` (the Gemini CLI): ``https://cloudcode-pa.googleapis.com``; ``User-Agent:
  GeminiCLI/<version>/<model> (<platform>; <arch>; terminal)`` and ``Client-Metadata:
  ideType=IDE_UNSPECIFIED,platform=PLATFORM_UNSPECIFIED,pluginType=GEMINI``; the body adds
  ``userAgent`` and ``requestId`` naming this package (the reference names its own
  product there). Its default model is the one the Gemini CLI itself searches the web with;
  an account not served it (no preview access) is asked ``retrieveUserQuota`` for its
  models (:mod:`._gemini_catalog`).
* ``gemini`` (Antigravity; the entry every Gemini token was stored under before, so such
  a token keeps going where it went): ``https://daily-cloudcode-pa.googleapis.com`` then
  ``https://daily-cloudcode-pa.sandbox.googleapis.com``; Antigravity's ``User-Agent``;
  the system instruction carries ``role: "user"``; the body adds ``requestType: "agent"``,
  ``userAgent: "antigravity"`` and ``requestId: "agent-<uuid>"``. An account not
  served the default model is asked ``fetchAvailableModels`` for its models.

Pure data and the few string helpers that fill its templates; nothing is sent here.
"""

import platform
import random
import string
import sys
import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

from .. import __version__
from ..oauth_import import IMPORT_SOURCES
from ._gemini_catalog import ANTIGRAVITY_MODELS, GEMINI_CLI_MODELS, CatalogSource
from ._google_token import GoogleOAuthClient

__all__ = [
    "ANTIGRAVITY",
    "ANTIGRAVITY_OAUTH",
    "GEMINI_CLI",
    "GEMINI_CLI_OAUTH",
    "GEMINI_CLI_VERSION",
    "SIGN_INS",
    "SignIn",
    "new_request_id",
    "user_agent",
]

GEMINI_CLI_VERSION: Final = "0.46.0"
"""The Gemini CLI release our ``User-Agent`` claims: the reference's default (its
``PI_AI_GEMINI_CLI_VERSION``). The backend reads the header to tell Gemini CLI traffic
apart, so it names a real release; raise it with the reference."""
PRODUCT: Final = "websearch-tools"
"""Our name where a Gemini CLI body names the calling product (``userAgent``, ``requestId``)."""

_NODE_ARCH: Final = {
    "x86_64": "x64",
    "amd64": "x64",
    "aarch64": "arm64",
    "arm64": "arm64",
    "i386": "ia32",
    "i686": "ia32",
}
"""Python's machine names to the Node.js ``process.arch`` names a Gemini CLI header carries."""
_BASE36: Final = string.ascii_lowercase + string.digits


@dataclass(frozen=True, slots=True)
class SignIn:
    """How one kind of Google sign-in reaches Cloud Code Assist."""

    entry: str
    """The credential store entry its token is kept under, and the key its refresh hook is
    registered under in ``WebSearch(oauth_refreshers=...)`` (the hook is called with it)."""
    label: str
    """Its name in logs and documentation."""
    endpoints: tuple[str, ...]
    """Origins tried in order: a transient failure at one moves on to the next."""
    user_agent: str
    """The ``User-Agent`` header; ``{model}``, ``{platform}`` and ``{arch}`` are filled in."""
    headers: Mapping[str, str] = field(default_factory=dict)
    """Further headers on every Cloud Code request of this sign-in."""
    instruction_role: str | None = None
    """The ``role`` its system instruction carries, if any."""
    body_fields: Mapping[str, str] = field(default_factory=dict)
    """Fields added to each ``streamGenerateContent`` body besides ``requestId``."""
    request_id: str = ""
    """The body's ``requestId``; ``{uuid}``, ``{ms}`` (epoch milliseconds) and ``{rand9}``
    (nine base-36 characters) are filled in afresh for every request."""
    default_model: str | None = None
    """Its model when the user set none; ``None``: the provider's default."""
    catalog: CatalogSource | None = None
    """Where a stream refused for its model (a 404, or a 400 naming the model) asks for the
    account's models, to replace the default; ``None``: the refusal stands."""
    oauth_client: GoogleOAuthClient | None = None
    """The OAuth client its tokens were issued to, through which an expiring token is
    renewed when no hook is registered under :attr:`entry`; ``None``: only a hook renews."""


GEMINI_CLI_OAUTH: Final = GoogleOAuthClient(
    label="Gemini CLI",
    client_id="681255809395-oo8ft2oprdrnp9e3aqf6av3hmdib135j.apps.googleusercontent.com",
    client_secret="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",
    sign_in_again=(
        f"sign in again ({IMPORT_SOURCES['gemini-cli'].sign_in_hint}), then run"
        " `websearch auth import gemini-cli`"
    ),
    client_source="copied into websearch-tools from the Gemini CLI's source",
)
"""The Gemini CLI's installed-application OAuth client (``OAUTH_CLIENT_ID`` and
``OAUTH_CLIENT_SECRET`` in google-gemini/gemini-cli ``packages/core/src/code_assist/
oauth2.ts``, public by Google's rules for installed applications): the client its sign-in's
tokens belong to, so the only one Google renews them for."""

GEMINI_CLI: Final = SignIn(
    entry="gemini-cli",
    label="Gemini CLI",
    endpoints=("https://cloudcode-pa.googleapis.com",),
    user_agent=f"GeminiCLI/{GEMINI_CLI_VERSION}/{{model}} ({{platform}}; {{arch}}; terminal)",
    headers={
        "Client-Metadata": "ideType=IDE_UNSPECIFIED,platform=PLATFORM_UNSPECIFIED,pluginType=GEMINI"
    },
    body_fields={"userAgent": f"{PRODUCT}/{__version__}"},
    request_id=f"{PRODUCT}-{{ms}}-{{rand9}}",
    default_model="gemini-3-flash-preview",
    catalog=GEMINI_CLI_MODELS,
    oauth_client=GEMINI_CLI_OAUTH,
)
"""The Gemini CLI's own web search runs on ``gemini-3-flash-preview`` (its ``web-search``
model config in ``packages/core/src/config/defaultModelConfigs.ts``), so that id is served
on this host to the accounts the Gemini CLI serves."""

ANTIGRAVITY_OAUTH: Final = GoogleOAuthClient(
    label="Antigravity",
    client_id="1071006060591-tmhssin2h21lcre235vtolojh4g403ep.apps.googleusercontent.com",
    client_secret="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",
    sign_in_again=(
        "sign in to Antigravity again, then store its new token in the `gemini` entry"
        " (`CredentialStore.set_oauth`)"
    ),
    client_source="copied into websearch-tools from the Antigravity IDE",
)
"""Antigravity's installed-application OAuth client, shipped in the Antigravity IDE and in
the reference's own sign-in (``CLIENT_ID`` and ``CLIENT_SECRET`` in badlogic/pi-mono
``packages/ai/src/utils/oauth/google-antigravity.ts``, which refreshes at
``https://oauth2.googleapis.com/token`` with them): not the Gemini CLI's, so Google renews
an Antigravity sign-in's tokens only for this pair."""

ANTIGRAVITY: Final = SignIn(
    entry="gemini",
    label="Antigravity",
    endpoints=(
        "https://daily-cloudcode-pa.googleapis.com",
        "https://daily-cloudcode-pa.sandbox.googleapis.com",
    ),
    user_agent="antigravity/hub/2.8.0 (aidev_client; os_type=darwin; arch=arm64; cl=963137146)",
    instruction_role="user",
    body_fields={"requestType": "agent", "userAgent": "antigravity"},
    request_id="agent-{uuid}",
    catalog=ANTIGRAVITY_MODELS,
    oauth_client=ANTIGRAVITY_OAUTH,
)

SIGN_INS: Final = (GEMINI_CLI, ANTIGRAVITY)
"""In the reference's order: the first with a stored token is used."""


def _node_platform() -> str:
    """``sys.platform`` as Node.js names it (``linux``, ``darwin``, ``win32``...)."""
    return sys.platform.rstrip(string.digits) or sys.platform


def user_agent(sign_in: SignIn, model: str) -> str:
    """The sign-in's ``User-Agent`` for a request about ``model``.

    Example:
        >>> user_agent(ANTIGRAVITY, "m").startswith("antigravity/hub/")
        True
    """
    machine = platform.machine().lower()
    return sign_in.user_agent.format(
        model=model, platform=_node_platform(), arch=_NODE_ARCH.get(machine, machine or "unknown")
    )


def new_request_id(sign_in: SignIn) -> str:
    """A fresh ``requestId`` in the sign-in's shape (not a secret, only unique enough)."""
    return sign_in.request_id.format(
        uuid=uuid.uuid4(),
        ms=int(time.time() * 1000),
        rand9="".join(random.choices(_BASE36, k=9)),
    )
