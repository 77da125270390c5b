"""Calibration metrics on raw stated confidences (docs/protocols.md §2), with numpy.

Inputs are confidences on the stated 0–100 scale and booleans "the answer was CORRECT". Nothing is
rescaled per run: a confidence c is read as the probability c / 100. Outputs are fractions (0–1).

Binning. Equal-width bins are right-closed, (lo, hi], with a confidence of exactly 0 in the first
bin (Guo et al. 2017; scikit-learn's `calibration_curve` assigns the same way): a stated 90 falls in
the 80–90 bin, a stated 100 in the 90–100 bin. The edges are computed on the 0–100 scale, where
they are exact, so a stated round number never lands on the wrong side through a rounding error.
Equal-mass bins (the option) take their edges from the confidences' quantiles, as scikit-learn's
`strategy="quantile"` does, with the same right-closed assignment; tied confidences cannot be
split, so with many ties some equal-mass bins stay empty.

Debiased ECE. The plug-in ECE is biased upward: even a perfectly calibrated model shows a gap in
every bin, because a bin's accuracy is a mean of a few 0/1 outcomes (E|noise| > 0), so its
bootstrap interval never contains 0. `ece_debiased` is the debiased estimator of Kumar, Liang &
Ma 2019 ("Verified Uncertainty Calibration", §5): it estimates the squared ℓ2 calibration error
Σ_m (|B_m|/N)·[(acc_m − conf_m)² − acc_m·(1 − acc_m)/(|B_m| − 1)], subtracting from each bin's
squared gap an unbiased estimate of the variance of its accuracy (bins with fewer than two rows
contribute 0, as in the authors' code); this is unbiased up to the small spread of confidences
inside a bin, and may be negative. It is reported as a signed square root (sign(x)·√|x|), on the
ECE's scale: a value near 0, or negative, means "no calibration error detectable at this sample
size". It is an ℓ2 error, so for a miscalibrated model it is at least as large as the ℓ1 ECE
would be without noise; it is a test of calibration beside ECE, not a replacement. Its interval
(`ece_debiased_ci`) is a basic (pivotal) bootstrap interval, which can contain 0.

Any value that cannot be computed (no rows, one class only for AUROC, no bin with a positive
confidence for the slope) is None, never 0.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

N_BINS = 10
BOOTSTRAP_RESAMPLES = 1000


@dataclass(frozen=True)
class Bins:
    """Per-bin counts, mean confidence (0–1) and accuracy; empty bins have n = 0 and NaN means."""

    edges: np.ndarray          # on the 0–100 scale, length M + 1
    n: np.ndarray
    confidence: np.ndarray
    accuracy: np.ndarray

    @property
    def filled(self) -> np.ndarray:
        return self.n > 0


def _arrays(confidence: Any, correct: Any) -> tuple[np.ndarray, np.ndarray]:
    conf = np.asarray(confidence, dtype=float)
    right = np.asarray(correct, dtype=bool)
    if conf.shape != right.shape or conf.ndim != 1:
        raise ValueError(f"confidence and correct must be 1-D and of equal length, got {conf.shape} "
                         f"and {right.shape}")
    if conf.size and (np.isnan(conf).any() or conf.min() < 0 or conf.max() > 100):
        raise ValueError("confidences must lie in 0–100 (missing ones are left out before, not as NaN)")
    return conf, right


def uniform_edges(n_bins: int = N_BINS) -> np.ndarray:
    """Equal-width edges on the 0–100 scale: 0, 10, …, 100 for ten bins."""
    return np.linspace(0.0, 100.0, n_bins + 1)


def equal_mass_edges(confidence: Any, n_bins: int = N_BINS) -> np.ndarray:
    """Edges at the confidences' quantiles (scikit-learn's `strategy="quantile"`)."""
    conf = np.asarray(confidence, dtype=float)
    return np.percentile(conf, np.linspace(0.0, 100.0, n_bins + 1))


def bin_index(confidence: Any, edges: np.ndarray) -> np.ndarray:
    """Right-closed bin of each confidence: bin m holds edges[m] < c <= edges[m+1]; 0 is in bin 0."""
    return np.searchsorted(edges[1:-1], np.asarray(confidence, dtype=float), side="left")


def reliability_bins(confidence: Any, correct: Any, edges: np.ndarray | None = None) -> Bins:
    """Counts, mean confidence and accuracy per bin (default: ten equal-width bins)."""
    conf, right = _arrays(confidence, correct)
    edges = uniform_edges() if edges is None else np.asarray(edges, dtype=float)
    m = len(edges) - 1
    ids = bin_index(conf, edges)
    n = np.bincount(ids, minlength=m)
    sums = np.bincount(ids, weights=conf / 100.0, minlength=m)
    hits = np.bincount(ids, weights=right.astype(float), minlength=m)
    with np.errstate(invalid="ignore", divide="ignore"):
        return Bins(edges, n, sums / n, hits / n)


def ece(bins: Bins) -> float | None:
    """Expected calibration error Σ_m (|B_m|/N)·|acc(B_m) − conf(B_m)|."""
    total = bins.n.sum()
    if not total:
        return None
    filled = bins.filled
    gaps = np.abs(bins.accuracy[filled] - bins.confidence[filled])
    return float(np.sum(bins.n[filled] / total * gaps))


def signed_root(value: Any) -> Any:
    """sign(x)·√|x|: a squared error back on the scale of the error, keeping a negative estimate."""
    return np.sign(value) * np.sqrt(np.abs(value))


def _squared_errors(n: np.ndarray, hits: np.ndarray, sums: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(debiased, plug-in) squared ℓ2 calibration error over the last axis from per-bin row counts,
    correct counts and confidence sums (0–1); bins with fewer than two rows add 0 to the debiased one."""
    total = n.sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        accuracy = np.where(n > 0, hits / n, 0.0)
        gaps = np.where(n > 0, (hits - sums) / n, 0.0)
        variance = np.where(n >= 2, accuracy * (1 - accuracy) / (n - 1), 0.0)
    debiased = np.sum(n * np.where(n >= 2, gaps ** 2 - variance, 0.0), axis=-1) / total
    return debiased, np.sum(n * gaps ** 2, axis=-1) / total


