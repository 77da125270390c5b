"""Figures across runs (`factprobe compare … --html FILE`), drawn from each run's summary and the
paired comparison, written as PNG and SVG in a folder beside the HTML file (`figure_folder`):

- reliability: every run's verbal-confidence reliability bins of one strategy in one panel (WorldVQA
  Fig. 5, Video SimpleQA Fig. 7): filled points for bins with more than HIDDEN_BIN_MAX_ROWS rows
  (WorldVQA draws only those; factprobe.eval.report.reliability), hollow ones for the rest, sized by
  count; the diagonal is perfect calibration, and each run's dashed line from the origin has its
  weighted average slope (`calibration.<s>.verbal.slope`, 1 on the diagonal);
- per_category: F per category (per `--group-by` group when given) of every run, as a radar with
  three categories or more (WorldVQA Fig. 3), else as grouped bars;
- delta_f: each run's ΔF against the baseline run with its 95% CI, overall and per category (group);
- delta_calibration: each run's ΔECE and Δover of the stated confidence against the baseline run,
  with their 95% CIs (the pairs' `ece_delta`, `over_delta`).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from factprobe.eval.analysis.cross_run import breakdown_key, strategy_lines
from factprobe.eval.analysis.loaded_runs import LoadedRun
from factprobe.eval.report.html.figures import save_figure
from factprobe.eval.report.reliability import HIDDEN_BIN_MAX_ROWS, drawn_bins

DPI = 130


def _figure(width: float, height: float, **subplot: Any) -> tuple[Figure, Any]:
    figure = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(figure)
    return figure, figure.add_subplot(**subplot)


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.+-]+", "_", text)


Line = list[tuple[LoadedRun, str]]


def line_label(run: LoadedRun, strategy: str, title: str) -> str:
    """The run's name, with its strategy when that is not the figure's."""
    return run.name if strategy == title else f"{run.name}: {strategy}"


def run_slope(run: LoadedRun, strategy: str) -> float | None:
    """The run's weighted average slope of the strategy's verbal confidences (its summary's
    `calibration.<strategy>.verbal.slope`), None when it has none."""
    entry = ((run.summary.get("calibration") or {}).get(strategy) or {}).get("verbal") or {}
    slope = entry.get("slope") if isinstance(entry, dict) else None
    return float(slope) if isinstance(slope, (int, float)) and not isinstance(slope, bool) else None


def reliability_overlay(line: Line, title: str) -> Figure | None:
    """Every run's reliability bins of its strategy in `line` in one panel; None when no run has
    confidences."""
    figure, axis = _figure(5.0, 5.0)
    axis.plot([0, 1], [0, 1], linestyle="--", color="grey", linewidth=1, label="perfect calibration")
    drawn = False
    for index, (run, strategy) in enumerate(line):
        bins = [b for b in (run.summary.get("reliability") or {}).get(strategy) or [] if b.get("n")]
        if not bins:
            continue
        drawn = True
        color, name = f"C{index % 10}", line_label(run, strategy, title)
        n = np.array([b["n"] for b in bins], dtype=float)
        confidence = np.array([b["confidence_mean"] for b in bins], dtype=float)
        accuracy = np.array([b["accuracy"] for b in bins], dtype=float)
        sizes = 20 + 200 * n / n.max()
        shown = drawn_bins(n)
        axis.plot(confidence, accuracy, color=color, linewidth=0.8, alpha=0.5)
        axis.scatter(confidence[shown], accuracy[shown], s=sizes[shown], color=color, edgecolor="black",
                     alpha=0.8, zorder=3, label=f"{name} (n={int(n.sum())})" if shown.any() else None)
        axis.scatter(confidence[~shown], accuracy[~shown], s=sizes[~shown], facecolor="none", edgecolor=color,
                     zorder=3, label=None if shown.any() else f"{name} (n={int(n.sum())})")
        slope = run_slope(run, strategy)
        if slope is not None:   # WorldVQA Fig. 5: each model's weighted average slope as a dashed line
            axis.plot([0, 1], [0, slope], color=color, linestyle="--", linewidth=1.2,
                      label=f"{name}: slope {slope:.2f}")
    if not drawn:
        return None
    axis.set(xlim=(0, 1), ylim=(0, 1), xlabel="stated confidence", ylabel="accuracy", aspect="equal")
    axis.set_title(f"Reliability of {title} across runs\n(filled: bins with > {HIDDEN_BIN_MAX_ROWS} rows; "
                   "hollow: the rest, which WorldVQA hides)", fontsize=9)
    axis.legend(loc="upper left", fontsize=7)
    return figure


def score_table(run: LoadedRun, strategy: str) -> dict[str, Any]:
    """{label: scores} of the run's strategy: by its `--group-by` groups when it has them, else by category."""
    groups = run.summary.get("groups") or {}
    if groups.get("by") and "strategies" in groups:
        return groups["strategies"].get(strategy) or {}
    return (run.summary.get("per_category") or {}).get(strategy) or {}


