"""Which result rows calibration is measured on, and the (confidence, correct) pairs they give.

Calibration asks "was the model right when it said c?", so only answers graded CORRECT or INCORRECT
on answerable questions count. Every other row is excluded and counted by reason: unanswerable
questions, ERROR rows, UNGRADED rows (the judge gave no grade), NOT_ATTEMPTED answers (no claim to
be right or wrong). Among the rows kept, a row without a value for the method is counted as
missing; `coverage` = rows with a value / rows kept.

The confidence histogram and the share of answers at high confidence describe what the model said,
so they use the full set instead (`stated_confidences`): every row with a value, whatever its grade.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from factprobe.eval.analysis.columns import CORRECT, ERROR, INCORRECT, NOT_ATTEMPTED, UNGRADED, RowColumns, columns_of
from factprobe.eval.core.schema import Result

VERBAL = "verbal"


def confidence_of(row: Result, method: str) -> float | None:
    """The row's value for `method` (0–100); `verbal` falls back to the row's main confidence."""
    value = row.confidences.get(method)
    if value is None and method == VERBAL:
        value = row.confidence
    if value is not None and not 0.0 <= value <= 100.0:
        raise ValueError(f"row ({row.question_id}, {row.strategy}, repeat {row.repeat}): confidence "
                         f"{method!r} = {value} is outside 0–100")
    return value


@dataclass
class CalibrationSet:
    """The pairs calibration is computed on, with the counts of what was left out and why."""

    confidence: np.ndarray
    correct: np.ndarray
    counts: dict[str, Any] = field(default_factory=dict)
    positions: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))  # in the rows given


def calibration_set(rows: list[Result], method: str) -> CalibrationSet:
    """(confidence, correct) over the eligible rows with a value for `method`, plus exclusion counts.

    Computed once per strategy's rows and method (factprobe.eval.analysis.columns); each caller
    gets its own counts dict."""
    columns = columns_of(rows)
    kept = columns.derived(("calibration_set", method), lambda: _calibration_set(columns, method))
    return CalibrationSet(kept.confidence, kept.correct, dict(kept.counts), kept.positions)


def _calibration_set(columns: RowColumns, method: str) -> CalibrationSet:
    grades, answerable = columns.grade, columns.answerable
    eligible = np.flatnonzero(answerable & ((grades == CORRECT) | (grades == INCORRECT)))
    counts: dict[str, Any] = {"rows": len(columns.rows), "excluded_unanswerable": int(np.sum(~answerable)),
              "excluded_errors": int(np.sum(answerable & (grades == ERROR))),
              "excluded_ungraded": int(np.sum(answerable & (grades == UNGRADED))),
              "excluded_not_attempted": int(np.sum(answerable & (grades == NOT_ATTEMPTED))),
              "eligible": len(eligible), "missing_confidence": 0, "method_errors": 0}
    confidences: list[float] = []
    used: list[int] = []
    for position in eligible.tolist():
        row = columns.rows[position]
        value = confidence_of(row, method)
        if value is None:
            counts["missing_confidence"] += 1
            errors = row.extra_field("confidence_errors") or {}
            counts["method_errors"] += int(method in errors)
            continue
        confidences.append(value)
        used.append(position)
    counts["used"] = len(confidences)
    counts["coverage"] = len(confidences) / counts["eligible"] if counts["eligible"] else None
    return CalibrationSet(np.asarray(confidences, dtype=float), grades[used] == CORRECT, counts,
                          np.asarray(used, dtype=np.int64))


@dataclass(frozen=True)
class StatedConfidences:
    """Every row with a value for a method, whatever its grade: the value (0–100), the row's grade
    code (factprobe.eval.analysis.columns) and whether its question is answerable."""

    confidence: np.ndarray
    grade: np.ndarray
    answerable: np.ndarray

    @property
    def ungraded(self) -> np.ndarray:
        return self.grade == UNGRADED


def stated_confidences(rows: list[Result], method: str) -> StatedConfidences:
    """The full set of stated values of `method` (computed once per strategy's rows and method)."""
    columns = columns_of(rows)

    def build() -> StatedConfidences:
        values = [confidence_of(row, method) for row in columns.rows]
        kept = np.flatnonzero([value is not None for value in values])
        return StatedConfidences(np.asarray([values[i] for i in kept], dtype=float), columns.grade[kept],
                                 columns.answerable[kept])

    return columns.derived(("stated_confidences", method), build)


def methods_in(rows: list[Result]) -> list[str]:
    """Every confidence name the rows carry, `verbal` first, the rest in first-seen order."""
    return list(columns_of(rows).derived("confidence_methods", lambda: _methods_in(rows)))


def _methods_in(rows: list[Result]) -> list[str]:
    names = dict.fromkeys([VERBAL])
    for row in rows:
        names.update(dict.fromkeys(row.confidences))
    return list(names)
