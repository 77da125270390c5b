"""Paired statistics for comparing two strategies on the same items.

Items are (question, repeat) pairs answered by both strategies. Both tests keep the pairing:
the bootstrap resamples whole pairs, McNemar looks only at pairs where the two disagree.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy.stats import binomtest

# statistic(a, b) over the last axis: a and b have shape (..., n) and hold the same pairs in the
# same positions; returns shape (...). NaN marks a resample where the statistic is undefined.
PairedStatistic = Callable[[np.ndarray, np.ndarray], np.ndarray]

DEFAULT_RESAMPLES = 2000


@dataclass(frozen=True)
class BootstrapCI:
    """A percentile interval; `undefined` resamples (statistic NaN) are left out and counted."""

    low: float | None
    high: float | None
    n_resamples: int
    undefined: int


def paired_bootstrap_ci(a: np.ndarray, b: np.ndarray, statistic: PairedStatistic,
                        n_resamples: int = DEFAULT_RESAMPLES, confidence: float = 0.95,
                        seed: int = 0) -> BootstrapCI:
    """Percentile bootstrap CI of `statistic(a, b)` for paired data.

    What is resampled: the n pair positions. Each of the `n_resamples` resamples draws n positions
    uniformly with replacement (`numpy.random.default_rng(seed).integers(0, n, (n_resamples, n))`)
    and applies the same positions to `a` and `b`, so a pair always stays together (this is
    scipy.stats.bootstrap with paired=True and method='percentile'). The interval is the
    (1-confidence)/2 and (1+confidence)/2 percentiles (numpy's linear interpolation) of the
    resampled statistics. Resamples where the statistic is undefined (NaN, e.g. an F-score when a
    resample attempted nothing) are dropped and counted in `undefined`; if all are, the CI is None.
    """
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape or a.ndim != 1:
        raise ValueError(f"paired samples must be 1-D and of equal length, got {a.shape} and {b.shape}")
    n = a.shape[0]
    if n == 0:
        return BootstrapCI(None, None, n_resamples, n_resamples)
    rng = np.random.default_rng(seed)
    positions = rng.integers(0, n, (n_resamples, n))
    values = np.asarray(statistic(a[positions], b[positions]), dtype=float)
    defined = values[~np.isnan(values)]
    if defined.size == 0:
        return BootstrapCI(None, None, n_resamples, n_resamples)
    tail = (1 - confidence) / 2 * 100
    low, high = np.percentile(defined, [tail, 100 - tail])
    return BootstrapCI(float(low), float(high), n_resamples, int(n_resamples - defined.size))


@dataclass(frozen=True)
class McNemar:
    """Exact McNemar test: `better` pairs where only a is correct, `worse` where only b is."""

    p_value: float
    better: int
    worse: int


def mcnemar_exact(a_correct: np.ndarray, b_correct: np.ndarray) -> McNemar:
    """Exact (binomial) McNemar test on paired correct/not-correct outcomes.

    Only discordant pairs count: `better` = a correct and b not, `worse` = b correct and a not.
    Under the null both kinds are equally likely, so p is the two-sided binomial test of `better`
    successes in `better + worse` trials with p = 0.5 (scipy.stats.binomtest). With no discordant
    pair there is no evidence of a difference and p = 1.
    """
    a_correct, b_correct = np.asarray(a_correct, dtype=bool), np.asarray(b_correct, dtype=bool)
    better = int(np.sum(a_correct & ~b_correct))
    worse = int(np.sum(b_correct & ~a_correct))
    if better + worse == 0:
        return McNemar(1.0, 0, 0)
    return McNemar(float(binomtest(better, better + worse, 0.5).pvalue), better, worse)


def simpleqa_f(correct: np.ndarray, attempted: np.ndarray) -> np.ndarray:
    """F-score over the last axis from boolean correct/attempted flags of graded answers.

    CO = correct / n, CGA = correct / attempted, F = 2·CO·CGA / (CO + CGA); 0 when nothing is
    correct but something was attempted; NaN when nothing was attempted (CGA undefined), as
    eval.metrics.f_score returns None there.
    """
    n = correct.shape[-1]
    hits = correct.sum(axis=-1).astype(float)
    tries = attempted.sum(axis=-1).astype(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        co = hits / n
        cga = np.where(tries > 0, hits / tries, np.nan)
        total = co + cga
        f = np.where(total > 0, 2 * co * cga / total, 0.0)
    return np.where(np.isnan(cga), np.nan, f)


def f_delta(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """F(a) − F(b), each array coded 1 = correct, 0 = incorrect, −1 = not attempted."""
    return simpleqa_f(a == 1, a >= 0) - simpleqa_f(b == 1, b >= 0)


def accuracy_delta(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """CO(a) − CO(b), each array coded 1 = correct, 0 = incorrect, −1 = not attempted."""
    return (a == 1).mean(axis=-1) - (b == 1).mean(axis=-1)
