"""A paired difference and its interval as one table cell, for keys named `<key>`, `<key>_ci_low`,
`<key>_ci_high` (the calibration differences within a run and across runs)."""

from __future__ import annotations

from typing import Any

from factprobe.eval.report.tables.scores import signed_pct


def delta_cell(entry: dict[str, Any] | None, key: str) -> str:
    """`entry[key]` in points with its 95% CI: "+1.2 [-0.5,+3.0]"; "–" when there is no value."""
    if entry is None or entry.get(key) is None:
        return "–"
    low, high = entry.get(f"{key}_ci_low"), entry.get(f"{key}_ci_high")
    interval = "" if low is None or high is None else f" [{signed_pct(low)},{signed_pct(high)}]"
    return signed_pct(entry[key]) + interval
