"""The grading service: every grade of a run is given here, under one error policy.

The answer, hop probes, test-time-compute samples, the forced re-ask, a multiple-choice letter, the
grader audit and every re-grade on `--resume` call `GradingService.grade`. A grader that raises
leaves the answer UNGRADED with the reason (`grader failed: Type: message`) in the note and in
`GradeOutcome.error`, never an invented grade; every note is redacted. On `--resume` an UNGRADED
row is re-graded only when this service's grader (or a part of the cascade) left it undecided.
"""

from __future__ import annotations

import inspect
from dataclasses import replace
from functools import lru_cache

from factprobe.eval.core.redact import error_text, redact
from factprobe.eval.core.schema import Grade, Question, Result
from factprobe.eval.grading.base import GradeOutcome, Grader

FAILED = "grader failed"


def grader_names(grader: Grader) -> frozenset[str]:
    """The names a grader's outcomes may carry: its own and its parts' (a cascade's rules and judge)."""
    parts = getattr(grader, "parts", ())
    return frozenset({grader.name, *(part.name for part in parts)})


@lru_cache(maxsize=64)
def _takes_reply(grade_method: object) -> bool:
    """Whether a grader's `grade` takes the whole reply (`reply=`), as factprobe's graders do; a
    plugin's grader written against `grade(question, answer)` still works."""
    try:
        return "reply" in inspect.signature(grade_method).parameters  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return False


class GradingService:
    """The run's grader behind the one error policy (see the module docstring); it is itself a
    Grader, so a post step written against `data.grader.grade(question, answer)` goes through it."""

    def __init__(self, grader: Grader) -> None:
        self.grader: Grader = grader.grader if isinstance(grader, GradingService) else grader
        self.name = self.grader.name
        self.names = grader_names(self.grader)

    @property
    def judge_calls(self) -> int:
        """How many times the grader asked a judge model (0 for the rule grader)."""
        return int(getattr(self.grader, "judge_calls", getattr(self.grader, "calls", 0)))

    def describe(self) -> dict:
        return self.grader.describe()

    async def grade(self, question: Question, answer: str | None, reply: str | None = None,
                    by: Grader | None = None) -> GradeOutcome:
        """The outcome of the run's grader (or of `by`, a measurement's own grader) for `answer`;
        `reply` is the model's whole reply, which a judge reads beside the parsed answer."""
        grader = by or self.grader
        try:
            if reply is not None and _takes_reply(type(grader).grade):
                outcome = await grader.grade(question, answer, reply)
            else:
                outcome = await grader.grade(question, answer)
        except Exception as exc:  # the policy: a failing grader never fails the row nor invents a grade
            error = error_text(exc)
            return GradeOutcome(Grade.UNGRADED, grader.name, f"{FAILED}: {error}", error=error)
        return outcome if outcome.note is None else replace(outcome, note=redact(outcome.note))

    def regrades(self, row: Result) -> bool:
        """True when `row` is UNGRADED by this service's grader, so re-grading its stored answer may
        decide it without changing its grading policy."""
        return row.grade is Grade.UNGRADED and row.grader in self.names

    async def regrade(self, row: Result, question: Question) -> Result:
        """A new row for an UNGRADED one, graded with the current grader from its stored answer."""
        outcome = await self.grade(question, row.answer, row.raw)
        note = f"re-graded on resume (was UNGRADED: {row.grade_note}); {outcome.note or 'no note'}"
        return Result.model_validate({**row.model_dump(), "grade": outcome.grade,
                                      "grader": outcome.grader, "grade_note": note, **outcome.judge_cost()})
