"""SimpleQA metrics over graded rows (protocols §1).

CO, IN and NA are fractions of the graded rows (CORRECT + INCORRECT + NOT_ATTEMPTED). UNGRADED and
ERROR rows are counted apart and never folded into any grade. CGA = correct / attempted; the
F-score is the harmonic mean of CO and CGA, which equals 2·correct / (graded + attempted); it is 0
when nothing is correct, including when nothing was attempted (as SimpleQA's code computes it: an
"always refuse" collapse scores 0, it does not vanish). A fraction with an empty denominator (CO,
IN, NA and F without graded rows; CGA without attempted rows) is None.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from factprobe.eval.core.schema import Grade


def ratio(numerator: float, denominator: float) -> float | None:
    """numerator / denominator, or None when the denominator is 0."""
    return numerator / denominator if denominator else None


def f_score(co: float | None, cga: float | None) -> float | None:
    """Harmonic mean of CO and CGA; None without graded rows (CO None).

    CGA is None only when nothing was attempted, and then nothing is correct: F = 0, as when CO and
    CGA are both 0.
    """
    if co is None:
        return None
    if cga is None or co + cga == 0:
        return 0.0
    return 2 * co * cga / (co + cga)


def grade_metrics(grades: Iterable[Grade]) -> dict:
    """Counts and SimpleQA fractions for a list of grades."""
    return metrics_from_counts({Grade(g): n for g, n in Counter(grades).items()})   # Grade() once per grade


def metrics_from_counts(found: Mapping[Grade, int]) -> dict:
    """`grade_metrics` of the grades counted in `found` ({grade: count})."""
    counts = Counter(found)
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
