"""The rule grader: a precise first stage that decides only what it is sure of (docs/protocols.md §1).

`reading` takes the reply to the one claim it commits to, a refusal, or the reason it cannot; the
claim is compared with each accepted answer under the match kinds of `match_values`, `dates` and
`match_text`. Notes start with the match kind ("number: …"), or "undecided:"; knowledge (other
names, nicknames, a holiday's date) is the judge's, in cascade mode.
"""

from __future__ import annotations

import re

from factprobe.eval.core.schema import Grade, Question
from factprobe.eval.grading.base import GradeOutcome, HedgingPolicy
from factprobe.eval.grading.dates import compare_date, find_dates, find_periods, gold_date
from factprobe.eval.grading.match_codes import compare_code
from factprobe.eval.grading.match_formulas import compare_formula
from factprobe.eval.grading.match_parts import compare_parts
from factprobe.eval.grading.match_text import (
    NAMING_WORDS,
    NOTATION,
    OPEN_OVERLAP,
    Finding,
    Found,
    combine,
    compare_text,
    content,
    head,
    names_something,
    related,
    words,
)
from factprobe.eval.grading.match_values import COARSER, comparable_figures, compare_number, compare_pair, figures_text
from factprobe.eval.grading.numbers import find_quantities, gold_quantity
from factprobe.eval.grading.reading import REFERS_BACK, ZERO, Candidates, Claim, Refusal, read_reply, sentences
from factprobe.eval.grading.refusal_context import names_no_candidate
from factprobe.eval.grading.sentence_names import answer_names, doer
from factprobe.eval.grading.sentence_slot import restates, slot_finding
from factprobe.eval.grading.spelled import spelled_to_digits

__all__ = ["RuleGrader", "compare_claim"]


_AS_WRITTEN = Finding(Found.MATCH, "text", "the gold as written")


def _as_written(claim: str, gold: str) -> bool:
    """The claim is the gold's own text, but for case, spacing and a full stop."""
    return " ".join(claim.split()).strip(" .").casefold() == " ".join(gold.split()).strip(" .").casefold()


def _compare_one(claim: str, gold: str, question: str) -> Finding:
    """The claim against one accepted answer, under the match kind the answer calls for."""
    if ZERO.fullmatch(claim):  # `zero`: "none", "nobody" commit to zero; compared where the gold is a count
        count = None if gold_date(gold) else gold_quantity(figures_text(gold))
        if ZERO.fullmatch(gold) or count and count.value == 0:
            return Finding(Found.MATCH, "zero", "the gold is zero")
        return Finding(Found.CONFLICT if count else Found.UNSURE, "zero", "another count" if count else "no count")
    if {tuple(words(claim)), tuple(words(gold))} <= {("yes",), ("no",)}:  # a yes or no asked
        return Finding(Found.MATCH if words(claim) == words(gold) else Found.CONFLICT, "text", "a yes or no")
    for kind in (compare_pair, compare_date, compare_formula, compare_number, compare_code):
        if (finding := kind(claim, gold, question)) is not None:
            return _AS_WRITTEN if finding.found is Found.UNSURE and _as_written(claim, gold) else finding
    if words(claim) == words(gold):
        if words(gold):
            return Finding(Found.MATCH, "text", "the gold's words")
        same = claim.strip(" .").casefold() == gold.strip(" .").casefold()  # symbols alone ("π"): as written
        return Finding(Found.MATCH if same else Found.CONFLICT, "text",
                       "the gold's symbol" if same else "another symbol")
    return compare_text(claim, gold, question)


_UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue"})
# "There was no such final", "There were only two", "No one has walked there yet": the premise of a
# question with no answer denied.
_PREMISE_DENIED = re.compile(r"^\s*(?:there\s+(?:is|was|are|were|has\s+been|have\s+been)\s+(?:no|never|only)\b"
                             r"|(?:no\s+one|nobody|none|no\s+\w+)\s+(?:has|have|had|was|were|is|are|ever|did)\b"
                             r"|(?:it|that|this|they|he|she)\s+(?:has|have|had|did|does|do)\s*(?:n't|\s+not|\s+never)\b"
                             r"|there\s+(?:has|have|had|is|was|are|were)n't\s+(?:been\s+)?(?:a|an|any)\b)",
                             re.IGNORECASE)
