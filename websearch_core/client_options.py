"""How framework adapters are configured, defined once: a pydantic mixin.

The LangChain tool and retriever and the LlamaIndex retriever all accept the same
construction-time options (settings, keys, a preferred provider, a timeout, or a ready
client) with the same checks; they inherit them from :class:`ClientOptions`. Every other
``WebSearch`` keyword (``deadline_seconds=``, ``session=``, ...) is taken too, as the
LlamaIndex factories take it, and kept beside the fields (:mod:`.given_options`). Pydantic
only: the core still imports no framework.

Defining an adapter's class must stay cheap (it happens on ``import langchain_websearch``),
so this module imports neither the client, the provider registry nor the settings model
(pydantic-settings): the ``web_search`` and ``settings`` fields check a value when one is
given, and the provider check and :meth:`ClientOptions.new_client` import what they need
when they run.
"""

from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any, Self, TypeAlias, cast

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ModelWrapValidatorHandler,
    PlainValidator,
    PrivateAttr,
    SecretStr,
    ValidationError,
    ValidationInfo,
    ValidatorFunctionWrapHandler,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from .build_deadline import BuildBound
from .client_arguments import settings_problem, web_search_problem
from .given_options import CHECKED_ALREADY, GivenOptions, option_names, split_given_options
from .meant_names import named_extras
from .param_names import built_with_argument
from .setting_bounds import checked_in_range
from .settings_limits import MAX_TIMEOUT_SECONDS
from .tool_copies import with_own_clients

__all__ = ["ClientOptions", "loop_bound_client"]


def _web_search_instance(value: object) -> object:
    """Accept a :class:`~websearch_core.WebSearch` (what ``WebSearch | None`` would check).

    Raises:
        PydanticCustomError: Anything else (``web_search_type``), worded as every adapter
            words it: what to do instead. (Pydantic's ``is_instance_of`` only named the class.)
    """
    from .client import WebSearch  # loaded already whenever a WebSearch exists

    if not isinstance(value, WebSearch):
        raise PydanticCustomError("web_search_type", web_search_problem(value))
    return value


def _settings_value(value: object) -> object:
    """Validate ``value`` as the nested :class:`~websearch_core.Settings` field would.

    An instance passes as it is; a mapping is validated into one (no environment read, as
    for any nested model), and errors keep their location under ``settings``.

    Raises:
        PydanticCustomError: Neither (``settings="brave"``): ``settings_type``, worded as
            every adapter words it (pydantic's ``model_type`` said only what it wanted).
    """
    from .settings import Settings

    if not isinstance(value, Settings | Mapping):
        raise PydanticCustomError("settings_type", settings_problem(value))
    return Settings.model_validate(value)


if TYPE_CHECKING:
    from .client import LoopBoundClient, WebSearch
    from .settings import Settings

    _Client: TypeAlias = WebSearch
    _Settings: TypeAlias = Settings
else:
    # The classes themselves would make defining ClientOptions import the client with its
    # providers, transport and filters (~40 ms) and pydantic-settings (~15 ms); the same
    # checks run on a value instead.
    _Client = Annotated[object, PlainValidator(_web_search_instance)]
    _Settings = Annotated[object, PlainValidator(_settings_value)]


def loop_bound_client() -> "LoopBoundClient":
    """A new :class:`~websearch_core.client.LoopBoundClient`, for an adapter's private field.

    The adapters' ``default_factory``: the client module loads when a tool is built, not
    when its class is defined.
    """
    from .client import LoopBoundClient

    return LoopBoundClient()


_BUILD_OPTIONS = ("settings", "api_keys", "provider", "timeout_seconds")
"""The options :meth:`ClientOptions.new_client` builds a client from, in the order named."""


