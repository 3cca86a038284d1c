"""Keys that can be sent but can never work are refused where they are set, by one rule.

A key pasted with the quotes of a ``.env`` file, the whole ``BRAVE_API_KEY=...`` line, or
a zero-width or no-break space copied from a web page was stored (``websearch auth set``)
or taken (``[api_keys]``) as it was, and every search with it then failed as the
provider's authorization error, with nothing pointing at the cause. The same rule names
such a key met in a variable (see ``tests/functional/test_key_problems.py``).

The keys below are made up in each provider's published shape; none may be refused.
"""

import random
import re
import string
import uuid
from pathlib import Path

import pytest
from pydantic import ValidationError

from tests.conftest import read_capture
from websearch_core.credentials import CredentialStore
from websearch_core.errors import ConfigurationError
from websearch_core.sent_secret import flaw
from websearch_core.settings import Settings

WELL_FORMED = [
    "BSAq1w2e3r4t5y6u7i8o9p0aSdFgHjKlZx",  # Brave
    "tvly-dev-Q1w2E3r4T5y6U7i8O9p0",  # Tavily
    "0f8fad5b-d9cb-469f-a165-70867728950e",  # Exa: a UUID
    "Ab3dEf6h.Ij9kLm2nOp5qRs8tUv1wXy4z_-",  # Kagi
    "3f2a9c0d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39",  # Serper: hex
    "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",  # Perplexity
    "jina_0a1b2c3d4e5f6a7b8c9dQwErTyUiOpAsDfGhJkLzXcVbNm",  # Jina
    "fc-0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d",  # Firecrawl
    "xai-Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6J7k8L9z0",  # xAI
    "sk-proj-Q1w2E3r4_T5y6U7i8-O9p0A1s2D3f4G5h6J7k8",  # OpenAI
    "sk-ant-api03-Q1w2E3r4T5y6U7i8O9p0-A1s2D3f4G5h6_J7k8L9z0AA",  # Anthropic
    "sk-ant-oat01-Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6J7k8L9z0",  # Anthropic OAuth
    "AIzaSyQ1w2E3r4T5y6U7i8-O9p0A1s2D3f_4G5h",  # Google
    "0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d.Q1w2E3r4T5y6U7i8",  # Z.ai: id.secret
    "syn_0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d",  # Synthetic
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1In0.Q1w2E3r4T5y6U7i8O9p0",  # a JWT
    "QUJDREVGR0hJSktMTU5PUA==",  # base64 with padding, upper case and digits only
    "Zm9vYmFyYmF6cXV4=",  # base64, one pad
    # Guards (pass before and after): a template's words among a random key's characters.
    "sk-proj-Q1w2E3r4_xxx_T5y6U7i8-O9p0A1s2D3f4G5h6J7k8",
    "sk-ant-api03-Q1w2E3r4T5y6U7i8O9p0-A1s2D3f4G5h6_J7k8L9z0-xxx",
    "tvly-dev-Q1w2E3r4T5y6U7i8O9p0_KEY",
    "BSAQ1W2E3R4T5Y6U7I8O9P0ASDFGHJKLZX",  # upper case and digits only
]

BAD = [
    ('"BSAq1w2e3r4t5y6u7i8o9p0"', 'contains a quote mark (")'),
    ("'BSAq1w2e3r4t5y6u7i8o9p0'", "contains a quote mark (')"),
    ("\u201cBSAq1w2e3r4t5y6u7i8o9p0\u201d", "contains a quote mark (\u201c)"),
    ("BSAq1w2e3r4t5y6u7i8o9p0'", "contains a quote mark (')"),
    ("BRAVE_API_KEY=BSAq1w2e3r4t5y6u7i8o9p0", "starts with a variable's name and an equals"),
    ('BRAVE_API_KEY="BSAq1w2e3r4t5y6u7i8o9p0"', "starts with a variable's name and an equals"),
    ("export TAVILY_API_KEY=tvly-Q1w2E3r4", "starts with a variable's name and an equals"),
    ("BSAq1w2e3r4t5y6\u200bu7i8o9p0", "contains an invisible character (U+200B ZERO WIDTH SPACE)"),
    (
        "BSAq1w2e3r4t5y6\ufeffu7i8o9p0",
        "contains an invisible character (U+FEFF ZERO WIDTH NO-BREAK SPACE)",
    ),
    ("BSAq1w2e3r4t5y6\u00a0u7i8o9p0", "contains an invisible character (U+00A0 NO-BREAK SPACE)"),
    ("BSAq1w2e3r4t5y6\u2060u7i8o9p0", "contains an invisible character (U+2060 WORD JOINER)"),
    ("BSAq1w2e3r4t5y6\u00adu7i8o9p0", "contains an invisible character (U+00AD SOFT HYPHEN)"),
    ("BSAq1w2e3r4t5y6\u3164u7i8o9p0", "contains an invisible character (U+3164 HANGUL FILLER)"),
    ("BSAq1w2e3r4t5y6 u7i8o9p0", "contains a space"),
    # Look-alikes, named by kind and place only: the character is a part of the key.
    ("BSAq1w2e3r4t5y6u7i8o9p\u0430", "contains a Cyrillic letter at character 23 (API keys"),
    ("BSAq1w2e3r4t5y6u7i8\u03bf9p0", "contains a Greek letter at character 20 (API keys"),
    ("\uff22SAq1w2e3r4t5y6u7i8o9p0", "contains a fullwidth letter at character 1 (API keys"),
    ("BSAq1w2e3r4t5y6u7i8o9p0\u00e9", "contains a Latin letter beyond ASCII at character 24"),
    ("BSAq1w2e3r4t5y6u7i8o9p0\u0661", "contains a digit beyond ASCII at character 24"),
]