_POLAR_QUESTION = re.compile(r"(?:^\W*|,\s*)(?:is|are|was|were|do|does|did|will|would|can|could|should|has|have|had"
                             r"|shall|may|might|must)\b", re.IGNORECASE)  # a question answered yes or no
# What does not exist or never happened ("has no capital", "they never met", "there is no record").
_DENIES = re.compile(r"\b(?:no|never|none|nothing|nobody)\b"
                     r"|\b(?:is|are|was|were|has|have|had|did|does|do)(?:n't|\s+not)\b", re.IGNORECASE)
_STILL_ANSWERS = re.compile(r"\b(?:but|however|although|though|actually|instead|rather)\b", re.IGNORECASE)


# A span of two years in one century, the second in full ("1998-1999", "1998/1999"): written as a season is.
_FULL_SPAN = re.compile(r"\b(1\d|20)(\d\d)\s*[-–—/]\s*\1(\d\d)\b")
_SPAN = re.compile(r"\b\d{4}\s*[-–—/]\s*\d\d(?:\d\d)?\b")


def _short_span(text: str) -> str:
    """Year spans within a century written the short way, with an en dash ("1998–99")."""
    return _FULL_SPAN.sub(r"\1\2–\3", text)


def compare_claim(claim: str, golds: list[str], question: str) -> Finding:
    """The claim against the gold and its aliases (a match with any one wins); a gold with umlauts is
    also read with them written out ("Götze" as "Goetze"); spans of years are read the short way."""
    if any(_SPAN.search(gold) for gold in golds):  # a season asked: "1998-1999" is "1998–99"
        claim, golds = _short_span(claim), [_short_span(gold) for gold in golds]
    forms = list(dict.fromkeys([*golds, *(gold.translate(_UMLAUTS) for gold in golds)]))
    return combine([_compare_one(claim, gold, question) for gold in forms], notation=NOTATION)


_DATED = re.compile(r"\d|\bcentur|\bdecade", re.IGNORECASE)
_NAMED = re.compile(r"(?:^|[^\w\s]\s*|\s)\b([A-Z][\w'-]*)")
_ANSWERS = re.compile(r"(?:\b(?:it|that|this|he|she|they)'s|\b(?:is|was|are|were|be))\s+(?:the\s+)?[A-Z\d]|\bor\b")


def _figure_guess(context: str, gold: str, question: str) -> bool:
    """The context states a date or period where the gold is a date, or a figure of the gold's kind (its
    unit; for a bare count, a figure alone or before a word of the question's)."""
    text, asked = figures_text(context), set(words(question))
    if gold_date(gold) is not None:
        return any(m.end - m.start >= 4 for m in find_dates(text)) or bool(find_periods(text))
    if (wanted := gold_quantity(figures_text(gold))) is None:
        return False
    return any(str(q.value) not in asked and (q.dimension == wanted.dimension if wanted.dimension else (
        q.dimension is None and not set(words(text[q.end:])[:1]) - asked)) for q in find_quantities(text))


# What the speaker knows besides ("though I know …", "I only remember that …") or a description that names
# nothing ("it is somewhere in …", "it is a kind of …"): no guess, unless a place is asked and one is named.
_BACKGROUND = re.compile(r"^(?:(?i:though|but)\s+)?(?:(?i:i\s+(?:only\s+)?(?:know|remember|recall))\b(?P<known>.*)"
                         r"|(?i:it|this|that)\s+(?:is|was)\s+(?:somewhere\b.*|(?:an?|the)\s+[^A-Z]+))$")
# A past event told of the asked thing ("it was first shown in …", "they were printed in the …"): no guess where
# neither a place nor a figure is asked, and the only names follow a preposition of place.
_EVENT = re.compile(r"^(?:(?i:it|they|he|she|this|that)|(?i:the)\s+[a-z]+)\s+(?:(?:was|were)\s+)?"
                    r"(?:[a-z]+ly\s+|first\s+)?(?:[a-z]+ed|written|built|sung|held|made|won|drawn|shown|begun|sold|done|given"
                    r"|taken|seen)"
                    r"\b(?P<rest>.*)$")
