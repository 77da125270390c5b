"""Scaling curves: throughput against `--workers` and against `--concurrency` on the stand-in server,
the report's cost against rows, and a columnar reader against factprobe's own at the largest size.

- workers: 1, 2, … os.cpu_count(); 2,000 questions, vanilla, `--concurrency 64` per worker, a
  20 ms server (benchmarks/bench_workers.py's runs), alternating, median of ROUNDS.
- concurrency: 8, 32, 64, 128 in one process, the same questions and server, alternating, median.
- report: `factprobe report` over synthetic runs of 100k, 300k and 1M rows (benchmarks/
  synthetic_run.py), wall time and the report process's own peak RSS (benchmarks/isolated.py).
- readers: at 1M rows, the summary's read of results.jsonl by factprobe (RunDir.latest_slim), by
  pyarrow and by polars (benchmarks/columnar_read.py), each in its own process; equal digests mean
  equal values. A reader that is not installed is reported as such (`pip install pyarrow polars`).

Prints the tables and saves runs/bench-scaling/scaling.png and scaling.json. The columnar readers
are measured, not used by factprobe (docs/scaling.md, "Past one process", says why).
"""

from __future__ import annotations

import importlib.util
import json
import os
import statistics
import sys
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

from rich.console import Console
from rich.table import Table

from benchmarks.bench_report import ReportCost, measure_report
from benchmarks.bench_workers import WorkersCost, measure_option, measure_workers
from benchmarks.columnar_read import READERS
from benchmarks.isolated import run_isolated

QUESTIONS = 2000
WORKERS = tuple(range(1, (os.cpu_count() or 1) + 1))
CONCURRENCY = (8, 32, 64, 128)
ROWS = (100_000, 300_000, 1_000_000)
ROUNDS = 2
DELAY_S = 0.02
OUT = Path("runs") / "bench-scaling"


@dataclass
class Throughput:
    """One setting's runs: its median wall and CPU seconds."""

    setting: int
    wall_s: float
    cpu_s: float
    questions: int

    @property
    def per_s(self) -> float:
        return self.questions / self.wall_s


@dataclass
class ReaderCost:
    """One reader's read of the largest run: None figures when it is not installed."""

    reader: str
    rows: int | None = None
    read_s: float | None = None
    wall_s: float | None = None
    peak_mb: float | None = None
    digest: str | None = None


def throughput_of_workers(costs: list[WorkersCost], questions: int) -> list[Throughput]:
    return [Throughput(cost.workers, cost.wall_s, cost.cpu_s, questions) for cost in costs]


def measure_concurrency(folder: Path, questions: int = QUESTIONS, levels: tuple[int, ...] = CONCURRENCY,
                        rounds: int = ROUNDS, delay_s: float = DELAY_S) -> list[Throughput]:
    """One process at each `--concurrency`, `rounds` times, interleaved, each on an empty cache."""
    runs = measure_option(folder, "--concurrency", levels, questions, rounds, delay_s)
    return [Throughput(level, statistics.median(r.wall_s for r in done), statistics.median(r.cpu_s for r in done),
                       questions) for level, done in runs.items()]


def installed(reader: str) -> bool:
    return reader == "factprobe" or importlib.util.find_spec(reader) is not None


def measure_readers(run_dir: Path, readers: tuple[str, ...] = READERS) -> list[ReaderCost]:
    """Each reader's read of `run_dir`'s results.jsonl in its own process (wall time, peak RSS)."""
    costs = []
    for reader in readers:
        if not installed(reader):
            costs.append(ReaderCost(reader))
            continue
        out = run_dir.parent / f"read-{reader}.json"
        cost = run_isolated([sys.executable, "-m", "benchmarks.columnar_read", reader,
                             str(run_dir / "results.jsonl"), str(out)])
        measured = json.loads(out.read_text(encoding="utf-8"))
        costs.append(ReaderCost(reader, measured["rows"], measured["read_s"], cost.wall_s, cost.peak_mb,
                                measured["digest"]))
    return costs


def throughput_table(points: list[Throughput], what: str, title: str) -> Table:
    base = points[0]
    table = Table(title=title)
    for column in (what, "wall s", "questions/s", f"throughput / {what} {base.setting}", "CPU s"):
        table.add_column(column, justify="right")
    for point in points:
        table.add_row(str(point.setting), f"{point.wall_s:.1f}", f"{point.per_s:.0f}",
                      f"{base.wall_s / point.wall_s:.2f}x", f"{point.cpu_s:.1f}")
    return table


def report_table(costs: list[ReportCost]) -> Table:
    base = costs[0]
    table = Table(title="factprobe report against rows (synthetic runs, own process)")
    for column in ("rows", "wall s", "peak RSS MB", "µs per row", "wall / linear from first", "RSS / linear"):
        table.add_column(column, justify="right")
    for cost in costs:
        scale = cost.rows / base.rows
        table.add_row(f"{cost.rows:,}", f"{cost.wall_s:.1f}", f"{cost.peak_mb:.0f}",
                      f"{1e6 * cost.wall_s / cost.rows:.0f}", f"{cost.wall_s / (scale * base.wall_s):.2f}",
                      f"{cost.peak_mb / (scale * base.peak_mb):.2f}")
    return table


