"""report.html for one run: config, every table (sortable), every plot as SVG, the question browser."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from factprobe.eval.core.schema import Result
from factprobe.eval.report.html.config import config_sections
from factprobe.eval.report.html.figures import inline_figures
from factprobe.eval.report.html.media import media_previews
from factprobe.eval.report.html.render import render_to
from factprobe.eval.report.html.rows import browser_meta, filter_choices, record_list_chunks, script_json
from factprobe.eval.report.html.tables import TableFn, report_tables
from factprobe.eval.store.run_dir import RunDir

REPORT_HTML = "report.html"


def write_html_report(run_dir: RunDir, summary: dict[str, Any], table_functions: list[TableFn],
                      plot_paths: list[Path], rows: list[Result]) -> Path:
    """Write DIR/report.html from the summary, the table functions, the plots and the latest rows (with
    thumbnails of the images they sent and their sound tracks, factprobe.eval.report.html.media)."""
    manifest = run_dir.read_manifest()
    baseline = summary.get("baseline")
    name = run_dir.path.resolve().name
    return render_to(
        run_dir.path / REPORT_HTML, "report.html.j2",
        streamed={"rows_json": record_list_chunks(rows, baseline)},
        title=f"factprobe report: {name}",
        run_name=name,
        config=config_sections(manifest),
        tables=report_tables(table_functions, summary),
        figures=inline_figures(plot_paths),
        meta_json=script_json(browser_meta(filter_choices(rows), [name], baseline)),
        media_json=script_json(media_previews(rows, run_dir.path)),
        n_rows=len(rows),
    )
