"""Shared columns (factprobe.eval.analysis.columns): built once per strategy, read the same as the rows."""

from __future__ import annotations

import gc

import numpy as np
import pytest
from rich.console import Console

from benchmarks.synthetic_run import write_run
from factprobe.calibration.rows import calibration_set, methods_in
from factprobe.eval.analysis.columns import StrategyRows, answerable_scores, columns_of
from factprobe.eval.analysis.gains import compare
from factprobe.eval.analysis.metrics import grade_metrics
from factprobe.eval.analysis.summary import latest_rows, strategy_groups
from factprobe.eval.core.schema import Grade
from factprobe.eval.report.build import write_report
from factprobe.eval.store.run_dir import RunDir


@pytest.fixture
def rows(tmp_path):
    return latest_rows(RunDir(write_run(tmp_path, 400, seed=5)).read_results())


def test_groups_and_their_columns_are_built_once_and_shared(rows) -> None:
    first, again = strategy_groups(rows), strategy_groups(rows)
    assert first is not again and all(first[name] is again[name] for name in first)
    vanilla = first["vanilla"]
    assert isinstance(vanilla, StrategyRows) and columns_of(vanilla) is columns_of(vanilla)
    assert columns_of(list(vanilla)) is not columns_of(vanilla)          # a plain list gets its own


def test_columns_hold_the_rows_values(rows) -> None:
    vanilla = strategy_groups(rows)["vanilla"]
    columns = columns_of(vanilla)
    assert columns.latency_s.tolist() == [row.latency_s for row in vanilla]
    assert columns.prompt_tokens.dtype == np.int64 and columns.answerable.dtype == bool
    assert columns.finished.tolist() == [row.error is None for row in vanilla]
    scores = answerable_scores(vanilla)
    assert scores == grade_metrics(row.grade for row in vanilla if row.answerable)
    scores["n"] = -1                                     # a caller's copy: the kept one is unchanged
    assert answerable_scores(vanilla)["n"] != -1


def test_calibration_set_is_kept_per_method_and_each_caller_gets_its_counts(rows) -> None:
    vanilla = strategy_groups(rows)["vanilla"]
    first = calibration_set(vanilla, "verbal")
    first.counts["used"] = -1
    again = calibration_set(vanilla, "verbal")
    assert again.counts["used"] == again.confidence.size > 0
    fresh = calibration_set(list(vanilla), "verbal")     # computed anew from a plain list
    assert fresh.counts == again.counts and fresh.correct.tolist() == again.correct.tolist()
    eligible = [row for row in vanilla if row.answerable and row.grade in (Grade.CORRECT, Grade.INCORRECT)]
    assert again.correct.tolist() == [row.grade is Grade.CORRECT for row in eligible if row.confidence is not None]
    assert methods_in(vanilla) == ["verbal"]


def test_gains_pair_the_same_from_a_baseline_list_or_mapping(rows) -> None:
    groups = strategy_groups(rows)
    by_pair = {(row.question_id, row.repeat): row for row in groups["vanilla"]}
    from_list = compare(groups["rag"], groups["vanilla"], seed=1, n_resamples=200, n_flips=200)
    assert from_list == compare(list(groups["rag"]), by_pair, seed=1, n_resamples=200, n_flips=200)
    assert from_list["n_pairs"] > 0


def test_a_report_leaves_the_collector_as_it_found_it(tmp_path) -> None:
    write_report(RunDir(write_run(tmp_path, 40)), Console(quiet=True))
    assert gc.get_freeze_count() == 0 and gc.isenabled()
