r"""A key an upstream echoes escaped, encoded or shown by its ends never shows either.

The audit of every failure path (``test_secret_audit``) echoes the key as sent,
URL-encoded the usual way, base64 of the key alone and JSON-escaped. Upstreams write more
forms than those into an error body: an HTML error page escapes characters as entities
(``&#115;``, ``&#x73;``, named ones such as ``&lowbar;``), a gateway percent-encodes every
byte (``%73%6B``) or only the ``-`` (``sk%2D...``), a JSON error that quotes the request
body escapes some characters as ``\u00XX``, a Basic header is base64 of ``user:key`` for
a user the library does not know (the key at any of three byte alignments), and some
providers show a key by its first and last six characters (``sk-SEN...5b41d8``). Each is
driven through the loopback simulator, then looked for, decoded, in the result's text,
the error raised (``str``, ``repr``, traceback), every DEBUG record and the CLI's output.
"""

import base64
import json
import logging
import pathlib
from collections.abc import Callable

import pytest

from tests.conformance._leaks import echo_forms_seen, failure_texts, library_logs
from tests.conformance.test_secret_audit import KEYED, _cli_environment, _websearch, sentinel
from websearch_core import AllProvidersFailedError, WebSearch
from websearch_core.providers import get_provider
from websearch_core.testing import Fault, Simulator

pytestmark = pytest.mark.usefixtures("short_gemini_backoff")

QUOTING = "zai"
"""A provider whose failure text quotes the upstream's message whole (``Z.AI API error
(500): <body>``): what the echo leaves after masking reaches the result's text too."""


def _entities(key: str, hexadecimal: bool) -> str:
    return "".join(f"&#x{ord(char):X};" if hexadecimal else f"&#{ord(char)};" for char in key)


def _named(key: str) -> str:
    """Every other character a numeric entity, ``-`` written as an escaped ``&amp;#45;``."""
    shown = [f"&#{ord(char)};" if index % 2 else char for index, char in enumerate(key)]
    return "".join("&amp;#45;" if char == "-" else char for char in shown)


def _percent(key: str) -> str:
    return "".join(f"%{byte:02X}" for byte in key.encode())


def _unicode_escaped(key: str) -> str:
    r"""Every other character as ``\u00XX``, as the raw text of a JSON string in a JSON
    string: the error quotes the request's body, so the body's escapes are escaped again."""
    return "".join(f"\\\\u{ord(char):04x}" if index % 2 else char for index, char in enumerate(key))


def _basic(user: str) -> Callable[[str], str]:
    def form(key: str) -> str:
        return "Basic " + base64.b64encode(f"{user}:{key}".encode()).decode()

    return form


def _in_longer_base64(key: str) -> str:
    """The request body, base64-encoded whole, as a gateway logs it: the key at offset 12."""
    return base64.urlsafe_b64encode(json.dumps({"api_key": key, "q": "x"}).encode()).decode()


FORMS: dict[str, Callable[[str], str]] = {
    "html_decimal": lambda key: _entities(key, hexadecimal=False),
    "html_hex": lambda key: _entities(key, hexadecimal=True),
    "html_named_and_escaped": _named,
    "percent_every_byte": _percent,
    "percent_dash_only": lambda key: key.replace("-", "%2D"),
    "json_u00_every_other": _unicode_escaped,
    # "u:" puts the key at byte 2 of a 3-byte group, "us:" at 0, "use:" at 1.
    "basic_user_u": _basic("u"),
    "basic_user_us": _basic("us"),
    "basic_user_use": _basic("use"),
    "base64_in_longer": _in_longer_base64,
    "ends_dots": lambda key: f"{key[:6]}...{key[-6:]}",
    "ends_ellipsis": lambda key: f"{key[:6]}\u2026{key[-6:]}",
    "ends_stars": lambda key: f"{key[:6]}{'*' * 20}{key[-6:]}",
}


def _page(echo: str) -> str:
    """An HTML error page, as a gateway in front of a provider answers, quoting ``echo``."""
    return f"<html><body><h1>Bad gateway</h1><p>request key: {echo}</p></body></html>"


