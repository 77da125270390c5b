"""sweep_<option>.png: F, ECE and mean latency against each option a sweep varies (Video SimpleQA
Fig. 10 model size, Fig. 11 frames; N of best-of-N), one line per strategy and per value of the
other varied options, with ΔF's 95% CI against the run's baseline as a band where the run has one."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from factprobe.eval.report.html.figures import save_figure

NOT_OPTIONS = frozenset(("cell", "strategy", "run_dir", "baseline", "exit_status", "dataset", "model", "n",
                         "accuracy", "incorrect_rate", "not_attempted_rate", "cga", "f_score", "ece",
                         "latency_s_mean", "f_score_delta", "ci_low", "ci_high", "p_value", "accuracy_delta",
                         "latency_ratio", "tokens_ratio"))
PANELS = (("f_score", "F (%)", 100), ("ece", "ECE (%)", 100), ("latency_s_mean", "latency per question (s)", 1))


def swept_options(rows: list[dict[str, Any]]) -> list[str]:
    """The options whose value differs between rows (dataset and model included when they vary)."""
    keys = list(dict.fromkeys(key for row in rows for key in row))
    varied = [key for key in keys if len({str(row.get(key)) for row in rows}) > 1]
    return [key for key in varied if key not in NOT_OPTIONS or key in ("dataset", "model")]


def _number(value: Any) -> float | None:
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def axis_positions(values: list[str]) -> tuple[dict[str, float], bool]:
    """x position of each value: the number itself when every value is one, else its rank."""
    numbers = {value: _number(value) for value in values}
    if all(number is not None for number in numbers.values()):
        return {value: float(number) for value, number in numbers.items()}, True   # type: ignore[arg-type]
    return {value: float(index) for index, value in enumerate(values)}, False


def sweep_figure(rows: list[dict[str, Any]], option: str, others: list[str]) -> Figure:
    values = list(dict.fromkeys(str(row.get(option)) for row in rows))
    position, numeric = axis_positions(values)
    lines: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        label = " ".join([row["strategy"], *(f"{key}={row.get(key)}" for key in others)])
        lines[label].append(row)
    figure = Figure(figsize=(4.2 * len(PANELS), 3.8), layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.subplots(1, len(PANELS))
    for index, (label, members) in enumerate(lines.items()):
        members = sorted(members, key=lambda row: position[str(row.get(option))])
        x = np.array([position[str(row.get(option))] for row in members])
        for axis, (key, title, scale) in zip(axes, PANELS):
            y = np.array([np.nan if row.get(key) is None else scale * row[key] for row in members], dtype=float)
            axis.plot(x, y, marker="o", color=f"C{index % 10}", label=label)
            if key == "f_score":
                base = y - np.array([np.nan if row.get("f_score_delta") is None else 100 * row["f_score_delta"]
                                     for row in members], dtype=float)
                low = np.array([np.nan if row.get("ci_low") is None else 100 * row["ci_low"] for row in members])
                high = np.array([np.nan if row.get("ci_high") is None else 100 * row["ci_high"] for row in members])
                if np.isfinite(low).any():
                    axis.fill_between(x, base + low, base + high, color=f"C{index % 10}", alpha=0.15, linewidth=0)
            axis.set(xlabel=option, ylabel=title)
    for axis in axes:
        if not numeric:
            axis.set_xticks(list(position.values()), list(position), rotation=20, fontsize=8)
    axes[0].legend(fontsize=7)
    figure.suptitle(f"Against {option} (band: baseline F + ΔF's 95% CI)", fontsize=10)
    return figure


def sweep_figures(rows: list[dict[str, Any]], folder: Path) -> list[Path]:
    """Draw sweep_<option>.png (and .svg) in `folder` for every varied option; their paths."""
    options = swept_options(rows)
    paths = []
    for option in options:
        name = re.sub(r"[^A-Za-z0-9_.+-]+", "_", option)
        paths.append(save_figure(sweep_figure(rows, option, [o for o in options if o != option]),
                                 folder / f"sweep_{name}.png", 130))
    return paths
