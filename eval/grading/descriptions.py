"""Answers that describe instead of naming: "A famous Russian novelist", "A major river".

SimpleQA grades an answer that neither states nor contradicts the gold NOT_ATTEMPTED. A
description opens with a determiner and is about the kind of thing the question asks for (a
person noun for "who", the question's own noun for "which river", a place word); its capitalised
words, if any, only qualify a noun ("a London laboratory"). A description that ends on a name
("a city in Europe") might still contradict the gold, so the grader leaves it undecided.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from factprobe.eval.grading.tokens import STOPWORDS, TYPE_WORDS, Token, tokenize

_OPENING = re.compile(
    r"^\s*(?:(?:it|this|that|he|she|they)(?:'s|\s+(?:is|was|were|are))\s+|the\s+answer\s+is\s+"
    r"|(?:probably|maybe|perhaps|possibly)\s+)?"
    r"(?:a|an|the|some|several|many|various|one\s+of(?:\s+the)?|a\s+few|its|his|her|their)\s+", re.IGNORECASE)
_NAMING = re.compile(r"\b(?:named|called|known\s+as|namely|by\s+the\s+name)\b|:", re.IGNORECASE)
_ORDINAL = re.compile(r"^\d+(?:st|nd|rd|th)$", re.IGNORECASE)
PERSON_NOUNS = frozenset("""
person people man woman men women scientist scientists inventor inventors author authors writer writers
novelist poet painter artist composer architect physicist chemist biologist mathematician astronomer
explorer engineer philosopher politician statesman leader ruler king queen emperor general soldier
musician singer actor actress director player athlete doctor physician researcher figure someone
""".split())
_PLACE_NOUNS = frozenset("place country nation area region location capital continent planet".split())
_WH_NOUN = re.compile(r"\b(?:which|what)\s+(?:(?:is|was|are|were|the|a|an|kind\s+of|type\s+of|sort\s+of)\s+)*"
                      r"([a-z]+)(?:\s+([a-z]+))?")


@dataclass(frozen=True)
class Description:
    """A description of the answer and the names it carries (empty when it names nothing)."""

    names: list[str]


def asked_nouns(question: str) -> set[str]:
    """The nouns right after "which"/"what" ("Which river …" -> river), lower-case words only."""
    match = _WH_NOUN.search(question)
    if match is None:
        return set()
    return {word for word in match.groups() if word and word not in STOPWORDS}


def _singular(word: str) -> str:
    return word[:-1] if word.endswith("s") and len(word) > 3 else word


def _names(tokens: list[Token]) -> list[str]:
    """Capitalised words after the first that do not qualify the next word ("London laboratory")."""
    names = []
    for index, token in enumerate(tokens[1:], start=1):
        if not token.capitalised or not token.norm.isalpha() or token.norm in STOPWORDS:
            continue
        following = tokens[index + 1] if index + 1 < len(tokens) else None
        qualifies = following is not None and following.gap == " " and following.norm.isalpha() \
            and following.norm not in STOPWORDS
        if not qualifies:
            names.append(token.text)
    return names


def describe(guess: str, question: str) -> Description | None:
    """The guess as a description of the kind of thing asked for, or None when it is not one."""
    if not _OPENING.match(guess) or _NAMING.search(guess):
        return None
    tokens = tokenize(guess)
    if any(t.norm.isdigit() or (t.norm[:1].isdigit() and not _ORDINAL.match(t.norm)) for t in tokens):
        return None  # a figure or a date is compared by type, not read as a description
    kinds = TYPE_WORDS | PERSON_NOUNS | _PLACE_NOUNS | asked_nouns(question)
    if not any(_singular(t.norm) in kinds or t.norm in kinds for t in tokens):
        return None
    return Description(_names(tokens))


__all__ = ["Description", "PERSON_NOUNS", "asked_nouns", "describe"]
