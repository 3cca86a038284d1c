"""Opening the configured state backend: Redis when a URL is given, else SQLite.

The factory sits apart from :mod:`.base` so the interface module imports no backend and
the backends (which import the interface) form no cycle with it.
"""

import os
from collections.abc import Mapping
from pathlib import Path

from ..errors import ConfigurationError
from .base import DEFAULT_REDIS_PREFIX, REDIS_INSTALL_HINT, StateStore, default_state_path
from .sqlite import SQLiteStore

__all__ = ["open_store"]


def open_store(
    *,
    redis_url: str | None,
    sqlite_path: Path | None,
    redis_prefix: str = DEFAULT_REDIS_PREFIX,
    redis_options: Mapping[str, object] | None = None,
    chosen_by: str | None = None,
) -> StateStore:
    """Open the configured backend: Redis when a URL is given, else SQLite.

    Nothing connects or touches the disk here; the first operation does, so this is safe
    to call from a constructor or inside a running event loop.

    Args:
        redis_url: A ``redis://`` / ``rediss://`` / ``unix://`` URL (``WEBSEARCH_REDIS_URL``);
            when set, quotas are shared by every process that uses the same server and prefix.
        sqlite_path: The SQLite file; defaults to :func:`default_state_path`.
        redis_prefix: Namespace for every Redis key, so one server can host several setups.
        redis_options: Extra keyword arguments for ``redis.Redis.from_url`` (timeouts, TLS).
        chosen_by: What chose the SQLite file's directory (``WEBSEARCH_STATE_DIR``), for
            its failures to name; ``None`` when it is the default.

    Raises:
        ConfigurationError: Redis was asked for but the ``redis`` package is not installed.
    """
    if redis_url:
        try:
            from .redis import RedisStore
        except ModuleNotFoundError as exc:
            if exc.name is not None and exc.name.split(".")[0] == "redis":
                raise ConfigurationError(
                    "WEBSEARCH_REDIS_URL is set but the redis package is not installed; "
                    f"install it with: {REDIS_INSTALL_HINT}"
                ) from exc
            raise
        return RedisStore.from_url(redis_url, prefix=redis_prefix, **dict(redis_options or {}))
    path = Path(os.path.expanduser(sqlite_path)) if sqlite_path else default_state_path()
    return SQLiteStore(path, chosen_by=chosen_by)
