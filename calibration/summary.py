"""Calibration in summary.json: contract keys per strategy, per-method detail, reliability bins.

- `strategies[name]`: `confidence_coverage, ece, mce, brier, slope, auroc` from the `verbal`
  method (the contract keys) and `ece_debiased` (Kumar et al.'s debiased calibration error beside
  the plug-in `ece`; see calibration.metrics), plus the measurement's cost: `confidence_calls_mean`,
  `confidence_latency_s_mean`, `confidence_tokens_mean`, and `confidence_cost_ratio` /
  `confidence_tokens_ratio` (its compute time / tokens over the strategy's own).
- `calibration[name][method]`: every metric of `calibration.metrics.calibration_metrics`, the
  bootstrap CIs (`ece_ci` percentile, `ece_debiased_ci` basic, `auroc_ci` percentile), and the
  row counts of `calibration.rows.calibration_set`.
  `overconfidence_ci` (percentile) too, and `high_confidence` (`high_confidence` below).
- `reliability[name]`: ten equal-width right-closed bins of the verbal confidence.
- `calibration_gains[name][method]`: ΔECE and Δover of every strategy but the baseline against the
  baseline, paired and with clustered CIs (factprobe.calibration.paired), for each method both carry.
- every pair of `factprobe compare`: the same for the verbal confidence, as flat keys (`ece_delta`,
  `ece_delta_ci_low`, `ece_delta_ci_high`, `over_delta`, …; `calibration_pair_metric`).
The bootstrap is seeded with the run's seed from the manifest (0 without one).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from factprobe.calibration.intervals import calibration_metrics, reliability_table
from factprobe.calibration.paired import paired_calibration
from factprobe.calibration.rows import VERBAL, calibration_set, methods_in, stated_confidences
from factprobe.eval.analysis.columns import CORRECT, INCORRECT, NOT_ATTEMPTED
from factprobe.eval.analysis.metrics import mean
from factprobe.eval.analysis.pair_metrics import pair_metric
from factprobe.eval.analysis.summary import SummaryInput, strategy_metric, summary_section
from factprobe.eval.core.schema import Result

CONTRACT_KEYS = ("ece", "mce", "brier", "slope", "auroc")
HIGH_CONFIDENCE = 95.0   # on the stated 0–100 scale: "answers at ≥ 95% confidence"


@strategy_metric(order=40)
def verbal_calibration(rows: list[Result]) -> dict[str, Any]:
    """The contract's calibration keys, from the stated confidence."""
    data = calibration_set(rows, VERBAL)
    metrics = calibration_metrics(data.confidence, data.correct, with_ci=False)
    return {"confidence_coverage": data.counts["coverage"], **{key: metrics[key] for key in CONTRACT_KEYS},
            "ece_debiased": metrics["ece_debiased"]}


@strategy_metric(order=50)
def confidence_cost(rows: list[Result]) -> dict[str, Any]:
    """What the confidence measurement cost, apart from the strategy's own cost; the ratios are
    measurement over strategy (mean over mean), in compute time and in tokens."""
    measured = [row for row in rows if row.error is None and row.extra_field("confidence_calls") is not None]
    keys = ("confidence_calls_mean", "confidence_latency_s_mean", "confidence_cost_ratio",
            "confidence_tokens_mean", "confidence_tokens_ratio")
    if not measured:
        return dict.fromkeys(keys)
    latency = mean([row.extra_field("confidence_latency_s") for row in measured])
    own_latency = mean([row.latency_s for row in measured])
    tokens = mean([row.extra_field("confidence_prompt_tokens") + row.extra_field("confidence_completion_tokens")
                   for row in measured])
    own_tokens = mean([row.prompt_tokens + row.completion_tokens for row in measured])
    return dict(zip(keys, (mean([row.extra_field("confidence_calls") for row in measured]), latency,
                           latency / own_latency if latency is not None and own_latency else None, tokens,
                           tokens / own_tokens if tokens is not None and own_tokens else None)))


def high_confidence(rows: list[Result], method: str) -> dict[str, Any]:
    """The answers stated at ≥ HIGH_CONFIDENCE: their share of the full set (every row with a value,
    whatever its grade), and their accuracy as the reliability bins count it (CORRECT among the
    answerable ones graded CORRECT or INCORRECT; `not_attempted` and `ungraded` are counted apart)."""
    stated = stated_confidences(rows, method)
    high = stated.confidence >= HIGH_CONFIDENCE
    grades = stated.grade[high & stated.answerable]
    decided = int(np.sum((grades == CORRECT) | (grades == INCORRECT)))
    n, total = int(high.sum()), int(stated.confidence.size)
    return {"threshold": HIGH_CONFIDENCE / 100.0, "rows_with_confidence": total, "n": n,
            "share": n / total if total else None, "graded": decided,
            "accuracy": float(np.sum(grades == CORRECT)) / decided if decided else None,
            "not_attempted": int(np.sum(grades == NOT_ATTEMPTED)), "ungraded": int(np.sum(stated.ungraded & high))}


def _seed(data: SummaryInput) -> int:
    return int((data.manifest.get("config") or {}).get("seed") or 0)


@summary_section("calibration", order=130)
def calibration(data: SummaryInput) -> dict[str, dict[str, dict[str, Any]]]:
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for name, rows in data.by_strategy.items():
        out[name] = {}
        for method in methods_in(rows):
            subset = calibration_set(rows, method)
            metrics = calibration_metrics(subset.confidence, subset.correct, seed=_seed(data))
            for key in ("ece_ci", "ece_debiased_ci", "auroc_ci", "overconfidence_ci"):
                metrics[key] = None if metrics[key] is None else list(metrics[key])
            out[name][method] = {**metrics, "counts": subset.counts,
                                 "high_confidence": high_confidence(rows, method)}
    return out


@summary_section("calibration_gains", order=135)
def calibration_gains(data: SummaryInput) -> dict[str, dict[str, dict[str, Any]]]:
    """{strategy: {method: ΔECE and Δover against the baseline}} for every strategy but the baseline."""
    baseline = data.baseline
    if baseline is None:
        return {}
    grouped = data.by_strategy
    base_methods = methods_in(grouped[baseline])
    return {name: {method: paired_calibration(rows, grouped[baseline], method, _seed(data))
                   for method in methods_in(rows) if method in base_methods}
            for name, rows in grouped.items() if name != baseline}


@summary_section("reliability", order=140)
def reliability(data: SummaryInput) -> dict[str, list[dict[str, Any]]]:
    out = {}
    for name, rows in data.by_strategy.items():
        subset = calibration_set(rows, VERBAL)
        out[name] = reliability_table(subset.confidence, subset.correct)
    return out


COMPARE_KEYS = ("ece", "baseline_ece", "ece_delta", "ece_delta_ci_low", "ece_delta_ci_high", "over", "baseline_over",
                "over_delta", "over_delta_ci_low", "over_delta_ci_high")


@pair_metric(order=10)
def calibration_pair_metric(rows: list[Result], baseline: list[Result], seed: int, n_resamples: int) -> dict[str, Any]:
    """ΔECE and Δover of the verbal confidence for a `compare` pair, with the rows each side used."""
    entry = paired_calibration(rows, baseline, VERBAL, seed, n_resamples)
    return {**{key: entry[key] for key in COMPARE_KEYS}, "calibration_rows": entry["rows"],
            "baseline_calibration_rows": entry["baseline_rows"]}