@pytest.mark.parametrize("key", WELL_FORMED)
def test_every_provider_key_shape_passes(key: str) -> None:
    assert flaw(key, key=True) is None


@pytest.mark.parametrize(("key", "reason"), BAD)
def test_a_key_that_can_never_work_is_named_without_its_value(key: str, reason: str) -> None:
    found = flaw(key, key=True)
    assert found is not None and found.startswith(reason)
    assert found.endswith("that would be sent as part of it")
    assert "q1w2e3r4" not in found and "Q1w2E3r4" not in found


def test_what_a_cookie_header_may_hold_is_refused_only_in_a_key() -> None:
    """Quotes, spaces, ``name=`` and letters beyond ASCII belong in a cookie header or a
    password; invisible characters do not."""
    cookies = 'session="a b"; NAME=x; lang=fr-\u00e9'
    assert flaw(cookies, key=False) is None
    assert flaw(f"{cookies}\u200b", key=False) is not None


@pytest.mark.parametrize(("key", "reason"), BAD)
def test_the_store_refuses_such_a_key(tmp_path: Path, key: str, reason: str) -> None:
    path = tmp_path / "credentials.json"
    with pytest.raises(ConfigurationError) as caught:
        CredentialStore(path).set("brave", key)
    message = str(caught.value)
    assert message.startswith(f"refusing to store an API key for brave that {reason}")
    assert message.endswith("; nothing stored")
    assert not path.exists()


@pytest.mark.parametrize(("key", "reason"), BAD)
def test_the_api_keys_setting_refuses_such_a_key(key: str, reason: str) -> None:
    with pytest.raises(ValidationError) as caught:
        Settings(api_keys={"brave": key})
    assert f"the API key {reason}" in str(caught.value)
    assert "q1w2e3r4" not in str(caught.value)


PLACEHOLDERS = [
    ("...", "it holds no letter or digit (the README writes ... for a key)"),
    ("\u2026", "it holds no letter or digit"),  # one ellipsis character, as a document has
    ("***", "it holds no letter or digit"),
    ("<your-brave-key>", "it is wrapped in angle brackets (<...>)"),
    ("<BRAVE_API_KEY>", "it is wrapped in angle brackets (<...>)"),
    ("<your key here>", "it is wrapped in angle brackets (<...>)"),  # not "contains a space"
    ('"..."', "it holds no letter or digit"),  # not "contains a quote mark"
    ("sk-...", "it holds ... where the rest of a key goes"),
    ("BSA...", "it holds ... where the rest of a key goes"),
    ("YOUR_KEY", "it holds YOUR, a word a template writes"),
    ("your-api-key", "it holds YOUR, a word a template writes"),
    ("YOUR_BRAVE_API_KEY", "it holds YOUR, a word a template writes"),
    ("xxxxxxxx", "it holds XXXXXXXX, a word a template writes"),
    ("sk-proj-XXXX-XXXX", "it holds XXXX, a word a template writes"),
    ("changeme", "it holds CHANGEME, a word a template writes"),
    ("TODO", "it holds TODO, a word a template writes"),
    ("REPLACE_ME", "it holds REPLACE, a word a template writes"),
    ("api_key_here", "it holds HERE, a word a template writes"),
    ("INSERT-KEY-HERE", "it holds INSERT, a word a template writes"),
    # Not caught before stop 46: each was stored, or read as ready, and failed on the network.
    ("xxx", "it holds XXX, a word a template writes"),
    ("sk-xxx", "it holds XXX, a word a template writes"),
    ("INSERT_KEY", "it holds INSERT, a word a template writes"),
    ("API_KEY", "it is API_KEY, a template's name for a key"),
    ("apikey", "it is apikey, a template's name for a key"),
    ("YOURKEY", "it is YOURKEY, a template's name for a key"),
    ("YourApiKeyHere", "it is YourApiKeyHere, a template's name for a key"),
    ("None", "it is None, what a program writes for no value"),
    ("null", "it is null, what a program writes for no value"),
    ("undefined", "it is undefined, what a program writes for no value"),
    ("BRAVE_API_KEY", "it is a variable's name (BRAVE_API_KEY), not the variable's value"),
    ("TAVILY_API_KEY", "it is a variable's name (TAVILY_API_KEY), not the variable's value"),
    ("$BRAVE_API_KEY", "it is a reference to the variable BRAVE_API_KEY, left as written"),
    ("${BRAVE_API_KEY}", "it is a reference to the variable BRAVE_API_KEY, left as written"),
    ("%BRAVE_API_KEY%", "it is a reference to the variable BRAVE_API_KEY, left as written"),
]
"""What a template writes where a key goes: the README's ``export BRAVE_API_KEY=...`` and
``brave = "..."``, copied as they are, made Brave ready, and its key failed only on the
network, as an authorization error the chain moved past."""


