"""Bootstrap intervals of calibration metrics (ECE, debiased ECE, AUROC, over), computed a batch of
resamples at a time, and `calibration_metrics`, which gathers every metric of one set of rows.

Conventions (bins, the debiased estimator, None for what cannot be computed) are those of
factprobe.calibration.metrics.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from factprobe.calibration.metrics import (
    BOOTSTRAP_RESAMPLES,
    N_BINS,
    _arrays,
    _squared_errors,
    accuracy_at_coverage,
    aurc,
    auroc,
    average_ranks,
    bin_index,
    brier,
    ece,
    ece_debiased,
    equal_mass_edges,
    mce,
    overconfidence,
    reliability_bins,
    signed_root,
    uniform_edges,
    weighted_slope,
)


def _batched_bins(confidence: np.ndarray, correct: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per-bin (rows, correct, confidence sum 0–1) over ten equal-width bins, each (resamples, 10)."""
    resamples = confidence.shape[0]
    edges = uniform_edges()
    m = len(edges) - 1
    flat = (bin_index(confidence, edges) + m * np.arange(resamples)[:, None]).ravel()

    def per_bin(weights: np.ndarray | None) -> np.ndarray:
        return np.bincount(flat, weights=weights, minlength=resamples * m).reshape(resamples, m).astype(float)

    return per_bin(None), per_bin(correct.astype(float).ravel()), per_bin((confidence / 100.0).ravel())


def batched_ece(confidence: np.ndarray, correct: np.ndarray) -> np.ndarray:
    """ECE over ten equal-width bins for each row of 2-D arrays (one resample per row).

    Uses Σ_m (|B_m|/N)·|acc_m − conf_m| = Σ_m |hits_m − Σ_{B_m} c/100| / N, so empty bins need no
    special case.
    """
    _, hits, sums = _batched_bins(confidence, correct)
    return np.abs(hits - sums).sum(axis=1) / confidence.shape[1]


def batched_ece_debiased_squared(confidence: np.ndarray, correct: np.ndarray) -> np.ndarray:
    """The debiased squared ℓ2 calibration error (before the signed root) for each row of 2-D arrays."""
    return _squared_errors(*_batched_bins(confidence, correct))[0]


def batched_auroc(confidence: np.ndarray, correct: np.ndarray) -> np.ndarray:
    """AUROC (Mann–Whitney, ties one half) for each row of 2-D arrays; NaN where a row has one class."""
    ranks = average_ranks(confidence)
    positives = correct.sum(axis=1).astype(float)
    pairs = positives * (confidence.shape[1] - positives)
    u = (ranks * correct).sum(axis=1) - positives * (positives + 1) / 2.0
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(pairs > 0, u / pairs, np.nan)


def batched_auroc_of_codes(codes: np.ndarray, correct: np.ndarray, n_codes: int) -> np.ndarray:
    """`batched_auroc` of rows whose confidences are replaced by their dense order codes 0 … n_codes − 1.

    AUROC depends only on the order of the confidences, so the codes give the same value; with
    them each row's Mann–Whitney U is counted per code (a bincount, no sort): every correct
    answer scores the incorrect ones below its code plus half those on it. U is a sum of halves,
    exact in floating point, so the result is the same number as from the ranks.
    """
    rows = codes.shape[0]
    keys = (codes.astype(np.int64) + n_codes * np.arange(rows)[:, None]).ravel()
    right = correct.ravel().astype(float)
    per_code = (rows, n_codes)
    positives = np.bincount(keys, weights=right, minlength=rows * n_codes).reshape(per_code)
    negatives = np.bincount(keys, weights=1.0 - right, minlength=rows * n_codes).reshape(per_code)
    below = np.cumsum(negatives, axis=1) - negatives
    u = np.sum(positives * (below + negatives / 2.0), axis=1)
    pairs = positives.sum(axis=1) * negatives.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(pairs > 0, u / pairs, np.nan)


BatchedStatistic = Callable[[np.ndarray, np.ndarray], np.ndarray]


def bootstrap_ci(statistic: BatchedStatistic, confidence: Any, correct: Any, seed: int = 0,
                 resamples: int = BOOTSTRAP_RESAMPLES, level: float = 0.95,
                 chunk: int = 100) -> tuple[float, float] | None:
    """Percentile bootstrap CI of a statistic over rows resampled with replacement.

    `statistic` takes 2-D arrays (one resample per row) and returns one value per resample, NaN
    where it is undefined. Written out rather than with scipy.stats.bootstrap because such
    resamples (AUROC with one class) must be dropped, not turn the interval into NaN. None with
    fewer than two rows or no defined resample.
    """
    conf, right = _arrays(confidence, correct)
    if conf.size < 2:
        return None
    return _percentiles(_resampled(statistic, conf, right, seed, resamples, chunk), level)


