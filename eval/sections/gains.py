"""summary['gains']: every strategy against the baseline, paired over the same (question, repeat).

Scores: the pairs where both rows are answerable and graded (CORRECT, INCORRECT or NOT_ATTEMPTED;
UNGRADED and ERROR pairs are left out and counted in `excluded_pairs`). On them: both F-scores and
accuracies, their deltas (strategy − baseline), a paired bootstrap 95% CI of each delta
(eval.stats.paired_bootstrap_ci, 2,000 resamples of the pairs, seeded with the run's seed), and
an exact McNemar p-value on correct vs not correct (eval.stats.mcnemar_exact).
Costs: over the pairs where neither row failed (answerable or not), mean latency and mean tokens
(prompt + completion) of the strategy divided by the baseline's; None when the baseline's is 0.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from factprobe.eval.metrics import grade_metrics, mean
from factprobe.eval.schema import Grade, Result
from factprobe.eval.stats import DEFAULT_RESAMPLES, accuracy_delta, f_delta, mcnemar_exact, paired_bootstrap_ci
from factprobe.eval.summary import SummaryInput, is_graded, summary_section

CODES = {Grade.CORRECT: 1, Grade.INCORRECT: 0, Grade.NOT_ATTEMPTED: -1}


def cost_ratio(values: list[float], baseline: list[float]) -> float | None:
    top, bottom = mean(values), mean(baseline)
    if top is None or not bottom:
        return None
    return top / bottom


def compare(rows: list[Result], baseline: dict[tuple[str, int], Result], seed: int,
            n_resamples: int = DEFAULT_RESAMPLES) -> dict[str, Any]:
    """The gains entry of one strategy's rows against the baseline rows by (question, repeat)."""
    pairs = [(row, baseline[(row.question_id, row.repeat)]) for row in rows
             if (row.question_id, row.repeat) in baseline]
    answerable = [(a, b) for a, b in pairs if a.answerable and b.answerable]
    scored = [(a, b) for a, b in answerable if is_graded(a) and is_graded(b)]
    ours = grade_metrics(a.grade for a, _ in scored)
    theirs = grade_metrics(b.grade for _, b in scored)
    a_codes = np.array([CODES[a.grade] for a, _ in scored], dtype=int)
    b_codes = np.array([CODES[b.grade] for _, b in scored], dtype=int)

    def delta(key: str) -> float | None:
        if ours[key] is None or theirs[key] is None:
            return None
        return ours[key] - theirs[key]

    f_ci = paired_bootstrap_ci(a_codes, b_codes, f_delta, n_resamples, seed=seed)
    acc_ci = paired_bootstrap_ci(a_codes, b_codes, accuracy_delta, n_resamples, seed=seed)
    test = mcnemar_exact(a_codes == 1, b_codes == 1) if scored else None
    finished = [(a, b) for a, b in pairs if a.error is None and b.error is None]
    return {
        "n_pairs": len(scored), "excluded_pairs": len(answerable) - len(scored),
        "f_score": ours["f_score"], "baseline_f_score": theirs["f_score"],
        "f_score_delta": delta("f_score"),
        "ci_low": f_ci.low if delta("f_score") is not None else None,
        "ci_high": f_ci.high if delta("f_score") is not None else None,
        "bootstrap_undefined": f_ci.undefined,
        "accuracy": ours["accuracy"], "baseline_accuracy": theirs["accuracy"],
        "accuracy_delta": delta("accuracy"), "accuracy_ci_low": acc_ci.low, "accuracy_ci_high": acc_ci.high,
        "p_value": test.p_value if test else None,
        "better": test.better if test else 0, "worse": test.worse if test else 0,
        "latency_ratio": cost_ratio([a.latency_s for a, _ in finished], [b.latency_s for _, b in finished]),
        "tokens_ratio": cost_ratio([a.prompt_tokens + a.completion_tokens for a, _ in finished],
                                   [b.prompt_tokens + b.completion_tokens for _, b in finished]),
        "n_resamples": n_resamples, "seed": seed,
    }


@summary_section("gains")
def gains(data: SummaryInput) -> dict[str, dict[str, Any]]:
    """{strategy: gains entry} for every strategy but the baseline."""
    name_of_baseline = data.baseline
    if name_of_baseline is None:
        return {}
    grouped = data.by_strategy
    baseline = {(row.question_id, row.repeat): row for row in grouped[name_of_baseline]}
    seed = int(data.manifest.get("config", {}).get("seed", 0))
    return {name: compare(rows, baseline, seed) for name, rows in grouped.items()
            if name != name_of_baseline}
