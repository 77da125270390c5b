"""summary['gains']: every strategy against the baseline, paired over the same (question, repeat).

Scores: the pairs where both rows are answerable and graded (CORRECT, INCORRECT or NOT_ATTEMPTED;
UNGRADED and ERROR pairs are left out and counted in `excluded_pairs`); `n_pairs` of them over
`n_questions` questions. On them: both F-scores and accuracies and their deltas (strategy −
baseline). Uncertainty treats the question as the unit, keeping its repeats together (eval.stats):
- `ci_low`/`ci_high` (ΔF) and `accuracy_ci_low`/`accuracy_ci_high`: percentile cluster-bootstrap
  95% intervals (2,000 resamples of the questions, seeded with the run's seed; `ci_method`);
- `p_value` (ΔF) and `accuracy_p_value`: two-sided clustered sign-flip tests of that same delta
  (2,000 random swaps of the two strategies' labels per question, or all of them when there are
  fewer; `p_method`), so the p beside ΔF tests ΔF;
- `mcnemar_p_value`: exact McNemar on correct vs not correct, only with one pair per question
  (independent pairs), else null; `better`/`worse` count its discordant pairs.
With fewer than two questions the intervals are null.
Grader: `undecided_share` and `baseline_undecided_share` (UNGRADED among each side's answerable paired
rows that did not fail, factprobe.eval.analysis.metrics), their `undecided_share_gap` and
`grader_bias_warning` (the shares differ by more than 5 points: part of ΔF is the grader's).
Costs: over the pairs where neither row failed (answerable or not), mean latency and mean tokens
(prompt + completion) of the strategy divided by the baseline's; None when the baseline's is 0.
`latency_total_ratio`: the strategy's total compute time (`latency_s_total`, every row that did not
fail) over the baseline's, the ratio of the totals a reader of `strategies` would divide; it equals
`latency_ratio` when both finished the same rows.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from factprobe.eval.analysis.columns import CODE, GRADE_ORDER, columns_of, grade_counts, is_graded
from factprobe.eval.analysis.metrics import mean, metrics_from_counts, undecided_gap
from factprobe.eval.analysis.stats import (
    CI_METHOD,
    DEFAULT_FLIPS,
    DEFAULT_RESAMPLES,
    P_METHOD,
    accuracy_delta,
    cluster_bootstrap_ci,
    cluster_counts,
    f_delta,
    mcnemar_exact,
    sign_flip_p_value,
)
from factprobe.eval.analysis.summary import SummaryInput, summary_section
from factprobe.eval.core.modality import SEPARATOR, reference_setting, split_variant
from factprobe.eval.core.schema import Grade, Result

# paired-test codes by grade code: 1 = correct, 0 = incorrect, −1 = not attempted (graded rows only)
CODES = np.zeros(len(GRADE_ORDER), dtype=int)
CODES[[CODE[Grade.CORRECT], CODE[Grade.INCORRECT], CODE[Grade.NOT_ATTEMPTED]]] = (1, 0, -1)


def cost_ratio(values: list[float], baseline: list[float]) -> float | None:
    top, bottom = mean(values), mean(baseline)
    if top is None or not bottom:
        return None
    return top / bottom


def total_ratio(values: np.ndarray, baseline: np.ndarray) -> float | None:
    bottom = float(baseline.sum())
    return float(values.sum()) / bottom if bottom else None


def undecided_shares(a_grades: np.ndarray, b_grades: np.ndarray) -> dict[str, Any]:
    """Both sides' undecided shares over the same rows (grade codes), and whether they differ too much."""
    ours, theirs = (metrics_from_counts(grade_counts(codes))["undecided_share"] for codes in (a_grades, b_grades))
    return {"undecided_share": ours, "baseline_undecided_share": theirs, **undecided_gap(ours, theirs)}


def uncertainty(question_ids: list[str], a: np.ndarray, b: np.ndarray, seed: int,
                n_resamples: int = DEFAULT_RESAMPLES, n_flips: int = DEFAULT_FLIPS) -> dict[str, Any]:
    """Clustered intervals and p-values of ΔF and Δaccuracy, and the McNemar extra for one repeat."""
    counts = cluster_counts(question_ids, a, b)
    out: dict[str, Any] = {"n_questions": counts.shape[0], "ci_method": CI_METHOD, "p_method": P_METHOD,
                           "accuracy_p_method": P_METHOD, "n_resamples": n_resamples,
                           "n_permutations": n_flips, "seed": seed}
    for prefix, statistic in (("", f_delta), ("accuracy_", accuracy_delta)):
        low = high = p_value = None
        if counts.shape[0]:
            p_value = float(sign_flip_p_value(counts, statistic, n_flips, seed))
        if counts.shape[0] >= 2:
            low, high = (float(v) for v in cluster_bootstrap_ci(counts, statistic, n_resamples, seed=seed))
        out.update({f"{prefix}ci_low": low, f"{prefix}ci_high": high, f"{prefix}p_value": p_value})
    single = counts.shape[0] > 0 and bool(np.all(counts[:, 0] == 1))
    test = mcnemar_exact(a == 1, b == 1)
    out.update({"mcnemar_p_value": test.p_value if single else None, "better": test.better, "worse": test.worse})
    return out


