"""Multiple-choice table: accuracy beside chance and how answers were mapped to letters."""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Console

from factprobe.eval.core.format import pct
from factprobe.eval.report.build import report_table
from factprobe.eval.report.tables.literal import LiteralTable


# multiple-choice accuracy beside chance is the headline of MMWorld / WorldSense-like runs (MM-SAP's is
# its self-awareness table)
@report_table(order=90, lead=lambda summary: bool(summary.get("multiple_choice")) and not summary.get("self_awareness"))
def multiple_choice_table(summary: dict[str, Any], console: Console) -> None:
    scores = summary.get("multiple_choice") or {}
    if not scores:
        return
    table = LiteralTable(title="Multiple choice (% of rows; letters mapped by rule, else by the model)",
                  box=box.SIMPLE_HEAD)
    for column in ("strategy", "n", "accuracy", "chance", "by rule", "by model", "unmapped", "refused"):
        table.add_column(column, justify="left" if column == "strategy" else "right")
    for name, entry in scores.items():
        table.add_row(name, str(entry["n"]), pct(entry["accuracy"]), pct(entry["chance"]),
                      str(entry["mapped_by_rule"]), str(entry["mapped_by_model"]), str(entry["unmapped"]),
                      str(entry["refused"]))
    console.print(table)
