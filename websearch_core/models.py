"""Value objects that cross every boundary: the request, the response, the attempt log.

All models are frozen pydantic models. Input is validated strictly: a bad value raises a
:class:`pydantic.ValidationError` naming the field; nothing is silently coerced (``"5"`` is
not a limit, ``True`` is not a temperature).
"""

import re
from datetime import date
from typing import Annotated, Any, Final, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ModelWrapValidatorHandler,
    SerializerFunctionWrapHandler,
    ValidationError,
    ValidationInfo,
    ValidatorFunctionWrapHandler,
    field_validator,
    model_serializer,
    model_validator,
)
from typing_extensions import TypedDict  # one pydantic accepts, on Python 3.11 too

from .content.models import PageContent
from .domain_names import domain_name
from .js_trim import JS_WHITESPACE, is_blank
from .language_tags import canonical_tag, is_language_tag, names_no_language
from .meant_names import named_extras
from .param_names import param_meant
from .provider_ids import preferred_provider
from .provider_list_error import several_providers_named
from .query_text import unsendable_character
from .setting_bounds import ranges_said

__all__ = [
    "MAX_QUERY_LENGTH",
    "AppliedFilter",
    "Attempt",
    "AttemptOutcome",
    "FilterName",
    "FilterWay",
    "ProviderFailure",
    "Recency",
    "SearchCitation",
    "SearchOptions",
    "SearchParams",
    "SearchResponse",
    "SearchSource",
    "SearchToolResult",
    "SearchUsage",
    "SourceRank",
    "refuse_blank_query",
    "refuse_unsendable_query",
    "search_parameter_note",
]

MAX_QUERY_LENGTH = 2000
"""Longest query accepted; providers may cap lower (Brave: 500)."""
BLANK_QUERY = "query must not be empty or only whitespace"
"""The one refusal of a query with nothing to search for, whether ``""`` or ``"  "``."""


def refuse_blank_query(value: object) -> object:
    """Refuse an empty or whitespace-only query before the field's own checks run.

    Run as a ``mode="before"`` validator so ``""`` gets the same words as ``"  "``: the
    field's ``min_length`` ran first and answered pydantic's "String should have at least
    1 character", while a blank query read "must not be blank". The bound stays in the
    JSON schema; anything not a string is left to the field's strict type check.

    Whitespace is what the spec's JavaScript ``trim()`` strips
    (:data:`~websearch_core.js_trim.JS_WHITESPACE`): ``str.strip`` kept U+FEFF, so a query
    of a byte-order mark (what a file saved with one gives first) was sent to every
    provider as a search for nothing. The query is sent as written, not shown, so the
    separators :func:`~websearch_core.js_trim.trim` also takes from a field's ends are not
    whitespace here: U+001C..U+001F and U+0085 are controls, which
    :func:`refuse_unsendable_query` names with their place.

    Raises:
        ValueError: The query is a string with nothing but whitespace in it.
    """
    if isinstance(value, str) and not value.strip(JS_WHITESPACE):
        raise ValueError(BLANK_QUERY)
    return value


def refuse_unsendable_query(value: object) -> object:
    """Refuse a query holding a character no provider can be sent (:mod:`.query_text`).

    Run as a ``mode="before"`` validator, ahead of the field's own checks, so a lone
    surrogate is named as one rather than as pydantic's "unable to parse raw data".
    Anything not a string is left to the field's strict type check.

    Raises:
        ValueError: The query holds a control character or a lone surrogate.
    """
    if isinstance(value, str):
        problem = unsendable_character(value)
        if problem is not None:
            raise ValueError(problem)
    return value


Recency = Literal["day", "week", "month", "year"]
AttemptOutcome = Literal["success", "failed", "skipped", "cached"]
FilterName = Literal[
    "include_domains",
    "exclude_domains",
    "date_after",
    "date_before",
    "recency",
    "language",
    "country",
    "phrase",
    "exclude_terms",
    "alternatives",
    "filetype",
    "exclude_filetype",
    "in_url",
    "exclude_in_url",
    "in_title",
    "exclude_in_title",
    "in_text",
    "exclude_in_text",
]
_DATE_DIRECTIVE_NAME: Final = re.compile(r"(?:after|before|since|until):", re.IGNORECASE)
"""Every name a date directive is typed with (``since:``/``until:`` are the behaviour
reference's other names, ``filters.query``'s ``_SAME_AS``): a query holding none of them
needs no tokenizing to check its range (asked only of a query holding a colon)."""
FilterWay = Literal["native", "query", "post", "ignored"]

