"""Answer normalisation shared by the rule grader, majority vote and dataset validation."""

from __future__ import annotations

import re
import string
import unicodedata

_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCT = str.maketrans({c: " " for c in string.punctuation + "‘’“”–—"})
_NUMBER_WORDS = {
    "zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
    "seven": "7", "eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12",
    "thirteen": "13", "fourteen": "14", "fifteen": "15", "sixteen": "16", "seventeen": "17",
    "eighteen": "18", "nineteen": "19", "twenty": "20", "thirty": "30", "forty": "40",
    "fifty": "50", "sixty": "60", "seventy": "70", "eighty": "80", "ninety": "90",
    "hundred": "100", "thousand": "1000",
}


# Letters Unicode does not decompose into a base letter and an accent ("Jørn", "Łódź", "Straße").
_FOLDED_LETTERS = str.maketrans({"ø": "o", "Ø": "O", "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "æ": "ae",
                                 "Æ": "Ae", "œ": "oe", "Œ": "Oe", "ß": "ss", "þ": "th", "Þ": "Th",
                                 "ð": "d", "Ð": "D", "ı": "i"})


def strip_accents(text: str) -> str:
    """'São Paulo' -> 'Sao Paulo', 'Jørn' -> 'Jorn'."""
    text = text.translate(_FOLDED_LETTERS)
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def normalize_answer(text: str) -> str:
    """Lower-case, drop accents, punctuation and articles, spell small numbers as digits.

    Thousands separators are removed first so '1,000' and '1000' agree.
    """
    text = strip_accents(text).lower()
    text = re.sub(r"(?<=\d),(?=\d{3}\b)", "", text)
    text = text.translate(_PUNCT)
    text = _ARTICLES.sub(" ", text)
    words = [_NUMBER_WORDS.get(word, word) for word in text.split()]
    return " ".join(words)
