"""The one look through a request for every sign-in handed out, before the judgement.

Stop 42 judged a request bound off this machine by looking through it once per value handed
out (Perplexity's cookie header and its session token: two scans, ~2.5 us for every other
provider's request). ``SignInValues`` is built when a value is recorded and looks once; the
judgement runs only on a request it finds one in. What it may never do is miss one: these
place each value in each part of a request ``carries`` looks through, with few values (each
looked for on its own) and many (one pattern), and check the refusal still comes.
"""

from dataclasses import replace
from typing import Any

import pytest

from websearch_core import Credentials
from websearch_core.sent_secret import SentSecret
from websearch_core.sign_in_sends import carries, judged_refusal
from websearch_core.sign_in_values import SignInValues
from websearch_core.transport import HttpRequest

SESSION = "eyJhbGciOiJkaXIi.session-cookie-token-0123456789"
COOKIES = f"__Secure-next-auth.session-token={SESSION}; theme=dark"
FOREIGN = "https://api.search.brave.com/res/v1/web/search"
PLACES = ["url", "header", "param", "form", "json"]


def _carrying(value: str | None, place: str) -> HttpRequest:
    """A Brave-like GET (or POST for a form or JSON) holding ``value`` in ``place``."""
    held = value or "nothing-handed-out"
    url = f"{FOREIGN}?k={held}" if place == "url" else FOREIGN
    headers = {"Accept": "application/json", "X-Subscription-Token": "BSA-brave-key-012345"}
    if place == "header":
        headers["Cookie"] = f"a=b; {held}"
    params = [("q", "python asyncio"), ("count", "10")]
    if place == "param":
        params.append(("session", held))
    form = [("grant", "x"), ("token", held)] if place == "form" else None
    body: Any = {"messages": [{"text": f"see {held}"}], "n": 3} if place == "json" else None
    method = "GET" if form is None and body is None else "POST"
    return HttpRequest(method=method, url=url, params=params, headers=headers, form=form, json=body)


def _handed_out(count: int) -> tuple[Credentials, list[str]]:
    """Credentials that handed out Perplexity's cookie header, its token and ``count - 2``
    plugin-like values, as the cookie hand-out records them."""
    credentials = Credentials(environ={})
    given = SentSecret(COOKIES, "Perplexity cookie header", "in PERPLEXITY_COOKIES", "remove")
    credentials.hand_out_sign_in(given, "perplexity")
    token = replace(given, value=SESSION, what="session token of the Perplexity cookie header")
    credentials.hand_out_sign_in(token, "perplexity")
    values = [COOKIES, SESSION]
    for number in range(count - 2):
        value = f"plugin-session-value-{number:02d}-abcdef"
        credentials.hand_out_sign_in(replace(given, value=value), "perplexity")
        values.append(value)
    return credentials, values


def _judged(credentials: Credentials, request: HttpRequest) -> str | None:
    return judged_refusal(request, request.url, credentials, "brave", "Brave", None, (), {})


@pytest.mark.parametrize("count", [2, 7], ids=["few-each-alone", "many-one-pattern"])
@pytest.mark.parametrize("place", PLACES)
def test_guard_a_value_anywhere_in_the_request_is_still_refused(count: int, place: str) -> None:
    """Guard (passes before and after): the refusals the look must never skip."""
    credentials, values = _handed_out(count)
    for value in values:
        request = _carrying(value, place)
        refused = _judged(credentials, request)
        assert refused is not None and refused.startswith("Refusing to send the ")
        assert "in PERPLEXITY_COOKIES to https://api.search.brave.com" in refused
        assert value not in refused and SESSION not in refused


@pytest.mark.parametrize("count", [2, 7], ids=["few-each-alone", "many-one-pattern"])
@pytest.mark.parametrize("place", PLACES)
def test_a_request_carrying_none_is_let_through_by_the_one_look(count: int, place: str) -> None:
    credentials, values = _handed_out(count)
    request = _carrying(None, place)
    assert not any(carries(request, value) for value in values)
    assert not credentials.sign_in_values.may_be_in(request)
    assert _judged(credentials, request) is None


@pytest.mark.parametrize("count", [2, 7], ids=["few-each-alone", "many-one-pattern"])
@pytest.mark.parametrize("place", PLACES)
def test_the_look_finds_every_value_carries_finds(count: int, place: str) -> None:
    credentials, values = _handed_out(count)
    for value in values:
        request = _carrying(value, place)
        assert carries(request, value)
        assert credentials.sign_in_values.may_be_in(request)


def test_a_value_holding_another_is_looked_for_by_the_shorter() -> None:
    values = SignInValues([COOKIES, SESSION, "", "another-value-0123456789"])
    assert values.needles == ("another-value-0123456789", SESSION)
    assert not SignInValues([])


def test_the_look_follows_what_is_recorded() -> None:
    credentials = Credentials(environ={})
    assert not credentials.sign_in_values
    before = credentials.sign_in_values
    credentials.hand_out_sign_in(SentSecret(SESSION, "a session", "in X", "remove"), "perplexity")
    assert credentials.sign_in_values.needles == (SESSION,)
    kept = credentials.sign_in_values
    credentials.hand_out_sign_in(SentSecret(SESSION, "a session", "in X", "remove"), "perplexity")
    assert credentials.sign_in_values is kept  # the same value again builds nothing
    assert before is not kept


def test_guard_the_senders_own_host_still_refuses_another_entrys_sign_in() -> None:
    """Guard (passes before and after): a request to Perplexity's own host skips the look
    only when every value recorded is declared for that host; a ChatGPT sign-in is not."""
    from websearch_core.providers.codex import CodexProvider
    from websearch_core.providers.perplexity import PerplexityProvider

    assert CodexProvider.info.id == "codex" and PerplexityProvider.info.id == "perplexity"
    credentials, _ = _handed_out(2)
    own = "https://www.perplexity.ai/rest/sse/perplexity_ask"
    request = HttpRequest(method="POST", url=own, headers={"Cookie": COOKIES}, json={})
    judged = judged_refusal(request, own, credentials, "perplexity", "Perplexity", None, (), {})
    assert judged is None  # its own cookie to its own host
    chatgpt = "eyJhbGciOiJSUzI1NiJ9.chatgpt-access-token-0123456789"
    given = SentSecret(chatgpt, "OpenAI OAuth token", "in code", "remove it")
    credentials.hand_out_sign_in(given, "codex")
    request = HttpRequest(method="POST", url=own, headers={"Authorization": f"Bearer {chatgpt}"})
    refused = judged_refusal(request, own, credentials, "perplexity", "Perplexity", None, (), {})
    assert refused is not None and refused.startswith("Refusing to send the OpenAI OAuth token")
    assert chatgpt not in refused
