"""The main table: SimpleQA scores per strategy with its paired gain over the baseline and its costs.

ΔF and its 95% CI, the McNemar p and the × ratios come from summary['gains'] (paired over the same
questions and repeats); with several repeats F shows mean ± std across repeats.
"""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table

from factprobe.eval.format import num, pct
from factprobe.eval.report import report_table


def signed_pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:+.1f}"


def total_tokens(scores: dict[str, Any]) -> float | None:
    if scores.get("prompt_tokens_mean") is None:
        return None
    return scores["prompt_tokens_mean"] + scores["completion_tokens_mean"]


def gain_cell(gain: dict[str, Any] | None) -> str:
    if gain is None or gain.get("f_score_delta") is None:
        return "–"
    interval = ""
    if gain.get("ci_low") is not None:
        interval = f"\n[{signed_pct(gain['ci_low'])},{signed_pct(gain['ci_high'])}]"
    return signed_pct(gain["f_score_delta"]) + interval


def p_cell(gain: dict[str, Any] | None) -> str:
    if gain is None or gain.get("p_value") is None:
        return "–"
    return f"{gain['p_value']:.3f}" if gain["p_value"] >= 0.001 else "<0.001"


def times(value: float | None) -> str:
    return "–" if value is None else f"{value:.1f}×"


def baseline_ratio(value: float | None) -> str:
    return times(1.0 if value else None)


def f_cell(scores: dict[str, Any], repeats: dict[str, Any] | None) -> str:
    if repeats and repeats.get("n_repeats", 1) > 1 and repeats.get("f_score_std") is not None:
        return f"{pct(repeats['f_score_mean'])}±{pct(repeats['f_score_std'])}"
    return pct(scores["f_score"])


@report_table
def scores_table(summary: dict[str, Any], console: Console) -> None:
    baseline = summary.get("baseline")
    gains = summary.get("gains", {})
    repeats = summary.get("repeats", {})
    several = max((r.get("n_repeats", 1) for r in repeats.values()), default=1)
    sizes = {s["n"] for s in summary["strategies"].values()}
    excluded = any(s["ungraded"] + s["errors"] for s in summary["strategies"].values())
    table = Table(title=f"Strategies vs {baseline} (answerable questions, % of graded)",
                  box=box.SIMPLE_HEAD, padding=(0, 0))
    columns = ["strategy", *(["n"] if len(sizes) > 1 else []), "CO", "IN", "NA", "CGA", "F±sd" if several > 1 else "F",
               "ΔF\n[95% CI]", "p", "time×", "tok×"] + (["excl."] if excluded else [])
    for column in columns:
        table.add_column(column, justify="left" if column == "strategy" else "right",
                         no_wrap=True, min_width=12 if column.startswith("ΔF") else None)
    for name, s in summary["strategies"].items():
        gain = gains.get(name)
        if name == baseline:
            delta, p_value, latency, tokens = "baseline", "", baseline_ratio(s["latency_s_mean"]), \
                baseline_ratio(total_tokens(s))
        else:
            delta, p_value = gain_cell(gain), p_cell(gain)
            latency = times(gain.get("latency_ratio") if gain else None)
            tokens = times(gain.get("tokens_ratio") if gain else None)
        cells = [name, *([str(s["n"])] if len(sizes) > 1 else []), pct(s["accuracy"]), pct(s["incorrect_rate"]),
                 pct(s["not_attempted_rate"]), pct(s["cga"]), f_cell(s, repeats.get(name)), delta,
                 p_value, latency, tokens]
        table.add_row(*cells, *([str(s["ungraded"] + s["errors"])] if excluded else []))
    base = summary["strategies"].get(baseline, {})
    notes = [f"n = {sizes.pop()} per strategy"] if len(sizes) == 1 else []
    notes += [f"{baseline}: {num(base.get('latency_s_mean'))} s and {num(total_tokens(base), 0)} tokens "
             f"per question", "ΔF: paired bootstrap 95% CI; p: exact McNemar on correct answers"]
    if excluded:
        notes.append("excl.: ungraded + errors, left out of the scores")
    if several > 1:
        notes.append(f"F ± sd across {several} repeats")
    table.caption = "; ".join(notes)
    console.print(table)
