"""``python -m websearch_core.testing serve``: see :mod:`.serve`."""

from .serve import main

raise SystemExit(main())
