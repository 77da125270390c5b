"""The cross-run report (`factprobe compare A B … --html FILE`): the runs' tables side by side, their
configs line by line, and the questions whose grade differs between runs."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from factprobe.eval.analysis.summary import build_summary, latest_rows
from factprobe.eval.report.compare import compare_runs
from factprobe.eval.report.html.config import config_lines
from factprobe.eval.report.html.render import render_to
from factprobe.eval.report.html.rows import browser_meta, differing_records, records_json, script_json
from factprobe.eval.report.html.tables import HtmlTable, TableCollector, TableFn, report_tables
from factprobe.eval.store.run_dir import RunDir


@dataclass
class TableGroup:
    """The tables one table function printed, per run (an empty list where it printed none)."""

    source: str
    per_run: list[list[HtmlTable]]


def run_names(run_dirs: list[RunDir]) -> list[str]:
    """Folder names, or the paths as given when two runs share a folder name."""
    names = [run_dir.path.resolve().name for run_dir in run_dirs]
    return names if len(set(names)) == len(names) else [str(run_dir.path) for run_dir in run_dirs]


def group_tables(per_run: list[list[HtmlTable]]) -> list[TableGroup]:
    sources = list(dict.fromkeys(table.source for tables in per_run for table in tables))
    return [TableGroup(source, [[t for t in tables if t.source == source] for tables in per_run])
            for source in sources]


def config_rows(run_dirs: list[RunDir]) -> list[tuple[str, list[str], bool]]:
    """(label, value per run, whether the values differ) for every config line of any run."""
    lines = [config_lines(run_dir.read_manifest()) for run_dir in run_dirs]
    labels = list(dict.fromkeys(label for run in lines for label in run))
    rows = []
    for label in labels:
        values = [run.get(label, "–") for run in lines]
        rows.append((label, values, len(set(values)) > 1))
    return rows


def write_compare_html(run_dirs: list[RunDir], out: Path, table_functions: list[TableFn]) -> Path:
    """Write the cross-run report to `out`."""
    collector = TableCollector()
    collector.source = "compare_runs"
    compare_runs(run_dirs, collector)
    runs_rows = [latest_rows(run_dir.read_results()) for run_dir in run_dirs]
    per_run = [report_tables(table_functions, build_summary(rows, run_dir.read_manifest()))
               for run_dir, rows in zip(run_dirs, runs_rows)]
    names = run_names(run_dirs)
    records = differing_records(runs_rows)
    out.parent.mkdir(parents=True, exist_ok=True)
    return render_to(
        out, "compare.html.j2",
        title=f"factprobe compare: {' vs '.join(names)}",
        run_names=names,
        overview=collector.tables,
        config_rows=config_rows(run_dirs),
        groups=group_tables(per_run),
        rows_json=records_json(records),
        meta_json=script_json(browser_meta(records, names, None)),
        n_rows=len(records),
    )