_WHERE_NAMED = re.compile(r"\b(?:in|at|near|from|out\s+of)\s+(?:the\s+)?[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*")
# A place of any kind asked (match_text's `_PLACE_ASKED` is a city's).
_WHERE_ASKED = re.compile(r"\bwhere\b|\bhost|\b(?:which|what)\s+(?:\w+\s+)?(?:city|town|country|nation|state|province"
                          r"|region|place|island|continent|venue|county|capital)\b", re.IGNORECASE)


_PASSIVE = re.compile(r"(?i:it|they|this|that)\s+(?:was|were)\s")  # "it was sung …": of the asked thing, not a claim
_NAME = re.compile(r"(?:(?:[A-Z][\w'.-]*|of|the|de|van|von|and|&)\s*){1,6}")  # a gold that is a name


def _tells_an_event(context: str, gold: str, question: str) -> bool:
    """The context tells a past event of the asked thing, naming only where it happened, for a gold
    that is no figure or date and a question that asks no place."""
    event = _EVENT.match(context.strip())
    if event is None or _WHERE_ASKED.search(question) or re.search(r"\d", gold) or gold_date(gold) is not None:
        return False
    return not re.search(r"[A-Z]", _WHERE_NAMED.sub("", event["rest"]))


def declines_only(reading: Refusal, golds: list[str], question: str) -> bool:
    """Nothing beside the refusal may be a guess: no hedge, no "it's X" with a name or figure, no "or",
    no word of the gold; no figure or date unless a bound or period that holds the gold, or one not of
    the gold's kind beside a refusal that names what it declines ("I can't recall the year") and no
    candidate; without such a refusal, no name the question does not say and no short phrase that
    could name an answer (a guess without capitals: "the left lung")."""
    asked, context = set(words(question)), reading.context
    known = _BACKGROUND.match(re.sub(r"\s+", " ", context).strip())
    place = known and known["known"] and _WHERE_ASKED.search(question) and re.search(r"[A-Z]", known["known"])
    background, described = known and not place, known and not known["known"]
    named = set(words(" ".join(re.findall(r"\b[A-Z][\w'-]*|\d+", reading.declined)))) - asked
    declined = bool(reading.declined) and not named
    for gold in golds or [""]:
        value = compare_date(context, gold, question) or compare_number(context, gold, question)
        if value is not None and (value.found is Found.VAGUE or (
                value.found is Found.UNSURE and not _DATED.search(spelled_to_digits(context)))):
            continue
        figures = (value is not None or re.search(r"\d", spelled_to_digits(context))) and (
            re.search(r"\d", spelled_to_digits(gold)) or gold_date(gold) is not None)  # no guess at a gold without one
        if reading.hedged and not described or _ANSWERS.search(context) or figures and not (
                declined and not _figure_guess(context, gold, question)) or related(content(context, asked),
                                                                                    content(gold, asked)):
            return False
        if _tells_an_event(context, gold, question):
            continue
        named = {w for clause in context.split(",") for w in words(" ".join(
            m for m in _NAMED.findall(clause.strip())[1:] if m != "I"))}
        short = len(content(head(context, question)[0], asked)) <= NAMING_WORDS
        if not declined and not background and (named - asked or short) or \
                re.fullmatch(r"(?:the\s+)?(?:[A-Z][\w'.-]*\s*)+|[\d.,\s]+", context.strip()):
            return False  # beside the refusal only a bare name or figure: a guess
    return True


def _with_aside(finding: Finding, aside: str, golds: list[str], question: str) -> Finding:
    """A parenthesis after a committed figure is detail unless, read alone, it finds otherwise (one other
    figure): then the judge's. A figure coarser than the gold (another unit's round figure) with the
    gold's value in brackets states the gold."""
    alone = compare_claim(aside, golds, question).found
    lone = max(comparable_figures(aside, gold, question) for gold in golds) == 1
    if finding.detail == COARSER and lone and alone is Found.MATCH:
        return Finding(Found.MATCH, "number", "the gold's value in brackets after a rounder figure of it")
    lone = lone and finding.kind == "number"
    if alone is finding.found or (alone is Found.UNSURE and not lone) or (
            alone is Found.VAGUE and finding.found is Found.MATCH):
        return finding
    return Finding(Found.UNSURE, finding.kind, "a figure in brackets that may say otherwise")


