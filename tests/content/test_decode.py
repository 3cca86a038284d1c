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


_WESTERN = {
    "fr": "Le café était très agréable, même si la crème brûlée n'était pas à la hauteur. "
    "Où êtes-vous allés à Noël ? ",
    "it": "Perché la città è così bella? Però non è più quella di una volta, né lo sarà. ",
}


@pytest.mark.parametrize("language", list(_WESTERN))
def test_undeclared_western_text_is_read_as_windows_1252(language: str) -> None:
    # Detection rated these as Central European (cp1250) or Vietnamese (cp1258) as
    # readily: French came out as "trčs ... męme ... ŕ la", Italian as "cittŕ".
    page = f"<html><body><p>{_WESTERN[language] * 3}</p></body></html>"
    assert decode_html(page.encode("cp1252"), "text/html") == page


_UNDECLARED = {
    "portuguese": (
        "A população da região aumentou muito nos últimos anos, e as autoridades não sabem "
        "como responder à procura de habitação. O governo anunciou que vai investir em "
        "educação, saúde e transportes públicos até ao fim da década. ",
        ("cp1252", "iso-8859-1"),
    ),
    "turkish": (
        "Türkiye'nin en büyük şehri İstanbul, tarihi yapıları ve güzel manzaralarıyla her yıl "
        "milyonlarca turisti ağırlıyor. Çocuklar okuldan döndükten sonra bahçede oynadılar. ",
        ("cp1254", "iso-8859-9"),
    ),
    "lithuanian": (
        "Lietuvos vyriausybė šiandien patvirtino naują švietimo reformą, kuri įsigalios nuo "
        "kitų metų rugsėjo pirmosios. Ūkininkai skundžiasi sausra: derlius bus mažesnis. ",
        ("cp1257", "iso-8859-13"),
    ),
    "latvian": (
        "Latvijas valdība šodien apstiprināja jaunu izglītības reformu, kas stāsies spēkā "
        "nākamgad. Rīgas domē notika sēde, kurā deputāti apsprieda pilsētas budžetu. ",
        ("cp1257",),
    ),
    "french": (
        "Le café était très agréable, même si la crème brûlée n'était pas à la hauteur. "
        "Où êtes-vous allés à Noël ? Les élèves ont déjà fini leurs études. ",
        ("cp1252",),
    ),
    "italian": (
        "Perché la città è così bella? Però non è più quella di una volta, né lo sarà. "
        "Il caffè è pronto e la società ha già deciso la sua attività. ",
        ("cp1252",),
    ),
}


@pytest.mark.parametrize(
    ("language", "charset"),
    [(language, charset) for language, (_, sets) in _UNDECLARED.items() for charset in sets],
)
@pytest.mark.parametrize("repeats", [1, 3])
def test_undeclared_legacy_pages_are_read_in_their_own_charset(
    language: str, charset: str, repeats: int
) -> None:
    # Turkish came out as "ţehri Ýstanbul" (Central European or Baltic), Lithuanian and
    # Latvian as Western ("šiandien" as "ðiandien"), and French or Italian of two sentences
    # as Baltic or Central European: charset-normalizer rated them all alike.
    text, _ = _UNDECLARED[language]
    title = text.split(",")[0]
    page = (
        f"<!DOCTYPE html>\n<html><head><title>{title}</title></head>\n"
        f"<body><article><h1>{title}</h1><p>{text * repeats}</p></article></body></html>\n"
    )
    assert decode_html(page.encode(charset), "text/html") == page


_HUNGARIAN = (
    "<html><body><p>Árvíztűrő tükörfúrógép. A kormány bejelentette, hogy jövőre csökkennek "
    "az adók, az időjárás előrejelzés szerint pedig hétvégén eső várható.</p></body></html>"
)


def test_the_top_level_domain_hints_an_undeclared_page_charset() -> None:
    # Hungarian's ő and ű read as Western õ and û without a hint, as Firefox reads them
    # too; a page from a .hu host is read as Central European, as Firefox reads it.
    data = _HUNGARIAN.encode("cp1250")
    assert decode_html(data, "text/html", url="https://hirek.example.hu/cikk") == _HUNGARIAN
    assert decode_html(data, "text/html", url="http://[2001:db8::1]/") != _HUNGARIAN


def test_detection_reads_past_a_long_ascii_head() -> None:
    # The letters that tell charsets apart came after 64 KiB of scripts: detection saw
    # only ASCII and the Lithuanian text was read as Western.
    text, _ = _UNDECLARED["lithuanian"]
    script = "<script>var x = 1;</script>\n" * 3000
    page = f"<html><head>{script}</head><body><p>{text * 2}</p></body></html>"
    assert decode_html(page.encode("cp1257")) == page


