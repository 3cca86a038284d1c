"""``websearch auth import gemini-cli [PATH]``: the Gemini CLI's sign-in, stored as ours.

The file is written here in the shape the Gemini CLI writes it (google-auth-library's
``Credentials`` JSON: ``access_token``, ``refresh_token``, ``expiry_date`` in epoch
milliseconds, ``token_type``, ``scope``, ``id_token``); the stored token is then used by a
search against the loopback simulator. No token ever appears in the command's output.
"""

import json
import stat
import time
from pathlib import Path
from typing import Any

import pytest

from websearch_core import Settings, WebSearch
from websearch_core.cli import EXIT_OK, EXIT_USAGE, main
from websearch_core.credentials import CredentialStore
from websearch_core.testing import Simulator

ACCESS = "ya29.a0AUMimport-access-token"
REFRESH = "1//05import-refresh-token"
ID_TOKEN = "eyJhbGciOiJSUzI1NiJ9.import-id.token"
SECRETS = (ACCESS, REFRESH, ID_TOKEN, "import-access", "import-refresh")


def _creds(**overrides: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "access_token": ACCESS,
        "scope": "openid https://www.googleapis.com/auth/cloud-platform",
        "token_type": "Bearer",
        "id_token": ID_TOKEN,
        "expiry_date": (time.time() + 3000) * 1000 + 0.779,
        "refresh_token": REFRESH,
    }
    data.update(overrides)
    return {key: value for key, value in data.items() if value is not None}


