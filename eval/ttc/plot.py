"""ttc.png: accuracy and F-score against samples (best_of_n) or rounds (self_refine); a strategy
whose curve has no value (every sample UNGRADED, as option letters are to the free-text grader) is
left out of the figure (a log axis of no point cannot be drawn), and with no curve there is none."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen first)

from factprobe.eval.core.schema import Result  # noqa: E402
from factprobe.eval.report.build import report_plot  # noqa: E402
from factprobe.eval.report.html.figures import save_figure  # noqa: E402


def percent(values: list[float | None]) -> list[float]:
    return [float("nan") if v is None else 100 * v for v in values]


def has_values(curve: dict[str, Any]) -> bool:
    return any(value is not None for key in ("accuracy", "f_score") for value in curve.get(key) or [])


@report_plot(order=10)
def ttc_plot(summary: dict[str, Any], rows: list[Result], out_dir: Path) -> Path | None:
    curves = {name: curve for name, curve in (summary.get("ttc") or {}).items() if has_values(curve)}
    if not curves:
        return None
    baseline = summary.get("baseline")
    base_scores = summary.get("strategies", {}).get(baseline, {}) if baseline not in curves else {}
    fig, axes = plt.subplots(1, len(curves), figsize=(5 * len(curves), 4.8), squeeze=False)
    for ax, (name, curve) in zip(axes[0], curves.items()):
        x = curve["n"]
        # a solid line of filled dots and a dashed line of larger hollow squares: where accuracy and F
        # coincide (no answer withheld) both stay visible
        ax.plot(x, percent(curve["accuracy"]), marker="o", markersize=5, linestyle="-", label="accuracy (CO)")
        ax.plot(x, percent(curve["f_score"]), marker="s", markersize=9, markerfacecolor="none", linestyle="--",
                label="F-score")
        for number, (other, alt) in enumerate((curve.get("other_selectors") or {}).items()):
            ax.plot(alt["n"], percent(alt["accuracy"]), marker="^v<>"[number % 4], linestyle=":",
                    label=f"accuracy, {other} (offline)")
        if base_scores.get("accuracy") is not None:
            ax.axhline(100 * base_scores["accuracy"], color="grey", linestyle="--", label=f"{baseline} accuracy")
        if curve.get("unit") == "samples":
            ax.set_xscale("log", base=2)
            ax.set_xlabel(f"samples N (selector: {curve['selector']})")
        else:
            ax.set_xlabel("refinement round")
        ax.set_xticks(x, [str(v) for v in x])
        ax.set_ylabel("% of graded answerable")
        ax.set_ylim(0, 100)
        ax.set_title(name)
        ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.16), frameon=False)
    fig.tight_layout()
    path = out_dir / "ttc.png"
    save_figure(fig, path, dpi=120)
    plt.close(fig)
    return path
