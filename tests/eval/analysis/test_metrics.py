"""SimpleQA metrics against hand-computed values, including the paper's reference row."""

from __future__ import annotations

import pytest

from factprobe.eval.analysis.metrics import f_score, grade_metrics
from factprobe.eval.core.schema import Grade


def grades(correct: int, incorrect: int, not_attempted: int, ungraded: int = 0, errors: int = 0):
    return ([Grade.CORRECT] * correct + [Grade.INCORRECT] * incorrect
            + [Grade.NOT_ATTEMPTED] * not_attempted + [Grade.UNGRADED] * ungraded
            + [Grade.ERROR] * errors)


def test_counts_and_fractions() -> None:
    m = grade_metrics(grades(6, 3, 1))
    assert (m["n"], m["correct"], m["incorrect"], m["not_attempted"]) == (10, 6, 3, 1)
    assert m["accuracy"] == pytest.approx(0.6)
    assert m["cga"] == pytest.approx(6 / 9)
    assert m["f_score"] == pytest.approx(2 * 0.6 * (6 / 9) / (0.6 + 6 / 9))


def test_ungraded_and_errors_are_counted_apart_not_as_incorrect() -> None:
    m = grade_metrics(grades(6, 3, 1, ungraded=5, errors=2))
    assert m["n"] == 17 and m["graded"] == 10
    assert (m["ungraded"], m["errors"], m["incorrect"]) == (5, 2, 3)
    assert m["accuracy"] == pytest.approx(0.6)


def test_reference_row_gpt4o_video_simpleqa() -> None:
    """Video SimpleQA Table 2: GPT-4o CO 47.7, NA 6.4 → CGA 51.0, F 49.3 (percent)."""
    co, na = 0.477, 0.064
    cga = co / (1 - na)
    assert round(100 * cga, 1) == 51.0
    assert round(100 * f_score(co, cga), 1) == 49.3


def test_nothing_attempted_scores_f_zero_as_simpleqa_does() -> None:
    m = grade_metrics(grades(0, 0, 3))
    assert m["accuracy"] == 0.0 and m["cga"] is None       # CGA's denominator (attempted) is empty
    assert m["f_score"] == 0.0                             # an "always refuse" collapse shows as 0
    assert f_score(0.0, None) == 0.0


def test_f_score_equals_twice_correct_over_graded_plus_attempted() -> None:
    m = grade_metrics(grades(5, 7, 4))
    assert m["f_score"] == pytest.approx(2 * 5 / (16 + 12))


def test_empty_denominators_are_none_not_zero() -> None:
    empty = grade_metrics([])
    assert empty["accuracy"] is None and empty["cga"] is None and empty["f_score"] is None
    only_failures = grade_metrics(grades(0, 0, 0, ungraded=2, errors=1))
    assert only_failures["f_score"] is None and only_failures["not_attempted_rate"] is None
