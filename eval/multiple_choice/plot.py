"""multiple_choice.png: accuracy per strategy as bars, with each strategy's chance level as a line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen first)

from factprobe.eval.core.schema import Result  # noqa: E402
from factprobe.eval.report.build import report_plot  # noqa: E402
from factprobe.eval.report.html.figures import save_figure  # noqa: E402


@report_plot(order=70)
def multiple_choice_plot(summary: dict[str, Any], rows: list[Result], out_dir: Path) -> Path | None:
    scores = summary.get("multiple_choice") or {}
    if not scores:
        return None
    names = list(scores)
    fig, ax = plt.subplots(figsize=(max(4.0, 1.2 * len(names) + 2), 4))
    positions = range(len(names))
    ax.bar(positions, [100 * (scores[n]["accuracy"] or 0) for n in names], label="accuracy")
    for position, name in zip(positions, names):
        ax.hlines(100 * scores[name]["chance"], position - 0.4, position + 0.4, colors="black",
                  linestyles="--", label="chance" if position == 0 else "_nolegend_")
    ax.set_xticks(list(positions), names)
    ax.set_ylabel("% of multiple-choice rows")
    ax.set_ylim(0, 100)
    ax.legend(fontsize=8)
    fig.tight_layout()
    path = out_dir / "multiple_choice.png"
    save_figure(fig, path, dpi=120)
    plt.close(fig)
    return path
