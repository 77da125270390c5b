"""`factprobe view DIR`: open the run's report.html in the default browser."""

from __future__ import annotations

import webbrowser
from pathlib import Path

from factprobe.eval.report.html.report import REPORT_HTML
from factprobe.eval.store.run_dir import RESULTS, RunDirError


def report_path(target: Path) -> Path:
    """DIR/report.html, or the HTML file itself; RunDirError naming the missing path (`factprobe
    report` is suggested only for a run directory whose results are there to report)."""
    path = target if target.suffix == ".html" else target / REPORT_HTML
    if path.is_file():
        return path.resolve()
    folder = path.parent
    if target.is_file():
        raise RunDirError(f"{target} is a file, not a run directory: give the folder a run wrote (its --out), "
                          f"or its report.html")
    if not folder.is_dir():
        raise RunDirError(f"{folder} does not exist: there is no run there (check the path; "
                          f"`factprobe run --out {folder}` writes one)")
    if not (folder / RESULTS).is_file():
        raise RunDirError(f"{folder / RESULTS} does not exist: {folder} holds no run to show "
                          f"(`factprobe run --out {folder}` writes one)")
    raise RunDirError(f"{path} does not exist: write it with `factprobe report {folder}`")


def open_report(target: Path) -> tuple[Path, bool]:
    """Open the report in the default browser; the path and whether a browser took it."""
    path = report_path(target)
    try:
        opened = webbrowser.open(path.as_uri())
    except webbrowser.Error:
        opened = False
    return path, opened
