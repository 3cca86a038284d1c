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

import sys
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ValidationError
from pydantic_core import InitErrorDetails

from .clauses import join_clauses
from .errors import ConfigurationError
from .meant_names import as_before, closest_name
from .setting_bounds import ranges_said

__all__ = [
    "INVALID_ARGUMENTS_PREFIX",
    "configuration_error_text",
    "invalid_arguments_text",
    "renamed_arguments",
    "validator_message",
]

INVALID_ARGUMENTS_PREFIX = "Error: invalid web_search arguments: "


def invalid_arguments_text(
    error: Exception,
    arguments: Sequence[str] | None = None,
    bounds: type[BaseModel] | None = None,
) -> str:
    """One line naming each invalid argument and what is wrong with it.

    An argument the tool does not take is named with the one probably meant (for a tool
    that takes a ``query``, a filter's name with the directive the query takes instead:
    ``site: not an argument (write site:<domain> in the query)``), and the line ends with
    the arguments there are: pydantic's ``Extra inputs are not permitted`` told a model
    neither, so it could only guess again. Pydantic v1's errors (LangChain raises them
    for an args schema written with ``pydantic.v1``) read the same: the same clauses,
    only pydantic's own words for a bad value differ between its versions.

    Args:
        error: A pydantic ``ValidationError`` (v2, or v1 from LangChain's v1 schema path)
            or any other error raised while reading the arguments.
        arguments: The names the tool takes, in its schema's order; ``web_search``'s
            when not given.
        bounds: The arguments' model, whose fields give a number's range (``limit: must
            be at least 1 and at most 100 results``, :mod:`.setting_bounds`);
            ``web_search``'s when not given. Worded here, where the refusal is caught,
            not by a validator on each field, which every call passing ``limit`` paid.

    Example:
        >>> from websearch_core.tool_schema import ToolArguments
        >>> try:
        ...     ToolArguments.model_validate({"query": "q", "limit": 0})
        ... except ValidationError as error:
        ...     print(invalid_arguments_text(error))
        Error: invalid web_search arguments: limit: must be at least 1 and at most 100 results
    """
    if isinstance(error, ValidationError):
        error = ranges_said(bounds or _tool_arguments_model(), error) or error
    details = _details(error)
    if details is not None:
        return INVALID_ARGUMENTS_PREFIX + join_clauses(_problems(details, arguments))
    return f"{INVALID_ARGUMENTS_PREFIX}{error}"


def validator_message(message: str, field: str | None = None) -> str:
    """Pydantic's message without the ``Value error, `` it puts before a validator's own.

    Args:
        message: pydantic's message.
        field: The field the message is said after (``<field>: <message>``): a validator's
            own words that start with its name lose it, as the line names it already
            (``query: query must not be empty ...`` read the name twice).

    Example:
        >>> validator_message("Value error, query must not be empty", "query")
        'must not be empty'
        >>> validator_message("Value error, a query must not be empty", "query")
        'a query must not be empty'
    """
    message = message.removeprefix("Value error, ")
    if field and message.startswith(f"{field} "):
        return message[len(field) + 1 :]
    return message


def _details(error: Exception) -> list[Mapping[str, Any]] | None:
    """Each problem pydantic found (``loc``, ``msg``, ``type``), or ``None`` for another error.

    Pydantic v1's error is recognised only when ``pydantic.v1`` was imported (by
    LangChain, or by whoever wrote a v1 schema): no v1 error can exist otherwise, and
    the text of a refusal costs no import.
    """
    if isinstance(error, ValidationError):
        return list(error.errors())
    v1 = sys.modules.get("pydantic.v1")
    if v1 is not None and isinstance(error, v1.ValidationError):
        return list(error.errors())
    return None


def _problems(details: list[Mapping[str, Any]], arguments: Sequence[str] | None) -> list[str]:
    """``<argument>: <what is wrong>`` per error; a check across arguments names its own.

    Unknown arguments come after the other problems, by name (pydantic v1 reports them
    so, v2 in the order given: one order makes both read alike), followed by one clause
    listing the arguments there are.
    """
    problems = []
    unknown = []
    for detail in details:
        where = ".".join(str(part) for part in detail["loc"] if part != _V1_WHOLE)
        if detail["type"] in _UNKNOWN and len(detail["loc"]) == 1:
            unknown.append(where)
            continue
        message = validator_message(detail["msg"], where) + _given_instead(detail)
        message += _choice_meant(detail)
        problems.append(f"{where}: {message}" if where else message)
    if unknown:
        known = _tool_arguments() if arguments is None else arguments
        problems.extend(f"{name}: {_not_taken(name, known)}" for name in sorted(unknown))
        problems.append(f"the arguments are {', '.join(known)}")
    return problems


