"""`factprobe compare`: every strategy of several runs side by side, and each run paired with the
baseline run (ΔF and Δaccuracy with clustered CIs and p, overall and per category; ΔECE and Δover
of the stated confidence with clustered CIs)."""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Console

from factprobe.eval.analysis.cross_run import breakdown_key
from factprobe.eval.analysis.loaded_runs import LoadedRun
from factprobe.eval.core.format import num, pct
from factprobe.eval.report.tables.deltas import delta_cell
from factprobe.eval.report.tables.literal import LiteralTable
from factprobe.eval.report.tables.scores import gain_cell, p_cell
from factprobe.eval.report.tables.undecided import (
    UNDECIDED_CAPTION,
    any_undecided,
    f_range_cell,
    print_gap_notes,
    undecided_gap_note,
)


def group_scores(run: LoadedRun, strategy: str) -> dict[str, dict[str, Any]]:
    """{group: scores} of the run's strategy under --group-by (its summary's `groups`); {} without."""
    groups = run.summary.get("groups") or {}
    return ((groups.get("strategies") or {}).get(strategy) or {}) if groups.get("by") else {}


def side_by_side(runs: list[LoadedRun], console: Console) -> None:
    """One row per (run, strategy): the run's own scores (F's range and `undec.` while rows are UNGRADED);
    under --group-by, one more row per group (`group` column)."""
    undecided = any_undecided(s for run in runs for s in run.summary["strategies"].values())
    grouped = any(group_scores(run, name) for run in runs for name in run.summary["strategies"])
    table = LiteralTable(title="runs compared (answerable questions; % of graded)")
    for column in ("run", "model", "dataset", "strategy", *(["group"] if grouped else []), "n", "CO", "IN", "NA",
                   "CGA", "F", *(["undec."] if undecided else []), "ECE", "latency s"):
        table.add_column(column, justify="left" if column in ("run", "model", "dataset", "strategy", "group")
                         else "right")
    for run in runs:
        config = run.manifest.get("config") or {}
        for name, s in run.summary["strategies"].items():
            for group, scores in [("all", s), *(group_scores(run, name).items() if grouped else [])]:
                table.add_row(run.name, str(config.get("model", "?")), str(config.get("dataset", "?")), name,
                              *([group] if grouped else []), *score_cells(scores, undecided))
    if undecided:
        table.caption = UNDECIDED_CAPTION
    console.print(table)


def score_cells(s: dict[str, Any], undecided: bool) -> list[str]:
    """n, CO, IN, NA, CGA, F (its range), undec. when shown, ECE and latency of one strategy or group."""
    return [str(s["n"]), pct(s["accuracy"]), pct(s["incorrect_rate"]), pct(s["not_attempted_rate"]), pct(s["cga"]),
            f_range_cell(s, pct(s["f_score"]), " "), *([pct(s.get("undecided_share"))] if undecided else []),
            pct(s.get("ece")), num(s.get("latency_s_mean"))]


def strategy_label(pair: dict[str, Any]) -> str:
    same = pair["strategy"] == pair["baseline_strategy"]
    return pair["strategy"] if same else f"{pair['strategy']} vs {pair['baseline_strategy']}"


def paired_table(data: dict[str, Any], console: Console) -> None:
    """Each run against the baseline run over the shared questions."""
    table = LiteralTable(title=f"Runs vs {data['baseline']} (paired over {data['n_shared']} shared questions; "
                  "answerable, % of graded)", box=box.SIMPLE_HEAD)
    for column in ("run", "strategy", "pairs/q", "F base", "F", "ΔF [95% CI]", "p", "Δacc [95% CI]", "p acc"):
        table.add_column(column, justify="left" if column in ("run", "strategy") else "right")
    for pair in data["pairs"]:
        table.add_row(pair["run"], strategy_label(pair), f"{pair['n_pairs']}/{pair['n_questions']}",
                      pct(pair["baseline_f_score"]), pct(pair["f_score"]), gain_cell(pair).replace("\n", " "),
                      p_cell(pair), gain_cell(pair, "accuracy_").replace("\n", " "), p_cell(pair, "accuracy_"))
    table.caption = ("Δ: run − baseline run on the same (question, repeat) pairs; 95% CI: bootstrap resampling "
                     "questions with their repeats; p: clustered sign-flip test of the Δ beside it")
    console.print(table)
    print_gap_notes(console, [undecided_gap_note(f"{pair['run']} {pair['strategy']} vs {data['baseline']} "
                                                 f"{pair['baseline_strategy']}", pair) for pair in data["pairs"]])


