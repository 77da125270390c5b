"""Run directories read once for analyses across runs (compare, difficulty)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from factprobe.eval.analysis.groups import check_fields, filtered, parse_where
from factprobe.eval.analysis.summary import LatestRows, build_summary, latest_rows
from factprobe.eval.core.schema import Result
from factprobe.eval.store.run_dir import RunDir


@dataclass
class LoadedRun:
    """One run directory read once: its display name (never an absolute path), rows and manifest."""

    name: str
    path: Path
    rows: LatestRows
    manifest: dict[str, Any]

    @property
    def seed(self) -> int:
        return int((self.manifest.get("config") or {}).get("seed", 0))

    @property
    def by_strategy(self) -> dict[str, list[Result]]:
        return dict(self.rows.by_strategy)

    @cached_property
    def summary(self) -> dict[str, Any]:
        """The run's summary recomputed from its rows (as `factprobe report` would write it)."""
        return build_summary(self.rows, self.manifest, self.path)


def display_names(paths: list[Path]) -> list[str]:
    """The shortest trailing parts of each path that tell the runs apart (`a/run`, `b/run`), so a
    page meant to be shared names no local absolute path."""
    parts = [path.resolve().parts for path in paths]
    for depth in range(1, max(len(p) for p in parts) + 1):
        names = ["/".join(p[-depth:]).lstrip("/") for p in parts]
        if len(set(names)) == len(names):
            return names
    return [f"{name}#{index + 1}" for index, name in enumerate(names)]


def load_runs(paths: list[Path]) -> list[LoadedRun]:
    names = display_names(paths)
    runs = []
    for name, path in zip(names, paths):
        run_dir = RunDir(path)
        runs.append(LoadedRun(name, path, latest_rows(run_dir.read_results()), run_dir.read_manifest()))
    return runs




def narrowed(runs: list[LoadedRun], where: str | None, group_by: Sequence[str] = ()) -> list[LoadedRun]:
    """The runs kept to their rows matching `where`, each scored by `group_by` too (its summary's
    `groups`), as `factprobe report --where --group-by` reads them; the runs as they are without
    either. A malformed condition or unknown field is report's GroupError."""
    if not where and not group_by:
        return runs
    conditions = parse_where(where)
    kept = []
    for run in runs:
        check_fields(run.rows, group_by, "--group-by")
        config = {**(run.manifest.get("config") or {}), "group_by": list(group_by), "where": where}
        rows = LatestRows(filtered(run.rows, conditions))
        kept.append(LoadedRun(run.name, run.path, rows, {**run.manifest, "config": config}))
    return kept
