"""Self-awareness table (MM-SAP): knowledge quadrant scores per strategy (eval.sections.self_awareness)."""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Console

from factprobe.eval.core.format import pct
from factprobe.eval.report.build import report_table
from factprobe.eval.report.tables.literal import LiteralTable


@report_table(order=50, lead=lambda summary: bool(summary.get("self_awareness")))
def self_awareness_table(summary: dict[str, Any], console: Console) -> None:
    scores = summary.get("self_awareness") or {}
    if not scores:
        return
    table = LiteralTable(title="Self-awareness (MM-SAP, % of all questions)", box=box.SIMPLE_HEAD,
                  padding=(0, 0))
    for column in ("strategy", "n", "unans.", "KK", "KU", "SA", "ans. rate", "ans. acc", "UK/quest.",
                   "UK/refusal", "undet.", "excl."):
        table.add_column(column, justify="left" if column == "strategy" else "right", no_wrap=True)
    for name, s in scores.items():
        table.add_row(name, str(s["n"]), str(s["n_unanswerable"]), pct(s["score_kk"]), pct(s["score_ku"]),
                      pct(s["score_sa"]), pct(s["answer_rate"]), pct(s["answer_accuracy"]),
                      pct(s["unknown_knowns_rate"]), pct(s.get("unknown_knowns_per_refusal")), str(s["undetermined"]),
                      str(s["excluded"]))
    table.caption = ("KK known knowns (answered correctly), KU known unknowns (refused and wrong when "
                     "forced, or unanswerable; a refused BasicVisQA question never: MM-SAP's rule), SA = KK + KU; "
                     "UK/quest.: refused but correct when forced, % of answerable (BasicVisQA left out; Eq. 8); "
                     "UK/refusal: the same, % of the refusals of those questions (Table 4); undet.: "
                     "refused without a usable forced re-ask; excl.: ungraded/errors")
    console.print(table)