# A gold that is a name (its words capitalised but a name's particles): a sentence's names are held against it.
_NAMED_GOLD = re.compile(r"^\s*(?:the\s+)?[A-Z][\w'.&–-]*(?:\s+(?:[A-Z][\w'.&–-]*|of|the|de|da|di|du|del|der|van|von|y"
                         r"|and|la|le|al|bin|[IVX]+|&|in|at|on|for|to|a|an))*\s*\.?\s*$")


# "How is it done?", "Why …?": a manner or a reason is asked, which no name in the sentence answers.
_MANNER = re.compile(r"\b(?:why|how(?!\s+(?:many|much|long|old|tall|far|big|high|large|often|deep|wide|heavy|to)\b))\b",
                     re.IGNORECASE)
_WHO = re.compile(r"\b(?:who|whom|whose)\b", re.IGNORECASE)


def _sentence_finding(sentence: str, golds: list[str], question: str) -> Finding:
    """One sentence held against the gold: as a claim, then by the names it states."""
    finding = compare_claim(sentence, golds, question)
    if finding.detail.startswith(OPEN_OVERLAP) and _NAMED_GOLD.match(golds[0]) and not _MANNER.search(question) and (
            names := answer_names(sentence, question)):
        finding = _names_finding([compare_claim(name, golds, question) for name in names])
        said = f" {' '.join(words(sentence))} "
        if finding.found is Found.CONFLICT and any(f" {' '.join(words(gold))} " in said for gold in golds):
            finding = Finding(Found.UNSURE, "text", "the sentence states the gold's words beside other names")
        if finding.found is Found.UNSURE and _WHO.search(question) and (by := doer(sentence, names)) and (
                compare_claim(by, golds, question).found is Found.MATCH):
            finding = Finding(Found.MATCH, "name", "the gold is the one the sentence names as the doer ('by X')")
    if finding.found is Found.UNSURE and not _MANNER.search(question) and not any(
            re.search(r"\d", gold) or gold_date(gold) for gold in golds) and (
            slot := slot_finding(sentence, golds, question)):
        return slot
    return finding


# A later sentence about the present state of what the paragraph spoke of ("today it stands in …"): it may replace the
# answer; other sentences referring back speak of it only when they repeat a word of the question.
_NOW = re.compile(r"\b(?:today|now|nowadays|currently|presently|at\s+present)\b", re.IGNORECASE)


def _later_disagrees(later: str, found: Found, golds: list[str], question: str) -> bool:
    """A later sentence of the paragraph, read alone, finds otherwise than its committing sentence, or states the
    gold's words where that sentence did not match; after a match, one that refers back to it and names another
    (not of the present: "today it is …") is detail, one that restates the question with another name is not."""
    said = " ".join(words(later))
    if found is not Found.MATCH and any(f" {' '.join(words(gold))} " in f" {said} " for gold in golds):
        return True
    for sentence in sentences(later):
        if not (restates(sentence, question) or REFERS_BACK.search(sentence) and (
                restates(sentence, question, 1) or _NOW.search(sentence))):
            continue  # background
        other = _sentence_finding(sentence, golds, question)
        if other.found in (found, Found.UNSURE):
            continue
        if other.found is Found.CONFLICT and (other.kind == "slot" or (
                found is Found.MATCH and REFERS_BACK.search(sentence) and not _NOW.search(sentence))):
            continue  # a new name in the sentence's blank, or one said of the subject after a match: detail
        return True
    return False


def _names_finding(findings: list[Finding]) -> Finding:
    """A sentence's names against the gold, in order: the first the gold (the later ones its detail: a place, a
    title) is a match, every one naming something else a conflict; anything else the judge's."""
    kinds = {finding.found for finding in findings}
    if findings and findings[0].found is Found.MATCH and kinds <= {Found.MATCH, Found.CONFLICT}:
        return findings[0]
    if kinds == {Found.CONFLICT}:
        return Finding(Found.CONFLICT, "text", "every name the sentence states is another's")
    return Finding(Found.UNSURE, "text", "a sentence's names the rules cannot all compare")