def _choice_meant(detail: Mapping[str, Any]) -> str:
    """``; did you mean day?`` for ``recency: "daily"`` (:mod:`.choice_words`, loaded here)."""
    from .choice_words import choice_meant  # a refused call alone loads it

    return choice_meant(detail)


def _given_instead(detail: Mapping[str, Any]) -> str:
    """What a number argument was sent instead, for a model to see its own mistake.

    A model that writes ``{"limit": "5"}`` was told ``Input should be a valid integer``,
    which it already believed it had sent; now ``, got the string '5': send the number
    itself, not in quotes``. A bool and a float given for an integer are named too.
    Pydantic v1's errors carry no input and get nothing.
    """
    given = detail.get("input")
    if detail["type"] not in _NUMBER_TYPES or given is None:
        return ""
    if isinstance(given, str):
        shown = f"the string {given!r}" if len(given) <= _SHOWN_LENGTH else "a string"
        return f", got {shown}: send the number itself, not in quotes"
    if isinstance(given, bool):
        return f", got {str(given).lower()}: send a number"
    if isinstance(given, float):
        return f", got {given!r}: send a whole number"
    return ""


_NUMBER_TYPES = frozenset({"int_type", "float_type"})
"""Pydantic's error types for a strict number field given something else."""
_SHOWN_LENGTH = 24
"""The longest string repeated; a longer one is some other argument's text sent here."""
_UNKNOWN = frozenset({"extra_forbidden", "value_error.extra"})
"""Pydantic's error type for a name the schema has no field for (v2's, then v1's)."""
_V1_WHOLE = "__root__"
"""Where pydantic v1 places a check across arguments (v2 gives no place)."""


def _not_taken(name: str, known: Sequence[str]) -> str:
    """``not an argument (did you mean max_chars?)``; a surplus positional is said as such.

    A filter's name given to a tool that takes a ``query`` is told the directive to write
    in the query instead (``site`` -> ``site:<domain>``), before any near name. A name
    another search API gives an argument this tool has (Tavily's ``max_results``, Brave's
    ``count``, ``timelimit``) is told that argument: by spelling, ``max_results`` was
    pointed at ``num_search_results`` and ``timelimit`` at ``limit``, and a model trained
    on those APIs sends those names. A name a model invents for the main argument
    (``q``, ``question``, ``input`` for ``query``; ``link`` for ``url``) is told that
    argument (:mod:`websearch_core.invented_names`): by spelling, none was named.
    """
    if not name.isidentifier():  # LlamaIndex's "positional argument 6"
        return f"more than the {len(known)} arguments there are"
    if "query" in known:
        from .filters.query import DIRECTIVE_ARGUMENTS  # only when an argument was refused

        directive = DIRECTIVE_ARGUMENTS.get(name.lower())
        if directive is not None:
            return f"not an argument (write {directive} in the query)"
    from .invented_names import INVENTED_NAMES  # only when an argument was refused
    from .param_names import OTHER_API_NAMES

    meant = OTHER_API_NAMES.get(name.lower()) or INVENTED_NAMES.get(name.lower())
    close = meant if meant in known else closest_name(name, known)
    return f"not an argument (did you mean {close}?)" if close else "not an argument"


def _tool_arguments() -> tuple[str, ...]:
    """``web_search``'s arguments, read from its schema when first needed."""
    return tuple(_tool_arguments_model().model_fields)


def _tool_arguments_model() -> type[BaseModel]:
    """``web_search``'s arguments' model, imported when an argument was first refused."""
    from .tool_schema import ToolArguments  # only when an argument was refused

    return ToolArguments


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
        # As pydantic said it, or as reworded already (a bound's whole range, by
        # :mod:`~websearch_core.setting_bounds`): rebuilt from its type alone, ``k=0``
        # read pydantic's one end where ``WebSearchRetriever(k=0)`` reads the range.
        renamed = as_before(detail)
        renamed["loc"] = (names.get(str(first), first), *rest) if detail["loc"] else ()
        details.append(renamed)
    return ValidationError.from_exception_data(title, details)
