"""Refusal, hedging, negation and premise-denial phrases the rule grader recognises."""

from __future__ import annotations

import re

# The MM-SAP refusal option, as the protocol fixes it (protocols §6).
REFUSAL_PHRASE = "Sorry, I can't help with it"

_NOT = (r"(?:do\s*n[o']?t|don'?t|cannot|can'?t|could\s*n[o']?t|couldn'?t|am\s+not\s+able\s+to"
        r"|am\s+unable\s+to|'?m\s+unable\s+to|'?m\s+not\s+able\s+to|am\s+not|'?m\s+not)")
_REFUSAL = re.compile(
    r"\b(i\s+" + _NOT + r"\s+(?:really\s+|quite\s+|exactly\s+)?"
    r"(?:know|say|tell|answer|help|determine|be\s+(?:sure|certain)|provide|recall|remember|find|verify"
    r"|confirm|aware"
    r"|have\s+(?:that|this|the|any|enough|specific|reliable|access|information|data|details))"
    r"|unable\s+to\s+(?:answer|provide|find|determine|verify|say|confirm|help)"
    r"|sorry,?\s+i\s+can'?t\s+help"
    r"|no\s+(?:one|body)\s+(?:knows|can\s+know)"
    r"|(?:is|are|remains?)\s+(?:unknown|not\s+known|unclear|uncertain)"
    r"|cannot\s+be\s+(?:known|determined|answered)"
    r"|not\s+enough\s+information|insufficient\s+information|no\s+(?:reliable\s+)?information"
    r"|i\s+have\s+no\s+(?:idea|information|data|record)|no\s+idea|beyond\s+my\s+knowledge"
    r"|i\s+lack\s+(?:the\s+)?(?:information|knowledge|data)"
    r"|(?:impossible|not\s+possible|no\s+way)\s+to\s+(?:know|say|tell|determine)"
    r"|(?:need|have)\s+to\s+(?:look\s+(?:it|that|this)\s+up|check)|need\s+more\s+(?:context|information|details)"
    r"|unanswerable|search\s+elsewhere|check\s+(?:a\s+)?(?:reliable|official|another)\s+source)\b"
    r"|^\s*(?:unknown|n/?a|none|no answer|not sure|unsure|i'?m not sure|not certain|i'?m not certain)\s*[.!]?\s*$",
    re.IGNORECASE,
)
_HEDGE = re.compile(
    r"\b(maybe|perhaps|possibly|probably|likely|presumably|i\s+think|i\s+believe|i\s+guess|i'?d\s+guess"
    r"|my\s+(?:best\s+)?guess|not\s+(?:sure|certain|confident)|might\s+be|could\s+be|may\s+be|if\s+i\s+recall"
    r"|if\s+i\s+remember|i\s+suspect|it\s+seems|seems\s+to\s+be|unsure|not\s+100)\b",
    re.IGNORECASE,
)
# "There is no such person", "it never happened": the answer rejects the question's premise.
_PREMISE_DENIAL = re.compile(
    r"\b(there\s+(?:is|was|are|were)\s+no\b|no\s+such\b|(?:does|did)\s*(?:n[o']?t|n't)\s+(?:exist|have\s+any|happen)"
    r"|never\s+(?:existed|happened|had\s+any)|the\s+premise|false\s+premise|not\s+a\s+real)",
    re.IGNORECASE,
)
# Words before a mention that deny it ("not Paris", "rather than Paris").
NEGATORS = frozenset("not never no nor neither isnt wasnt arent werent dont doesnt didnt cant cannot couldnt "
                     "wouldnt hasnt havent hadnt wont shouldnt".split())
NEGATING_PHRASES = (("rather", "than"), ("instead", "of"), ("other", "than"))
# "about 4,900 m", "more than 50k": an approximate or bounded figure.
APPROXIMATE = re.compile(
    r"\b(about|around|approximately|approx|roughly|nearly|almost|some|circa|ca|c|over|under|more\s+than"
    r"|less\s+than|fewer\s+than|at\s+least|at\s+most|up\s+to|upwards\s+of|estimated|an\s+estimated|~)\s*$",
    re.IGNORECASE,
)
LOWER_BOUND = re.compile(r"\b(over|more\s+than|at\s+least|upwards\s+of)\s*$", re.IGNORECASE)
UPPER_BOUND = re.compile(r"\b(under|less\s+than|fewer\s+than|at\s+most|up\s+to)\s*$", re.IGNORECASE)


def _plain(text: str) -> str:
    return text.replace("\u2019", "'").replace("\u2018", "'")


def is_refusal(answer: str) -> bool:
    """True when the answer declines to answer ("I don't know", the MM-SAP refusal phrase, …)."""
    return bool(_REFUSAL.search(_plain(answer)))


def is_hedged(answer: str) -> bool:
    """True when the answer equivocates ("maybe", "I think", "not sure", …)."""
    return bool(_HEDGE.search(_plain(answer)))


def denies_premise(answer: str) -> bool:
    """True when the answer says the thing asked about does not exist or never happened."""
    return bool(_PREMISE_DENIAL.search(_plain(answer)))


def refusal_spans(text: str) -> list[tuple[int, int]]:
    """Character spans of refusal phrases in the text."""
    return [match.span() for match in _REFUSAL.finditer(_plain(text))]


def hedge_spans(text: str) -> list[tuple[int, int]]:
    """Character spans of hedging phrases in the text."""
    return [match.span() for match in _HEDGE.finditer(_plain(text))]
