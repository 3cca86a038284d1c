"""Names a package exports but imports only on first use (PEP 562), written once.

The core and both adapters keep ``import`` cheap this way: a program that only wants the
search tool does not pay for the retriever, the page fetcher or the framework modules
behind them.

Example:
    >>> getattr_, dir_ = lazy_exports("json", {"JSONDecoder": "decoder"}, {})
    >>> getattr_("JSONDecoder").__name__
    'JSONDecoder'
"""

import importlib
import importlib.util
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_exports"]


def lazy_exports(
    package: str,
    exports: Mapping[str, str],
    namespace: dict[str, Any],
    *,
    submodules: bool = False,
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """A module ``__getattr__`` and ``__dir__`` that import ``exports`` when first used.

    Args:
        package: The package's ``__name__``.
        exports: Public name to the submodule (relative to ``package``) that defines it.
        namespace: The package's ``globals()``: a loaded name is kept there, so the next
            access is an ordinary attribute.
        submodules: Also resolve ``package.<submodule>`` as an attribute, as when the
            package imported every submodule eagerly.
    """

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            is_submodule = submodules and not name.startswith("_")
            if is_submodule and importlib.util.find_spec(f"{package}.{name}") is not None:
                return importlib.import_module(f".{name}", package)
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f".{module}", package), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *exports})

    return __getattr__, __dir__
