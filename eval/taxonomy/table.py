"""The taxonomy table printed by `factprobe taxonomy`: per kind, its count and share of the rows
classified, one pair of columns per strategy."""

from __future__ import annotations

from typing import Any

from rich import box

from factprobe.eval.core.format import pct
from factprobe.eval.report.tables.literal import LiteralTable
from factprobe.eval.taxonomy.kinds import PENDING, UNCLASSIFIED


def taxonomy_table(counts: dict[str, dict[str, Any]]) -> LiteralTable | None:
    """Rows: every kind, `unclassified`, `pending` and the total; columns: count and share (% of
    the strategy's INCORRECT and NOT_ATTEMPTED rows) per strategy. None without counts."""
    if not counts:
        return None
    first = next(iter(counts.values()))
    several = len(counts) > 1
    drawn = first.get("sample")
    whose = (f"a random sample of at most {drawn['per_value']} per {drawn['field']} value (seed {drawn['seed']}) "
             f"of the strategy's INCORRECT and NOT_ATTEMPTED answers" if drawn
             else "the strategy's INCORRECT and NOT_ATTEMPTED answers")
    table = LiteralTable(title=f"Kinds of error ({first['kind_set']})", box=box.SIMPLE_HEAD,
                  caption=f"share: % of {whose}; every NOT_ATTEMPTED answer counts as a refusal")
    table.add_column("kind")
    for strategy in counts:
        table.add_column(f"{strategy} count" if several else "count", justify="right")
        table.add_column(f"{strategy} share" if several else "share", justify="right")
    for kind in (*first["kinds"], UNCLASSIFIED, PENDING):
        if kind in (UNCLASSIFIED, PENDING) and not any(entry[kind] for entry in counts.values()):
            continue
        cells = []
        for entry in counts.values():
            cells += [str(entry.get(kind, 0)), pct(entry["shares"].get(kind, 0.0))]
        table.add_row(kind.replace("_", " "), *cells)
    table.add_section()
    table.add_row("total", *[cell for entry in counts.values() for cell in (str(entry["n"]), "100.0")])
    return table
