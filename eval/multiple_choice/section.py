"""Summary `multiple_choice`: per strategy, accuracy on multiple-choice rows beside chance.

`n` rows with choices (answerable, not ERROR/UNGRADED); `accuracy` = CORRECT / n; `chance` = the
mean of 1/len(choices) (the refusal option is not a choice); `mapped_by_rule`, `mapped_by_model`,
`unmapped` count how answers reached a letter (`unmapped`: none reached, a refusal, the judge's NONE
or, in a run without a judge, an answer no rule maps, which is counted wrong and so stays in `n`);
`model_asked` counts mapping calls (a call can fail to map); `refused` counts NOT_ATTEMPTED rows;
`grading` names the rows' grading mode(s) (`self`: the model under test mapped its own answers).
Strategies without such rows are left out.
"""

from __future__ import annotations

from typing import Any

from factprobe.eval.analysis.metrics import mean, ratio
from factprobe.eval.analysis.summary import SummaryInput, answerable, is_graded, summary_section
from factprobe.eval.core.schema import Grade, Result


def choice_entry(row: Result) -> dict[str, Any] | None:
    return row.extra_field("multiple_choice")


def strategy_choices(rows: list[Result]) -> dict[str, Any] | None:
    entries = [(row, entry) for row in answerable(rows) if is_graded(row) and (entry := choice_entry(row))]
    if not entries:
        return None
    mapped = [entry.get("mapped_by") for _, entry in entries]
    correct = sum(row.grade is Grade.CORRECT for row, _ in entries)
    return {"n": len(entries), "accuracy": ratio(correct, len(entries)),
            "chance": mean([entry["chance"] for _, entry in entries]),
            "mapped_by_rule": mapped.count("rule"), "mapped_by_model": mapped.count("model"),
            "unmapped": mapped.count(None), "model_asked": sum(bool(e.get("model_asked")) for _, e in entries),
            "refused": sum(row.grade is Grade.NOT_ATTEMPTED for row, _ in entries),
            "grading": ", ".join(sorted({str(entry.get("grading") or "letter") for _, entry in entries}))}


@summary_section("multiple_choice", order=170)
def multiple_choice(data: SummaryInput) -> dict[str, dict[str, Any]]:
    out = {}
    for name, rows in data.by_strategy.items():
        entry = strategy_choices(rows)
        if entry is not None:
            out[name] = entry
    return out
