"""SimpleQA metrics over graded rows (protocols §1).

CO, IN and NA are fractions of the graded rows (CORRECT + INCORRECT + NOT_ATTEMPTED). UNGRADED and
ERROR rows are counted apart and never folded into any grade. CGA = correct / attempted; the
F-score is the harmonic mean of CO and CGA. A fraction with an empty denominator is None.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

import numpy as np

from factprobe.eval.schema import Grade


def ratio(numerator: float, denominator: float) -> float | None:
    """numerator / denominator, or None when the denominator is 0."""
    return numerator / denominator if denominator else None


def f_score(co: float | None, cga: float | None) -> float | None:
    """Harmonic mean of CO and CGA; 0 when both are 0, None when either is undefined."""
    if co is None or cga is None:
        return None
    return 2 * co * cga / (co + cga) if co + cga else 0.0


def grade_metrics(grades: Iterable[Grade]) -> dict:
    """Counts and SimpleQA fractions for a list of grades."""
    counts = Counter(Grade(g) for g in grades)
    correct, incorrect = counts[Grade.CORRECT], counts[Grade.INCORRECT]
    not_attempted = counts[Grade.NOT_ATTEMPTED]
    graded = correct + incorrect + not_attempted
    co = ratio(correct, graded)
    cga = ratio(correct, correct + incorrect)
    return {
        "n": sum(counts.values()), "graded": graded, "correct": correct, "incorrect": incorrect,
        "not_attempted": not_attempted, "ungraded": counts[Grade.UNGRADED],
        "errors": counts[Grade.ERROR], "accuracy": co,
        "incorrect_rate": ratio(incorrect, graded), "not_attempted_rate": ratio(not_attempted, graded),
        "cga": cga, "f_score": f_score(co, cga),
    }


def mean(values: Sequence[float]) -> float | None:
    """Arithmetic mean, None for no values."""
    return float(np.mean(values)) if len(values) else None


def percentile(values: Sequence[float], q: float) -> float | None:
    """The q-th percentile (linear interpolation, numpy's default), None for no values."""
    return float(np.percentile(values, q)) if len(values) else None
