"""SimpleQA metrics against hand-computed values, including the paper's reference row."""

from __future__ import annotations

import pytest

from factprobe.eval.analysis.metrics import f_score, grade_metrics, undecided_gap
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


def test_f_range_takes_every_ungraded_row_as_incorrect_then_as_correct() -> None:
    """4 correct, 2 incorrect, 2 not attempted, 2 UNGRADED, 1 ERROR: F = 2·4/(8 + 6) = 8/14; low takes
    the 2 as INCORRECT (2·4/(10 + 8) = 8/18), high as CORRECT (2·6/(10 + 8) = 12/18); the ERROR row is
    in no denominator, so 2 of the 10 rows a grader saw are undecided."""
    m = grade_metrics(grades(4, 2, 2, ungraded=2, errors=1))
    assert m["f_score"] == pytest.approx(8 / 14)
    assert m["f_score_range"] == {"low": pytest.approx(8 / 18), "high": pytest.approx(12 / 18)}
    assert m["undecided_share"] == pytest.approx(0.2)


@pytest.mark.parametrize("counts", [(c, i, n, u) for c in (0, 1, 5) for i in (0, 3) for n in (0, 2) for u in (1, 4)])
def test_f_lies_within_its_range(counts: tuple[int, int, int, int]) -> None:
    c, i, n, u = counts
    m = grade_metrics(grades(c, i, n, ungraded=u))
    low, high = m["f_score_range"]["low"], m["f_score_range"]["high"]
    assert low < high
    if m["f_score"] is not None:
        assert low <= m["f_score"] <= high


def test_without_ungraded_rows_the_range_is_f_itself() -> None:
    for counts in ((6, 3, 1), (0, 0, 3), (5, 0, 0)):
        m = grade_metrics(grades(*counts, errors=2))
        assert m["f_score_range"] == {"low": m["f_score"], "high": m["f_score"]}
        assert m["undecided_share"] == 0.0


def test_a_range_without_rows_is_none_not_zero() -> None:
    assert grade_metrics([])["f_score_range"] is None and grade_metrics([])["undecided_share"] is None
    errors_only = grade_metrics(grades(0, 0, 0, errors=3))
    assert errors_only["f_score_range"] is None and errors_only["undecided_share"] is None
    undecided_only = grade_metrics(grades(0, 0, 0, ungraded=2))   # F unknown, anywhere from 0 to 1
    assert undecided_only["f_score"] is None and undecided_only["f_score_range"] == {"low": 0.0, "high": 1.0}
    assert undecided_only["undecided_share"] == 1.0


@pytest.mark.parametrize(("share", "baseline", "flagged"), [
    (0.30, 0.10, True), (0.10, 0.30, True), (0.16, 0.10, True),
    (0.20, 0.15, False), (0.15, 0.20, False), (0.149, 0.10, False), (0.0, 0.0, False),
])
def test_undecided_gap_flags_more_than_five_points(share: float, baseline: float, flagged: bool) -> None:
    gap = undecided_gap(share, baseline)
    assert gap["undecided_share_gap"] == pytest.approx(share - baseline)
    assert gap["grader_bias_warning"] is flagged


def test_undecided_gap_of_an_unknown_share_is_unknown_and_not_flagged() -> None:
    assert undecided_gap(None, 0.5) == {"undecided_share_gap": None, "grader_bias_warning": False}
