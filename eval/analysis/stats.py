"""Paired, clustered statistics for comparing two strategies on the same questions.

The unit of resampling and testing is the question. With `--repeats R` a question contributes up to
R pairs (strategy a's and strategy b's answer in the same repeat); the repeats share the
question's difficulty, so they are not independent and are never split.

Counts. Each question is summarised by five counts (`cluster_counts`): its graded pairs, a's
correct and attempted answers, b's correct and attempted answers. Every statistic is a function of
the totals of these counts over the questions used, so a resample or a relabelling is a weighted
sum (a matrix product) and thousands of them are computed at once with numpy.

- accuracy (CO) = correct / pairs;
- F = 2·CO·CGA / (CO + CGA) = 2·correct / (pairs + attempted); 0 when nothing is correct (also
  when nothing was attempted, as in SimpleQA's code); undefined only without pairs.
The estimand of ΔF is the population quantity F_a − F_b with F = 2·P(correct) / (1 + P(attempted))
over the distribution of questions and repeats, which the pooled estimate converges to.

Interval (`cluster_bootstrap_ci`): percentile cluster bootstrap. A resample draws as many
questions as there are, uniformly with replacement, and keeps all the pairs of every drawn question
(a question drawn twice counts twice); the interval is the (1 − level)/2 and (1 + level)/2
percentiles of the statistic over the resamples (numpy's linear interpolation).

Drawing by patterns. Questions with the same counts row are interchangeable for every statistic,
and a run of 50,000 questions has only a handful of distinct rows (nine with one repeat). For one
data set (2-D counts) a resample is therefore drawn as how many times each distinct row is drawn:
Multinomial(questions, share of each row), the same distribution as drawing the questions one by
one, at a cost that does not grow with the number of questions. Likewise a random relabelling
swaps Binomial(m, 1/2) of the m questions sharing a row. Stacks of data sets (leading axes, the
simulation tests) draw question positions, shared by every data set.

p-value (`sign_flip_p_value`): a paired, clustered sign-flip (permutation) test. Under the null
hypothesis that the two strategies are interchangeable on every question, swapping their labels
on a question (all of its repeats together) leaves the distribution of the data unchanged; the
p-value is the share of relabellings whose |statistic| is at least the observed one. With at most
`n_flips` possible relabellings (2^questions) all are enumerated and the p is exact; otherwise
`n_flips` random relabellings give the Monte Carlo p = (1 + hits) / (1 + n_flips), which is
itself a valid p-value, P(p ≤ α) ≤ α (Phipson & Smyth 2010). For a difference of means (Δaccuracy)
the test is also asymptotically valid under the weaker null "equal expected accuracy", because the
relabelling variance matches the sampling variance; for ΔF the same holds to first order (F is a
smooth ratio of totals). tests/eval/analysis/test_stats_coverage.py measures both at n = 200 questions, R = 3
correlated repeats, with strategies that differ but have ΔF = 0 (or Δaccuracy = 0). With one
repeat and the accuracy statistic, the sign-flip test is the Monte Carlo version of exact
McNemar, which `mcnemar_exact` computes exactly.

Written with numpy rather than scipy.stats.bootstrap / permutation_test: those resample single
observations, not clusters, and one call handles one data set, where the simulation tests need
thousands at once (leading axes of `counts`). scipy is not imported here
(the tests hold its reference values): every function here runs when a summary or a report is
written, and `import scipy.stats` cost 1.2 s of CPU there (scipy 1.17, numpy already
loaded, measured with getrusage around the import; 4.5 s of wall time on a loaded 2-core machine),
more than importing matplotlib.pyplot (0.7 s).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

DEFAULT_RESAMPLES = 2000
DEFAULT_FLIPS = 2000
CI_METHOD = "cluster_bootstrap_percentile"
P_METHOD = "cluster_sign_flip"

# Columns of a question's counts.
PAIRS, A_CORRECT, A_ATTEMPTED, B_CORRECT, B_ATTEMPTED = range(5)
SWAPPED = np.array([PAIRS, B_CORRECT, B_ATTEMPTED, A_CORRECT, A_ATTEMPTED])
BLOCK_CELLS = 4_000_000   # numbers per block of resamples, to bound memory

# statistic(totals): totals has shape (..., k) (the column sums of the counts); returns shape (...).
TotalsStatistic = Callable[[np.ndarray], np.ndarray]


def cluster_counts(question_ids: Sequence[str], a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(questions, 5) counts per question from paired codes 1 = correct, 0 = incorrect, −1 = not attempted.

    Questions are ordered by id, so the result does not depend on the order of the pairs.
    """
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape or a.ndim != 1 or len(question_ids) != a.shape[0]:
        raise ValueError(f"paired codes must be 1-D and of equal length with one question id each, got "
                         f"{a.shape}, {b.shape} and {len(question_ids)} ids")
    _, cluster = np.unique(np.asarray(question_ids, dtype=str), return_inverse=True)
    columns = (np.ones_like(a), a == 1, a >= 0, b == 1, b >= 0)
    size = int(cluster.max()) + 1 if cluster.size else 0
    return np.stack([np.bincount(cluster, weights=np.asarray(c, dtype=float), minlength=size)
                     for c in columns], axis=-1)


