"""taxonomy.png: one stacked bar per strategy, its INCORRECT answers split by kind of error."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen first)

from factprobe.eval.core.schema import Result  # noqa: E402
from factprobe.eval.report.build import report_plot  # noqa: E402
from factprobe.eval.report.html.figures import save_figure  # noqa: E402
from factprobe.eval.taxonomy.classify import KINDS, UNCLASSIFIED  # noqa: E402

STACK = (*KINDS, UNCLASSIFIED, "pending")


@report_plot(order=60)
def taxonomy_plot(summary: dict[str, Any], rows: list[Result], out_dir: Path) -> Path | None:
    counts = summary.get("taxonomy") or {}
    if not counts:
        return None
    names = list(counts)
    fig, ax = plt.subplots(figsize=(max(4.0, 1.2 * len(names) + 2), 4))
    bottoms = [0] * len(names)
    for kind in STACK:
        heights = [counts[name].get(kind, 0) for name in names]
        if not any(heights):
            continue
        ax.bar(names, heights, bottom=bottoms, label=kind)
        bottoms = [b + h for b, h in zip(bottoms, heights)]
    ax.set_ylabel("INCORRECT answers")
    ax.set_title("kinds of error (judge: " + ", ".join(sorted({j for c in counts.values()
                                                                for j in c.get("judges", []) if j})) + ")")
    ax.legend(fontsize=8)
    fig.tight_layout()
    path = out_dir / "taxonomy.png"
    save_figure(fig, path, dpi=120)
    plt.close(fig)
    return path