def category_scores(line: Line, title: str) -> tuple[list[str], dict[str, list[float]]]:
    """The categories (or groups) any run of `line` scored, and each run's F per one (NaN where absent)."""
    tables = {line_label(run, strategy, title): score_table(run, strategy) for run, strategy in line}
    categories = sorted({category for table in tables.values() for category in table})
    values = {name: [np.nan if (table.get(c) or {}).get("f_score") is None else table[c]["f_score"]
                     for c in categories] for name, table in tables.items() if table}
    return categories, values


def category_chart(line: Line, title: str, by: str = "category") -> Figure | None:
    """F per category (or group) of every run: a radar from three categories on, grouped bars below."""
    categories, values = category_scores(line, title)
    if not categories or len(values) < 2:
        return None
    if len(categories) >= 3:
        figure, axis = _figure(5.5, 5.5, projection="polar")
        angles = np.linspace(0, 2 * np.pi, len(categories), endpoint=False)
        for index, (name, scores) in enumerate(values.items()):
            closed = np.append(100 * np.asarray(scores), 100 * scores[0])
            axis.plot(np.append(angles, angles[0]), closed, color=f"C{index % 10}", label=name)
        axis.set_xticks(angles, categories, fontsize=8)
        axis.set_ylim(0, 100)
    else:
        figure, axis = _figure(5.5, 4.0)
        width = 0.8 / len(values)
        for index, (name, scores) in enumerate(values.items()):
            axis.bar(np.arange(len(categories)) + index * width, 100 * np.asarray(scores), width, label=name)
        axis.set_xticks(np.arange(len(categories)) + 0.4 - width / 2, categories)
        axis.set(ylabel="F (%)", ylim=(0, 100))
    axis.set_title(f"F per {by}: {title}", fontsize=9)
    axis.legend(loc="lower right", fontsize=7, bbox_to_anchor=(1.1, -0.12))
    return figure


def delta_rows(data: dict[str, Any]) -> list[tuple[str, float, float | None, float | None]]:
    """(label, ΔF, CI low, CI high) per pair and per pair × category, in points."""
    rows = []
    for pair in data["pairs"]:
        label = f"{pair['run']}: {pair['strategy']}"
        if pair["strategy"] != pair["baseline_strategy"]:
            label += f" vs {pair['baseline_strategy']}"
        entries = [(label, pair)]
        parts = pair[breakdown_key(data)]
        if len(parts) > 1:
            entries += [(f"· {category}", entry) for category, entry in parts.items()]
        for text, entry in entries:
            if entry["f_score_delta"] is not None:
                rows.append((text, entry["f_score_delta"], entry["ci_low"], entry["ci_high"]))
    return rows