def _json_error(echo: str) -> str:
    """A JSON error quoting the request; ``echo`` is put into the body as raw text."""
    return '{"error": {"message": "upstream rejected the request: ' + echo + '"}}'


async def _everything_seen(provider_id: str, key: str, fault: Fault, sim: Simulator) -> list[str]:
    """A tool call and a raising search against ``fault``: the text, error and repr of each."""
    sim[provider_id].always(fault)
    settings = sim.settings(rate_limit_wait_seconds=0)
    async with WebSearch(settings, api_keys={provider_id: key}) as ws:
        result = await ws.run("python asyncio", provider=provider_id)
        with pytest.raises(AllProvidersFailedError) as caught:
            await ws.search("python asyncio", provider=provider_id, use_cache=False)
    assert result.error is not None and sim[provider_id].requests
    seen = [result.text, result.response.model_dump_json(), repr(result)]
    return [*seen, str(result.error), repr(result.error), *failure_texts(caught.value)]


@pytest.mark.parametrize("form", sorted(FORMS))
async def test_each_echo_form_is_masked_in_text_error_and_logs(
    form: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Each form alone, in the body a provider whose failure text quotes it whole.

    Each failed before the fix but ``basic_user_us``, a guard case: ``us:`` puts the key
    at byte 0 of a group, where its own base64 shape (masked before) is a part.
    """
    caplog.set_level(logging.DEBUG)
    key = sentinel(QUOTING)
    echo = FORMS[form](key)
    body = _page(echo) if form.startswith("html") else _json_error(echo)
    content_type = "text/html" if form.startswith("html") else "application/json"
    async with Simulator([QUOTING]) as sim:
        fault = Fault.http(500, body=body, headers={"Content-Type": content_type})
        seen = await _everything_seen(QUOTING, key, fault, sim)
    assert "Z.AI API error (500)" in seen[0], "the failure should quote the upstream's message"
    assert echo_forms_seen(key, [*seen, *library_logs(caplog.records)]) == []


def _every_form(key: str) -> str:
    return "; ".join(f"{name}={make(key)}" for name, make in sorted(FORMS.items()))


@pytest.mark.parametrize("provider_id", KEYED)
async def test_every_form_at_once_never_shows_for_any_keyed_provider(
    provider_id: str, caplog: pytest.LogCaptureFixture
) -> None:
    """An HTML page (a 502 from a gateway) quoting the key in every form, for each provider.

    Whatever the provider quotes of it (the failure's log line at least) holds no form.
    """
    caplog.set_level(logging.DEBUG)
    key = sentinel(provider_id)
    async with Simulator([provider_id]) as sim:
        fault = Fault.http(502, body=_page(_every_form(key)), headers={"X-Echo": _percent(key)})
        seen = await _everything_seen(provider_id, key, fault, sim)
    assert echo_forms_seen(key, [*seen, *library_logs(caplog.records)]) == []


def test_the_command_line_shows_no_form_of_the_key(tmp_path: pathlib.Path) -> None:
    """``websearch -v`` in a subprocess, the key from the provider's variable, the 500
    quoting every form: neither stdout nor stderr (each attempt logged) holds one."""
    key = sentinel(QUOTING)
    with Simulator([QUOTING]).running_in_thread() as sim:
        body = _json_error(_every_form(key))
        sim[QUOTING].always(Fault.http(500, body=body, headers={"X-Echo": _percent(key)}))
        env = _cli_environment(QUOTING, tmp_path, sim[QUOTING].base_url)
        env[get_provider(QUOTING).info.env_vars[0]] = key
        seen: list[str] = []
        for arguments in (["--json", "-v"], ["-v"]):
            seen += _websearch(
                ["python asyncio", "--no-cache", "--provider", QUOTING, *arguments], env
            )
        assert sim[QUOTING].requests, "the command should have asked the provider"
    assert "(500)" in "".join(seen)
    assert echo_forms_seen(key, seen) == []
