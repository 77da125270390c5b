"""Answers that describe instead of naming: "A famous Russian novelist", "A major river".

SimpleQA grades an answer that neither states nor contradicts the gold NOT_ATTEMPTED. A
description opens with a determiner and is about the kind of thing the question asks for (a
person noun for "who", the question's own noun for "which river", a place word). Its names may
still contradict the gold ("a city in Europe"; a capitalised word qualifying a noun, as in "a
Russian novelist", is not a name), and a long one may be a paraphrase of the gold, so only a short
description without names, or one beside an admission of not knowing, is graded; the grader
leaves the others undecided. A rough location ("somewhere in Austria", "in Europe") is vague too.
"""

from __future__ import annotations

import re
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from factprobe.eval.grading.names import is_person_question
from factprobe.eval.grading.tokens import STOPWORDS, TYPE_WORDS, Token, names_in, tokenize

_OPENING = re.compile(
    r"^\s*(?:(?:it|this|that|he|she|they)(?:'s|\s+(?:is|was|were|are))\s+(?:(?:in|at|from|by|on)\s+)?"
    r"|the\s+answer\s+is\s+"
    r"|(?:probably|maybe|perhaps|possibly)\s+)?"
    r"(?:a|an|the|some|several|many|various|one\s+of(?:\s+the)?|a\s+few|its|his|her|their)\s+", re.IGNORECASE)
_INDEFINITE = re.compile(r"^\s*(?:(?:probably|maybe|perhaps|possibly)\s+)?(?:a|an|some)\s+[a-z]", re.IGNORECASE)
_NAMING = re.compile(r"\b(?:named|called|known\s+as|namely|by\s+the\s+name)\b|:", re.IGNORECASE)
_ORDINAL = re.compile(r"^\d+(?:st|nd|rd|th)$", re.IGNORECASE)
PERSON_NOUNS = frozenset("""
person people man woman men women scientist scientists inventor inventors author authors writer writers
novelist poet painter artist composer architect physicist chemist biologist mathematician astronomer
explorer engineer philosopher politician statesman leader ruler king queen emperor general soldier
musician singer actor actress director player athlete doctor physician researcher figure someone
president presidents minister monarch pope prince princess duke chancellor governor senator
""".split())
_PLACE_NOUNS = frozenset("place country nation area region location capital continent planet".split())
_WH_NOUN = re.compile(r"\b(?i:which|what)\s+(?:(?:is|was|are|were|the|a|an|kind\s+of|type\s+of|sort\s+of)\s+)*"
                      r"([a-z]+)(?:\s+([a-z]+))?")
_AGENT = re.compile(r"(?:man|woman|men|women|ist|er|or|ian)s?$")  # "clergyman", "chemist", "sailor"
_CONTINENT = (r"(?:Europe|Asia|Africa|Oceania|Antarctica|(?:North|South|Central|Latin)\s+America"
              r"|the\s+Americas|the\s+Middle\s+East)")
_PLACE = r"(?:the\s+)?(?:[a-z]+\s+)?[A-Z][\w'’-]*(?:\s+(?:of\s+)?[A-Z][\w'’-]*)*"
# "somewhere in Austria", "a city in Austria", "I believe it was in Europe": where, not which.
_VAGUE_PLACE = re.compile(
    rf"\b(?i:somewhere|some\s*place|someplace)\s+(?i:in|near|around|on|at)\s+{_PLACE}"
    rf"|\b(?i:a|an|some)\s+(?:\w+\s+){{0,2}}?(?i:city|town|village|place|region|area|country|state|province|part)"
    rf"\s+(?i:in|of|near)\s+{_PLACE}"
    rf"|\b(?i:in|on|from)\s+{_CONTINENT}\b")


@dataclass(frozen=True)
class Description:
    """A description of the answer and the names it carries (empty when it names nothing)."""

    names: list[str]  # capitalised words after the first that name something ("Europe" in "a city in Europe")
    size: int         # content words: a short description is vague, a long one a paraphrase


def asked_nouns(question: str) -> set[str]:
    """The nouns right after "which"/"what" ("Which river …" -> river), lower-case words only."""
    match = _WH_NOUN.search(question)
    if match is None:
        return set()
    return {word for word in match.groups() if word and word not in STOPWORDS}


def _singular(word: str) -> str:
    return word[:-1] if word.endswith("s") and len(word) > 3 else word


def _names(tokens: list[Token], asked: set[str]) -> list[str]:
    """Capitalised words after the first that name something.

    Not the question's own words, nor words qualifying a noun ("London laboratory", "Italian
    Renaissance master").
    """
    names: list[str] = []
    qualifies_next = False
    for index in range(len(tokens) - 1, 0, -1):
        token = tokens[index]
        following = tokens[index + 1] if index + 1 < len(tokens) else None
        touching = following is not None and following.gap == " " and following.norm.isalpha() \
            and following.norm not in STOPWORDS
        qualifier = touching and following is not None and (not following.capitalised or qualifies_next)
        capitalised = token.capitalised and token.norm.isalpha() and token.norm not in STOPWORDS
        if capitalised and not qualifier and token.norm not in asked:
            names.insert(0, token.text)
        qualifies_next = capitalised and qualifier
    return names


def _of_kind(word: str, kinds: AbstractSet[str], person: bool) -> bool:
    return word in kinds or _singular(word) in kinds or (person and len(word) > 4 and bool(_AGENT.search(word)))


def vague_place(guess: str) -> bool:
    """The guess only says roughly where ("somewhere in Austria", "in Europe") and names nothing else."""
    spans = [match.span() for match in _VAGUE_PLACE.finditer(guess)]
    if not spans:
        return False
    outside = "".join(ch if not any(a <= i < b for a, b in spans) else " " for i, ch in enumerate(guess))
    return not names_in(outside)


def describe(guess: str, question: str) -> Description | None:
    """The guess as a description of the kind of thing asked for, or None when it is not one."""
    opening = _OPENING.match(guess)
    if not opening or _NAMING.search(guess):
        return None
    tokens = tokenize(guess)
    described = tokenize(guess[opening.end():])  # "One of the …" opens a description, it states no figure
    if any(t.norm.isdigit() or (t.norm[:1].isdigit() and not _ORDINAL.match(t.norm)) for t in described):
        return None  # a figure or a date is compared by type, not read as a description
    kinds = TYPE_WORDS | PERSON_NOUNS | _PLACE_NOUNS | asked_nouns(question)
    person = is_person_question(question)
    indefinite = person and _INDEFINITE.match(guess) is not None  # names take no "a": "A Soviet cosmonaut"
    if not indefinite and not any(_of_kind(t.norm, kinds, person) and not t.capitalised for t in tokens[1:]):
        return None  # no common noun of the asked kind ("the Dominican Republic" is a name)
    asked = {t.norm for t in tokenize(question)}
    return Description(_names(tokens, asked), len([t for t in tokens if t.norm not in STOPWORDS]))


__all__ = ["Description", "PERSON_NOUNS", "asked_nouns", "describe", "vague_place"]
