"""One error class for a bad option given to any adapter's builder, whatever the framework.

LangChain's tools and retriever are pydantic models: a bad option was a pydantic
``ValidationError``. LlamaIndex's factories keep ``**kwargs`` and refused an unknown
keyword or an object of the wrong kind with ``TypeError`` and a bad value with
:class:`~websearch_core.errors.ConfigurationError`; its retriever raised all three. Code
building either framework's tools could catch no one class. Every refusal when built is now
a :class:`~websearch_core.errors.ConfigurationError`, and keeps the class it had: a
pydantic model's is an :class:`OptionsValidationError` (a ``ValidationError`` too, with the
same ``errors()``), a ``TypeError`` is an :class:`OptionTypeError`. Code catching the old
class still catches it.
"""

from pydantic import ValidationError

from .errors import ConfigurationError
from .meant_names import as_before

__all__ = ["OptionTypeError", "OptionsValidationError", "options_refused"]


class OptionTypeError(ConfigurationError, TypeError):
    """A builder's keyword is unknown, or its value is an object of the wrong kind.

    A ``TypeError`` as Python's own unexpected-keyword error is, and a
    :class:`~websearch_core.errors.ConfigurationError` as every other refusal when built.
    """


class OptionsValidationError(ValidationError, ConfigurationError):
    """A pydantic-model adapter refused the options it was built with.

    Pydantic's own ``ValidationError`` (the same title, locations, types and messages) that
    is also a :class:`~websearch_core.errors.ConfigurationError`, as LlamaIndex's factories
    raise for the same option.
    """


def options_refused(error: ValidationError) -> OptionsValidationError:
    """``error`` again as an :class:`OptionsValidationError`, each line error kept.

    Pydantic turns any exception raised inside validation into its own ``ValidationError``
    (a subclass would come out as the base class), so the refusal is rebuilt once the
    model's validation has ended. The input stays out of the message: an option may hold
    a key.

    Args:
        error: What the model's validation raised.

    Returns:
        The same errors, under the same title.
    """
    details = [as_before(line) for line in error.errors(include_url=False)]
    return OptionsValidationError.from_exception_data(error.title, details, hide_input=True)
