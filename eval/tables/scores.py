"""The main table: SimpleQA scores and costs per strategy."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

from eval.format import num, pct
from eval.report import report_table


@report_table
def scores_table(summary: dict[str, Any], console: Console) -> None:
    table = Table(title="SimpleQA scores (answerable questions; % of graded)")
    for column in ("strategy", "n", "CO", "IN", "NA", "CGA", "F", "ungraded", "errors",
                   "latency s", "p95 s", "tokens", "calls"):
        table.add_column(column, justify="left" if column == "strategy" else "right")
    for name, s in summary["strategies"].items():
        tokens = None
        if s.get("prompt_tokens_mean") is not None:
            tokens = s["prompt_tokens_mean"] + s["completion_tokens_mean"]
        table.add_row(name, str(s["n"]), pct(s["accuracy"]), pct(s["incorrect_rate"]),
                      pct(s["not_attempted_rate"]), pct(s["cga"]), pct(s["f_score"]),
                      str(s["ungraded"]), str(s["errors"]), num(s["latency_s_mean"]),
                      num(s["latency_s_p95"]), num(tokens, 0), num(s["llm_calls_mean"], 1))
    console.print(table)