_StrictCount = Annotated[int, Field(strict=True, ge=1, le=100)]
_COUNTRY = re.compile(r"^[A-Za-z]{2}$")


class _Frozen(BaseModel):
    # defer_build: a model's validator is built when it is first used, not on import
    # (importing a tool adapter loads this module but builds no response).
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class SearchParams(_Frozen):
    """One web search request, as the model (or a program) asks for it.

    The six first fields are the model-facing schema of the spec; the rest are portable
    extras that providers honour where they can. ``provider`` is for internal callers only
    and never appears in a model-facing schema.
    """

    query: str = Field(min_length=1, max_length=MAX_QUERY_LENGTH, strict=True)
    """Search query, passed to providers unchanged."""
    recency: Recency | None = None
    """Only results from the last day, week, month or year, where the provider can."""
    limit: _StrictCount | None = None
    """Maximum number of results to return."""
    max_tokens: Annotated[int, Field(strict=True, ge=1, le=200_000)] | None = None
    """Token cap for answer engines."""
    temperature: Annotated[float, Field(strict=True, ge=0.0, le=2.0)] | None = None
    """Sampling temperature for answer engines."""
    num_search_results: _StrictCount | None = None
    """Requested search breadth; most providers send it upstream as the result count."""
    country: str | None = None
    """ISO 3166-1 alpha-2 country code."""
    language: str | None = None
    """BCP 47 language tag such as ``en`` or ``pt-BR``; ``auto`` (no preference) is ``None``."""
    date_after: date | None = None
    """Only results published on or after this date."""
    date_before: date | None = None
    """Only results published on or before this date."""
    include_domains: tuple[str, ...] = ()
    """Restrict results to these domains, where the provider can."""
    exclude_domains: tuple[str, ...] = ()
    """Drop results from these domains, where the provider can."""
    provider: str | None = None
    """Force one provider id (internal callers only); ``"auto"`` means the chain."""

    @model_validator(mode="wrap")
    @classmethod
    def _unknown_names_meant(
        cls, data: Any, handler: ModelWrapValidatorHandler["SearchParams"]
    ) -> "SearchParams":
        """Refuse a name no field has with the field probably meant.

        ``run("q", limt=3)`` was refused with pydantic's ``Extra inputs are not permitted``
        alone; now ``limt: not a search parameter; did you mean limit?``. The error keeps
        its type (``extra_forbidden``), location and every other error. A near miss of a
        word list (``recency="daily"``) gains the word meant here too, as the command's
        ``--recency daily`` does (:mod:`.choice_words`), and a number past its bounds is said
        with its whole range and unit (``limit: must be at least 1 and at most 100
        results``, where pydantic gave one end; :mod:`.setting_bounds`).
        """
        try:
            return handler(data)
        except ValidationError as caught:
            from .choice_words import choices_meant  # the failure path alone imports it

            error = several_providers_named(caught)  # the failure path alone pays for it
            error = choices_meant(error) or error  # recency="daily": did you mean day?
            error = ranges_said(cls, error) or error  # limit=0: its whole range and unit
            named = named_extras(
                error,
                lambda location: cls.model_fields.keys() if len(location) == 1 else None,
                "not a search parameter",
                instead=param_meant,  # count (Brave's name) means limit, not country
            )
            if named is None:
                if error is caught:
                    raise
                raise error from None
            raise named from None

    @field_validator("provider")
    @classmethod
    def _provider_id(cls, value: str | None) -> str | None:
        """The id as the ``provider`` setting reads it, so a call takes the same spellings.

        `` Brave `` is ``brave``, and ``auto`` in any case is none (the chain).
        An id no provider has is kept as given: the plan refuses it as the
        :class:`~websearch_core.errors.ConfigurationError` a call's unknown id has always
        raised, not as a validation error.
        """
        try:
            return preferred_provider(value)
        except ValueError:
            return value

    _query_not_blank = field_validator("query", mode="before")(refuse_blank_query)
    _query_sendable = field_validator("query", mode="before")(refuse_unsendable_query)

    @field_validator("language")
    @classmethod
    def _language_tag(cls, value: str | None) -> str | None:
        if value is not None and value.strip().lower() == "auto":
            return None  # "let the provider decide", as SearXNG and the config file say it
        if value is not None:
            value = canonical_tag(value)
        if value is not None and not is_language_tag(value):
            raise ValueError(
                f"language must be a BCP 47 tag such as 'en' or 'pt-BR', got {value!r}"
            )
        if value is not None and names_no_language(value):
            raise ValueError(
                f"language {value!r} names no language: its first part must be an ISO 639 "
                "code, such as 'en', 'de' or 'pt-BR'"
            )
        return value

    @field_validator("country")
    @classmethod
    def _country_code(cls, value: str | None) -> str | None:
        # Said in words: pydantic's "should match pattern '^[A-Za-z]{2}$'" told a user
        # who wrote "usa" a regular expression rather than what to write.
        if value is not None and not _COUNTRY.match(value):
            raise ValueError(
                f"country must be a two-letter ISO 3166-1 code such as 'us' or 'de', got {value!r}"
            )
        return value

    @field_validator("date_after", "date_before", mode="wrap")
    @classmethod
    def _calendar_date(
        cls, value: object, handler: ValidatorFunctionWrapHandler, info: ValidationInfo
    ) -> date | None:
        # pydantic's own text ("input is too short") did not say which form a date takes,
        # nor which part of one is wrong (:mod:`.date_words`); its error type is kept.
        try:
            checked: date | None = handler(value)
        except ValidationError as error:
            from .date_words import date_error  # imported by a bad date alone

            raise date_error(error.errors()[0], info.field_name or "date", value) from None
        return checked

    @field_validator("include_domains", "exclude_domains", mode="before")
    @classmethod
    def _domain_list(cls, value: object, info: ValidationInfo) -> object:
        # pydantic said "Input should be a valid tuple" to include_domains="example.com"
        # (one site, the likeliest slip) and to None, not what to write instead.
        if isinstance(value, str):
            raise ValueError(
                f"{info.field_name} must be a list of domain names, such as [{value!r}], "
                "not one string"
            )
        if value is None:
            raise ValueError(
                f"{info.field_name} must be a list of domain names (leave it out for none), "
                "not None"
            )
        return value

    @field_validator("include_domains", "exclude_domains")
    @classmethod
    def _domains(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(domain_name(domain) for domain in value)

    @field_validator("date_before")
    @classmethod
    def _date_order(cls, value: date | None, info: ValidationInfo) -> date | None:
        # Checked on the field, not the model, so the error has a place: the command
        # said "input: date_after must ..." and a program found no field in its loc.
        after = info.data.get("date_after")
        if value is not None and after is not None and after > value:
            raise ValueError(
                "date_after must not be later than date_before "
                f"({after.isoformat()} is after {value.isoformat()})"
            )
        return value

    @model_validator(mode="after")
    def _query_date_order(self) -> "SearchParams":
        query = self.query  # its directives count too; most queries hold no colon at all
        if ":" in query and _DATE_DIRECTIVE_NAME.search(query):
            from .filters.query import date_bounds, tokenize  # a leaf: no cycle back here

            tokens = tokenize(self.query)
            after, before = date_bounds(tokens, self.date_after, self.date_before)
            if after is not None and before is not None and after > before:
                raise ValueError(
                    f"query: after:{after.isoformat()} is later than before:"
                    f"{before.isoformat()}, so no date is in the range"
                )
        return self

    @model_validator(mode="after")
    def _query_sites(self) -> "SearchParams":
        # Two refusals of what a query's sites ask, on one reading of it. A ``site:`` or
        # ``filetype:`` no filter can read stayed plain text, which engines still read as
        # their operator (``filters.query.site_refusal``). A site both asked for and kept
        # out failed on every provider of the chain as theirs (``filters.site_conflicts``);
        # a site is kept out by ``exclude_domains`` or by a ``-``, ``!`` or ``NOT`` before
        # one typed. Most searches name no site at all and skip both (9 -> 1 us).
        query = self.query
        lowered = query.lower()
        refusable = "site:" in lowered or "filetype:" in lowered
        typed = "site:" in lowered or "domain:" in lowered or "host:" in lowered
        unwanted = self.exclude_domains or (
            typed and ("-" in query or "!" in query or "NOT" in query)
        )
        conflicting = bool(unwanted and (self.include_domains or typed))
        if refusable or conflicting:
            from .filters.query import filetype_refusal, site_refusal, tokenize  # a leaf
            from .filters.site_conflicts import site_conflict

            tokens = tokenize(query)
            problem = (site_refusal(tokens) or filetype_refusal(tokens)) if refusable else None
            if problem is None and conflicting:
                problem = site_conflict(tokens, self.include_domains, self.exclude_domains)
            if problem is not None:
                raise ValueError(problem)
        return self

    @property
    def result_count(self) -> int | None:
        """The collapsed count most providers send: ``num_search_results`` before ``limit``."""
        return self.num_search_results if self.num_search_results is not None else self.limit


class SearchOptions(TypedDict, total=False):
    """The :class:`SearchParams` fields ``WebSearch.run(query, **options)`` takes, typed.

    Every field but ``query`` (the call's first argument), typed as what the field
    accepts, so ``run("q", limt=3)`` fails under mypy, not only when it runs. A test keeps
    the keys equal to the fields and each type equal to what its field accepts: bounds
    unchecked, ISO text for a date, a ``list`` or ``tuple`` for a ``tuple``.
    """

    recency: Recency | None
    limit: int | None
    max_tokens: int | None
    temperature: float | None
    num_search_results: int | None
    country: str | None
    language: str | None
    date_after: date | str | None
    date_before: date | str | None
    include_domains: list[str] | tuple[str, ...]  # not Sequence: a str is one, but no list
    exclude_domains: list[str] | tuple[str, ...]
    provider: str | None


class SourceRank(_Frozen):
    """Where one engine placed a merged source (aggregate provenance)."""

    engine: str
    rank: int


class SearchSource(_Frozen):
    """One web result."""

    title: str
    url: str
    snippet: str | None = None
    published_date: str | None = None
    """As the provider gave it: ISO date, RFC 2822, or free text such as ``2 days ago``."""
    age_seconds: int | None = None
    """Age at parse time, used to print ``3d ago``; may be negative for future dates."""
    author: str | None = None
    engines: tuple[SourceRank, ...] = ()
    """For aggregate results: each engine that returned the URL and at what rank."""
    category: str | None = None
    """The upstream's category for the result (SearXNG's ``general``, ``news``, ...)."""
    content: PageContent | None = None
    """The page behind the result: the text the provider sent with it (Tavily, Exa,
    Firecrawl, Jina), or the page fetched for ``include_content=True``; else ``None``."""
    domain: str | None = Field(default=None, exclude=True)
    """The page's domain as its provider named it beside a URL that names another host (a
    Gemini grounding redirect's ``web.domain``): what a ``site:`` check reads it on. Only
    the checks read it, before the response is cached or shown, so it is left out of the
    JSON: a source's shape stays as it was, and a serializer dropping it when absent
    tripled the cost of dumping every response (10 sources: ~10 us -> ~35 us)."""


class SearchCitation(_Frozen):
    """A passage an answer engine cited."""

    url: str
    title: str = ""
    cited_text: str | None = None


class SearchUsage(_Frozen):
    """Token and request counts reported by the provider."""

    input_tokens: int | None = None
    output_tokens: int | None = None
    total_tokens: int | None = None
    search_requests: int | None = None


class Attempt(_Frozen):
    """One step of the chain: which provider, what happened, how long it took."""

    provider: str
    outcome: AttemptOutcome
    status: int | None = None
    ms: float = 0.0
    detail: str | None = None
    """Why it failed or was skipped (already free of secrets)."""

    def log_fields(self) -> dict[str, object]:
        """The fields a log record of this attempt carries besides its message.

        Passed as ``extra=`` by every log line of an attempt (served, failed, retried,
        skipped, cached), so a program that ships its logs as JSON or filters them reads
        ``record.provider``, ``record.outcome``, ``record.status`` and ``record.ms``
        instead of parsing the sentence; the names are the attempt's own, as in
        ``--json``. The detail is the message's, so it is not repeated here.

        Example:
            >>> Attempt(provider="brave", outcome="failed", status=429, ms=12.5).log_fields()
            {'provider': 'brave', 'outcome': 'failed', 'status': 429, 'ms': 12.5}
        """
        return {
            "provider": self.provider,
            "outcome": self.outcome,
            "status": self.status,
            "ms": self.ms,
        }


class AppliedFilter(_Frozen):
    """One filter the caller asked for and how the provider's answer honoured it.

    A caller cannot tell from the results alone whether ``site:github.com`` was enforced
    upstream, re-checked here, or could not be applied at all; this record says which.
    """

    name: FilterName
    value: str
    """The filter's value as sent: a domain, an ISO date, a recency, a tag, a phrase."""
    applied: tuple[FilterWay, ...]
    """Every way it was applied, in order: an API parameter (``native``), the provider's
    query syntax (``query``), our local check of the results (``post``); ``ignored`` when
    none could, or, after ``post``, when some results could not be checked (no date, no
    snippet) and were kept."""
    unapplied_by: tuple[str, ...] = ()
    """For results merged from several engines (Public Web): the engines that did not
    apply it, when others did. The model is told which results the filter never reached
    rather than that some were unchecked."""

    @model_serializer(mode="wrap")
    def _without_empty_engines(self, handler: SerializerFunctionWrapHandler) -> Any:
        """Leave out an empty ``unapplied_by``, so the JSON shape stays as it was.

        A single provider's record (nearly every one) has none.
        """
        data = handler(self)
        if not self.unapplied_by and isinstance(data, dict):
            data.pop("unapplied_by", None)
        return data


class SearchResponse(_Frozen):
    """What one provider returned, plus our provenance (``attempts``, ``cached``)."""

    provider: str
    answer: str | None = None
    sources: tuple[SearchSource, ...] = ()
    citations: tuple[SearchCitation, ...] = ()
    related_questions: tuple[str, ...] = ()
    search_queries: tuple[str, ...] = ()
    usage: SearchUsage | None = None
    model: str | None = None
    request_id: str | None = None
    auth_mode: str | None = None
    attempts: tuple[Attempt, ...] = ()
    cached: bool = False
    """Served from the result cache; no provider was asked."""
    stale: bool = False
    """A cached answer past its TTL, served because every provider failed."""
    partial: bool = False
    """Some upstream engines did not answer; ``notes`` names them (never cached)."""
    notes: tuple[str, ...] = ()
    """What the caller should know about this answer (which upstream engines failed).
    Structured data only: the model text keeps the spec's layout."""
    notes_left_out: int = Field(default=0, ge=0, exclude=True)
    """How many notes the core left out to keep :data:`~websearch_core.note_bound.MAX_NOTES`;
    when not 0, the last of ``notes`` is the core's count saying it. Kept here so the count
    is never read back from a note's text (a provider's note may read like it). Left out
    of every dump, so ``--json`` and the details keep their shape (the count said by the
    last note); the result cache writes it into its rows itself
    (:func:`~websearch_core.cache.dump_response`). A wrap serializer choosing per dump
    doubled the cost of every response's dump (10 sources: ~7 -> ~14 us)."""
    related_questions_left_out: int = Field(default=0, ge=0, exclude=True)
    """Related questions the core left out to keep :data:`~websearch_core.sanitize.
    MAX_LIST_ITEMS`: the spec's ``## Related`` count is the provider's, so the text says
    ``len(related_questions)`` plus this. Left out of every dump, as
    :attr:`notes_left_out` is (``--json`` keeps its shape); the cache stores it itself."""
    search_queries_left_out: int = Field(default=0, ge=0, exclude=True)
    """Search queries the core left out to keep :data:`~websearch_core.sanitize.
    MAX_LIST_ITEMS`: the spec's ``Search queries: <n>`` is how many the provider ran, so the
    text says ``len(search_queries)`` plus this (25, where 20 are kept and 3 shown)."""
    filters: tuple[AppliedFilter, ...] = ()
    """Each filter asked for (query directives and parameters merged) and how it was
    applied; empty when the search had none."""

    def has_renderable_content(self) -> bool:
        """Whether a model would see anything: the spec's renderability test.

        Blank is judged as the spec's JavaScript ``trim()`` judges it (:func:`~websearch_core.
        js_trim.is_blank`): ``str.strip`` keeps U+FEFF, so a lone BOM passed for an answer.
        """
        return bool(
            (self.answer and not is_blank(self.answer))
            or self.sources
            or self.citations
            or any(not is_blank(q) for q in self.related_questions)
            or any(not is_blank(q) for q in self.search_queries)
        )


class ProviderFailure(_Frozen):
    """One provider's part of a failed search: its id and the text its turn ended with.

    The spec's failure message joins these into one line (``All web search providers
    failed: id: text; id: text``); kept apart as well, a program (or the command's
    ``--json``) reads what each provider said without cutting that line apart again.
    """

    provider: str
    error: str
    """The provider's text as the message has it (already free of secrets), with its own
    full stop."""


class SearchToolResult(_Frozen):
    """What a tool hands back: the text for the model and the structured details.

    On failure ``text`` starts with ``Error:``, ``error`` holds the message and
    ``response.provider`` is the last provider tried (or ``"none"``).
    """

    text: str
    response: SearchResponse
    error: str | None = None
    failures: tuple[ProviderFailure, ...] = ()
    """On failure, each provider that failed or was passed over and what it said, in the
    message's order; empty on success and when no provider was configured. Not part of
    :meth:`to_metadata`, whose shape is the spec's ``details``."""

    @property
    def is_error(self) -> bool:
        """True when every provider failed or none was configured."""
        return self.error is not None

    def __str__(self) -> str:
        """The text for the model, what ``print(result)`` and a framework's ``str()`` show.

        A tool made of ``ws.run`` itself (LlamaIndex's ``FunctionTool.from_defaults(
        async_fn=ws.run)``, which gives the model ``str()`` of what its function returns)
        handed the model pydantic's field listing, ``text='[1] ...' response=...``
        (its newlines escaped, every source's fields repeated), and ``print(result)`` showed
        the same. ``repr`` still lists the fields.
        """
        return self.text

    def to_metadata(self) -> dict[str, Any]:
        """The structured details as plain JSON-compatible data."""
        data: dict[str, Any] = {"response": self.response.model_dump(mode="json")}
        if self.error is not None:
            data["error"] = self.error
        return data


def search_parameter_note(name: str) -> str | None:
    """What to say of a search parameter written as a setting (``limit = 5``), or ``None``.

    A first-time user who wanted fewer results every time wrote ``limit = 5`` in the
    config file (``not a setting``) or ``WEBSEARCH_LIMIT=5`` (``sets nothing``), and was
    not told that a limit is given with each search.

    Example:
        >>> search_parameter_note("limit")[:52]
        'limit is a search parameter, given with each search:'
        >>> search_parameter_note("timeout_seconds") is None
        True
    """
    from .param_names import OTHER_API_NAMES
    from .search_flags import SEARCH_FLAGS

    name = name.strip().lower()
    meant = OTHER_API_NAMES.get(name, name)  # WebSearch(count=5): said alone before
    if meant == "provider" or meant not in SearchParams.model_fields:  # a setting too
        return None
    named = f"{meant} is" if meant == name else f"{name} means {meant} here,"
    # The option itself, as the README promises (`--limit`): "its option on the command
    # line (websearch --help)" left the user to find it. A parameter the command has no
    # option for (max_tokens) is given from Python only.
    flag = SEARCH_FLAGS.get(meant)
    on_the_command_line = f", or {flag} on the command line" if flag else ""
    return (
        f"{named} a search parameter, given with each search: run(..., {meant}=...)"
        f"{on_the_command_line}"
    )
