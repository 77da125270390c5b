"""`factprobe view DIR`: open the run's report.html in the default browser."""

from __future__ import annotations

import webbrowser
from pathlib import Path

from factprobe.eval.report.html.report import REPORT_HTML
from factprobe.eval.store.run_dir import RunDirError


def report_path(target: Path) -> Path:
    """DIR/report.html, or the HTML file itself; RunDirError when there is none."""
    path = target if target.suffix == ".html" else target / REPORT_HTML
    if not path.is_file():
        raise RunDirError(f"{path} does not exist: write it with `factprobe report {target}`")
    return path.resolve()


def open_report(target: Path) -> tuple[Path, bool]:
    """Open the report in the default browser; the path and whether a browser took it."""
    path = report_path(target)
    try:
        opened = webbrowser.open(path.as_uri())
    except webbrowser.Error:
        opened = False
    return path, opened
