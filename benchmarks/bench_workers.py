"""Throughput against `--workers` on the stand-in server, side by side in one session.

2,000 generated questions, vanilla only, no hop probes, rule grader, `--concurrency 64` in every
worker, a 20 ms server. The runs alternate (1, 2, 1, 2, …) so both settings see the same machine
load; each figure is the median of its rounds. Wall time is from launch to exit (the merge and the
report included), CPU the process's and its workers' user + system time; the server's CPU is read
from /proc before and after each run, and its share of the cores is that CPU over the run's wall
time times the cores (on 2 cores it shares them with the workers: measured 0.1 s of CPU per 2,000
requests, about 1% of the cores over a `--workers 2` run).
"""

from __future__ import annotations

import os
import statistics
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from rich.console import Console
from rich.table import Table

from benchmarks.chat_server import ChatServer
from benchmarks.client_harness import ProcessCost, factprobe_command, run_process, write_dataset
from benchmarks.figures import Figure, print_figures

QUESTIONS = 2000
WORKERS = (1, 2)
ROUNDS = 2
TARGET = 0.6   # --workers 2 over --workers 1, wall time, on 2 cores


@dataclass
class WorkersCost:
    workers: int
    runs: list[ProcessCost]

    @property
    def wall_s(self) -> float:
        return statistics.median(run.wall_s for run in self.runs)

    @property
    def cpu_s(self) -> float:
        return statistics.median(run.cpu_s for run in self.runs)

    @property
    def server_cpu_s(self) -> float | None:
        served = [run.server_cpu_s for run in self.runs if run.server_cpu_s is not None]
        return statistics.median(served) if served else None

    @property
    def idle_cores(self) -> float | None:
        """The machine's idle cores over the runs (median), whoever else used them."""
        idle = [run.idle_cores for run in self.runs if run.idle_cores is not None]
        return statistics.median(idle) if idle else None

    @property
    def server_share(self) -> float | None:
        """The server's share of the machine's cores over the run (its CPU / (wall × cores))."""
        served = self.server_cpu_s
        return None if served is None else served / (self.wall_s * (os.cpu_count() or 1))


def measure_option(folder: Path, option: str, levels: tuple[int, ...], questions: int = QUESTIONS,
                   rounds: int = ROUNDS, delay_s: float = 0.02, serve: Callable[[], Any] | None = None,
                   extra: tuple[str, ...] = ()) -> dict[int, list[ProcessCost]]:
    """`factprobe run OPTION LEVEL` (and `extra`) for each level, `rounds` times, interleaved, each
    run on an empty cache against one server (`serve`: its factory; by default the Python stand-in
    answering after `delay_s`); the runs of each level."""
    dataset = write_dataset(folder, questions)
    runs: dict[int, list[ProcessCost]] = {level: [] for level in levels}
    with (serve or (lambda: ChatServer(delay_s)))() as server:
        for round_number in range(rounds):
            for level in levels:
                name = f"{option.lstrip('-')[0]}{level}-r{round_number}"
                env = {**os.environ, "FACTPROBE_CACHE": str(folder / f"cache-{name}"), "COLUMNS": "160"}
                command = [*factprobe_command(server, dataset, folder / name), option, str(level), *extra]
                run = run_process(command, server, env, folder / f"{name}.log")
                if run.requests != questions:
                    raise RuntimeError(f"{option} {level} made {run.requests} requests for {questions} questions")
                runs[level].append(run)
    return runs


def measure_workers(folder: Path, questions: int = QUESTIONS, workers: tuple[int, ...] = WORKERS,
                    rounds: int = ROUNDS, delay_s: float = 0.02, serve: Callable[[], Any] | None = None,
                    extra: tuple[str, ...] = ()) -> list[WorkersCost]:
    """Each worker count run `rounds` times, interleaved, each run on an empty cache."""
    runs = measure_option(folder, "--workers", workers, questions, rounds, delay_s, serve, extra)
    return [WorkersCost(count, done) for count, done in runs.items()]


def workers_table(costs: list[WorkersCost], questions: int, server: str = "20 ms stand-in") -> Table:
    base = costs[0]
    table = Table(title=f"throughput against --workers ({questions:,} questions, {server}, {os.cpu_count()} cores)")
    for column in ("workers", "wall s", "questions/s", "wall / 1 worker", "throughput / 1 worker", "CPU s",
                   "server CPU s", "server share of cores", "idle cores (machine)"):
        table.add_column(column, justify="right")
    for cost in costs:
        served, share, idle = cost.server_cpu_s, cost.server_share, cost.idle_cores
        table.add_row(str(cost.workers), f"{cost.wall_s:.2f}", f"{questions / cost.wall_s:.0f}",
                      f"{cost.wall_s / base.wall_s:.2f}x", f"{base.wall_s / cost.wall_s:.2f}x", f"{cost.cpu_s:.1f}",
                      "–" if served is None else f"{served:.2f}", "–" if share is None else f"{100 * share:.1f}%",
                      "–" if idle is None else f"{idle:.2f}")
    return table


def workers_figures(costs: list[WorkersCost]) -> list[Figure]:
    by_count = {cost.workers: cost for cost in costs}
    if 1 not in by_count or 2 not in by_count:
        return []
    ratio = by_count[2].wall_s / by_count[1].wall_s
    return [Figure("wall time, --workers 2 / --workers 1", f"{ratio:.2f}x", f"<= {TARGET}x", ratio <= TARGET)]


def run(console: Console) -> None:
    with tempfile.TemporaryDirectory(prefix="factprobe-bench-") as folder:
        costs = measure_workers(Path(folder))
    console.print(workers_table(costs, QUESTIONS))
    print_figures(console, f"{QUESTIONS} questions at --concurrency 64 per worker, 20 ms server",
                  workers_figures(costs))
