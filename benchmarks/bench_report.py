"""`factprobe report` over large synthetic runs: wall time and peak memory, 1,000,000 and 3,000,000 rows.

Each report runs as its own process, started by a small launcher (benchmarks/isolated.py); peak
memory is that process's maximum resident set size. The targets are those of the million-row run
(at most 60 s and 1,000 MB); the 3,000,000-row run shows the growth, judged by its figures over
three times the million-row ones (1.0 is linear). Writing the two runs takes a few minutes and
4.5 GB of disk in the temporary folder.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console

from benchmarks.figures import Figure, print_figures
from benchmarks.isolated import run_isolated
from benchmarks.synthetic_run import write_run

SIZES = (1_000_000, 3_000_000)
WALL_S, PEAK_MB = 60.0, 1000.0


@dataclass
class ReportCost:
    rows: int
    wall_s: float
    peak_mb: float


def measure_report(folder: Path, rows: int) -> ReportCost:
    """Write a synthetic run of `rows` rows and time `factprobe report` on it (through
    benchmarks/isolated.py, so the peak is the report's own)."""
    run_dir = write_run(folder, rows)
    cost = run_isolated([sys.executable, "-m", "factprobe.eval.cli.main", "report", str(run_dir)])
    return ReportCost(rows, cost.wall_s, cost.peak_mb)


def report_figures(costs: list[ReportCost]) -> list[Figure]:
    figures: list[Figure] = []
    for cost in costs:
        checked = cost.rows == SIZES[0]
        figures.append(Figure(f"report, {cost.rows:,} rows: wall time", f"{cost.wall_s:.1f} s",
                              f"<= {WALL_S:.0f} s" if checked else "", cost.wall_s <= WALL_S if checked else None))
        figures.append(Figure(f"report, {cost.rows:,} rows: peak memory", f"{cost.peak_mb:.0f} MB",
                              f"<= {PEAK_MB:,.0f} MB" if checked else "", cost.peak_mb <= PEAK_MB if checked else None))
    if len(costs) == 2:
        small, large = costs
        scale = large.rows / small.rows
        figures.append(Figure("time growth (3M / 3 x 1M)", f"{large.wall_s / (scale * small.wall_s):.2f}",
                              "<= 1.2 (linear)", large.wall_s <= 1.2 * scale * small.wall_s))
        figures.append(Figure("memory growth (3M / 3 x 1M)",
                              f"{large.peak_mb / (scale * small.peak_mb):.2f}", "<= 1.2 (linear)",
                              large.peak_mb <= 1.2 * scale * small.peak_mb))
    return figures


def run(console: Console) -> None:
    with tempfile.TemporaryDirectory(prefix="factprobe-bench-") as folder:
        costs = []
        for rows in SIZES:
            costs.append(measure_report(Path(folder), rows))
            shutil.rmtree(Path(folder) / f"run-{rows}")       # one run on disk at a time
    print_figures(console, "factprobe report on synthetic runs", report_figures(costs))
