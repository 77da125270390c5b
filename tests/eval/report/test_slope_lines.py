"""The reliability overlay of `factprobe compare --html` draws each run's weighted average slope as a
dashed line from the origin in the run's colour (WorldVQA Fig. 5, left). Runs are invented summaries;
nothing is asked of any model."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from factprobe.eval.report.compare_figures import reliability_overlay


def run(name: str, slope: float | None) -> SimpleNamespace:
    bins = [{"n": 30, "confidence_mean": 0.9, "accuracy": 0.6}, {"n": 25, "confidence_mean": 0.5, "accuracy": 0.4}]
    calibration = {"vanilla": {"verbal": {"slope": slope}}}
    return SimpleNamespace(name=name, summary={"reliability": {"vanilla": bins}, "calibration": calibration})


def test_each_run_gets_a_dashed_line_with_its_slope() -> None:
    figure = reliability_overlay([(run("a", 0.7), "vanilla"), (run("b", 0.55), "vanilla"),
                                  (run("c", None), "vanilla")], "vanilla")
    axis = figure.axes[0]
    dashed = [line for line in axis.get_lines() if line.get_linestyle() == "--"
              and line.get_label() != "perfect calibration"]
    assert [line.get_label() for line in dashed] == ["a: slope 0.70", "b: slope 0.55"]
    assert [tuple(line.get_ydata()) for line in dashed] == [(0, pytest.approx(0.7)), (0, pytest.approx(0.55))]
    assert [line.get_color() for line in dashed] == ["C0", "C1"]
