"""Whether what a refusal says besides declining could hold a guess: the gold's words, a figure where one is
asked, or a name the question does not say, put forward or said of what is asked."""

from __future__ import annotations

import re

from factprobe.eval.grading.dates import gold_date
from factprobe.eval.grading.match_text import content, related, words
from factprobe.eval.grading.reading import REFERS_BACK
from factprobe.eval.grading.sentence_names import OPENERS
from factprobe.eval.grading.sentence_slot import restates
from factprobe.eval.grading.spelled import spelled_to_digits
from factprobe.eval.grading.wording import FUNCTION_WORDS

# Words that offer a guess ("probably", "I believe") and words that put a name forward ("named X", "was won by X").
_GUESSES = re.compile(r"\b(?:likely|probably|possibly|perhaps|maybe|might\s+be|may\s+be|could\s+be|typically|usually"
                      r"|i\s+(?:believe|think|suspect|recall)|(?:best|educated)\s+guess|estimated?|approximately)\b",
                      re.IGNORECASE)
_PUTS_FORWARD = re.compile(r"\b(?:thinking\s+of|mean|named|called|refer(?:s|ring)?\s+to|about|around)\b"
                           r"|\b(?:is|was|are|were|became|won|by)\s+(?:the\s+)?(?-i:[A-Z\d])", re.IGNORECASE)
_ONE_OF = re.compile(r"\s*(?:one|either|any)\s+of\b", re.IGNORECASE)  # "one of the X rulers": a guess at a group
_AT_LENGTH = 12  # words from which what a refusal says besides declining is read clause by clause
# Capitalised words that open a sentence or a clause rather than name something: a sentence's openers, and the
# ones a refusal's advice and asides open with.
_OPENERS = OPENERS | frozenset("here if would about additionally some many most please note unfortunately your you "
                               "based alternatively otherwise".split())


def names_no_candidate(context: str, golds: list[str], question: str) -> bool:
    """Nothing in a long context could be a guess: no word of the gold (nor a gold of the question's own words,
    as where it offers two options), no figure the question does not state where the gold is a figure or date,
    no clause that offers a guess or speaks of what is asked, and no name the question does not say in a clause
    that puts it forward, refers back to the asked thing or is short."""
    asked = set(words(question))
    if len(context.split()) < _AT_LENGTH or not all(content(gold, asked) for gold in golds) or any(
            related(content(context, asked), content(gold, asked)) for gold in golds):
        return False
    figured = any(re.search(r"\d", spelled_to_digits(gold)) or gold_date(gold) is not None for gold in golds)
    if figured and set(re.findall(r"\d+", spelled_to_digits(context))) - set(re.findall(r"\d+", question)):
        return False
    for clause in re.split(r",\s+|\n+", context):
        if _GUESSES.search(clause) or restates(clause, question):
            return False
        names = set(words(" ".join(re.findall(r"\b[A-Z][\w'’-]*", clause)))) - asked - FUNCTION_WORDS - _OPENERS
        if names and (_PUTS_FORWARD.search(clause) or REFERS_BACK.search(clause) or _ONE_OF.match(clause)
                      or len(clause.split()) <= 4):
            return False
    return True
