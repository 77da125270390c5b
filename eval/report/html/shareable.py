"""Text for pages meant to be shared: local absolute paths shortened to their last part."""

from __future__ import annotations

import re

# An absolute POSIX path or one under `~` (not the `//` of a URL, nor a relative `a/b`); group 1 is
# its last part.
ABSOLUTE_PATH = re.compile(r"(?<![\w.~/-])(?:~?/(?!/))(?:[\w.@+=-]+/)*?([\w.@+=-]+)/?(?![\w.@+=/-])")


def shareable(text: str) -> str:
    """`text` with every absolute path replaced by `…/` and its last part."""
    return ABSOLUTE_PATH.sub(lambda match: "…/" + match.group(1), text)
