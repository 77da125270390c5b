"""The rule grader: a precise first stage that decides only what it is sure of (protocols §1).

1. `reading` takes the reply down to the one claim it commits to, a refusal, or the reason it
   cannot (UNGRADED). A refusal with no guess is NOT_ATTEMPTED (kind `refusal`), and so is one whose
   other statements hold no guess (`declines_only`). "X or Y": all wrong is INCORRECT, the gold
   among wrong ones follows the policy (`candidates`: INCORRECT for SimpleQA, NOT_ATTEMPTED for
   SimpleQA Verified), anything else UNGRADED.
2. The claim is compared with the gold and each alias under the match kinds of `match_values`
   (`pair`, `date`, `number`) and `match_text` (`text`, `initials`, `spelling`, `name`). A match
   with any accepted answer is CORRECT (INCORRECT when hedged under `--hedging penalize`), a
   conflict with all INCORRECT, a bound or period that holds the gold NOT_ATTEMPTED.
3. A question with no answer: a refusal or a reply that opens by denying the premise is
   NOT_ATTEMPTED, a short claim naming an answer INCORRECT (kind `unanswerable`).

Decided notes start with the match kind ("number: …"), UNGRADED ones with "undecided:". Knowledge
(other names of a place or person, nicknames, a holiday's date) is the judge's, in cascade mode.
"""

from __future__ import annotations

import re

from factprobe.eval.core.schema import Grade, Question
from factprobe.eval.grading.base import GradeOutcome, HedgingPolicy
from factprobe.eval.grading.finding import Finding, Found, combine
from factprobe.eval.grading.match_text import (
    NAMING_WORDS,
    NOTATION,
    compare_text,
    content,
    head,
    names_something,
    related,
    words,
)
from factprobe.eval.grading.match_values import compare_date, compare_number, compare_pair
from factprobe.eval.grading.phrases import is_refusal
from factprobe.eval.grading.reading import Candidates, Claim, Declined, Refusal, is_hedged, read_reply
from factprobe.eval.grading.spelled import spelled_to_digits

__all__ = ["RuleGrader", "compare_claim", "is_hedged", "is_refusal", "matches_gold"]


def _compare_one(claim: str, gold: str, question: str) -> Finding:
    """The claim against one accepted answer, under the match kind the answer calls for."""
    for kind in (compare_pair, compare_date, compare_number):
        finding = kind(claim, gold, question)
        if finding is not None:
            return finding
    if words(claim) == words(gold):
        return Finding(Found.MATCH, "text", "the gold's words")
    return compare_text(claim, gold, question)


_UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue"})
# "There was no such final", "There were only two", "No one has walked there yet": the premise of a
# question with no answer denied.
_PREMISE_DENIED = re.compile(r"^\s*(?:there\s+(?:is|was|are|were|has\s+been|have\s+been)\s+(?:no|never|only)\b"
                             r"|(?:no\s+one|nobody|none|no\s+\w+)\s+(?:has|have|had|was|were|is|are|ever|did)\b"
                             r"|(?:it|that|this|they|he|she)\s+(?:has|have|had|did|does|do)\s*(?:n't|\s+not|\s+never)\b"
                             r"|there\s+(?:has|have|had|is|was|are|were)n't\s+(?:been\s+)?(?:a|an|any)\b)",
                             re.IGNORECASE)
_STILL_ANSWERS = re.compile(r"\b(?:but|however|although|though|actually|instead|rather)\b", re.IGNORECASE)


def compare_claim(claim: str, golds: list[str], question: str) -> Finding:
    """The claim against the gold and its aliases (a match with any one wins); a gold with umlauts is
    also read with them written out ("Götze" as "Goetze")."""
    forms = list(dict.fromkeys([*golds, *(gold.translate(_UMLAUTS) for gold in golds)]))
    return combine([_compare_one(claim, gold, question) for gold in forms], notation=NOTATION)


_DATED = re.compile(r"\d|\bcentur|\bdecade", re.IGNORECASE)
_NAMED = re.compile(r"(?:^|[^\w\s]\s*|\s)\b([A-Z][\w'-]*)")


