r"""What the ``websearch`` command writes, readable whatever the terminal's encoding.

Results hold any character the web has (``Ünïcødé``, emoji, CJK). A terminal or pipe whose
encoding cannot write them (``PYTHONIOENCODING=ascii``, a Latin-1 console) made ``print``
raise ``UnicodeEncodeError`` and the command end in a traceback; here such characters are
written as escapes instead, and JSON uses its own ``\uXXXX`` escapes, so it stays exact.
"""

import codecs
import json
import sys
from typing import Any

__all__ = ["json_text", "tolerate_unencodable_output"]


def _writes_unicode(stream: Any) -> bool:
    """Whether ``stream``'s encoding can write every character (a UTF codec)."""
    encoding = getattr(stream, "encoding", None)
    if not encoding:
        return True  # a captured or in-memory stream holds str
    try:
        return codecs.lookup(encoding).name.startswith("utf")
    except LookupError:
        return False


def tolerate_unencodable_output() -> None:
    """Write what stdout and stderr cannot encode as backslash escapes, not a traceback."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and not _writes_unicode(stream):
            reconfigure(errors="backslashreplace")


def json_text(data: Any) -> str:
    r"""``data`` as indented JSON, with ``\uXXXX`` escapes where stdout cannot write a character.

    Example:
        >>> print(json_text({"title": "Café"}))  # doctest: +SKIP
        {
          "title": "Caf\u00e9"
        }
    """
    return json.dumps(data, indent=2, ensure_ascii=not _writes_unicode(sys.stdout))
