"""Who graded: per strategy, answers decided by the rules, decided by the judge, left undecided,
and how often the judge was asked (`--grader cascade` asks it only where the rules are undecided)."""

from __future__ import annotations

from factprobe.eval.analysis.summary import SummaryInput, summary_section
from factprobe.eval.core.schema import GRADED, Grade, Result


def asked_judge(row: Result) -> bool:
    """The judge saw this answer: its name is on the row and there was an answer to show it."""
    return (row.grade is not Grade.ERROR and row.grader.startswith("judge:")
            and bool(row.answer and row.answer.strip()))


@summary_section("grading", order=90)
def grading(data: SummaryInput) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for name, rows in data.by_strategy.items():
        decided = [row for row in rows if row.grade in GRADED]
        out[name] = {
            "rules_decided": sum(row.grader == "rules" for row in decided),
            "judge_decided": sum(row.grader.startswith("judge:") for row in decided),
            "undecided": sum(row.grade is Grade.UNGRADED for row in rows),
            "judge_calls": sum(asked_judge(row) for row in rows),
        }
    return out
