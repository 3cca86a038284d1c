"""API keys: explicit arguments > environment > config file > the local credential store.

The store is a small JSON file written with mode ``0600`` (owner read/write only), for keys
set through ``websearch auth set <provider>``. Values are only ever held in memory as
:class:`pydantic.SecretStr` or plain strings passed straight into request headers; nothing
here prints or logs them.
"""

import json
import os
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path

from pydantic import SecretStr

from .errors import ConfigurationError

__all__ = ["CredentialStore", "Credentials"]


class CredentialStore:
    """A JSON file of ``{provider: {"api_key": "..."}}`` readable by its owner only.

    Args:
        path: The file; created on first write with its parent directory.
    """

    def __init__(self, path: Path) -> None:
        self.path = path

    def __repr__(self) -> str:
        return f"CredentialStore(path={str(self.path)!r})"

    def _read(self) -> dict[str, dict[str, str]]:
        try:
            raw = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {}
        except OSError as exc:
            raise ConfigurationError(
                f"cannot read credential store {self.path}: {exc.strerror}"
            ) from None
        try:
            data = json.loads(raw)
        except json.JSONDecodeError:
            raise ConfigurationError(f"credential store {self.path} is not valid JSON") from None
        if not isinstance(data, dict):
            raise ConfigurationError(f"credential store {self.path} must hold a JSON object")
        return {str(k): v for k, v in data.items() if isinstance(v, dict)}

    def _write(self, data: Mapping[str, Mapping[str, str]]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".credentials-")
        try:
            os.fchmod(fd, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(data, handle, indent=2, sort_keys=True)
            os.replace(tmp, self.path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    def get(self, provider: str, field: str = "api_key") -> str | None:
        """The stored value for ``provider``, or ``None``."""
        value = self._read().get(provider, {}).get(field)
        return value if isinstance(value, str) and value else None

    def set(self, provider: str, value: str, field: str = "api_key") -> None:
        """Store ``value`` for ``provider``; the file stays mode 0600."""
        if not value.strip():
            raise ConfigurationError(f"refusing to store an empty {field} for {provider}")
        data = self._read()
        data.setdefault(provider, {})[field] = value.strip()
        self._write(data)

    def remove(self, provider: str) -> bool:
        """Forget everything stored for ``provider``; True when something was removed."""
        data = self._read()
        if provider not in data:
            return False
        del data[provider]
        self._write(data)
        return True

    def providers(self) -> list[str]:
        """Ids that have something stored (never the values)."""
        return sorted(self._read())


class Credentials:
    """Resolves a provider's key from each source in precedence order.

    Args:
        explicit: Keys passed in code, e.g. ``WebSearch(api_keys={"brave": "..."})``.
        configured: Keys from the TOML config file.
        store: The local credential store, consulted last.
        environ: The environment to read (defaults to ``os.environ``).
    """

    def __init__(
        self,
        explicit: Mapping[str, str | SecretStr] | None = None,
        configured: Mapping[str, SecretStr] | None = None,
        store: CredentialStore | None = None,
        environ: Mapping[str, str] | None = None,
    ) -> None:
        self._explicit = {k.lower(): _reveal(v) for k, v in (explicit or {}).items()}
        self._configured = {k.lower(): v.get_secret_value() for k, v in (configured or {}).items()}
        self._store = store
        self._environ = environ if environ is not None else os.environ
        self._resolved: set[str] = set()

    def __repr__(self) -> str:
        return (
            f"Credentials(explicit={sorted(self._explicit)}, configured={sorted(self._configured)})"
        )

    def api_key(self, provider: str, env_vars: Iterable[str] = ()) -> str | None:
        """The first non-blank key for ``provider``, or ``None``.

        Args:
            provider: The provider id (also the key name in code, config and store).
            env_vars: The provider's environment variable names, in the spec's order.
        """
        candidates: list[str | None] = [self._explicit.get(provider)]
        candidates.extend(self._environ.get(name) for name in env_vars)
        candidates.append(self._configured.get(provider))
        for value in candidates:
            if value and value.strip():
                return self._remember(value.strip())
        stored = self._store.get(provider) if self._store is not None else None
        return self._remember(stored) if stored else None

    def _remember(self, value: str) -> str:
        self._resolved.add(value)
        return value

    def secrets(self) -> tuple[str, ...]:
        """Every key given in code or config or handed out so far, for redaction."""
        known = {*self._explicit.values(), *self._configured.values(), *self._resolved}
        return tuple(value for value in known if value)


def _reveal(value: str | SecretStr) -> str:
    return value.get_secret_value() if isinstance(value, SecretStr) else value
