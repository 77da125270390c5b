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
from factprobe.eval.store.disk_space import stop_when_full
from factprobe.eval.store.run_dir import MANIFEST, RESULTS, RunDir
from factprobe.eval.store.slim_rows import SlimRow

TableFn = Callable[[dict[str, Any], Console], None]
LeadWhen = Callable[[dict[str, Any]], bool]
# A plot receives the latest rows as slim rows (factprobe.eval.store.slim_rows): every Result attribute
# works, and the bulky ones (trace, raw, question, hops, …) are read from results.jsonl on access.
PlotFn = Callable[[dict[str, Any], list[Result], Path], "Path | list[Path] | None"]

TABLES: Registry[TableFn] = Registry("report table", "factprobe.report")
BRIEF: set[str] = set()   # origins of the tables a run prints without --verbose (the main table)
# origin -> when that table leads the terminal output (printed first, with or without --verbose):
# the scores the command was asked for (--where, --group-by) and a benchmark's own headline metrics
LEAD: dict[str, LeadWhen] = {}
# plots live in the same modules as tables, so the same group loads them
PLOTS: Registry[PlotFn] = Registry("report plot", "factprobe.report")


@overload
def report_table(function: TableFn, *, order: int = ..., brief: bool = ...,
                 lead: LeadWhen | None = ...) -> TableFn: ...
@overload
def report_table(function: None = None, *, order: int = ..., brief: bool = ...,
                 lead: LeadWhen | None = ...) -> Callable[[TableFn], TableFn]: ...
def report_table(function: TableFn | None = None, *, order: int = DEFAULT_ORDER, brief: bool = False,
                 lead: LeadWhen | None = None) -> Any:
    """Decorator (`@factprobe.report_table`, or `(order=N)`): print this table in `factprobe report`
    and after a run with `--verbose` (`brief=True`: after every run), by (order, origin).
    `lead(summary)` true: the table is printed first, before the others, after every run."""

    def decorate(table: TableFn) -> TableFn:
        TABLES.add(origin_of(table), table, origin_of(table), order)
        if brief:
            BRIEF.add(origin_of(table))
        if lead is not None:
            LEAD[origin_of(table)] = lead
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


def terminal_tables(summary: dict[str, Any], tables: list[TableFn], verbose: bool) -> list[TableFn]:
    """The tables to print, in order: those leading for this summary, then the main table (every
    other table too when `verbose`), each by (order, origin)."""
    leading = [table for table in tables if LEAD.get(origin_of(table), _never)(summary)]
    rest = [table for table in tables if table not in leading and (verbose or origin_of(table) in BRIEF)]
    return leading + rest


def _never(summary: dict[str, Any]) -> bool:
    return False


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
    then = f"finish the report with `factprobe report {run_dir.path}`"
    with run_dir.report_lock(), stop_when_full(run_dir.path, report_space(run_dir), then):
        return _read_and_write(run_dir, console, tables, plots, config, verbose, rows)


FIRST_REPORT_SPACE = 4 * 2**20   # about what the plots and page of a small run's first report take


def report_space(run_dir: RunDir) -> int:
    """About the room writing the report needs: as much as results.jsonl (the HTML page holds every
    row), and as much again as the report's files now (each new file is written beside the old one
    before replacing it), or FIRST_REPORT_SPACE when there are none yet."""
    files = [path for path in run_dir.path.iterdir() if path.is_file()
             and path.name not in (RESULTS, MANIFEST) and not path.name.startswith(".")]
    existing = sum(path.stat().st_size for path in files)
    rows = run_dir.results_path.stat().st_size if run_dir.results_path.is_file() else 0
    return rows + (existing or FIRST_REPORT_SPACE)


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
    for table in terminal_tables(summary, tables, verbose):
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
            console.print(f"plot: {path}", markup=False)
    elif written:
        console.print(f"plots: {len(written)} PNG files in {run_dir.path}", markup=False)
    console.print(f"report: {write_html_report(run_dir, summary, tables, written, rows)}", markup=False)
    if not verbose:
        console.print(f"summary: {run_dir.summary_path}; every table: --verbose, or "
                      f"`factprobe report {run_dir.path}`", markup=False)
    return summary
