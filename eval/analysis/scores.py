"""Core sections: per-strategy SimpleQA metrics and costs, the baseline, and per-category scores."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from factprobe.eval.analysis.columns import answerable_scores, columns_of, grade_counts
from factprobe.eval.analysis.metrics import grade_metrics, mean, percentile
from factprobe.eval.analysis.summary import SummaryInput, answerable, strategy_metric, strategy_metrics, summary_section
from factprobe.eval.core.schema import Grade, Result

# per category: the full CO/IN/NA/CGA/F with their counts (Video SimpleQA Table 7)
CATEGORY_KEYS = ("n", "correct", "incorrect", "not_attempted", "ungraded", "errors", "accuracy", "incorrect_rate",
                 "not_attempted_rate", "cga", "f_score")
CORE_KEYS = ("n", "correct", "incorrect", "not_attempted", "ungraded", "errors", "accuracy", "cga",
             "f_score")


@strategy_metric(order=10)
def simpleqa_scores(rows: list[Result]) -> dict[str, Any]:
    """SimpleQA counts and fractions on the answerable rows; unanswerable rows are counted apart,
    their ERROR rows too (`errors_unanswerable`; `errors_all` counts every ERROR row)."""
    scores = dict(answerable_scores(rows))
    columns = columns_of(rows)
    scores["n_unanswerable"] = len(rows) - int(columns.answerable.sum())
    unanswerable = grade_counts(columns.grade[~columns.answerable])
    scores["errors_unanswerable"] = unanswerable.get(Grade.ERROR, 0)
    scores["errors_all"] = scores["errors"] + scores["errors_unanswerable"]
    return scores


COST_KEYS = ("latency_s_mean", "latency_s_p95", "latency_s_total", "llm_latency_s_mean", "retrieval_latency_s_mean",
             "prompt_tokens_mean", "completion_tokens_mean", "llm_calls_mean")


@strategy_metric(order=20)
def costs(rows: list[Result]) -> dict[str, Any]:
    """Latency (compute time: model calls plus retrieval), tokens and calls per row; `latency_s_total`
    sums the compute time of the rows that did not fail (Video SimpleQA's Table 3 reports the total)."""
    columns = columns_of(rows)
    done = columns.finished
    latencies = columns.latency_s[done]
    return {
        "latency_s_mean": mean(latencies), "latency_s_p95": percentile(latencies, 95),
        "latency_s_total": float(latencies.sum()),
        "llm_latency_s_mean": mean(columns.llm_latency_s[done]),
        "retrieval_latency_s_mean": mean(columns.retrieval_latency_s[done]),
        "prompt_tokens_mean": mean(columns.prompt_tokens[done]),
        "completion_tokens_mean": mean(columns.completion_tokens[done]),
        "llm_calls_mean": mean(columns.llm_calls[done]),
    }


@summary_section("strategies", order=10)
def strategies(data: SummaryInput) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for name, rows in data.by_strategy.items():
        merged: dict[str, Any] = {}
        for metric in strategy_metrics():
            merged.update(metric(rows))
        if data.strategy_flag(name, "recorded"):   # answers from a file: costs not measured, not zero
            merged.update(dict.fromkeys(COST_KEYS))
        out[name] = merged
    return out


@summary_section("baseline", order=20)
def baseline(data: SummaryInput) -> str | None:
    return data.baseline


@summary_section("per_category", order=30)
def per_category(data: SummaryInput) -> dict[str, dict[str, dict[str, Any]]]:
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for name, rows in data.by_strategy.items():
        grouped: dict[str, list[Result]] = defaultdict(list)
        for row in answerable(rows):
            grouped[row.category].append(row)
        out[name] = {}
        for category in sorted(grouped):
            scores = grade_metrics(row.grade for row in grouped[category])
            out[name][category] = {key: scores[key] for key in CATEGORY_KEYS}
    return out