def readers_table(costs: list[ReaderCost], rows: int) -> Table:
    ours = next(cost for cost in costs if cost.reader == "factprobe")
    table = Table(title=f"the summary's read of results.jsonl, {rows:,} rows (own process each)")
    for column in ("reader", "read s", "process wall s", "peak RSS MB", "speed-up over factprobe's", "same values"):
        table.add_column(column, justify="left" if column == "reader" else "right")
    for cost in costs:
        if cost.read_s is None or ours.read_s is None:
            table.add_row(cost.reader, "not installed (pip install pyarrow polars)", "", "", "", "")
            continue
        table.add_row(cost.reader, f"{cost.read_s:.1f}", f"{cost.wall_s:.1f}", f"{cost.peak_mb:.0f}",
                      f"{ours.read_s / cost.read_s:.2f}x", "yes" if cost.digest == ours.digest else "NO")
    return table


def save_plot(workers: list[Throughput], concurrency: list[Throughput], reports: list[ReportCost],
              readers: list[ReaderCost], path: Path) -> Path:
    """One PNG, four panels: throughput against workers and concurrency, report cost against
    rows, and the readers at the largest size."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, ((left, right), (low_left, low_right)) = plt.subplots(2, 2, figsize=(11, 8))
    left.plot([p.setting for p in workers], [p.per_s for p in workers], "o-", label="measured")
    left.plot([p.setting for p in workers], [workers[0].per_s * p.setting for p in workers], ":", label="linear")
    left.set(xlabel="--workers", ylabel="questions / s", title="throughput against workers",
             xticks=[p.setting for p in workers], ylim=(0, None))
    left.legend()
    right.plot([p.setting for p in concurrency], [p.per_s for p in concurrency], "o-")
    right.set_xscale("log", base=2)
    right.set(xlabel="--concurrency (one process)", ylabel="questions / s", title="throughput against concurrency",
              xticks=[p.setting for p in concurrency], xticklabels=[str(p.setting) for p in concurrency],
              ylim=(0, None))
    low_left.plot([c.rows for c in reports], [c.wall_s for c in reports], "o-", color="tab:blue")
    low_left.set(xlabel="rows", ylabel="wall s", title="factprobe report against rows", ylim=(0, None),
                 xticks=[c.rows for c in reports], xticklabels=[f"{c.rows:,}" for c in reports])
    memory = low_left.twinx()
    memory.plot([c.rows for c in reports], [c.peak_mb for c in reports], "s--", color="tab:red")
    memory.set_ylim(0, None)
    memory.set_ylabel("peak RSS MB (dashed)", color="tab:red")
    measured = [c for c in readers if c.read_s is not None]
    bars = low_right.bar([c.reader for c in measured], [c.read_s or 0.0 for c in measured])
    low_right.bar_label(bars, labels=[f"{c.read_s:.1f} s, {c.peak_mb:.0f} MB" for c in measured])
    low_right.margins(y=0.15)
    low_right.set(ylabel="read s", title=f"summary's read, {max((c.rows or 0) for c in readers):,} rows")
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return path


def measure_all(folder: Path, questions: int = QUESTIONS, workers: tuple[int, ...] = WORKERS,
                levels: tuple[int, ...] = CONCURRENCY, sizes: tuple[int, ...] = ROWS,
                rounds: int = ROUNDS) -> dict:
    """Every curve, measured in `folder` (the synthetic runs are written there too)."""
    for part in ("workers", "concurrency"):
        (folder / part).mkdir(parents=True, exist_ok=True)
    worker_points = throughput_of_workers(measure_workers(folder / "workers", questions, workers, rounds),
                                          questions)
    concurrency = measure_concurrency(folder / "concurrency", questions, levels, rounds)
    reports = []
    for rows in sizes:
        reports.append(measure_report(folder, rows))
        if rows != sizes[-1]:   # only the largest run is kept, for the readers
            import shutil

            shutil.rmtree(folder / f"run-{rows}")
    readers = measure_readers(folder / f"run-{sizes[-1]}")
    return {"questions": questions, "cores": os.cpu_count(), "workers": worker_points,
            "concurrency": concurrency, "reports": reports, "readers": readers}


def print_and_save(measured: dict, console: Console, out: Path = OUT) -> Path:
    questions = measured["questions"]
    console.print(throughput_table(measured["workers"], "workers", f"throughput against --workers ({questions} "
                                   f"questions, --concurrency 64 each, {measured['cores']} cores)"))
    console.print(throughput_table(measured["concurrency"], "concurrency",
                                   f"throughput against --concurrency (one process, {questions} questions)"))
    console.print(report_table(measured["reports"]))
    console.print(readers_table(measured["readers"], measured["reports"][-1].rows))
    out.mkdir(parents=True, exist_ok=True)
    data = {key: [asdict(item) for item in value] if isinstance(value, list) else value
            for key, value in measured.items()}
    (out / "scaling.json").write_text(json.dumps(data, indent=2), encoding="utf-8")
    path = save_plot(measured["workers"], measured["concurrency"], measured["reports"], measured["readers"],
                     out / "scaling.png")
    console.print(f"plot: {path}; figures: {out / 'scaling.json'}")
    return path


def run(console: Console) -> None:
    with tempfile.TemporaryDirectory(prefix="factprobe-bench-") as folder:
        measured = measure_all(Path(folder))
    print_and_save(measured, console)