def calibration_pair_table(data: dict[str, Any], console: Console) -> None:
    """ΔECE and Δover of the stated confidence, each run against the baseline run."""
    pairs = [pair for pair in data["pairs"] if pair.get("ece") is not None or pair.get("baseline_ece") is not None]
    if not pairs:
        return
    table = LiteralTable(title=f"Calibration vs {data['baseline']} (stated confidence, paired; % and points)",
                  box=box.SIMPLE_HEAD)
    for column in ("run", "strategy", "rows", "ECE base", "ECE", "ΔECE [95% CI]", "over base", "over",
                   "Δover [95% CI]"):
        table.add_column(column, justify="left" if column in ("run", "strategy") else "right")
    for pair in pairs:
        table.add_row(pair["run"], strategy_label(pair),
                      f"{pair['calibration_rows']}/{pair['baseline_calibration_rows']}", pct(pair["baseline_ece"]),
                      pct(pair["ece"]), delta_cell(pair, "ece_delta"), pct(pair["baseline_over"]), pct(pair["over"]),
                      delta_cell(pair, "over_delta"))
    table.caption = ("each run on its own answerable rows graded CORRECT or INCORRECT with a stated confidence, "
                     "within the shared (question, repeat) pairs (rows: run / baseline run); ECE over ten (lo, hi] "
                     "bins; over: mean confidence − accuracy; Δ: run − baseline run (ΔECE < 0: better calibrated, "
                     "Δover < 0: less overconfident); 95% CI: bootstrap resampling questions with their repeats")
    console.print(table)


def category_table(data: dict[str, Any], console: Console) -> None:
    """ΔF per category of each pair (per group under --group-by)."""
    by = " / ".join(data.get("group_by") or [])
    table = LiteralTable(title=f"ΔF per {by or 'category'} vs {data['baseline']}", box=box.SIMPLE_HEAD)
    for column in ("run", "strategy", by or "category", "pairs", "F base", "F", "ΔF [95% CI]", "p"):
        table.add_column(column, justify="left" if column in ("run", "strategy", by or "category") else "right")
    for pair in data["pairs"]:
        for category, entry in pair[breakdown_key(data)].items():
            table.add_row(pair["run"], strategy_label(pair), category, str(entry["n_pairs"]),
                          pct(entry["baseline_f_score"]), pct(entry["f_score"]),
                          gain_cell(entry).replace("\n", " "), p_cell(entry))
    console.print(table)


def agreement_table(data: dict[str, Any], console: Console) -> None:
    """How the graders of runs that graded the same answers agree."""
    if not data.get("grader_agreement"):
        return
    table = LiteralTable(title=f"Graders on the same answers vs {data['baseline']}", box=box.SIMPLE_HEAD)
    for column in ("run", "grader", "vs grader", "rows", "agree", "κ", "τ (units)", "p τ"):
        table.add_column(column, justify="left" if column in ("run", "grader", "vs grader") else "right")
    for entry in data["grader_agreement"]:
        tau = "–" if entry["kendall_tau"] is None else f"{entry['kendall_tau']:+.2f}"
        table.add_row(entry["run"], entry["grader"], entry["baseline_grader"], str(entry["n_rows"]),
                      pct(entry["agreement"]), num(entry["kappa"]), f"{tau} ({entry['n_units']} {entry['tau_units']})",
                      num(entry["tau_p_value"], 3))
    table.caption = ("rows with identical answers in both runs; agree: same grade; κ: Cohen's kappa; τ: Kendall's "
                     "τ-b between the two graders' F rankings of the units")
    console.print(table)


def judge_rank_table(data: dict[str, Any], console: Console) -> None:
    """Kendall's τ between graders' rankings of the models (answer sets) both graded."""
    if not data.get("judge_rank_agreement"):
        return
    table = LiteralTable(title="Graders' rankings of the models (F of each run's baseline strategy)",
                         box=box.SIMPLE_HEAD)
    for column in ("grader", "vs grader", "models", "τ", "p τ"):
        table.add_column(column, justify="left" if "grader" in column else "right")
    for entry in data["judge_rank_agreement"]:
        table.add_row(entry["grader"], entry["baseline_grader"], str(entry["n_models"]),
                      num(entry["kendall_tau"]), num(entry["tau_p_value"], 3))
    console.print(table)


def print_comparison(runs: list[LoadedRun], data: dict[str, Any], console: Console) -> None:
    side_by_side(runs, console)
    paired_table(data, console)
    calibration_pair_table(data, console)
    if data.get("group_by") or any(len(pair["per_category"]) > 1 for pair in data["pairs"]):
        category_table(data, console)
    agreement_table(data, console)
    judge_rank_table(data, console)
