"""A word under a query name nothing reads is a key: letters alone, 4 characters and up.

Stop 53 took a value in the SearXNG endpoint's query for a key under any name when it
was 8-15 letters and digits, both in it; a key of letters alone (``?t=abcdefgh``) or under
8 characters (``?gw=Qx7w``) under a name no list knows was quoted whole in the error, the
tool's text and the log. SearXNG reads only its own parameters, so a name it does not
know is a gateway's, and what a gateway reads is its key (``query_secrets``). Driven on
the loopback simulator, read with the walk of ``_leaks.reachable_texts`` and every DEBUG
record: ``test_secret_short_keys`` drives these words with its short keys (one test, both
sets); here, what is not a key and where such a word stays.
"""

import logging

import pytest

from tests.conformance._leaks import library_logs, reachable_texts
from tests.conformance._quoting_provider import json_fault
from tests.conftest import read_capture
from websearch_core import AllProvidersFailedError, WebSearch
from websearch_core.query_secrets import query_secrets
from websearch_core.testing import Fault, Simulator


def test_guard_settings_switches_and_numbers_stay_ordinary() -> None:
    """A guard: SearXNG's own parameters, a switch and a number under any name, and
    values under 4 characters are no secrets (a word there is the setting's)."""
    url = (
        "https://searx.example/?theme=simple&engines=google&categories=general"
        "&language=en&autocomplete=duckduckgo&debug=true&output=json&page=20240601&v=abc"
    )
    assert query_secrets(url) == ()


CAPTURE = "searxng/search_format_json_espresso_2026.json"
"""A real SearXNG answer (espresso grind sizes): ``coffee`` and ``grind`` are its words."""


async def _answer(endpoint_query: str) -> tuple[str, str]:
    """The tool's text and the raising search's sources for the capture, served with 200."""
    body = read_capture(CAPTURE).decode()
    async with Simulator(["searxng"]) as sim:
        served = Fault.http(200, body=body, headers={"Content-Type": "application/json"})
        sim["searxng"].always(served)
        endpoint = f"{sim['searxng'].base_url}/{endpoint_query}"
        settings = sim.settings(rate_limit_wait_seconds=0, searxng={"endpoint": endpoint})
        async with WebSearch(settings) as ws:
            result = await ws.run("espresso grind", provider="searxng")
            response = await ws.search("espresso grind", provider="searxng", use_cache=False)
    assert result.error is None
    sources = [(source.title, source.url, source.snippet) for source in response.sources]
    return result.text, repr(sources)


@pytest.mark.parametrize("word", ["coffee", "grind"])
async def test_a_word_under_an_unread_name_stays_in_a_successful_answer(word: str) -> None:
    """The answer and its sources read as they do with no such parameter.

    Failed before: 2 of 2 (each ``coffee``, each ``grind`` of the answer was ``***``).
    """
    plain = await _answer("")
    gated = await _answer(f"?gw={word}")
    assert word in plain[0].lower() and word in plain[1].lower()
    assert gated == plain


@pytest.mark.parametrize(("name", "word"), [("theme", "coffee"), ("autocomplete", "grind")])
async def test_guard_a_closed_settings_word_stays_in_a_successful_answer(
    name: str, word: str
) -> None:
    """A guard: a word no backend is (a key there), or a theme's word (its pair and quote),
    is masked on the failure path only; the answer's ``coffee`` and ``grind`` stay (passed
    on main, where the word was the setting's; ``theme`` was closed from keys59 to keys60)."""
    plain = await _answer("")
    assert await _answer(f"?{name}={word}") == plain


