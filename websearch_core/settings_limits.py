"""The settings' numeric defaults and bounds, apart from the pydantic-settings model.

An adapter's option class bounds its ``timeout_seconds`` by :data:`MAX_TIMEOUT_SECONDS`;
importing it from here keeps ``pydantic-settings`` (and the settings model) out of
``import langchain_websearch``. :mod:`websearch_core.settings` re-exports every name.
"""

from collections.abc import Mapping
from types import MappingProxyType

__all__ = [
    "DEFAULT_CONNECT_TIMEOUT_SECONDS",
    "DEFAULT_DEADLINE_SECONDS",
    "DEFAULT_MAX_RESPONSE_BYTES",
    "DEFAULT_TIMEOUTS_BY_KIND",
    "DEFAULT_TIMEOUT_SECONDS",
    "MAX_AUTH_COOLDOWN_SECONDS",
    "MAX_DEADLINE_SECONDS",
    "MAX_STATE_WAIT_SECONDS",
    "MAX_TIMEOUT_SECONDS",
]

DEFAULT_TIMEOUT_SECONDS = 60.0
"""The per-provider timeout of answer engines, and of any request outside the chain."""
MAX_TIMEOUT_SECONDS = 300.0
DEFAULT_TIMEOUTS_BY_KIND: Mapping[str, float] = MappingProxyType(
    {"answer": DEFAULT_TIMEOUT_SECONDS, "api": 20.0, "scraper": 15.0, "aggregate": 30.0}
)
"""Per-provider timeouts when ``timeout_seconds`` is unset: answer engines write a whole
answer and may take a minute; APIs and scrapers that have not answered in seconds will not."""
DEFAULT_DEADLINE_SECONDS = 55.0
"""The whole call: seven keyless engines that accept and never answer end it within a minute."""
MAX_DEADLINE_SECONDS = 900.0
DEFAULT_CONNECT_TIMEOUT_SECONDS = 10.0
MAX_STATE_WAIT_SECONDS = 60.0
"""The most ``state_wait_seconds`` may be: a store that needs more to answer one call is not
one a search can use, whatever its deadline."""
DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024
MAX_AUTH_COOLDOWN_SECONDS = 31 * 86_400.0
"""The longest a refused credential keeps its provider out: the bound every mark a provider's
own reset hint sets keeps to. A mark far past it (``1e300``) could not be shown as a date,
and ``websearch providers`` failed with a traceback."""
