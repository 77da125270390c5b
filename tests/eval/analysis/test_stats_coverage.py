"""Simulated repeats: the clustered interval covers and the clustered p holds its level; the naive ones do not.

Model (one simulated data set): n = 200 questions, R = 3 repeats, two strategies a and b.
Question q has a latent ease z_q ~ N(0, 1), shared by its repeats and by both strategies, and a
question × strategy effect u_qs ~ N(0, TAU²), shared by the question's repeats (a strategy helps
on some questions and hurts on others). With η = z_q + u_qs, each repeat of strategy s attempts
with probability σ(α_s + η) and, when it attempts, is correct with probability σ(γ_s + η),
independently given η. The repeats of a question are therefore correlated, and so are the
strategies' answers to it.

Truth. The pooled estimates converge to P_s(correct) = E[σ(α_s + η)·σ(γ_s + η)] and
P_s(attempted) = E[σ(α_s + η)], η ~ N(0, 1 + TAU²), computed by Gauss–Hermite quadrature (exact
to ~1e-12 for these smooth integrands): Δaccuracy = P_a(correct) − P_b(correct) and
ΔF = F_a − F_b with F_s = 2·P_s(correct) / (1 + P_s(attempted)). Null cases choose γ_b by root
finding so that the true ΔF (or Δaccuracy) is exactly 0 while the strategies still differ (b
attempts less often), so the tests face the weak null, not interchangeable strategies.

Every data set of a check shares the same resampled question positions and relabellings (the
functions' seed), as every run with the same seed would; the data sets themselves are independent.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import brentq
from scipy.special import expit

from factprobe.eval.analysis.stats import (
    A_ATTEMPTED,
    A_CORRECT,
    B_ATTEMPTED,
    B_CORRECT,
    PAIRS,
    accuracy_delta,
    cluster_bootstrap_ci,
    f_delta,
    sign_flip_p_value,
)

QUESTIONS, REPEATS, DATA_SETS, TAU = 200, 3, 2000, 1.5
NODES, WEIGHTS = np.polynomial.hermite_e.hermegauss(80)        # ∫ f(x) φ(x) dx ≈ Σ w f(x) / √(2π)


def population(alpha: float, gamma: float) -> tuple[float, float]:
    """(P(correct), P(attempted)) of one strategy, η ~ N(0, 1 + TAU²)."""
    eta = NODES * np.sqrt(1 + TAU ** 2)
    weights = WEIGHTS / np.sqrt(2 * np.pi)
    attempt = expit(alpha + eta)
    return float(np.sum(weights * attempt * expit(gamma + eta))), float(np.sum(weights * attempt))


def true_f(alpha: float, gamma: float) -> float:
    correct, attempted = population(alpha, gamma)
    return 2 * correct / (1 + attempted)


def simulate(a: tuple[float, float], b: tuple[float, float], seed: int) -> np.ndarray:
    """(data sets, questions, repeats, 5) counts of each (question, repeat) pair."""
    rng = np.random.default_rng(seed)
    z = rng.standard_normal((DATA_SETS, QUESTIONS, 1))
    counts = np.zeros((DATA_SETS, QUESTIONS, REPEATS, 5))
    counts[..., PAIRS] = 1
    for (alpha, gamma), correct, attempted in ((a, A_CORRECT, A_ATTEMPTED), (b, B_CORRECT, B_ATTEMPTED)):
        eta = z + TAU * rng.standard_normal((DATA_SETS, QUESTIONS, 1))
        tries = rng.random((DATA_SETS, QUESTIONS, REPEATS)) < expit(alpha + eta)
        counts[..., attempted] = tries
        counts[..., correct] = tries & (rng.random((DATA_SETS, QUESTIONS, REPEATS)) < expit(gamma + eta))
    return counts


def by_question(counts: np.ndarray) -> np.ndarray:
    return counts.sum(axis=-2)                                     # the repeats of a question together


def by_pair(counts: np.ndarray) -> np.ndarray:
    return counts.reshape(DATA_SETS, QUESTIONS * REPEATS, 5)       # naive: every repeat its own unit


def coverage(counts: np.ndarray, statistic, truth: float) -> float:
    low, high = cluster_bootstrap_ci(counts, statistic, seed=7)
    return float(np.mean((low <= truth) & (truth <= high)))


def rejection_rate(counts: np.ndarray, statistic) -> float:
    return float(np.mean(sign_flip_p_value(counts, statistic, seed=7) < 0.05))


A = (1.0, 0.3)                                                   # attempts often, right more often
B = (0.3, -0.2)


@pytest.fixture(scope="module")
def different() -> np.ndarray:
    return simulate(A, B, seed=1)


def test_quadrature_truth_matches_a_large_simulation() -> None:
    counts = simulate(A, B, seed=2).reshape(-1, 5).sum(axis=0)    # 1.2 million pairs
    truth_f = true_f(*A) - true_f(*B)
    truth_acc = population(*A)[0] - population(*B)[0]
    assert f_delta(counts) == pytest.approx(truth_f, abs=0.003)
    assert accuracy_delta(counts) == pytest.approx(truth_acc, abs=0.003)
    assert abs(truth_f) > 0.05 and abs(truth_acc) > 0.05


def test_clustered_intervals_cover_95_percent(different: np.ndarray) -> None:
    f_cover = coverage(by_question(different), f_delta, true_f(*A) - true_f(*B))
    acc_cover = coverage(by_question(different), accuracy_delta, population(*A)[0] - population(*B)[0])
    print(f"clustered coverage: ΔF {f_cover:.3f}, Δaccuracy {acc_cover:.3f}")
    assert 0.935 <= f_cover <= 0.965
    assert 0.935 <= acc_cover <= 0.965


def test_naive_intervals_undercover(different: np.ndarray) -> None:
    f_cover = coverage(by_pair(different), f_delta, true_f(*A) - true_f(*B))
    acc_cover = coverage(by_pair(different), accuracy_delta, population(*A)[0] - population(*B)[0])
    print(f"naive coverage: ΔF {f_cover:.3f}, Δaccuracy {acc_cover:.3f}")
    assert f_cover < 0.90 and acc_cover < 0.90, (f_cover, acc_cover)


def null_gamma(target) -> float:
    """γ_b for α_b = B[0] at which `target(γ_b)` is 0."""
    return brentq(target, -4.0, 4.0, xtol=1e-12)


def test_sign_flip_p_of_delta_f_holds_its_level_at_a_true_null() -> None:
    gamma = null_gamma(lambda g: true_f(*A) - true_f(B[0], g))
    counts = simulate(A, (B[0], gamma), seed=3)
    clustered, naive = rejection_rate(by_question(counts), f_delta), rejection_rate(by_pair(counts), f_delta)
    print(f"ΔF = 0: false rejections clustered {clustered:.3f}, naive {naive:.3f}")
    assert 0.035 <= clustered <= 0.065
    assert naive > 0.09


def test_sign_flip_p_of_delta_accuracy_holds_its_level_at_a_true_null() -> None:
    gamma = null_gamma(lambda g: population(*A)[0] - population(B[0], g)[0])
    counts = simulate(A, (B[0], gamma), seed=4)
    clustered = rejection_rate(by_question(counts), accuracy_delta)
    naive = rejection_rate(by_pair(counts), accuracy_delta)
    print(f"Δaccuracy = 0: false rejections clustered {clustered:.3f}, naive {naive:.3f}")
    assert 0.035 <= clustered <= 0.065
    assert naive > 0.09


def test_a_single_runs_interval_covers_too(different: np.ndarray) -> None:
    """The same check through the path a report takes: one run's (questions, k) counts at a time,
    resampled as multinomial draws over its distinct count patterns. 400 data sets: the band is
    about ±2.7 standard errors around 95%."""
    counts = by_question(different)[:400]
    f_truth, acc_truth = true_f(*A) - true_f(*B), population(*A)[0] - population(*B)[0]
    covered = np.zeros(2)
    for one in counts:
        for index, (statistic, truth) in enumerate(((f_delta, f_truth), (accuracy_delta, acc_truth))):
            low, high = cluster_bootstrap_ci(one, statistic, seed=7)
            covered[index] += low <= truth <= high
    f_cover, acc_cover = covered / len(counts)
    print(f"single-run coverage: ΔF {f_cover:.3f}, Δaccuracy {acc_cover:.3f}")
    assert 0.92 <= f_cover <= 0.98 and 0.92 <= acc_cover <= 0.98
