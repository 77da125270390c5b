"""The deterministic rule grader: normalised match against gold answers and aliases.

CORRECT when a gold answer's tokens appear as a contiguous run in the answer (for answers with
digits, such as dates, in any order); NOT_ATTEMPTED for an empty answer or a refusal; INCORRECT
otherwise. A coarser answer ("dog" for "Bichon Frise") does not contain the gold tokens, so it is
INCORRECT, as WorldVQA's granularity rule asks. Hedged answers follow the hedging policy.
Unanswerable questions: a refusal is NOT_ATTEMPTED, any answer is INCORRECT.
"""

from __future__ import annotations

from factprobe.eval.grading.base import GradeOutcome, HedgingPolicy
from factprobe.eval.grading.normalize import normalize_answer
from factprobe.eval.grading.phrases import is_hedged, is_refusal
from factprobe.eval.schema import Grade, Question

_MONTHS = {"jan": "january", "feb": "february", "mar": "march", "apr": "april", "jun": "june",
           "jul": "july", "aug": "august", "sep": "september", "sept": "september",
           "oct": "october", "nov": "november", "dec": "december"}


def _tokens(text: str) -> list[str]:
    return [_MONTHS.get(token, token) for token in normalize_answer(text).split()]


def _contains_run(haystack: list[str], needle: list[str]) -> bool:
    width = len(needle)
    return any(haystack[i:i + width] == needle for i in range(len(haystack) - width + 1))


def matches_gold(answer: str, gold_answers: list[str]) -> bool:
    """True when any gold answer appears in the answer after normalisation."""
    answer_tokens = _tokens(answer)
    for gold in gold_answers:
        gold_tokens = _tokens(gold)
        if not gold_tokens:
            continue
        if _contains_run(answer_tokens, gold_tokens):
            return True
        if any(ch.isdigit() for ch in gold) and set(gold_tokens) <= set(answer_tokens):
            return True
    return False


class RuleGrader:
    """Grades without a model; the default when no `--judge` is given."""

    name = "rules"

    def __init__(self, hedging: HedgingPolicy = HedgingPolicy.ACCEPT) -> None:
        self.hedging = hedging

    def grade_sync(self, question: Question, answer: str | None) -> GradeOutcome:
        if answer is None or not answer.strip():
            return GradeOutcome(Grade.NOT_ATTEMPTED, self.name, "empty answer")
        if not question.answerable or question.answer is None:
            if is_refusal(answer):
                return GradeOutcome(Grade.NOT_ATTEMPTED, self.name, "refused an unanswerable question")
            return GradeOutcome(Grade.INCORRECT, self.name, "answered an unanswerable question")
        if matches_gold(answer, question.gold_answers):
            if is_hedged(answer) and self.hedging is HedgingPolicy.PENALIZE:
                return GradeOutcome(Grade.INCORRECT, self.name, "hedged answer (policy: penalize)")
            return GradeOutcome(Grade.CORRECT, self.name, "matches gold")
        if is_refusal(answer):
            return GradeOutcome(Grade.NOT_ATTEMPTED, self.name, "refusal")
        return GradeOutcome(Grade.INCORRECT, self.name, "no gold match")

    async def grade(self, question: Question, answer: str | None) -> GradeOutcome:
        return self.grade_sync(question, answer)

    def describe(self) -> dict:
        return {"grader": self.name, "hedging": self.hedging.value}
