"""The paired bootstrap and exact McNemar test against scipy and hand-computed values."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import binomtest, bootstrap

from factprobe.eval.metrics import grade_metrics
from factprobe.eval.schema import Grade
from factprobe.eval.stats import accuracy_delta, f_delta, mcnemar_exact, paired_bootstrap_ci, simpleqa_f

GRADE_OF = {1: Grade.CORRECT, 0: Grade.INCORRECT, -1: Grade.NOT_ATTEMPTED}


def coded(seed: int, n: int, p: list[float]) -> np.ndarray:
    return np.random.default_rng(seed).choice([1, 0, -1], size=n, p=p)


@pytest.mark.parametrize("statistic", [f_delta, accuracy_delta])
def test_paired_bootstrap_equals_scipy_paired_percentile_bootstrap(statistic) -> None:
    a, b = coded(1, 40, [0.5, 0.3, 0.2]), coded(2, 40, [0.4, 0.4, 0.2])
    ours = paired_bootstrap_ci(a, b, statistic, n_resamples=3000, seed=11)
    theirs = bootstrap((a, b), lambda x, y, axis=-1: statistic(x, y), paired=True, vectorized=True,
                       n_resamples=3000, method="percentile", random_state=np.random.default_rng(11))
    assert ours.undefined == 0
    assert ours.low == pytest.approx(theirs.confidence_interval.low, abs=1e-12)
    assert ours.high == pytest.approx(theirs.confidence_interval.high, abs=1e-12)
    assert ours.low < statistic(a, b) < ours.high


def test_bootstrap_keeps_pairs_together() -> None:
    a = coded(3, 30, [0.5, 0.3, 0.2])
    same = paired_bootstrap_ci(a, a.copy(), f_delta, seed=0)
    assert (same.low, same.high) == (0.0, 0.0)            # an unpaired resample would not be 0


def test_bootstrap_is_seeded_and_counts_undefined_resamples() -> None:
    a = np.array([1, -1, -1, -1, -1, -1])                  # many resamples attempt nothing: F undefined
    b = np.array([1, 0, 1, 0, 1, 0])
    first = paired_bootstrap_ci(a, b, f_delta, n_resamples=1000, seed=5)
    assert first == paired_bootstrap_ci(a, b, f_delta, n_resamples=1000, seed=5)
    assert 0 < first.undefined < 1000 and first.low is not None
    nothing = paired_bootstrap_ci(np.array([-1, -1]), np.array([1, 0]), f_delta, n_resamples=100)
    assert nothing.low is None and nothing.undefined == 100


def test_simpleqa_f_matches_eval_metrics() -> None:
    a = coded(4, 25, [0.3, 0.3, 0.4])
    expected = grade_metrics(GRADE_OF[c] for c in a)["f_score"]
    assert simpleqa_f(a == 1, a >= 0) == pytest.approx(expected)


def test_mcnemar_exact_by_hand_and_against_binomtest() -> None:
    a = np.array([True] * 8 + [False] * 2 + [True] * 5 + [False] * 5)
    b = np.array([False] * 8 + [True] * 2 + [True] * 5 + [False] * 5)
    test = mcnemar_exact(a, b)
    assert (test.better, test.worse) == (8, 2)
    # two-sided exact: 2 · P(X ≤ 2), X ~ Binomial(10, 1/2) = 2 · (1 + 10 + 45) / 1024
    assert test.p_value == pytest.approx(112 / 1024)
    assert test.p_value == pytest.approx(binomtest(8, 10, 0.5).pvalue)
    assert mcnemar_exact(a, a).p_value == 1.0             # no discordant pair: no evidence


def test_bootstrap_rejects_unpaired_shapes() -> None:
    with pytest.raises(ValueError, match="equal length"):
        paired_bootstrap_ci(np.array([1, 0]), np.array([1]), f_delta)
