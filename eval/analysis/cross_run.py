"""Paired differences across runs (`factprobe compare RUN… --baseline RUN`).

Two runs are paired over the questions both answered, by (question id, repeat), with exactly the
statistics of a run's own `gains` (factprobe.eval.analysis.gains.compare: the clustered bootstrap CI
and sign-flip p of ΔF and Δaccuracy), per strategy and per category, plus what the registered pair
metrics add (factprobe.eval.analysis.pair_metrics: calibration's ΔECE and Δover). Strategies are
paired by name; two runs of one strategy each are paired whatever their names. The seed is the
baseline run's. With `group_by` each pair adds `per_group`, the same statistics by those fields
(factprobe.eval.analysis.groups); `where` keeps the rows it matches (loaded_runs.narrowed) first.

Question sets must agree: a question id that one run asked and another did not is a
QuestionSetError (the CLI exits 2) unless `shared_only` is set, and then every difference is listed
in `warnings`. A shared id whose question or gold differs between the runs is always an error: the
runs asked different questions under one id.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from factprobe.eval.analysis.gains import compare
from factprobe.eval.analysis.grader_agreement import grader_agreement, judge_rankings
from factprobe.eval.analysis.groups import group_keys
from factprobe.eval.analysis.loaded_runs import LoadedRun
from factprobe.eval.analysis.pair_metrics import pair_metric_values
from factprobe.eval.core.schema import Result

PAIR_KEYS = ("n_pairs", "f_score", "baseline_f_score", "f_score_delta", "accuracy", "baseline_accuracy",
             "accuracy_delta", "ci_low", "ci_high", "p_value", "accuracy_ci_low", "accuracy_ci_high",
             "accuracy_p_value", "n_questions", "excluded_pairs", "ci_method", "p_method", "n_resamples",
             "n_permutations", "seed", "latency_ratio", "tokens_ratio", "undecided_share",
             "baseline_undecided_share", "undecided_share_gap", "grader_bias_warning")
CATEGORY_KEYS = ("n_pairs", "n_questions", "f_score", "baseline_f_score", "f_score_delta", "accuracy_delta",
                 "ci_low", "ci_high", "p_value")
SHOWN_IDS = 5


class QuestionSetError(ValueError):
    """Runs that did not answer the same questions (and pairing over the shared ones was not asked for)."""


def question_texts(run: LoadedRun) -> dict[str, tuple[str, str | None]]:
    """{question id: (question, gold)} over every row of the run."""
    return {row.question_id: (row.question, row.gold) for row in run.rows}


def _listed(ids: set[str]) -> str:
    shown = sorted(ids)[:SHOWN_IDS]
    more = f" and {len(ids) - len(shown)} more" if len(ids) > len(shown) else ""
    return ", ".join(shown) + more


def shared_questions(runs: list[LoadedRun], shared_only: bool) -> tuple[set[str], list[str]]:
    """The question ids every run answered, and a warning per run that answered others.

    QuestionSetError when the sets differ (unless `shared_only`), or when a shared id carries a
    different question or gold in some run."""
    texts = [question_texts(run) for run in runs]
    shared = set.intersection(*(set(t) for t in texts))
    problems = []
    for run, found in zip(runs, texts):
        extra = set(found) - shared
        if extra:
            problems.append(f"{run.name} has {len(extra)} of its {len(found)} questions that not every "
                            f"other run has ({_listed(extra)})")
    differing = {qid for qid in shared if len({t[qid] for t in texts}) > 1}
    if differing:
        raise QuestionSetError(f"{len(differing)} question id(s) carry a different question or gold in "
                               f"different runs ({_listed(differing)}): the runs asked different questions, "
                               f"so they cannot be paired")
    if problems and not shared_only:
        raise QuestionSetError("the runs did not answer the same questions: " + "; ".join(problems)
                               + f". {len(shared)} questions are shared; pass --shared-only to pair over "
                               f"those alone")
    if not shared:
        raise QuestionSetError("the runs share no question, so nothing can be paired")
    warnings = [f"paired over the {len(shared)} shared questions only: {problem}" for problem in problems]
    return shared, warnings


def strategy_pairs(base: LoadedRun, run: LoadedRun) -> list[tuple[str, str]]:
    """(baseline strategy, run strategy) pairs: every name both ran, else the only strategy of each."""
    ours, theirs = list(base.by_strategy), list(run.by_strategy)
    shared = [name for name in ours if name in theirs]
    if shared:
        return [(name, name) for name in shared]
    if len(ours) == 1 and len(theirs) == 1:
        return [(ours[0], theirs[0])]
    return []


def _restricted(rows: list[Result], ids: set[str]) -> list[Result]:
    return [row for row in rows if row.question_id in ids]


def per_label(rows: list[Result], base_rows: list[Result], label_of: Callable[[Result], list[str]], seed: int,
              n_resamples: int, n_flips: int) -> dict[str, dict[str, Any]]:
    """The pair's statistics within each label of the baseline row of the same (question, repeat)."""
    base_labels = {(row.question_id, row.repeat): label_of(row) for row in base_rows}
    grouped: dict[str, tuple[list[Result], list[Result]]] = defaultdict(lambda: ([], []))
    for row in rows:
        for label in base_labels.get((row.question_id, row.repeat)) or label_of(row):
            grouped[label][0].append(row)
    for row in base_rows:
        for label in base_labels[(row.question_id, row.repeat)]:
            grouped[label][1].append(row)
    out = {}
    for name in sorted(grouped):
        entry = compare(grouped[name][0], grouped[name][1], seed, n_resamples, n_flips)
        out[name] = {key: entry[key] for key in CATEGORY_KEYS}
    return out