@pytest.mark.parametrize("name", ["language", "theme"])
@pytest.mark.parametrize("secret", ["Qx7w", "abcdefgh"])
async def test_guard_a_configured_key_under_a_setting_name_never_shows(
    name: str, secret: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A guard: SearXNG's token, written again under a name SearXNG reads, never shows.

    A value under a setting's name is read by its shape only (``Qx7w`` is no key's
    shape); a configured key of 4+ characters is masked wherever it shows whole
    (stop 53), so the URL adds nothing to hide. Passed on main (4 of 4). Unconfigured, such
    a value is the setting's: SearXNG reads it as its language or theme.
    """
    caplog.set_level(logging.DEBUG)
    async with Simulator(["searxng"]) as sim:
        origin = sim["searxng"].base_url
        sim["searxng"].always(json_fault(500, f"refused GET /search?{name}={secret}&q=x"))
        searxng = {"endpoint": f"{origin}/?{name}={secret}", "token": secret}
        settings = sim.settings(rate_limit_wait_seconds=0, searxng=searxng)
        async with WebSearch(settings) as ws:
            result = await ws.run("python asyncio", provider="searxng")
            with pytest.raises(AllProvidersFailedError) as caught:
                await ws.search("python asyncio", provider="searxng", use_cache=False)
    seen = [result.text, repr(result), *reachable_texts(caught.value)]
    assert "refused get /search?" in seen[0].lower()
    everything = "\n".join([*seen, *library_logs(caplog.records)])
    assert secret.lower() not in everything.lower()


READ_NAMES = (
    "language",
    "format",
    "pageno",
    "time_range",
    "safesearch",
    "engines",
    "theme",
    "categories",
)
"""Names SearXNG reads, the first five of them the engine sends too (``format`` always)."""


@pytest.mark.parametrize("secret", ["Qx7w", "Kp9vTq"])
@pytest.mark.parametrize("name", READ_NAMES)
async def test_a_key_under_a_name_searxng_reads_never_shows_in_a_failure(
    name: str, secret: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A key written only in the endpoint, under a setting's name, of no value it takes.

    ``?language=Qx7w`` is no language tag, ``?format=Kp9vTq`` no format SearXNG writes:
    not the setting's, so a gateway's key, masked where a refused request is quoted.
    """
    caplog.set_level(logging.DEBUG)
    async with Simulator(["searxng"]) as sim:
        origin = sim["searxng"].base_url
        sim["searxng"].always(json_fault(500, f"refused GET /search?{name}={secret}&q=x"))
        searxng = {"endpoint": f"{origin}/?{name}={secret}"}
        settings = sim.settings(rate_limit_wait_seconds=0, searxng=searxng)
        async with WebSearch(settings) as ws:
            result = await ws.run("python asyncio", provider="searxng")
            with pytest.raises(AllProvidersFailedError) as caught:
                await ws.search("python asyncio", provider="searxng", use_cache=False)
        assert sim["searxng"].requests[0].query[0] == (name, secret), "the key is sent"
    seen = [result.text, repr(result), *reachable_texts(caught.value)]
    assert f"refused get /search?{name}=" in seen[0].lower()
    everything = "\n".join([*seen, *library_logs(caplog.records)])
    assert secret.lower() not in everything.lower()


def test_guard_each_settings_own_values_stay_ordinary() -> None:
    """A guard: a value each setting takes is that setting's, under SearXNG's names and a
    base URL's (passed on main: every setting's value was ordinary then)."""
    url = (
        "https://searx.example/?language=en-US&format=json&pageno=2&time_range=month"
        "&safesearch=1&engines=bing%20images,360search&categories=social%20media&theme=simple"
        "&image_proxy=True&autocomplete=duckduckgo&api-version=2024-05-01-preview"
        "&locale=en_GB&country=deu&region=us-east-1"
    )
    assert query_secrets(url) == ()


SETTING_WORDS = {
    "theme": "abcdefghij",
    "engines": "hunterxyzw",
    "categories": "abcdefghij",
    "autocomplete": "hunterxyzw",
    "model": "Qx7w",
    "deployment": "Kp9vTq",
    "tenant": "abcdefgh",
    "enabled_plugins": "Qx7w",
}
"""A key written under a setting's name, of a shape that setting takes: a lower-case word
under SearXNG's ``engines``, ``categories``, ``theme`` (keys57's data reads each as that
setting's), any word under a setting whose values are free; under ``autocomplete``, whose
every value is documented, such a word is no value of its since keys59 (``theme`` was
closed too from keys59 to keys60, which opened it: an instance adds themes)."""


