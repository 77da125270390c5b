"""Paired calibration differences: ΔECE and Δover of one strategy's (or run's) rows against a baseline's.

Pairing is that of the gains (factprobe.eval.analysis.gains): the (question, repeat) pairs both
sides answered. Within them each side is measured on its own calibration set
(factprobe.calibration.rows: answerable rows graded CORRECT or INCORRECT with a value for the
method), so each side's ECE and over are the ones its calibration table reports whenever both sides
answered the same pairs; a side that declines more is measured on fewer rows (`rows`,
`baseline_rows`).

- ECE: ten equal-width right-closed bins (factprobe.calibration.metrics), Σ_m |hits_m − Σ_{B_m} c| / N;
- over: mean confidence − accuracy, Σ (c − correct) / N (positive: overconfident);
- Δ = side − baseline, so a negative ΔECE is better calibrated and a negative Δover less overconfident.

Interval: the percentile cluster bootstrap of the gains (factprobe.eval.analysis.stats), resampling
the questions that have a pair with all their repeats on both sides (a drawn question brings its
rows of both sides, so the pairing is kept); 2,000 resamples seeded with the run's seed. Both
statistics are functions of per-question totals (per bin: correct answers − confidence sum; rows),
which is what that bootstrap resamples; one set of resamples gives both intervals. A resample in
which one side has no row has no Δ and is left out of the percentiles. With fewer than two
questions the intervals are null; a Δ that cannot be computed (a side without rows) is null, never 0.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from factprobe.calibration.metrics import N_BINS, bin_index, uniform_edges
from factprobe.calibration.rows import calibration_set
from factprobe.eval.analysis.columns import columns_of
from factprobe.eval.analysis.stats import CI_METHOD, DEFAULT_RESAMPLES, cluster_bootstrap_ci, patterns
from factprobe.eval.core.schema import Result

# A side's columns per question: per bin the correct answers minus the sum of c/100 (hits − Σc), then its rows.
# ECE = Σ_m |hits_m − Σ_{B_m} c| / N and over = (Σ c − hits) / N = −Σ_m (hits_m − Σ_{B_m} c) / N need no more.
GAPS, ROWS = slice(0, N_BINS), N_BINS
SIDE = N_BINS + 1                  # the baseline's columns start here
STATISTICS = ("ece_delta", "over_delta")


def _ece(totals: np.ndarray, offset: int) -> np.ndarray:
    side = totals[..., offset:offset + SIDE]
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.abs(side[..., GAPS]).sum(axis=-1) / side[..., ROWS]


def _over(totals: np.ndarray, offset: int) -> np.ndarray:
    side = totals[..., offset:offset + SIDE]
    with np.errstate(divide="ignore", invalid="ignore"):
        return -side[..., GAPS].sum(axis=-1) / side[..., ROWS]


def ece_delta(totals: np.ndarray) -> np.ndarray:
    """ECE(side) − ECE(baseline) from per-question totals (..., 2·(bins + 1)); NaN when a side has no row."""
    return _ece(totals, 0) - _ece(totals, SIDE)


def over_delta(totals: np.ndarray) -> np.ndarray:
    """over(side) − over(baseline) from per-question totals; NaN when a side has no row."""
    return _over(totals, 0) - _over(totals, SIDE)


def both_deltas(totals: np.ndarray) -> np.ndarray:
    """(ΔECE, Δover) stacked on a leading axis, so one bootstrap draws both."""
    return np.stack([ece_delta(totals), over_delta(totals)])


def _question_bins(cluster: np.ndarray, confidence: np.ndarray, correct: np.ndarray, out: np.ndarray) -> None:
    """Fill `out` (questions, bins + 1): per question and bin hits − Σ c/100, then the question's rows."""
    questions = out.shape[0]
    cell = cluster * N_BINS + bin_index(confidence, uniform_edges())
    gaps = np.bincount(cell, weights=correct - confidence / 100.0, minlength=questions * N_BINS)
    out[:, :N_BINS] = gaps.reshape(questions, N_BINS)
    out[:, N_BINS] = np.bincount(cluster, minlength=questions)


