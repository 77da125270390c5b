"""Refusal, hedging, negation and premise-denial phrases the rule grader recognises."""

from __future__ import annotations

import re

# The MM-SAP refusal option, as the protocol fixes it (protocols §6).
REFUSAL_PHRASE = "Sorry, I can't help with it"

_NOT = (r"(?:do\s*n[o']?t|don'?t|cannot|can'?t|could\s*n[o']?t|couldn'?t|am\s+not\s+able\s+to"
        r"|am\s+unable\s+to|'?m\s+unable\s+to|'?m\s+not\s+able\s+to|am\s+not|'?m\s+not|won'?t|will\s+not"
        r"|would\s*n[o']?t|wouldn'?t)")
_REFUSAL = re.compile(
    r"\b(i\s*" + _NOT + r"\s+(?:really\s+|quite\s+|exactly\s+|reliably\s+)?"
    r"(?:know|say|tell|answer|help|determine|be\s+(?:sure|certain)|provide|recall|remember|find|verify|place"
    r"|give\s+(?:you\s+)?(?:a|an|one|the|any)\s+(?:\w+\s+)?(?:answer|number|figure|name|date|year)"
    r"|confirm|aware|guess|speculate|check|look\s+(?:it|that|this)\s+up|browse|access|name|identify|pin\s+down"
    r"|have\s+(?:that|this|the|any|an?|enough|specific|reliable|access|information|data|details))"
    r"|unable\s+to\s+(?:answer|provide|find|determine|verify|say|confirm|help)"
    r"|sorry,?\s+i\s+can'?t\s+help"
    r"|no\s+(?:one|body)\s+(?:knows|can\s+know)"
    r"|(?:is|are|remains?)\s+(?:unknown|not\s+known|unclear|uncertain|debated|disputed|contested)"
    r"|(?:cannot|can'?t|could\s*n[o']?t)\s+be\s+(?:known|determined|answered|said)"
    r"|not\s+enough\s+information|insufficient\s+information|no\s+(?:reliable\s+)?information"
    r"|i\s+have\s+no\s+(?:idea|information|data|record)|no\s+idea|beyond\s+my\s+knowledge"
    r"|i\s*(?:forget|forgot|have\s+forgotten|'ve\s+forgotten)\b"
    r"|i\s+lack\s+(?:the\s+)?(?:information|knowledge|data)"
    r"|(?:impossible|not\s+possible|no\s+way|hard|difficult)\s+to\s+(?:know|say|tell|determine)"
    r"|(?:need|have)\s+to\s+(?:look\s+(?:it|that|this)\s+up|check)|need\s+more\s+(?:context|information|details)"
    r"|unanswerable|search\s+elsewhere|check\s+(?:a\s+)?(?:reliable|official|another)\s+source"
    # "beyond what I can answer", "outside my knowledge", "my knowledge doesn't cover this"
    r"|(?:beyond|outside)\s+(?:of\s+)?what\s+i\s+(?:can|could|know)|(?:outside|beyond)\s+(?:of\s+)?(?:the\s+scope\s+of\s+)?my\s+"
    r"(?:knowledge|training|expertise)"
    r"|(?:knowledge|training(?:\s+data)?|memory)\s+(?:does\s*n[o']?t|doesn'?t|did\s*n[o']?t|didn'?t)\s+"
    r"(?:cover|include|extend|contain)"
    # "I'd rather not guess", "I'd prefer not to say"
    r"|(?:rather|prefer)\s+not\s+(?:to\s+)?(?:guess|say|speculate|answer)|only\s+be\s+guessing"
    # "so I'll pass on this one", "nothing comes to mind", "no reliable answer springs to mind"
    r"|i'?ll\s+(?:have\s+to\s+)?pass|i\s+(?:will|must)\s+pass"
    r"|(?:nothing|no\s+(?:\w+\s+)?(?:answer|name|figure|date))\s+(?:comes|springs)\s+to\s+mind"
    # "not sure which", "not sure about the other": the rest is not known
    r"|not\s+(?:sure|certain)\s+(?:which|who|what|when|where|how|(?:of|about)\s+(?:that|this|it\b|the\s+(?:other|rest|exact|precise"
    r"|specific|day|date|month|year|figure|number|name|details?)))"
    r"|i'?m\s+(?:unsure|uncertain)\b|not\s+(?:familiar\s+with|something\s+i\s+(?:know|can))"
    r"|not\s+(?:confident|sure|certain)\s+enough\s+to"
    r"|\b(?:no|a)\s+clue\b|drawing\s+a\s+blank|(?:my\s+)?mind\s+(?:is|goes)\s+blank"
    r"|i\s+have\s*n[o']?t\s+(?:heard|come\s+across)|(?:not|never)\s+in\s+a\s+position\s+to"
    # sending the asker elsewhere: "you may want to check an encyclopedia", "I suggest consulting a reference"
    r"|(?:want|need|wish)\s+to\s+(?:check|consult|look\s+(?:it\s+|this\s+|that\s+)?up|search|verify)"
    r"|(?:suggest|recommend)\s+(?:checking|consulting|looking|searching|verifying)"
    r"|(?:check|consult)\s+(?:a|an|the)\s+(?:\w+\s+)?(?:encyclopa?edia|reference|dictionary|atlas|database)"
    r"|from\s+memory\s+alone"
    # "the name escapes me", "it slips my mind"; a request to clarify the question instead of an answer
    r"|escapes?\s+me|slips?\s+my\s+mind|(?:on\s+)?the\s+tip\s+of\s+my\s+tongue"
    r"|(?:please|could\s+you|can\s+you)\s+(?:clarify|specify|be\s+more\s+specific)|clarify\s+which"
    # "Could you tell me which 'Parasite' you mean?"
    r"|which\s+(?:[\w'\"’‘“”-]+\s+){0,4}?(?:do\s+)?you\s+(?:mean|have\s+in\s+mind|are\s+(?:asking|thinking)\s+about))\b"
    r"|^\s*(?:do|did)\s+you\s+mean\b[^?]*\?\s*$"
    r"|^\s*(?:unknown|n/?a|none|no answer|not sure|unsure|i'?m not sure|not certain|i'?m not certain|pass|skip"
    r"|no comment|(?:i\s+)?(?:can'?t|cannot)\s+say)\s*[.!]?\s*$",
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
    r"\b(there\s*(?:'s|\s+(?:is|was|are|were|has\s+been|have\s+been))\s+(?:no|not|never|only)\b"
    r"|no\s+such\b|(?:does|did|do)\s*(?:n[o']?t|n't)\s+(?:exist|have\s+(?:any|an?)\b|happen)"
    # "long before Twitter existed", "before the telephone was invented"
    r"|before\s+(?:\w+\s+){0,3}?(?:existed|was\s+(?:invented|built|founded|discovered|created))"
    # "he only won one", "she only ever had two"
    r"|only\s+(?:ever\s+)?(?:\w+ed|won|had|wrote|made|got|met|took|gave|flew|saw|became|held|led|built)\s+"
    r"(?:one|1|a\s+single|once)\b"
    r"|never\s+(?:existed|happened|had\s+any)|the\s+premise|not\s+a\s+real|trick\s+question"
    r"|(?:false|mistaken|wrong|incorrect|faulty)\s+(?:premise|assumption)"
    r"|(?:based|rests|relies)\s+on\s+(?:a|an)\s+(?:false|mistaken|wrong|incorrect|faulty)"
    # "historical records don't mention one"
    r"|(?:records?|sources?|history|documents?|accounts?)\s+(?:do|does|did)\s*(?:n[o']?t|n't)\s+"
    r"(?:mention|record|say|tell|show|include|name)"
    # "Antarctica has no capital", "Jupiter has no cities"
    r"|(?:has|have|had)\s+(?:no|never)\b"
    # "it hasn't happened yet", "has not yet taken place", "is yet to be held"
    r"|(?:has|have|had)\s*(?:n[o']?t|n't)\s+(?:yet\s+|ever\s+)?(?:happened|occurred|taken\s+place|been|had|existed)"
    r"|(?:is|are)\s+yet\s+to\b|(?:has|have)\s+not\s+happened|in\s+the\s+future"
    # "no human has landed there", "nobody ever did", "they never met", "no record of that"
    r"|(?:^|,\s*|;\s*)(?:no|none|nobody|no\s+one)\s+(?:\w+\s+){0,2}?(?:has|have|had|was|were|is|are|did|ever)\b"
    r"|^\s*(?:nobody|no\s+one|none|nothing|no\s+\w+)\s*,?\s*(?:yet|so\s+far|as\s+of\s+(?:now|today)|to\s+date"
    r"|ever)?\s*[.!]?\s*$"
    r"|\bnever\s+(?!mind)\w+"
    r"|no\s+(?:\w+\s+)?(?:record|records|evidence|documentation|account|accounts)\b"
    r"|(?:is|are|was|were)\s*(?:n[o']?t|n't)\s+(?:recorded|documented|known)\b"
    r"|(?:isn'?t|aren'?t|wasn'?t|weren'?t)\s+(?:recorded|documented|known)\b)",
    re.IGNORECASE,
)
# Words before a mention that deny it ("not Paris", "rather than Paris").
NEGATORS = frozenset("not never no nor neither isnt wasnt arent werent dont doesnt didnt cant cannot couldnt "
                     "wouldnt hasnt havent hadnt wont shouldnt".split())
NEGATING_PHRASES = (("rather", "than"), ("instead", "of"), ("other", "than"))
# "about 4,900 m", "more than 50k": an approximate or bounded figure.
APPROXIMATE = re.compile(
    r"\b(about|around|approximately|approx|roughly|nearly|almost|some|circa|ca|c|over|under|more\s+than"
    r"|less\s+than|fewer\s+than|at\s+least|at\s+most|up\s+to|upwards\s+of|estimated|an\s+estimated|~"
    r"|several|a\s+few|many)\s*$",
    re.IGNORECASE,
)
# "several hundred thousand" says only "more than a hundred thousand"
LOWER_BOUND = re.compile(r"\b(over|more\s+than|at\s+least|upwards\s+of|several|a\s+few|many)\s*$", re.IGNORECASE)
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
