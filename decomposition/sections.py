"""summary.json sections `per_hop` and `decomposition` (protocols §5, Video SimpleQA Table 4).

`per_hop[strategy][hop_count]` scores the sub-QA probes (the same measurement for every strategy)
beside the strategy's final answer on the answerable multi-hop questions:
- `hop_f_scores[i]`: F-score of hop i+1's probes; `final_f_score`: F-score of the final answers;
- `weakest_hops`: 1-based positions sharing the lowest hop F-score (empty when every hop scores
  the same), `weakest_hop` the first of them; `first_hop_bottleneck`: hop 1 alone is the lowest;
- joint outcomes, on the rows whose final answer and every hop are graded (`n_joint`): a hop is
  wrong when it is not CORRECT (INCORRECT or NOT_ATTEMPTED): `final_right_hop_wrong` (count,
  `_rate`, `_ids`) and `final_wrong_all_hops_right` (count, `_rate`, `_ids`);
- `chain`: for a strategy that decomposes, the same computed on its own graded hops (rows whose
  predicted hop count equals the gold one).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any, Callable

from factprobe.eval.metrics import grade_metrics, mean, ratio
from factprobe.eval.schema import Grade, Result
from factprobe.eval.summary import SummaryInput, answerable, summary_section

GRADED = (Grade.CORRECT, Grade.INCORRECT, Grade.NOT_ATTEMPTED)


def extra(row: Result, key: str) -> Any:
    return (row.model_extra or {}).get(key)


def probe_grades(row: Result) -> list[Grade] | None:
    probes = extra(row, "hop_probes")
    if not probes or len(probes) != row.hop_count:
        return None
    return [Grade(probe["grade"]) for probe in probes]


def chain_grades(row: Result) -> list[Grade] | None:
    if extra(row, "decomposition") is None or not row.hops or len(row.hops) != row.hop_count:
        return None
    if any(hop.grade is None for hop in row.hops):
        return None
    return [Grade(hop.grade) for hop in row.hops]


def row_label(row: Result) -> str:
    return row.question_id if row.repeat == 0 else f"{row.question_id}#r{row.repeat}"


def hop_table(rows: list[Result], hop_count: int,
              grades_of: Callable[[Result], list[Grade] | None]) -> dict[str, Any]:
    """Per-hop F-scores, the weakest hop and the joint final/hop outcomes for one hop count."""
    with_hops = [(row, grades) for row in rows if (grades := grades_of(row)) is not None]
    hop_scores = [grade_metrics(grades[i] for _, grades in with_hops) for i in range(hop_count)]
    hop_f = [scores["f_score"] for scores in hop_scores]
    known = {i + 1: f for i, f in enumerate(hop_f) if f is not None}
    lowest = [k for k, f in known.items() if f == min(known.values())]
    weakest = lowest if 0 < len(lowest) < len(known) else []      # all equal: no hop is weakest
    joint = [(row, grades) for row, grades in with_hops
             if row.grade in GRADED and all(g in GRADED for g in grades)]
    right_wrong = [row_label(row) for row, grades in joint
                   if row.grade is Grade.CORRECT and any(g is not Grade.CORRECT for g in grades)]
    wrong_right = [row_label(row) for row, grades in joint
                   if row.grade is not Grade.CORRECT and all(g is Grade.CORRECT for g in grades)]
    return {
        "n_with_hops": len(with_hops), "hop_f_scores": hop_f,
        "hop_accuracy": [scores["accuracy"] for scores in hop_scores],
        "weakest_hop": weakest[0] if weakest else None, "weakest_hops": weakest,
        "first_hop_bottleneck": weakest == [1] if len(known) >= 2 else None,
        "n_joint": len(joint),
        "final_right_hop_wrong": len(right_wrong),
        "final_right_hop_wrong_rate": ratio(len(right_wrong), len(joint)),
        "final_right_hop_wrong_ids": right_wrong,
        "final_wrong_all_hops_right": len(wrong_right),
        "final_wrong_all_hops_right_rate": ratio(len(wrong_right), len(joint)),
        "final_wrong_all_hops_right_ids": wrong_right,
    }


def multi_hop_groups(rows: list[Result]) -> dict[int, list[Result]]:
    groups: dict[int, list[Result]] = defaultdict(list)
    for row in answerable(rows):
        if row.hop_count >= 2:
            groups[row.hop_count].append(row)
    return dict(sorted(groups.items()))


@summary_section("per_hop")
def per_hop(data: SummaryInput) -> dict[str, dict[str, dict[str, Any]]]:
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for name, rows in data.by_strategy.items():
        groups = multi_hop_groups(rows)
        if not groups:
            continue
        out[name] = {}
        for hop_count, group in groups.items():
            final = grade_metrics(row.grade for row in group)
            entry = {"n": len(group), "hop_source": "probes", "final_f_score": final["f_score"],
                     "final_accuracy": final["accuracy"], **hop_table(group, hop_count, probe_grades)}
            if any(extra(row, "decomposition") is not None for row in group):
                entry["chain"] = hop_table(group, hop_count, chain_grades)
            out[name][str(hop_count)] = entry
    return out


@summary_section("decomposition")
def decomposition(data: SummaryInput) -> dict[str, dict[str, Any]]:
    """Decomposition quality per decomposing strategy: fallbacks, hop counts, hop-answer matches."""
    out: dict[str, dict[str, Any]] = {}
    for name, rows in data.by_strategy.items():
        records = [(row, rec) for row in rows if (rec := extra(row, "decomposition")) is not None]
        if not records:
            continue
        with_gold = [rec for _, rec in records if rec.get("gold_hops")]
        confusion: dict[str, Counter] = defaultdict(Counter)
        for rec in with_gold:
            confusion[str(rec["gold_hops"])][str(rec["predicted_hops"])] += 1
        pairs = [rec["hop_answer_matches"] for rec in with_gold if rec.get("hop_answer_matches") is not None]
        width = max((len(p) for p in pairs), default=0)
        by_position = [ratio(sum(p[i] for p in pairs if len(p) > i), sum(1 for p in pairs if len(p) > i))
                       for i in range(width)]
        fallbacks = Counter(rec["fallback"] for _, rec in records if rec.get("fallback"))
        out[name] = {
            "n": len(records),
            "decomposers": dict(Counter(rec["decomposer"] for _, rec in records)),
            "fallbacks": sum(fallbacks.values()), "fallback_rate": ratio(sum(fallbacks.values()), len(records)),
            "fallback_reasons": dict(fallbacks),
            "predicted_hops_mean": mean([rec["predicted_hops"] for _, rec in records]),
            "n_with_gold": len(with_gold),
            "gold_hops_mean": mean([rec["gold_hops"] for rec in with_gold]),
            "hop_count_match_rate": ratio(sum(bool(rec["hop_count_match"]) for rec in with_gold), len(with_gold)),
            "hop_count_confusion": {gold: dict(sorted(c.items())) for gold, c in sorted(confusion.items())},
            "hop_answer_match_rate": ratio(sum(sum(p) for p in pairs), sum(len(p) for p in pairs)),
            "hop_answer_match_rate_by_position": by_position,
            "gold_answers_recovered_rate": ratio(sum(rec["gold_answers_recovered"] for rec in with_gold),
                                                 sum(rec["gold_hops"] for rec in with_gold)),
        }
    return out
