"""Secret shapes the redactor must know, and ordinary text it must leave alone.

* A bare token as a URL's userinfo (``http://TOKEN@host``) goes out as
  ``Basic base64("TOKEN:")``; a short user name there (``http://user@host``) is no secret,
  while a password next to it (``http://user:pw@host``) is, in every shape.
* A key with ``/``, ``+``, ``:`` (base64-style, ``id:secret``) is matched by prefix when an
  upstream echoes it cut short, as any other key of 16+ characters is; a URL, a value with
  whitespace (a passphrase) and a ``name=value`` cookie header are not, since their first
  characters are ordinary text.
* The transport scrubs every secret the credentials have handed out when it builds the
  text, not only those known when it was made.
"""

import base64
from typing import cast

import aiohttp
import pytest

from websearch_core import redaction
from websearch_core.credentials import Credentials
from websearch_core.redaction import Redactor, masked_password, proxy_secrets, userinfo_secrets
from websearch_core.transport import Transport

B64_KEY = "ab12cd34/ef56gh78+ij90kl=="


def test_bare_token_userinfo_covers_the_basic_header_aiohttp_sends() -> None:
    token = "TOKENCANARY0123456789"
    secrets = userinfo_secrets(f"http://{token}@gateway.example/v1")
    sent = base64.b64encode(f"{token}:".encode()).decode()
    redactor = Redactor(secrets)
    assert redactor(f"Authorization: Basic {sent}") == "Authorization: Basic ***"
    assert redactor(f"token {token}") == "token ***"


@pytest.mark.parametrize(
    "url", ["http://user@gateway.example/v1", "http://admin:@gateway.example", "https://bob@h"]
)
def test_a_user_name_alone_in_a_url_is_not_masked_in_text(url: str) -> None:
    assert userinfo_secrets(url) == ()
    text = "user guide: how an admin adds bob as a user"
    assert Redactor(userinfo_secrets(url))(text) == text


def test_a_proxy_url_with_a_user_name_alone_stays_masked_as_a_url() -> None:
    redactor = Redactor(proxy_secrets("http://user@proxy.example:3128"))
    shown = redactor("via http://user@proxy.example:3128 for user guide")
    assert shown == "via *** for user guide"


def test_a_password_beside_a_user_name_is_masked_in_every_shape() -> None:
    password = "PASSCANARY0123456789"
    redactor = Redactor(userinfo_secrets(f"http://user:{password}@gateway.example"))
    basic = base64.b64encode(f"user:{password}".encode()).decode()
    for echo in (password, password.lower(), basic, f"user:{password}", f"{password[:10]}..."):
        assert password[:8].lower() not in redactor(f"saw {echo}").lower(), echo
    assert redactor("the user guide") == "the user guide"


@pytest.mark.parametrize(
    ("key", "echo"),
    [
        (B64_KEY, "key ab12cd34/ef... not found"),
        (B64_KEY, "key ab12cd34... not found"),
        ("keyid42:s3cr3tvalue0123456789", "credential keyid42:s3c... rejected"),
        ("sk-LEAK:with/both+chars0123", "key sk-LEAK:wi... rejected"),
    ],
)
def test_keys_with_slash_or_colon_are_masked_when_echoed_truncated(key: str, echo: str) -> None:
    masked = Redactor([key])(echo)
    assert key[:8] not in masked
    assert "***" in masked


@pytest.mark.parametrize(
    ("secret", "innocent"),
    [
        ("correct horse battery staple", "the correct horse is brown"),
        (
            "__Secure-next-auth.session-token=abcdEFGH12345678",
            "set __Secure-next-auth.callback-url with the __Secure- prefix",
        ),
        ("https://user:pw0123456789@gateway.example", "see https://user:pa.example"),
        ("Bearer abcdefgh0123456789", "a Bearer abc token"),
    ],
)
def test_text_sharing_only_a_structured_secret_s_first_characters_is_kept(
    secret: str, innocent: str
) -> None:
    assert Redactor([secret])(innocent) == innocent


def test_a_short_key_is_still_not_matched_by_prefix() -> None:
    assert Redactor(["short/key:0123"])("short/ke is a path") == "short/ke is a path"


def test_cookie_secrets_are_the_header_and_its_token_values() -> None:
    header = "__Secure-next-auth.session-token=abcd1234; theme=dark; cf_bm=0123456789abcdefXYZ"
    secrets = redaction.cookie_secrets(header)
    assert secrets == (header, "abcd1234", "0123456789abcdefXYZ")
    redactor = Redactor(secrets)
    assert redactor("token abcd1234 (theme=dark)") == "token *** (theme=dark)"


def test_a_sixteen_character_cookie_value_under_any_name_is_a_secret() -> None:
    # 16 characters is where an unnamed value becomes a token (a Cloudflare cookie's).
    header = "cf_bm=0123456789abcdef; lang=zyxwvutsrqponml"
    redactor = Redactor(redaction.cookie_secrets(header))
    assert redactor("echo 0123456789abcdef") == "echo ***"
    assert redactor("only zyxwvutsrqponml") == "only zyxwvutsrqponml"


