"""The texts a ``web_search`` tool gives a model when a call cannot even start.

Both framework adapters report the same two problems with the same words, so a prompt or
an agent that reacts to one framework's text reacts to the other's:

* invalid arguments: ``Error: invalid web_search arguments: <field>: <problem>; ...``
  (the model can fix them and call again);
* bad configuration: ``Error: configuration: <what, naming the file or variable>`` (the
  model cannot fix it, but can tell the user what to fix).

Provider failures are not here: they are the spec's ``Error: ...`` texts built by
:mod:`websearch_core.format`.
"""

from collections.abc import Mapping

from pydantic import ValidationError
from pydantic_core import InitErrorDetails

from .clauses import join_clauses
from .errors import ConfigurationError

__all__ = [
    "INVALID_ARGUMENTS_PREFIX",
    "configuration_error_text",
    "invalid_arguments_text",
    "renamed_arguments",
    "validator_message",
]

INVALID_ARGUMENTS_PREFIX = "Error: invalid web_search arguments: "


def invalid_arguments_text(error: Exception) -> str:
    """One line naming each invalid argument and what is wrong with it.

    Args:
        error: A pydantic ``ValidationError`` (v2, or v1 from older LangChain paths) or any
            other error raised while reading the arguments.

    Example:
        >>> from websearch_core.tool_schema import ToolArguments
        >>> try:
        ...     ToolArguments.model_validate({"query": "q", "limit": 0})
        ... except ValidationError as error:
        ...     print(invalid_arguments_text(error))
        Error: invalid web_search arguments: limit: Input should be greater than or equal to 1
    """
    if isinstance(error, ValidationError):
        return INVALID_ARGUMENTS_PREFIX + join_clauses(_problems(error))
    return f"{INVALID_ARGUMENTS_PREFIX}{error}"


def validator_message(message: str) -> str:
    """Pydantic's message without the ``Value error, `` it puts before a validator's own."""
    return message.removeprefix("Value error, ")


def _problems(error: ValidationError) -> list[str]:
    """``<argument>: <what is wrong>`` per error; a check across arguments names its own."""
    problems = []
    for detail in error.errors():
        where = ".".join(str(part) for part in detail["loc"])
        message = validator_message(detail["msg"])
        problems.append(f"{where}: {message}" if where else message)
    return problems


def configuration_error_text(error: ConfigurationError) -> str:
    """``Error: configuration: ...`` on one line (a multi-line message is joined).

    Example:
        >>> configuration_error_text(ConfigurationError("WEBSEARCH_TIMEOUT_SECONDS: too big"))
        'Error: configuration: WEBSEARCH_TIMEOUT_SECONDS: too big'
    """
    return "Error: configuration: " + " ".join(str(error).split())


def renamed_arguments(
    error: ValidationError, names: Mapping[str, str], title: str
) -> ValidationError:
    """``error`` naming each argument as the caller wrote it, and titled after the caller.

    An adapter that passes its own argument on under the core's name (the retriever's
    ``k`` is the search's ``limit``) would otherwise answer ``k=0`` with an error about a
    ``limit`` the caller never gave.

    Args:
        error: The error of the model the arguments were passed on to.
        names: The model's field name to the caller's argument name.
        title: What the error says failed validation (the caller's class).

    Example:
        >>> from websearch_core.models import SearchParams
        >>> try:
        ...     SearchParams(query="q", limit=0)
        ... except ValidationError as error:
        ...     renamed = renamed_arguments(error, {"limit": "k"}, "WebSearchRetriever")
        >>> renamed.title, renamed.errors()[0]["loc"]
        ('WebSearchRetriever', ('k',))
    """
    details: list[InitErrorDetails] = []
    for detail in error.errors():
        first, *rest = detail["loc"] or ("",)
        renamed = InitErrorDetails(
            type=detail["type"],
            loc=(names.get(str(first), first), *rest) if detail["loc"] else (),
            input=detail["input"],
        )
        if "ctx" in detail:
            renamed["ctx"] = detail["ctx"]
        details.append(renamed)
    return ValidationError.from_exception_data(title, details)
