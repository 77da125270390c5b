"""Statements beside a refusal that give context about the question's subject instead of a guess.

"That's a famous baroque painting, but I'm not sure who painted it" and "I don't know her maiden
name, but she grew up in Leeds" say something true or false about what the question is about
without answering it: SimpleQA grades them NOT_ATTEMPTED. Two shapes count as context:

- the subject described with an article and a common noun: "It's a Dutch invention", "That was
  the opera that opened the season" (a phrase ending in a capitalised word, as in "It's the Eiffel
  Tower" or "It's a Goya", is a name, hence a guess);
- a sentence about "he", "she" or "they" that shares no word with the question ("he was born in
  Zanzibar" for a question about his birth name); one that does ("she was born in Leeds" for
  "Where was she born?") answers it.

A statement that names how something is called ("named", "called", "by", "surname"), or that
hedges around a name ("It's the Galileo design, I think"), is a guess.
"""

from __future__ import annotations

import re

from factprobe.eval.grading.phrases import is_hedged
from factprobe.eval.grading.tokens import STOPWORDS, names_in, tokenize

_DESCRIBED_SUBJECT = re.compile(r"^\s*(?:it|that|this)(?:'s|\s+(?:is|was))\s+(?:a|an|the)\s+(?P<phrase>.*)$",
                                re.IGNORECASE)
_PERSON_SUBJECT = re.compile(r"^\s*(?:he|she|they)\b", re.IGNORECASE)
_NAMING = re.compile(r"\b(?:named|called|known\s+as|by|name|surname|spelled|spelt)\b|:", re.IGNORECASE)
_STEM = 4  # letters two words must share at the start to count as the same word ("painted"/"painting")


def _stems(text: str) -> set[str]:
    return {t.norm[:_STEM] for t in tokenize(text) if t.norm not in STOPWORDS and t.norm.isalpha()}


def _ends_in_common_noun(phrase: str) -> bool:
    """The noun phrase opening the text ends in a lower-case word ("famous Spanish painting", not "Eiffel Tower")."""
    words: list[str] = []
    for token in tokenize(phrase):
        if token.norm in STOPWORDS or not token.norm.isalpha() or (words and token.gap.strip()):
            break
        words.append(token.text)
    return bool(words) and words[-1][:1].islower()


def is_context(statement: str, question: str) -> bool:
    """True when the statement describes the question's subject rather than offering an answer."""
    if _NAMING.search(statement) or (is_hedged(statement) and names_in(statement)):
        return False
    described = _DESCRIBED_SUBJECT.match(statement)
    if described:
        return _ends_in_common_noun(described["phrase"])
    if _PERSON_SUBJECT.match(statement):
        return not (_stems(statement) & _stems(question))
    return False


__all__ = ["is_context"]
