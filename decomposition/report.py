"""Per-hop tables (like Video SimpleQA Table 4), decomposition quality, and the per-hop plot.

Each F-score cell shows its 95% bootstrap interval over questions beneath it; the pooled row
("all", from summary `per_hop_pooled`) puts every hop count together.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from rich.console import Console

from factprobe.eval.core.format import num, pct
from factprobe.eval.core.schema import Result
from factprobe.eval.report.build import report_plot, report_table
from factprobe.eval.report.html.figures import save_figure
from factprobe.eval.report.tables.literal import LiteralTable


def hop_counts(entries: dict[str, Any]) -> list[str]:
    """The hop-count keys of one strategy's entries, without the pooled one."""
    return [key for key in entries if key.isdigit()]


def hop_columns(per_hop: dict[str, dict[str, Any]]) -> int:
    """How many QA columns: the largest hop count in the run (at least 2)."""
    return max([2, *(int(k) for entries in per_hop.values() for k in hop_counts(entries))])


def f_with_ci(value: float | None, ci: list[float] | None) -> str:
    """'50.0' with its interval beneath, '50.0\n[20,80]'; '–' without a value."""
    if value is None or ci is None:
        return pct(value)
    return f"{pct(value)}\n[{pct(ci[0], 0)},{pct(ci[1], 0)}]"


def joint(entry: dict[str, Any], key: str) -> str:
    if not entry["n_joint"]:
        return "–"
    return f"{entry[key]}/{entry['n_joint']}"


def weakest(entry: dict[str, Any]) -> str:
    """'1' or '1,3' for the lowest-scoring hops; '=' when all hops score the same; '–' without scores."""
    if entry["weakest_hops"]:
        return ",".join(str(k) for k in entry["weakest_hops"])
    return "=" if any(f is not None for f in entry["hop_f_scores"]) else "–"


def table_row(label: str, hop_count: str, entry: dict[str, Any], width: int, final: dict[str, Any]) -> list[str]:
    intervals = entry.get("hop_f_score_cis") or [None] * len(entry["hop_f_scores"])
    scores = [f_with_ci(f, ci) for f, ci in zip(entry["hop_f_scores"], intervals)]
    scores += [""] * (width - len(scores))
    return [label, hop_count, str(entry.get("n", entry["n_with_hops"])), *scores,
            f_with_ci(final["final_f_score"], final.get("final_f_score_ci")),
            weakest(entry), joint(entry, "final_right_hop_wrong"),
            joint(entry, "final_wrong_all_hops_right")]


@report_table(order=60)
def per_hop_table(summary: dict[str, Any], console: Console) -> None:
    per_hop = summary.get("per_hop") or {}
    if not per_hop:
        return
    width = hop_columns(per_hop)
    table = LiteralTable(title="Per-hop F-score (%): sub-QA probes QA1..QAk (gold earlier answers; with the "
                        "strategy's retrieval for a retrieval strategy) and the multi-hop final answer, "
                        "each with its 95% bootstrap CI over questions; joint outcomes as count/rows "
                        "graded; hops 'all': every hop count pooled")
    table.add_column("strategy", no_wrap=True)
    for column in ("hops", "n", *(f"QA{i}" for i in range(1, width + 1)), "final", "weakest",
                   "✓final ✗hop", "✗final ✓hops"):
        table.add_column(column, justify="right")
    pooled = summary.get("per_hop_pooled") or {}
    for name, entries in per_hop.items():
        for hop_count, entry in [*entries.items(), *([("all", pooled[name])] if name in pooled else [])]:
            table.add_row(*table_row(name, hop_count, entry, width, entry))
            if "chain" in entry:
                table.add_row(*table_row(f"{name} (own hops)", hop_count, entry["chain"], width, entry))
        table.add_section()
    console.print(table)
    ids = [(name, hop_count, entries[hop_count]["final_right_hop_wrong_ids"]) for name, entries in per_hop.items()
           for hop_count in hop_counts(entries) if entries[hop_count]["final_right_hop_wrong_ids"]]
    for name, hop_count, labels in ids:
        console.print(f"final right, a probed hop wrong — {name}, {hop_count} hops: {', '.join(labels)}")


