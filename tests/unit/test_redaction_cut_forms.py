"""The failure mask reads a key's base64 and hex cut short after its first 8 bytes.

``Redactor.__call__`` (errors and their log lines) masked a ``Basic`` header of
``user:key`` only whole; a header cut inside the key (an upstream logging its lines up to
a length) kept the key's first bytes, and a hex dump of the request was not read. The
rule: a form holding the key's first 8 bytes (as many as a head shown as itself,
``PREFIX_LENGTH``) is masked from there for as long as the text follows the form. The
tests named ``guard`` passed before too.
"""

import base64
import uuid

import pytest

from websearch_core.redaction import Redactor

KEYS = ("sk-proj-Q7fK2mVt9XbL4nRw8ZcJ1pHs6dGy3uEa", "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")
HEAD_BYTES = 8


def _basic(user: str, key: str, key_bytes: int) -> str:
    """``Basic`` of ``user:key`` cut after the 4-character group with its ``key_bytes``-th byte."""
    whole = base64.b64encode(f"{user}:{key}".encode()).decode()
    return whole[: -(-(len(user) + 1 + key_bytes) // 3) * 4]


def _decoded_head(text: str, user: str) -> bytes:
    """What a reader decodes of the key from a masked ``Basic ...`` line: bytes after ``user:``."""
    shown = text.split("Basic ", 1)[1].split("***", 1)[0].split(" ", 1)[0]
    usable = shown[: len(shown) // 4 * 4]
    return base64.b64decode(usable)[len(user) + 1 :] if usable else b""


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("user", ["u", "us", "use", "alice", "svc-account"])
@pytest.mark.parametrize("key_bytes", [8, 9, 13, 20, 30])
def test_a_basic_header_cut_inside_the_key_keeps_less_than_its_head(
    key: str, user: str, key_bytes: int
) -> None:
    """Every alignment, cut anywhere from 8 bytes: at most 7 bytes of the key decode."""
    text = f"Authorization: Basic {_basic(user, key, key_bytes)} (line cut)"
    masked = Redactor([key])(text)
    assert len(_decoded_head(text, user)) >= HEAD_BYTES, "the echo shows the key's head"
    assert len(_decoded_head(masked, user)) < HEAD_BYTES


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("key_bytes", [8, 12, 25, None])
@pytest.mark.parametrize("case", ["lower", "upper"])
def test_a_key_in_hex_is_masked_whole_or_cut(key: str, key_bytes: int | None, case: str) -> None:
    """A dump of the request in hex (either case), whole or stopped after 8+ bytes."""
    hexed = key.encode()[:key_bytes].hex()
    hexed = hexed.upper() if case == "upper" else hexed
    masked = Redactor([key])(f"request bytes: {hexed} end")
    assert masked == "request bytes: *** end"


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("user", ["u", "us", "use"])
def test_guard_a_basic_header_cut_within_the_first_bytes_is_kept(key: str, user: str) -> None:
    """A guard: fewer than 8 of the key's bytes are as little as a head under 8 characters."""
    text = f"Authorization: Basic {_basic(user, key, 4)}"
    assert Redactor([key])(text) == text


def test_guard_ordinary_hex_and_short_hex_of_the_key_are_kept() -> None:
    """A guard: ids and hashes are left alone, and so are 7 bytes of the key in hex."""
    key = KEYS[0]
    texts = [
        f"request {uuid.UUID(int=0x5F3A9C2E5B41D8_7F3A9C2E5B41D8)} failed",
        "commit 9fceb02d0ae598e95dc970b74767f19372d61af8 deployed",
        f"prefix {key.encode()[:7].hex()} only",
        f"another key {b'sk-proj-'.hex()[:14]} here",
    ]
    redactor = Redactor([key])
    assert [redactor(text) for text in texts] == texts
