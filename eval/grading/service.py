"""The grading service: every grade of a run is given here, under one error policy.

The answer (eval.run.runner), hop probes and a decomposing strategy's own hops
(factprobe.decomposition.hop_steps), test-time-compute samples (eval.ttc.step), the forced re-ask
(eval.self_awareness), the letter of a multiple-choice answer (eval.multiple_choice.step), the
grader audit and every re-grade on `--resume` call `GradingService.grade`.

The policy: a grader that raises leaves the answer UNGRADED, with the reason (`grader failed:
Type: message`) in the note and in `GradeOutcome.error`, never an invented grade; UNGRADED counts
as undecided, apart from the graded rows, in every summary. Every note is redacted (a judge's or a
server's text may echo a credential). A grader's own undecided outcome (a judge reply that cannot
be read) is UNGRADED too, with its own reason.

On `--resume` an UNGRADED row is re-graded from its stored answer only when the grader that left it
undecided is this service's grader (the run's `--grader`, or a part of the cascade); a row graded
by another grader (the multiple-choice letter) is never re-graded by the run's grader, which would
change its grading policy: it is answered and graded again as it was the first time.
"""

from __future__ import annotations

from dataclasses import replace

from factprobe.eval.core.redact import error_text, redact
from factprobe.eval.core.schema import Grade, Question, Result
from factprobe.eval.grading.base import GradeOutcome, Grader

FAILED = "grader failed"


def grader_names(grader: Grader) -> frozenset[str]:
    """The names a grader's outcomes may carry: its own and its parts' (a cascade's rules and judge)."""
    parts = getattr(grader, "parts", ())
    return frozenset({grader.name, *(part.name for part in parts)})


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

    async def grade(self, question: Question, answer: str | None, by: Grader | None = None) -> GradeOutcome:
        """The outcome of the run's grader (or of `by`, a measurement's own grader) for `answer`."""
        grader = by or self.grader
        try:
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
        outcome = await self.grade(question, row.answer)
        note = f"re-graded on resume (was UNGRADED: {row.grade_note}); {outcome.note or 'no note'}"
        return Result.model_validate({**row.model_dump(), "grade": outcome.grade,
                                      "grader": outcome.grader, "grade_note": note})
