"""Calibration plots (matplotlib, Agg canvas, no pyplot state): reliability diagrams, confidence
histograms and risk–coverage curves, one panel per confidence method.

Reliability diagrams draw every non-empty bin as a point sized by its count, with the count beside
it: bins with more than HIDDEN_BIN_MAX_ROWS rows filled, the rest (which WorldVQA hides) hollow
(factprobe.eval.report.reliability; the figure's title states the rule), so a small run still
shows its bins. The confidence histogram covers the full
set: every answer with a value, whatever its grade, the UNGRADED ones also drawn apart (dotted). The dashed
diagonal is perfect calibration; the solid line through the origin has the weighted average
slope (calibration.metrics.weighted_slope, computed over all bins, small ones included).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from factprobe.calibration.metrics import (
    bin_index,
    ece,
    reliability_bins,
    risk_coverage,
    uniform_edges,
    weighted_slope,
)
from factprobe.calibration.rows import CalibrationSet, calibration_set, methods_in, stated_confidences
from factprobe.calibration.summary import HIGH_CONFIDENCE
from factprobe.eval.analysis.summary import strategy_groups
from factprobe.eval.core.schema import Result
from factprobe.eval.report.build import report_plot
from factprobe.eval.report.html.figures import save_figure
from factprobe.eval.report.reliability import HIDDEN_BIN_MAX_ROWS, HIDDEN_BINS_RULE, drawn_bins

PANEL_INCHES = 3.6
LINE_STYLES = ("-", "--", "-.", (0, (5, 1, 1, 1, 1, 1)))


def _file_name(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.+-]+", "_", text)


def _figure(panels: int) -> tuple[Figure, list[Any]]:
    figure = Figure(figsize=(PANEL_INCHES * panels, PANEL_INCHES + 0.6), layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.subplots(1, panels, squeeze=False)[0]
    return figure, list(axes)


def reliability_panel(axis: Any, method: str, data: CalibrationSet) -> None:
    axis.plot([0, 1], [0, 1], linestyle="--", color="grey", linewidth=1, label="perfect calibration")
    axis.set(xlim=(0, 1), ylim=(0, 1), xlabel="confidence", ylabel="accuracy", aspect="equal")
    n = data.confidence.size
    if not n:
        axis.set_title(f"{method}: no confidences ({data.counts['eligible']} eligible rows)", fontsize=9)
        return
    bins = reliability_bins(data.confidence, data.correct)
    solid = bins.filled & drawn_bins(bins.n)
    small = bins.filled & ~solid
    sizes = 30 + 300 * bins.n / max(1, int(bins.n.max()))
    if solid.any():
        axis.scatter(bins.confidence[solid], bins.accuracy[solid], s=sizes[solid], alpha=0.7, color="tab:blue",
                     edgecolor="black", zorder=3, label=f"bins with > {HIDDEN_BIN_MAX_ROWS} rows")
    if small.any():
        axis.scatter(bins.confidence[small], bins.accuracy[small], s=sizes[small], facecolor="none",
                     edgecolor="tab:blue", linewidth=1.2, zorder=3,
                     label=f"bins with ≤ {HIDDEN_BIN_MAX_ROWS} rows (noisy)")
    for index in np.flatnonzero(bins.filled):      # every bin's row count, beside its point (inside the frame)
        accuracy, clear = bins.accuracy[index], np.sqrt(sizes[index]) / 2 + 2   # the marker's radius, in points
        axis.annotate(str(int(bins.n[index])), (bins.confidence[index], accuracy), textcoords="offset points",
                      xytext=(0, -clear - 6 if accuracy > 0.85 else clear), ha="center", fontsize=6.5,
                      color="dimgray")
    slope = weighted_slope(bins)
    if slope is not None:
        axis.plot([0, 1], [0, slope], color="tab:red", linewidth=1.5, label=f"weighted slope {slope:.2f}")
    else:
        axis.text(0.97, 0.35, "no weighted slope:\nevery confidence is 0", transform=axis.transAxes,
                  ha="right", fontsize=7.5, color="tab:red")
    error = ece(bins)   # not None: the bins hold n > 0 rows
    axis.set_title(f"{method}: n={n}, ECE " + ("–" if error is None else f"{100 * error:.1f}%"), fontsize=9)
    # below the panel: points and labels near the diagonal stay clear
    axis.legend(loc="upper center", bbox_to_anchor=(0.5, -0.18), fontsize=7, frameon=False)


@report_plot(order=30)
def reliability_diagrams(summary: dict[str, Any], rows: list[Result], out: Path) -> list[Path] | None:
    """reliability_<strategy>.png: a reliability diagram per confidence method."""
    written = []
    for strategy, strategy_rows in strategy_groups(rows).items():
        methods = methods_in(strategy_rows)
        figure, axes = _figure(len(methods))
        for axis, method in zip(axes, methods):
            reliability_panel(axis, method, calibration_set(strategy_rows, method))
        figure.suptitle(f"Reliability: {strategy}\nanswerable rows graded CORRECT/INCORRECT\n{HIDDEN_BINS_RULE}",
                        fontsize=9)
        path = out / f"reliability_{_file_name(strategy)}.png"
        save_figure(figure, path, dpi=110)
        written.append(path)
    return written or None


def _all_methods(grouped: dict[str, list[Result]]) -> list[str]:
    names: list[str] = []
    for strategy_rows in grouped.values():
        names.extend(name for name in methods_in(strategy_rows) if name not in names)
    return names


def _shares(confidence: np.ndarray, total: int) -> np.ndarray:
    """The share of `total` rows in each ten-point bin (lo, hi]."""
    edges = uniform_edges()
    return np.bincount(bin_index(confidence, edges), minlength=len(edges) - 1) / total


@report_plot(order=40)
def confidence_histogram(summary: dict[str, Any], rows: list[Result], out: Path) -> Path | None:
    """confidence_histogram.png: the share of answers per 10-point confidence bin, per strategy, over
    every answer with a value (any grade); the UNGRADED ones again apart, dotted."""
    grouped = strategy_groups(rows)
    if not grouped:
        return None
    methods = _all_methods(grouped)
    figure, axes = _figure(len(methods))
    edges = uniform_edges() / 100.0
    for axis, method in zip(axes, methods):
        for index, (strategy, strategy_rows) in enumerate(grouped.items()):
            stated = stated_confidences(strategy_rows, method)
            total = stated.confidence.size
            if not total:
                continue
            high = np.mean(stated.confidence >= HIGH_CONFIDENCE)
            # a line style per strategy too: two strategies with the same shares stay visible
            axis.stairs(_shares(stated.confidence, total), edges, linewidth=1.5, color=f"C{index % 10}",
                        linestyle=LINE_STYLES[index % len(LINE_STYLES)],
                        label=f"{strategy} (n={total}; ≥{HIGH_CONFIDENCE:.0f}: {100 * high:.0f}%)")
            ungraded = int(stated.ungraded.sum())
            if ungraded:
                axis.stairs(_shares(stated.confidence[stated.ungraded], total), edges, linewidth=1.2,
                            linestyle=":", color=f"C{index % 10}", label=f"{strategy}: UNGRADED ({ungraded})")
        axis.set(xlim=(0, 1), ylim=(0, 1.05), xlabel="confidence (bins (lo, hi])", ylabel="share of answers",
                 title=method)
        if axis.has_data():    # below the panel, clear of the bars
            axis.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.2), frameon=False)
        else:
            axis.text(0.5, 0.5, "no confidences", ha="center", transform=axis.transAxes)
    figure.suptitle("Confidence distribution\nevery answer with a value, any grade\n(dotted: its UNGRADED part)",
                    fontsize=9)
    path = out / "confidence_histogram.png"
    save_figure(figure, path, dpi=110)
    return path


@report_plot(order=50)
def risk_coverage_curves(summary: dict[str, Any], rows: list[Result], out: Path) -> Path | None:
    """risk_coverage.png: error rate among the most confident answers as coverage grows."""
    grouped = strategy_groups(rows)
    if not grouped:
        return None
    methods = _all_methods(grouped)
    figure, axes = _figure(len(methods))
    for axis, method in zip(axes, methods):
        for strategy, strategy_rows in grouped.items():
            data = calibration_set(strategy_rows, method)
            coverage, risk = risk_coverage(data.confidence, data.correct)
            if not coverage.size:
                continue
            axis.plot(coverage, risk, marker="." if coverage.size <= 40 else None, linewidth=1.5,
                      label=f"{strategy} (AURC {risk.mean():.2f}, n={coverage.size})")
        axis.set(xlim=(0, 1), ylim=(0, 1.02), xlabel="coverage (most confident first)",
                 ylabel="risk (error rate)", title=method)
        if axis.has_data():
            axis.legend(fontsize=7, loc="lower right")
        else:
            axis.text(0.5, 0.5, "no confidences", ha="center", transform=axis.transAxes)
    figure.suptitle("Risk–coverage (ties averaged; lower is better)", fontsize=10)
    path = out / "risk_coverage.png"
    save_figure(figure, path, dpi=110)
    return path
