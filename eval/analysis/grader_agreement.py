"""How two runs' graders agree when the runs graded the same answers (judge vs judge, Video
SimpleQA Fig. 8): over the (question, strategy, repeat) rows both runs hold with the same answer
text and a grade in each, the share of equal grades, Cohen's κ, and Kendall's τ-b between the
two rankings the graders give of the scored units (the strategies when there are three or more,
else the strategy × category cells), with its p-value (scipy.stats.kendalltau).

Across many runs (`judge_rankings`): with several answer sets (models), each graded by several
graders, Kendall's τ-b between two graders' rankings of the models by F (Video SimpleQA Fig. 8).

Runs are taken to grade the same answers when at least SAME_ANSWERS_SHARE of their shared rows
with an answer carry identical text; other pairs of runs answered differently, and get no entry.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from factprobe.eval.analysis.loaded_runs import LoadedRun
from factprobe.eval.analysis.metrics import grade_metrics
from factprobe.eval.core.schema import GRADED, Grade, Result
from factprobe.eval.grading.audit import cohen_kappa

SAME_ANSWERS_SHARE = 0.95
MIN_UNITS = 3


def same_answer_rows(base: LoadedRun, run: LoadedRun) -> tuple[list[tuple[Result, Result]], int]:
    """The row pairs with identical answers and a grade in both, and how many shared rows had an answer."""
    theirs = {row.key: row for row in run.rows}
    pairs, answered = [], 0
    for row in base.rows:
        other = theirs.get(row.key)
        if other is None or row.answer is None or other.answer is None:
            continue
        answered += 1
        if row.answer == other.answer and row.grade in GRADED and other.grade in GRADED:
            pairs.append((row, other))
    return pairs, answered


def _f_by(pairs: list[tuple[Result, Result]], key: Callable[[Result], str]) -> tuple[list[str], list, list]:
    """The units `key` names (answerable rows) and each grader's F of them."""
    grades: dict[str, tuple[list[Grade], list[Grade]]] = defaultdict(lambda: ([], []))
    for first, second in pairs:
        if first.answerable:
            grades[key(first)][0].append(first.grade)
            grades[key(first)][1].append(second.grade)
    names = sorted(grades)
    return (names, [grade_metrics(grades[n][0])["f_score"] for n in names],
            [grade_metrics(grades[n][1])["f_score"] for n in names])


def unit_scores(pairs: list[tuple[Result, Result]]) -> tuple[str, list[str], list, list]:
    """The units ranked (strategies, or strategy × category cells below three strategies) and each
    grader's F of them."""
    by_strategy = _f_by(pairs, lambda row: row.strategy)
    if len(by_strategy[0]) >= MIN_UNITS:
        return ("strategy", *by_strategy)
    return ("strategy × category", *_f_by(pairs, lambda row: f"{row.strategy} / {row.category}"))


def grader_label(run: LoadedRun) -> str:
    """The judge model when the run had one, else the grader's name (rules)."""
    config = run.manifest.get("config") or {}
    return str(config.get("judge") or (run.manifest.get("grader") or {}).get("grader") or "?")


def grader_agreement(base: LoadedRun, run: LoadedRun) -> dict[str, Any] | None:
    """The agreement entry of two runs that graded the same answers; None when they did not."""
    pairs, answered = same_answer_rows(base, run)
    if not answered or len(pairs) < SAME_ANSWERS_SHARE * answered:
        return None
    first = [a.grade.value for a, _ in pairs]
    second = [b.grade.value for _, b in pairs]
    unit, names, scores_a, scores_b = unit_scores(pairs)
    tau = p_value = None
    if len(names) >= MIN_UNITS and len(set(scores_a)) > 1 and len(set(scores_b)) > 1:
        from scipy.stats import kendalltau  # lazy: scipy.stats costs most of a second to import

        result = kendalltau(scores_a, scores_b)
        if not math.isnan(result.statistic):
            tau, p_value = float(result.statistic), float(result.pvalue)
    return {"baseline": base.name, "run": run.name,
            "baseline_grader": grader_label(base), "grader": grader_label(run),
            "n_rows": len(pairs), "agreement": sum(a == b for a, b in zip(first, second)) / len(pairs),
            "kappa": cohen_kappa(first, second), "tau_units": unit, "n_units": len(names),
            "kendall_tau": tau, "tau_p_value": p_value,
            "units": {name: {"baseline_f_score": a, "f_score": b} for name, a, b in zip(names, scores_a, scores_b)}}


def answer_groups(runs: list[LoadedRun]) -> list[list[LoadedRun]]:
    """Runs grouped by the answers they hold: a run joins the first group whose first run has the
    same answers (SAME_ANSWERS_SHARE of the shared answered rows), else starts its own."""
    groups: list[list[LoadedRun]] = []
    for run in runs:
        for group in groups:
            pairs, answered = same_answer_rows(group[0], run)
            if answered and len(pairs) >= SAME_ANSWERS_SHARE * answered:
                group.append(run)
                break
        else:
            groups.append([run])
    return groups


def run_f_score(run: LoadedRun) -> float | None:
    """F of the run's baseline strategy (the summary's)."""
    summary = run.summary
    return (summary["strategies"].get(summary.get("baseline")) or {}).get("f_score")


def judge_rankings(runs: list[LoadedRun]) -> list[dict[str, Any]]:
    """Video SimpleQA Fig. 8: with several answer sets (models) each graded by several graders
    (runs holding the same answers), Kendall's τ-b between every two graders' F rankings of the
    answer sets both graded; an entry per grader pair with at least MIN_UNITS such answer sets."""
    scores: dict[str, dict[str, float]] = defaultdict(dict)      # grader -> {answer set: F}
    for group in answer_groups(runs):
        label = str((group[0].manifest.get("config") or {}).get("model", "?")) + f" ({group[0].name})"
        for run in group:
            value = run_f_score(run)
            if value is not None:
                scores[grader_label(run)][label] = value
    entries = []
    graders = list(scores)
    for index, first in enumerate(graders):
        for second in graders[index + 1:]:
            models = sorted(set(scores[first]) & set(scores[second]))
            if len(models) < MIN_UNITS:
                continue
            a, b = [scores[first][m] for m in models], [scores[second][m] for m in models]
            from scipy.stats import kendalltau  # lazy: scipy.stats costs most of a second to import

            result = kendalltau(a, b)
            tau = None if math.isnan(result.statistic) else float(result.statistic)
            entries.append({"grader": second, "baseline_grader": first, "n_models": len(models),
                            "kendall_tau": tau, "tau_p_value": None if tau is None else float(result.pvalue),
                            "models": {m: {"baseline_f_score": x, "f_score": y} for m, x, y in zip(models, a, b)}})
    return entries
