"""gains.png: ΔF and Δaccuracy of every strategy against the baseline with their 95% CIs (summary
`gains`); `draw_gains` is also `factprobe.plot_gains` on the user's own axes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from factprobe.eval.core.schema import Result
from factprobe.eval.report.build import report_plot
from factprobe.eval.report.html.figures import save_figure
from factprobe.eval.report.tables.undecided import gap_points


def draw_gains(summary: dict[str, Any], ax: Any, key: str = "f_score_delta") -> Any:
    """ΔF (or `key="accuracy_delta"`) of every strategy against the baseline, with its 95% CI; a strategy
    whose undecided share differs from the baseline's by more than 5 points is annotated (part of its Δ
    is the grader's)."""
    gains = summary.get("gains") or {}
    low_key, high_key = ("ci_low", "ci_high") if key == "f_score_delta" else ("accuracy_ci_low", "accuracy_ci_high")
    names = [name for name, gain in gains.items() if gain.get(key) is not None]
    for y, name in enumerate(names):
        gain = gains[name]
        ax.plot([100 * gain[key]], [y], "o", color="tab:blue")
        if gain.get(low_key) is not None:
            ax.hlines(y, 100 * gain[low_key], 100 * gain[high_key], color="tab:blue")
        points = gap_points(gain)
        if points is not None:   # the two sides' undecided shares differ by more than 5 points
            ax.annotate(f"undecided shares differ by {points:.1f} pts", (100 * gain[key], y), xytext=(0, 5),
                        textcoords="offset points", ha="center", fontsize=7, color="tab:red")
    ax.axvline(0, color="grey", linestyle="--", linewidth=1)
    ax.set_yticks(range(len(names)), names)
    label = "ΔF" if key == "f_score_delta" else "Δaccuracy"
    ax.set_xlabel(f"{label} vs {summary.get('baseline')} (points, 95% CI)")
    return ax


@report_plot(order=5)
def gains_plot(summary: dict[str, Any], rows: list[Result], out: Path) -> Path | None:
    """gains.png: ΔF and Δaccuracy side by side; None without a strategy besides the baseline."""
    gains = summary.get("gains") or {}
    if not any(gain.get("f_score_delta") is not None for gain in gains.values()):
        return None
    figure = Figure(figsize=(9.0, 1.4 + 0.4 * len(gains)), layout="constrained")
    FigureCanvasAgg(figure)
    left, right = figure.subplots(1, 2, sharey=True)
    draw_gains(summary, left)
    draw_gains(summary, right, "accuracy_delta")
    figure.suptitle("Paired gains over the baseline (bootstrap over questions)", fontsize=10)
    return save_figure(figure, out / "gains.png", 130)
