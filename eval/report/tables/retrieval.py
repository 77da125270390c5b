"""Retrieval table: recall@k and MRR, and each strategy's latency split into LLM and retrieval time."""

from __future__ import annotations

from typing import Any

from rich.console import Console

from factprobe.eval.core.format import num, pct, ratio_x
from factprobe.eval.report.build import report_table
from factprobe.eval.report.tables.literal import LiteralTable


def _share(part: float | None, whole: float | None) -> float | None:
    return part / whole if part is not None and whole else None


@report_table(order=30)
def retrieval_table(summary: dict[str, Any], console: Console) -> None:
    strategies = summary.get("strategies", {})
    if not any(s.get("retrieval_latency_s_mean") or s.get("retrieval_n") for s in strategies.values()):
        return
    gains = summary.get("gains", {}) or {}
    table = LiteralTable(title="Retrieval: recall@k, MRR (% over questions with gold passages) and "
                        "latency split (means per question)")
    for column in ("strategy", "k", "n", "recall@k", "MRR", "LLM s", "retrieval ms", "retr. %", "time ×"):
        table.add_column(column, justify="left" if column == "strategy" else "right")
    for name, s in strategies.items():
        retrieval_s = s.get("retrieval_latency_s_mean")
        ratio = (gains.get(name) or {}).get("latency_ratio")
        table.add_row(name, str(s.get("retrieval_k") or "–"), str(s.get("retrieval_n", 0)),
                      pct(s.get("retrieval_recall_at_k")), pct(s.get("retrieval_mrr")),
                      num(s.get("llm_latency_s_mean")), num(None if retrieval_s is None else 1000 * retrieval_s, 1),
                      pct(_share(retrieval_s, s.get("latency_s_mean")), 2),
                      "base" if name == summary.get("baseline") else ratio_x(ratio))
    console.print(table)
    console.print("n: questions with gold passages that were retrieved for; time ×: mean latency "
                  "against the baseline on the same questions", style="dim")