class ClientOptions(BaseModel):
    """Construction-time options shared by every adapter that owns a :class:`WebSearch`."""

    # LangChain's BaseTool and BaseRetriever ignore an unknown keyword, so
    # ``WebSearchTool(api_key="...")`` or ``WebSearchRetriever(include_answers=True)`` built
    # an adapter that silently searched without the key or the answer; named instead, as
    # ``WebSearch`` and the LlamaIndex adapters name it. The error shows no value: a
    # mistyped keyword may hold a key.
    model_config = ConfigDict(
        arbitrary_types_allowed=True, extra="forbid", hide_input_in_errors=True
    )

    settings: _Settings | None = None
    """Resolved settings; by default read from the environment and the config file."""
    api_keys: dict[str, SecretStr] = Field(default_factory=dict)
    """Keys given in code (``{"brave": "..."}``), ranked above the environment."""
    provider: str | None = None
    """Preferred provider id, tried first, then the auto chain (as the ``provider`` setting;
    it never forces: a model cannot pick a provider). ``None``/``"auto"``: the auto chain."""
    timeout_seconds: float | None = Field(
        default=None, gt=0, le=MAX_TIMEOUT_SECONDS, allow_inf_nan=False
    )
    """Per-provider request timeout in seconds (default from the settings)."""
    web_search: _Client | None = Field(default=None, exclude=True)
    """A ready client to use instead of building one from the fields above."""

    _clients: "LoopBoundClient" = PrivateAttr(default_factory=loop_bound_client)
    """The adapter's own clients (one per event loop), used when ``web_search`` is not given."""
    _given: GivenOptions = PrivateAttr(default_factory=GivenOptions)
    """The other ``WebSearch`` options given (``deadline_seconds=``, ``session=``, ...).

    Not fields: they would join the JSON schema and dumps (a LangChain tool's schema is
    its own, but its fields are listed wherever the model is), and declaring them would
    define the settings model with the class, on import."""

    def __init__(self, /, **data: Any) -> None:
        """Build the adapter; a refused option raises :class:`.OptionsValidationError`.

        That is pydantic's ``ValidationError`` and also a ``ConfigurationError``, the class
        LlamaIndex's factories raise for the same option (:mod:`.build_errors`). It is
        raised here, after validation: one raised inside it comes out as a plain
        ``ValidationError``.
        """
        try:
            super().__init__(**data)
        except ValidationError as error:
            from .build_errors import options_refused  # only for a refused option

            raise options_refused(error) from None

    @model_validator(mode="wrap")
    @classmethod
    def _unknown_keywords_meant(
        cls, data: Any, handler: ModelWrapValidatorHandler[Self], info: ValidationInfo
    ) -> Self:
        """Refuse a keyword no field has with the one probably meant.

        ``WebSearchTool(api_key=...)`` was refused with pydantic's ``Extra inputs are not
        permitted`` alone; now ``api_key: unexpected keyword argument; did you mean
        api_keys?``. The error keeps its type (``extra_forbidden``), location and every
        other error; one in the ``settings`` given is the settings' own.

        Any other ``WebSearch`` keyword is taken out first, its value checked as the
        LlamaIndex factories check it (:func:`.given_options.split_given_options`), and
        kept for :meth:`new_client`; a misspelt one is named with it
        (``deadline_second``: ``did you mean deadline_seconds?``). A builder that checked
        the values itself says so in the context (:data:`.given_options.CHECKED_ALREADY`).
        """
        given = GivenOptions()
        if isinstance(data, Mapping) and not data.keys() <= cls.model_fields.keys():
            title = cls.model_config.get("title") or cls.__name__
            context = info.context
            checked = isinstance(context, Mapping) and context.get(CHECKED_ALREADY) is True
            fields = cls.model_fields.keys()
            data, given = split_given_options(title, fields, data, checked=checked)
        try:
            built = handler(data)
        except ValidationError as error:
            known = {*cls.model_fields.keys(), *option_names()}
            named = named_extras(
                error,
                lambda location: known if len(location) == 1 else None,
                _UNKNOWN,
                instead=lambda location: _search_argument_meant(location, known, cls),
            )
            if named is None:
                raise
            raise named from None
        if given:
            cast("dict[str, Any]", built.__pydantic_private__)["_given"] = given
            built._refuse_client_beside_options()  # the after-validator ran without them
        return built

    @field_validator("timeout_seconds", mode="wrap")
    @classmethod
    def _timeout_in_range(cls, value: object, handler: ValidatorFunctionWrapHandler) -> object:
        """Refused in the settings' words (``must be more than 0 and at most 300 seconds``)."""
        constraints = cls.model_fields["timeout_seconds"].metadata
        return checked_in_range(value, handler, "timeout_seconds", constraints)

    @field_validator("provider", mode="before")
    @classmethod
    def _one_provider(cls, value: object) -> object:
        from .provider_ids import one_provider_only

        return one_provider_only(value)  # a list, where providers takes one

    @field_validator("provider")
    @classmethod
    def _known_provider(cls, value: str | None) -> str | None:
        from .provider_ids import preferred_provider

        return preferred_provider(value)

    @field_validator("api_keys", mode="before")
    @classmethod
    def _no_keys_for_none(cls, value: object) -> object:
        """Read ``api_keys=None`` as no keys given in code, as ``WebSearch`` reads it.

        ``create_web_search_tool(api_keys=None)`` and ``WebSearch(api_keys=None)`` built;
        ``WebSearchTool(api_keys=None)`` was refused (``Input should be a valid
        dictionary``), so code passing an optional mapping worked in one framework only.
        """
        return {} if value is None else value

    @field_validator("api_keys")
    @classmethod
    def _sendable_keys(cls, value: dict[str, SecretStr]) -> dict[str, SecretStr]:
        """Refuse a key that can never be sent when the adapter is built, not at first use.

        The client is built lazily, so a key with ``.env`` quotes or a line break used to
        be found only as a skipped provider at the first search (see
        :func:`~websearch_core.sent_secret.key_in_code_problem`).
        """
        from .sent_secret import key_in_code_problem  # a leaf: cheap at construction

        for provider, key in value.items():
            problem = key_in_code_problem(provider, key.get_secret_value())
            if problem is not None:
                raise ValueError(problem)
        return value

    @model_validator(mode="after")
    def _one_source_of_configuration(self) -> Self:
        """Refuse a ``web_search`` client beside options to build one (see :mod:`.one_source`)."""
        self._refuse_client_beside_options()
        return self

    def _refuse_client_beside_options(self) -> None:
        """Raise ``ValueError`` naming the options given beside a ``web_search`` client."""
        from .one_source import both_sources_problem  # a leaf: cheap at construction

        options = {name: getattr(self, name) for name in _BUILD_OPTIONS}
        if self.__pydantic_private__:  # set once built: the options given beside the fields
            options.update(self.__pydantic_private__["_given"])
        problem = both_sources_problem(self.web_search, options)
        if problem is not None:
            raise ValueError(problem)

    def __copy__(self) -> Self:
        """A shallow copy (``copy.copy``, ``model_copy``) that opens its own clients.

        Pydantic's shares the private attributes, so a copy (with other options, under
        ``model_copy(update=...)``) searched through the original's clients; see
        :mod:`websearch_core.tool_copies` for the rule every adapter follows.
        """
        copied = super().__copy__()
        if copied.__pydantic_private__:
            with_own_clients(copied.__pydantic_private__)
        return copied

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """A copy, with ``update``'s fields and options checked as when built.

        An option beyond the fields (``deadline_seconds``) is checked as when built and
        changes the copy's client alone; pydantic's own copy kept it where nothing read it
        (:func:`.given_options.copy_update`). A field is checked as on assignment: pydantic
        writes an update unchecked, so ``update={"api_keys": {"brave": "..."}}`` left the
        key a plain ``str`` that the copy's ``repr`` and ``model_dump`` showed, and a
        ``web_search`` client sat silently beside the options it made unread.

        Raises:
            OptionsValidationError: A field's or an option's value is one the class or
                ``WebSearch`` would refuse.
            OptionTypeError: A name in ``update`` is neither a field nor an option, or a
                ``web_search`` client would sit beside options to build one.
        """
        if not update:
            return super().model_copy(update=update, deep=deep)
        from .build_errors import OptionTypeError, options_refused
        from .given_options import copy_update

        title = self.model_config.get("title") or type(self).__name__
        try:
            fields, given = copy_update(
                title, type(self).model_fields.keys(), self._own_given(), update
            )
        except ValidationError as error:
            raise options_refused(error) from None
        copied = super().model_copy(update=fields, deep=deep)
        cast("dict[str, Any]", copied.__pydantic_private__)["_given"] = given
        try:
            copied._refuse_client_beside_options()
        except ValueError as error:
            raise OptionTypeError(f"{title}.model_copy(): {error}") from None
        validate = self.__pydantic_validator__.validate_assignment
        try:  # each field written again, through its validation (the model's checks too)
            for name, value in fields.items():
                validate(copied, name, value)
        except ValidationError as error:
            raise options_refused(error) from None
        return copied

    def __getstate__(self) -> dict[Any, Any]:
        """What ``pickle`` keeps: the options, refused when they hold a secret or a client.

        The clients (private) are unpickled as a new, empty set; see
        :mod:`websearch_core.tool_pickles` for the rule every adapter follows.

        Raises:
            TypeError: An option holds a secret given in code, or a ``web_search`` client.
        """
        from .tool_pickles import picklable_options  # only when pickled

        owner = self.model_config.get("title") or type(self).__name__
        options = {name: getattr(self, name) for name in ClientOptions.model_fields}
        picklable_options(owner, {**options, **self._own_given()})
        return super().__getstate__()

    def _own_clients(self) -> "LoopBoundClient":
        """The adapter's own clients, read as directly as pydantic itself reads them.

        A private attribute is answered by pydantic's ``__getattr__``, which first asks the
        attribute's declaration whether it is a descriptor: a raised and caught
        ``AttributeError`` on every search, 1.5-5 us (more than the rest of our LangChain
        tool's own work around the search, LangChain's aside). This returns the same object
        from pydantic's own store of private values.
        """
        private = cast("dict[str, Any]", self.__pydantic_private__)  # set: _clients is one
        return cast("LoopBoundClient", private["_clients"])

    def _own_given(self) -> GivenOptions:
        """The other ``WebSearch`` options given (read as :meth:`_own_clients` reads)."""
        private = cast("dict[str, Any]", self.__pydantic_private__)
        return cast("GivenOptions", private["_given"])

    def known_deadline_seconds(self) -> float:
        """The deadline a search has before the settings are read: given, settings', env's or 55 s.

        A first call's build imports end by it (:mod:`~websearch_core.build_deadline`).
        """
        from .build_deadline import known_deadline

        return known_deadline(self.settings, self._own_given())

    def known_fetch_seconds(self) -> float:
        """The deadline a fetch has before the settings are read (the tool's timeout counts).

        A fetch tool's first call's build imports end by it, as a search tool's by
        :meth:`known_deadline_seconds`.
        """
        from .build_deadline import known_fetch_deadline

        given: dict[str, object] = dict(self._own_given())
        if self.timeout_seconds is not None:
            given["timeout_seconds"] = self.timeout_seconds
        return known_fetch_deadline(self.settings, given)

    def build_bound(self) -> BuildBound:
        """What bounds a first call's build, worked out only if the call builds.

        :meth:`known_deadline_seconds` at the build, the config file's deadline read
        first when no ``Settings`` was given (:mod:`~websearch_core.config_deadlines`).
        """
        return BuildBound(self.settings, self._own_given())

    def fetch_build_bound(self) -> BuildBound:
        """:meth:`build_bound` for a fetch: :meth:`known_fetch_seconds` at the build."""
        given: dict[str, object] = dict(self._own_given())
        if self.timeout_seconds is not None:
            given["timeout_seconds"] = self.timeout_seconds
        return BuildBound(self.settings, given, fetch=True)

    def new_client(self) -> "WebSearch":
        """A new :class:`WebSearch` built from these options (not from ``web_search``).

        Settings are read here, at first use, not at construction: a tool built at import
        time must not fail the import over a config file the user is still editing.

        Raises:
            ConfigurationError: The environment or config file holds an invalid setting;
                the message names the variable or file.
        """
        from .client import WebSearch
        from .settings_errors import configuration_errors

        overrides: dict[str, Any] = dict(self._own_given())
        if self.provider is not None:
            overrides["provider"] = self.provider
        if self.timeout_seconds is not None:
            overrides["timeout_seconds"] = self.timeout_seconds
        with configuration_errors({name: name for name in overrides}):
            return WebSearch(self.settings, api_keys=self.api_keys, **overrides)


_UNKNOWN = "unexpected keyword argument"
"""What a keyword no field or ``WebSearch`` option has is, as Python's ``TypeError`` says."""


def _search_argument_meant(
    location: tuple[str | int, ...], known: set[str], owner: type[BaseModel]
) -> str | None:
    """The refusal of a search argument given as ``owner`` is built (``count=5``), or ``None``.

    ``WebSearchTool(count=5)`` said ``unexpected keyword argument`` alone, and
    ``max_results=5`` added ``did you mean fence_results?``: the argument meant is each
    call's ``limit`` (a retriever's ``k``), which this names, with where it goes.
    """
    if len(location) != 1:
        return None
    note = built_with_argument(str(location[0]), known, _call_arguments(owner))
    return None if note is None else f"{_UNKNOWN}; {note}"


def _call_arguments(owner: type[BaseModel]) -> frozenset[str]:
    """The arguments each call of ``owner`` takes: its tool schema's fields, if it has one."""
    field = owner.model_fields.get("args_schema")
    schema = None if field is None else field.default
    if isinstance(schema, type) and issubclass(schema, BaseModel):
        return frozenset(schema.model_fields)
    return frozenset()
