"""Lengths in words and option positions of a dataset's questions (`datasets describe`, key
`statistics`): MM-SAP's Tables 5 and 6, Video SimpleQA's question and answer lengths (mean, median
and maximum).

Words are counted as the papers describe their averages, by spaces: a word is a whitespace-separated
token holding at least one letter or digit (a lone dash or question mark is not a word), except that
each CJK ideograph or kana counts as one word on its own, since Chinese and Japanese are written
without spaces ("北京大学 in 2024" is 6 words). Hangul is written with spaces and counted by them.
A regular expression, not a tokenizer library: a segmenter (jieba, spaCy) would count words by its
own dictionary, which no paper's average uses.

Option letters are the options' positions as released (A first). MM-SAP's loader takes the refusal
option out of the choices and keeps its released letter as the field `refusal_option`; it is put
back at that letter here, so the right option's letter is its released one too (a question whose
gold is the refusal option has the refusal letter as its right letter).
"""

from __future__ import annotations

import re
import statistics
import string
from collections import Counter
from typing import Any

from factprobe.eval.core.schema import Question
from factprobe.eval.datasets.mmsap import REFUSAL_TEXT

WORD_COUNTING = "whitespace tokens holding a letter or digit; each CJK ideograph or kana one word"
CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
TOKEN = re.compile(rf"[{CJK}]|[^\s{CJK}]+")
LETTERS = string.ascii_uppercase
REFUSAL_FIELD = "refusal_option"


def word_count(text: str) -> int:
    """Words in `text` (see the module doc)."""
    return sum(1 for token in TOKEN.findall(text) if any(char.isalnum() for char in token))


def summary(values: list[int]) -> dict[str, Any]:
    """n, mean, median and maximum of word counts (None but n when there are none)."""
    if not values:
        return {"n": 0, "mean": None, "median": None, "max": None}
    return {"n": len(values), "mean": round(statistics.fmean(values), 2),
            "median": round(float(statistics.median(values)), 2), "max": max(values)}


def refusal_letter(question: Question) -> str | None:
    """The released letter of the refusal option a loader took out of the choices, if any."""
    value = question.fields.get(REFUSAL_FIELD)
    if isinstance(value, str) and len(value.strip()) == 1 and value.strip().upper() in LETTERS:
        return value.strip().upper()
    return None


def released_options(question: Question) -> list[str] | None:
    """The options in their released order, the refusal option put back at its letter."""
    if question.choices is None:
        return None
    options = list(question.choices)
    letter = refusal_letter(question)
    if letter is not None and LETTERS.index(letter) <= len(options):
        options.insert(LETTERS.index(letter), REFUSAL_TEXT)
    return options


def right_letter(question: Question) -> str | None:
    """The gold option's released letter: the refusal letter when the refusal option is the gold."""
    options = released_options(question)
    if options is None:
        return None
    if question.answer is None:
        return refusal_letter(question)
    if question.answer not in (question.choices or []):
        return None
    index = options.index(question.answer)
    return LETTERS[index] if index < len(LETTERS) else None


def word_statistics(questions: list[Question]) -> dict[str, Any]:
    """Words per question, gold answer (answerable questions) and option (as loaded; with MM-SAP's
    refusal option as well under `option_with_refusal`)."""
    options = [word_count(choice) for q in questions for choice in q.choices or []]
    words: dict[str, Any] = {"question": summary([word_count(q.question) for q in questions]),
                             "answer": summary([word_count(q.answer) for q in questions if q.answer is not None])}
    if any(q.choices is not None for q in questions):
        words["option"] = summary(options)
    if any(refusal_letter(q) for q in questions):
        words["option_with_refusal"] = summary(
            [word_count(option) for q in questions for option in released_options(q) or []])
    return words


def letter_counts(letters: list[str | None]) -> dict[str, int]:
    return dict(sorted(Counter(letter for letter in letters if letter is not None).items()))


def option_statistics(questions: list[Question]) -> dict[str, Any] | None:
    """For multiple-choice questions: options per question and the letters of the right option and
    of the refusal option (released positions, see the module doc); None without any."""
    chosen = [q for q in questions if q.choices is not None]
    if not chosen:
        return None
    counts = Counter(len(released_options(q) or []) for q in chosen)
    return {"questions": len(chosen),
            "options_per_question": {str(n): counts[n] for n in sorted(counts)},
            "right_letter": letter_counts([right_letter(q) for q in chosen]),
            "refusal_letter": letter_counts([refusal_letter(q) for q in chosen])}


def per_category(questions: list[Question]) -> dict[str, Any]:
    """Word statistics and option letters per category (MM-SAP: per subset), most questions first."""
    groups: dict[str, list[Question]] = {}
    for question in questions:
        groups.setdefault(question.category, []).append(question)
    out: dict[str, Any] = {}
    for category, members in sorted(groups.items(), key=lambda item: (-len(item[1]), item[0])):
        entry: dict[str, Any] = {"words": word_statistics(members)}
        letters = option_statistics(members)
        if letters is not None:
            entry["options"] = letters
        out[category] = entry
    return out
