"""Test-time-compute table: accuracy, F-score and tokens at each N (best_of_n) or round (self_refine)."""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Console

from factprobe.eval.core.format import num, pct
from factprobe.eval.report.build import report_table
from factprobe.eval.report.tables.literal import LiteralTable


def add_curve(table: LiteralTable, name: str, label: str, curve: dict[str, Any]) -> None:
    failed = curve.get("pick_failed") or [None] * len(curve["n"])
    for i, size in enumerate(curve["n"]):
        table.add_row(name if i == 0 else "", label if i == 0 else "", str(size), str(curve["rows"][i]),
                      pct(curve["accuracy"][i]), pct(curve["f_score"][i]), num(curve["tokens_mean"][i], 0),
                      "" if failed[i] is None else str(failed[i]))


@report_table(order=40)
def ttc_table(summary: dict[str, Any], console: Console) -> None:
    curves = summary.get("ttc") or {}
    if not curves:
        return
    table = LiteralTable(title="Test-time compute (answerable questions, from the recorded samples)",
                  box=box.SIMPLE_HEAD, padding=(0, 0))
    for column in ("strategy", "selection", "N/round", "rows", "CO", "F", "tokens", "pick failed"):
        table.add_column(column, justify="left" if column in ("strategy", "selection") else "right",
                         no_wrap=True)
    for name, curve in curves.items():
        add_curve(table, name, curve["selector"] if curve.get("unit") == "samples" else "rounds", curve)
        for other, alt in (curve.get("other_selectors") or {}).items():
            add_curve(table, "", f"{other}*", alt)
    table.caption = ("N/round: samples drawn (best_of_n) or refinement rounds (self_refine); "
                     "tokens: mean per question to reach that point; * selector applied offline")
    console.print(table)
