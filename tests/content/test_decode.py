"""decode_html: declared charsets first, then what the bytes show."""

import codecs

import pytest

from websearch_core.content import declared_charset, decode_html

_RUSSIAN = (
    "<p>Привет, как дела? Это проверка кодировки страницы. Настоящие страницы длиннее: "
    "в них несколько абзацев текста, заголовки и ссылки, и по ним кодировку легко узнать "
    "даже без объявления в заголовках ответа или в самой разметке.</p>"
)


def test_header_charset_wins_over_the_meta_declaration() -> None:
    data = '<meta charset="utf-8"><p>café</p>'.encode("cp1252")
    assert decode_html(data, "text/html; charset=windows-1252").endswith("<p>café</p>")


def test_meta_charset_when_the_header_has_none() -> None:
    data = b'<meta http-equiv="Content-Type" content="text/html; charset=koi8-r">'
    data += _RUSSIAN.encode("koi8-r")
    assert decode_html(data, "text/html").endswith(_RUSSIAN)


def test_byte_order_mark_wins() -> None:
    data = codecs.BOM_UTF16_LE + "<p>ok ж</p>".encode("utf-16-le")
    assert decode_html(data, "text/html; charset=iso-8859-1") == "<p>ok ж</p>"


def test_undeclared_charset_is_sniffed() -> None:
    assert decode_html(_RUSSIAN.encode("cp1251")) == _RUSSIAN


def test_unknown_declared_charset_is_ignored_not_trusted() -> None:
    assert declared_charset("text/html; charset=x-no-such-codec") is None
    assert decode_html("<p>naïve</p>".encode(), "text/html; charset=x-no-such-codec") == (
        "<p>naïve</p>"
    )


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("text/html; charset=UTF-8", "utf-8"),
        ('text/html; charset="Shift_JIS"', "shift_jis"),
        ("text/html; charset=latin1", "cp1252"),
        ("text/html", None),
        (None, None),
    ],
)
def test_declared_charset(header: str | None, expected: str | None) -> None:
    assert declared_charset(header) == expected


def test_invalid_bytes_become_replacement_characters() -> None:
    assert decode_html(b"<p>ok \xff\xfe\xfd</p>", "text/html; charset=utf-8").startswith("<p>ok ")
