"""The "did you mean" hint of an unknown name (difflib's closest match among the known ones)."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """`" (did you mean 'x'?)"` for the closest known name, or "" when none is close."""
    close = difflib.get_close_matches(name, list(known), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""
