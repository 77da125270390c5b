"""`entity_frequency.png` of `factprobe difficulty … --entity-counts FILE --plot DIR` (WorldVQA
Fig. 4): per difficulty tier, the items' entity frequency percentiles
(factprobe.eval.analysis.entity_frequency) as a density histogram, with the normal curve fitted to
them drawn over it."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from factprobe.eval.report.html.figures import save_figure

DPI = 130


def normal_density(x: float, mean: float, sd: float) -> float:
    return math.exp(-0.5 * ((x - mean) / sd) ** 2) / (sd * math.sqrt(2 * math.pi))


def frequency_figure(items: list[dict[str, Any]], summary: dict[str, Any], out: Path) -> Path | None:
    """`entity_frequency.png` (and .svg) in `out`: per tier, the items' percentiles as a density
    histogram with the fitted normal curve over it; None when no item matched."""
    groups = {name: [item["frequency_percentile"] for item in items if item.get("tier") == name
                     and item.get("frequency_percentile") is not None] for name in summary["per_tier"]}
    groups = {name: values for name, values in groups.items() if values}
    if not groups:
        return None
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(6.0, 4.0), layout="constrained")
    FigureCanvasAgg(figure)
    axis = figure.add_subplot()
    grid = [x / 2 for x in range(201)]
    for number, (name, values) in enumerate(groups.items()):
        color, fit = f"C{number % 10}", summary["per_tier"][name]
        axis.hist(values, bins=20, range=(0, 100), density=True, alpha=0.3, color=color)
        label = f"{name} (n={fit['n']})"
        if fit["sd"]:
            axis.plot(grid, [normal_density(x, fit["mean"], fit["sd"]) for x in grid], color=color,
                      label=f"{label}: mean {fit['mean']:.1f}, sd {fit['sd']:.1f}")
        else:
            axis.axvline(values[0], color=color, linestyle=":", label=label)
    axis.set(xlim=(0, 100), xlabel="entity frequency rank percentile (0 rarest, 100 most frequent)",
             ylabel="density")
    axis.set_title(f"Difficulty tiers against entity frequency ({summary['matched']} items matched, "
                   f"{summary['unmatched']} not)", fontsize=9)
    axis.legend(fontsize=7)
    out.mkdir(parents=True, exist_ok=True)
    return save_figure(figure, out / "entity_frequency.png", DPI)
