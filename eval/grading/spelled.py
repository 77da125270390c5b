"""Spelled-out numbers to digits: "thirty-two" -> "32", "nineteen fourteen" -> "1914", "a dozen" -> "12".

Regular runs go through word2number; the year style ("nineteen fourteen", "twenty twenty-one"),
which word2number sums instead of joining, is read here as two two-digit groups.
"""

from __future__ import annotations

import re

from word2number import w2n

_UNITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
          "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
          "nineteen"]
_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_SCALES = ["hundred", "thousand", "million", "billion", "trillion"]
_WORD = "|".join(_UNITS + _TENS + _SCALES)
_RUN = re.compile(
    rf"\b(?:{_WORD})(?:(?:[\s-]+|\s+and\s+)(?:{_WORD}))*\b", re.IGNORECASE)
_SMALL = {word: value for value, word in enumerate(_UNITS)} | {w: 20 + 10 * i for i, w in enumerate(_TENS)}


def _two_digit_groups(words: list[str]) -> list[int] | None:
    """Split "nineteen fourteen" into [19, 14]; None when the run is not two such groups."""
    if any(word in _SCALES or word == "and" for word in words):
        return None
    groups: list[int] = []
    i = 0
    while i < len(words):
        value = _SMALL[words[i]]
        if words[i] in _TENS and i + 1 < len(words) and _SMALL[words[i + 1]] < 10 and words[i + 1] not in ("zero",):
            value += _SMALL[words[i + 1]]
            i += 1
        groups.append(value)
        i += 1
    if len(groups) == 2 and 10 <= groups[0] <= 99 and 10 <= groups[1] <= 99:
        return groups
    return None


# "one of whom", "one for the textbooks", "the one who": a pronoun, not a count.
_PRONOUN_ONE = re.compile(r"\s+(?:of|for|who|whom|that|which)\b", re.IGNORECASE)


def _to_digits(match: re.Match[str]) -> str:
    text = match.group(0)
    words = [w for w in re.split(r"[\s-]+", text.lower()) if w]
    if words[-1] == "and" or (words == ["one"] and _PRONOUN_ONE.match(match.string, match.end())):
        return text
    groups = _two_digit_groups(words)
    if groups:
        return f"{groups[0]}{groups[1]:02d}"
    if len(words) == 1 and words[0] in _SCALES:
        return text  # "hundreds", "a thousand" stay words
    try:
        return str(w2n.word_to_num(" ".join(words)))
    except ValueError:
        return text


_DOZEN = re.compile(r"\b(?:(half)\s+a|(a|one|\d+))\s+dozen\b", re.IGNORECASE)


def _dozens(match: re.Match[str]) -> str:
    if match.group(1):
        return "6"
    count = match.group(2).lower()
    return str(12 * (1 if count in ("a", "one") else int(count)))


def spelled_to_digits(text: str) -> str:
    """Replace each run of number words with its digits ("a dozen" is 12); other text is unchanged."""
    return _DOZEN.sub(_dozens, _RUN.sub(_to_digits, text))
