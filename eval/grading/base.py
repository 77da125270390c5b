"""The grader protocol and what a grade carries."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Protocol

from factprobe.eval.core.schema import Grade, Question


class HedgingPolicy(str, Enum):
    """How a hedged answer that contains the gold answer is graded (docs/protocols.md §1).

    `accept`: correct, as SimpleQA grades it. `penalize`: incorrect, as Video SimpleQA and
    WorldVQA grade equivocal answers.
    """

    ACCEPT = "accept"
    PENALIZE = "penalize"


@dataclass(frozen=True)
class GradeOutcome:
    """A grade, the grader that gave it, and a short note (the judge's justification or the rule hit);
    `error` is set only when the grader raised (eval.grading.service): the redacted exception text.

    A judge call's cost is recorded apart from the model's (None without a judge call): it is the
    price of measuring, never part of a strategy's overhead.
    """

    grade: Grade
    grader: str
    note: str | None = None
    error: str | None = None
    judge_prompt_tokens: int | None = None
    judge_completion_tokens: int | None = None
    judge_latency_s: float | None = None

    def judge_cost(self) -> dict[str, int | float | None]:
        """The row fields of the judge call's cost."""
        return {"judge_prompt_tokens": self.judge_prompt_tokens,
                "judge_completion_tokens": self.judge_completion_tokens, "judge_latency_s": self.judge_latency_s}


class Grader(Protocol):
    """Grades one answer against a question's gold answer."""

    name: str

    async def grade(self, question: Question, answer: str | None, reply: str | None = None) -> GradeOutcome:
        """Grade the parsed `answer`; a grader that reads meaning (the judge) may read the whole `reply`."""
        ...

    def describe(self) -> dict:
        """What the manifest records about this grader."""
        ...