def _resampled(statistic: BatchedStatistic, values: np.ndarray, correct: np.ndarray, seed: int,
               resamples: int, chunk: int = 100) -> np.ndarray:
    """The statistic over `resamples` row resamples of (values, correct), drawn `chunk` at a time."""
    rng = np.random.default_rng(seed)
    results = []
    for start in range(0, resamples, chunk):
        index = rng.integers(0, values.size, size=(min(chunk, resamples - start), values.size))
        results.append(statistic(values[index], correct[index]))
    return np.concatenate(results)


def _percentiles(values: np.ndarray, level: float) -> tuple[float, float] | None:
    """The percentile interval of the defined (non-NaN) values; None when there are none."""
    defined = values[~np.isnan(values)]
    if not defined.size:
        return None
    tail = (1.0 - level) / 2.0 * 100.0
    low, high = np.percentile(defined, [tail, 100.0 - tail])
    return float(low), float(high)


@dataclass(frozen=True)
class Cells:
    """The distinct (confidence, correct) pairs of a set and how many rows have each.

    Every statistic bootstrapped here depends on the rows only through these counts, so a resample
    (rows drawn uniformly with replacement) is drawn as the number of times each cell is drawn,
    Multinomial(rows, share of each cell): the same distribution, at a cost that grows with the
    number of distinct confidences rather than with the rows.
    """

    confidence: np.ndarray     # 0–100, one per cell
    correct: np.ndarray
    rows: np.ndarray           # rows per cell
    code: np.ndarray           # dense order code of the cell's confidence, 0 … codes − 1
    codes: int

    @classmethod
    def of(cls, confidence: np.ndarray, correct: np.ndarray) -> Cells:
        levels, code = np.unique(confidence, return_inverse=True)
        keys, rows = np.unique(2 * code.reshape(confidence.shape) + correct, return_counts=True)
        return cls(levels[keys // 2], (keys % 2).astype(bool), rows, keys // 2, levels.size)

    def weights(self, seed: int, resamples: int, chunk: int) -> list[np.ndarray]:
        """Per-cell draw counts of each resample, (resamples, cells), in blocks of `chunk` resamples."""
        rng = np.random.default_rng(seed)
        shares = self.rows / self.rows.sum()
        return [rng.multinomial(int(self.rows.sum()), shares, size=min(chunk, resamples - start)).astype(float)
                for start in range(0, resamples, chunk)]

    def bin_sums(self, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per-bin (rows, correct, confidence sum 0–1) of each resample, like `_batched_bins`."""
        onehot = np.eye(N_BINS)[bin_index(self.confidence, uniform_edges())]
        return (weights @ onehot, (weights * self.correct) @ onehot,
                (weights * (self.confidence / 100.0)) @ onehot)

    def auroc(self, weights: np.ndarray) -> np.ndarray:
        """`batched_auroc_of_codes` of each resample, counted per order code."""
        positives = np.zeros((weights.shape[0], self.codes))
        negatives = np.zeros((weights.shape[0], self.codes))
        positives[:, self.code[self.correct]] = weights[:, self.correct]     # one cell per (code, class)
        negatives[:, self.code[~self.correct]] = weights[:, ~self.correct]
        below = np.cumsum(negatives, axis=1) - negatives
        u = np.sum(positives * (below + negatives / 2.0), axis=1)
        pairs = positives.sum(axis=1) * negatives.sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(pairs > 0, u / pairs, np.nan)


def _cell_resamples(statistic: Callable[[Cells, np.ndarray], np.ndarray], conf: np.ndarray, right: np.ndarray,
                    seed: int, resamples: int) -> np.ndarray:
    """The statistic over `resamples` resamples of the rows, drawn as cell counts (see `Cells`)."""
    cells = Cells.of(conf, right)
    chunk = max(1, 4_000_000 // max(len(cells.rows) * max(cells.codes, N_BINS), 1))
    return np.concatenate([statistic(cells, weights) for weights in cells.weights(seed, resamples, chunk)])


def ece_ci(confidence: Any, correct: Any, seed: int = 0, resamples: int = BOOTSTRAP_RESAMPLES,
           level: float = 0.95) -> tuple[float, float] | None:
    """Percentile bootstrap CI of the plug-in ECE (ten equal-width bins); None with fewer than two rows."""
    conf, right = _arrays(confidence, correct)
    if conf.size < 2:
        return None

    def statistic(cells: Cells, weights: np.ndarray) -> np.ndarray:
        _, hits, sums = cells.bin_sums(weights)
        return np.abs(hits - sums).sum(axis=1) / conf.size

    return _percentiles(_cell_resamples(statistic, conf, right, seed, resamples), level)


def ece_debiased_ci(confidence: Any, correct: Any, seed: int = 0, resamples: int = BOOTSTRAP_RESAMPLES,
                    level: float = 0.95) -> tuple[float, float] | None:
    """Basic (pivotal) bootstrap CI of `ece_debiased`, computed on the squared scale, then rooted.

    In the bootstrap world the true squared error is the sample's plug-in one (θ̂); the spread of
    the resampled debiased estimates x* around θ̂ stands in for that of the estimate x around the
    truth, so the interval is [x − (q_hi − θ̂), x − (q_lo − θ̂)] with q the percentiles of x*. A
    percentile interval would not do: x* scatters around θ̂, which is biased up, not around x
    (simulated perfectly calibrated model, n = 200: it contained 0 in 87% of data sets).
    """
    conf, right = _arrays(confidence, correct)
    if conf.size < 2:
        return None
    values = _cell_resamples(lambda cells, weights: _squared_errors(*cells.bin_sums(weights))[0],
                             conf, right, seed, resamples)
    quantiles = _percentiles(values, level)
    if quantiles is None:
        return None
    debiased, plug_in = (float(v[0]) for v in _squared_errors(*_batched_bins(conf[None], right[None])))
    return float(signed_root(debiased + plug_in - quantiles[1])), float(signed_root(debiased + plug_in - quantiles[0]))


def auroc_ci(confidence: Any, correct: Any, seed: int = 0, resamples: int = BOOTSTRAP_RESAMPLES,
             level: float = 0.95) -> tuple[float, float] | None:
    """Percentile bootstrap CI of AUROC (resamples with one class left out), counted per order code
    of the confidences (see `batched_auroc_of_codes`)."""
    conf, right = _arrays(confidence, correct)
    if conf.size < 2:
        return None
    return _percentiles(_cell_resamples(Cells.auroc, conf, right, seed, resamples), level)


def overconfidence_ci(confidence: Any, correct: Any, seed: int = 0, resamples: int = BOOTSTRAP_RESAMPLES,
                      level: float = 0.95) -> tuple[float, float] | None:
    """Percentile bootstrap CI of over = mean confidence − accuracy; None with fewer than two rows."""
    conf, right = _arrays(confidence, correct)
    if conf.size < 2:
        return None

    def statistic(cells: Cells, weights: np.ndarray) -> np.ndarray:
        return weights @ (cells.confidence / 100.0 - cells.correct) / conf.size

    return _percentiles(_cell_resamples(statistic, conf, right, seed, resamples), level)


def calibration_metrics(confidence: Any, correct: Any, seed: int = 0,
                        resamples: int = BOOTSTRAP_RESAMPLES, with_ci: bool = True) -> dict[str, Any]:
    """Every calibration metric of one (strategy, method) set, as fractions; None where undefined."""
    conf, right = _arrays(confidence, correct)
    bins = reliability_bins(conf, right)
    mass = reliability_bins(conf, right, equal_mass_edges(conf)) if conf.size else bins
    metrics: dict[str, Any] = {
        "n": int(conf.size),
        "accuracy": float(right.mean()) if conf.size else None,
        "confidence_mean": float(conf.mean() / 100.0) if conf.size else None,
        "ece": ece(bins), "ece_debiased": ece_debiased(bins), "mce": mce(bins),
        "ece_equal_mass": ece(mass), "mce_equal_mass": mce(mass),
        "brier": brier(conf, right), "slope": weighted_slope(bins),
        "overconfidence": overconfidence(conf, right), "auroc": auroc(conf, right),
        "aurc": aurc(conf, right),
        "accuracy_at_50": accuracy_at_coverage(conf, right, 0.5),
        "accuracy_at_80": accuracy_at_coverage(conf, right, 0.8),
    }
    if with_ci:
        metrics["ece_ci"] = ece_ci(conf, right, seed, resamples)
        metrics["ece_debiased_ci"] = ece_debiased_ci(conf, right, seed, resamples)
        metrics["auroc_ci"] = auroc_ci(conf, right, seed, resamples)
        metrics["overconfidence_ci"] = overconfidence_ci(conf, right, seed, resamples)
        metrics["bootstrap_resamples"] = resamples
    return metrics


def reliability_table(confidence: Any, correct: Any) -> list[dict[str, Any]]:
    """The contract's `reliability` list: ten equal-width bins, empty ones with null means."""
    bins = reliability_bins(confidence, correct)
    rows = []
    for m in range(len(bins.n)):
        filled = bool(bins.n[m])
        rows.append({"bin_low": float(bins.edges[m] / 100.0), "bin_high": float(bins.edges[m + 1] / 100.0),
                     "n": int(bins.n[m]),
                     "confidence_mean": float(bins.confidence[m]) if filled else None,
                     "accuracy": float(bins.accuracy[m]) if filled else None})
    return rows
