"""The input-setting table: each strategy in a setting (frames, caption, …) against the same
strategy in the reference setting, from summary['modality_gains'] (paired over the same questions
and repeats, as the main table's gains)."""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Console

from factprobe.eval.core.format import pct
from factprobe.eval.report.build import report_table
from factprobe.eval.report.tables.literal import LiteralTable
from factprobe.eval.report.tables.scores import gain_cell, p_cell, pairs_cell, times


@report_table(order=20)
def modality_table(summary: dict[str, Any], console: Console) -> None:
    gains = summary.get("modality_gains") or {}
    if not gains:
        return
    table = LiteralTable(title="Input settings vs the reference setting (answerable questions, % of graded)",
                  box=box.SIMPLE_HEAD, padding=(0, 1))
    for column in ("variant", "reference", "acc", "ref acc", "ΔF\n[95% CI]", "p", "Δacc\n[95% CI]", "p acc",
                   "pairs/\nq", "tok×"):
        table.add_column(column, justify="left" if column in ("variant", "reference") else "right", no_wrap=True)
    for name, gain in gains.items():
        table.add_row(name, gain["reference"], pct(gain.get("accuracy")), pct(gain.get("baseline_accuracy")),
                      gain_cell(gain), p_cell(gain), gain_cell(gain, "accuracy_"), p_cell(gain, "accuracy_"),
                      pairs_cell(gain), times(gain.get("tokens_ratio")))
    console.print(table)
