"""A LlamaIndex tool call's arguments, read and checked as the LangChain tools check theirs.

``FunctionTool.call(*args, **kwargs)`` hands whatever it was given to the function: a
missing or unknown argument surfaced as Python's own ``TypeError`` text (``_Fetcher.fetch()
missing 1 required positional argument``) and a keyword silently replaced the same argument
given by position. Both tools check their calls here against their argument model first.
"""

from typing import Any

from pydantic import BaseModel, ValidationError
from pydantic_core import InitErrorDetails, PydanticCustomError

__all__ = ["checked_arguments"]

_GIVEN_TWICE = PydanticCustomError("given_twice", "given both by position and by name")


def checked_arguments(
    model: type[BaseModel], args: tuple[Any, ...], kwargs: dict[str, Any]
) -> dict[str, Any]:
    """The call's arguments as keywords, in ``model``'s field order, validated by ``model``.

    Raises:
        pydantic.ValidationError: An argument is unknown, missing or out of range, or given
            both by position and by name (the keyword would otherwise win silently).
    """
    if args:
        names = tuple(model.model_fields)
        positional = dict(zip(names, args, strict=False))
        twice = [name for name in positional if name in kwargs]
        if twice:
            raise ValidationError.from_exception_data(
                model.__name__,
                [
                    InitErrorDetails(type=_GIVEN_TWICE, loc=(name,), input=kwargs[name])
                    for name in twice
                ],
            )
        extra = {
            f"positional argument {index}": value
            for index, value in enumerate(args)
            if index >= len(names)
        }
        kwargs = {**positional, **extra, **kwargs}
    model.model_validate(kwargs)
    return kwargs