# A refusal's one explicit guess ("but I believe it was X", "I'd guess X", "possibly X?").
_GUESSES = re.compile(r"^(?:but\s+)?(?:i\s+(?:believe|think|guess|suspect)|i'?d\s+(?:guess|say)|my\s+(?:best\s+)?guess"
                      r"\s+(?:is|would\s+be)|possibly|perhaps|maybe|probably)\b[\s:,]*(?:(?:that\s+)?(?:it|he|she|they)"
                      r"(?:'s|\s+(?:is|was|were|are|would\s+be))\s+)?(?!near\b|around\b|close\s+to\b|somewhere\b)(?P<guess>[^,;]+)$",
                      re.IGNORECASE)
_HEDGED_GUESS = re.compile(r"^(?:but\s+)?(?:(?:it|he|she|they)(?:'s|\s+(?:is|was|were|are|would\s+be))\s+)?"
                           r"(?!near\b|around\b|close\s+to\b|somewhere\b)(?P<guess>[^,;]+)$",
                           re.IGNORECASE)  # what stays of "but I believe it was X" once the hedge is read
_GUESS_WORDS = 6  # words up to which what a refusal says beside declining is one guess, not a paragraph
_GRADES = {Found.MATCH: Grade.CORRECT, Found.CONFLICT: Grade.INCORRECT, Found.VAGUE: Grade.NOT_ATTEMPTED,
           Found.UNSURE: Grade.UNGRADED}


