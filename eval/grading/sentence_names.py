"""The names a sentence states beside the question's own words and its frame: the answer phrase of a sentence
that names its answer ("The prize went to X."), read the same whether the name is right or wrong."""

from __future__ import annotations

import re

from factprobe.eval.grading.wording import FUNCTION_WORDS, ROLE_ASKED, words

CALENDAR = frozenset("january february march april may june july august september october november december monday "
                     "tuesday wednesday thursday friday saturday sunday".split())
_LEAD_IN = re.compile(r"^(?:it|that|this|he|she|they)(?:'s|\s+(?:is|was|are|were))\s+", re.IGNORECASE)

# A name in a sentence: capitalised words, maybe joined by a name's particles ("Gulf of Mexico", "Vincent van Gogh").
# A small number straight after the capitalised words is the name's own ("Apollo 11", a sequel's "2"), and so
# is a type's sign in words ("AB negative").
_NAME_SPAN = re.compile(r"(?<![\w-])[A-Z][\w'.–-]*(?:\s+(?:(?:of|the|de|da|di|do|dos|das|du|del|der|van|von|y|and"
                        r"|la|le|al|bin)\s+)*[A-Z][\w'.–-]*)*(?:[ \t]+\d{1,3}\b(?![.,:/]\d))?"
                        r"(?:[ \t]+(?:positive|negative)\b)?")
# A capitalised word that opens a sentence without naming anything ("The", "In", "It").
OPENERS = frozenset("the a an it its he his she her they their this that these those in on at by for from with after "
                     "before during according yes no i my our we there as although while both neither either only "
                     "which what who when where so thus therefore however also today since".split())
# A person's relatives ("his son"), and nouns that relate one person or thing to another ("the capital of X").
_KIN = (r"(?:grand|great-?|step|half-?)*(?:son|daughter|wife|husband|brother|sister|father|mother|nephew|niece|cousin"
        r"|uncle|aunt|widow|heir)s?")
_RELATION = (rf"(?:{_KIN}|(?:successor|predecessor|student|pupil|teacher|member|friend|rival|partner|colleague"
             r"|assistant|deputy|part|half|one|rest|north|south|east|west|outskirts|suburb|capital|leader|head|president|founder"
             r"|owner|author|creator|director|captain|coach|manager|namesake|home|birthplace|contemporary|collaborator"
             r"|mentor|disciple|opponent|teammate)s?)")
# A description, not a name ("a Finnish composer", "somewhere in Europe"), or a name given as someone's relative.
_DESCRIBES = re.compile(rf"^(?:an?|some)\b|\b(?:somewhere|sometime|one\s+of|{_KIN})\b", re.IGNORECASE)
# Who did it, told only by what they were ("by a German-born astronomer working in …"): a people's or place's
# adjective at most, then common nouns, then the clause ends or says where or when; no one named by "by" besides.
_DESCRIBED_DOER = re.compile(r"\bby\s+an?\s+(?:[A-Z][\w-]*(?:an|ese|ish|ch|ic|i|-born)\s+)?(?:[a-z-]+\s+){0,2}[a-z-]+"
                             r"(?=\s+(?:working|who|at|in|during|from|based)\b|\s*[.,;]|\s*$)")
_NAMED_DOER = re.compile(r"\bby\s+(?:the\s+)?[A-Z]|\b(?:known\s+as|named|called|led\s+by|headed\s+by)\b")
_PERSON_ASKED = re.compile(r"\bwho(?:m|se)?\b", re.IGNORECASE)
DEMONYM = re.compile(r"(?:an|ian|ese|ish|ch|ic|i)$")  # "Canadian", "Chinese", "Finnish", "Dutch", "Slavic", "Iraqi"
# Words before a name that relate it to the answer rather than state it: "the son of X", "taller than X", "near X".
_RELATIVE_TO = re.compile(rf"\b(?:{_RELATION}\s+of|than|like|unlike|besides|except|including|with|without|against|beat"
                          r"|beating|defeated|defeating|over|after|before|behind|succeeded|preceded|replaced|near|beside"
                          r"|outside|alongside|opposite|versus|vs)\s+(?:the\s+)?$", re.IGNORECASE)
_POSSESSIVE = re.compile(r"['’]s?$")


_OPPOSITES = {"won": "lost|lose|loses|losing|beaten|runner-up", "win": "lost|lose|loses|losing|beaten|runner-up",
              "first": "last", "last": "first", "largest": "smallest", "smallest": "largest", "highest": "lowest",
              "lowest": "highest", "oldest": "youngest", "youngest": "oldest", "longest": "shortest",
              "shortest": "longest", "before": "after", "after": "before"}


