"""Reading an answer: refusals, hedges, self-corrections, negations, candidates and stated confidence."""

from __future__ import annotations

import pytest

from factprobe.eval.core.schema import Grade, Question
from factprobe.eval.grading.claims import answer_text, read_answer, split_list
from factprobe.eval.grading.rules import RuleGrader

RIVER = Question(id="r1", question="Which river runs through Budapest?", answer="Danube")
FOUNDED = Question(id="r2", question="In which year was the library founded?", answer="1753")
AGENCY = Question(id="r3", question="Which agency built the telescope?", answer="European Space Agency")
TOWER = Question(id="r4", question="How tall is the tower in feet?", answer="1,063")


def test_refusal_then_guess_keeps_the_guess() -> None:
    reading = read_answer("I can't be certain. Perhaps the Tisza?")
    assert reading.refused and reading.hedged
    assert reading.candidates == ["Perhaps the Tisza?"]


def test_plain_refusal_has_no_guess() -> None:
    reading = read_answer("I'm afraid I don't know that one.")
    assert reading.refused and not reading.has_guess


def test_alternatives_are_split_but_not_when_the_gold_holds_or() -> None:
    assert read_answer("Either the Danube or the Drava").candidates == ["the Danube", "the Drava"]
    assert len(read_answer("War or Peace", keep_or=True).candidates) == 1


def test_short_lists_split_and_places_do_not() -> None:
    assert split_list("Ada, Ben and Cleo") == ["Ada", "Ben", "Cleo"]
    assert split_list("Budapest, Hungary") == ["Budapest, Hungary"]


@pytest.mark.parametrize("raw, text", [
    ('{"answer": "Danube", "confidence_score": 85}', "Danube"),
    ("Danube. Confidence: 85%", "Danube."),
    ("Danube (confidence 60)", "Danube"),
])
def test_stated_confidence_is_not_part_of_the_answer(raw: str, text: str) -> None:
    assert answer_text(raw) == text


@pytest.mark.parametrize("question, answer, grade", [
    (RIVER, "The Danube, not the Tisza.", Grade.CORRECT),
    (RIVER, "Not the Danube but the Tisza", Grade.INCORRECT),
    (RIVER, "The Danube is not correct; it is the Tisza.", Grade.INCORRECT),
    (RIVER, "Many say the Tisza, but it is actually the Danube.", Grade.CORRECT),
    (RIVER, "Many say the Danube, but it is actually the Tisza.", Grade.INCORRECT),
    (RIVER, "Tisza. No wait, the Danube.", Grade.CORRECT),
    (RIVER, '{"answer": "Danube", "confidence_score": 70}', Grade.CORRECT),
    (FOUNDED, "It was not founded in 1753.", Grade.INCORRECT),
    (FOUNDED, "Not until 1753.", Grade.CORRECT),
    (FOUNDED, "1753 (confidence: 90)", Grade.CORRECT),
    (AGENCY, "ESA", Grade.CORRECT),                 # an acronym of the gold
    (AGENCY, "NASA", Grade.INCORRECT),
    (TOWER, "324 metres", Grade.CORRECT),           # the question's unit applies to the bare gold
    (TOWER, "1,063 metres", Grade.INCORRECT),
])
def test_stance_and_negation(question: Question, answer: str, grade: Grade) -> None:
    outcome = RuleGrader().grade_sync(question, answer)
    assert outcome.grade is grade, outcome.note


@pytest.mark.parametrize("answer", [
    "Possibly the Danube, though the Tisza is also possible",
    "The Danube. Some sources say the Tisza.",
    "The Danube, or maybe the Tisza",
])
def test_a_second_candidate_in_a_later_clause_makes_it_incorrect(answer: str) -> None:
    outcome = RuleGrader().grade_sync(RIVER, answer)
    assert outcome.grade is Grade.INCORRECT
    assert "several candidates" in (outcome.note or "")
