"""The cross-run report (`factprobe compare A B … --html FILE`): each run paired with the baseline run
(ΔF with CIs and p, per category; ΔECE and Δover with CIs), the cross-run figures, the runs' tables side by side, their
configs line by line, and the questions whose grade differs between runs. Local absolute paths are
shortened (factprobe.eval.report.html.shareable): the page is meant to be shared."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from factprobe.eval.analysis.cross_run import strategy_lines
from factprobe.eval.analysis.loaded_runs import LoadedRun
from factprobe.eval.report.compare import (
    agreement_table,
    calibration_pair_table,
    category_table,
    judge_rank_table,
    paired_table,
    side_by_side,
)
from factprobe.eval.report.html.config import config_lines
from factprobe.eval.report.html.figures import InlineFigure
from factprobe.eval.report.html.render import render_to
from factprobe.eval.report.html.rows import browser_meta, differing_records, records_json, script_json
from factprobe.eval.report.html.shareable import shareable
from factprobe.eval.report.html.tables import HtmlTable, TableCollector, TableFn, report_tables


@dataclass
class TableGroup:
    """The tables one table function printed, per run (an empty list where it printed none)."""

    source: str
    per_run: list[list[HtmlTable]]


def group_tables(per_run: list[list[HtmlTable]]) -> list[TableGroup]:
    sources = list(dict.fromkeys(table.source for tables in per_run for table in tables))
    return [TableGroup(source, [[t for t in tables if t.source == source] for tables in per_run])
            for source in sources]


def config_rows(runs: list[LoadedRun]) -> list[tuple[str, list[str], bool]]:
    """(label, value per run, whether the values differ) for every config line of any run."""
    lines = [config_lines(run.manifest) for run in runs]
    labels = list(dict.fromkeys(label for run in lines for label in run))
    rows = []
    for label in labels:
        values = [shareable(run.get(label, "–")) for run in lines]
        rows.append((label, values, len(set(values)) > 1))
    return rows


def _shareable_table(table: HtmlTable) -> HtmlTable:
    table.rows = [[shareable(cell) for cell in row] for row in table.rows]
    table.title, table.caption = shareable(table.title), shareable(table.caption)
    return table


def browser_names(runs: list[LoadedRun], data: dict[str, Any]) -> list[dict[str, str]]:
    """Per run, {its strategy: the name the question browser matches it under}: the paired strategies'
    names joined with " vs " (one name when they agree)."""
    names: list[dict[str, str]] = [{} for _ in runs]
    index = {run.name: number for number, run in enumerate(runs)}
    for line in strategy_lines(data).values():
        label = " vs ".join(dict.fromkeys(line.values()))
        for run_name, strategy in line.items():
            names[index[run_name]][strategy] = label
    return names


def write_compare_html(runs: list[LoadedRun], data: dict[str, Any], out: Path, table_functions: list[TableFn],
                       figures: list[InlineFigure] | None = None) -> Path:
    """Write the cross-run report to `out`."""
    collector = TableCollector()
    collector.source = "compare_runs"
    side_by_side(runs, collector)
    paired_table(data, collector)
    calibration_pair_table(data, collector)
    category_table(data, collector)
    agreement_table(data, collector)
    judge_rank_table(data, collector)
    per_run = [report_tables(table_functions, run.summary) for run in runs]
    names = [run.name for run in runs]
    records = differing_records([run.rows for run in runs], browser_names(runs, data))
    out.parent.mkdir(parents=True, exist_ok=True)
    return render_to(
        out, "compare.html.j2",
        title=f"factprobe compare: {' vs '.join(names)}",
        run_names=names,
        warnings=data["warnings"],
        overview=[_shareable_table(table) for table in collector.tables],
        figures=figures or [],
        config_rows=config_rows(runs),
        groups=[TableGroup(g.source, [[_shareable_table(t) for t in ts] for ts in g.per_run])
                for g in group_tables(per_run)],
        rows_json=shareable(records_json(records)),
        meta_json=script_json(browser_meta(records, names, None)),
        n_rows=len(records),
    )
