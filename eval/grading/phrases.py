"""Refusal phrases and the words that make a figure approximate or a bound."""

from __future__ import annotations

import re

# The MM-SAP refusal option, as the protocol fixes it (docs/protocols.md §6).
REFUSAL_PHRASE = "Sorry, I can't help with it"

_NOT = (r"(?:do\s*n[o']?t|don'?t|cannot|can'?t|could\s*n[o']?t|couldn'?t|am\s+not\s+able\s+to"
        r"|am\s+unable\s+to|'?m\s+unable\s+to|'?m\s+not\s+able\s+to|am\s+not|'?m\s+not|won'?t|will\s+not"
        r"|would\s*n[o']?t|wouldn'?t)")
# A negated knowing verb, its speaker "I" or left implicit ("Don't know"), a refusal's other wordings, …
_REFUSAL = re.compile(
    r"\b((?:i\s*|^)(?:\w+ly,?\s+)?" + _NOT + r"\s+(?:really\s+|quite\s+|exactly\s+|reliably\s+)?"
    r"(?:know|say|tell|answer|help|determine|be\s+(?:sure|certain|more\s+specific|more\s+precise)|provide|recall|remember|find|verify|place"
    r"|give\s+(?:you\s+)?(?:a|an|one|the|any)\s+(?:\w+\s+)?\w+"
    r"|confirm|aware|guess|speculate|check|look\s+(?:it|that|this)\s+up|browse|search|access|name|identify|pin\s+down"
    r"|have\s+(?:that|this|the|any|an?|enough|specific|reliable|access|information|data|details))"
    r"|unable\s+to\s+(?:answer|provide|find|determine|verify|say|confirm|help|search|browse|access|look)"
    r"|sorry,?\s+i\s+can'?t\s+help"
    r"|no\s+(?:one|body)\s+(?:knows|can\s+know)"
    r"|(?:is|are|remains?)\s+(?:unknown|not\s+known|unclear|uncertain|debated|disputed|contested)"
    r"|(?:cannot|can'?t|could\s*n[o']?t)\s+be\s+(?:known|determined|answered|said)"
    r"|(?:not|isn't|is\s+not)\s+enough\s+information|insufficient\s+information|no\s+(?:reliable\s+)?information"
    r"|i\s+have\s+no\s+(?:idea|information|data|record|knowledge|memory|recollection)|no\s+idea|beyond\s+my\s+knowledge"
    r"|^\s*(?:i'?m\s+)?not\s+(?:sure|certain)\s*[;.]\s*(?=i\s+only\s+(?:know|remember|recall)\b"  # then background,
    r"|(?:it|he|she|they|this|that|the\s+[a-z]+)\s+(?:is|was|are|were|came|comes|lies|lay|sits|stands|lived"  # or a
    r"|worked)\s+(?-i:(?![A-Z\d])))"  # clause about it that names nothing right after its verb
    r"|^\s*dunno|(?:unknown|not\s+known|unclear|uncertain|unfamiliar)\s+to\s+me"  # not knowing, said of the speaker
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
    r"|specific|day|date|month|year|figure|number|name|details?)|(?:the|its|his|her|their|(?:the\s+)?[\w-]+'s)\s+(?:[\w'-]+\s+)?[\w'-]+(?=\s*[.!]?\s*$)))"
    r"|i'?m\s+(?:unsure|uncertain)\b|(?:not|isn't|is\s+not)\s+(?:familiar(?:\s+enough)?\s+with|something\s+i\s+(?:know|can))"
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
    r"|^\s*(?:unknown|n/?a|no answer|not sure|unsure|i'?m not sure|not certain|i'?m not certain|pass|skip"
    r"|no comment)\s*(?:,?\s*sorry)?\s*[.!]?\s*$",
    re.IGNORECASE,
)
# "more than 50k", "under 300": a bound ("several hundred thousand" says "more than a hundred thousand").
_LOWER = r"over|more\s+than|at\s+least|upwards\s+of|several|a\s+few|many"
_UPPER = r"under|less\s+than|fewer\s+than|at\s+most|up\s+to"
LOWER_BOUND, UPPER_BOUND = (re.compile(rf"\b({words})\s*$", re.IGNORECASE) for words in (_LOWER, _UPPER))
APPROXIMATE = re.compile(rf"\b(about|around|approximately|approx|roughly|nearly|almost|some|circa|ca|c|close\s+to"
                         rf"|estimated|an\s+estimated|~|{_LOWER}|{_UPPER})\s*$", re.IGNORECASE)


def is_refusal(answer: str) -> bool:
    """True when the answer declines to answer ("I don't know", the MM-SAP refusal phrase, …)."""
    return bool(_REFUSAL.search(answer.replace("\u2019", "'").replace("\u2018", "'")))


# A sentence that sends the asker elsewhere or asks them for more ("I'd recommend checking …", "Could you
# tell me which …?", "Let me know …"), and the list that such a sentence opens with a colon.
_ADVICE = re.compile(
    r"\b(?:i'?d|i\s+would|i)\s+(?:\w+ly\s+)?(?:recommend|suggest|advise)|\b(?:could|can|would)\s+you\s+(?:please\s+)?"
    r"(?:provide|clarify|share|tell|give|specify|let|confirm)|\bif\s+you\s+(?:could|can)\s+(?:provide|share|give|tell"
    r"|clarify)|\blet\s+me\s+know\b|\bwould\s+you\s+like\b|\bbe\s+happy\s+to\s+help\b|\bis\s+there\s+(?:something|anything)\b"
    r"|\byou\s+(?:can|could|may|might|should|would\s+need\s+to|'d\s+need\s+to)\s+(?:want\s+to\s+)?(?:check|consult"
    r"|contact|visit|search|look|refer|verify|try)|^\W*(?:for\s+the\s+most\s+(?:accurate|current|up-to-date|reliable)"
    r"|to\s+(?:find(?:\s+out)?|get|verify|confirm|obtain)\s+(?:this|that|the|who|what|which|when|where|accurate|current|up-to-date|reliable))\b",
    re.IGNORECASE)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z*#\"(])|\n+")
_NUMBERED = re.compile(r"^([ \t]*\d{1,2})\.[ \t]+", re.MULTILINE)
_LIST_ITEM = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+")
_STATEMENT_END = re.compile(r",\s+(?:so|and|but)\s+|;\s*", re.IGNORECASE)  # where the advice may begin a sentence
# The speaker's knowledge cutoff ("as of my last update in July 2024"): its date is no guess.
CUTOFF = re.compile(r"\bmy\s+(?:\w+\s+){0,2}(?:knowledge|training|update|data|information)\b|\bknowledge\s+cut-?off\b",
                    re.IGNORECASE)


def without_advice(text: str) -> str:
    """The text without what sends the asker elsewhere or asks them for more (from the statement where it
    begins to the end of its sentence) and without the list items such a sentence introduces with a colon."""
    kept: list[str] = []
    skipping = False
    for piece in _SENTENCE_END.split(_NUMBERED.sub(r"\1) ", text)):  # "1. Check …" is an item, not a sentence
        if skipping and _LIST_ITEM.match(piece):
            continue
        advice = _ADVICE.search(piece.replace("\u2019", "'"))
        skipping = bool(advice) and piece.rstrip().endswith(":")
        if advice is None:
            kept.append(piece)
            continue
        before = [m.start() for m in _STATEMENT_END.finditer(piece, 0, advice.start())]
        if before:  # "Records mention 1871, so I'd suggest …": the statement before the advice stays
            kept.append(piece[:before[-1]] + ".")
    return " ".join(kept).strip()