def f_from_counts(correct: np.ndarray, attempted: np.ndarray, pairs: np.ndarray) -> np.ndarray:
    """SimpleQA F = 2·correct / (pairs + attempted): 0 when nothing is correct, NaN without pairs."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(pairs > 0, 2 * correct / (pairs + attempted), np.nan)


def f_delta(totals: np.ndarray) -> np.ndarray:
    """F(a) − F(b) from count totals (..., 5)."""
    t = np.asarray(totals, dtype=float)
    return (f_from_counts(t[..., A_CORRECT], t[..., A_ATTEMPTED], t[..., PAIRS])
            - f_from_counts(t[..., B_CORRECT], t[..., B_ATTEMPTED], t[..., PAIRS]))


def accuracy_delta(totals: np.ndarray) -> np.ndarray:
    """CO(a) − CO(b) from count totals (..., 5); NaN without pairs."""
    t = np.asarray(totals, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(t[..., PAIRS] > 0, (t[..., A_CORRECT] - t[..., B_CORRECT]) / t[..., PAIRS], np.nan)


def _block_size(counts: np.ndarray) -> int:
    """Resamples (or relabellings) per block, so that a block's weights and sums stay ~4M numbers."""
    n, width = counts.shape[-2], counts[..., 0, :].size
    return max(1, BLOCK_CELLS // max(n, width))


def weighted_sums(weights: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Σ_q weights[r, q]·counts[..., q, :] for every row r: shape (..., rows, k), as one matrix product."""
    n, k = counts.shape[-2:]
    batch = counts.shape[:-2]
    flat = np.moveaxis(counts, -2, 0).reshape(n, -1)                  # (questions, batch·k)
    return np.moveaxis((weights @ flat).reshape(weights.shape[0], *batch, k), 0, -2)


def patterns(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of a (questions, k) counts matrix, in lexicographic order, and how many
    questions have each: `np.unique(counts, axis=0, return_counts=True)`, found with one `lexsort`
    (a tenth of its time: unique sorts the rows as structured records)."""
    counts = np.asarray(counts, dtype=float)
    if not counts.shape[0]:
        return counts.copy(), np.zeros(0, dtype=np.intp)
    ordered = counts[np.lexsort(counts.T[::-1])]       # lexsort's last key is the primary one
    starts = np.flatnonzero(np.concatenate(([True], np.any(ordered[1:] != ordered[:-1], axis=1))))
    return ordered[starts], np.diff(np.append(starts, len(ordered)))


def bootstrap_statistics(counts: np.ndarray, statistic: TotalsStatistic,
                         n_resamples: int = DEFAULT_RESAMPLES, seed: int = 0) -> np.ndarray:
    """The statistic over `n_resamples` cluster-bootstrap resamples: shape (..., n_resamples).

    `counts` has shape (..., questions, k); leading axes are independent data sets that share the
    same resampled question positions (so one call can bootstrap many simulated data sets).
    A resample's weights count how often each question (for 2-D counts: each distinct counts
    row, see the module docstring) was drawn.
    """
    counts = np.asarray(counts, dtype=float)
    n = counts.shape[-2]
    rng = np.random.default_rng([seed, 0])
    if counts.ndim == 2 and n:
        rows, multiplicity = patterns(counts)
        shares = multiplicity / n
        size = max(1, BLOCK_CELLS // rows.size)
        return np.concatenate([statistic(rng.multinomial(n, shares, size=min(size, n_resamples - start)) @ rows)
                               for start in range(0, n_resamples, size)], axis=-1)
    values, size = [], _block_size(counts)
    for start in range(0, n_resamples, size):
        block = min(size, n_resamples - start)
        drawn = rng.integers(0, n, (block, n))
        weights = np.bincount((drawn + n * np.arange(block)[:, None]).ravel(),
                              minlength=block * n).reshape(block, n).astype(float)
        values.append(statistic(weighted_sums(weights, counts)))
    return np.concatenate(values, axis=-1)


def percentile_interval(values: np.ndarray, level: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """The (1 − level)/2 and (1 + level)/2 percentiles over the last axis, NaN values left out."""
    tail = (1 - level) / 2 * 100
    quantile = np.nanpercentile if np.isnan(values).any() else np.percentile
    low, high = quantile(values, [tail, 100 - tail], axis=-1)
    return low, high


def cluster_bootstrap_ci(counts: np.ndarray, statistic: TotalsStatistic,
                         n_resamples: int = DEFAULT_RESAMPLES, level: float = 0.95,
                         seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Percentile cluster-bootstrap interval (low, high), each of shape counts.shape[:-2]."""
    return percentile_interval(bootstrap_statistics(counts, statistic, n_resamples, seed), level)


def is_exhaustive(n_clusters: int, n_flips: int = DEFAULT_FLIPS) -> bool:
    """Whether all 2^questions relabellings fit in `n_flips` (then they are enumerated, not drawn)."""
    return n_clusters < 63 and 2 ** n_clusters <= n_flips


def relabelling_blocks(n_clusters: int, n_flips: int = DEFAULT_FLIPS, seed: int = 0,
                       block: int | None = None) -> Iterator[np.ndarray]:
    """The rows of `relabellings(...)[0]`, `block` rows at a time (default: all at once).

    Random relabellings are drawn block by block from one generator; numpy's stream does not depend
    on how such a draw is split into rows (tests/eval/analysis/test_stats.py checks it), so the rows are the same
    numbers in the same order as one big draw, without holding all of them (2,000 relabellings of
    50,000 questions would be 800 MB, twice that while being drawn).
    """
    if is_exhaustive(n_clusters, n_flips):
        codes = np.arange(2 ** n_clusters)[:, None]
        flips = ((codes >> np.arange(n_clusters)) & 1).astype(float)
        size = block or len(flips)
        for start in range(0, len(flips), size):
            yield flips[start:start + size]
        return
    rng = np.random.default_rng([seed, 1])
    size = block or n_flips
    for start in range(0, n_flips, size):
        yield rng.integers(0, 2, (min(size, n_flips - start), n_clusters)).astype(float)


def relabellings(n_clusters: int, n_flips: int = DEFAULT_FLIPS, seed: int = 0) -> tuple[np.ndarray, bool]:
    """(flips, exhaustive): a 0/1 matrix (relabellings × questions), 1 = swap that question's labels.

    All 2^questions relabellings when there are at most `n_flips` of them (exhaustive = True),
    else `n_flips` drawn uniformly at random.
    """
    return (np.concatenate(list(relabelling_blocks(n_clusters, n_flips, seed))),
            is_exhaustive(n_clusters, n_flips))


def sign_flip_p_value(counts: np.ndarray, statistic: TotalsStatistic, n_flips: int = DEFAULT_FLIPS,
                      seed: int = 0) -> np.ndarray:
    """Two-sided clustered sign-flip p-value of `statistic`, shape counts.shape[:-2] (see the module doc)."""
    counts = np.asarray(counts, dtype=float)
    observed = np.abs(statistic(counts.sum(axis=-2)))
    n = counts.shape[-2]
    if counts.ndim == 2 and not is_exhaustive(n, n_flips):
        return _grouped_sign_flip_p_value(counts, statistic, observed, n_flips, seed)
    change = counts[..., SWAPPED] - counts            # what swapping a question's labels adds
    base = counts.sum(axis=-2)[..., None, :]
    hits, total = np.zeros(observed.shape), 0
    for flips in relabelling_blocks(n, n_flips, seed, _block_size(counts)):
        null = np.abs(statistic(base + weighted_sums(flips, change)))
        hits += np.sum(null >= observed[..., None] - 1e-12, axis=-1)
        total += flips.shape[0]
    if is_exhaustive(n, n_flips):
        return hits / total
    return (1 + hits) / (1 + total)


def _grouped_sign_flip_p_value(counts: np.ndarray, statistic: TotalsStatistic, observed: np.ndarray,
                               n_flips: int, seed: int) -> np.ndarray:
    """The Monte Carlo sign-flip p of one data set, relabelling by patterns: of the m questions
    sharing a counts row, Binomial(m, 1/2) are swapped (the same distribution as a fair coin each)."""
    rows, multiplicity = patterns(counts)
    change = rows[:, SWAPPED] - rows
    base = counts.sum(axis=0)
    rng = np.random.default_rng([seed, 1])
    hits, size = 0, max(1, BLOCK_CELLS // rows.size)
    for start in range(0, n_flips, size):
        swapped = rng.binomial(multiplicity, 0.5, size=(min(size, n_flips - start), len(rows)))
        null = np.abs(statistic(base + swapped @ change))
        hits += int(np.sum(null >= observed - 1e-12))
    return np.asarray((1 + hits) / (1 + n_flips))


@dataclass(frozen=True)
class McNemar:
    """Exact McNemar test: `better` pairs where only a is correct, `worse` where only b is."""

    p_value: float
    better: int
    worse: int


def mcnemar_exact(a_correct: np.ndarray, b_correct: np.ndarray) -> McNemar:
    """Exact (binomial) McNemar test on paired correct/not-correct outcomes.

    Valid for independent pairs only (one repeat). Only discordant pairs count: under the null
    `better` ~ Binomial(better + worse, 1/2); two-sided (`half_binomial_p`). With no discordant
    pair p = 1.
    """
    a_correct, b_correct = np.asarray(a_correct, dtype=bool), np.asarray(b_correct, dtype=bool)
    better = int(np.sum(a_correct & ~b_correct))
    worse = int(np.sum(b_correct & ~a_correct))
    if better + worse == 0:
        return McNemar(1.0, 0, 0)
    return McNemar(half_binomial_p(better, better + worse), better, worse)


def half_binomial_p(k: int, n: int) -> float:
    """Two-sided exact binomial test of k successes in n trials at p = 1/2.

    The value scipy.stats.binomtest(k, n, 0.5) gives (tests/eval/analysis/test_stats.py checks it): the
    distribution is symmetric, so the outcomes at most as likely as k are the two tails beyond
    min(k, n − k), and p = min(1, 2·P(X ≤ min(k, n − k))). Summed in log space (no overflow at any
    n); written out rather than with scipy.stats.binomtest because importing scipy.stats costs
    1.2 s of CPU on every summary and report (module docstring).
    """
    low = min(k, n - k)
    log_pmf = [math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) - n * math.log(2)
               for i in range(low + 1)]
    top = max(log_pmf)
    return min(1.0, 2 * math.exp(top) * math.fsum(math.exp(value - top) for value in log_pmf))
