"""The "Scores by FIELD" table: summary['groups'] (`--group-by`, `--where`), CO/IN/NA/CGA/F per group."""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Console

from factprobe.eval.core.format import pct
from factprobe.eval.report.build import report_table
from factprobe.eval.report.tables.literal import LiteralTable, literal
from factprobe.eval.report.tables.undecided import UNDECIDED_CAPTION, any_undecided, f_range_cell


@report_table(order=15, lead=lambda summary: bool(summary.get("groups")))
def groups_table(summary: dict[str, Any], console: Console) -> None:
    groups = summary.get("groups")
    if not groups:
        return
    by = " × ".join(groups["by"]) or "all"
    where = f" where {groups['where']}" if groups.get("where") else ""
    if groups.get("error"):
        console.print("[yellow]warning:[/yellow] " + literal(f"scores by {by}{where}: {groups['error']}"))
        return
    undecided = any_undecided(s for entries in groups["strategies"].values() for s in entries.values())
    table = LiteralTable(title=f"Scores by {by}{where} (answerable questions, % of graded)", box=box.SIMPLE_HEAD)
    for column in ("strategy", by, "n", "CO", "IN", "NA", "CGA", "F", *(["undec."] if undecided else []), "excl."):
        table.add_column(column, justify="left" if column in ("strategy", by) else "right")
    for strategy, entries in groups["strategies"].items():
        for label, s in entries.items():
            table.add_row(strategy, label, str(s["n"]), pct(s["accuracy"]), pct(s["incorrect_rate"]),
                          pct(s["not_attempted_rate"]), pct(s["cga"]), f_range_cell(s, pct(s["f_score"]), " "),
                          *([pct(s.get("undecided_share"))] if undecided else []), str(s["ungraded"] + s["errors"]))
    table.caption = "a question with several labels in a field counts under each; excl.: ungraded + errors" + (
        f"; {UNDECIDED_CAPTION}" if undecided else "")
    console.print(table)
