"""summary['repeats']: accuracy and F-score per repeat, and their mean ± std across repeats.

Each repeat's scores are the SimpleQA metrics of that repeat's answerable rows; std is the sample
standard deviation (ddof = 1) over the repeats whose score is defined, None with fewer than two.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import numpy as np

from factprobe.eval.analysis.metrics import grade_metrics, mean
from factprobe.eval.analysis.summary import SummaryInput, answerable, summary_section
from factprobe.eval.core.schema import Result


def spread(values: list[float | None]) -> tuple[float | None, float | None]:
    defined = [v for v in values if v is not None]
    std = float(np.std(defined, ddof=1)) if len(defined) >= 2 else None
    return mean(defined), std


@summary_section("repeats", order=60)
def repeats(data: SummaryInput) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for name, rows in data.by_strategy.items():
        by_repeat: dict[int, list[Result]] = defaultdict(list)
        for row in answerable(rows):
            by_repeat[row.repeat].append(row)
        per_repeat = []
        for repeat in sorted(by_repeat):
            scores = grade_metrics(row.grade for row in by_repeat[repeat])
            per_repeat.append({"repeat": repeat, "n": scores["n"], "accuracy": scores["accuracy"],
                               "f_score": scores["f_score"]})
        accuracy_mean, accuracy_std = spread([r["accuracy"] for r in per_repeat])
        f_mean, f_std = spread([r["f_score"] for r in per_repeat])
        out[name] = {"n_repeats": len(per_repeat), "accuracy_mean": accuracy_mean,
                     "accuracy_std": accuracy_std, "f_score_mean": f_mean, "f_score_std": f_std,
                     "per_repeat": per_repeat}
    return out