def _bin_sums(bins: Bins) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per-bin rows, correct answers and confidence sums (0–1) of `bins`."""
    n = bins.n.astype(float)
    return n, np.nan_to_num(bins.accuracy) * n, np.nan_to_num(bins.confidence) * n


def ece_debiased(bins: Bins) -> float | None:
    """Kumar et al.'s debiased ℓ2 calibration error, as a signed root (see the module docstring)."""
    if not bins.n.sum():
        return None
    debiased, _ = _squared_errors(*_bin_sums(bins))
    return float(signed_root(debiased))


def mce(bins: Bins) -> float | None:
    """Maximum calibration error: the largest |acc − conf| over non-empty bins."""
    filled = bins.filled
    if not filled.any():
        return None
    return float(np.max(np.abs(bins.accuracy[filled] - bins.confidence[filled])))


def weighted_slope(bins: Bins) -> float | None:
    """WorldVQA's weighted average slope Σ_m w_m·acc(B_m)/conf(B_m).

    Bins whose mean confidence is 0 have no slope and are skipped; the weights w_m = |B_m|/N' use
    N' = the rows in the bins kept, so they sum to 1 (with no zero-confidence rows N' = N).
    1.0 is ideal; below 1.0 the model is overconfident.
    """
    keep = bins.filled & (np.nan_to_num(bins.confidence) > 0)
    if not keep.any():
        return None
    weights = bins.n[keep] / bins.n[keep].sum()
    return float(np.sum(weights * bins.accuracy[keep] / bins.confidence[keep]))


def brier(confidence: Any, correct: Any) -> float | None:
    """Mean squared difference between c/100 and the 0/1 outcome."""
    conf, right = _arrays(confidence, correct)
    if not conf.size:
        return None
    return float(np.mean((conf / 100.0 - right) ** 2))


