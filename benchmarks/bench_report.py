"""`factprobe report` over large synthetic runs: wall time and peak memory, 100,000 and 300,000 rows.

Each report runs as its own process; peak memory is that process's maximum resident set size.
Growth is judged by the 300,000-row figures over three times the 100,000-row ones (1.0 is linear).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console

from benchmarks.figures import Figure, print_figures
from benchmarks.synthetic_run import write_run

SIZES = (100_000, 300_000)


@dataclass
class ReportCost:
    rows: int
    wall_s: float
    peak_mb: float


def measure_report(folder: Path, rows: int) -> ReportCost:
    """Write a synthetic run of `rows` rows and time `factprobe report` on it."""
    run_dir = write_run(folder, rows)
    started = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "factprobe.eval.cli", "report", str(run_dir)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise RuntimeError(f"factprobe report {run_dir} exited {process.returncode}: "
                           f"{process.stderr.read().decode()[-2000:] if process.stderr else ''}")
    return ReportCost(rows, wall, usage.ru_maxrss / 1024)  # ru_maxrss is in KiB on Linux


def report_figures(costs: list[ReportCost]) -> list[Figure]:
    figures: list[Figure] = []
    for cost in costs:
        checked = cost.rows == SIZES[0]
        figures.append(Figure(f"report, {cost.rows:,} rows: wall time", f"{cost.wall_s:.1f} s",
                              "<= 10 s" if checked else "", cost.wall_s <= 10 if checked else None))
        figures.append(Figure(f"report, {cost.rows:,} rows: peak memory", f"{cost.peak_mb:.0f} MB",
                              "<= 500 MB" if checked else "", cost.peak_mb <= 500 if checked else None))
    if len(costs) == 2:
        small, large = costs
        scale = large.rows / small.rows
        figures.append(Figure("time growth (300k / 3 x 100k)", f"{large.wall_s / (scale * small.wall_s):.2f}",
                              "<= 1.2 (linear)", large.wall_s <= 1.2 * scale * small.wall_s))
        figures.append(Figure("memory growth (300k / 3 x 100k)",
                              f"{large.peak_mb / (scale * small.peak_mb):.2f}", "<= 1.2 (linear)",
                              large.peak_mb <= 1.2 * scale * small.peak_mb))
    return figures


def run(console: Console) -> None:
    with tempfile.TemporaryDirectory(prefix="factprobe-bench-") as folder:
        costs = [measure_report(Path(folder), rows) for rows in SIZES]
    print_figures(console, "factprobe report on synthetic runs", report_figures(costs))
