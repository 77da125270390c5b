"""Figures whose plotted points are read back: sweep_<option>.png (F, ECE and latency against each
swept option, one line per strategy and value of the other swept options) and gains.png (ΔF and
Δaccuracy with their CIs)."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.figure import Figure

from factprobe.eval.report.gains_plot import draw_gains, gains_plot
from factprobe.eval.report.sweep_plots import sweep_figure, sweep_figures, swept_options


def row(strategy: str, frames: str, model: str, f: float, ece: float, latency: float, delta=None, ci=None):
    return {"cell": f"{frames}-{model}", "run_dir": "x", "dataset": "d", "model": model, "frames": frames,
            "strategy": strategy, "baseline": "vanilla", "n": 10, "accuracy": f, "incorrect_rate": 0.1,
            "not_attempted_rate": 0.0, "cga": f, "f_score": f, "ece": ece, "latency_s_mean": latency,
            "f_score_delta": delta, "ci_low": None if ci is None else ci[0], "ci_high": None if ci is None else ci[1],
            "p_value": None, "accuracy_delta": None, "latency_ratio": None, "tokens_ratio": None, "exit_status": 0}


ROWS = [row("vanilla", "8", "a", 0.30, 0.20, 1.0), row("vanilla", "32", "a", 0.40, 0.10, 3.0),
        row("vanilla", "8", "b", 0.50, 0.25, 2.0), row("vanilla", "32", "b", 0.55, 0.15, 5.0),
        row("rag", "8", "a", 0.35, 0.20, 1.5, 0.05, (0.0, 0.1)), row("rag", "32", "a", 0.45, 0.1, 3.5, 0.05, (-0.02, 0.12)),
        row("rag", "8", "b", 0.5, 0.2, 2.5, 0.0, (-0.1, 0.1)), row("rag", "32", "b", 0.6, 0.1, 6.0, 0.05, (0.0, 0.1))]


def test_each_swept_option_gets_a_line_per_strategy_and_other_value(tmp_path) -> None:
    assert swept_options(ROWS) == ["model", "frames"]
    figure = sweep_figure(ROWS, "frames", ["model"])
    f_axis, ece_axis, latency_axis = figure.axes
    lines = {line.get_label(): line for line in f_axis.get_lines()}
    assert set(lines) == {"vanilla model=a", "vanilla model=b", "rag model=a", "rag model=b"}
    x, y = lines["vanilla model=b"].get_data()
    assert list(x) == [8.0, 32.0] and list(y) == pytest.approx([50.0, 55.0])
    x, y = {line.get_label(): line for line in latency_axis.get_lines()}["rag model=b"].get_data()
    assert list(y) == pytest.approx([2.5, 6.0])
    # rag's ΔF band: baseline F (F − ΔF) plus the CI, in points
    band = f_axis.collections[0].get_paths()[0].vertices
    assert np.nanmin(band[:, 1]) == pytest.approx(30.0) and np.nanmax(band[:, 1]) == pytest.approx(52.0)
    paths = sweep_figures(ROWS, tmp_path)
    assert [p.name for p in paths] == ["sweep_model.png", "sweep_frames.png"]
    assert all(p.stat().st_size > 0 and p.with_suffix(".svg").is_file() for p in paths)


def test_gains_figure_draws_each_delta_with_its_interval(tmp_path) -> None:
    summary = {"baseline": "vanilla", "gains": {
        "rag": {"f_score_delta": 0.1, "ci_low": 0.02, "ci_high": 0.2, "accuracy_delta": 0.05,
                "accuracy_ci_low": -0.01, "accuracy_ci_high": 0.1},
        "best_of_n": {"f_score_delta": -0.05, "ci_low": -0.1, "ci_high": 0.0, "accuracy_delta": -0.02,
                      "accuracy_ci_low": None, "accuracy_ci_high": None}}}
    path = gains_plot(summary, [], tmp_path)
    assert path == tmp_path / "gains.png" and path.stat().st_size > 0
    figure = Figure()
    axis = draw_gains(summary, figure.add_subplot(), "accuracy_delta")
    points = {tick.get_text(): line.get_xdata()[0] for tick, line in zip(axis.get_yticklabels(), axis.get_lines())}
    assert points == pytest.approx({"rag": 5.0, "best_of_n": -2.0})
    [segments] = [c.get_segments() for c in axis.collections]
    assert len(segments) == 1 and segments[0][:, 0] == pytest.approx([-1.0, 10.0])   # best_of_n has no CI
    assert gains_plot({"baseline": "vanilla", "gains": {}}, [], tmp_path / "none") is None


def test_a_figure_is_saved_as_png_and_svg_with_one_layout_and_keeps_its_engine(tmp_path) -> None:
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from factprobe.eval.report.html.figures import save_figure

    figure = Figure(figsize=(4, 3), layout="constrained")
    FigureCanvasAgg(figure)
    axis = figure.add_subplot()
    axis.plot([0, 1], [0, 1])
    axis.set(xlabel="a long label on the x axis", ylabel="a long label on the y axis", title="title")
    engine = figure.get_layout_engine()
    layouts = []
    execute = engine.execute
    engine.execute = lambda fig: (layouts.append(fig), execute(fig))   # type: ignore[method-assign]
    path = save_figure(figure, tmp_path / "plot.png", dpi=80)
    assert path.stat().st_size > 0 and "<svg" in path.with_suffix(".svg").read_text()
    assert len(layouts) == 1                  # the PNG's; the SVG was drawn where it put everything
    assert figure.get_layout_engine() is engine
    figure.savefig(tmp_path / "again.svg", format="svg")
    assert len(layouts) == 2                  # the figure lays itself out again as before
