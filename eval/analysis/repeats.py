"""summary['repeats']: accuracy and F-score per repeat, and their mean ± std across repeats.

Each repeat's scores are the SimpleQA metrics of that repeat's answerable rows; std is the sample
standard deviation (ddof = 1) over the repeats whose score is defined, None with fewer than two.
`per_category` gives the same per category (MMWorld's Table 5: each discipline's accuracy as mean ±
std over the runs): `accuracy_mean`, `accuracy_std` and `per_repeat`, plus `f_score_mean` and
`f_score_std` where the category's rows are free-text answers (a multiple-choice row carries its
`multiple_choice` entry; there a wrong answer and a refusal are both not the gold option, and
accuracy is the paper's figure).
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


def across_repeats(rows: list[Result], f_score: bool = True) -> dict[str, Any]:
    """n_repeats, accuracy mean ± std (and F's, when `f_score`) and per_repeat of answerable `rows`."""
    by_repeat: dict[int, list[Result]] = defaultdict(list)
    for row in rows:
        by_repeat[row.repeat].append(row)
    keys = ("accuracy", "f_score") if f_score else ("accuracy",)
    per_repeat = []
    for repeat in sorted(by_repeat):
        scores = grade_metrics(row.grade for row in by_repeat[repeat])
        per_repeat.append({"repeat": repeat, "n": scores["n"], **{key: scores[key] for key in keys}})
    out: dict[str, Any] = {"n_repeats": len(per_repeat)}
    for key in keys:
        out[f"{key}_mean"], out[f"{key}_std"] = spread([r[key] for r in per_repeat])
    out["per_repeat"] = per_repeat
    return out


def free_text(rows: list[Result]) -> bool:
    """Whether any of the rows answered in free text (no `multiple_choice` entry)."""
    return any(row.extra_field("multiple_choice") is None for row in rows)


@summary_section("repeats", order=60)
def repeats(data: SummaryInput) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for name, rows in data.by_strategy.items():
        kept = answerable(rows)
        entry = across_repeats(kept)
        by_category: dict[str, list[Result]] = defaultdict(list)
        for row in kept:
            by_category[row.category].append(row)
        entry["per_category"] = {category: across_repeats(group, free_text(group))
                                 for category, group in sorted(by_category.items())}
        out[name] = entry
    return out
