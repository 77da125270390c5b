"""Reading an answer: refusals, hedges, self-corrections, negations, candidates and stated confidence."""

from __future__ import annotations

import pytest

from factprobe.eval.core.schema import Grade, Question
from factprobe.eval.grading.rules import RuleGrader

RIVER = Question(id="r1", question="Which river runs through Budapest?", answer="Danube")
FOUNDED = Question(id="r2", question="In which year was the library founded?", answer="1753")
AGENCY = Question(id="r3", question="Which agency built the telescope?", answer="European Space Agency")
TOWER = Question(id="r4", question="How tall is the tower in feet?", answer="1,063")


@pytest.mark.parametrize("question, answer, grade", [
    (RIVER, "The Danube, not the Tisza.", Grade.CORRECT),
    (RIVER, "Not the Danube but the Tisza", Grade.UNGRADED),
    (RIVER, "The Danube is not correct; it is the Tisza.", Grade.UNGRADED),
    (RIVER, "Many say the Tisza, but it is actually the Danube.", Grade.UNGRADED),
    (RIVER, "Many say the Danube, but it is actually the Tisza.", Grade.UNGRADED),
    (RIVER, "Tisza. No wait, the Danube.", Grade.CORRECT),
    (RIVER, '{"answer": "Danube", "confidence_score": 70}', Grade.CORRECT),
    (FOUNDED, "It was not founded in 1753.", Grade.UNGRADED),
    (FOUNDED, "Not until 1753.", Grade.UNGRADED),
    (FOUNDED, "1753 (confidence: 90)", Grade.CORRECT),
    (AGENCY, "ESA", Grade.CORRECT),                 # an acronym of the gold
    (AGENCY, "NASA", Grade.UNGRADED),               # a code the rules cannot expand: the judge's
    (TOWER, "324 metres", Grade.CORRECT),           # the question's unit applies to the bare gold
    (TOWER, "1,063 metres", Grade.INCORRECT),
])
def test_stance_and_negation(question: Question, answer: str, grade: Grade) -> None:
    outcome = RuleGrader().grade_sync(question, answer)
    assert outcome.grade is grade, outcome.note


def test_a_second_candidate_after_or_makes_it_incorrect() -> None:
    outcome = RuleGrader().grade_sync(RIVER, "The Danube, or maybe the Tisza")
    assert outcome.grade is Grade.INCORRECT
    assert "several candidates" in (outcome.note or "")


@pytest.mark.parametrize("answer", [
    "Possibly the Danube, though the Tisza is also possible",
    "The Danube. Some sources say the Tisza.",
])
def test_a_second_candidate_in_a_later_clause_is_left_to_the_judge(answer: str) -> None:
    outcome = RuleGrader().grade_sync(RIVER, answer)
    assert outcome.grade is Grade.UNGRADED and (outcome.note or "").startswith("undecided:")
