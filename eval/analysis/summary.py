"""summary.json from results.jsonl: one function per section, registered by name.

A new section (or a new per-strategy metric) is one function in its own module, declared in the
`factprobe.summary` entry-point group (factprobe's own modules too) or loaded with `--plugin`
(factprobe.eval.core.extensions); sections run, and metrics add their keys, by (order, name).
`build_summary` is the only caller, for `run` and `report` alike.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from functools import cached_property
from operator import attrgetter
from pathlib import Path
from typing import Any, Callable, Iterator, overload

from factprobe.eval.analysis.columns import StrategyRows
from factprobe.eval.config.baseline import resolve_baseline
from factprobe.eval.core.extensions import DEFAULT_ORDER, Registry, origin_of
from factprobe.eval.core.schema import GRADED, Result

SummarySection = Callable[["SummaryInput"], Any]
StrategyMetric = Callable[[list[Result]], dict[str, Any]]

SECTIONS: Registry[SummarySection] = Registry("summary section", "factprobe.summary")
# per-strategy metrics live in the same modules, so the same group loads them
STRATEGY_METRICS: Registry[StrategyMetric] = Registry("strategy metric", "factprobe.summary")


@dataclass
class SummaryInput:
    """The latest row per (question, strategy, repeat), grouped by strategy in run order.

    `factprobe report` passes slim rows (factprobe.eval.store.slim_rows.SlimRow): every Result attribute
    works, the bulky ones (trace, raw, question, hops, …) are read from results.jsonl on access, so
    a section should prefer the held fields and the digests `hop_grades` / `trace_steps`.
    """

    rows: list[Result]
    manifest: dict[str, Any] = field(default_factory=dict)
    directory: Path | None = None   # the run directory, for sections reading its side files

    @cached_property  # every section reads it; grouping 100,000 rows once is enough
    def by_strategy(self) -> dict[str, list[Result]]:
        return strategy_groups(self.rows)

    @property
    def baseline(self) -> str | None:
        """The strategy gains are measured against, as the manifest fixed it (`config.baseline`).

        A manifest written before the baseline was recorded gets the same rule applied to its
        strategy list (vanilla, else the first given). None when the baseline has no rows.
        """
        config = self.manifest.get("config") or {}
        names = self.by_strategy
        chosen = config.get("baseline") or resolve_baseline(None, config.get("strategies") or list(names))
        return chosen if chosen in names else None

    def strategy_flag(self, strategy: str, flag: str) -> bool:
        """A strategy spec flag (`samples`, `offers_refusal`, `retrieves`, `selects`, `refines`) as
        the manifest recorded it (`strategy_flags`), so a report loads no strategy; for a run from
        before that key (or that flag), the strategy registry's answer (False for a strategy not
        registered in this process)."""
        recorded = (self.manifest.get("strategy_flags") or {}).get(strategy)
        if recorded is not None and flag in recorded:
            return bool(recorded[flag])
        from factprobe.agents.registry import describes

        return describes(strategy, flag)


def summary_section(name: str, order: int = DEFAULT_ORDER) -> Callable[[SummarySection], SummarySection]:
    """Decorator (`@factprobe.summary_section`): the function computes `summary[name]`; sections
    run, and appear in summary.json, by (order, name)."""

    def decorate(function: SummarySection) -> SummarySection:
        SECTIONS.add(name, function, origin_of(function), order)
        return function

    return decorate


@overload
def strategy_metric(function: StrategyMetric, *, order: int = ...) -> StrategyMetric: ...
@overload
def strategy_metric(function: None = None, *, order: int = ...) -> Callable[[StrategyMetric], StrategyMetric]: ...
def strategy_metric(function: StrategyMetric | None = None, *, order: int = DEFAULT_ORDER) -> Any:
    """Decorator (`@factprobe.strategy_metric`, or `@factprobe.strategy_metric(order=N)`): the function
    adds keys to every `summary['strategies'][name]`; metrics run by (order, origin)."""

    def decorate(metric: StrategyMetric) -> StrategyMetric:
        STRATEGY_METRICS.add(origin_of(metric), metric, origin_of(metric), order)
        return metric

    return decorate if function is None else decorate(function)


def strategy_metrics() -> list[StrategyMetric]:
    return STRATEGY_METRICS.values()


class LatestRows(list):
    """The latest row per (question, strategy, repeat), as `latest_rows` gives them, grouped by
    strategy once for every section and plot (`strategy_groups`); not to be changed afterwards."""

    @cached_property
    def by_strategy(self) -> dict[str, StrategyRows]:
        grouped: dict[str, StrategyRows] = defaultdict(StrategyRows)
        for row in self:
            grouped[row.strategy].append(row)
        return dict(grouped)


def strategy_groups(rows: list[Result]) -> dict[str, list[Result]]:
    """The rows of each strategy, in run order; the shared groups (and their columns,
    factprobe.eval.analysis.columns) when `rows` are `LatestRows`."""
    return dict(rows.by_strategy if isinstance(rows, LatestRows) else LatestRows(rows).by_strategy)


def latest_rows(rows: list[Result]) -> LatestRows:
    """Keep the last row for each (question, strategy, repeat): a resumed retry supersedes an error.

    The rows come back in one canonical order (strategies as they first appear, then question id and
    repeat), not in the order they were written: concurrent answering, a resume or a merge of shards
    writes the same rows in another order, and no figure may depend on it (a float sum does)."""
    if isinstance(rows, LatestRows):
        return rows
    # three stable sorts, least significant key first, instead of a dict and a tuple per row (a
    # million rows): equal keys stay in file order, so the last of each run is the latest row
    strategy_rank: dict[str, int] = {}
    ranks = [strategy_rank.setdefault(strategy, len(strategy_rank)) for strategy in map(attrgetter("strategy"), rows)]
    ids: list[str] = list(map(attrgetter("question_id"), rows))
    repeats: list[int] = list(map(attrgetter("repeat"), rows))
    order = sorted(range(len(rows)), key=repeats.__getitem__)
    order.sort(key=ids.__getitem__)
    order.sort(key=ranks.__getitem__)
    return LatestRows(rows[i] for i in _last_of_each_key(order, ranks, ids, repeats))


def _last_of_each_key(order: list[int], ranks: list[int], ids: list[str], repeats: list[int]) -> Iterator[int]:
    """The positions in `order` (sorted by the keys) whose key the next position does not share."""
    for i, following in zip(order, [*order[1:], None]):
        if following is None or ids[following] != ids[i] or repeats[following] != repeats[i] \
                or ranks[following] != ranks[i]:
            yield i


def answerable(rows: list[Result]) -> list[Result]:
    """Rows whose question has a gold answer; SimpleQA metrics are defined on these."""
    return [row for row in rows if row.answerable]


def is_graded(row: Result) -> bool:
    return row.grade in GRADED


def build_summary(rows: list[Result], manifest: dict[str, Any] | None = None,
                  directory: Path | None = None) -> dict[str, Any]:
    """Every registered section computed from the rows (and the run directory's side files)."""
    data = SummaryInput(latest_rows(rows), manifest or {}, directory)
    return {name: section(data) for name, section in SECTIONS.items().items()}
