"""The rule grader as a whole: common answers to common questions, its hedging policy, the notes that
name the match kind that decided, its description, and a gold matched with a bare question."""

from __future__ import annotations

import asyncio

import pytest

from factprobe.eval.core.schema import Grade, Question
from factprobe.eval.grading.base import HedgingPolicy
from factprobe.eval.grading.rules import RuleGrader

PARIS = Question(id="q1", question="Which city is the capital of France?", answer="Paris")
MOON = Question(id="q2", question="In which year did Apollo 11 land on the Moon?", answer="July 20, 1969",
                aliases=["1969-07-20"])
DOG = Question(id="q3", question="Which breed is this dog?", answer="Bichon Frise")
UNKNOWABLE = Question(id="u1", question="What was Caesar's first pet called?", answer=None,
                      answerable=False)
CAPITAL = Question(id="c1", question="Which city is the capital of Portugal?", answer="Lisbon",
                   aliases=["Lisboa"])
STATE = Question(id="c3", question="Which US state is the Badlands park in?", answer="Dakota")


@pytest.mark.parametrize("question, answer, grade", [
    (PARIS, "Paris", Grade.CORRECT),
    (PARIS, "paris.", Grade.CORRECT),
    (PARIS, "The capital is Paris", Grade.CORRECT),
    (PARIS, "Lyon", Grade.INCORRECT),
    (PARIS, "Parisian suburbs", Grade.UNGRADED),
    (PARIS, "Either Lyon or Paris", Grade.INCORRECT),
    (PARIS, "I'm not sure. Maybe Lyon?", Grade.INCORRECT),       # a refusal, then one wrong guess
    (PARIS, "I can't recall that", Grade.NOT_ATTEMPTED),
    (PARIS, "I don't know", Grade.NOT_ATTEMPTED),
    (PARIS, "Sorry, I can't help with it", Grade.NOT_ATTEMPTED),
    (PARIS, None, Grade.NOT_ATTEMPTED),
    (MOON, "20 July 1969", Grade.CORRECT),
    (MOON, "Jul 20, 1969", Grade.CORRECT),
    (MOON, "1969", Grade.CORRECT),                  # the year is what the question asks
    (MOON, "1969-07-20", Grade.CORRECT),
    (DOG, "a dog", Grade.UNGRADED),
    (UNKNOWABLE, "I don't know", Grade.NOT_ATTEMPTED),
    (UNKNOWABLE, "Rex", Grade.INCORRECT),
])
def test_the_rules_on_common_answers_to_common_questions(question: Question, answer: str | None,
                                                         grade: Grade) -> None:
    assert RuleGrader().grade_sync(question, answer).grade is grade


def test_hedging_policy_decides_hedged_answers() -> None:
    hedged = "Maybe Paris, but I am not sure"
    assert RuleGrader(HedgingPolicy.ACCEPT).grade_sync(PARIS, hedged).grade is Grade.CORRECT
    assert RuleGrader(HedgingPolicy.PENALIZE).grade_sync(PARIS, hedged).grade is Grade.INCORRECT


@pytest.mark.parametrize("answer", [
    "Probably Lisbon",
    "I'm not sure, but I think it's Lisbon.",
    "Lisbon is my best guess",
])
def test_hedging_policy_decides_hedged_correct_answers(answer: str) -> None:
    accepted = RuleGrader(HedgingPolicy.ACCEPT).grade_sync(CAPITAL, answer)
    penalized = RuleGrader(HedgingPolicy.PENALIZE).grade_sync(CAPITAL, answer)
    assert accepted.grade is Grade.CORRECT and "policy: accept" in (accepted.note or "")
    assert penalized.grade is Grade.INCORRECT and "policy: penalize" in (penalized.note or "")


def test_unhedged_correct_answer_is_correct_under_both_policies() -> None:
    for policy in HedgingPolicy:
        assert RuleGrader(policy).grade_sync(CAPITAL, "Lisbon.").grade is Grade.CORRECT


def test_notes_name_the_match_kind_that_decided() -> None:
    grader = RuleGrader()
    assert (grader.grade_sync(CAPITAL, "Porto or Lisbon").note or "").startswith("candidates: several candidates")
    assert (grader.grade_sync(CAPITAL, "Not Lisbon.").note or "").startswith("undecided: a denial")
    assert (grader.grade_sync(CAPITAL, "Porto").note or "").startswith("text: names something else")
    assert (grader.grade_sync(STATE, "South Dakota").note or "").startswith("undecided: text:")
    assert (grader.grade_sync(CAPITAL, "I don't know").note or "").startswith("refusal:")


def test_async_grade_and_description() -> None:
    grader = RuleGrader(HedgingPolicy.PENALIZE)
    assert asyncio.run(grader.grade(CAPITAL, "Lisbon")).grade is Grade.CORRECT
    assert grader.name == "rules"
    assert grader.describe() == {"grader": "rules", "hedging": "penalize", "candidates": "INCORRECT",
                                  "coarser": "NOT_ATTEMPTED"}


@pytest.mark.parametrize("answer, golds, expected", [
    ("Lisbon", ["Lisbon"], True),
    ("lisboa", ["Lisbon", "Lisboa"], True),
    ("Porto or Lisbon", ["Lisbon"], False),
    ("North Dakota", ["Dakota"], False),
    ("I don't know", ["Lisbon"], False),
])
def test_correct_only_on_a_match_with_a_bare_question(answer: str, golds: list[str], expected: bool) -> None:
    probe = Question(id="g", question="?", answer=golds[0], aliases=golds[1:])
    assert (RuleGrader().grade_sync(probe, answer).grade is Grade.CORRECT) is expected
