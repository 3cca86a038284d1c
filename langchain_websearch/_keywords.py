"""The keywords the LangChain classes take, typed for mypy: LangChain's and ``WebSearch``'s.

``BaseTool.__init__`` and ``BaseRetriever.__init__`` take ``**kwargs: Any``, so mypy passed
``WebSearchTool(deadline_second=3)`` or ``WebFetchTool(deadline_seconds="soon")``; only
building the object found them. Each class declares a typed ``__init__`` for type checkers
alone (:class:`ToolKeywords`, :class:`FetchToolKeywords`, :class:`RetrieverKeywords`); at
run time pydantic's own stays, so validation, the fields and the args schema the model sees
are unchanged. Imported by type checkers (and tests) only: it loads the client's types.
"""

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

import aiohttp
from langchain_core.callbacks import Callbacks
from langchain_core.tools import ToolException
from langchain_core.tools.base import ArgsSchema
from pydantic import SecretStr, ValidationError
from pydantic.v1 import ValidationError as ValidationErrorV1

from websearch_core.browser import HeadlessBrowser
from websearch_core.client import WebSearch
from websearch_core.credentials import TokenRefresher
from websearch_core.models import Recency
from websearch_core.settings import Settings, SettingsOverrides

__all__ = ["FetchToolKeywords", "RetrieverKeywords", "ToolKeywords"]


class ClientKeywords(SettingsOverrides, total=False):
    """``WebSearch``'s keywords and ``web_search``: what every class here takes for its client.

    ``WebSearchOptions`` but for ``settings``, which the classes also read as a mapping of
    settings (a field of the model); its other keys are typed as ``WebSearch`` types them
    (a test keeps them equal).
    """

    settings: Settings | Mapping[str, Any] | None
    api_keys: Mapping[str, str | SecretStr] | None
    session: aiohttp.ClientSession | None
    browser: HeadlessBrowser | None
    oauth_refreshers: Mapping[str, TokenRefresher] | None
    web_search: WebSearch | None


class RetrieverKeywords(ClientKeywords, total=False):
    """``WebSearchRetriever``'s: the client's, its own fields, and ``BaseRetriever``'s."""

    k: int
    include_answer: bool
    include_content: bool
    recency: Recency | None
    name: str | None
    tags: list[str] | None
    metadata: dict[str, Any] | None


class ToolKeywords(ClientKeywords, total=False):
    """``WebSearchTool``'s: the client's keywords and the ``BaseTool`` fields a caller sets."""

    name: str
    description: str
    args_schema: ArgsSchema | None
    return_direct: bool
    verbose: bool
    callbacks: Callbacks
    tags: list[str] | None
    metadata: dict[str, Any] | None
    handle_tool_error: (
        bool | str | Callable[[ToolException], str | Sequence[str | dict[str, Any]]] | None
    )
    handle_validation_error: (
        bool | str | Callable[[ValidationError | ValidationErrorV1], str] | None
    )
    response_format: Literal["content", "content_and_artifact"]
    extras: dict[str, Any] | None


class FetchToolKeywords(ToolKeywords, total=False):
    """``WebFetchTool``'s: ``WebSearchTool``'s and whether private addresses are fetched."""

    allow_private_addresses: bool | None
