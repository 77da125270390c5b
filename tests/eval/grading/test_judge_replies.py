"""Issue 32's judge replies: a label in markdown bold, a label with trailing punctuation, and a reply
giving its grade twice (the same grade: read; two different grades: UNGRADED naming both)."""

from __future__ import annotations

import pytest

from factprobe.eval.core.schema import Grade
from factprobe.eval.grading.judge import read_judge_reply
from factprobe.eval.grading.judge_labels import template_scheme

TEMPLATE = template_scheme("A: CORRECT\nB: INCORRECT\nC: NOT_ATTEMPTED\n{question}", "t.txt")


@pytest.mark.parametrize("reply, grade", [
    ("Grade: **CORRECT**", Grade.CORRECT),            # these already read before issue 32
    ("**Grade: INCORRECT**", Grade.INCORRECT),
    ("Grade: CORRECT.", Grade.CORRECT),
    ("Grade: NOT_ATTEMPTED!", Grade.NOT_ATTEMPTED),
    ("It names Paris.\nGrade: CORRECT\n\nGrade: CORRECT", Grade.CORRECT),
])
def test_built_in_replies(reply: str, grade: Grade) -> None:
    reading = read_judge_reply(reply)
    assert reading.grade is grade and reading.reason is None


@pytest.mark.parametrize("reply, grade", [
    ("**A**", Grade.CORRECT), ("Grade: **B**", Grade.INCORRECT), ("Grade: A.", Grade.CORRECT),
    ("Label: **C**.", Grade.NOT_ATTEMPTED), ("Grade: A\nA", Grade.CORRECT),
])
def test_template_replies(reply: str, grade: Grade) -> None:
    reading = read_judge_reply(reply, scheme=TEMPLATE)
    assert reading.grade is grade and reading.reason is None


@pytest.mark.parametrize("reply, scheme_args", [
    ("Grade: INCORRECT\nOn reflection:\nGrade: CORRECT", {}),
    ("Grade: CORRECT\nGrade: INCORRECT.", {}),
    ("Grade: A\nB", {"scheme": TEMPLATE}),
])
def test_two_different_grades_are_ungraded_naming_both(reply: str, scheme_args: dict) -> None:
    reading = read_judge_reply(reply, **scheme_args)
    assert reading.grade is Grade.UNGRADED
    assert "different grades" in (reading.reason or "")
    assert "CORRECT" in (reading.reason or "") and "INCORRECT" in (reading.reason or "")
