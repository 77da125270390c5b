"""The grader protocol and what a grade carries."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Protocol

from factprobe.eval.core.schema import Grade, Question


class HedgingPolicy(str, Enum):
    """How a hedged answer that contains the gold answer is graded (protocols §1).

    `accept`: correct, as SimpleQA grades it. `penalize`: incorrect, as Video SimpleQA and
    WorldVQA grade equivocal answers.
    """

    ACCEPT = "accept"
    PENALIZE = "penalize"


@dataclass(frozen=True)
class GradeOutcome:
    """A grade, the grader that gave it, and a short note (the judge's justification or the rule hit);
    `error` is set only when the grader raised (eval.grading.service): the redacted exception text."""

    grade: Grade
    grader: str
    note: str | None = None
    error: str | None = None


class Grader(Protocol):
    """Grades one answer against a question's gold answer."""

    name: str

    async def grade(self, question: Question, answer: str | None) -> GradeOutcome:
        ...

    def describe(self) -> dict:
        """What the manifest records about this grader."""
        ...
