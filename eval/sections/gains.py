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
Costs: over the pairs where neither row failed (answerable or not), mean latency and mean tokens
(prompt + completion) of the strategy divided by the baseline's; None when the baseline's is 0.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from factprobe.eval.metrics import grade_metrics, mean
from factprobe.eval.media.modality import SEPARATOR, reference_setting, split_variant
from factprobe.eval.schema import Grade, Result
from factprobe.eval.stats import (CI_METHOD, DEFAULT_FLIPS, DEFAULT_RESAMPLES, P_METHOD, accuracy_delta,
                                  cluster_bootstrap_ci, cluster_counts, f_delta, mcnemar_exact, sign_flip_p_value)
from factprobe.eval.summary import SummaryInput, is_graded, summary_section

CODES = {Grade.CORRECT: 1, Grade.INCORRECT: 0, Grade.NOT_ATTEMPTED: -1}


def cost_ratio(values: list[float], baseline: list[float]) -> float | None:
    top, bottom = mean(values), mean(baseline)
    if top is None or not bottom:
        return None
    return top / bottom


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


def compare(rows: list[Result], baseline: dict[tuple[str, int], Result], seed: int,
            n_resamples: int = DEFAULT_RESAMPLES, n_flips: int = DEFAULT_FLIPS) -> dict[str, Any]:
    """The gains entry of one strategy's rows against the baseline rows by (question, repeat)."""
    pairs = [(row, baseline[(row.question_id, row.repeat)]) for row in rows
             if (row.question_id, row.repeat) in baseline]
    answerable = [(a, b) for a, b in pairs if a.answerable and b.answerable]
    scored = [(a, b) for a, b in answerable if is_graded(a) and is_graded(b)]
    ours = grade_metrics(a.grade for a, _ in scored)
    theirs = grade_metrics(b.grade for _, b in scored)
    a_codes = np.array([CODES[a.grade] for a, _ in scored], dtype=int)
    b_codes = np.array([CODES[b.grade] for _, b in scored], dtype=int)

    def delta(key: str) -> float | None:
        if ours[key] is None or theirs[key] is None:
            return None
        return ours[key] - theirs[key]

    finished = [(a, b) for a, b in pairs if a.error is None and b.error is None]
    return {
        "n_pairs": len(scored), "excluded_pairs": len(answerable) - len(scored),
        "f_score": ours["f_score"], "baseline_f_score": theirs["f_score"], "f_score_delta": delta("f_score"),
        "accuracy": ours["accuracy"], "baseline_accuracy": theirs["accuracy"],
        "accuracy_delta": delta("accuracy"),
        **uncertainty([a.question_id for a, _ in scored], a_codes, b_codes, seed, n_resamples, n_flips),
        "latency_ratio": cost_ratio([a.latency_s for a, _ in finished], [b.latency_s for _, b in finished]),
        "tokens_ratio": cost_ratio([a.prompt_tokens + a.completion_tokens for a, _ in finished],
                                   [b.prompt_tokens + b.completion_tokens for _, b in finished]),
    }


@summary_section("gains")
def gains(data: SummaryInput) -> dict[str, dict[str, Any]]:
    """{strategy: gains entry} for every strategy but the baseline."""
    name_of_baseline = data.baseline
    if name_of_baseline is None:
        return {}
    grouped = data.by_strategy
    baseline = {(row.question_id, row.repeat): row for row in grouped[name_of_baseline]}
    seed = int(data.manifest.get("config", {}).get("seed", 0))
    return {name: compare(rows, baseline, seed) for name, rows in grouped.items()
            if name != name_of_baseline}


@summary_section("modality_gains")
def modality_gains(data: SummaryInput) -> dict[str, dict[str, Any]]:
    """{X@S: entry} pairing each variant in input setting S with the same strategy X in the reference
    setting R (text when the run has it, else its first setting; factprobe.eval.media.modality): the
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
            pairs = {(row.question_id, row.repeat): row for row in grouped[against]}
            out[name] = {"reference": against, "setting": setting, **compare(grouped[name], pairs, seed)}
    return out

