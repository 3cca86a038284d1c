"""A list given as a search's one ``provider``, said as the settings say it.

``run("q", provider=["brave", "duckduckgo"])`` was refused as pydantic's ``Input should be
a valid string`` alone, where ``WebSearch(provider=[...])`` points to the ``providers``
setting (:func:`~websearch_core.provider_ids.several_for_one_message`). The per-search
parameters are on every call's path, so the list is found in the error after validation
failed, not by a validator before it: a valid search does no more work.
"""

from pydantic import ValidationError
from pydantic_core import InitErrorDetails

from .meant_names import as_before
from .provider_ids import several_for_one_message

__all__ = ["several_providers_named"]


def several_providers_named(error: ValidationError) -> ValidationError:
    """``error`` with a list given as ``provider`` refused in the settings' words.

    Returns:
        The error rewritten (the list's error the settings' ``value_error``, message for
        message; every other error as it was), or ``error`` itself when no list of ids was
        given as ``provider``.
    """
    details: list[InitErrorDetails] = []
    rewritten = False
    for detail in error.errors():
        several = None
        if detail["loc"] == ("provider",) and detail["type"] == "string_type":
            several = several_for_one_message(detail["input"])
        if several is None:
            details.append(as_before(detail))
            continue
        rewritten = True
        given, context = detail["input"], {"error": ValueError(several)}
        details.append(
            InitErrorDetails(type="value_error", loc=("provider",), input=given, ctx=context)
        )
    return ValidationError.from_exception_data(error.title, details) if rewritten else error
