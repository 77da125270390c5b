"""summary['self_awareness']: the MM-SAP knowledge quadrant per strategy (docs/protocols.md §6).

Over one strategy's rows (each (question, repeat) counts once; repeats are pooled, which equals the
mean over repeats when every repeat asks the same questions):

- refused = graded NOT_ATTEMPTED; answered = CORRECT or INCORRECT.
- forced outcome of a refused answerable row: for a strategy that offers the refusal option
  (`refusal`), the grade of the forced re-ask without it (eval.forced_reask, `forced_grade`); for
  any other strategy the prompt already had no refusal option, so the refusal is its own forced
  answer (not correct).
- known knowns KK = answerable and CORRECT.
- MM-SAP's I(q unknown): 1 for an unanswerable question (BeyondVisQA), 0 for a basic one
  (BasicVisQA: `subset` or category BasicVisQA; the paper holds that a basic visual question is
  never unknown), and for any other answerable question (KnowVisQA) 1 when its forced outcome is
  not CORRECT.
- known unknowns KU = refused and I(q unknown) = 1: unanswerable and refused, plus answerable, not
  basic, refused and forced outcome not CORRECT (the model refused and indeed did not know).
- unknown knowns UK = answerable, not basic, refused and forced outcome CORRECT (a known question
  refused); `basic_refused` = basic questions refused: in N, in neither KK nor KU (nor UK, whose
  rate is the paper's forced test), whatever their forced answer.
- N = rows whose quadrant is determined: UNGRADED/ERROR rows are `excluded`, and refused answerable
  rows (not basic) of a refusal strategy without a usable forced grade are `undetermined`; both
  are left out.
- score_kk = KK / N, score_ku = KU / N, score_sa = score_kk + score_ku;
  answer_rate = answered / N; answer_accuracy = CORRECT / answered;
  unknown_knowns_rate = UK / (answerable rows among N that are not basic): per question, Eq. 8's
  reading; unknown_knowns_per_refusal = UK / (UK + refused answerable rows that are not basic and
  wrong when forced), i.e. UK over the determined refusals of knowable questions: per refusal, the
  rate MM-SAP's Table 4 prints beside its refusal count (refusals × this rate = UK).
Each strategy's entry also holds `per_category`: the same figures per question category (MM-SAP's
subsets) when the rows span more than one, so one run over all three subsets gives Table 1's
columns and, pooled, its totals. A fraction with an empty denominator is None. The section is
present when the rows include unanswerable questions or a refusal strategy ran.
"""

from __future__ import annotations

from typing import Any

from factprobe.eval.analysis.metrics import ratio
from factprobe.eval.analysis.summary import SummaryInput, is_graded, summary_section
from factprobe.eval.core.schema import Grade, Result

USABLE_FORCED = {Grade.CORRECT.value, Grade.INCORRECT.value, Grade.NOT_ATTEMPTED.value}
NEVER_UNKNOWN = frozenset({"BasicVisQA"})   # MM-SAP: a basic visual question is never unknown


def never_unknown(row: Result) -> bool:
    """Whether the row's question is known by definition (MM-SAP's BasicVisQA, by its `subset`
    field or category)."""
    fields = row.extra_field("fields")
    subset = fields.get("subset") if isinstance(fields, dict) else None
    return row.category in NEVER_UNKNOWN or subset in NEVER_UNKNOWN


def forced_correct(row: Result, refusal_offered: bool) -> bool | None:
    """Whether the refused answerable row is answered correctly when forced; None if unknown."""
    if not refusal_offered:
        return False
    grade = getattr(row, "forced_grade", None)
    if grade not in USABLE_FORCED:
        return None
    return grade == Grade.CORRECT.value


def quadrant(rows: list[Result], refusal_offered: bool) -> dict[str, Any]:
    """Counts and MM-SAP scores of one strategy's rows (formulas in the module docstring);
    `refusal_offered`: the strategy's prompt offers a refusal option."""
    counts = {"known_knowns": 0, "known_unknowns": 0, "unknown_knowns": 0, "knowable_refused": 0,
              "basic_refused": 0, "answered": 0,
              "correct": 0, "refused": 0, "excluded": 0, "undetermined": 0, "n_answerable": 0,
              "n_unanswerable": 0, "n_basic": 0}
    for row in rows:
        if not is_graded(row):
            counts["excluded"] += 1
            continue
        refused = row.grade is Grade.NOT_ATTEMPTED
        basic = row.answerable and never_unknown(row)
        counts["n_basic"] += basic
        if basic:
            counts["basic_refused"] += refused
        elif row.answerable and refused:
            known = forced_correct(row, refusal_offered)
            if known is None:
                counts["undetermined"] += 1
                continue
            counts["unknown_knowns" if known else "known_unknowns"] += 1
            counts["knowable_refused"] += 1
        elif refused:
            counts["known_unknowns"] += 1
        counts["n_answerable" if row.answerable else "n_unanswerable"] += 1
        counts["refused"] += refused
        counts["answered"] += not refused
        counts["correct"] += row.grade is Grade.CORRECT
        counts["known_knowns"] += row.answerable and row.grade is Grade.CORRECT
    n = counts["n_answerable"] + counts["n_unanswerable"]
    kk, ku = ratio(counts["known_knowns"], n), ratio(counts["known_unknowns"], n)
    return {"n": n, **counts, "score_kk": kk, "score_ku": ku,
            "score_sa": None if kk is None or ku is None else kk + ku,
            "answer_rate": ratio(counts["answered"], n),
            "answer_accuracy": ratio(counts["correct"], counts["answered"]),
            "unknown_knowns_rate": ratio(counts["unknown_knowns"], counts["n_answerable"] - counts["n_basic"]),
            "unknown_knowns_per_refusal": ratio(counts["unknown_knowns"], counts["knowable_refused"])}


def with_categories(rows: list[Result], refusal_offered: bool) -> dict[str, Any]:
    """`quadrant` of all rows, plus `per_category` when they span more than one category."""
    pooled = quadrant(rows, refusal_offered)
    categories = sorted({row.category for row in rows})
    if len(categories) > 1:
        pooled["per_category"] = {category: quadrant([row for row in rows if row.category == category],
                                                     refusal_offered) for category in categories}
    return pooled


@summary_section("self_awareness", order=80)
def self_awareness(data: SummaryInput) -> dict[str, dict[str, Any]]:
    grouped = data.by_strategy
    offered = {name: data.strategy_flag(name, "offers_refusal") for name in grouped}
    if not any(offered.values()) and all(row.answerable for row in data.rows):
        return {}
    return {name: with_categories(rows, offered[name]) for name, rows in grouped.items()}
