"""Reading Google's token endpoint answer to a refresh (the Gemini CLI sign-in's own).

What the simulator's ``/token`` never sends: a new refresh token, no ``expires_in``, a
2xx without an access token, a 429, a refusal with no JSON.
"""

import json
from typing import Any

import pytest

from websearch_core.credentials import OAuthToken
from websearch_core.errors import OAuthTokenError, RateLimitedError, ResponseParseError
from websearch_core.providers._gemini_signins import GEMINI_CLI_OAUTH
from websearch_core.providers._google_token import (
    refresh_request,
    refreshed_token,
    token_refresher,
)
from websearch_core.providers.gemini import INFO
from websearch_core.testing import MockTransport
from websearch_core.transport import HttpRequest, HttpResponse

OLD = OAuthToken(access_token="ya29.old", refresh_token="1//old-refresh", expires_at=1.0)
SENT_AT = 1_800_000_000.0


def _answer(status: int, body: Any) -> OAuthToken:
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    response = HttpResponse(status=status, body=raw)
    return refreshed_token(GEMINI_CLI_OAUTH, INFO, "gemini-cli", response, OLD, SENT_AT)


def test_a_new_refresh_token_replaces_the_old_one() -> None:
    token = _answer(200, {"access_token": "ya29.new", "expires_in": 3599, "refresh_token": "1//n"})
    assert (token.access_token, token.refresh_token) == ("ya29.new", "1//n")
    assert token.expires_at == SENT_AT + 3599


@pytest.mark.parametrize(
    "body",
    [
        b'{"access_token": "ya29.new"}',
        b'{"access_token": "ya29.new", "expires_in": "3599"}',
        b'{"access_token": "ya29.new", "expires_in": true}',
        b'{"access_token": "ya29.new", "expires_in": 1e999}',
    ],
    ids=["absent", "a-string", "a-boolean", "infinite"],
)
def test_an_answer_without_a_usable_lifetime_has_no_expiry(body: bytes) -> None:
    token = _answer(200, body)
    assert token.access_token == "ya29.new" and token.refresh_token == OLD.refresh_token
    assert token.expires_at is None


@pytest.mark.parametrize("body", [{}, {"access_token": "  "}, {"access_token": 5}, b"<html>"])
def test_a_2xx_without_an_access_token_is_unreadable(body: Any) -> None:
    with pytest.raises(ResponseParseError) as caught:
        _answer(200, body)
    assert caught.value.message == (
        "gemini-cli: refreshing the Gemini CLI sign-in: Google's answer holds no access token"
    )


def test_a_429_is_a_rate_limit() -> None:
    with pytest.raises(RateLimitedError):
        _answer(429, {"error": "rate_limit_exceeded"})


def test_a_refusal_without_json_names_its_status() -> None:
    with pytest.raises(OAuthTokenError) as caught:
        _answer(400, b"Bad Request")
    assert "Google refused the sign-in (status 400); sign in again" in caught.value.message


def test_a_long_description_is_cut_to_one_short_line() -> None:
    with pytest.raises(OAuthTokenError) as caught:
        _answer(400, {"error": "invalid_grant", "error_description": "x\n" * 500})
    said = caught.value.message.split("(", 1)[1].split(")", 1)[0]
    assert said.startswith("invalid_grant: x x") and len(said) <= len("invalid_grant: ") + 200
    assert "\n" not in caught.value.message


def test_the_request_is_the_refresh_grant_form() -> None:
    request = refresh_request(GEMINI_CLI_OAUTH, "1//r")
    assert (request.method, request.url) == ("POST", "https://oauth2.googleapis.com/token")
    assert dict(request.form or ()) == {
        "grant_type": "refresh_token",
        "refresh_token": "1//r",
        "client_id": GEMINI_CLI_OAUTH.client_id,
        "client_secret": GEMINI_CLI_OAUTH.client_secret,
    }
    assert "GOCSPX" not in repr(GEMINI_CLI_OAUTH) and "1//r" not in repr(request)


def _google(request: HttpRequest) -> HttpResponse:
    return HttpResponse(status=200, body=b'{"access_token": "ya29.new", "expires_in": 3599}')


@pytest.mark.parametrize(
    ("base_urls", "sent_to"),
    [
        ({"gemini": "https://gw.example/cloudcode"}, "https://oauth2.googleapis.com/token"),
        (
            {"gemini": "https://gw.example", "google_oauth": "http://127.0.0.1:9/oauth"},
            "http://127.0.0.1:9/oauth/token",
        ),
    ],
    ids=["a-gemini-gateway-is-not-asked", "its-own-override"],
)
async def test_the_refresh_goes_to_the_token_endpoint_not_the_gemini_base_url(
    base_urls: dict[str, str], sent_to: str
) -> None:
    # A gateway set for Gemini fronts Cloud Code: it serves no /token and must not be
    # handed the refresh token; only google_oauth moves the request.
    transport = MockTransport(_google, base_urls=base_urls)
    refresh = token_refresher(GEMINI_CLI_OAUTH, transport, INFO)
    token = await refresh("gemini-cli", OLD)
    assert token.access_token == "ya29.new"
    assert [request.url for request in transport.requests] == [sent_to]
    assert [call[0] for call in transport.calls] == ["gemini"]  # failures still name Gemini
