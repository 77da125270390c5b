"""The rule grader and the judge's reply parser."""

from __future__ import annotations

import asyncio

import pytest

from factprobe.eval.core.schema import Grade, Question
from factprobe.eval.grading.base import HedgingPolicy
from factprobe.eval.grading.judge import JudgeGrader, read_judge_reply
from factprobe.eval.grading.rules import RuleGrader
from tests.fakes import ScriptedModel

PARIS = Question(id="q1", question="Which city is the capital of France?", answer="Paris")
MOON = Question(id="q2", question="In which year did Apollo 11 land on the Moon?", answer="July 20, 1969",
                aliases=["1969-07-20"])
DOG = Question(id="q3", question="Which breed is this dog?", answer="Bichon Frise")
UNKNOWABLE = Question(id="u1", question="What was Caesar's first pet called?", answer=None,
                      answerable=False)


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
def test_rule_grades(question: Question, answer: str | None, grade: Grade) -> None:
    assert RuleGrader().grade_sync(question, answer).grade is grade


def test_hedging_policy_decides_hedged_answers() -> None:
    hedged = "Maybe Paris, but I am not sure"
    assert RuleGrader(HedgingPolicy.ACCEPT).grade_sync(PARIS, hedged).grade is Grade.CORRECT
    assert RuleGrader(HedgingPolicy.PENALIZE).grade_sync(PARIS, hedged).grade is Grade.INCORRECT


@pytest.mark.parametrize("reply, grade", [
    ("The answer names Paris.\nGrade: CORRECT", Grade.CORRECT),
    ("It names Lyon.\nGrade: INCORRECT", Grade.INCORRECT),
    ("No answer given.\ngrade: not_attempted", Grade.NOT_ATTEMPTED),
    ("**Grade:** CORRECT", Grade.CORRECT),
    ("First Grade: INCORRECT\nOn reflection:\nGrade: CORRECT", Grade.CORRECT),
])
def test_judge_reply_labels(reply: str, grade: Grade) -> None:
    assert read_judge_reply(reply).grade is grade


@pytest.mark.parametrize("reply", [
    "C", "CORRECT", "The grade is probably correct", "Grade: C", "Grade: CORRECTISH", "",
])
def test_unanchored_judge_replies_are_not_grades(reply: str) -> None:
    assert read_judge_reply(reply).grade is Grade.UNGRADED


def test_unparseable_judge_reply_is_ungraded_not_incorrect() -> None:
    judge = JudgeGrader(ScriptedModel(lambda messages, params: "I think it is fine."))
    outcome = asyncio.run(judge.grade(PARIS, "Paris"))
    assert outcome.grade is Grade.UNGRADED
    assert "unparseable" in (outcome.note or "")


def test_judge_prompt_carries_gold_and_policy() -> None:
    seen: list[str] = []

    def script(messages, params):
        seen.append(messages[-1]["content"])
        return "Names the gold city.\nGrade: CORRECT"

    judge = JudgeGrader(ScriptedModel(script), HedgingPolicy.PENALIZE)
    outcome = asyncio.run(judge.grade(PARIS, "Paris"))
    assert outcome.grade is Grade.CORRECT
    assert "Gold answer: Paris" in seen[0] and "INCORRECT even if it mentions" in seen[0]
