"""The "Across repeats" table: summary['repeats'] per strategy, overall and per category, as
mean ± sd over the repeats with each repeat's accuracy (MMWorld's Table 5). Printed only when a
strategy ran more than one repeat."""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Console

from factprobe.eval.core.format import pct
from factprobe.eval.report.build import report_table
from factprobe.eval.report.tables.literal import LiteralTable


def mean_sd(entry: dict[str, Any], key: str) -> str:
    """`key`_mean ± `key`_std in percent; the mean alone without a std; – when the key is absent."""
    if f"{key}_mean" not in entry:
        return "–"
    mean, std = entry[f"{key}_mean"], entry[f"{key}_std"]
    return pct(mean) if std is None else f"{pct(mean)}±{pct(std)}"


def per_repeat(entry: dict[str, Any]) -> str:
    return " ".join(pct(r["accuracy"]) for r in entry.get("per_repeat", []))


@report_table(order=17)
def repeats_table(summary: dict[str, Any], console: Console) -> None:
    repeats = summary.get("repeats") or {}
    if max((entry.get("n_repeats", 1) for entry in repeats.values()), default=1) < 2:
        return
    table = LiteralTable(title="Across repeats (answerable questions, % of graded)", box=box.SIMPLE_HEAD)
    for column in ("strategy", "category", "repeats", "CO mean±sd", "F mean±sd", "CO per repeat"):
        table.add_column(column, justify="left" if column in ("strategy", "category") else "right")
    for strategy, entry in repeats.items():
        groups = [("all", entry), *(entry.get("per_category") or {}).items()]
        for label, group in groups:
            table.add_row(strategy, label, str(group["n_repeats"]), mean_sd(group, "accuracy"),
                          mean_sd(group, "f_score"), per_repeat(group))
    table.caption = ("sd: sample standard deviation over the repeats whose score is defined; F is left out "
                     "(–) for multiple-choice categories")
    console.print(table)
