"""Which result rows calibration is measured on, and the (confidence, correct) pairs they give.

Calibration asks "was the model right when it said c?", so only answers graded CORRECT or INCORRECT
on answerable questions count. Every other row is excluded and counted by reason: unanswerable
questions, ERROR rows, UNGRADED rows (the judge gave no grade), NOT_ATTEMPTED answers (no claim to
be right or wrong). Among the rows kept, a row without a value for the method is counted as
missing; `coverage` = rows with a value / rows kept.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from factprobe.eval.schema import Grade, Result

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


def calibration_set(rows: list[Result], method: str) -> CalibrationSet:
    """(confidence, correct) over the eligible rows with a value for `method`, plus exclusion counts."""
    counts = {"rows": len(rows), "excluded_unanswerable": 0, "excluded_errors": 0,
              "excluded_ungraded": 0, "excluded_not_attempted": 0, "eligible": 0,
              "missing_confidence": 0, "method_errors": 0}
    confidences: list[float] = []
    correct: list[bool] = []
    for row in rows:
        if not row.answerable:
            counts["excluded_unanswerable"] += 1
        elif row.grade is Grade.ERROR:
            counts["excluded_errors"] += 1
        elif row.grade is Grade.UNGRADED:
            counts["excluded_ungraded"] += 1
        elif row.grade is Grade.NOT_ATTEMPTED:
            counts["excluded_not_attempted"] += 1
        else:
            counts["eligible"] += 1
            value = confidence_of(row, method)
            if value is None:
                counts["missing_confidence"] += 1
                errors = row.extra_field("confidence_errors") or {}
                counts["method_errors"] += int(method in errors)
                continue
            confidences.append(value)
            correct.append(row.grade is Grade.CORRECT)
    counts["used"] = len(confidences)
    counts["coverage"] = len(confidences) / counts["eligible"] if counts["eligible"] else None
    return CalibrationSet(np.asarray(confidences, dtype=float), np.asarray(correct, dtype=bool), counts)


def methods_in(rows: list[Result]) -> list[str]:
    """Every confidence name the rows carry, `verbal` first, the rest in first-seen order."""
    names = [VERBAL]
    for row in rows:
        for name in row.confidences:
            if name not in names:
                names.append(name)
    return names
