"""Plots as functions on the user's own matplotlib axes: `factprobe.plot_gains(run, ax=...)`, ….

Each takes a `Run` (or a run directory path), draws on `ax` (a new figure's axes when None) and
returns the axes, so a notebook can lay several runs out side by side or restyle them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from factprobe.eval.analysis.run_handle import Run, load_run


def _run(run: Run | str | Path) -> Run:
    return run if isinstance(run, Run) else load_run(run)


def _axes(ax: Any) -> Any:
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    return plt.figure(figsize=(5, 3.5)).add_subplot()


def plot_gains(run: Run | str | Path, ax: Any = None, key: str = "f_score_delta") -> Any:
    """ΔF (or `key="accuracy_delta"`) of every strategy against the baseline, with its 95% CI."""
    from factprobe.eval.report.gains_plot import draw_gains

    run = _run(run)
    return draw_gains(run.summary, _axes(ax), key)


def plot_reliability(run: Run | str | Path, strategy: str, method: str = "verbal", ax: Any = None) -> Any:
    """The reliability diagram of one strategy and confidence method (as in the report)."""
    from factprobe.calibration.plots import reliability_panel
    from factprobe.calibration.rows import calibration_set

    run, ax = _run(run), _axes(ax)
    rows = [row for row in run.results if row.strategy == strategy]
    if not rows:
        raise ValueError(f"strategy {strategy!r} is not in {run.path}")
    reliability_panel(ax, method, calibration_set(rows, method))
    return ax


def plot_ttc(run: Run | str | Path, strategy: str, ax: Any = None, metric: str = "accuracy") -> Any:
    """Accuracy (or `metric="f_score"`) against samples N or refinement round for one strategy."""
    run, ax = _run(run), _axes(ax)
    curve = (run.summary.get("ttc") or {}).get(strategy)
    if curve is None:
        raise ValueError(f"{run.path} has no test-time-compute curve for {strategy!r} "
                         f"(curves exist for best_of_n and self_refine)")
    values = [float("nan") if v is None else 100 * v for v in curve[metric]]
    ax.plot(curve["n"], values, marker="o", label=strategy)
    ax.set_xlabel("samples N" if curve.get("unit") == "samples" else "refinement round")
    ax.set_ylabel(f"{metric} (%)")
    return ax