def question_totals(rows: list[Result], baseline: list[Result], method: str) -> tuple[list[str], np.ndarray]:
    """The questions with a (question, repeat) pair on both sides, sorted, and their per-question
    totals, shape (questions, 2·(bins + 1)): the side's columns, then the baseline's."""
    ours, theirs = columns_of(rows), columns_of(baseline)
    # which rows of each side have their (question, repeat) on the other: marks by row position, not
    # a set of pairs (a strategy's rows hold each pair once), so a million rows make no tuple each
    position = theirs.positions
    found = np.fromiter((position.get(pair, -1) for pair in zip(ours.question_id, ours.repeat)), dtype=np.int64,
                        count=len(ours.question_id))
    shared = {"ours": found >= 0, "theirs": np.zeros(len(theirs.question_id), dtype=bool)}
    shared["theirs"][found[shared["ours"]]] = True
    questions = sorted({ours.question_id[p] for p in np.flatnonzero(shared["ours"]).tolist()})
    index = {qid: i for i, qid in enumerate(questions)}
    totals = np.empty((len(questions), 2 * (N_BINS + 1)))    # filled in place: no copy of a side's block
    for number, (side, columns, marks) in enumerate(((rows, ours, shared["ours"]),
                                                     (baseline, theirs, shared["theirs"]))):
        data = calibration_set(side, method)
        keep = marks[data.positions]
        ids = columns.question_id
        cluster = np.fromiter((index[ids[p]] for p in data.positions[keep].tolist()), dtype=np.int64,
                              count=int(keep.sum()))
        _question_bins(cluster, data.confidence[keep], data.correct[keep],
                       totals[:, number * (N_BINS + 1):(number + 1) * (N_BINS + 1)])
    return questions, totals


def _value(x: np.ndarray) -> float | None:
    return None if np.isnan(x) else float(x)


def _bootstrap_ci(counts: np.ndarray, seed: int, n_resamples: int) -> list[tuple[float | None, float | None]]:
    """The clustered percentile CIs of ΔECE and Δover. With many distinct per-question rows (continuous
    confidences) the resamples draw question positions (a one-data-set stack, which
    `bootstrap_statistics` resamples that way) rather than counts of distinct rows: the same
    distribution, at a cost that grows with the questions instead of the distinct rows."""
    rows, _ = patterns(counts)
    data = counts[None] if 4 * rows.shape[0] > counts.shape[0] else counts
    low, high = cluster_bootstrap_ci(data, both_deltas, n_resamples, seed=seed)
    return [(_value(a), _value(b)) for a, b in zip(np.ravel(low), np.ravel(high))]


def paired_calibration(rows: list[Result], baseline: list[Result], method: str, seed: int,
                       n_resamples: int = DEFAULT_RESAMPLES) -> dict[str, Any]:
    """ECE and over of both sides, their Δ and the Δs' clustered 95% CIs (keys in the module docstring)."""
    questions, counts = question_totals(rows, baseline, method)
    totals = counts.sum(axis=0)
    out: dict[str, Any] = {
        "method": method, "n_questions": len(questions),
        "rows": int(totals[ROWS]), "baseline_rows": int(totals[SIDE + ROWS]),
        "ece": _value(_ece(totals, 0)), "baseline_ece": _value(_ece(totals, SIDE)),
        "ece_delta": _value(ece_delta(totals)),
        "over": _value(_over(totals, 0)), "baseline_over": _value(_over(totals, SIDE)),
        "over_delta": _value(over_delta(totals)),
    }
    defined = len(questions) >= 2 and out["ece_delta"] is not None
    intervals = _bootstrap_ci(counts, seed, n_resamples) if defined else [(None, None)] * len(STATISTICS)
    for key, (low, high) in zip(STATISTICS, intervals):
        out[f"{key}_ci_low"], out[f"{key}_ci_high"] = low, high
    out.update({"ci_method": CI_METHOD, "n_resamples": n_resamples, "seed": seed})
    return out
