"""Reports from a run directory: summary.json, terminal tables and PNG plots, without model calls.

Tables and plots are registered like summary sections (factprobe.eval.core.extensions): one function in
its own module, declared in the `factprobe.report` entry-point group (factprobe's own modules too) or
loaded with `--plugin`; they print and draw by (order, origin). A plot returns the path it wrote,
or None when the data has nothing to draw.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, overload

import orjson
from rich.console import Console

from factprobe.eval.analysis.summary import build_summary, latest_rows
from factprobe.eval.core.extensions import DEFAULT_ORDER, Registry, origin_of
from factprobe.eval.core.schema import Result
from factprobe.eval.core.speedups import report_rows_frozen
from factprobe.eval.report.html.report import REPORT_HTML, write_html_report
from factprobe.eval.store.run_dir import RunDir
from factprobe.eval.store.slim_rows import SlimRow

TableFn = Callable[[dict[str, Any], Console], None]
# A plot receives the latest rows as slim rows (factprobe.eval.store.slim_rows): every Result attribute
# works, and the bulky ones (trace, raw, question, hops, …) are read from results.jsonl on access.
PlotFn = Callable[[dict[str, Any], list[Result], Path], "Path | list[Path] | None"]

TABLES: Registry[TableFn] = Registry("report table", "factprobe.report")
BRIEF: set[str] = set()   # origins of the tables a run prints without --verbose (the main table)
# plots live in the same modules as tables, so the same group loads them
PLOTS: Registry[PlotFn] = Registry("report plot", "factprobe.report")


@overload
def report_table(function: TableFn, *, order: int = ..., brief: bool = ...) -> TableFn: ...
@overload
def report_table(function: None = None, *, order: int = ..., brief: bool = ...) -> Callable[[TableFn], TableFn]: ...
def report_table(function: TableFn | None = None, *, order: int = DEFAULT_ORDER, brief: bool = False) -> Any:
    """Decorator (`@factprobe.report_table`, or `(order=N)`): print this table in `factprobe report`
    and after a run with `--verbose` (`brief=True`: after every run), by (order, origin)."""

    def decorate(table: TableFn) -> TableFn:
        TABLES.add(origin_of(table), table, origin_of(table), order)
        if brief:
            BRIEF.add(origin_of(table))
        return table

    return decorate if function is None else decorate(function)


@overload
def report_plot(function: PlotFn, *, order: int = ...) -> PlotFn: ...
@overload
def report_plot(function: None = None, *, order: int = ...) -> Callable[[PlotFn], PlotFn]: ...
def report_plot(function: PlotFn | None = None, *, order: int = DEFAULT_ORDER) -> Any:
    """Decorator (`@factprobe.report_plot`, or `(order=N)`): draw this plot into the run directory,
    by (order, origin)."""

    def decorate(plot: PlotFn) -> PlotFn:
        PLOTS.add(origin_of(plot), plot, origin_of(plot), order)
        return plot

    return decorate if function is None else decorate(function)


def table_functions() -> list[TableFn]:
    """Every registered table function, by (order, origin)."""
    return TABLES.values()


def report_is_current(run_dir: RunDir) -> bool:
    """summary.json and report.html (written last) are newer than results.jsonl and manifest.json,
    and summary.json is a summary (a damaged or hand-edited one is redrawn)."""
    paths = (run_dir.summary_path, run_dir.path / REPORT_HTML, run_dir.results_path, run_dir.manifest_path)
    if not all(path.is_file() for path in paths):
        return False
    summary, html, results, manifest = (path.stat().st_mtime_ns for path in paths)
    return min(summary, html) >= max(results, manifest) and _is_summary(run_dir.summary_path)


def _is_summary(path: Path) -> bool:
    """summary.json parses (NaN and Infinity are not JSON) to an object with its `strategies`."""
    try:
        data = orjson.loads(path.read_bytes())
    except (OSError, ValueError, RecursionError):
        return False
    return isinstance(data, dict) and isinstance(data.get("strategies"), dict)


def write_report(run_dir: RunDir, console: Console, config: dict[str, Any] | None = None,
                 verbose: bool = True, rows: list[SlimRow] | None = None) -> dict[str, Any]:
    """Recompute summary.json from results.jsonl, draw every plot and write report.html; print
    every table and plot path (`verbose`), or the main table and where the files are; `config`
    replaces options of the manifest's config that change no result (`report --group-by`).
    `rows`: the run's latest rows exactly as `run_dir.latest_slim()` reads them, from a caller that
    holds the run's lock and has just read (or, merging, written) them; read here otherwise."""
    tables, plots = TABLES.values(), PLOTS.values()
    # read once, slim (no traces): the summary and plots read these; the HTML page streams the full
    # rows from the file by their offsets
    with run_dir.report_lock():         # two reports of one directory at once take turns
        return _read_and_write(run_dir, console, tables, plots, config, verbose, rows)


def _read_and_write(run_dir: RunDir, console: Console, tables: Any, plots: Any,
                    config: dict[str, Any] | None, verbose: bool, given: list[SlimRow] | None) -> dict[str, Any]:
    rows: list[Any] = run_dir.latest_slim() if given is None else given
    with report_rows_frozen():   # factprobe.eval.core.speedups
        # grouped by strategy once, for the sections and the plots alike
        return _write_report(run_dir, console, latest_rows(rows), tables, plots, config or {}, verbose)


def _write_report(run_dir: RunDir, console: Console, rows: list[Any], tables: list[TableFn],
                  plots: list[PlotFn], config: dict[str, Any], verbose: bool) -> dict[str, Any]:
    manifest = run_dir.read_manifest()
    manifest["config"] = {**(manifest.get("config") or {}), **config}
    summary = build_summary(rows, manifest, run_dir.path)
    run_dir.write_summary(summary)
    for table in tables:
        if verbose or origin_of(table) in BRIEF:
            table(summary, console)
    written: list[Path] = []
    for plot in plots:
        out = plot(summary, rows, run_dir.path)
        if isinstance(out, Path):
            written.append(out)
        elif out:
            written.extend(out)
    if verbose:
        for path in written:
            console.print(f"plot: {path}")
    elif written:
        console.print(f"plots: {len(written)} PNG files in {run_dir.path}")
    console.print(f"report: {write_html_report(run_dir, summary, tables, written, rows)}")
    if not verbose:
        console.print(f"summary: {run_dir.summary_path}; every table: --verbose, or "
                      f"`factprobe report {run_dir.path}`")
    return summary
