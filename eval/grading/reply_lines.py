"""A reply's lines read as sentences before a paragraph is read: a heading over the reply dropped, an "… is:" line
joined with the line that gives its value, and a list after whole sentences turned into later sentences; a list
with no whole sentence before it is no reading at all (None: the judge's)."""

from __future__ import annotations

import re
from itertools import takewhile

_LISTED = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s")  # a list item's mark
_ITEM = re.compile(r"^\W*(?:\S+\s+){0,5}?\S+\s+[-–—:]\s")  # "Name - what it is", "Label: value"


def _parallel(line: str, following: str) -> bool:
    """Two lines that read as items of one unmarked list: both bare (up to four words) or both labelled."""
    return max(len(line.split()), len(following.split())) <= 4 or bool(_ITEM.match(line) and _ITEM.match(following))


def _ended(line: str) -> str:
    """The line as a sentence: a full stop added unless it ends one already."""
    return line + ("" if re.search(r"[.!?]$", line) else ".")


def sentence_lines(text: str) -> list[str] | None:
    """The reply's non-empty lines, each a sentence or part of one; None for a list no whole sentence commits
    before."""
    lines = [line for line in text.splitlines() if line.strip()]
    while len(lines) > 1 and lines[0].lstrip().startswith("#"):
        lines.pop(0)  # a heading over the reply: its title
    for index in range(len(lines) - 1, 0, -1):  # "The answer is:" over the line that gives it: one sentence
        if lines[index - 1].rstrip().endswith(":") and not _LISTED.match(lines[index]) and not (
                index + 1 < len(lines) and _parallel(lines[index], lines[index + 1])):
            lines[index - 1] = _ended(f"{lines[index - 1].rstrip()} {lines.pop(index).strip()}")
    if len(lines) > 1 and any(_LISTED.match(line) or not re.search(r"[.!?:]$", line.strip()) for line in lines[:-1]):
        lead = len(list(takewhile(lambda line: re.search(r"[.!]$", line.strip()) and not _LISTED.match(line)
                                  and not line.lstrip().startswith("#"), lines)))
        if not lead:
            return None
        # sentences that commit before a list: the list's lines are later sentences, each read as one
        lines = lines[:lead] + [_ended(_LISTED.sub("", line).strip().rstrip(":")) for line in lines[lead:]]
    return lines


__all__ = ["sentence_lines"]
