"""The search command's option for each field it sets: data shared by the CLI and the notes.

The CLI names both in a validation error (``limit (--limit)``), and a search parameter
written as a setting (``limit = 5`` in the config file, ``WEBSEARCH_LIMIT``) is told the
option that gives it with each search. Kept apart from the CLI so the settings' errors can
read it without importing the command line.
"""

from collections.abc import Mapping
from types import MappingProxyType

SEARCH_FLAGS: Mapping[str, str] = MappingProxyType(
    {
        "recency": "--recency",
        "limit": "--limit",
        "provider": "--provider",
        "timeout_seconds": "--timeout",
        "deadline_seconds": "--deadline",
        "language": "--language",
        "country": "--country",
        "include_domains": "--site",
        "exclude_domains": "--exclude-site",
        "date_after": "--after",
        "date_before": "--before",
    }
)
"""Field names to the option that sets them. The query is no option: it is named ``query``
alone, as argparse names it when it is missing (it read ``query (QUERY)``, an option nobody
can type)."""
