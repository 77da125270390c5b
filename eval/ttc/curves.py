"""Test-time-compute curves from recorded samples, without calling the model again (docs/protocols.md §4).

best_of_n rows carry every sample (graded during the run by eval.ttc.step) and the selection
the run made; self_refine rows carry every round. A curve point is computed on the answerable rows
whose selected sample has a grade:

- best_of_n, N = 1, 2, 4, … and the run's N: the run's selector applied to the first N samples.
  `majority` and `confidence` are recomputed exactly (agents.selection). `model` needs a model
  call per N: N = 1 is sample 1, the run's N is the run's own pick, and intermediate N use the
  picks the `prefix_picks` post step asked for during the run; without them the point is None.
  Curves for the other two selectors are added offline under `other_selectors`.
- self_refine, round 0 … K: the latest answer at or before that round (a run that stopped early
  keeps its answer). tokens_mean at a point counts the calls needed to reach it: the first N
  samples plus that N's selection call, or rounds 0..k, plus any call outside them (retrieval).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from factprobe.agents.selection import confidence_index, majority_index
from factprobe.eval.analysis.metrics import grade_metrics, mean
from factprobe.eval.core.schema import Grade, Result


def curve_sizes(samples: int) -> list[int]:
    """1, 2, 4, … below `samples`, then `samples` itself."""
    sizes, size = [], 1
    while size < samples:
        sizes.append(size)
        size *= 2
    return [*sizes, samples] if samples >= 1 else []


def row_tokens(row: Result) -> int:
    return row.prompt_tokens + row.completion_tokens


def choose_step(row: Result) -> dict[str, Any]:
    """The best_of_n `choose` trace step (selector, chosen sample, pick_failed, tokens)."""
    return next((step for step in row.trace if step.get("step") == "choose"), {})


def pick(row: Result, size: int, selector: str) -> tuple[int, int, bool] | None:
    """(0-based sample, selection tokens, pick_failed) for the first `size` samples, or None."""
    samples = row.samples or []
    if size == 1:
        return 0, 0, False
    if selector == "majority":
        return majority_index([s.get("answer") for s in samples[:size]]), 0, False
    if selector == "confidence":
        return confidence_index([s.get("confidence") for s in samples[:size]]), 0, False
    if size == len(samples):
        step = choose_step(row)
        index = next((i for i, s in enumerate(samples) if s.get("selected")), None)
        return None if index is None else (index, step.get("tokens", 0), bool(step.get("pick_failed")))
    for entry in getattr(row, "prefix_picks", None) or []:
        if entry.get("n") == size and entry.get("index") is not None:
            return entry["index"], entry.get("tokens", 0), bool(entry.get("pick_failed"))
    return None


def point(grades: Sequence[Grade], tokens: Sequence[float]) -> dict[str, Any]:
    scores = grade_metrics(grades)
    return {"accuracy": scores["accuracy"], "f_score": scores["f_score"], "tokens_mean": mean(tokens),
            "rows": len(grades)}


def curve_columns(n: list[int], points: list[dict[str, Any]]) -> dict[str, list]:
    return {"n": n, **{key: [p[key] for p in points] for key in ("accuracy", "f_score", "tokens_mean", "rows")}}


def best_of_n_curve(rows: list[Result], selector: str) -> dict[str, Any]:
    """Accuracy, F-score and mean tokens at N = 1, 2, 4, … for one selector."""
    rows = [row for row in rows if row.answerable and row.samples]
    if not rows:
        return {}
    sizes = curve_sizes(min(len(row.samples or []) for row in rows))
    points, failed = [], []
    for size in sizes:
        grades, tokens, failures = [], [], 0
        for row in rows:
            samples = row.samples or []
            choice = pick(row, size, selector)
            if choice is None or samples[choice[0]].get("grade") is None:
                continue
            index, select_tokens, pick_failed = choice
            sampled = sum(s.get("tokens", 0) for s in samples)
            outside = row_tokens(row) - sampled - choose_step(row).get("tokens", 0)
            grades.append(Grade(samples[index]["grade"]))
            tokens.append(sum(s.get("tokens", 0) for s in samples[:size]) + select_tokens + outside)
            failures += pick_failed
        points.append(point(grades, tokens))
        failed.append(failures)
    return {**curve_columns(sizes, points), "unit": "samples", "selector": selector, "pick_failed": failed}


def self_refine_curve(rows: list[Result], rounds: int | None = None) -> dict[str, Any]:
    """Accuracy, F-score and mean tokens after round 0 (the first answer), 1, …, K."""
    rows = [row for row in rows if row.answerable and row.samples]
    if not rows:
        return {}
    last = max(int(s.get("round", 0)) for row in rows for s in row.samples or [])
    rounds = last if rounds is None else max(rounds, last)
    points = []
    for k in range(rounds + 1):
        grades, tokens = [], []
        for row in rows:
            records = sorted(row.samples or [], key=lambda s: int(s.get("round", 0)))
            reached = [s for s in records if int(s.get("round", 0)) <= k]
            if not reached or reached[-1].get("grade") is None:
                continue
            outside = row_tokens(row) - sum(s.get("tokens", 0) for s in records)
            grades.append(Grade(reached[-1]["grade"]))
            tokens.append(sum(s.get("tokens", 0) for s in reached) + outside)
        points.append(point(grades, tokens))
    stopped = [next((int(s["round"]) for s in row.samples or [] if s.get("verdict") == "keep"
                     and not s.get("refined")), None) for row in rows]
    return {**curve_columns(list(range(rounds + 1)), points), "unit": "rounds",
            "stopped_early": sum(r is not None for r in stopped)}
