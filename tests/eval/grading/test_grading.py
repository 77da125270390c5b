"""The judge's reply parser and its prompt; the rule grader's tests are in test_rules.py, test_reading.py,
test_refusals.py and the test_kind_*.py files."""

from __future__ import annotations

import asyncio

import pytest

from factprobe.eval.core.schema import Grade, Question
from factprobe.eval.grading.base import HedgingPolicy
from factprobe.eval.grading.judge import JudgeGrader, read_judge_reply
from tests.fakes import ScriptedModel

PARIS = Question(id="q1", question="Which city is the capital of France?", answer="Paris")


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
