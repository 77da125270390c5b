"""Normalised words, the unit every text match kind compares: case, accents, punctuation, plurals,
spelled numbers and British spellings made alike (`words`), function words and the question's own
words left out (`content`)."""

from __future__ import annotations

import re
import unicodedata

from factprobe.eval.core.normalize import strip_accents
from factprobe.eval.grading.spelled import spelled_to_digits

FUNCTION_WORDS = frozenset("a an the of in at on to for by and is was are were it its s this that which what who "
                            "whom whose where when how be been as from with called named".split())


# British spellings read the American way ("-isation", "-ise", "-our", "-tre", "-ogue"); words too short
# for an ending to be a spelling ("tour", "rise") are left alone.
_BRITISH = re.compile(r"(?<=\w{2})(?:is(?=ation$|e$|ed$|ing$|er$)|our(?=$|ed$|ing$|ite$|able$)|tre(?=$|d$)|ogue(?=$))")
_AMERICAN = {"is": "iz", "our": "or", "tre": "ter", "ogue": "og"}


def _american(word: str) -> str:
    return _BRITISH.sub(lambda m: _AMERICAN[m[0]], word) if len(word) >= 5 else word


def words(text: str) -> list[str]:
    """Normalised words: lower case, no accents, punctuation and hyphens as breaks, a modifier letter inside a
    word dropped (a glottal stop's mark), a plural "s" dropped, British spellings read the American way."""
    if not text.isascii():
        text = "".join(c for c in text if unicodedata.category(c) != "Lm")
    text = spelled_to_digits(strip_accents(text)).lower().replace("'s ", " ").replace("&", " and ")
    found = re.findall(r"[a-z0-9]+[+#]*", text)
    return [_american(w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w) for w in found]


def content(text: str, implied: set[str]) -> list[str]:
    """The text's normalised words without function words and words the question implies."""
    return [w for w in words(text) if w not in implied and w not in FUNCTION_WORDS]


# "which <role>" asks for a person.
ROLE_ASKED = re.compile(
    r"\bwhich\s+(?:[\w-]+\s+)??(?:\w+(?:ist|ician)|author|poet|painter|writer|composer|sculptor|rider"
    r"|architect|driver|player|director|actor|actress|singer|explorer|inventor|historian|king|queen"
    r"|emperor|empress|pope|president|monarch|ruler|astronaut|cosmonaut|philosopher|general|admiral"
    r"|footballer|boxer|golfer|cricketer|designer|engineer|chef|saint|prophet)\b", re.I)


__all__ = ["FUNCTION_WORDS", "ROLE_ASKED", "content", "words"]
