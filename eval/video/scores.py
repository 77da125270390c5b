"""`videosimpleqa_f_score` in every `summary['strategies'][name]`: F as Video SimpleQA computes it.

The benchmark's metrics code reports percentages rounded to one decimal and computes F from the
exact CO and the CGA *already rounded* to one decimal, then rounds F: F = round(100 · 2·CO·c /
(CO + c), 1) with c = round(100 · CGA, 1) / 100. CO, IN, NA and CGA rounded to one decimal equal
the benchmark's (same fractions of the graded rows); only F can differ, by up to 0.1 point, so only
F gets its own key. Stored as a fraction like `f_score` (the benchmark's percentage / 100); None
without graded rows, 0 when nothing is correct.
"""

from __future__ import annotations

from typing import Any

from factprobe.eval.analysis.columns import answerable_scores
from factprobe.eval.analysis.summary import strategy_metric
from factprobe.eval.core.schema import Result


def benchmark_f_score(co: float | None, cga: float | None) -> float | None:
    """F from CO and the CGA rounded to one decimal percent, itself rounded to one decimal percent."""
    if co is None:
        return None
    rounded_cga = round(100 * (cga or 0.0), 1) / 100
    if co + rounded_cga == 0:
        return 0.0
    return round(100 * 2 * co * rounded_cga / (co + rounded_cga), 1) / 100


@strategy_metric(order=60)
def videosimpleqa_f_score(rows: list[Result]) -> dict[str, Any]:
    scores = answerable_scores(rows)
    return {"videosimpleqa_f_score": benchmark_f_score(scores["accuracy"], scores["cga"])}