def overconfidence(confidence: Any, correct: Any) -> float | None:
    """Mean confidence minus accuracy (positive: overconfident)."""
    conf, right = _arrays(confidence, correct)
    if not conf.size:
        return None
    return float(np.mean(conf / 100.0) - np.mean(right))


def average_ranks(values: Any) -> np.ndarray:
    """Ranks 1 … n along the last axis, tied values sharing their average rank.

    The same numbers as scipy.stats.rankdata(method="average"), written with numpy because importing
    scipy.stats costs 1.2 s of CPU on every report (measured: factprobe.eval.analysis.stats). A tie
    group whose first sorted position has ordinal rank r and which holds c values gets the rank
    r + (c − 1) / 2.
    """
    x = np.asarray(values, dtype=float)
    if not x.size:
        return np.zeros(x.shape)
    order = np.argsort(x, axis=-1, kind="stable")
    ordered = np.take_along_axis(x, order, axis=-1)
    starts = np.ones(x.shape, dtype=bool)
    starts[..., 1:] = ordered[..., 1:] != ordered[..., :-1]
    first = np.flatnonzero(starts)                   # flat positions where a tie group starts
    sizes = np.diff(first, append=x.size)            # every row starts a group, so none spans two rows
    group_ranks = first % x.shape[-1] + 1 + (sizes - 1) / 2.0
    ranks = np.empty(x.shape, dtype=float)
    np.put_along_axis(ranks, order, np.repeat(group_ranks, sizes).reshape(x.shape), axis=-1)
    return ranks


def auroc(confidence: Any, correct: Any) -> float | None:
    """Area under the ROC curve of confidence as a detector of correct answers.

    The Mann–Whitney form: the probability that a correct answer has a higher confidence than an
    incorrect one, ties counting one half. None when only one class is present.
    """
    conf, right = _arrays(confidence, correct)
    positives = int(right.sum())
    negatives = conf.size - positives
    if not positives or not negatives:
        return None
    ranks = average_ranks(conf)
    u = ranks[right].sum() - positives * (positives + 1) / 2.0
    return float(u / (positives * negatives))


def risk_coverage(confidence: Any, correct: Any) -> tuple[np.ndarray, np.ndarray]:
    """The risk–coverage curve: answering the k most confident rows, k = 1 … N.

    Returns (coverage k/N, risk = error rate among those k). Rows with equal confidence cannot be
    ordered, so within a tie the risk is its expectation over every order of the tied rows (errors
    accrue at the tie's average rate); the curve then does not depend on the rows' file order.
    """
    conf, right = _arrays(confidence, correct)
    total = conf.size
    if not total:
        return np.zeros(0), np.zeros(0)
    values, inverse = np.unique(-conf, return_inverse=True)   # ascending −conf = descending conf
    sizes = np.bincount(inverse, minlength=len(values))
    errors = np.bincount(inverse, weights=(~right).astype(float), minlength=len(values))
    group = np.repeat(np.arange(len(values)), sizes)           # group of the k-th answered row
    before_n = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    before_err = np.concatenate(([0.0], np.cumsum(errors)[:-1]))
    k = np.arange(1, total + 1)
    expected_errors = before_err[group] + (k - before_n[group]) * errors[group] / sizes[group]
    return k / total, expected_errors / k


def aurc(confidence: Any, correct: Any) -> float | None:
    """Area under the risk–coverage curve: the mean risk over k = 1 … N (lower is better)."""
    _, risk = risk_coverage(confidence, correct)
    return float(risk.mean()) if risk.size else None


def accuracy_at_coverage(confidence: Any, correct: Any, coverage: float) -> float | None:
    """Accuracy on the ceil(coverage·N) most confident rows (ties in expectation)."""
    _, risk = risk_coverage(confidence, correct)
    if not risk.size:
        return None
    k = max(1, math.ceil(round(coverage * risk.size, 9)))
    return float(1.0 - risk[k - 1])
