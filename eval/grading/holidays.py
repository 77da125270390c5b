"""Holidays on a fixed calendar day, which answers sometimes give instead of the date.

A general-knowledge table for the date reader: "New Year's Day 2002" is 1 January 2002. Only days
that fall on the same date every year and mean the same date everywhere are listed (not Easter,
not a national day that differs from country to country).
"""

from __future__ import annotations

# name (lower case, straight apostrophes) -> (month, day)
FIXED_HOLIDAYS: dict[str, tuple[int, int]] = {
    "new year's day": (1, 1),
    "new year's eve": (12, 31),
    "christmas day": (12, 25),
    "christmas eve": (12, 24),
    "boxing day": (12, 26),
    "valentine's day": (2, 14),
    "saint valentine's day": (2, 14),
    "st valentine's day": (2, 14),
    "halloween": (10, 31),
    "all saints' day": (11, 1),
    "all souls' day": (11, 2),
    "st patrick's day": (3, 17),
    "saint patrick's day": (3, 17),
    "bastille day": (7, 14),
    "armistice day": (11, 11),
}

__all__ = ["FIXED_HOLIDAYS"]