def per_category(rows: list[Result], base_rows: list[Result], seed: int,
                 n_resamples: int, n_flips: int) -> dict[str, dict[str, Any]]:
    """The pair's statistics within each category (the baseline rows' category)."""
    return per_label(rows, base_rows, lambda row: [row.category], seed, n_resamples, n_flips)


def pair_runs(base: LoadedRun, run: LoadedRun, shared: set[str], n_resamples: int, n_flips: int,
              group_by: Sequence[str] = ()) -> list[dict]:
    """One entry per paired strategy of `run` against `base`, over the shared questions; with
    `group_by`, `per_group` too (by the joint value of those fields, as `report --group-by`)."""
    entries = []
    for base_strategy, strategy in strategy_pairs(base, run):
        rows = _restricted(run.by_strategy[strategy], shared)
        base_rows = _restricted(base.by_strategy[base_strategy], shared)
        entry = compare(rows, base_rows, base.seed, n_resamples, n_flips)
        pair = {"baseline": base.name, "run": run.name, "baseline_strategy": base_strategy,
                "strategy": strategy, "n_shared": len(shared), **{key: entry[key] for key in PAIR_KEYS},
                "per_category": per_category(rows, base_rows, base.seed, n_resamples, n_flips)}
        if group_by:
            pair["per_group"] = per_label(rows, base_rows, lambda row: group_keys(row, group_by), base.seed,
                                          n_resamples, n_flips)
        entries.append({**pair, **pair_metric_values(rows, base_rows, base.seed, n_resamples, set(pair))})
    return entries


def baseline_index(runs: list[LoadedRun], baseline: Path | None) -> int:
    """Position of the baseline run: the one given (by path), else the first."""
    if baseline is None:
        return 0
    wanted = baseline.resolve()
    for index, run in enumerate(runs):
        if run.path.resolve() == wanted:
            return index
    raise QuestionSetError(f"--baseline {baseline} is not one of the runs compared; give it among the RUN "
                           f"arguments too")


def compare_runs_data(runs: list[LoadedRun], baseline: Path | None = None, shared_only: bool = False,
                      n_resamples: int = 2000, n_flips: int = 2000, group_by: Sequence[str] = (),
                      where: str | None = None) -> dict[str, Any]:
    """The `compare --json` object: every run against the baseline run, paired; and, for runs that
    graded the same answers, how their graders agree (factprobe.eval.analysis.grader_agreement).
    `where` is only recorded: the runs come already kept to its rows (loaded_runs.narrowed)."""
    if len(runs) < 2:
        raise QuestionSetError("compare needs at least two runs")
    base = runs[baseline_index(runs, baseline)]
    shared, warnings = shared_questions(runs, shared_only)
    pairs: list[dict[str, Any]] = []
    for run in runs:
        if run is base:
            continue
        found = pair_runs(base, run, shared, n_resamples, n_flips, group_by)
        if not found:
            warnings.append(f"{run.name} shares no strategy name with {base.name} ({', '.join(run.by_strategy)} "
                            f"vs {', '.join(base.by_strategy)}), so it is not paired")
        pairs.extend(found)
    agreement = [entry for run in runs if run is not base
                 for entry in [grader_agreement(base, run)] if entry is not None]
    return {"baseline": base.name, "runs": [run.name for run in runs], "n_shared": len(shared),
            "questions": {run.name: len(question_texts(run)) for run in runs},
            "warnings": warnings, "pairs": pairs, "grader_agreement": agreement,
            "judge_rank_agreement": judge_rankings(runs), "where": where or None, "group_by": list(group_by)}


def strategy_lines(data: dict[str, Any]) -> dict[str, dict[str, str]]:
    """{baseline strategy: {run name: that run's strategy paired with it}}, the baseline run first:
    what one figure line, or one row of the question browser, follows across runs."""
    lines: dict[str, dict[str, str]] = {}
    for pair in data["pairs"]:
        line = lines.setdefault(pair["baseline_strategy"], {data["baseline"]: pair["baseline_strategy"]})
        line[pair["run"]] = pair["strategy"]
    return lines



def breakdown_key(data: dict[str, Any]) -> str:
    """The pairs' key the tables and figures break ΔF down by: `per_group` with --group-by, else
    `per_category`."""
    return "per_group" if data.get("group_by") else "per_category"
