"""A name no argument or setting has, refused together with the name probably meant.

``WebSearch(timeout=5)``, ``WebSearchTool(api_key=...)`` and ``timeout = 30`` in the config
file used to be answered with pydantic's ``Extra inputs are not permitted`` (or Python's
``unexpected keyword argument``), leaving the user to find which of the names was meant.
Every such refusal is worded here, so that each says the same thing the same way.
"""

import functools
import inspect
from collections.abc import Callable, Collection, Iterable
from typing import ParamSpec, TypeVar

from pydantic import ValidationError
from pydantic_core import ErrorDetails, InitErrorDetails, PydanticCustomError

__all__ = [
    "as_before",
    "closest_name",
    "meant",
    "named_extras",
    "refuse_unknown_keywords",
    "refusing_unknown_keywords",
]

_P = ParamSpec("_P")
_R = TypeVar("_R")

_EXTRA = "extra_forbidden"
"""Pydantic's error type for a name the model has no field for."""


def closest_name(given: str, known: Iterable[str], *, cutoff: float = 0.6) -> str | None:
    """The known name nearest to ``given`` (compared in lower case), or ``None``.

    Args:
        given: The name as written.
        known: The names there are, lower case.
        cutoff: How alike (difflib's ratio, 0-1) the nearest must be to be named: 0.6
            suits the long names of settings and arguments (``timeout`` for
            ``timeout_seconds``); provider ids, short, have their own
            (:data:`~websearch_core.provider_ids.ID_CUTOFF`).

    Example:
        >>> closest_name("timeout", ["deadline_seconds", "timeout_seconds"])
        'timeout_seconds'
        >>> closest_name("colour", ["timeout_seconds"]) is None
        True
    """
    import difflib  # only when a name is wrong

    close = difflib.get_close_matches(given.lower(), list(known), n=1, cutoff=cutoff)
    return close[0] if close else None


def meant(given: str, known: Iterable[str]) -> str:
    """``; did you mean timeout_seconds?`` when a known name is near ``given``, else ``""``.

    Example:
        >>> meant("api_key", ["api_keys", "provider"])
        '; did you mean api_keys?'
    """
    close = closest_name(given, known)
    return f"; did you mean {close}?" if close else ""


def refuse_unknown_keywords(owner: str, given: Iterable[str], known: Collection[str]) -> None:
    """Refuse the first of ``given`` that is not ``known``, with the name probably meant.

    For a call whose ``**kwargs`` are typed (``Unpack[WebSearchOptions]``) but kept for
    later: ``create_web_search_tool(api_key=...)`` passed ``mypy`` only when checked, and at
    run time was refused at the tool's first call, far from the line that was wrong. The
    error is Python's own ``TypeError`` for the case, worded as
    :func:`refusing_unknown_keywords` words it; it names the keyword, never its value (a
    mistyped keyword may hold a key).

    Args:
        owner: What was called, as the caller wrote it (``create_web_search_tool``).
        given: The keywords given.
        known: Every keyword the call takes.

    Raises:
        TypeError: A keyword is not one of ``known``.

    Example:
        >>> refuse_unknown_keywords("make", ["api_key"], ["api_keys", "provider"])
        Traceback (most recent call last):
        ...
        TypeError: make() got an unexpected keyword argument 'api_key'; did you mean api_keys?
    """
    for name in given:
        if name not in known:
            raise TypeError(
                f"{owner}() got an unexpected keyword argument {name!r}{meant(name, sorted(known))}"
            )


def refusing_unknown_keywords(function: Callable[_P, _R]) -> Callable[_P, _R]:
    """``function``, refusing a keyword it has no parameter for with the one probably meant.

    Python's own ``TypeError`` (``got an unexpected keyword argument 'api_key'``) named
    the wrong keyword but not the right one. The error stays a ``TypeError``, and the
    signature (for ``inspect`` and type checkers) stays ``function``'s.

    Raises:
        TypeError: (from the returned function) A keyword names no parameter.
    """
    parameters = inspect.signature(function).parameters.values()
    if any(parameter.kind is parameter.VAR_KEYWORD for parameter in parameters):
        return function  # every keyword is taken: nothing to refuse
    names = frozenset(
        parameter.name
        for parameter in parameters
        if parameter.kind is not parameter.POSITIONAL_ONLY
    )
    owner = function.__qualname__.removesuffix(".__init__")  # WebSearchRetriever(), as called

    known = names - {"self"}

    @functools.wraps(function)
    def checked(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        refuse_unknown_keywords(owner, kwargs, known)
        return function(*args, **kwargs)

    return checked


def named_extras(
    error: ValidationError,
    known: Callable[[tuple[str | int, ...]], Collection[str] | None],
    what: str,
    instead: Callable[[tuple[str | int, ...]], str | None] | None = None,
) -> ValidationError | None:
    """``error`` with each unknown name's message saying what it is not and what was meant.

    Args:
        error: A model's validation error.
        known: The names there are where an unknown one was found (given its location),
            or ``None`` to leave the error there as it is (a nested model words its own).
        what: What the name is not, such as ``"not a setting"``.
        instead: The whole message for a name that is something else (a provider id
            written as a setting), or ``None`` to say ``what`` and the name meant: the
            nearest name by spelling can be wrong there (``brave``: ``did you mean rate?``).

    Returns:
        The error rewritten, each other error as it was (type, location, message); ``None``
        when there was nothing to rewrite.
    """
    rewritten = False
    details: list[InitErrorDetails] = []
    for detail in error.errors():
        location = detail["loc"]
        names = known(location) if detail["type"] == _EXTRA and location else None
        if names is not None:
            rewritten = True
            problem = instead(location) if instead is not None else None
            if problem is None:
                problem = f"{what}{meant(str(location[-1]), sorted(names))}"
            kind = PydanticCustomError(_EXTRA, problem)  # no braces: nothing to format
            details.append(InitErrorDetails(type=kind, loc=location, input=detail["input"]))
            continue
        details.append(as_before(detail))
    if not rewritten:
        return None
    return ValidationError.from_exception_data(error.title, details)


def as_before(detail: ErrorDetails) -> InitErrorDetails:
    """An error as pydantic reported it, to be raised again beside the rewritten ones.

    One of pydantic's own kinds whose message was rewritten already (``limit="5"``: what
    to write, :mod:`~websearch_core.number_inputs`) keeps the rewritten message.
    """
    location, given, context = detail["loc"], detail["input"], detail.get("ctx") or {}
    known_kind = InitErrorDetails(type=detail["type"], loc=location, input=given, ctx=context)
    try:  # one of pydantic's own kinds: its message and documentation link come back
        (rebuilt,) = ValidationError.from_exception_data("", [known_kind]).errors()
    except (KeyError, TypeError):
        # A validator's own kind (no context: its message is not formatted), or one of
        # pydantic's kinds rewritten already without the context pydantic's needs (a
        # bound said by :mod:`~websearch_core.setting_bounds`, read again by a wrapper).
        rebuilt = None
    if rebuilt is None or rebuilt["msg"] != detail["msg"]:
        kind = PydanticCustomError(detail["type"], detail["msg"])
        return InitErrorDetails(type=kind, loc=location, input=given)
    return known_kind
