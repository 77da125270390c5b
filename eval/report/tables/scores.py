"""The main table: SimpleQA scores per strategy with its paired gain over the baseline and its costs.

ΔF and Δacc with their 95% CIs and p-values, the pairs/questions they rest on and the × ratios come
from summary['gains'] (paired over the same questions and repeats; intervals resample questions,
p-values are clustered sign-flip tests of the delta beside them); with several repeats F shows
mean ± std across repeats. While rows are UNGRADED, F shows its range [low–high] (every UNGRADED row
taken as INCORRECT / as CORRECT) and `undec.` the share left UNGRADED; a gain whose two sides' undecided
shares differ by more than 5 points gets a note saying part of it is the grader's.
"""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Console

from factprobe.eval.core.format import num, pct
from factprobe.eval.report.build import report_table
from factprobe.eval.report.tables.literal import LiteralTable
from factprobe.eval.report.tables.undecided import (
    UNDECIDED_CAPTION,
    any_undecided,
    f_range_cell,
    print_gap_notes,
    undecided_gap_note,
)


def signed_pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:+.1f}"


def total_tokens(scores: dict[str, Any]) -> float | None:
    if scores.get("prompt_tokens_mean") is None:
        return None
    return scores["prompt_tokens_mean"] + scores["completion_tokens_mean"]


def gain_cell(gain: dict[str, Any] | None, prefix: str = "") -> str:
    """A delta and its interval: `f_score_delta` with `ci_low`/`ci_high`, or `accuracy_delta` with
    `accuracy_ci_low`/`accuracy_ci_high` (prefix "accuracy_")."""
    value = None if gain is None else gain.get("accuracy_delta" if prefix else "f_score_delta")
    if gain is None or value is None:
        return "–"
    interval = ""
    if gain.get(f"{prefix}ci_low") is not None:
        interval = f"\n[{signed_pct(gain[f'{prefix}ci_low'])},{signed_pct(gain[f'{prefix}ci_high'])}]"
    return signed_pct(value) + interval


def p_cell(gain: dict[str, Any] | None, prefix: str = "") -> str:
    value = None if gain is None else gain.get(f"{prefix}p_value")
    if value is None:
        return "–"
    return f"{value:.3f}" if value >= 0.001 else "<0.001"


def pairs_cell(gain: dict[str, Any] | None) -> str:
    if gain is None or gain.get("n_pairs") is None:
        return "–"
    return f"{gain['n_pairs']}/{gain.get('n_questions', '?')}"


def times(value: float | None) -> str:
    return "–" if value is None else f"{value:.1f}×"


def baseline_ratio(value: float | None) -> str:
    return times(1.0 if value else None)


def f_cell(scores: dict[str, Any], repeats: dict[str, Any] | None) -> str:
    if repeats and repeats.get("n_repeats", 1) > 1 and repeats.get("f_score_std") is not None:
        return f"{pct(repeats['f_score_mean'])}±{pct(repeats['f_score_std'])}"
    return pct(scores["f_score"])


@report_table(order=10, brief=True)
def scores_table(summary: dict[str, Any], console: Console) -> None:
    baseline = summary.get("baseline")
    gains = summary.get("gains", {})
    repeats = summary.get("repeats", {})
    several = max((r.get("n_repeats", 1) for r in repeats.values()), default=1)
    sizes = {s["n"] for s in summary["strategies"].values()}
    excluded = any(s["ungraded"] + s["errors"] for s in summary["strategies"].values())
    undecided = any_undecided(summary["strategies"].values())
    table = LiteralTable(title=f"Strategies vs {baseline} (answerable questions, % of graded)",
                  box=box.SIMPLE_HEAD, padding=(0, 0))
    columns = ["strategy", *(["n"] if len(sizes) > 1 else []), "CO", "IN", "NA", "CGA", "F±sd" if several > 1 else "F",
               *(["undec."] if undecided else []), "ΔF\n[95% CI]", "p", "Δacc\n[95% CI]", "p acc", "pairs/\nq",
               "time×", "tok×"] + (["excl."] if excluded else [])
    for column in columns:
        table.add_column(column, justify="left" if column == "strategy" else "right",
                         no_wrap=True, min_width=12 if column.startswith("Δ") else None)
    for name, s in summary["strategies"].items():
        gain = gains.get(name)
        if name == baseline:
            comparison = ["baseline", "", "", "", ""]
            latency, tokens = baseline_ratio(s["latency_s_mean"]), baseline_ratio(total_tokens(s))
        else:
            comparison = [gain_cell(gain), p_cell(gain), gain_cell(gain, "accuracy_"),
                          p_cell(gain, "accuracy_"), pairs_cell(gain)]
            latency = times(gain.get("latency_ratio") if gain else None)
            tokens = times(gain.get("tokens_ratio") if gain else None)
        cells = [name, *([str(s["n"])] if len(sizes) > 1 else []), pct(s["accuracy"]), pct(s["incorrect_rate"]),
                 pct(s["not_attempted_rate"]), pct(s["cga"]), f_range_cell(s, f_cell(s, repeats.get(name))),
                 *([pct(s.get("undecided_share"))] if undecided else []), *comparison, latency, tokens]
        table.add_row(*cells, *([str(s["ungraded"] + s["errors"])] if excluded else []))
    base = summary["strategies"].get(baseline, {})
    notes = [f"n = {sizes.pop()} per strategy"] if len(sizes) == 1 else []
    where = (summary.get("groups") or {}).get("where")
    if where:
        notes.append(f"every question, unfiltered: the scores where {where} are in the table above")
    notes += [f"{baseline}: {num(base.get('latency_s_mean'))} s and {num(total_tokens(base), 0)} tokens "
             f"per question", "Δ: strategy − baseline on the same (question, repeat) pairs; 95% CI: bootstrap "
             "resampling questions with their repeats; p: clustered sign-flip test of the Δ beside it"]
    totals = [f"{name} {num(s['latency_s_total'] / 60, 1)}" for name, s in summary["strategies"].items()
              if s.get("latency_s_total") is not None]
    if totals:
        notes.append(f"compute time in total, minutes: {', '.join(totals)}")
    if excluded:
        notes.append("excl.: ungraded + errors, left out of the scores")
    if undecided:
        notes.append(UNDECIDED_CAPTION)
    if several > 1:
        notes.append(f"F ± sd across {several} repeats" + ("; its range pools the repeats" if undecided else ""))
    table.caption = "; ".join(notes)
    console.print(table)
    print_gap_notes(console, [undecided_gap_note(f"{name} vs {baseline}", gains.get(name))
                              for name in summary["strategies"]])