def reverses(text: str, question: str) -> bool:
    """The sentence says the opposite of a word the question asks by ("won" asked, "lost" said)."""
    asked = set(re.findall(r"[a-z-]+", question.lower()))
    return any(re.search(rf"\b(?:{opposite})\b", text, re.IGNORECASE) for word, opposite in _OPPOSITES.items()
               if word in asked)


def _relative(text: str, match: re.Match[str], span: str, asked: set[str]) -> bool:
    """The name is said relative to another thing ("X's brother", "the son of X", "near X"), by words the
    question does not use itself ("who did she open it with?" answered "with X" states X)."""
    before = _RELATIVE_TO.search(text[:match.start()])
    return bool(before and not set(words(before[0])) <= asked | FUNCTION_WORDS) or bool(
        _POSSESSIVE.search(span) and re.match(rf"\s+(?:\w+\s+)?{_RELATION}\b", text[match.end():], re.IGNORECASE))


def described_doer(sentence: str, question: str) -> bool:
    """A person is asked and the sentence tells who only by what they were ("by an English mathematician"):
    a description, maybe true, and the names beside it say where or when, not who."""
    return bool((_PERSON_ASKED.search(question) or ROLE_ASKED.search(question)) and _DESCRIBED_DOER.search(sentence)
                and not _NAMED_DOER.search(sentence))


def answer_names(claim: str, question: str) -> list[str] | None:
    """The names a sentence states beside the question's own words and its frame ("X was born in the township
    of Y, Z"), read the same whether they are right or wrong; None when it states none, more than three, two
    joined as one answer ("A and B"), or one relative to another ("X's brother", "the son of X", "near X"):
    then the sentence is the judge's."""
    text = re.sub(r"\s*\([^()]*\)", "", claim).strip(" .!")  # an aside in brackets names no answer
    if described_doer(text, question):
        return None
    if len(text.split()) < 4 or _DESCRIBES.search(_LEAD_IN.sub("", text)) or reverses(text, question) or re.match(
            r"(?i:it|that|this)(?:'s|\s+(?:is|was))\s+the\s+(?:[a-z]+\s+){2}", text):  # "It is the coastal city …"
        return None
    asked, last = set(words(question)), 0
    found: list[str] = []
    for match in _NAME_SPAN.finditer(text):
        before, span = text[:match.start()], match[0].rstrip(".")
        if before[-1:] in ("'", "‘", '"', "“"):
            span = span.rstrip("'’\"”")  # a quoted title
        if re.search(r"\s\d+$", span) and span.split()[-2].lower() in CALENDAR | {"ad", "bc", "ce", "bce"}:
            span = span.rsplit(None, 1)[0]  # a day after its month, a year after its era: the date kind's
        first, *rest = span.split()
        if not before.strip() and first.lower() in OPENERS:
            span = " ".join(rest)  # a sentence's opening word, then maybe a name
        if not span or set(words(span)) <= asked | FUNCTION_WORDS:
            continue
        if _relative(text, match, span, asked):
            return None
        if _POSSESSIVE.search(span) or len(span.split()) == 1 and (span.lower() in CALENDAR or DEMONYM.search(
                span) and re.match(r"\s+[a-z]", text[match.end():]) and not re.match(
                r"\s+(?:is|was|are|were|has|had)\b", text[match.end():])):
            continue  # "Tokyo's district", a month or a day (the date kind's), "Canadian province": words describing
        gap = text[last:match.start()]
        if found and (re.fullmatch(r"\s*(?:,?\s*(?:and|&)|[:–—-])\s*", gap) or gap.strip() == "," and re.search(
                r"\bwho(?:m|se)?\b", question, re.IGNORECASE)):
            return None  # "A and B", "A: B", "Surname, Given" where a person is asked: one answer of two names
        found.append(span)
        last = match.end()
    return found if 0 < len(found) <= 3 else None


def doer(claim: str, names: list[str]) -> str | None:
    """The one name of `names` the sentence gives as the doer of its verb ("played by X", "voiced by actor X",
    "written by X"); None when none is, or more than one is ("written by A and popularised by B")."""
    doers = [name for name in names if re.search(rf"\bby\s+(?:the\s+)?(?:[a-z]+\s+){{0,2}}{re.escape(name)}", claim)]
    return doers[0] if len(doers) == 1 else None


__all__ = ["CALENDAR", "DEMONYM", "OPENERS", "answer_names", "described_doer", "doer", "reverses"]
