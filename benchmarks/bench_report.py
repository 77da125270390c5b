"""`factprobe report` over large synthetic runs: wall time and peak memory, 100,000 and 300,000 rows.

Each report runs as its own process, started by a small launcher (benchmarks/isolated.py); peak
memory is that process's maximum resident set size.
Growth is judged by the 300,000-row figures over three times the 100,000-row ones (1.0 is linear).
"""

from __future__ import annotations

import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console

from benchmarks.figures import Figure, print_figures
from benchmarks.isolated import run_isolated
from benchmarks.synthetic_run import write_run

SIZES = (100_000, 300_000)


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
