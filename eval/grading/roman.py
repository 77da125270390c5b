"""Roman numerals, the one parser: regnal numbers ("Elizabeth II") and ordinals ("Amendment XIII").

Written here rather than taken from a package (`roman`): the graders need a pattern that finds a
numeral inside running text as much as a parser of one, and a 5-line parser is cheaper than a
dependency. `ROMAN` matches the canonical numerals from I to CCCXCIX, each value written one way
only, so a range of values is a range of numerals (I to XXXIX is `roman_value(n) <= 39`).
"""

from __future__ import annotations

import re

ROMAN = r"(?=[IVXLC])C{0,3}(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})"
_WHOLE = re.compile(ROMAN)
_VALUES = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}


def roman_value(numeral: str) -> int | None:
    """The value of a canonical upper-case Roman numeral from I to CCCXCIX; None for anything else."""
    if not _WHOLE.fullmatch(numeral):
        return None
    values = [_VALUES[letter] for letter in numeral]
    return sum(-v if i + 1 < len(values) and v < values[i + 1] else v for i, v in enumerate(values))