async def _failure_quoting(
    endpoint_query: str, message: str, caplog: pytest.LogCaptureFixture
) -> tuple[str, str]:
    """The tool's text, and everything the failure and the DEBUG records show, for a
    SearXNG endpoint written with ``endpoint_query`` whose gateway fails quoting ``message``."""
    caplog.set_level(logging.DEBUG)
    async with Simulator(["searxng"]) as sim:
        origin = sim["searxng"].base_url
        sim["searxng"].always(json_fault(500, message))
        settings = sim.settings(
            rate_limit_wait_seconds=0, searxng={"endpoint": f"{origin}/{endpoint_query}"}
        )
        async with WebSearch(settings) as ws:
            result = await ws.run("python asyncio", provider="searxng")
            with pytest.raises(AllProvidersFailedError) as caught:
                await ws.search("python asyncio", provider="searxng", use_cache=False)
    seen = [result.text, repr(result), *reachable_texts(caught.value)]
    return result.text, "\n".join([*seen, *library_logs(caplog.records)])


QUOTES = {
    "query": "refused GET /search?{name}={secret}&q=x",
    "json": 'refused {{"params": {{"{name}": "{secret}", "q": "x"}}}}',
}
"""A refused request quoted as its request line, and as its parameters in JSON."""


@pytest.mark.parametrize("quote", sorted(QUOTES))
@pytest.mark.parametrize(("name", "secret"), sorted(SETTING_WORDS.items()))
async def test_a_settings_word_in_a_quoted_request_never_shows(
    name: str, secret: str, quote: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A word under a setting's name, quoted with its name by a refusing gateway, is masked.

    Nothing in ``abcdefghij`` tells it from a theme, nor ``Qx7w`` from a model's name;
    after its name in a quoted request it is the URL's, and a key the user wrote there.
    Failed before: 16 of 16 (the word shown in the error, the tool's text and the log).
    """
    message = QUOTES[quote].format(name=name, secret=secret)
    text, everything = await _failure_quoting(f"?{name}={secret}", message, caplog)
    assert text.lower().count("refused") == 1 and "q" in text.partition("refused")[2]
    assert secret.lower() not in everything.lower()


async def test_guard_a_settings_word_alone_stays_in_a_failure(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A guard: the same word alone (an engine named as it failed) stays shown.

    ``?engines=hunterxyzw`` names an engine too, and the unanswered engines' line and
    SearXNG's errors name it; only the pair with its name is masked. Passed on main.
    """
    text, _ = await _failure_quoting("?engines=hunterxyzw", "engine hunterxyzw timed out", caplog)
    assert "engine hunterxyzw timed out" in text


CLOSED_WORDS = {"autocomplete": "hunterxyzw"}
"""A key under a setting whose every value is documented (SearXNG's autocomplete
backends): of no documented value, so no value the setting takes. Not ``theme`` since
keys60: a fork's theme is shown alone (test_secret_setting_forms)."""
ALONE_QUOTES = {
    "alone": "unknown value {secret} refused",
    "yaml": "refused:\n  {name}: {secret}\n  q: x",
    "python": "refused {{'{name}': '{secret}', 'q': 'x'}}",
    "spaced": "refused {name} = {secret}; q = x",
}
"""A gateway quoting the word alone, and its pair as YAML, a Python ``repr`` and
``name = value``."""


@pytest.mark.parametrize("quote", sorted(ALONE_QUOTES))
@pytest.mark.parametrize(("name", "secret"), sorted(CLOSED_WORDS.items()))
async def test_a_word_no_documented_value_never_shows_in_a_failure(
    name: str, secret: str, quote: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A word under ``autocomplete`` that the setting's documents never name is a key,
    masked however a refusing gateway quotes it, alone included.

    Failed before (keys59, with ``theme`` then): 8 of 8 (``abcdefghij`` fitted the
    theme's shape, so only the pair ``theme=abcdefghij`` and its JSON member were
    masked).
    """
    message = ALONE_QUOTES[quote].format(name=name, secret=secret)
    text, everything = await _failure_quoting(f"?{name}={secret}", message, caplog)
    assert text.lower().count("refused") == 1
    assert secret.lower() not in everything.lower()


PAIR_QUOTES = {
    "yaml": "refused:\n  {name}: {secret}\n  q: x",
    "python": "refused {{'{name}': '{secret}', 'q': 'x'}}",
    "spaced": "refused {name} = {secret}; q = x",
    "logfmt": 'refused {name}="{secret}" q="x"',
}
"""A refused request's parameters quoted in the forms logs write pairs in, besides
``name=value`` and JSON (``QUOTES``)."""
FREE_WORDS = {name: word for name, word in SETTING_WORDS.items() if name not in CLOSED_WORDS}
"""The words of settings whose values are free or open (engines, categories, a model)."""


@pytest.mark.parametrize("quote", sorted(PAIR_QUOTES))
@pytest.mark.parametrize(("name", "secret"), sorted(FREE_WORDS.items()))
async def test_a_settings_word_in_any_quoted_pair_never_shows(
    name: str, secret: str, quote: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A free setting's word after its name, as YAML, a ``repr``, ``name = value`` or
    logfmt writes the pair, is masked as the request line's pair is.

    Failed before: 22 of 24 (only ``name=value`` and the JSON member were masked); the
    logfmt quotes of ``engines`` and ``categories`` passed there, their ``"hunterxyzw"``
    and ``"abcdefghij"`` being 12 characters in a row of the JSON member's (a run).
    """
    message = PAIR_QUOTES[quote].format(name=name, secret=secret)
    text, everything = await _failure_quoting(f"?{name}={secret}", message, caplog)
    assert text.lower().count("refused") == 1
    assert secret.lower() not in everything.lower()


DOCUMENTED = {
    "theme": "simple",
    "autocomplete": "duckduckgo",
    "categories": "general",
    "engines": "google",
    "time_range": "month",
}
"""A value each setting's documents name: no key, whoever quotes it."""


@pytest.mark.parametrize("quote", sorted(QUOTES))
@pytest.mark.parametrize(("name", "value"), sorted(DOCUMENTED.items()))
async def test_a_documented_settings_value_stays_in_a_failure(
    name: str, value: str, quote: str, caplog: pytest.LogCaptureFixture
) -> None:
    """``?theme=simple`` quoted by a refusing gateway reads ``theme=simple``: the value is
    the setting's documented one, so masking it hides nothing and costs the reader.

    Failed before: 10 of 10 (``theme=***``; every word under a setting's name was taken
    with its name).
    """
    message = QUOTES[quote].format(name=name, secret=value)
    text, _ = await _failure_quoting(f"?{name}={value}", message, caplog)
    assert "refused" in text and value in text.partition("refused")[2]
    assert "***" not in text


@pytest.mark.parametrize(
    ("endpoint_query", "message"),
    [
        ("?engines=hunterxyzw", 'refused {"engines":"bing","q":"x"}'),
        ("?tenant=abcdefgh", 'refused {"tenant":"contoso","q":"x"}'),
    ],
)
async def test_a_settings_name_with_another_value_stays_in_a_failure(
    endpoint_query: str, message: str, caplog: pytest.LogCaptureFixture
) -> None:
    """The setting's name quoted with a value that is not the URL's stays whole.

    Failed before: 2 of 2 (``{***bing"``: the pair ``"engines":"hunterxyzw"``, 16
    characters and more, was read as a token, and its first 8, ``"engines``, masked
    wherever a failure quoted that setting).
    """
    text, _ = await _failure_quoting(endpoint_query, message, caplog)
    value = message.split(":")[1].split(",")[0].strip('"')
    assert value in text and "***" not in text
