"""`<FILE stem>_self_awareness.png` of `factprobe compare … --html FILE` (MM-SAP Fig. 5): score_ku
(vertical axis) against score_kk (horizontal axis), as the paper draws them, of every run and
strategy with a self-awareness section, one point each, over
dashed isolines of score_sa = score_kk + score_ku (a point further up and right is more self-aware).
Scores are the runs' own `self_awareness.<strategy>` (eval.self_awareness.section), in percent; a
strategy whose scores are undefined (no determined row) is left out and named in the title."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

from factprobe.eval.report.html.figures import save_figure

ISOLINES = range(10, 101, 10)   # score_sa in percent
DPI = 130


class HasSummary(Protocol):
    name: str

    @property
    def summary(self) -> dict[str, Any]: ...


def kk_ku_points(runs: Sequence[HasSummary]) -> tuple[list[tuple[str, float, float]], list[str]]:
    """(label, score_kk %, score_ku %) per run and strategy, and the labels left out (undefined)."""
    points, left_out = [], []
    for run in runs:
        scores = run.summary.get("self_awareness") or {}
        for strategy, entry in scores.items():
            label = f"{run.name}: {strategy}" if len(scores) > 1 else run.name
            if entry.get("score_kk") is None or entry.get("score_ku") is None:
                left_out.append(label)
                continue
            points.append((label, 100 * entry["score_kk"], 100 * entry["score_ku"]))
    return points, left_out


def kk_ku_figure(runs: Sequence[HasSummary]) -> Any:
    """The scatter (a matplotlib Figure), or None when no run has self-awareness scores."""
    points, left_out = kk_ku_points(runs)
    if not points:
        return None
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(5.5, 5.0), layout="constrained")
    FigureCanvasAgg(figure)
    axis = figure.add_subplot()
    top = min(100.0, 10 * (max(max(kk, ku) for _, kk, ku in points) // 10 + 2))
    for level in ISOLINES:
        axis.plot([0, level], [level, 0], color="grey", linestyle="--", linewidth=0.7)
        if level < 2 * top:
            axis.annotate(f"SA {level}%", (level / 2, level / 2), fontsize=7, color="grey", ha="left", va="bottom")
    for index, (label, kk, ku) in enumerate(points):
        axis.scatter([kk], [ku], s=50, color=f"C{index % 10}", edgecolor="black", zorder=3,
                     label=f"{label} (SA {kk + ku:.1f}%)")
    axis.set(xlim=(0, top), ylim=(0, top), xlabel="score_kk (%)", ylabel="score_ku (%)", aspect="equal")
    title = "Self-awareness: known unknowns against known knowns"
    if left_out:
        title += f"\n(undefined, left out: {', '.join(left_out)})"
    axis.set_title(title, fontsize=9)
    axis.legend(loc="upper right", fontsize=7)
    return figure


def self_awareness_figures(runs: Sequence[HasSummary], folder: Path) -> list[Path]:
    """The scatter as `self_awareness.png` (and .svg) in `folder`; [] without scores."""
    figure = kk_ku_figure(runs)
    if figure is None:
        return []
    folder.mkdir(parents=True, exist_ok=True)
    return [save_figure(figure, folder / "self_awareness.png", DPI)]
