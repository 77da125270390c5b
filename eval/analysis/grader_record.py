"""`grader_locked_set`: how the rule grader did on its newest locked set, in every summary of a run the
rules graded (`--grader rules` or `cascade`): the figures measured once, which set, and
`rules_changed_since` (true when this factprobe's rules are not the ones measured)."""

from __future__ import annotations

from typing import Any

from factprobe.eval.analysis.summary import SummaryInput, summary_section
from factprobe.eval.grading.locked_record import locked_figures


@summary_section("grader_locked_set", order=91)
def grader_locked_set(data: SummaryInput) -> dict[str, Any] | None:
    grader = (data.manifest.get("config") or {}).get("grader")
    if grader not in ("rules", "cascade") and not any(row.grader == "rules" for row in data.rows):
        return None
    return locked_figures()