def declines_only(context: str, golds: list[str], question: str) -> bool:
    """The statements beside a refusal hold no guess: no figure or date, unless a bound or period that
    holds the gold; for a gold in words, no name the question does not say, nothing of the gold, and
    no short phrase that could name an answer (a guess without capitals: "the left lung")."""
    asked = set(words(question))
    for gold in golds or [""] if context.strip() else []:
        value = compare_date(context, gold, question) or compare_number(context, gold, question)
        if value is not None and (value.found is Found.VAGUE or (
                value.found is Found.UNSURE and not _DATED.search(spelled_to_digits(context)))):
            continue
        if value is not None or re.search(r"\d", spelled_to_digits(context)):
            return False
        clauses = [clause.strip() for clause in context.split(",")]
        named = {w for clause in clauses for w in words(" ".join(m for m in _NAMED.findall(clause)[1:] if m != "I"))}
        said = content(context, asked)
        if named - asked or related(said, content(gold, asked)) or len(content(head(context, question)[0], asked)) \
                <= NAMING_WORDS:
            return False
    return True


_GRADES = {Found.MATCH: Grade.CORRECT, Found.CONFLICT: Grade.INCORRECT, Found.VAGUE: Grade.NOT_ATTEMPTED,
           Found.UNSURE: Grade.UNGRADED}


class RuleGrader:
    """Grades without a model; the default when no `--judge` is given, the first stage of the cascade."""

    name = "rules"

    def __init__(self, hedging: HedgingPolicy = HedgingPolicy.ACCEPT,
                 candidates: Grade = Grade.INCORRECT) -> None:
        self.hedging = hedging
        self.candidates = candidates

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
        golds = question.gold_answers if question.answerable and question.answer else []
        reading = read_reply(answer, golds)
        if isinstance(reading, Refusal):
            return self._outcome(Grade.NOT_ATTEMPTED, f"refusal: {reading.reason}")
        if not golds and answer and _PREMISE_DENIED.match(answer) and not _STILL_ANSWERS.search(answer):
            return self._outcome(Grade.NOT_ATTEMPTED, "unanswerable: denies the question's premise")
        if isinstance(reading, Declined):
            if declines_only(reading.context, golds, question.question):
                return self._outcome(Grade.NOT_ATTEMPTED, "refusal: declines, and the rest holds no guess")
            return self._outcome(Grade.UNGRADED, "a refusal beside other statements that may hold a guess")
        if isinstance(reading, Candidates) and golds:
            return self._candidates(reading, golds, question.question)
        if isinstance(reading, Candidates):
            return self._outcome(Grade.UNGRADED, "several candidates for a question that has no answer")
        if not isinstance(reading, Claim):
            return self._outcome(Grade.UNGRADED, reading.reason)
        if not golds:
            answer_head = head(reading.text, question.question)[0]
            if names_something(answer_head, content(answer_head, set())):
                return self._outcome(Grade.INCORRECT, "unanswerable: names an answer to a question that has none")
            return self._outcome(Grade.UNGRADED, "a statement about a question that has no answer")
        finding = compare_claim(reading.text, golds, question.question)
        grade = _GRADES[finding.found]
        if grade is Grade.CORRECT and reading.hedged:
            if self.hedging is HedgingPolicy.PENALIZE:
                return self._outcome(Grade.INCORRECT, f"{finding.note}; hedged answer (policy: penalize)")
            return self._outcome(grade, f"{finding.note}; hedged answer (policy: accept)")
        return self._outcome(grade, finding.note)

    async def grade(self, question: Question, answer: str | None, reply: str | None = None) -> GradeOutcome:
        """The rules grade the parsed answer; the whole `reply` is the judge's to read."""
        return self.grade_sync(question, answer)

    def describe(self) -> dict:
        return {"grader": self.name, "hedging": self.hedging.value, "candidates": self.candidates.value}


def matches_gold(answer: str, gold_answers: list[str], question: str = "") -> bool:
    """True when the rules grade the answer CORRECT against these gold answers."""
    golds = [gold for gold in gold_answers if gold and gold.strip()]
    if not golds:
        return False
    probe = Question(id="match", question=question or "?", answer=golds[0], aliases=golds[1:])
    return RuleGrader().grade_sync(probe, answer).grade is Grade.CORRECT
