"""Refusal and hedging phrases the rule grader recognises."""

from __future__ import annotations

import re

# The MM-SAP refusal option, as the protocol fixes it (protocols §6).
REFUSAL_PHRASE = "Sorry, I can't help with it"

_REFUSAL = re.compile(
    r"\b(i\s+(?:do\s*n[o']?t|don'?t|cannot|can'?t|am\s+not\s+able\s+to|am\s+unable\s+to)\s+"
    r"(?:know|say|tell|answer|help|determine|be\s+sure|provide)"
    r"|sorry,?\s+i\s+can'?t\s+help"
    r"|no\s+(?:one|body)\s+(?:knows|can\s+know)"
    r"|(?:is|are|remains?)\s+(?:unknown|not\s+known|unclear)"
    r"|cannot\s+be\s+(?:known|determined|answered)"
    r"|not\s+enough\s+information|insufficient\s+information"
    r"|i\s+have\s+no\s+(?:idea|information)|no\s+idea"
    r"|unanswerable|search\s+elsewhere)\b"
    r"|^\s*(?:unknown|n/?a|none|no answer|not sure|unsure|i'?m not sure)\s*[.!]?\s*$",
    re.IGNORECASE,
)
_HEDGE = re.compile(
    r"\b(maybe|perhaps|possibly|probably|likely|i\s+think|i\s+believe|i\s+guess|not\s+(?:sure|certain)"
    r"|might\s+be|could\s+be|may\s+be)\b",
    re.IGNORECASE,
)


def is_refusal(answer: str) -> bool:
    """True when the answer declines to answer ("I don't know", the MM-SAP refusal phrase, …)."""
    return bool(_REFUSAL.search(answer.replace("\u2019", "'")))


def is_hedged(answer: str) -> bool:
    """True when the answer equivocates ("maybe", "I think", "not sure", …)."""
    return bool(_HEDGE.search(answer))
