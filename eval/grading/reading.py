"""Reading a reply down to the one claim it commits to (`Claim`, `Candidates`), a `Refusal`, or the
reason the rules cannot (`Unreadable`, for the judge). One step every match kind shares: the last answer
line after a revision, what a self-correction or a denial puts instead, a paragraph's committing sentence
(with the later ones kept for the caller to check), the question's setting and a yes or no read off a
sentence; an instruction to a grader, a denial with no alternative, a list, several hedged statements and a
paragraph that revises itself are the judge's.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace

from factprobe.eval.grading.phrases import CUTOFF, is_refusal, without_advice
from factprobe.eval.grading.reply_lines import sentence_lines
from factprobe.eval.grading.sentence_names import CALENDAR
from factprobe.eval.grading.sentence_slot import restates
from factprobe.eval.grading.spelled import spelled_to_digits
from factprobe.eval.grading.wording import FUNCTION_WORDS, words

# A line labelled with any label holding the word "answer" ("Answer:", "Revised answer:", "Answer (final):").
_ANSWER_LINE = re.compile(r"^[ \t>#*_-]*(?:[\w-]+\s+){0,2}answer(?:\s*\([\w\s]{1,20}\))?[*_]*\s*[:：][*_]*[ \t]*"
                          r"(?P<value>\S[^\n]*)$", re.IGNORECASE | re.MULTILINE)
# An answer introduced anywhere in a line ("… so the answer is: Y", "Therefore the final answer is Y").
_ANSWER_PHRASE = re.compile(r"\b(?:answer\s*[:：]|(?<!what\s)(?<!whether\s)(?:the|my)\s+(?:final\s+|correct\s+"
                            r"|short\s+)?answer\s+(?:is|would\s+be)\s*:?)\s*(?P<value>[\"'“‘(]?\w(?:[^\n]*\w)?)",
                            re.IGNORECASE)
# Words that revise what was said before them ("Actually, …", "Revised answer:", "On reflection …").
_REVISION = re.compile(r"\b(?:actually|correction|correct(?:ing|ed)|revised?|on\s+reflection|wait|instead|rather"
                       r"|checked|mistake|oops|sorry|i\s+meant?|no)\b", re.IGNORECASE)
_CONFIDENCE = re.compile(r"\(?\b(?:confidence|certainty)(?:\s+(?:score|level))?\s*[:=(]?\s*\d{1,3}(?:\.\d+)?\s*%?\)?"
                         r"\.?", re.IGNORECASE)
# Words that speak to whoever grades the reply rather than answer the question.
_TO_GRADER = re.compile(r"(?i:\b(?:grader|graders|grading|evaluator|assessor|marker)\b|\bmark\s+(?:this|it|me|my|the)\b"
                        r"|\bignore\s+(?:the|all|any|previous|prior|above|below|your)\b|\b(?:reference|gold)\s+answer\b)"
                        r"|(?<![\w-])(?:CORRECT|INCORRECT|NOT_ATTEMPTED)(?![\w-])")
# An answer its own reply calls a stand-in ("placeholder, to be replaced by …", "TBD").
_PROVISIONAL = re.compile(r"\bplace-?holders?\b|\bto\s+be\s+(?:replaced|confirmed|determined|filled\s+in|decided)\b"
                          r"|\b(?:TBD|TBC)\b|\bdummy\s+(?:answer|value)\b", re.IGNORECASE)
# Hedges: kept as a flag, then removed before the claim is read.
_HEDGE = re.compile(
    r"\b(?:i'?m|i\s+am)\s+(?:not\s+)?(?:\d+\s*%|fairly|pretty|quite|very|reasonably|absolutely|completely|entirely"
    r"|totally)?\s*(?:sure|certain|confident|positive)(?:\s+(?:of\s+it|about\s+(?:it|this|that)))?"
    r"|\b(?:i'?m\s+|i\s+am\s+)?(?:not\s+)?(?:around\s+|about\s+|roughly\s+)?\d+\s*%\s*(?:sure|certain|confident)\b"
    r"|\bnot\s+(?:sure|certain|confident)\b|\bunsure\b|\bif\s+memory\s+serves(?:\s+me)?(?:\s+right)?\b"
    r"|\byou\s+(?:may|might)\s+want\s+to\s+double-?check(?:\s+(?:it|this|that))?"
    r"|\b(?:though|but|although)\s+(?:i'?d|i\s+would|you\s+(?:may|might|should|could))\s+(?:want\s+to\s+)?"
    r"(?:double-?check|verify|check)(?:\s+(?:it|this|that))?"
    r"|\b(?:i\s+(?:think|believe|guess|suspect|reckon|recall|remember)|i'?d\s+(?:say|guess)|if\s+i\s+(?:recall|remember)"
    r"(?:\s+(?:correctly|rightly|right))?|my\s+(?:best\s+)?guess\s+(?:is|would\s+be)|(?:is|would\s+be)\s+my\s+(?:best\s+)?guess|as\s+far\s+as\s+i\s+know"
    r"|probably|maybe|perhaps|possibly|likely|presumably|apparently|i\s+would\s+say|might"
    r"|(?:(?:it|that|this|he|she|they)\s+)?(?:might|may|could)(?:\s+well)?\s+(?:have\s+been|be))\b",
    re.IGNORECASE)
_FILLER = re.compile(r"\b(?:sorry|unfortunately|hmm+|well|honestly|so|but|and|that|it|its|is|was|be|would|the"
                     r"|answer|to|of|i'm|i|am|though|yes|ok|okay|oh|although|still)\b|[^\w]", re.IGNORECASE)
# A denial, correction or contrast anywhere in the claim (after hedges are removed).
_TURN = re.compile(r"\b(?:not|no|never|nor|neither|none|nobody|n't|isn't|wasn't|aren't|weren't|doesn't|didn't|don't"
                   r"|rather|instead|actually|correction|wrong|mistaken|incorrect|except|excluded|but|however"
                   r"|although|though|whereas|while(?!\s+\w+ing\b)|yet|despite|contrary|runner-up|misconception)\b"
                   r"|\b(?:is|was|are|were|came|finished|placed|ranks?|ranked)\s+(?:the\s+)?(?:second|third)\b"
                   r"|n't\b|\?.*\S", re.IGNORECASE)
# A self-correction after something was said: an apology, "I meant", "make that", "scratch that".
_SELF_CORRECTION = re.compile(r"\b(?:sorry|apologi[sz]e|apologies|oops|i\s+mean[t]?|make\s+that|scratch\s+that"
                              r"|my\s+(?:mistake|bad)|correction|(?:actually|wait),?\s+no|no,?\s+wait"
                              r"|on\s+second\s+thought|let\s+me\s+correct(?:\s+(?:that|myself))?)\b"
                              r"|(?:,\s*|\bor\s+)rather\b(?!\s+than)", re.IGNORECASE)
_FIGURE_ASIDE = re.compile(r"(?P<figure>[^()A-Za-z]*\d[^()]*?)\s*(?<!/)\((?P<aside>[^()]+)\)")  # its figures are detail
ZERO = re.compile(r"\s*(?:none|zero|nil|no\s*one|nobody|nothing)\s*", re.IGNORECASE)  # an answer of zero
_CANDIDATES = re.compile(r"\b(?:or|either|versus|vs)\b|(?<=[^\W\d]{2})\s*/\s*(?=[^\W\d]{2})", re.IGNORECASE)
_QUOTIENT = re.compile(r"(\d\s?[A-Za-zµ°]{1,4})/(?=[A-Za-zµ°])")
_SENTENCE_END = re.compile(r"(?<!\b[A-Z])(?<!\b(?:St|Mt|Mr|Dr|Jr|Sr|vs|No|ca|Ms))(?<!\bMrs)(?<!\bv)[.!?](?=\s+\S)")
# A piece after the first comma that opens with a preposition, a relative or a participle is detail, not an item.
ADDED = re.compile(r"^\s*(?:between|in|from|on|at|with|by|near|during|since|after|before|who|which|where|about"
                   r"|around|\w+ed)\b", re.IGNORECASE)
_CLARIFY = re.compile(r"^\s*(?:do|did|are)\s+you\s+(?:mean|asking)\b[^?]*\?\s*$", re.IGNORECASE)
_QUOTED = re.compile(r'"[^"]{1,120}"|“[^”]{1,120}”|\bNo\.\s?\d')
_CLAUSE = re.compile(r"(\s*(?:[,;:—–]|\s-\s)\s*(?:but\b\s*)?|\s+but\s+)", re.IGNORECASE)


@dataclass(frozen=True)
class Claim:
    """The one statement the reply commits to; `hedged` when it came with a hedge."""

    text: str
    hedged: bool
    aside: str = ""  # a parenthesis after a committed figure: detail the caller checks does not conflict
    later: str = ""  # a paragraph's sentences after the one that commits: context the caller may consult


@dataclass(frozen=True)
class Candidates:
    """A claim offering several candidates ("X or Y"), each to be compared with the gold."""

    items: list[str]
    hedged: bool


@dataclass(frozen=True)
class Refusal:
    """A reply that declines, or says nothing; `context`, what else it says, which the caller checks
    holds no guess (empty: nothing else); `hedged` when the context held a hedge; `declined`, what a
    refusal clause names as declined ("the year" in "I can't recall the year"; empty: none named)."""

    reason: str
    context: str = ""
    hedged: bool = False
    declined: str = ""


@dataclass(frozen=True)
class Unreadable:
    """A reply the rules cannot read with confidence; `reason` goes into the grade note."""

    reason: str


Reading = Claim | Candidates | Refusal | Unreadable


def _answer_part(reply: str) -> str | Candidates | Unreadable:
    """The part of the reply that answers: a JSON reply's `answer`, else its `Answer:` line or "the answer is …";
    of several that differ, the last stands when a revision comes between ("Actually", "Revised answer:"),
    else they are candidates; a revision after the last is read with it."""
    stripped = reply.strip()
    if stripped.startswith("{") and stripped.endswith("}"):
        try:
            data = json.loads(stripped)
        except ValueError:
            data = None
        if isinstance(data, dict) and isinstance(data.get("answer"), (str, int, float)):
            return str(data["answer"])
    marks = sorted([*_ANSWER_LINE.finditer(stripped), *_ANSWER_PHRASE.finditer(stripped)], key=lambda m: m.start())
    if not marks:
        return stripped
    last = marks[-1]
    if _REVISION.search(stripped[last.end():]):
        return stripped[last.start("value"):]  # revised after its last answer line: the correction is read
    values = list({re.sub(r"\W+", " ", m["value"]).strip().lower(): m["value"].strip(" *_") for m in marks}.values())
    if len(values) > 1 and not _REVISION.search(stripped[marks[0].end():last.start("value")]):
        return Candidates(values, hedged=False)
    return last["value"].strip(" *_")


def _without_hedges(text: str) -> str:
    """The text without hedging phrases; a clause that held only a hedge goes too, and so does the
    separator after it when it opens the text ("I'm not sure, but I think X" reads "X"; "X, I think,
    but Y" keeps its "but")."""
    parts = _CLAUSE.split(text)
    kept: list[str] = []
    for index in range(0, len(parts), 2):
        clause = _HEDGE.sub(" ", parts[index])
        separator = parts[index + 1] if index + 1 < len(parts) else ""
        if _FILLER.sub("", clause).strip():
            kept.append(clause + separator)
        elif kept:
            kept.append(separator)
    return re.sub(r"(?:[\s,;:.?!—–-]|\bbut\b)+$", "", re.sub(r"\s+", " ", "".join(kept))).strip()


def _clauses(text: str) -> list[str]:
    """The text's clauses; a point or comma between figures ("9.5", "1,200") is part of a number."""
    return [c for c in re.split(r"(?<!\d)[.,]|[.,](?!\d)|[;!?—–]|\b(?:but|so|and)\b", text, flags=re.IGNORECASE)
            if c.strip()]


# A refusal clause that names what it declines: a question word or a determiner and a noun ("the year").
_DISCLAIMS = re.compile(
    r"\bi(?:'m|\s+am)?\s+(?:not\s+(?:sure|certain)|unsure|(?:do\s*n[o']?t|can(?:not|'t)|could\s*n[o']?t|won't"
    r"|will\s+not)\s+(?:\w+ly\s+|quite\s+)?(?:know|recall|remember|name|say|tell|guess|identify|give|place))\s+"
    r"(?:(?:of|about)\s+(?P<noun>[^,;.]+)|(?P<asked>(?:(?:by|from|to|with|for)\s+)?(?:who|whom|what|which|when|where|how|whether|the|its|his|her|their)\b"
    r"[^,;.]*))", re.IGNORECASE)


def _refusal(text: str) -> Refusal:
    """A refusal with no guess when its other clauses are filler or it is one question back to the asker
    ("Do you mean X or Y?"); else one beside other statements (hedges, advice on where to look and the
    speaker's knowledge cutoff removed), whether any held a hedge, and what the refusal clauses name as declined."""
    clauses = _clauses(without_advice(text))
    kept = [c for i, c in enumerate(clauses) if not is_refusal(c) and not CUTOFF.search(c) and not (
        i and is_refusal(clauses[i - 1]) and _PURPOSE.match(c))]  # "…, to find out who": the refusal's aim
    context = ", ".join(c for c in (_HEDGE.sub(" ", c).strip() for c in kept) if _FILLER.sub("", c).strip())
    if _CLARIFY.match(text) or not context:
        return Refusal("refusal with no guess")
    named = [m["noun"] or m["asked"] for c in clauses if is_refusal(c) and (m := _DISCLAIMS.search(c))]
    return Refusal("declines", context, any(_HEDGE.search(c) for c in kept), "; ".join(named))


_PLACEHOLDER = re.compile(r"^\s*[<\[{]\s*([^<>\[\]{}]+?)\s*[>\]}]\s*\.?\s*$")
_GUESS = re.compile(r"^(?!I(?:'\w+)?$)[A-Z]|\d")  # a word that may name a candidate: a capitalised word, a figure


def _offers_several(text: str) -> bool:
    """The text weighs two named candidates ("whether it is A or B"), not one against a vague other ("or not")."""
    return any(all(any(_GUESS.match(word) for word in side) for side in (left.split()[-3:], right.split()[:3]))
               for left, right in re.findall(r"([^,;:.?!]+?)\s+or\s+([^,;:.?!]+)", text))


_PURPOSE = re.compile(r"\s*(?:in\s+order\s+|so\s+as\s+)?to\s+[a-z]+", re.IGNORECASE)
_POLAR = re.compile(r"^\s*(yes|no)\b(?!\s+(?:one|body|longer|more|less|other|such|doubt)\b)\s*(?:[,.;:!—–-]|$)", re.I)
# A denial, then what stands instead ("Not X; it was Y", "It's not X — Y"), or a claim, then what it is not
# ("Y, not X").
_NOT_THEN = re.compile(r"^(?:(?:it|that|this|he|she|they)(?:'s|\s+(?:is|was|are|were))\s+)?not\s+"
                       r"(?P<denied>[^,;:.—–]{1,60}?)\s*(?:[,;:—–]|\s-\s)\s*(?:but\s+(?:rather\s+)?|rather\s+|instead\s+)?"
                       r"(?P<claim>\w.*)$", re.I)
_THEN_NOT = re.compile(r"^(?P<claim>[^;]+?),\s*(?:and\s+)?not\s+(?P<denied>[^,;:]{1,60}?)(?:,?\s+as\s+(?:is|was)\s+"
                       r"(?:often|commonly|widely|sometimes)\s+(?:claimed|believed|said|thought|stated))?\s*$", re.I)
# A contrast that ends in what actually holds ("Although X usually gets the credit, it was actually Y"; "X is often
# quoted, but the one really meant is Y").
_ACTUALLY = re.compile(r"^(?:(?:although|though|while)\s[^,;]+,|[^;]+?,?\s+but)\s+(?P<claim>[^;,]*\b(?:actually|really"
                       r"|in\s+fact)\b[^;]*)$", re.I)
_ACTUAL_WORD = re.compile(r"\s*\b(?:actually|really|in\s+fact)\b", re.I)
# A later sentence that withdraws, disputes or replaces the first one's answer: the paragraph is the judge's.
_REVISES = re.compile(r"\b(?:actually|in\s+fact|correct(?:ion|ing)|mistaken|wrong|incorrect|instead|rather|contrary"
                      r"|misconception|myth|untrue|false|alternatively|disputed|debated|conflicting|other\s+sources"
                      r"|some\s+sources|unclear|true|truly|not\s+(?:correct|true|right|accurate|so|the\s+case))\b"
                      r"|(?:^|(?<=[.!?]\s))no\b|\bno\s+(?:\w+\s+){0,3}(?:data|information|records?|evidence|sources?)\b"
                      r"|\bnot\s+(?:\w+\s+)?(?:documented|known|recorded|confirmed|specified|stated)\b", re.IGNORECASE)
# A later sentence with a contrast: when it speaks of what is asked, it may hold the real answer.
_CONTRAST = re.compile(r"\b(?:however|but|although|though|yet|nevertheless|nonetheless|still|whereas)\b", re.IGNORECASE)
# What others say of a candidate rather than what the reply commits to ("often given as X", "sometimes attributed
# to X"), or a restriction ("only during …").
_REPORTED = re.compile(r"\b(?:often|sometimes|widely|commonly|usually|popularly|frequently)\s+(?:\w+\s+)?"
                       r"(?:given|said|cited|called|named|attributed|credited|believed|thought|quoted|claimed|listed"
                       r"|described)\b"
                       r"|\bis\s+said\s+to\b|\bonly\b", re.IGNORECASE)  # "only": a restriction, not the answer itself
# A sentence that goes on about the same subject: a pronoun or "today" in it, or a demonstrative opening it.
REFERS_BACK = re.compile(r"\b(?:it|its|it's|he|his|she|her|they|their|today)\b|^\W*(?:this|that|these|those)\b",
                         re.IGNORECASE)
# A later sentence in the first person that negates ("I couldn't confirm who …", "I'm not certain of the name"):
# it may decline what the first sentence seemed to answer.
_OWN_DOUBT = re.compile(r"^(?=.*(?-i:\b(?:I|my|My|me|we|We)\b)).*(?:n't|\b(?:not|cannot|unable|no)\b)", re.IGNORECASE)
_CONCLUDES = re.compile(r"^(?:so|therefore|thus|hence|in\s+short|in\s+summary|to\s+sum\s+up)\b,?\s*", re.IGNORECASE)
_LEAD_PHRASE = re.compile(r"^(?:in|on|at|as\s+of|according\s+to|during|by|for|from|after|before|since)\b[^,;:]{1,80},"
                          r"\s*(?=\S)", re.IGNORECASE)


def _after_correction(text: str) -> str | Unreadable:
    """What a self-correction ("X. Sorry, I mean Y", "X — make that Y") leaves standing: the words after its
    last marker; a correction with nothing after it withdraws the answer (the judge's)."""
    fixes = [m for m in _SELF_CORRECTION.finditer(text) if re.search(r"\w", text[:m.start()])]
    if not fixes or is_refusal(text):
        return text
    after = re.sub(r"^(?:[\s,;:.!—–-]|\b(?:no|wait|i\s+mean|it'?s|it\s+(?:is|was|should\s+be))\b)+", "",
                   text[fixes[-1].end():], flags=re.IGNORECASE)
    return after if re.search(r"\w", after) else Unreadable(f"a self-correction ({fixes[-1].group(0)!r})")


def sentences(text: str) -> list[str]:
    """The text's sentences, read by pysbd: its rules know abbreviations ("Mar. 3"), initials, decimals and
    thousands separators, which a full stop alone does not."""
    import pysbd  # only where a reply holds more than one full stop

    return [sentence.strip() for sentence in pysbd.Segmenter(language="en", clean=False).segment(text)
            if sentence.strip()]


def _first_committed(text: str, question: str) -> tuple[str, str] | Unreadable:
    """A paragraph's answer: its first sentence that says more than the question (a greeting or the question
    restated is skipped) and the sentences after it (a list's lines among them), when none of them qualifies or
    revises it; a list with no whole sentence before it is the judge's."""
    lines = sentence_lines(text)
    if lines is None:
        return Unreadable("several lines (a list)")
    if len(lines) < 2 and not _SENTENCE_END.search(text.rstrip(" .!")):
        return text, ""
    parts = sentences(" ".join(lines))
    asked = set(words(question)) | FUNCTION_WORDS
    while len(parts) > 1 and not set(words(_HEDGE.sub(" ", parts[0]))) - asked - _FILLER_WORDS:
        parts.pop(0)
    if len(parts) > 1 and _CONCLUDES.match(parts[-1]):
        parts = parts[-1:]  # "So the capital is X.": the paragraph's conclusion commits
    if len(parts) > 1 and parts[0].endswith("?"):
        return Unreadable("a paragraph that opens with a question")
    rest = " ".join(parts[1:])
    if len(parts) > 1 and (_REVISES.search(rest) or any(is_refusal(part) or _OWN_DOUBT.search(part) or (
            _CONTRAST.search(part) and restates(part, question, least=1)) for part in parts[1:])
                           or _SELF_CORRECTION.search(rest)):
        return Unreadable("a paragraph whose later sentences may withdraw or replace its first")
    return parts[0], rest


_FILLER_WORDS = frozenset("sure certainly great good question let me think ok okay well here so".split())


def read_reply(reply: str | None, golds: list[str], question: str = "") -> Reading:
    """The reply's committed claim, a refusal, or why the rules leave it to the judge: the last answer line
    or correction stands, a paragraph commits by its first sentence, a denial by what it puts instead."""
    if reply is None or not reply.strip():
        return Refusal("empty reply")
    if _TO_GRADER.search(reply):
        return Unreadable("addresses the grader")
    if _PROVISIONAL.search(reply):
        return Unreadable("calls its answer a placeholder or provisional")
    if not isinstance(part := _answer_part(reply), str):
        return part
    corrected = _after_correction(re.sub(r"\*\*|__", "", _CONFIDENCE.sub(" ", part)).replace("\u2019", "'").strip())
    if isinstance(corrected, Unreadable):
        return corrected
    text = corrected
    if bracketed := _PLACEHOLDER.match(text):  # "<name>", "[Name of the city]": a template's blank; "[Lima]" answers
        first, *rest = bracketed[1].split()
        if not re.search(r"[A-Z\d]", " ".join(rest) if rest else first):
            return Refusal("a placeholder in brackets instead of an answer")
        text = bracketed[1].strip()
    if not re.search(r"\bOp\b|\b(?:major|minor)\b", " ".join(golds), re.IGNORECASE):  # a work's key and opus: detail
        text = re.sub(r"\s+in\s+[A-G](?:[-\s]?(?:flat|sharp)|[♭♯#])?\s+(?:major|minor)\b|,?\s+Op\.\s*\d+\w*", "", text)
    if is_refusal(text) and not text.endswith("?") and _offers_several(text):
        return Unreadable("a refusal beside several candidates (the policy decides: the judge's)")
    if is_refusal(text):
        return _refusal(text)
    if isinstance(committed := _first_committed(text, question), Unreadable):
        return committed
    reading = _read_claim(committed[0], golds, question)
    if not isinstance(reading, Claim) or not committed[1]:
        return reading
    # later sentences that only qualify ("However, …", a hedge) leave the first committing, hedged if they hedge
    later = f"{reading.later} {committed[1]}".strip()
    return replace(reading, later=later, hedged=reading.hedged or bool(_HEDGE.search(committed[1])))


# Where one statement of a sentence ends and another begins: a semicolon, ", but"; not a dash ("X — because …").
_STATEMENTS = re.compile(r"\s*;\s*|,?\s+but\s+", re.IGNORECASE)
_STATEMENT_WORDS = 4  # words from which a statement beside the one about what is asked is context, not a bare answer


def _statement_asked(text: str, question: str) -> tuple[str, str] | None:
    """Of a sentence's statements ("A; B", "A, but B"), the only one that speaks of what is asked, and the others;
    None when no single one does, when it denies or contrasts itself, or when another touches what is asked,
    withdraws or declines."""
    parts = [part for part in _STATEMENTS.split(text) if part.strip(" .")]
    asked = [part for part in parts if restates(part, question)]
    if len(parts) < 2 or len(asked) != 1 or _TURN.search(_HEDGE.sub(" ", asked[0])) or _REPORTED.search(asked[0]):
        return None
    others = [part for part in parts if part is not asked[0]]
    if any(len(other.split()) < _STATEMENT_WORDS or restates(other, question, least=1) or REFERS_BACK.search(other)
           or _REVISES.search(other) or _SELF_CORRECTION.search(other) or is_refusal(other) for other in others):
        return None  # a bare answer beside it, another statement on what is asked, or one that takes it back
    return asked[0], "; ".join(others)


def _read_claim(text: str, golds: list[str], question: str) -> Reading:
    """One sentence's committed claim: the question's own setting, a yes or no, a denial, hedges, a figure's
    aside, lists and candidates read."""
    asked = set(words(question)) | FUNCTION_WORDS
    text = re.split(r",\s+(?:so|therefore|thus|hence)\s+", text)[-1]  # "A lies in B, so it is C": the conclusion
    if (lead := _LEAD_PHRASE.match(text)) and all(w in asked or w.isdigit() or w in CALENDAR for w in words(lead[0])):
        text = text[lead.end():]  # "In 1946, …", "According to the census, …": the question's setting, or a date
    if golds and all(words(gold) in (["yes"], ["no"]) for gold in golds) and (polar := _POLAR.match(text)):
        return Claim(polar[1].lower(), bool(_HEDGE.search(text)))  # "No, they were not both …": the answer is "no"
    if denial := _NOT_THEN.match(text.rstrip(" .!")) or _THEN_NOT.match(text.rstrip(" .!")):
        text = denial["claim"]  # what stands instead of the denied
    elif (actual := _ACTUALLY.match(text.rstrip(" .!"))) and not _TURN.search(_ACTUAL_WORD.sub(" ", actual["claim"])):
        text = _ACTUAL_WORD.sub(" ", actual["claim"])  # "Although X gets the credit, it was actually Y": Y
    if (statement := _statement_asked(text, question)) and isinstance(
            reading := _read_claim(statement[0], golds, question), Claim):
        return replace(reading, later=statement[1])  # the others are context the caller checks
    hedged = bool(_HEDGE.search(text))
    if sum(bool(_HEDGE.search(clause)) for clause in _CLAUSE.split(text)[::2]) > 1 and len(_CLAUSE.split(
            _without_hedges(text))) > 1:
        return Unreadable("several hedged statements (candidates)")
    claim = _without_hedges(text) if hedged else text.strip(" .!?")
    if (figure := _FIGURE_ASIDE.fullmatch(spelled_to_digits(claim))) and not _TURN.search(figure["aside"]) \
            and not _CANDIDATES.search(figure["aside"]):
        return Claim(figure["figure"], hedged, figure["aside"])  # "88 (52 white, 36 black)": one figure, detail
    pieces = [piece for piece in re.split(r",\s|\band\b", claim) if piece.strip()]
    listed_gold = any("," in gold or " and " in gold for gold in golds)  # a count first ("4, …", "1 hour, …")
    if len(pieces) >= 3 and all(len(piece.split()) <= 4 for piece in pieces) and not listed_gold and not ADDED.match(
            pieces[1]) and not re.fullmatch(r"\s*\d+(?:\.\d+)?(?:\s+[a-z]+)?\s*", spelled_to_digits(pieces[0])):
        return Unreadable("a list of several items")
    if ZERO.fullmatch(claim):
        return Claim(claim, hedged)  # a committed zero ("none"), not a denial: the caller compares it
    gold_text = " ".join(golds).lower()
    stance = _QUOTED.sub(" ", claim)  # a quoted title's words ("Can't …", "No. 1") are not the reply's own
    if (turn := _TURN.search(stance)) and turn.group(0).lower() not in gold_text and not re.search(
            rf"\b{re.escape(turn.group(0).strip().lower())}", question.lower()):  # the question's own word
        return Unreadable(f"a denial, correction or contrast ({turn.group(0).strip()!r})")
    if ";" in claim:
        return Unreadable("several statements")
    if re.fullmatch(r"[^,]+,\s+or\s+[A-Z][^,]*", claim) and not hedged:  # "X, or Y": a work's alternative title too
        return Unreadable("a name, then another after ', or' (an alternative title, or a second candidate)")
    quotients = _QUOTIENT.sub(r"\1 per ", claim)  # a unit's quotient after a figure ("N/m²"), not two candidates
    if (several := _CANDIDATES.search(quotients)) and several.group(0).strip().lower() not in gold_text.split():
        offered = re.sub(r"^(?:(?:it'?s|it\s+(?:is|was))\s+)?either\s+", "", quotients, flags=re.IGNORECASE)
        items = [item.strip(" ,.") for item in _CANDIDATES.split(offered) if item.strip(" ,.")]
        return Candidates(items, hedged) if len(items) > 1 else Unreadable("several candidates")
    if not claim:
        return Refusal("a hedge with no answer")
    return Claim(claim, hedged)


__all__ = ["ADDED", "REFERS_BACK", "ZERO", "Candidates", "Claim", "Reading", "Refusal", "Unreadable", "read_reply",
           "sentences"]
