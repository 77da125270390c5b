"""Statistics a measurement adds to every pair of `factprobe compare` (a run's strategy against the
baseline run's, over the shared questions), beside the ΔF and Δaccuracy of
factprobe.eval.analysis.cross_run.

A pair metric takes (rows, baseline rows, seed, bootstrap resamples) and returns keys for the pair
entry. It is registered with `@pair_metric` in a module of the `factprobe.summary` entry-point group
(as the per-strategy metrics are), so a measurement folder above this layer adds its own without
this layer importing it (calibration adds ΔECE and Δover, factprobe.calibration.summary).
"""

from __future__ import annotations

from typing import Any, Callable

from factprobe.eval.core.extensions import DEFAULT_ORDER, Registry, origin_of
from factprobe.eval.core.schema import Result

PairMetric = Callable[[list[Result], list[Result], int, int], dict[str, Any]]
PAIR_METRICS: Registry[PairMetric] = Registry("pair metric", "factprobe.summary")


def pair_metric(*, order: int = DEFAULT_ORDER) -> Callable[[PairMetric], PairMetric]:
    """Decorator: the function adds keys to every `compare` pair; metrics run by (order, origin)."""

    def decorate(metric: PairMetric) -> PairMetric:
        PAIR_METRICS.add(origin_of(metric), metric, origin_of(metric), order)
        return metric

    return decorate


def pair_metric_values(rows: list[Result], baseline: list[Result], seed: int, n_resamples: int,
                       taken: set[str]) -> dict[str, Any]:
    """Every pair metric's keys; a key already `taken` (by the pair entry or another metric) is an error."""
    out: dict[str, Any] = {}
    for origin, metric in PAIR_METRICS.items().items():
        values = metric(rows, baseline, seed, n_resamples)
        clash = (taken | set(out)) & set(values)
        if clash:
            raise ValueError(f"pair metric {origin} returns key(s) already in the pair: {', '.join(sorted(clash))}")
        out.update(values)
    return out
