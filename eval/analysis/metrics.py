"""SimpleQA metrics over graded rows (docs/protocols.md §1).

CO, IN and NA are fractions of the graded rows (CORRECT + INCORRECT + NOT_ATTEMPTED). UNGRADED and
ERROR rows are counted apart and never folded into any grade. CGA = correct / attempted; the
F-score is the harmonic mean of CO and CGA, which equals 2·correct / (graded + attempted); it is 0
when nothing is correct, including when nothing was attempted (as SimpleQA's code computes it: an
"always refuse" collapse scores 0, it does not vanish). A fraction with an empty denominator (CO,
IN, NA and F without graded rows; CGA without attempted rows) is None.

While rows are UNGRADED, F is only known within a range: `f_score_range` recomputes it with every
UNGRADED row taken as INCORRECT (`low`) and as CORRECT (`high`), and `undecided_share` is the share
of UNGRADED rows among the rows a grader saw (graded + UNGRADED; ERROR rows are left out, as from
every score). Two sides whose undecided shares differ by more than UNDECIDED_GAP are flagged
(`undecided_gap`): part of their difference is the grader's.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from factprobe.eval.core.schema import Grade

UNDECIDED_GAP = 0.05     # undecided shares further apart than this flag a comparison (5 points)
GAP_TOLERANCE = 1e-12    # 0.20 − 0.15 is 0.05000000000000002 in floats: exactly 5 points is not flagged


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


def f_of_counts(correct: int, incorrect: int, not_attempted: int) -> float | None:
    """F of these counts (`f_score` of their CO and CGA); None without rows."""
    return f_score(ratio(correct, correct + incorrect + not_attempted), ratio(correct, correct + incorrect))


def f_score_range(correct: int, incorrect: int, not_attempted: int, ungraded: int) -> dict[str, float | None] | None:
    """{low, high}: F with every UNGRADED row taken as INCORRECT and as CORRECT; None without any row.

    Without UNGRADED rows both equal F (the same computation on the same counts)."""
    if not correct + incorrect + not_attempted + ungraded:
        return None
    return {"low": f_of_counts(correct, incorrect + ungraded, not_attempted),
            "high": f_of_counts(correct + ungraded, incorrect, not_attempted)}


def undecided_gap(share: float | None, baseline_share: float | None,
                  limit: float = UNDECIDED_GAP) -> dict[str, float | bool | None]:
    """`undecided_share_gap` (share − baseline's, None when either is unknown) and
    `grader_bias_warning`: whether the two differ by more than `limit` (5 points)."""
    gap = None if share is None or baseline_share is None else share - baseline_share
    return {"undecided_share_gap": gap,
            "grader_bias_warning": gap is not None and abs(gap) > limit + GAP_TOLERANCE}


def grade_metrics(grades: Iterable[Grade]) -> dict:
    """Counts and SimpleQA fractions for a list of grades."""
    return metrics_from_counts({Grade(g): n for g, n in Counter(grades).items()})   # Grade() once per grade


def metrics_from_counts(found: Mapping[Grade, int]) -> dict:
    """`grade_metrics` of the grades counted in `found` ({grade: count})."""
    counts = Counter(found)
    correct, incorrect = counts[Grade.CORRECT], counts[Grade.INCORRECT]
    not_attempted = counts[Grade.NOT_ATTEMPTED]
    ungraded = counts[Grade.UNGRADED]
    graded = correct + incorrect + not_attempted
    co = ratio(correct, graded)
    cga = ratio(correct, correct + incorrect)
    return {
        "n": sum(counts.values()), "graded": graded, "correct": correct, "incorrect": incorrect,
        "not_attempted": not_attempted, "ungraded": ungraded,
        "errors": counts[Grade.ERROR], "accuracy": co,
        "incorrect_rate": ratio(incorrect, graded), "not_attempted_rate": ratio(not_attempted, graded),
        "cga": cga, "f_score": f_score(co, cga),
        "f_score_range": f_score_range(correct, incorrect, not_attempted, ungraded),
        "undecided_share": ratio(ungraded, graded + ungraded),
    }


def mean(values: Sequence[float]) -> float | None:
    """Arithmetic mean, None for no values."""
    return float(np.mean(values)) if len(values) else None


def percentile(values: Sequence[float], q: float) -> float | None:
    """The q-th percentile (linear interpolation, numpy's default), None for no values."""
    return float(np.percentile(values, q)) if len(values) else None
