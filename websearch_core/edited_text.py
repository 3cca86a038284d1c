"""The text of a file people edit by hand (the config file, the credential store), as UTF-8.

Both files are read the same way, so an editor's choice of encoding is named the same way
for both: Windows Notepad's "Unicode" and PowerShell's ``>`` and ``Out-File`` (by default,
before PowerShell 6) save UTF-16, and "UTF-8 with BOM" puts a byte order mark first. The
credential store read such files as ``not UTF-8 text (byte 0 cannot be decoded)`` or ``not
valid JSON``, which said nothing about what to do.
"""

__all__ = ["SavedAsUtf16Error", "utf8_text"]

_UTF8_BOM = "\ufeff"
"""The byte order mark an editor saving "UTF-8 with BOM" (Notepad, PowerShell's UTF8
encoding) puts first: it marks the encoding, it is not part of the document."""

_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
"""The byte order marks UTF-16 text starts with (little- and big-endian; UTF-32's too)."""


class SavedAsUtf16Error(ValueError):
    """The file is UTF-16 text (a byte order mark, or NUL bytes), not UTF-8.

    Neither TOML nor JSON text holds a raw NUL byte, so one means another encoding: UTF-16
    without a mark puts one beside every ASCII character. The message is the predicate of
    a sentence whose subject (``config file <path>``) the caller names.
    """

    def __init__(self) -> None:
        super().__init__("is saved as UTF-16; save it as UTF-8")


def utf8_text(raw: bytes) -> str:
    """``raw`` decoded as UTF-8, past a leading byte order mark.

    Args:
        raw: The file's bytes.

    Returns:
        The document's text.

    Raises:
        SavedAsUtf16Error: It is UTF-16 text (a byte order mark, or NUL bytes).
        UnicodeDecodeError: It is not UTF-8 (the byte counted from the file's start).
    """
    if raw.startswith(_UTF16_BOMS) or b"\x00" in raw:
        raise SavedAsUtf16Error
    return raw.decode("utf-8").removeprefix(_UTF8_BOM)
