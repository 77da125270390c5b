"""Reports from a run directory: summary.json, terminal tables and PNG plots, without model calls.

Tables and plots are registered like summary sections: one function in its own module plus a line
in REPORT_MODULES. A plot returns the path it wrote, or None when the data has nothing to draw.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any, Callable

from rich.console import Console

from factprobe.eval.html.report import write_html_report
from factprobe.eval.run_dir import RunDir
from factprobe.eval.schema import Result
from factprobe.eval.summary import build_summary, latest_rows

TableFn = Callable[[dict[str, Any], Console], None]
PlotFn = Callable[[dict[str, Any], list[Result], Path], "Path | list[Path] | None"]

REPORT_MODULES = [
    "factprobe.eval.tables.scores",
    "factprobe.eval.tables.retrieval",
    "factprobe.eval.tables.ttc",
    "factprobe.eval.tables.self_awareness",
    "factprobe.eval.plots.ttc",
    "factprobe.decomposition.report",
    "factprobe.calibration.table",
    "factprobe.calibration.plots",
]

_TABLES: list[TableFn] = []
_PLOTS: list[PlotFn] = []


def report_table(function: TableFn) -> TableFn:
    """Decorator: print this table after a run and in `factprobe report`."""
    if function not in _TABLES:
        _TABLES.append(function)
    return function


def report_plot(function: PlotFn) -> PlotFn:
    """Decorator: draw this plot into the run directory."""
    if function not in _PLOTS:
        _PLOTS.append(function)
    return function


def _load() -> None:
    for module in REPORT_MODULES:
        importlib.import_module(module)


def table_functions() -> list[TableFn]:
    """Every registered table function, in registration order."""
    _load()
    return list(_TABLES)


def write_report(run_dir: RunDir, console: Console) -> dict[str, Any]:
    """Recompute summary.json from results.jsonl, print every table, draw every plot."""
    _load()
    rows = run_dir.read_results()
    summary = build_summary(rows, run_dir.read_manifest())
    run_dir.write_summary(summary)
    for table in _TABLES:
        table(summary, console)
    written: list[Path] = []
    for plot in _PLOTS:
        out = plot(summary, latest_rows(rows), run_dir.path)
        if isinstance(out, Path):
            written.append(out)
        elif out:
            written.extend(out)
    for path in written:
        console.print(f"plot: {path}")
    console.print(f"report: {write_html_report(run_dir, summary, _TABLES, written, latest_rows(rows))}")
    return summary