class RuleGrader:
    """Grades without a model; the default when no `--judge` is given, the first stage of the cascade."""

    name = "rules"

    def __init__(self, hedging: HedgingPolicy = HedgingPolicy.ACCEPT,
                 candidates: Grade = Grade.INCORRECT, coarser: Grade = Grade.NOT_ATTEMPTED) -> None:
        self.hedging = hedging
        self.candidates = candidates
        self.coarser = coarser  # a bound, period or coarser date that holds the gold (UNGRADED: the judge's)

    def _candidates(self, reading: Candidates, golds: list[str], question: str) -> GradeOutcome:
        """Several candidates: all wrong is INCORRECT; the gold among wrong ones is graded by the policy
        (SimpleQA: INCORRECT; SimpleQA Verified: NOT_ATTEMPTED, nothing was committed to)."""
        found = {compare_claim(item, golds, question).found for item in reading.items}
        if found == {Found.CONFLICT}:
            return self._outcome(Grade.INCORRECT, "candidates: every candidate names something else")
        if found == {Found.MATCH, Found.CONFLICT}:
            return self._outcome(self.candidates, f"candidates: several candidates, the gold among wrong ones "
                                                  f"(policy: {self.candidates.value})")
        return self._outcome(Grade.UNGRADED, "several candidates the rules cannot all compare")

    def _outcome(self, grade: Grade, note: str) -> GradeOutcome:
        return GradeOutcome(grade, self.name, f"undecided: {note}" if grade is Grade.UNGRADED else note)

    def grade_sync(self, question: Question, answer: str | None) -> GradeOutcome:
        """A match with any accepted answer is CORRECT (INCORRECT hedged under `--hedging penalize`), a
        conflict with all INCORRECT, a vague finding NOT_ATTEMPTED (UNGRADED under `worldvqa`); a
        question with no answer: a refusal or a denied premise NOT_ATTEMPTED, a named answer INCORRECT."""
        golds = question.gold_answers if question.answerable and question.answer else []
        reading = read_reply(answer, golds, question.question)
        if isinstance(reading, Refusal) and not reading.context:
            return self._outcome(Grade.NOT_ATTEMPTED, f"refusal: {reading.reason}")
        if not golds and answer and not isinstance(reading, Refusal):
            if _POLAR_QUESTION.match(question.question) and re.match(r"\W*(?:yes|no)\b", answer, re.IGNORECASE):
                return self._outcome(Grade.INCORRECT, "unanswerable: answers yes or no to a question that has none")
            denies = _PREMISE_DENIED.match(answer) or _DENIES.search(answer) and not _POLAR_QUESTION.match(
                question.question)
            zero = isinstance(reading, Claim) and ZERO.fullmatch(reading.text)
            if denies and not _STILL_ANSWERS.search(answer) or zero:
                return self._outcome(Grade.NOT_ATTEMPTED, "unanswerable: denies the question's premise")
        parts_asked = question.answer_parts or (golds[0].split("; ") if golds and "; " in golds[0] else [])
        listed = isinstance(reading, (Claim, Candidates)) or "list" in getattr(reading, "reason", "")
        if len(parts_asked) >= 2 and answer and listed:  # a reply of several statements is the judge's
            parts = compare_parts(answer, parts_asked)
            return self._outcome(_GRADES[parts.found], parts.note)
        if isinstance(reading, Refusal):
            if declines_only(reading, golds, question.question):
                return self._outcome(Grade.NOT_ATTEMPTED, "refusal: declines, and the rest holds no guess")
            guessed = _GUESSES.search(reading.context) or (reading.hedged and _HEDGED_GUESS.search(reading.context))
            if golds and guessed and len(guessed["guess"].split()) <= _GUESS_WORDS:
                one = compare_claim(guessed["guess"].strip(" .?!"), golds, question.question)
                if one.found in (Found.MATCH, Found.CONFLICT):  # "I'm unsure, but I'd guess X": graded by X
                    return self._outcome(_GRADES[one.found], f"refusal beside one guess: {one.note}")
            short = golds and len(reading.context.split()) <= _GUESS_WORDS
            guess = compare_claim(reading.context, golds, question.question) if short else None
            stated = set(re.findall(r"\d+", reading.context)) <= set(re.findall(r"\d+", question.question))
            if guess is not None and guess.found is Found.CONFLICT and guess.kind in ("number", "date") \
                    and not stated:  # the question's own date restated in the refusal is no guess
                return self._outcome(Grade.INCORRECT, f"refusal beside a wrong guess: {guess.note}")
            if golds and not reading.hedged and "**" not in (answer or "") and names_no_candidate(
                    reading.context, golds, question.question):
                return self._outcome(Grade.NOT_ATTEMPTED, "refusal: declines, and the rest names no candidate")
            return self._outcome(Grade.UNGRADED, "a refusal beside other statements that may hold a guess")
        if isinstance(reading, Candidates):
            return self._candidates(reading, golds, question.question) if golds else self._outcome(
                Grade.UNGRADED, "several candidates for a question that has no answer")
        if not isinstance(reading, Claim):
            return self._outcome(Grade.UNGRADED, reading.reason)
        if not golds:
            answer_head = head(reading.text, question.question)[0]
            if names_something(answer_head, content(answer_head, set())):
                return self._outcome(Grade.INCORRECT, "unanswerable: names an answer to a question that has none")
            return self._outcome(Grade.UNGRADED, "a statement about a question that has no answer")
        if _PASSIVE.match(reading.text) and all(_NAME.fullmatch(gold) and _tells_an_event(
                reading.text, gold, question.question) for gold in golds):
            return self._outcome(Grade.NOT_ATTEMPTED, "refusal: tells a past event of the asked thing, no name")
        finding = _sentence_finding(reading.text, golds, question.question)
        if reading.aside:
            finding = _with_aside(finding, reading.aside, golds, question.question)
        if reading.later and finding.found is not Found.UNSURE and _later_disagrees(
                reading.later, finding.found, golds, question.question):
            finding = Finding(Found.UNSURE, finding.kind, "a paragraph whose later sentences find otherwise")
        grade = self.coarser if finding.found is Found.VAGUE else _GRADES[finding.found]
        if grade is Grade.CORRECT and reading.hedged:
            penalize = self.hedging is HedgingPolicy.PENALIZE
            return self._outcome(Grade.INCORRECT if penalize else grade,
                                 f"{finding.note}; hedged answer (policy: {self.hedging.value})")
        return self._outcome(grade, finding.note)

    async def grade(self, question: Question, answer: str | None, reply: str | None = None) -> GradeOutcome:
        """The rules grade the parsed answer; the whole `reply` is the judge's to read."""
        return self.grade_sync(question, answer)

    def describe(self) -> dict:
        return {"grader": self.name, "hedging": self.hedging.value, "candidates": self.candidates.value,
                "coarser": self.coarser.value}
