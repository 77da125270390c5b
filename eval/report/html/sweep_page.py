"""sweep.html: a sweep's combined table (sortable, as printed), and a link to each cell's own report."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console

from factprobe.eval.report.html.figures import inline_figures
from factprobe.eval.report.html.render import render_to
from factprobe.eval.report.html.tables import TableCollector

SWEEP_HTML = "sweep.html"


def cell_links(rows: list[dict[str, Any]], folder: Path) -> list[tuple[str, str]]:
    """(cell, link to its report.html relative to `folder`), one per cell, in the rows' order."""
    links: dict[str, str] = {}
    for row in rows:
        report = Path(row["run_dir"]) / "report.html"
        links.setdefault(row["cell"], Path(os.path.relpath(report, folder)).as_posix())
    return list(links.items())


def write_sweep_html(rows: list[dict[str, Any]], folder: Path,
                     draw_table: Callable[[list[dict[str, Any]], Console], None],
                     figures: list[Path] | None = None) -> Path:
    """Write FOLDER/sweep.html with the table `draw_table` prints for `rows` and the figures
    (PNG paths, inlined from their SVGs)."""
    collector = TableCollector()
    collector.source = "sweep"
    draw_table(rows, collector)
    return render_to(folder / SWEEP_HTML, "sweep.html.j2", title=f"factprobe sweep: {folder.name}",
                     tables=collector.tables, cells=cell_links(rows, folder),
                     figures=inline_figures(figures or []))