def _write(path: Path, content: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    return path


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home directory of its own, so ``~/.gemini`` is this test's."""
    directory = tmp_path / "home"
    directory.mkdir()
    monkeypatch.setenv("HOME", str(directory))
    return directory


def _store_path() -> Path:
    return Settings().resolved_credentials_file()


def _output(capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    out, err = capsys.readouterr()
    for secret in SECRETS:
        assert secret not in out + err
    return out, err


async def test_import_stores_the_gemini_cli_sign_in_and_a_search_uses_it(
    home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    creds = _creds()
    file = _write(home / ".gemini" / "oauth_creds.json", json.dumps(creds, indent=2))
    assert main(["auth", "import", "gemini-cli"]) == EXIT_OK
    out, err = _output(capsys)
    assert out.startswith(
        f"Stored the Gemini CLI sign-in from {file} as gemini-cli in {_store_path()}"
        " (with a refresh token, expires "
    )
    assert out.endswith(" UTC)\n") and err == ""
    token = CredentialStore(_store_path()).get_oauth("gemini-cli")
    assert token is not None
    assert (token.access_token, token.refresh_token) == (ACCESS, REFRESH)
    assert token.expires_at == pytest.approx(creds["expiry_date"] / 1000)
    assert stat.S_IMODE(_store_path().stat().st_mode) == 0o600
    stored = json.loads(_store_path().read_text())["gemini-cli"]["oauth"]
    assert ID_TOKEN not in json.dumps(stored)  # only what a search needs is kept

    # The stored entry is the Gemini CLI sign-in a search sends.
    monkeypatch.setenv("GOOGLE_CLOUD_PROJECT", "p")
    async with Simulator(["gemini"]) as sim:
        async with WebSearch(sim.settings(), api_keys={}) as ws:
            response = await ws.search("python asyncio", provider="gemini")
        (call,) = sim["gemini"].requests
    assert call.header("Authorization") == f"Bearer {ACCESS}"
    assert (call.header("User-Agent") or "").startswith("GeminiCLI/")
    assert response.auth_mode == "oauth"

    # And `auth remove --oauth` forgets it again.
    assert main(["auth", "remove", "gemini-cli", "--oauth"]) == EXIT_OK
    assert CredentialStore(_store_path()).get_oauth("gemini-cli") is None


def test_import_reads_the_path_given(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = _write(tmp_path / "elsewhere" / "creds.json", json.dumps(_creds(refresh_token=None)))
    assert main(["auth", "import", "gemini-cli", str(file)]) == EXIT_OK
    out, _ = _output(capsys)
    assert f"from {file} as gemini-cli" in out and "(without a refresh token, " in out
    token = CredentialStore(_store_path()).get_oauth("gemini-cli")
    assert token is not None and token.refresh_token is None


def test_an_expired_token_with_a_refresh_token_is_stored_to_be_renewed(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The next search renews it at Google's token endpoint: nothing to warn about.
    _write(home / ".gemini" / "oauth_creds.json", json.dumps(_creds(expiry_date=1.7e12)))
    assert main(["auth", "import", "gemini-cli"]) == EXIT_OK
    out, err = _output(capsys)
    assert "(with a refresh token, expires 2023-11-14 22:13 UTC)\n" in out
    assert out.endswith(
        "The token has expired; the next search renews it from the refresh token.\n"
    )
    assert err == ""
    assert CredentialStore(_store_path()).get_oauth("gemini-cli") is not None


def test_an_expired_token_without_a_refresh_token_is_stored_with_a_warning(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    creds = _creds(expiry_date=1.7e12, refresh_token=None)
    file = _write(home / ".gemini" / "oauth_creds.json", json.dumps(creds))
    assert main(["auth", "import", "gemini-cli"]) == EXIT_OK
    out, err = _output(capsys)
    assert "expires 2023-11-14 22:13 UTC" in out
    assert err == (
        f"websearch: warning: the token in {file} has expired: run `gemini` and choose Login"
        " with Google (it renews the file), then import again, or pass a refresh hook for"
        " gemini-cli\n"
    )
    assert CredentialStore(_store_path()).get_oauth("gemini-cli") is not None


KEYCHAIN = (
    "a Gemini CLI run with GEMINI_FORCE_ENCRYPTED_FILE_STORAGE=true keeps its sign-in in the"
    " system keychain (or an encrypted file) and writes no file to import: sign in once with"
    " that variable unset so it writes {file}, then import it, or set GEMINI_API_KEY instead"
)


def test_no_file_at_the_usual_place_says_a_keychain_sign_in_cannot_be_imported(
    home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GEMINI_FORCE_ENCRYPTED_FILE_STORAGE", raising=False)
    file = home / ".gemini" / "oauth_creds.json"
    assert main(["auth", "import", "gemini-cli"]) == EXIT_USAGE
    _, err = _output(capsys)
    assert err == (
        f"websearch: no Gemini CLI sign-in at {file}: run `gemini` and choose Login with"
        f" Google first, or give the file's path ({KEYCHAIN.format(file=file)}); nothing"
        " stored\n"
    )

    # With the Gemini CLI's variable set here too, the keychain is the likely reason.
    monkeypatch.setenv("GEMINI_FORCE_ENCRYPTED_FILE_STORAGE", "true")
    assert main(["auth", "import", "gemini-cli"]) == EXIT_USAGE
    _, err = _output(capsys)
    assert err == (
        f"websearch: no Gemini CLI sign-in at {file} (GEMINI_FORCE_ENCRYPTED_FILE_STORAGE is"
        f" set to true here): {KEYCHAIN.format(file=file)}; nothing stored\n"
    )
    assert not _store_path().exists()


def test_no_file_at_a_path_given_is_named_without_the_keychain(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = tmp_path / "nowhere.json"
    assert main(["auth", "import", "gemini-cli", str(file)]) == EXIT_USAGE
    _, err = _output(capsys)
    assert err == (
        f"websearch: no Gemini CLI sign-in at {file}: run `gemini` and choose Login with"
        " Google first, or give the file's path; nothing stored\n"
    )


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        pytest.param(
            None, "no Gemini CLI sign-in at {file}: run `gemini` and choose", id="missing"
        ),
        pytest.param("{not json", "{file} is not valid JSON", id="garbled"),
        pytest.param(b"\xff\xfe{}", "{file} is not valid JSON", id="not-utf8"),
        pytest.param("[]", "{file} is not a JSON object", id="an-array"),
        pytest.param('{"token_type": "Bearer"}', "{file} holds no access_token", id="no-token"),
        pytest.param('{"access_token": "  "}', "{file} holds no access_token", id="blank-token"),
        pytest.param(
            '{"access_token": 12345}', "{file}: access_token is not a string", id="not-a-string"
        ),
        pytest.param(
            json.dumps({"type": "external_account_authorized_user", "refresh_token": REFRESH}),
            "{file} holds an external-account (BYOID) credential, not an OAuth token",
            id="byoid",
        ),
        pytest.param(
            json.dumps(_creds(access_token="ya29.import-access\r\nX-Evil: 1")),
            "{file}: access_token contains a control character",
            id="a-header-breaking-token",
        ),
        pytest.param(
            json.dumps(_creds(refresh_token="1//import-refresh\x00")),
            "{file}: refresh_token contains a control character",
            id="a-broken-refresh-token",
        ),
        pytest.param("{}" + " " * 70_000, "{file} is too large", id="too-large"),
    ],
)
def test_a_missing_or_garbled_file_is_named_and_nothing_is_stored(
    home: Path, capsys: pytest.CaptureFixture[str], content: str | bytes | None, problem: str
) -> None:
    file = home / ".gemini" / "oauth_creds.json"
    if content is not None:
        _write(file, content)
    assert main(["auth", "import", "gemini-cli"]) == EXIT_USAGE
    out, err = _output(capsys)
    assert out == ""
    assert err.startswith(f"websearch: {problem.format(file=file)}")
    assert err.endswith("nothing stored\n") and err.count("\n") == 1
    assert not _store_path().exists()


def test_a_directory_is_not_a_sign_in_file(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["auth", "import", "gemini-cli", str(tmp_path)]) == EXIT_USAGE
    _, err = _output(capsys)
    assert err.startswith(f"websearch: cannot read {tmp_path}: ")
    assert not _store_path().exists()


@pytest.mark.parametrize(
    ("source", "said"),
    [
        (
            "antigravity",
            "websearch: antigravity: no sign-in to import by that name (known: gemini-cli); "
            "nothing stored\n",
        ),
        (
            "gemini_cli",
            "websearch: gemini_cli: no sign-in to import by that name (known: gemini-cli); "
            "nothing stored; did you mean gemini-cli?\n",
        ),
        (
            "codex",
            "websearch: codex: no sign-in to import by that name (known: gemini-cli); the codex "
            'sign-in is stored from Python with CredentialStore.set_oauth (see "Answer engines '
            'that sign in with OAuth" in the README); nothing stored\n',
        ),
    ],
)
def test_only_known_sources_are_imported(
    home: Path, capsys: pytest.CaptureFixture[str], source: str, said: str
) -> None:
    # `websearch providers` says codex needs a ChatGPT OAuth token stored for it, so a
    # user tries `auth import codex`: argparse answered "{gemini-cli}: 'codex' is not one
    # of gemini-cli", naming its metavar, not the id probably meant nor how such a sign-in
    # is stored.
    assert main(["auth", "import", source]) == EXIT_USAGE
    assert capsys.readouterr().err == said
    assert not _store_path().exists()
