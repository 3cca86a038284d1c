"""Settings given in code, checked on their own before the environment is read.

A tool that keeps ``WebSearch`` options for its first call (LlamaIndex's factories and tool
spec) reads the settings only then, so ``timeout_seconds=0`` was taken when the tool was
built and every call answered the model ``Error: configuration: ...``; LangChain's tool
takes the same option as a checked field and refused it at once. Checking each given value
as its :class:`~websearch_core.Settings` field does (its type, bounds and validators) finds
those mistakes when the tool is built, without reading the environment, the config file or
the credential store (which the first call still reads, as before).

The checks that weigh one setting against another (``state_backend="redis"`` needs a
``redis_url``, a store wait within half the deadline) are left to the first call: the other
value may come from the environment or the config file, which are not read here.
"""

from collections.abc import Mapping
from functools import cache
from typing import Any, cast

from pydantic_core import CoreConfig, SchemaValidator

__all__ = ["check_given_settings"]


@cache
def _fields_alone() -> SchemaValidator:
    """A validator of :class:`Settings`' fields without its model-wide checks.

    ``Settings``' core schema wraps its fields' schema in the model and then in the model
    validators; the fields' own schema, under the model's config, checks every given field
    (and forbids unknown names) with no environment source and no cross-field check.
    """
    from .settings import Settings

    schema: Mapping[str, Any] = Settings.__pydantic_core_schema__
    config: CoreConfig | None = None
    while schema["type"] != "model-fields":
        if schema["type"] == "model":
            config = schema.get("config")
        schema = schema["schema"]
    return SchemaValidator(cast("Any", schema), config)


def check_given_settings(values: Mapping[str, object]) -> None:
    """Check each of ``values`` as its ``Settings`` field would, the others left to later.

    Args:
        values: Settings fields given in code (``timeout_seconds=30``), by name.

    Raises:
        pydantic.ValidationError: A value its field refuses, titled ``Settings`` and located
            at the field as ``Settings`` would raise it (so
            :func:`~websearch_core.settings_errors.configuration_errors` words it); the
            input is never repeated (a value may hold a secret).

    Example:
        >>> from pydantic import ValidationError
        >>> check_given_settings({"timeout_seconds": 30, "exclude": "bing,yahoo"})
        >>> try:
        ...     check_given_settings({"deadline_seconds": 0})
        ... except ValidationError as error:
        ...     print(error.title, error.errors()[0]["loc"], error.errors()[0]["msg"])
        Settings ('deadline_seconds',) must be more than 0 and at most 900 seconds
    """
    if values:
        _fields_alone().validate_python(dict(values))