def delta_chart(data: dict[str, Any]) -> Figure | None:
    """ΔF of each run against the baseline run, with 95% CIs."""
    rows = delta_rows(data)
    if not rows:
        return None
    figure, axis = _figure(6.0, 1.2 + 0.32 * len(rows))
    y = np.arange(len(rows))[::-1]
    delta = 100 * np.array([row[1] for row in rows])
    low = np.array([100 * row[2] if row[2] is not None else np.nan for row in rows])
    high = np.array([100 * row[3] if row[3] is not None else np.nan for row in rows])
    axis.errorbar(delta, y, xerr=np.nan_to_num(np.vstack([delta - low, high - delta])), fmt="o", capsize=3)
    axis.axvline(0, color="grey", linewidth=1, linestyle="--")
    axis.set_yticks(y, [row[0] for row in rows], fontsize=8)
    axis.set(xlabel=f"ΔF vs {data['baseline']} (points, 95% CI)")
    axis.set_title("Paired ΔF across runs", fontsize=9)
    return figure


def calibration_delta_chart(data: dict[str, Any]) -> Figure | None:
    """ΔECE and Δover of each run against the baseline run, with 95% CIs; None when no pair has them."""
    pairs = [pair for pair in data["pairs"] if pair.get("ece_delta") is not None]
    if not pairs:
        return None
    figure = Figure(figsize=(8.0, 1.4 + 0.32 * len(pairs)), layout="constrained")
    FigureCanvasAgg(figure)
    y = np.arange(len(pairs))[::-1]
    labels = [f"{pair['run']}: {pair['strategy']}" for pair in pairs]
    for index, (key, name) in enumerate((("ece_delta", "ΔECE"), ("over_delta", "Δover"))):
        axis = figure.add_subplot(1, 2, index + 1)
        delta = 100 * np.array([pair[key] for pair in pairs])
        low = np.array([np.nan if pair[f"{key}_ci_low"] is None else 100 * pair[f"{key}_ci_low"] for pair in pairs])
        high = np.array([np.nan if pair[f"{key}_ci_high"] is None else 100 * pair[f"{key}_ci_high"] for pair in pairs])
        axis.errorbar(delta, y, xerr=np.nan_to_num(np.vstack([delta - low, high - delta])), fmt="o", capsize=3)
        axis.axvline(0, color="grey", linewidth=1, linestyle="--")
        axis.set_yticks(y, labels if index == 0 else [""] * len(pairs), fontsize=8)
        axis.set(xlabel=f"{name} vs {data['baseline']} (points, 95% CI)")
    figure.suptitle("Paired calibration differences across runs (below 0: better calibrated, less overconfident)",
                    fontsize=9)
    return figure


def figure_folder(out: Path) -> Path:
    """The folder of the figures of the page `out`: `<out stem>_files` beside it."""
    return out.with_name(f"{out.stem}_files")


def compare_figures(runs: list[LoadedRun], data: dict[str, Any], out: Path) -> list[Path]:
    """Draw every cross-run figure as `<name>.png` (and .svg) in `figure_folder(out)`; their paths.
    Each reliability overlay and radar follows one baseline strategy and the strategy each run
    paired with it (cross_run.strategy_lines)."""
    by_name = {run.name: run for run in runs}
    by = " / ".join(data.get("group_by") or []) or "category"
    figures: list[tuple[str, Figure | None]] = [("delta_f", delta_chart(data)),
                                                ("delta_calibration", calibration_delta_chart(data))]
    for title, paired in strategy_lines(data).items():
        line = [(by_name[name], strategy) for name, strategy in paired.items()]
        figures.append((f"reliability_{_slug(title)}", reliability_overlay(line, title)))
        figures.append((f"per_category_{_slug(title)}", category_chart(line, title, by)))
    folder = figure_folder(out)
    folder.mkdir(parents=True, exist_ok=True)
    return [save_figure(figure, folder / f"{name}.png", DPI) for name, figure in figures if figure is not None]