@pytest.mark.parametrize(
    ("text", "charset"),
    [
        (
            "Příliš žluťoučký kůň úpěl ďábelské ódy. Čeština je krásný jazyk, řekl učitel. ",
            "cp1250",
        ),
        ("Zażółć gęślą jaźń. Pójdźże, kiń tę chmurność w głąb flaszy! Łódź jest duża. ", "cp1250"),
    ],
    ids=["czech", "polish"],
)
def test_undeclared_central_european_text_keeps_its_detected_charset(
    text: str, charset: str
) -> None:
    page = f"<html><body><p>{text * 3}</p></body></html>"
    assert decode_html(page.encode(charset), "text/html") == page


def test_unknown_declared_charset_is_ignored_not_trusted() -> None:
    assert declared_charset("text/html; charset=x-no-such-codec") is None
    assert decode_html("<p>naïve</p>".encode(), "text/html; charset=x-no-such-codec") == (
        "<p>naïve</p>"
    )


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("text/html; charset=UTF-8", "utf-8"),
        ('text/html; charset="Shift_JIS"', "cp932"),
        ("text/html; charset=euc_kr", "cp949"),
        ("text/html; charset=x-sjis", "cp932"),
        ("text/html; charset=latin1", "cp1252"),
        ("text/html", None),
        (None, None),
    ],
)
def test_declared_charset(header: str | None, expected: str | None) -> None:
    assert declared_charset(header) == expected


def test_invalid_bytes_become_replacement_characters() -> None:
    assert decode_html(b"<p>ok \xff\xfe\xfd</p>", "text/html; charset=utf-8").startswith("<p>ok ")


@pytest.mark.parametrize(
    ("label", "text", "written_in"),
    [
        ("Shift_JIS", "髙橋さん①㈱", "cp932"),
        ("windows-31j", "髙橋さん①㈱", "cp932"),
        ("gb2312", "朱镕基、王喆", "gb18030"),
        ("x-gbk", "朱镕基、王喆", "gb18030"),
        ("euc-kr", "똠방각하 뷁", "cp949"),
        ("ks_c_5601-1987", "똠방각하 뷁", "cp949"),
        ("iso-8859-9", "İstanbul’da “güzel” — şehir", "cp1254"),
        ("latin5", "İstanbul’da “güzel” — şehir", "cp1254"),
        ("tis-620", "ภาษาไทย “quoted” — dash", "cp874"),
        ("big5", "香港增補字符集 㗎", "big5hkscs"),
        ("us-ascii", "“quoted” café", "cp1252"),
    ],
)
def test_legacy_labels_are_read_as_the_supersets_browsers_use(
    label: str, text: str, written_in: str
) -> None:
    # What pages so labelled hold in practice: the vendor superset's extra characters.
    page = f"<p>{text}</p>"
    meta = f'<meta charset="{label}">{page}'.encode(written_in)
    assert decode_html(meta).endswith(page)
    assert decode_html(page.encode(written_in), f"text/html; charset={label}") == page


@pytest.mark.parametrize("label", ["utf-16", "UTF-16LE", "utf-16be", "unicode"])
def test_a_meta_declared_utf16_means_utf8(label: str) -> None:
    page = f'<html><head><meta charset="{label}"></head><body><p>Café crème</p></body></html>'
    assert decode_html(page.encode("utf-8")) == page


def test_a_utf16_header_still_decodes_as_utf16() -> None:
    page = "<p>Café crème</p>"
    assert decode_html(page.encode("utf-16-le"), "text/html; charset=utf-16") == page


@pytest.mark.parametrize("label", ["base64", "hex", "rot13", "zlib", "bz2", "uu", "quopri"])
@pytest.mark.parametrize("flag", ["kept", "gone"])
def test_a_codec_that_is_no_charset_is_skipped_without_pythons_private_flag(
    label: str, flag: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Python marks such codecs with CodecInfo's private ``_is_text_encoding``; a Python
    # whose codecs no longer carry it must still skip them, not decode a page with one.
    if flag == "gone":
        real = codecs.lookup

        def lookup(name: str) -> codecs.CodecInfo:
            info = real(name)
            return codecs.CodecInfo(
                info.encode,
                info.decode,
                info.streamreader,
                info.streamwriter,
                info.incrementalencoder,
                info.incrementaldecoder,
                name=info.name,
            )

        monkeypatch.setattr(codecs, "lookup", lookup)
    body = "<p>café</p>".encode()
    assert decode_html(body, f"text/html; charset={label}") == "<p>café</p>"