def test_a_url_with_userinfo_read_from_the_environment_is_a_secret() -> None:
    credentials = Credentials(environ={"ANTHROPIC_BASE_URL": "https://gw:PWCANARY0123@gw.ex"})
    assert credentials.env("ANTHROPIC_BASE_URL") == "https://gw:PWCANARY0123@gw.ex"
    assert "PWCANARY0123" in credentials.secrets()


def test_secret_env_remembers_the_value() -> None:
    credentials = Credentials(environ={"SOME_COOKIE": " sid=COOKIECANARY0123 "})
    version = credentials.secrets_version
    assert credentials.secret_env("SOME_COOKIE") == "sid=COOKIECANARY0123"
    assert "sid=COOKIECANARY0123" in credentials.secrets()
    assert credentials.secrets_version != version


def test_transport_scrubs_a_key_handed_out_after_it_was_built() -> None:
    credentials = Credentials(environ={"LATE_KEY": "late-key-CANARY-0123456789"})
    transport = Transport(
        cast(aiohttp.ClientSession, None),
        timeout_seconds=5.0,
        max_response_bytes=1 << 20,
        credentials=credentials,
    )
    key = credentials.api_key("tavily", ("LATE_KEY",))
    assert key is not None
    failure = transport._failure("tavily", "Tavily", "https://x.example", 5.0, ValueError(key))
    assert key not in failure.message
    assert "***" in failure.message
    assert transport._carries_credentials({"X-Key": key})


def test_a_four_character_password_is_the_shortest_secret_masked() -> None:
    # A SearXNG or gateway password may be as short as four characters (``u:pw00@``);
    # three characters are ordinary text (``abc``) and stay.
    redactor = Redactor(userinfo_secrets("http://u:pw00@gateway.example"))
    assert (
        redactor("upstream said: bad password pw00 for u")
        == "upstream said: bad password *** for u"
    )
    assert Redactor(["pw0"])("pw0 stays") == "pw0 stays"


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        # An '@' after a host is no userinfo: taking the last '/ ? #' for the authority's
        # end would show this as https://***@b.
        ("https://gw.internal/@team?owner=a@b", "https://gw.internal/@team?owner=a@b"),
        # A port that is no number ('hun') is a password cut short by its '/'.
        ("https://gw:hun/ter2@gw.internal/x", "https://gw:***@gw.internal/x"),
        (
            "https://gw.internal:8080/@team?x=[::1]:ab@c",
            "https://gw.internal:8080/@team?x=[::1]:ab@c",
        ),
    ],
)
def test_a_shown_url_masks_userinfo_found_by_its_position(url: str, shown: str) -> None:
    # Settings refuse all three (an '@' only after the host: userinfo_cut_short); a
    # Transport built from base URLs of its own still shows them through masked_password.
    assert masked_password(url) == shown


INNER_KEY = "sk-live-0123456789abcdefGHIJ"


@pytest.mark.parametrize(
    "echo",
    [
        f"key {INNER_KEY[3:]} is not valid",  # the type prefix left out
        f"key ****{INNER_KEY[-12:]} is not valid",  # shown by its tail, 12 characters
        f"key ...{INNER_KEY[5:-5]}... is not valid",  # cut at both ends
        f"key {INNER_KEY[3:].upper()} is not valid",
        f"keys {INNER_KEY[2:16]} and {INNER_KEY[14:]} are not valid",
    ],
)
def test_a_run_of_a_key_from_anywhere_in_it_is_masked(echo: str) -> None:
    """Twelve or more characters of a key, not only its head, are a leak.

    Failed before the fix: only a run from the key's first character was masked, so an
    upstream that left out ``sk-`` showed the other 25 characters.
    """
    redactor = Redactor([INNER_KEY])
    masked = redactor(echo)
    assert masked.startswith("key") and masked.endswith("not valid")
    assert "***" in masked and redactor.may_hold(echo)
    for start in range(len(INNER_KEY) - redaction.RUN_LENGTH + 1):
        assert INNER_KEY[start : start + redaction.RUN_LENGTH].lower() not in masked.lower()


@pytest.mark.parametrize(
    ("secret", "innocent"),
    [
        ("sim-key-perplexity", "Perplexity API error (401) from perplexity.ai"),
        (INNER_KEY, f"key sk-...{INNER_KEY[-4:]} and 0123456789a"),
    ],
)
def test_shorter_runs_inside_a_key_are_kept(secret: str, innocent: str) -> None:
    """A guard (it passed before the fix too): a word inside a key, a provider's last-four
    hint, eleven characters of a key: none reach the run's twelve, so none is masked."""
    assert Redactor([secret])(innocent) == innocent


def test_runs_are_found_in_a_sign_in_token_of_thousands_of_characters() -> None:
    """A JWT-sized token is cut into blocks, not one pattern per starting place.

    Failed before the fix: the middle of the token was shown as it was.
    """
    token = "".join(f"{index:04x}" for index in range(600))  # 2400 characters, no repeats
    middle = token[1000:1040]
    assert Redactor([token])(f"token ...{middle}... expired") == "token ...***... expired"
