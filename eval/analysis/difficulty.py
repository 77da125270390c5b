"""Difficulty tiers from how many runs answered each question correctly (`factprobe difficulty`),
as WorldVQA §2.3 stratifies by five models and Video SimpleQA filters out what every model solves.

A run answers a question correctly when most of its graded repeats of it are CORRECT (a tie is
not). Each run contributes the rows of one strategy: `strategy` when given, else the run's
baseline. With K runs, a question is `solved` when all K answered it correctly (the items both
papers drop), `easy` when more than `easy_above` did (WorldVQA: more than 3 of 5), `hard` when
none did, and `medium` otherwise. A question some run has no graded answer for (UNGRADED or ERROR
rows only) is `undecided`, and one without a gold answer `unanswerable`: neither is tiered.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from factprobe.eval.analysis.cross_run import QuestionSetError, shared_questions
from factprobe.eval.analysis.loaded_runs import LoadedRun
from factprobe.eval.core.schema import GRADED, Grade

TIERS = ("solved", "easy", "medium", "hard", "undecided", "unanswerable")


def run_strategy(run: LoadedRun, strategy: str | None) -> str:
    """The strategy whose rows stand for the run: `strategy`, else the run's baseline."""
    names = list(run.by_strategy)
    chosen = strategy or run.summary.get("baseline") or names[0]
    if chosen not in names:
        raise QuestionSetError(f"--strategy {chosen}: run {run.name} has no rows of it (it ran {', '.join(names)})")
    return chosen


def correct_by_question(run: LoadedRun, strategy: str) -> tuple[dict[str, bool | None], set[str]]:
    """{question id: answered correctly (None: no graded repeat)} and the unanswerable ids."""
    graded: dict[str, list[bool]] = defaultdict(list)
    unanswerable = set()
    seen = set()
    for row in run.by_strategy[strategy]:
        seen.add(row.question_id)
        if not row.answerable:
            unanswerable.add(row.question_id)
        elif row.grade in GRADED:
            graded[row.question_id].append(row.grade is Grade.CORRECT)
    verdict = {qid: (sum(graded[qid]) * 2 > len(graded[qid]) if graded.get(qid) else None) for qid in seen}
    return verdict, unanswerable


def tier(correct: int, runs: int, easy_above: int) -> str:
    if correct == runs:
        return "solved"
    if correct == 0:
        return "hard"
    return "easy" if correct > easy_above else "medium"


def difficulty(runs: list[LoadedRun], strategy: str | None = None, easy_above: int = 3,
               shared_only: bool = False) -> dict[str, Any]:
    """{runs, strategies, easy_above, tiers: {tier: count}, items: [{id, category, correct, runs, tier}]}."""
    if len(runs) < 2:
        raise QuestionSetError("difficulty needs at least two runs")
    shared, warnings = shared_questions(runs, shared_only)
    chosen = [run_strategy(run, strategy) for run in runs]
    verdicts, unanswerable = [], set()
    for run, name in zip(runs, chosen):
        verdict, none = correct_by_question(run, name)
        verdicts.append(verdict)
        unanswerable |= none
    category = {row.question_id: row.category for row in runs[0].rows}
    items = []
    for qid in sorted(shared):
        found = [verdict.get(qid) for verdict in verdicts]
        correct = sum(1 for value in found if value)
        if qid in unanswerable:
            label = "unanswerable"
        elif any(value is None for value in found):
            label = "undecided"
        else:
            label = tier(correct, len(runs), easy_above)
        items.append({"id": qid, "category": category.get(qid), "correct": correct, "runs": len(runs),
                      "tier": label})
    counts = {name: sum(item["tier"] == name for item in items) for name in TIERS}
    return {"runs": [run.name for run in runs], "strategies": dict(zip([run.name for run in runs], chosen)),
            "easy_above": easy_above, "warnings": warnings, "tiers": counts, "items": items}


def id_file_text(data: dict[str, Any], keep: set[str] | None) -> str:
    """The items as an id file (`--only-ids` / `--exclude-ids` read the first word of each line):
    `id<TAB>tier<TAB>correct/runs`, with a commented header; only the tiers in `keep` when given."""
    lines = [f"# factprobe difficulty over {len(data['runs'])} runs: {', '.join(data['runs'])}",
             f"# tiers: solved = all runs correct; easy > {data['easy_above']}; hard = none; medium otherwise",
             "# id\ttier\tcorrect/runs"]
    lines += [f"{item['id']}\t{item['tier']}\t{item['correct']}/{item['runs']}" for item in data["items"]
              if keep is None or item["tier"] in keep]
    return "\n".join(lines) + "\n"
