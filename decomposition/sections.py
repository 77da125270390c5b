"""summary.json sections `per_hop` and `decomposition` (docs/protocols.md §5, Video SimpleQA Table 4).

`per_hop[strategy][hop_count]` scores the sub-QA probes (closed-book, or with the strategy's
retrieval for a retrieval strategy) beside the strategy's final answer on the answerable multi-hop
questions; `per_hop_pooled[strategy]` is the same pooled over every hop count (position i over the
rows with at least i hops):
- `hop_f_scores[i]`: F-score of hop i+1's probes; `final_f_score`: F-score of the final answers;
- `hop_f_score_cis[i]` and `final_f_score_ci`: 95% percentile bootstrap intervals resampling
  questions (a question's repeats together; eval.stats, 2,000 resamples, the run's seed), null
  with fewer than two questions or no graded row; `n_questions`;
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

import numpy as np

from factprobe.eval.analysis.columns import CODE, GRADE_ORDER
from factprobe.eval.analysis.metrics import grade_metrics, mean, ratio
from factprobe.eval.analysis.stats import DEFAULT_RESAMPLES, bootstrap_statistics, f_from_counts, percentile_interval
from factprobe.eval.analysis.summary import SummaryInput, answerable, summary_section
from factprobe.eval.core.schema import GRADED, Grade, Result
from factprobe.eval.store.slim_rows import hop_grades


def probe_grades(row: Result) -> list[Grade] | None:
    probes = row.extra_field("hop_probes")
    if not probes or len(probes) != row.hop_count:
        return None
    return [Grade(probe["grade"]) for probe in probes]


def chain_grades(row: Result) -> list[Grade] | None:
    grades = hop_grades(row)
    if row.extra_field("decomposition") is None or not grades or len(grades) != row.hop_count:
        return None
    if any(grade is None for grade in grades):
        return None
    return [Grade(grade) for grade in grades]


def row_label(row: Result) -> str:
    return row.question_id if row.repeat == 0 else f"{row.question_id}#r{row.repeat}"


def grade_counts(grade: Grade) -> list[int]:
    """(graded, correct, attempted) of one grade, the counts F is computed from."""
    return [int(grade in GRADED), int(grade is Grade.CORRECT), int(grade in (Grade.CORRECT, Grade.INCORRECT))]


GRADE_COUNTS = np.array([grade_counts(grade) for grade in GRADE_ORDER], dtype=float)   # by grade code


def column_f_scores(totals: np.ndarray) -> np.ndarray:
    """F of every (graded, correct, attempted) column triple: totals (resamples, 3·columns) →
    (columns, resamples)."""
    return f_from_counts(totals[..., 1::3], totals[..., 2::3], totals[..., 0::3]).swapaxes(-1, -2)


def f_intervals(rows: list[Result], width: int, grades_of: Callable[[Result], list[Grade] | None],
                seed: int, n_resamples: int = DEFAULT_RESAMPLES) -> dict[str, Any]:
    """Bootstrap 95% CIs over questions of the final F and of each hop position's F.

    One set of resampled questions serves every column, so the intervals are computed jointly;
    a question's repeats (and all its rows) stay together.
    """
    ids = sorted({row.question_id for row in rows})
    position = {qid: i for i, qid in enumerate(ids)}
    cells: list[int] = []                                      # question · (width + 1) + column
    codes: list[int] = []                                      # column 0: final answers, 1…: hops
    for row in rows:
        start = position[row.question_id] * (width + 1)
        cells.append(start)
        codes.append(CODE[row.grade])
        for i, grade in enumerate(grades_of(row) or []):
            cells.append(start + i + 1)
            codes.append(CODE[grade])
    weights = GRADE_COUNTS[np.asarray(codes, dtype=np.int64).reshape(-1)]     # (entries, 3)
    counts = np.stack([np.bincount(np.asarray(cells, dtype=np.int64), weights=weights[:, k],
                                   minlength=len(ids) * (width + 1)) for k in range(3)],
                      axis=-1).reshape(len(ids), width + 1, 3)
    intervals: list[list[float] | None] = [None] * (width + 1)
    if len(ids) >= 2:
        values = bootstrap_statistics(counts.reshape(len(ids), -1), column_f_scores, n_resamples, seed)
        for column in range(width + 1):
            if counts[:, column, 0].sum():
                low, high = percentile_interval(values[column])
                intervals[column] = [float(low), float(high)]
    return {"n_questions": len(ids), "final_f_score_ci": intervals[0], "hop_f_score_cis": intervals[1:]}


def hop_table(rows: list[Result], hop_count: int,
              grades_of: Callable[[Result], list[Grade] | None]) -> dict[str, Any]:
    """Per-hop F-scores, the weakest hop and the joint final/hop outcomes.

    `hop_count` is the number of hop positions; a row with fewer hops (the pooled entry) counts at
    the positions it has.
    """
    with_hops = [(row, grades) for row in rows if (grades := grades_of(row)) is not None]
    hop_scores = [grade_metrics(grades[i] for _, grades in with_hops if len(grades) > i)
                  for i in range(hop_count)]
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


def per_hop_entry(group: list[Result], hop_count: int, seed: int) -> dict[str, Any]:
    """The per_hop entry of rows with `hop_count` hop positions (at most, for the pooled entry)."""
    final = grade_metrics(row.grade for row in group)
    entry = {"n": len(group), "hop_source": "probes", "final_f_score": final["f_score"],
             "final_accuracy": final["accuracy"], **hop_table(group, hop_count, probe_grades),
             **f_intervals(group, hop_count, probe_grades, seed)}
    if any(row.extra_field("decomposition") is not None for row in group):
        chain = f_intervals(group, hop_count, chain_grades, seed)
        entry["chain"] = {**hop_table(group, hop_count, chain_grades), "hop_f_score_cis": chain["hop_f_score_cis"]}
    return entry


def _seed(data: SummaryInput) -> int:
    return int((data.manifest.get("config") or {}).get("seed") or 0)


@summary_section("per_hop", order=100)
def per_hop(data: SummaryInput) -> dict[str, dict[str, dict[str, Any]]]:
    """{strategy: {hop_count: entry}} for strategies with multi-hop questions (contract: the keys
    are hop counts only; the pooled entry is `per_hop_pooled`)."""
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for name, rows in data.by_strategy.items():
        groups = multi_hop_groups(rows)
        if groups:
            out[name] = {str(count): per_hop_entry(group, count, _seed(data)) for count, group in groups.items()}
    return out


@summary_section("per_hop_pooled", order=110)
def per_hop_pooled(data: SummaryInput) -> dict[str, dict[str, Any]]:
    """{strategy: entry} over every hop count pooled (hop position i over the questions that have it)."""
    out: dict[str, dict[str, Any]] = {}
    for name, rows in data.by_strategy.items():
        groups = multi_hop_groups(rows)
        if groups:
            out[name] = per_hop_entry([row for group in groups.values() for row in group], max(groups), _seed(data))
    return out


@summary_section("decomposition", order=120)
def decomposition(data: SummaryInput) -> dict[str, dict[str, Any]]:
    """Decomposition quality per decomposing strategy: fallbacks, hop counts, hop-answer matches."""
    out: dict[str, dict[str, Any]] = {}
    for name, rows in data.by_strategy.items():
        records = [(row, rec) for row in rows if (rec := row.extra_field("decomposition")) is not None]
        if not records:
            continue
        with_gold = [rec for _, rec in records if rec.get("gold_hops")]
        confusion: dict[str, Counter] = defaultdict(Counter)
        for rec in with_gold:
            confusion[str(rec["gold_hops"])][str(rec["predicted_hops"])] += 1
        pairs = [rec["hop_answer_matches"] for rec in with_gold if rec.get("hop_answer_matches") is not None]
        width = max((len(p) for p in pairs), default=0)
        # an undecided match (None: the grader could not decide) is left out, never counted a miss
        by_position = [ratio(sum(p[i] is True for p in pairs if len(p) > i),
                             sum(p[i] is not None for p in pairs if len(p) > i)) for i in range(width)]
        decided = [match for p in pairs for match in p if match is not None]
        undecided_gold = sum(rec.get("gold_answers_undecided") or 0 for rec in with_gold)
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
            "hop_answer_match_rate": ratio(sum(decided), len(decided)),
            "hop_answer_match_rate_by_position": by_position,
            "hop_answer_matches_undecided": sum(len(p) for p in pairs) - len(decided),
            "gold_answers_recovered_rate": ratio(sum(rec["gold_answers_recovered"] for rec in with_gold),
                                                 sum(rec["gold_hops"] for rec in with_gold) - undecided_gold),
            "gold_answers_undecided": undecided_gold,
        }
    return out