@pytest.mark.parametrize(("key", "reason"), PLACEHOLDERS)
def test_a_placeholder_is_refused_where_a_key_is_set(tmp_path: Path, key: str, reason: str) -> None:
    found = flaw(key, key=True) or ""
    # One ellipsis character is beyond ASCII, so named as a look-alike first: refused too.
    assert found.startswith(f"is a placeholder, not a key: {reason}") or (
        key == "\u2026" and found.startswith("contains a punctuation mark beyond ASCII")
    ), found
    with pytest.raises(ConfigurationError, match="refusing to store an API key for brave"):
        CredentialStore(tmp_path / "credentials.json").set("brave", key)
    with pytest.raises(ValidationError):
        Settings(api_keys={"brave": key})


@pytest.mark.parametrize(
    ("key", "reason"),
    [
        ("...", "is a placeholder, not a key"),
        ("YOUR_BRAVE_API_KEY", "is a placeholder, not a key: it holds YOUR"),
    ],
    ids=["no letter", "template word"],
)
async def test_a_placeholder_in_a_variable_makes_the_provider_misconfigured(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, key: str, reason: str
) -> None:
    from websearch_core import WebSearch

    monkeypatch.setenv("BRAVE_API_KEY", key)
    monkeypatch.setenv("WEBSEARCH_CREDENTIALS_FILE", str(tmp_path / "none.json"))
    async with WebSearch(state_backend="memory") as ws:
        rows = {row.id: row for row in await ws.provider_status()}
    assert not rows["brave"].available
    assert rows["brave"].reason.startswith(
        f"misconfigured: Brave API key in BRAVE_API_KEY {reason}"
    ), rows["brave"].reason
    assert key == "..." or key not in rows["brave"].reason


@pytest.mark.parametrize("key", ['""', "''", '" "', '""""'])
def test_an_empty_value_whose_quotes_were_kept_is_named_so(tmp_path: Path, key: str) -> None:
    # BRAVE_API_KEY='""' (or a compose file's KEY="" read as it is) was refused as "no
    # letter or digit (the README writes ... for a key)", which pointed at the README.
    assert flaw(key, key=True) == "is only quote marks, an empty value whose quotes were kept"
    with pytest.raises(ConfigurationError, match="that is only quote marks, an empty value"):
        CredentialStore(tmp_path / "credentials.json").set("brave", key)


@pytest.mark.parametrize(
    ("variable", "value", "problem"),
    [
        # Each failed before: the advice was "remove it from BRAVE_API_KEY", which said
        # neither where the key goes nor, for its own name, that the name is its own.
        (
            "BRAVE_API_KEY",
            "BRAVE_API_KEY",
            "Brave API key in BRAVE_API_KEY is a placeholder, not a key: the variable holds "
            "its own name; set BRAVE_API_KEY to your Brave API key, or unset it.",
        ),
        (
            "GEMINI_API_KEY",
            "GOOGLE_API_KEY",
            "Gemini API key in GEMINI_API_KEY is a placeholder, not a key: it is a variable's "
            "name (GOOGLE_API_KEY), not the variable's value; set GEMINI_API_KEY to your "
            "Gemini API key, or unset it.",
        ),
        (  # the README's quick start, copied as it is
            "BRAVE_API_KEY",
            "...",
            "Brave API key in BRAVE_API_KEY is a placeholder, not a key: it holds no letter "
            "or digit (the README writes ... for a key); set BRAVE_API_KEY to your Brave "
            "API key, or unset it.",
        ),
    ],
    ids=["own name", "another name", "the README's ..."],
)
async def test_a_variables_name_as_its_value_makes_the_provider_misconfigured(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, variable: str, value: str, problem: str
) -> None:
    # BRAVE_API_KEY=BRAVE_API_KEY (a .env line written with the name twice) read as ready.
    from websearch_core import WebSearch

    monkeypatch.setenv(variable, value)
    monkeypatch.setenv("WEBSEARCH_CREDENTIALS_FILE", str(tmp_path / "none.json"))
    provider = variable.split("_", 1)[0].lower()
    async with WebSearch(state_backend="memory") as ws:
        rows = {row.id: row for row in await ws.provider_status()}
    assert not rows[provider].available
    assert rows[provider].reason == f"misconfigured: {problem}"