@report_table(order=70)
def decomposition_table(summary: dict[str, Any], console: Console) -> None:
    quality = summary.get("decomposition") or {}
    if not quality:
        return
    table = LiteralTable(title="Decomposition quality (rows with gold sub-QAs; %)")
    for column in ("strategy", "n", "decomposer", "fallback", "hops pred", "hops gold", "count match",
                   "hop answer match", "gold answers found"):
        table.add_column(column, justify="left" if column in ("strategy", "decomposer") else "right")
    for name, q in quality.items():
        table.add_row(name, str(q["n"]), ", ".join(q["decomposers"]), pct(q["fallback_rate"]),
                      num(q["predicted_hops_mean"], 1), num(q["gold_hops_mean"], 1),
                      pct(q["hop_count_match_rate"]), pct(q["hop_answer_match_rate"]),
                      pct(q["gold_answers_recovered_rate"]))
    console.print(table)


# below this many questions a bootstrap interval is mostly noise (at n = 2 it spans 0 to 100): no whisker
MIN_INTERVAL_ROWS = 10


def error_bars(heights: list[float], intervals: list[list[float] | None]) -> list[list[float]]:
    """Matplotlib's yerr (below, above) in percent; 0 where a bar or its interval is missing."""
    below, above = [], []
    for height, ci in zip(heights, intervals):
        if ci is None or math.isnan(height):
            below.append(0.0)
            above.append(0.0)
            continue
        below.append(max(0.0, height - 100 * ci[0]))
        above.append(max(0.0, 100 * ci[1] - height))
    return [below, above]


@report_plot(order=20)
def per_hop_plot(summary: dict[str, Any], rows: list[Result], out_dir: Path) -> Path | None:
    """per_hop.png: one panel per hop count; bars are hop F-scores (probes) and the final F-score, with
    their intervals as whiskers where a strategy has MIN_INTERVAL_ROWS rows of that hop count."""
    per_hop = summary.get("per_hop") or {}
    counts = sorted({int(k) for entries in per_hop.values() for k in hop_counts(entries)})
    if not counts:
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = list(per_hop)
    figure, axes = plt.subplots(1, len(counts), figsize=(3.2 * len(counts) + 2, 3.2),
                                squeeze=False, sharey=True)
    bar = 0.8 / len(names)
    for axis, hop_count in zip(axes[0], counts):
        labels = [f"QA{i}" for i in range(1, hop_count + 1)] + ["final"]
        for offset, name in enumerate(names):
            entry = per_hop[name].get(str(hop_count))
            if entry is None:
                continue
            values = [*entry["hop_f_scores"], entry["final_f_score"]]
            heights = [float("nan") if v is None else 100 * v for v in values]  # None: no bar
            intervals = [*(entry.get("hop_f_score_cis") or [None] * hop_count), entry.get("final_f_score_ci")]
            if entry.get("n", entry.get("n_with_hops", 0)) < MIN_INTERVAL_ROWS:
                intervals = [None] * len(intervals)
            errors = error_bars(heights, intervals) if any(intervals) else None   # None: no whisker at all
            xs = [i + offset * bar - 0.4 + bar / 2 for i in range(len(labels))]
            axis.bar(xs, heights, width=bar, label=name, yerr=errors, capsize=2)
        axis.set_xticks(range(len(labels)), labels)
        rows_here = max(entries.get(str(hop_count), {}).get("n", 0) for entries in per_hop.values())
        axis.set_title(f"{hop_count}-hop (n={rows_here})")
        axis.set_ylim(0, 100)
    axes[0][0].set_ylabel("F-score (%)")
    handles, legend_labels = axes[0][0].get_legend_handles_labels()
    figure.legend(handles, legend_labels, loc="center right", fontsize="small")
    figure.suptitle("Sub-QA probe F-score per hop vs final answer\n(whiskers: 95% CI over questions, where "
                    f"n ≥ {MIN_INTERVAL_ROWS})", fontsize="medium")
    figure.tight_layout(rect=(0, 0, 0.85, 1))
    path = out_dir / "per_hop.png"
    save_figure(figure, path, dpi=100)
    plt.close(figure)
    return path
