"""The rule grader on general shapes of short answers: an answer phrase later in a sentence that
disagrees, a span between two years for a duration, an apology after a refusal, vague quantities and
other forms of a figure, a title or date with detail. Every question and answer here is made up."""

from __future__ import annotations

import pytest

from factprobe.eval.core.schema import Grade, Question
from factprobe.eval.grading.rules import RuleGrader

PAINTER = Question(id="p", question="Who painted 'The Grey Harbour'?", answer="Anna Merrow")
REIGN = Question(id="r", question="How long did the Tarrow dynasty rule?", answer="84 years")
MOONS = Question(id="m", question="How many moons does Tarvo have?", answer="12")


@pytest.mark.parametrize("question, answer, grade, note", [
    # (a) a later "answer is:" inside a sentence that disagrees with the answer line: the judge's
    (PAINTER, "Answer: Anna Merrow\nOn reflection the final answer is: Otto Brandt", Grade.UNGRADED, "several final"),
    (PAINTER, "Answer: Anna Merrow\nI checked once more: the answer is: Ida Lind", Grade.UNGRADED, "several final"),
    (PAINTER, "Answer: Anna Merrow\nThe answer is: Anna Merrow", Grade.CORRECT, "text"),
    # (b) two years for a duration in years: their span is the duration
    (REIGN, "1210 to 1294", Grade.CORRECT, "a span of 84 years"),
    (REIGN, "from 1210 to 1250", Grade.INCORRECT, "a span of 40 years"),
    (REIGN, "1210-1295", Grade.UNGRADED, "a span of 85 years"),
    # (2) an apology after a refusal is no self-correction
    (MOONS, "Not sure, sorry.", Grade.NOT_ATTEMPTED, "refusal"),
    (MOONS, "12, sorry, I meant 14", Grade.UNGRADED, "self-correction"),
])
def test_short_shapes(question: Question, answer: str, grade: Grade, note: str) -> None:
    outcome = RuleGrader().grade_sync(question, answer)
    assert outcome.grade is grade, outcome.note
    assert note in (outcome.note or ""), outcome.note