def test_a_cookie_or_password_with_no_letter_is_not_taken_for_a_placeholder() -> None:
    # Guard (passes before and after): the rule is for API keys, whose shapes are known.
    assert flaw("...", key=False) is None and flaw("<x>", key=False) is None


def test_the_keys_the_captures_write_are_placeholders() -> None:
    """Firecrawl's documentation, captured with its search results, writes ``fc-YOUR_API_KEY``
    and ``YOUR_API_KEY`` where a key goes: each is a stand-in a user may copy."""
    capture = read_capture("firecrawl/v2_search_firecrawl_with_markdown.json").decode()
    keys = set(re.findall(r"Bearer ([\w.-]+)|api_key=\\\"([\w.-]+)", capture))
    found = {bearer or argument for bearer, argument in keys}
    assert found >= {"YOUR_API_KEY", "fc-YOUR_API_KEY"}, found
    for key in sorted(found):
        assert (flaw(key, key=True) or "").startswith("is a placeholder, not a key"), key


TEST_SUITE_KEYS = [
    "aaaa",
    "bbbb",
    "aaaa-aaaa",
    "k",
    "BSAgood",
    "BSAfirst",
    "sim-key-brave",
    "sim-key-tavily",
    "fake-gemini-key",
    "fine-key",
    "pplx-fine",
    "tok-123",
    "searx-token-fake",
    "import-access",
    "sk-the-read-one-0001",
    "sk-open-platform",
    "sk-old-env-key",
    "sk-kimi-env",
    "sk-ant-oat01-0123456789abcdef",
    "pplx-simulated-key",
    "TOKEN0123456789abcdef",
    "key-0001",
]
"""Keys the rest of the suite sets (found by running :func:`flaw` over every string literal
in tests/ and examples/, and reading where each new refusal was used): short, repeated or
worded, none a stand-in."""


@pytest.mark.parametrize("key", TEST_SUITE_KEYS)
def test_the_suites_own_keys_are_not_placeholders(key: str) -> None:
    # Guard (passes before and after): the words and runs refused are a template's only.
    assert flaw(key, key=True) is None


def _random_keys() -> list[str]:
    """Keys drawn as providers draw theirs: hex, base64 and URL-safe base64, at the lengths
    the providers issue, after each prefix; a fixed seed, so a failure repeats."""
    draw = random.Random(45)
    alphabets = {
        "hex": "0123456789abcdef",
        "base64": string.ascii_letters + string.digits + "+/",
        "urlsafe": string.ascii_letters + string.digits + "-_",
    }
    prefixes = ["", "BSA", "tvly-dev-", "pplx-", "jina_", "fc-", "xai-", "sk-ant-api03-", "AIza"]
    keys = [str(uuid.UUID(int=draw.getrandbits(128), version=4)) for _ in range(500)]
    for _ in range(4000):
        alphabet = alphabets[draw.choice(list(alphabets))]
        body = "".join(draw.choice(alphabet) for _ in range(draw.choice((28, 32, 40, 48, 64))))
        keys.append(draw.choice(prefixes) + body)
    return keys


def test_random_keys_of_every_providers_shape_are_not_placeholders() -> None:
    # Guard (passes before and after): the rule refuses no key drawn at random.
    refused = [key for key in _random_keys() if flaw(key, key=True) is not None]
    assert refused == []


def test_guard_a_flaw_that_is_no_placeholder_keeps_its_fix_in_a_variable() -> None:
    # A guard (passes before and after): a key with a quote mark is to be mended in place,
    # so "remove it from" (the quote mark) stays the advice.
    from websearch_core.sent_secret import in_variable

    secret = in_variable('"BSAq1w2e3r4t5y6u7i8o9p0"', "Brave API key", "BRAVE_API_KEY", key=True)
    assert secret.problem() == (
        'Brave API key in BRAVE_API_KEY contains a quote mark (") that would be sent as part '
        "of it; remove it from BRAVE_API_KEY."
    )
