"""The ``WebSearch`` options an adapter model takes beside its own fields, checked when built.

LlamaIndex's factories take every ``WebSearch`` keyword (``deadline_seconds=``,
``session=``, ...); LangChain's tool and retriever, pydantic models built on
:class:`~websearch_core.client_options.ClientOptions`, took only ``settings``, ``api_keys``,
``provider``, ``timeout_seconds`` and ``web_search``, so a LangChain user had to build
``Settings(...)`` or a ``WebSearch(...)`` to reach the others. The options are not written
out as fields a second time: their names are :data:`~websearch_core.client.WEB_SEARCH_OPTION_NAMES`
(``WebSearch``'s own keywords, as the LlamaIndex factories read them) and each value is
checked as its ``Settings`` field checks it (:mod:`websearch_core.settings_given`), or as
``WebSearch`` checks a ``session`` or ``oauth_refreshers``. They are kept off the model's
fields, so they never reach a schema, a dump or a tool's arguments offered to a model.
"""

from collections.abc import Collection, Mapping
from typing import Any

from pydantic import ValidationError
from pydantic_core import InitErrorDetails, PydanticCustomError

__all__ = [
    "CHECKED_ALREADY",
    "GivenOptions",
    "copy_update",
    "option_names",
    "split_given_options",
]

CHECKED_ALREADY = "websearch_given_options_checked"
"""A validation context key: the builder has checked the options' values already.

LlamaIndex's retriever checks every option beyond its config's fields as the factories do
(their words, their classes) before it validates the config; the config checked each value
a second time. With this key true in the context the values are only taken out and kept.
"""


class GivenOptions(dict[str, Any]):
    """The options given beyond an adapter's fields, by name, shared by every copy.

    A copy of an adapter shares its configuration (:mod:`websearch_core.tool_copies`): a
    given ``session`` or ``browser`` belongs to the caller and cannot be copied, so
    ``copy.deepcopy`` of a tool hands the copy this same (never changed) mapping.
    """

    def __copy__(self) -> "GivenOptions":
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> "GivenOptions":
        return self


def option_names() -> frozenset[str]:
    """Every ``WebSearch`` keyword: what an adapter takes beside its fields.

    Imported when an adapter is built with one (building one loads the client anyway),
    never when its class is defined.
    """
    from .client import WEB_SEARCH_OPTION_NAMES

    return WEB_SEARCH_OPTION_NAMES


def split_given_options(
    title: str, fields: Collection[str], data: Mapping[str, Any], *, checked: bool = False
) -> tuple[dict[str, Any], GivenOptions]:
    """Take the ``WebSearch`` options that are no field of ``title`` out of ``data``.

    Args:
        title: The adapter's name, for the errors (``WebSearchTool``).
        fields: The adapter's own fields (those stay in ``data``).
        data: The keywords the adapter was built with.
        checked: The caller has checked the options' values already (each once is enough).

    Returns:
        The keywords left for the model's fields (unknown names among them, refused there
        as before), and the options taken out.

    Raises:
        ValidationError: An option's value is one ``WebSearch`` would refuse: a setting its
            ``Settings`` field refuses (worded as the LlamaIndex factories word it), or a
            ``session`` or ``oauth_refreshers`` of the wrong kind; located at the option,
            its input hidden.
    """
    names = option_names()
    taken = {name: value for name, value in data.items() if name in names and name not in fields}
    if not taken:
        return dict(data), GivenOptions()
    problems = (
        [] if checked else [p for name, value in taken.items() for p in _problems(name, value)]
    )
    if problems:
        raise ValidationError.from_exception_data(title, problems, hide_input=True)
    rest = {name: value for name, value in data.items() if name not in taken}
    return rest, GivenOptions(taken)


def copy_update(
    title: str, fields: Collection[str], given: GivenOptions, update: Mapping[str, Any]
) -> tuple[dict[str, Any], GivenOptions]:
    """Split a ``model_copy(update=...)`` into field values and the copy's own options.

    Pydantic's ``model_copy`` writes every updated name into the copy's fields unchecked:
    ``tool.model_copy(update={"deadline_seconds": 5})`` gave a copy that searched with the
    original's deadline, the new value kept where nothing reads it. An option is now
    checked as when built and joins the copy's options (the original's left as they are);
    a name neither a field nor an option is refused, saying what to pass.

    Args:
        title: The adapter's name, for the errors.
        fields: The adapter's own fields (their updates are checked by the caller).
        given: The original's options.
        update: What ``model_copy`` was asked to change.

    Returns:
        The field updates for pydantic, and the copy's options.

    Raises:
        ValidationError: An option's value is one ``WebSearch`` would refuse.
        OptionTypeError: A name is neither a field nor a ``WebSearch`` option.
    """
    fields_update = {name: value for name, value in update.items() if name in fields}
    others = {name: value for name, value in update.items() if name not in fields}
    if not others:
        return fields_update, given
    unknown, taken = split_given_options(title, fields, others)
    if unknown:
        from .build_errors import OptionTypeError
        from .meant_names import closest_name

        name = next(iter(unknown))
        close = closest_name(name, sorted({*fields, *option_names()}))
        meant = f"; did you mean {close}?" if close is not None else ""
        raise OptionTypeError(
            f"{title}.model_copy(): {name!r} in update is neither a field nor a WebSearch "
            f"option{meant} (pass one of those, or build a new {title})"
        )
    return fields_update, GivenOptions({**given, **taken})


def _problems(name: str, value: object) -> list[InitErrorDetails]:
    """What ``WebSearch`` would refuse in option ``name``'s ``value``, as pydantic errors."""
    from .client_arguments import check_client_arguments
    from .settings import SettingsOverrides
    from .settings_errors import describe_settings_error
    from .settings_given import check_given_settings

    if name in SettingsOverrides.__optional_keys__:
        try:
            check_given_settings({name: value})
        except ValidationError as error:
            # The LlamaIndex factories' words (``exclude: unknown provider id ...``), the
            # option's name left to pydantic's location.
            said = describe_settings_error(error, {name: name}).removeprefix(f"{name}: ")
            kind = PydanticCustomError("setting_value", "{problem}", {"problem": said})
            return [InitErrorDetails(type=kind, loc=(name,), input=value)]
        return []
    try:
        if name == "session":
            check_client_arguments(session=value)
        elif name == "oauth_refreshers":
            check_client_arguments(oauth_refreshers=value)
    except TypeError as error:
        kind = PydanticCustomError(f"{name}_type", "{problem}", {"problem": str(error)})
        return [InitErrorDetails(type=kind, loc=(name,), input=value)]
    return []
