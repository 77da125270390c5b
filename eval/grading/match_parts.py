"""The `parts` match kind: a gold of several required parts (a list asked for, or one value per entity).

SimpleQA's rule holds for each part: a complete answer states every part, so a reply stating each part's words
(an entity's name and its value) is CORRECT, and a short reply that names fewer things than the gold has parts
cannot be complete: INCORRECT. A longer reply that misses a part may state it in other words: the judge's.
"""

from __future__ import annotations

import re

from factprobe.eval.grading.match_text import Finding, Found, related
from factprobe.eval.grading.wording import FUNCTION_WORDS, words

_ITEM_BREAK = re.compile(r"\n+|;|,|\s+and\s+|\s*&\s*|\s+\d+[.)]\s+|^\s*\d+[.)]\s+|:\s", re.IGNORECASE)
_SHORT = 15  # words up to which a reply is read as its list of items


def _phrases(part: str) -> list[list[str]]:
    """What stating a part takes: its entity and each of its values, in words."""
    entity, _, value = part.rpartition(": ")
    pieces = [entity] if entity else []
    pieces += [item for item in re.split(r";|,|\s+and\s+", value) if item.strip()]
    found = [[w for w in words(piece) if w not in ("the", "a", "an")] for piece in pieces]
    return [phrase for phrase in found if phrase]


def _states(said: list[str], phrase: list[str]) -> bool:
    size = len(phrase)
    return any(said[start:start + size] == phrase for start in range(len(said) - size + 1)) or "".join(
        phrase) in "".join(said)


def _items(reply: str) -> set[str]:
    """The distinct things a short reply names."""
    found = {" ".join(w for w in words(item) if w not in FUNCTION_WORDS) for item in _ITEM_BREAK.split(reply)}
    return {item for item in found if item}


def compare_parts(reply: str, parts: list[str]) -> Finding:
    """The reply against every part of the gold."""
    said = words(reply)
    stated = [all(_states(said, phrase) for phrase in _phrases(part)) for part in parts]
    if all(stated):
        return Finding(Found.MATCH, "parts", f"states every one of the gold's {len(parts)} parts")
    entities = {part.rpartition(": ")[0] or part for part in parts}
    items = _items(reply)
    if sum(len(item.split()) for item in items) <= _SHORT:
        if len(items) < len(entities):
            return Finding(Found.CONFLICT, "parts", f"names fewer things than the gold's {len(entities)} parts "
                                                    f"({sum(stated)} stated)")
        if any(not any(related(item.split(), words(part)) for part in parts) for item in items):
            return Finding(Found.CONFLICT, "parts", "names a thing that is none of the gold's parts")
    return Finding(Found.UNSURE, "parts", f"states {sum(stated)} of the gold's {len(parts)} parts; the others may "
                                          f"be in other words")


__all__ = ["compare_parts"]
