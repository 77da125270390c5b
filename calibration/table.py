"""The terminal calibration tables: one line per strategy and confidence method, and the paired
differences of calibration (ΔECE, Δover) of every strategy against the baseline."""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Console

from factprobe.calibration.metrics import N_BINS
from factprobe.calibration.summary import HIGH_CONFIDENCE
from factprobe.eval.core.format import num, pct
from factprobe.eval.report.build import report_table
from factprobe.eval.report.tables.deltas import delta_cell
from factprobe.eval.report.tables.literal import LiteralTable

# every column defined as computed (calibration.metrics, calibration.rows, calibration.summary)
FOOTNOTE = (
    "rows: answerable, graded CORRECT or INCORRECT (NA: not-attempted rows left out; UNGRADED and errors too), "
    "confidences as stated (c/100, never rescaled); n: rows with a value; cov: n / such rows; "
    f"bins: {N_BINS} equal-width, right-closed (lo, hi], 0 in the first; "
    "ECE: Σ over bins (rows in bin / n)·|accuracy − mean confidence| (plug-in, biased up by sampling noise); "
    "dECE: debiased calibration error (Kumar et al. 2019, ℓ2, signed root; ≤ 0: no error detectable); "
    "MCE: the largest |accuracy − mean confidence| over non-empty bins; "
    "Brier: mean (c − correct)², 0 best; "
    "slope: Σ (rows in bin / n)·accuracy / mean confidence over bins with confidence > 0 (WorldVQA), 1 ideal, "
    "< 1 overconfident; "
    "AUROC: chance a CORRECT answer has a higher confidence than an INCORRECT one (ties ½), 0.5 = none; "
    "over: mean confidence − accuracy (> 0: overconfident); "
    f"≥{HIGH_CONFIDENCE:.0f}%: share of every answer with a value (any grade) stated at ≥ {HIGH_CONFIDENCE:.0f}; "
    f"acc≥{HIGH_CONFIDENCE:.0f}: CORRECT / (CORRECT + INCORRECT) among those on answerable questions; "
    "ECE, dECE, MCE, over, shares and accuracies in %, [CI]: 95% bootstrap intervals resampling rows"
)
GAINS_FOOTNOTE = (
    "Δ: strategy − baseline, each on its own rows (answerable, CORRECT or INCORRECT, with a value) within the "
    "same (question, repeat) pairs; rows: the strategy's / the baseline's; ΔECE < 0: better calibrated; "
    "Δover < 0: less overconfident; in points, [95% CI]: bootstrap resampling questions with their repeats, "
    "both strategies' rows of a drawn question together"
)


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
    high = f"{HIGH_CONFIDENCE:.0f}"
    table = LiteralTable(box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True, caption_justify="left",
                  title="Calibration: CORRECT vs INCORRECT, answerable questions, raw confidences",
                  caption=FOOTNOTE)
    for column in ("strategy", "method", "n", "cov", "ECE [CI]", "dECE [CI]", "MCE", "Brier", "slope",
                   "AUROC", "over [CI]", f"≥{high}%", f"acc≥{high}", "NA"):
        left = column in ("strategy", "method")
        table.add_column(column, justify="left" if left else "right", no_wrap=left or "[CI]" in column)
    for strategy, methods in calibration.items():
        for position, (method, m) in enumerate(methods.items()):
            counts = m["counts"]
            top = m.get("high_confidence") or {}
            table.add_row(strategy if position == 0 else "", method, str(counts["used"]),
                          pct(counts["coverage"], 0), _with_ci(m["ece"], m.get("ece_ci")),
                          _with_ci(m.get("ece_debiased"), m.get("ece_debiased_ci")), pct(m["mce"]),
                          num(m["brier"], 3), num(m["slope"], 2), num(m["auroc"], 2),
                          _with_ci(m["overconfidence"], m.get("overconfidence_ci")), pct(top.get("share")),
                          pct(top.get("accuracy")), str(counts["excluded_not_attempted"]))
        table.add_section()
    console.print(table)


@report_table(order=81)
def calibration_gains_table(summary: dict[str, Any], console: Console) -> None:
    """ΔECE and Δover of every strategy against the baseline (summary['calibration_gains'])."""
    gains = {strategy: {method: entry for method, entry in methods.items()
                        if entry["ece"] is not None or entry["baseline_ece"] is not None}
             for strategy, methods in (summary.get("calibration_gains") or {}).items()}
    gains = {strategy: methods for strategy, methods in gains.items() if methods}
    if not gains:
        return
    table = LiteralTable(box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True, caption=GAINS_FOOTNOTE,
                  caption_justify="left",
                  title=f"Calibration vs {summary.get('baseline')} (paired, % and points)")
    for column in ("strategy", "method", "rows", "ECE base", "ECE", "ΔECE [95% CI]", "over base", "over",
                   "Δover [95% CI]"):
        left = column in ("strategy", "method")
        table.add_column(column, justify="left" if left else "right", no_wrap=True)
    for strategy, methods in gains.items():
        for position, (method, entry) in enumerate(methods.items()):
            table.add_row(strategy if position == 0 else "", method, f"{entry['rows']}/{entry['baseline_rows']}",
                          pct(entry["baseline_ece"]), pct(entry["ece"]), delta_cell(entry, "ece_delta"),
                          pct(entry["baseline_over"]), pct(entry["over"]), delta_cell(entry, "over_delta"))
        table.add_section()
    console.print(table)
