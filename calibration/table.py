"""The terminal reliability table: one line per strategy and confidence method."""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table

from factprobe.eval.core.format import num, pct
from factprobe.eval.report.build import report_table


def _with_ci(value: float | None, ci: list[float] | None) -> str:
    if value is None:
        return "–"
    if ci is None:
        return pct(value)
    return f"{pct(value)} [{pct(ci[0], 0)}, {pct(ci[1], 0)}]"


@report_table(order=80)
def calibration_table(summary: dict[str, Any], console: Console) -> None:
    calibration = summary.get("calibration") or {}
    if not calibration:
        return
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True,
                  title="Calibration: CORRECT vs INCORRECT, answerable questions, raw confidences",
                  caption="cov: share of eligible rows with a value; ECE over ten (lo, hi] bins, plug-in "
                          "(biased up by sampling noise); dECE: debiased calibration error (Kumar et al. "
                          "2019, ℓ2, signed root; ≤ 0: no error detectable); ECE/dECE/MCE/over in %, with "
                          "95% bootstrap CIs; NA: not-attempted rows excluded")
    for column in ("strategy", "method", "n", "cov", "ECE [CI]", "dECE [CI]", "MCE", "Brier", "slope",
                   "AUROC", "over", "NA"):
        left = column in ("strategy", "method")
        table.add_column(column, justify="left" if left else "right", no_wrap=left or "[CI]" in column)
    for strategy, methods in calibration.items():
        for position, (method, m) in enumerate(methods.items()):
            counts = m["counts"]
            table.add_row(strategy if position == 0 else "", method, str(counts["used"]),
                          pct(counts["coverage"], 0), _with_ci(m["ece"], m.get("ece_ci")),
                          _with_ci(m.get("ece_debiased"), m.get("ece_debiased_ci")), pct(m["mce"]),
                          num(m["brier"], 3), num(m["slope"], 2), num(m["auroc"], 2),
                          pct(m["overconfidence"]), str(counts["excluded_not_attempted"]))
        table.add_section()
    console.print(table)