def compare(rows: list[Result], baseline: Mapping[tuple[str, int], Result] | list[Result], seed: int,
            n_resamples: int = DEFAULT_RESAMPLES, n_flips: int = DEFAULT_FLIPS) -> dict[str, Any]:
    """The gains entry of one strategy's rows against the baseline rows by (question, repeat)
    (`baseline`: those rows, or them by (question, repeat)); computed on the shared columns."""
    ours = columns_of(rows)
    position: Mapping[tuple[str, int], int]
    if isinstance(baseline, list):
        theirs = columns_of(baseline)
        position = theirs.positions
    else:
        theirs = columns_of(list(baseline.values()))
        position = {pair: index for index, pair in enumerate(baseline)}
    found = np.fromiter((position.get(pair, -1) for pair in zip(ours.question_id, ours.repeat)), dtype=np.int64,
                        count=len(rows))
    a_index = np.flatnonzero(found >= 0)                # the pairs, in our rows' order
    b_index = found[a_index]
    a_grades, b_grades = ours.grade[a_index], theirs.grade[b_index]
    answerable = ours.answerable[a_index] & theirs.answerable[b_index]
    scored = answerable & is_graded(a_grades) & is_graded(b_grades)
    a_scores = metrics_from_counts(grade_counts(a_grades[scored]))
    b_scores = metrics_from_counts(grade_counts(b_grades[scored]))
    a_codes, b_codes = CODES[a_grades[scored]], CODES[b_grades[scored]]

    def delta(key: str) -> float | None:
        if a_scores[key] is None or b_scores[key] is None:
            return None
        return a_scores[key] - b_scores[key]

    finished = ours.finished[a_index] & theirs.finished[b_index]
    a_done, b_done = a_index[finished], b_index[finished]
    question_ids = ours.question_id
    return {
        "n_pairs": int(scored.sum()), "excluded_pairs": int(answerable.sum() - scored.sum()),
        "f_score": a_scores["f_score"], "baseline_f_score": b_scores["f_score"], "f_score_delta": delta("f_score"),
        "accuracy": a_scores["accuracy"], "baseline_accuracy": b_scores["accuracy"],
        "accuracy_delta": delta("accuracy"),
        **undecided_shares(a_grades[answerable], b_grades[answerable]),
        **uncertainty([question_ids[i] for i in a_index[scored]], a_codes, b_codes, seed, n_resamples, n_flips),
        "latency_ratio": cost_ratio(ours.latency_s[a_done], theirs.latency_s[b_done]),
        "latency_total_ratio": total_ratio(ours.latency_s[ours.finished], theirs.latency_s[theirs.finished]),
        "tokens_ratio": cost_ratio(ours.prompt_tokens[a_done] + ours.completion_tokens[a_done],
                                   theirs.prompt_tokens[b_done] + theirs.completion_tokens[b_done]),
    }


@summary_section("gains", order=40)
def gains(data: SummaryInput) -> dict[str, dict[str, Any]]:
    """{strategy: gains entry} for every strategy but the baseline."""
    name_of_baseline = data.baseline
    if name_of_baseline is None:
        return {}
    grouped = data.by_strategy
    seed = int(data.manifest.get("config", {}).get("seed", 0))
    out = {name: compare(rows, grouped[name_of_baseline], seed) for name, rows in grouped.items()
           if name != name_of_baseline}
    for name, entry in out.items():   # recorded answers have no measured costs to divide
        if data.strategy_flag(name, "recorded") or data.strategy_flag(name_of_baseline, "recorded"):
            entry.update(latency_ratio=None, latency_total_ratio=None, tokens_ratio=None)
    return out


@summary_section("modality_gains", order=50)
def modality_gains(data: SummaryInput) -> dict[str, dict[str, Any]]:
    """{X@S: entry} pairing each variant in input setting S with the same strategy X in the reference
    setting R (text when the run has it, else its first setting; factprobe.eval.core.modality): the
    `gains` entry of X@S against X@R, plus `reference` (X@R) and `setting` (S). Empty without variants."""
    grouped = data.by_strategy
    variants = {name: split_variant(name) for name in grouped if SEPARATOR in name}
    settings = data.manifest.get("config", {}).get("modality") or list(dict.fromkeys(s for _, s in variants.values()))
    reference = reference_setting(settings)
    seed = int(data.manifest.get("config", {}).get("seed", 0))
    out: dict[str, dict[str, Any]] = {}
    for name, (strategy, setting) in variants.items():
        against = f"{strategy}{SEPARATOR}{reference}"
        if setting != reference and against in grouped:
            out[name] = {"reference": against, "setting": setting, **compare(grouped[name], grouped[against], seed)}
    return out

