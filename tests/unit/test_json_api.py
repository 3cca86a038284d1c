"""The helpers the JSON API provider modules share (``providers/_json_api.py``)."""

import pytest

from websearch_core.errors import (
    AuthorizationError,
    ConfigurationError,
    ProviderUnavailableError,
    QuotaExhaustedError,
    RateLimitedError,
    SearchProviderError,
)
from websearch_core.filters import FilterSupport
from websearch_core.providers._json_api import (
    COUNT_FIELDS,
    error_for_status,
    first_env,
    honours,
    url_override,
)
from websearch_core.transport import HttpResponse

OK_BODY = HttpResponse(status=200, body=b'{"code": 401, "message": "bad key"}')


def test_honours_is_the_count_fields_every_native_filter_and_the_extras() -> None:
    filters = FilterSupport(
        native=frozenset({"recency", "country"}), query=frozenset({"include_domains"})
    )
    assert honours(filters, "max_tokens") == COUNT_FIELDS | {"recency", "country", "max_tokens"}
    # A query-syntax filter is written into the query, not sent as a field of its own.
    assert "include_domains" not in honours(filters)


@pytest.mark.parametrize(
    ("status", "error_class"),
    [
        (401, AuthorizationError),
        (403, AuthorizationError),
        (402, QuotaExhaustedError),
        (429, RateLimitedError),
        (503, ProviderUnavailableError),
    ],
)
def test_a_status_named_in_a_2xx_body_is_typed_as_that_status(
    status: int, error_class: type[SearchProviderError]
) -> None:
    error = error_for_status("jina", status, OK_BODY, "Jina API response reported failure")
    assert type(error) is error_class
    assert error.status == status
    assert error.provider == "jina"


def test_an_unclassified_status_keeps_the_provider_message() -> None:
    error = error_for_status("kagi", 404, OK_BODY, "Kagi API error (404): gone")
    assert type(error) is SearchProviderError
    assert (error.status, error.message) == (404, "Kagi API error (404): gone")


def test_a_named_429_reads_the_wait_from_the_response_headers() -> None:
    response = HttpResponse(status=200, body=b"{}", headers={"Retry-After": "7"})
    error = error_for_status("jina", 429, response, "Jina API response reported failure (429)")
    assert isinstance(error, RateLimitedError)
    assert error.retry_after == 7.0


def test_first_env_skips_blank_values_and_keeps_precedence() -> None:
    env = {"A": "  ", "B": " http://b ", "C": "http://c"}
    assert first_env(env.get, ("A", "B", "C")) == "http://b"
    assert first_env(env.get, ("A", "D")) is None


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("ftp://host/x", "Invalid Foo URL: expected an HTTP or HTTPS URL"),
        ("https:///nohost", "Invalid Foo URL: expected an HTTP or HTTPS URL"),
        ("https://user:pw@host/x", "Invalid Foo URL: URL credentials are not allowed"),
        # A token with an unencoded '/' ends the host early: 'tok' would be the host.
        ("https://tok/en0123456789@host/x", "Invalid Foo URL: URL credentials are not allowed"),
    ],
)
def test_a_bad_url_override_is_refused_with_its_name(value: str, message: str) -> None:
    with pytest.raises(ConfigurationError) as raised:
        url_override(value, "Foo URL")
    assert str(raised.value) == message


def test_a_good_url_override_is_returned_as_given() -> None:
    assert url_override("https://h.example:8443/v1?x=1", "Foo URL") == (
        "https://h.example:8443/v1?x=1"
    )
