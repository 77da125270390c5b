"""Clustered bootstrap, clustered sign-flip test and exact McNemar, against hand-computed values and scipy."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy.stats import binomtest, bootstrap

from factprobe.eval.analysis import stats
from factprobe.eval.analysis.metrics import grade_metrics
from factprobe.eval.analysis.stats import (
    accuracy_delta,
    bootstrap_statistics,
    cluster_bootstrap_ci,
    cluster_counts,
    f_delta,
    half_binomial_p,
    mcnemar_exact,
    relabelling_blocks,
    relabellings,
    sign_flip_p_value,
)
from factprobe.eval.core.schema import Grade

GRADE_OF = {1: Grade.CORRECT, 0: Grade.INCORRECT, -1: Grade.NOT_ATTEMPTED}


def coded(seed: int, n: int, p: list[float]) -> np.ndarray:
    return np.random.default_rng(seed).choice([1, 0, -1], size=n, p=p)


def test_cluster_counts_sum_each_questions_pairs() -> None:
    ids = ["q2", "q1", "q2", "q2"]
    a, b = np.array([1, 0, -1, 1]), np.array([0, 1, 1, -1])
    counts = cluster_counts(ids, a, b)
    # rows ordered by id: q1 then q2; columns pairs, a correct, a attempted, b correct, b attempted
    assert counts.tolist() == [[1, 0, 1, 1, 1], [3, 2, 2, 1, 2]]


@pytest.mark.parametrize("statistic", [f_delta, accuracy_delta])
def test_deltas_match_grade_metrics(statistic) -> None:
    a, b = coded(4, 25, [0.3, 0.3, 0.4]), coded(5, 25, [0.5, 0.2, 0.3])
    ours = statistic(cluster_counts([str(i) for i in range(25)], a, b).sum(axis=0))
    key = "f_score" if statistic is f_delta else "accuracy"
    expected = grade_metrics(GRADE_OF[c] for c in a)[key] - grade_metrics(GRADE_OF[c] for c in b)[key]
    assert ours == pytest.approx(expected)


def test_f_is_zero_when_nothing_was_attempted() -> None:
    counts = cluster_counts(["a", "b"], np.array([-1, -1]), np.array([1, 0]))
    assert f_delta(counts.sum(axis=0)) == pytest.approx(0.0 - 2 * 1 / (2 + 2))


def test_one_pair_per_question_bootstrap_equals_scipy_paired_percentile_bootstrap() -> None:
    a, b = coded(1, 40, [0.5, 0.3, 0.2]), coded(2, 40, [0.4, 0.4, 0.2])
    counts = cluster_counts([f"q{i:02d}" for i in range(40)], a, b)
    low, high = cluster_bootstrap_ci(counts, accuracy_delta, n_resamples=3000, seed=11)
    # a stack of data sets draws question positions, as scipy would from the same generator
    stacked = cluster_bootstrap_ci(counts[None], accuracy_delta, n_resamples=3000, seed=11)
    positions = np.random.default_rng([11, 0]).integers(0, 40, (3000, 40))
    theirs = np.percentile((a[positions] == 1).mean(axis=1) - (b[positions] == 1).mean(axis=1), [2.5, 97.5])
    assert (stacked[0][0], stacked[1][0]) == pytest.approx(tuple(theirs), abs=1e-12)
    # one data set draws by patterns: another draw from the same distribution
    assert (low, high) == pytest.approx(tuple(theirs), abs=0.03)
    reference = bootstrap((a, b), lambda x, y, axis=-1: (x == 1).mean(axis) - (y == 1).mean(axis), paired=True,
                          vectorized=True, n_resamples=3000, method="percentile",
                          random_state=np.random.default_rng(3)).confidence_interval
    assert low == pytest.approx(reference.low, abs=0.03) and high == pytest.approx(reference.high, abs=0.03)


def test_bootstrap_keeps_a_questions_repeats_together() -> None:
    # two questions whose repeats disagree in opposite directions: every resample mixes whole questions
    ids = ["x"] * 3 + ["y"] * 3
    a, b = np.array([1, 1, 1, 0, 0, 0]), np.array([0, 0, 0, 1, 1, 1])
    values = bootstrap_statistics(cluster_counts(ids, a, b), accuracy_delta, n_resamples=500, seed=0)
    assert set(np.round(values, 12)) <= {-1.0, 0.0, 1.0}       # a repeat-level resample gives thirds too


def test_bootstrap_is_seeded() -> None:
    counts = cluster_counts([str(i % 7) for i in range(21)], coded(3, 21, [0.5, 0.3, 0.2]),
                            coded(6, 21, [0.3, 0.3, 0.4]))
    first = cluster_bootstrap_ci(counts, f_delta, n_resamples=500, seed=5)
    assert first == cluster_bootstrap_ci(counts, f_delta, n_resamples=500, seed=5)
    assert first != cluster_bootstrap_ci(counts, f_delta, n_resamples=500, seed=6)


def test_sign_flip_enumerates_small_designs_exactly() -> None:
    # three questions, a better on all: the observed Δaccuracy is reached by 2 of 2³ relabellings
    counts = cluster_counts(["a", "b", "c"], np.array([1, 1, 1]), np.array([0, 0, 0]))
    flips, exhaustive = relabellings(3, n_flips=2000)
    assert exhaustive and flips.shape == (8, 3)
    assert sign_flip_p_value(counts, accuracy_delta) == pytest.approx(2 / 8)
    # by hand with unequal clusters: every relabelling of (question, a-correct, b-correct) counts
    ids = ["a", "a", "b", "c", "c", "c"]
    a, b = np.array([1, 1, 0, 1, -1, 1]), np.array([0, 1, 1, 0, 0, 0])
    counts = cluster_counts(ids, a, b)
    observed = abs(accuracy_delta(counts.sum(axis=0)))
    null = []
    for swap in itertools.product([False, True], repeat=3):
        rows = counts.copy()
        rows[list(swap)] = rows[list(swap)][:, [0, 3, 4, 1, 2]]
        null.append(abs(accuracy_delta(rows.sum(axis=0))))
    assert sign_flip_p_value(counts, accuracy_delta) == pytest.approx(np.mean(np.array(null) >= observed - 1e-12))


@pytest.mark.parametrize("block", [1, 7, 64, 500])
def test_relabelling_blocks_draw_the_same_numbers_as_one_draw(block) -> None:
    # odd sizes on purpose: the blocks must not skip or reorder any of the generator's numbers
    whole = np.random.default_rng([3, 1]).integers(0, 2, (500, 101)).astype(float)
    blocks = list(relabelling_blocks(101, n_flips=500, seed=3, block=block))
    assert [len(rows) for rows in blocks][:-1] == [block] * (len(blocks) - 1)
    assert np.array_equal(np.concatenate(blocks), whole)
    assert np.array_equal(relabellings(101, n_flips=500, seed=3)[0], whole)


def test_sign_flip_p_value_does_not_depend_on_the_block_size(monkeypatch) -> None:
    rng = np.random.default_rng(11)
    ids = [f"q{i // 2}" for i in range(300)]
    counts = cluster_counts(ids, rng.integers(-1, 2, 300), rng.integers(-1, 2, 300))
    reference = sign_flip_p_value(counts, f_delta, n_flips=999, seed=4)
    monkeypatch.setattr(stats, "BLOCK_CELLS", 7 * 150)       # blocks of 7 relabellings
    assert sign_flip_p_value(counts, f_delta, n_flips=999, seed=4) == reference


def test_sign_flip_with_one_repeat_agrees_with_exact_mcnemar() -> None:
    a = np.array([True] * 14 + [False] * 4 + [True] * 10 + [False] * 12)
    b = np.array([False] * 14 + [True] * 4 + [True] * 10 + [False] * 12)
    counts = cluster_counts([f"q{i:02d}" for i in range(40)], a.astype(int), b.astype(int))
    p = sign_flip_p_value(counts, accuracy_delta, n_flips=20000, seed=1)
    exact = mcnemar_exact(a, b).p_value
    assert p == pytest.approx(exact, abs=0.006)                 # Monte Carlo error ≈ 0.001


def test_sign_flip_p_is_one_for_identical_strategies_and_small_for_a_clear_gain() -> None:
    ids = [f"q{i // 3}" for i in range(90)]
    a = coded(8, 90, [0.5, 0.3, 0.2])
    assert sign_flip_p_value(cluster_counts(ids, a, a.copy()), f_delta) == 1.0
    better = np.where(a == 0, 1, a)                             # every wrong answer fixed
    assert sign_flip_p_value(cluster_counts(ids, better, a), f_delta) < 0.01


def test_p_of_delta_f_tests_delta_f_not_accuracy() -> None:
    # a gains accuracy (2 more correct) but refuses nothing, b refuses its wrong answers: F favours b
    ids = [f"q{i}" for i in range(40)]
    a = np.array([1] * 22 + [0] * 18)
    b = np.array([1] * 20 + [-1] * 20)
    counts = cluster_counts(ids, a, b)
    assert accuracy_delta(counts.sum(axis=0)) > 0 > f_delta(counts.sum(axis=0))
    low, high = cluster_bootstrap_ci(counts, f_delta, seed=0)
    assert high < 0 and sign_flip_p_value(counts, f_delta) < 0.05
    assert sign_flip_p_value(counts, accuracy_delta) > 0.4


def test_mcnemar_exact_by_hand_and_against_binomtest() -> None:
    a = np.array([True] * 8 + [False] * 2 + [True] * 5 + [False] * 5)
    b = np.array([False] * 8 + [True] * 2 + [True] * 5 + [False] * 5)
    test = mcnemar_exact(a, b)
    assert (test.better, test.worse) == (8, 2)
    # two-sided exact: 2 · P(X ≤ 2), X ~ Binomial(10, 1/2) = 2 · (1 + 10 + 45) / 1024
    assert test.p_value == pytest.approx(112 / 1024)
    assert test.p_value == pytest.approx(binomtest(8, 10, 0.5).pvalue)
    assert mcnemar_exact(a, a).p_value == 1.0             # no discordant pair: no evidence


@pytest.mark.parametrize(("k", "n"), [(0, 1), (1, 2), (3, 7), (5, 10), (12, 13), (480, 1000), (4900, 10000)])
def test_half_binomial_p_equals_binomtest(k, n) -> None:
    assert half_binomial_p(k, n) == pytest.approx(binomtest(k, n, 0.5).pvalue, rel=1e-9, abs=1e-300)


def test_cluster_counts_rejects_unpaired_shapes() -> None:
    with pytest.raises(ValueError, match="equal length"):
        cluster_counts(["a", "b"], np.array([1, 0]), np.array([1]))


@pytest.mark.parametrize("shape", [(0, 5), (1, 5), (7, 3), (5_000, 5), (300, 15)])
def test_patterns_are_what_numpy_unique_finds(shape) -> None:
    counts = np.random.default_rng(shape[0]).integers(0, 4, shape).astype(float)
    rows, multiplicity = stats.patterns(counts)
    expected_rows, expected_multiplicity = np.unique(counts, axis=0, return_counts=True)
    assert rows.tolist() == expected_rows.tolist() and multiplicity.tolist() == expected_multiplicity.tolist()
    assert int(multiplicity.sum()) == shape[0]
