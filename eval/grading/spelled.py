"""Spelled-out numbers to digits: "thirty-two" -> "32", "nineteen sixty-one" -> "1961", "two dozen" -> "24".

Regular runs go through word2number; the year style ("nineteen sixty-one", "twenty twenty-one"),
which word2number sums instead of joining, is read here as two two-digit groups.
"""

from __future__ import annotations

import re

from word2number import w2n

_SMALL = {word: value for value, word in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen".split())} | {word: 20 + 10 * i for i, word in enumerate(
        "twenty thirty forty fifty sixty seventy eighty ninety".split())}
_SCALES = ("hundred", "thousand", "million", "billion", "trillion")
_WORD = "|".join([*_SMALL, *_SCALES])
_RUN = re.compile(rf"\b(?:{_WORD})(?:(?:[\s-]+|\s+and\s+)(?:{_WORD}))*\b", re.IGNORECASE)
# "one of whom", "one for the textbooks", "the one who": a pronoun, not a count.
_PRONOUN_ONE = re.compile(r"\s+(?:of|for|who|whom|that|which)\b", re.IGNORECASE)
_POINT = re.compile(r"\s+point((?:[\s-]+(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)\b)+)", re.IGNORECASE)
_DOZEN = re.compile(r"\b(?:(half)\s+a|(a|one|\d+))\s+dozen\b", re.IGNORECASE)


def _two_digit_groups(words: list[str]) -> str | None:
    """"nineteen sixty-one" -> "1961"; None when the run is not two groups of 10 to 99."""
    groups: list[int] = []
    while words and words[0] in _SMALL:
        joined = _SMALL[words[0]] >= 20 and len(words) > 1 and 0 < _SMALL.get(words[1], 0) < 10
        groups.append(_SMALL[words[0]] + (_SMALL[words[1]] if joined else 0))
        words = words[2 if joined else 1:]
    ok = not words and len(groups) == 2 and all(10 <= group <= 99 for group in groups)
    return f"{groups[0]}{groups[1]:02d}" if ok else None


def _to_digits(match: re.Match[str]) -> str:
    text = match.group(0)
    words = [w for w in re.split(r"[\s-]+", text.lower()) if w]
    if words[-1] == "and" or (words == ["one"] and _PRONOUN_ONE.match(match.string, match.end())):
        return text
    if year := _two_digit_groups(words):
        return year
    if len(words) == 1 and words[0] in _SCALES:
        return text  # "hundreds", "a thousand" stay words
    try:
        return str(w2n.word_to_num(" ".join(words)))
    except ValueError:
        return text


def spelled_to_digits(text: str) -> str:
    """Replace each run of number words with its digits ("two dozen" is 24, "six point two five" is 6.25);
    other text is unchanged."""
    text = _POINT.sub(lambda m: "." + "".join(str(_SMALL.get(w, 0)) for w in m[1].lower().split()), text)
    return _DOZEN.sub(lambda m: "6" if m[1] else str(12 * (1 if m[2].lower() in ("a", "one") else int(m[2]))),
                      _RUN.sub(_to_digits, text))
