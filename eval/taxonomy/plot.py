"""taxonomy.png: one stacked bar per strategy, its INCORRECT and NOT_ATTEMPTED answers split by
kind of error (in % of those answers, the count on each segment)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen first)

from factprobe.eval.core.schema import Result  # noqa: E402
from factprobe.eval.report.build import report_plot  # noqa: E402
from factprobe.eval.report.html.figures import save_figure  # noqa: E402
from factprobe.eval.taxonomy.kinds import PENDING, UNCLASSIFIED  # noqa: E402


@report_plot(order=60)
def taxonomy_plot(summary: dict[str, Any], rows: list[Result], out_dir: Path) -> Path | None:
    """taxonomy.png: each strategy's shares of the kinds, stacked; None without taxonomy counts."""
    counts = summary.get("taxonomy") or {}
    if not counts:
        return None
    names = list(counts)
    first = next(iter(counts.values()))
    kinds = list(first.get("kinds", ()))
    palette = plt.get_cmap("tab10")
    colours = {**{kind: palette(index % 10) for index, kind in enumerate(kinds)},
               UNCLASSIFIED: "#9e9e9e", PENDING: "#dddddd"}
    fig, ax = plt.subplots(figsize=(max(4.5, 1.2 * len(names) + 3), 4))
    bottoms = [0.0] * len(names)
    for kind in (*kinds, UNCLASSIFIED, PENDING):
        shares = [100 * counts[name].get("shares", {}).get(kind, 0.0) for name in names]
        if not any(shares):
            continue
        bars = ax.bar(names, shares, bottom=bottoms, label=kind.replace("_", " "),
                      color=colours[kind])
        ax.bar_label(bars, labels=[str(counts[name].get(kind, 0)) if share else "" for name, share
                                   in zip(names, shares)], label_type="center", fontsize=7)
        bottoms = [b + s for b, s in zip(bottoms, shares)]
    ax.set_ylabel("% of INCORRECT + NOT_ATTEMPTED")
    ax.set_ylim(0, 100)
    judges = sorted({j for c in counts.values() for j in c.get("judges", []) if j})
    ax.set_title(f"kinds of error ({first.get('kind_set', 'default')})\njudge: {', '.join(judges)}", fontsize=9)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.tight_layout()
    path = out_dir / "taxonomy.png"
    save_figure(fig, path, dpi=120)
    plt.close(fig)
    return path
